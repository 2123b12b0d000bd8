// Package wiretext holds the rules of the text the front doors accept
// (httpapi's fields and parameters, mcp's arguments, the OAuth flow's
// parameters): UTF-8 without NUL, within a length in characters, and no
// \u escape of a lone UTF-16 surrogate (\ud800 without its low half, or
// \udc00 without its high one), which encoding/json would replace with
// U+FFFD. Text is refused rather than stored altered.
package wiretext

import (
	"strings"
	"unicode/utf8"

	"github.com/clubhouse-go/clubhouse"
)

// Check refuses text PostgreSQL cannot store (not UTF-8, or holding NUL),
// or longer than max characters, with an Invalid error naming field.
func Check(field, s string, max int) error {
	switch {
	case !utf8.ValidString(s):
		return NotUTF8(field)
	case strings.IndexByte(s, 0) >= 0:
		return clubhouse.ErrInvalidData.Withf("%s must not contain NUL characters.", field)
	case len(s) > max && utf8.RuneCountInString(s) > max:
		return clubhouse.ErrInvalidData.Withf("%s must be at most %d characters long.", field, max)
	}
	return nil
}

// NotUTF8 is the error of a field whose text is not UTF-8.
func NotUTF8(field string) error {
	return clubhouse.ErrInvalidData.Withf("%s must be UTF-8 text.", field)
}

// LoneSurrogate returns the offset in b of the first \u escape of a lone
// surrogate inside a JSON string, or -1 when there is none. b is JSON text;
// escapes outside strings cannot occur in valid JSON.
func LoneSurrogate(b []byte) int {
	pendingHigh := -1 // offset of a high surrogate escape waiting for its low half
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			if pendingHigh >= 0 {
				return pendingHigh
			}
			continue
		}
		if i+1 >= len(b) {
			break
		}
		if b[i+1] != 'u' {
			if pendingHigh >= 0 {
				return pendingHigh
			}
			i++ // an escaped character, such as \\ or \"
			continue
		}
		v, ok := hex4(b[i+2:])
		switch {
		case !ok:
			i++
		case v >= 0xD800 && v <= 0xDBFF:
			if pendingHigh >= 0 {
				return pendingHigh
			}
			pendingHigh = i
			i += 5
		case v >= 0xDC00 && v <= 0xDFFF:
			if pendingHigh < 0 {
				return i
			}
			pendingHigh = -1
			i += 5
		default:
			if pendingHigh >= 0 {
				return pendingHigh
			}
			i += 5
		}
	}
	return pendingHigh
}

// hex4 reads the four hexadecimal digits at the start of b.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var v rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// CheckSet is Check of the text o holds, when o holds text: a domain
// service checks with it the optional fields of its input against its own
// limits, with the message a front door gives.
func CheckSet(field string, o clubhouse.Optional[string], max int) error {
	if !o.Present() {
		return nil
	}
	return Check(field, *o.Value, max)
}
