package clubhouse_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
)

func TestPaging_Page(t *testing.T) {
	t.Parallel()
	p := clubhouse.Paging{Default: 100, Max: 1000}
	for _, tc := range []struct {
		name          string
		limit, offset int
		want          [2]int
		wantErr       string
	}{
		{name: "limit 0 is the default", want: [2]int{100, 0}},
		{name: "one", limit: 1, offset: 5, want: [2]int{1, 5}},
		{name: "the maximum", limit: 1000, offset: clubhouse.MaxOffset, want: [2]int{1000, clubhouse.MaxOffset}},
		{name: "negative limit", limit: -1, wantErr: "limit must be an integer from 1 to 1000, not -1."},
		{name: "limit above the maximum", limit: 1001, wantErr: "limit must be an integer from 1 to 1000, not 1001."},
		{name: "negative offset", limit: 10, offset: -1, wantErr: "offset must be an integer from 0 to 2147483647, not -1."},
		{name: "offset above the maximum", offset: clubhouse.MaxOffset + 1, wantErr: "offset must be an integer from 0 to 2147483647, not 2147483648."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, o, err := p.Page(tc.limit, tc.offset)
			if tc.wantErr != "" {
				require.ErrorIs(t, err, clubhouse.ErrInvalidQuery)
				assert.Equal(t, tc.wantErr, clubhouse.AsError(err).Message)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, [2]int{l, o})
		})
	}
}

func TestPaging_Numbered(t *testing.T) {
	t.Parallel()
	p := clubhouse.Paging{Default: 10, Max: 100}
	for _, tc := range []struct {
		name        string
		page, limit int
		want        [2]int
		wantErr     string
	}{
		{name: "the first page, default size", page: 1, want: [2]int{10, 0}},
		{name: "the third page of 20", page: 3, limit: 20, want: [2]int{20, 40}},
		{name: "the last page", page: clubhouse.MaxPage, limit: 100, want: [2]int{100, (clubhouse.MaxPage - 1) * 100}},
		{name: "page 0", page: 0, wantErr: "page must be an integer from 1 to 1000000, not 0."},
		{name: "page above the maximum", page: clubhouse.MaxPage + 1, wantErr: "page must be an integer from 1 to 1000000, not 1000001."},
		{name: "limit above the maximum", page: 1, limit: 101, wantErr: "limit must be an integer from 1 to 100, not 101."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, o, err := p.Numbered(tc.page, tc.limit)
			if tc.wantErr != "" {
				require.ErrorIs(t, err, clubhouse.ErrInvalidQuery)
				assert.Equal(t, tc.wantErr, clubhouse.AsError(err).Message)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, [2]int{l, o})
		})
	}
}

func TestPaging_Size(t *testing.T) {
	t.Parallel()
	p := clubhouse.Paging{Default: 10, Max: 100}
	assert.Equal(t, 10, p.Size(0))
	assert.Equal(t, 42, p.Size(42))
}

func TestPaging_Limit(t *testing.T) {
	t.Parallel()
	p := clubhouse.Paging{Default: 50, Max: 1000}
	for n, want := range map[int]int{0: 50, 1: 1, 1000: 1000} {
		got, err := p.Limit("maxResults", n)
		require.NoError(t, err)
		assert.Equal(t, want, got, "maxResults %d", n)
	}
	for _, n := range []int{-1, 1001} {
		_, err := p.Limit("maxResults", n)
		require.ErrorIs(t, err, clubhouse.ErrInvalidQuery)
		assert.Contains(t, clubhouse.AsError(err).Message, "maxResults must be an integer from 1 to 1000")
	}
}
