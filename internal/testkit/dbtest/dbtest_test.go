package dbtest_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
)

func TestNew_isolatedAndMigrated(t *testing.T) {
	t.Parallel()
	a, b := dbtest.New(t), dbtest.New(t)
	ctx := context.Background()
	_, err := a.ExecContext(ctx, "INSERT INTO court_types (name) VALUES ('Tennis')")
	require.NoError(t, err)
	var na, nb int
	require.NoError(t, a.GetContext(ctx, &na, "SELECT count(*) FROM court_types"))
	require.NoError(t, b.GetContext(ctx, &nb, "SELECT count(*) FROM court_types"))
	assert.Equal(t, 1, na)
	assert.Equal(t, 0, nb, "a second test database must not see the first one's rows")
}
