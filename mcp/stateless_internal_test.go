package mcp

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestStatelessRequest: only a revision date from 2026-07-28 on goes the
// stateless way; other header values go the way of sessions, whose checks
// refuse what they do not know.
func TestStatelessRequest(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{"2026-07-28": true, "2027-01-01": true, "2025-11-25": false, "": false,
		"9": false, "z": false, "2026-07-28x": false, "9999": false} {
		r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		r.Header.Set("Mcp-Protocol-Version", v)
		assert.Equal(t, want, statelessRequest(r), "%q", v)
	}
}
