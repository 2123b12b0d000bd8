package auth

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"
)

// TestNewService_dummyHashCost keeps a login for an unknown email as slow as
// one with a wrong password: the dummy hash has the cost of real hashes, or
// response times would tell which emails have accounts.
func TestNewService_dummyHashCost(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ cost, want int }{
		{0, bcrypt.DefaultCost},
		{bcrypt.MinCost, bcrypt.MinCost},
		{6, 6},
	} {
		s := NewService(Options{BcryptCost: tc.cost})
		got, err := bcrypt.Cost(s.dummyHash)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, "BcryptCost %d", tc.cost)
	}
}
