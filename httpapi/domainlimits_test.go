package httpapi

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/clubhouse-go/clubhouse/internal/testkit/limittest"
)

// TestLimits_areTheDomains: every limit a wire type states in a tag, which
// decodeJSON enforces and the API description publishes, is the value of
// the domain constant its limit tag names, and the domain checks it too.
func TestLimits_areTheDomains(t *testing.T) {
	t.Parallel()
	assert.Positive(t, limittest.Check(t, "."))
}
