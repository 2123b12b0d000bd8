package mcp

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/clubhouse-go/clubhouse/internal/testkit/limittest"
)

// TestLimits_areTheDomains: every limit an argument type states in a tag,
// which decode enforces and the tool's input schema publishes, is the value
// of the domain constant its limit tag names, and the domain checks it too.
func TestLimits_areTheDomains(t *testing.T) {
	t.Parallel()
	assert.Positive(t, limittest.Check(t, "."))
}
