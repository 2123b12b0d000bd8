package limittest

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFieldErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		tag  reflect.StructTag
		want int // errors
	}{
		{"the domain's value", `json:"notes" maxLength:"2000" limit:"booking.MaxNotes"`, 0},
		{"two limits, two constants", `json:"phones" maxItems:"10" maxLength:"32" limit:"tickets.MaxPhones tickets.MaxPhoneLength"`, 0},
		{"the doors' default text", `json:"name" maxLength:"255"`, 0},
		{"a UUID", `json:"quote_id" format:"uuid" maxLength:"36"`, 0},
		{"ids and counts from 0 or 1, an integer column", `json:"n" minimum:"1" maximum:"2147483647"`, 0},
		{"no constant named", `json:"notes" maxLength:"2000"`, 1},
		{"another value than the constant's", `json:"notes" maxLength:"2001" limit:"booking.MaxNotes"`, 2},
		{"a name the kit does not hold", `json:"notes" maxLength:"2000" limit:"booking.MaxNote"`, 2},
		{"36 characters that are not a UUID", `json:"code" maxLength:"36"`, 1},
		{"ids sent as text", `json:"ids" swaggertype:"array,string" maxItems:"1000" maxLength:"20" limit:"booking.MaxDeleteMany"`, 0},
		{"a constant none of the limits is", `json:"ticket_count" maximum:"1000" limit:"tickets.MaxTicketCount tickets.MaxPhones"`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Len(t, fieldErrors(tc.tag), tc.want, "%q", fieldErrors(tc.tag))
		})
	}
}
