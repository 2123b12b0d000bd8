package clubhouse_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
)

func TestPaging_Limit(t *testing.T) {
	t.Parallel()
	p := clubhouse.Paging{Default: 100, Max: 1000}
	for n, want := range map[int]int{0: 100, 1: 1, 250: 250, 1000: 1000} {
		got, err := p.Limit("limit", n)
		require.NoError(t, err)
		assert.Equal(t, want, got, "limit %d", n)
	}
	for _, n := range []int{-1, 1001} {
		_, err := p.Limit("limit", n)
		require.ErrorIs(t, err, clubhouse.ErrInvalidQuery)
		assert.Contains(t, err.Error(), "limit must be an integer from 1 to 1000")
	}
}
