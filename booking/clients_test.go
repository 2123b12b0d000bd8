package booking_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
)

// TestClients_List_search: the desk finds a client by any part of their
// name (first, last or both, in any case), their document, their email or
// their phone; a term's LIKE wildcards are plain characters, and a page
// of the matches is taken in id order.
func TestClients_List_search(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	c := booking.New(db.DB, booking.Options{Zone: time.UTC}).Clients
	club := fixture.New(t, db.DB, fixture.Options{})
	ana := club.Client("Ana", "Gómez", func(in *booking.ClientInput) {
		in.Document, in.Phone = clubhouse.Some("1020304050"), clubhouse.Some("+573001112233")
	})
	eva := club.Member("Eva", "Paz").Client // its email is its login's, eva@test.club
	ana2 := club.Client("Anabel", "Ruiz")

	for _, tc := range []struct {
		name, term string
		want       []int64
	}{
		{"first name, any case", "ANA", []int64{ana.ID, ana2.ID}},
		{"last name", "gómez", []int64{ana.ID}},
		{"full name", "Ana Gómez", []int64{ana.ID}},
		{"part of the document", "0304", []int64{ana.ID}},
		{"part of the email", "eva@test", []int64{eva.ID}},
		{"part of the phone", "3001112", []int64{ana.ID}},
		{"spaces around the term", "  Eva ", []int64{eva.ID}},
		{"a wildcard is a character", "%", []int64{}},
		{"no match", "Zoe", []int64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := c.List(t.Context(), desk, tc.term, 0, 0)
			require.NoError(t, err)
			ids := []int64{}
			for _, r := range rows {
				ids = append(ids, r.ID)
			}
			assert.Equal(t, tc.want, ids)
		})
	}

	rows, err := c.List(t.Context(), desk, "ana", 1, 1)
	require.NoError(t, err)
	require.Len(t, rows, 1)
	assert.Equal(t, ana2.ID, rows[0].ID, "the second match, one a page")
}
