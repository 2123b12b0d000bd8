package clubhouse

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Optional is a field of a partial update: Set tells whether the field was
// sent at all, and Value is nil when it was sent as null (clear the field).
type Optional[T any] struct {
	Set   bool
	Value *T
}

// Some returns an Optional set to v.
func Some[T any](v T) Optional[T] { return Optional[T]{Set: true, Value: &v} }

// UnmarshalJSON records that the field was present. The common values, an
// integer for an Optional[int64] and a string without escapes for an
// Optional[string], are read directly; any other value, and any of those
// that the direct read does not take, goes to json.Unmarshal, so that
// values and errors are encoding/json's.
func (o *Optional[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		o.Value = nil
		return nil
	}
	var v T
	if !decodeCommon(b, &v) {
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
	}
	o.Value = &v
	return nil
}

// decodeCommon stores the JSON value b in *dst and reports true when b is
// an integer that fits an int64 and dst an *int64, or b a string without
// escapes and dst a *string. Otherwise it leaves *dst alone and reports
// false.
func decodeCommon(b []byte, dst any) bool {
	switch p := dst.(type) {
	case *int64:
		digits := b
		if len(digits) > 0 && digits[0] == '-' {
			digits = digits[1:]
		}
		if len(digits) == 0 || (digits[0] == '0' && len(digits) > 1) {
			return false
		}
		for _, c := range digits {
			if c < '0' || c > '9' {
				return false
			}
		}
		n, err := strconv.ParseInt(string(b), 10, 64)
		if err != nil {
			return false
		}
		*p = n
		return true
	case *string:
		if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
			return false
		}
		s := b[1 : len(b)-1]
		for _, c := range s {
			if c < ' ' || c == '"' || c == '\\' {
				return false
			}
		}
		if !utf8.Valid(s) {
			return false
		}
		*p = string(s)
		return true
	}
	return false
}

// Present reports whether the field was sent with a value (not null).
func (o Optional[T]) Present() bool { return o.Set && o.Value != nil }

// Or returns the value when set and non-null, else def.
func (o Optional[T]) Or(def T) T {
	if o.Set && o.Value != nil {
		return *o.Value
	}
	return def
}
