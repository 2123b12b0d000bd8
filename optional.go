package clubhouse

import "encoding/json"

// Optional is a field of a partial update: Set tells whether the field was
// sent at all, and Value is nil when it was sent as null (clear the field).
type Optional[T any] struct {
	Set   bool
	Value *T
}

// Some returns an Optional set to v.
func Some[T any](v T) Optional[T] { return Optional[T]{Set: true, Value: &v} }

// UnmarshalJSON records that the field was present.
func (o *Optional[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		o.Value = nil
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	o.Value = &v
	return nil
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
