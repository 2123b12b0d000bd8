// Package jsontext finds what encoding/json accepts in JSON text but cannot
// keep: a \u escape of a lone UTF-16 surrogate (\ud800 without its low
// half, or \udc00 without its high one), which encoding/json replaces with
// U+FFFD. A front door that stores text as it came refuses such input rather
// than store it altered.
package jsontext

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
