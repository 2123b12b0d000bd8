package webhooks

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestNew_timeout: an attempt's timeout stays well within a claim's
// lease, so that no other instance claims a message mid-attempt.
func TestNew_timeout(t *testing.T) {
	t.Parallel()
	assert.Equal(t, DefaultTimeout, New(nil, Options{}).o.Timeout)
	assert.Equal(t, 5*time.Second, New(nil, Options{Timeout: 5 * time.Second}).o.Timeout)
	assert.Equal(t, MaxTimeout, New(nil, Options{Timeout: time.Hour}).o.Timeout)
	assert.LessOrEqual(t, MaxTimeout, lease/4)
	assert.Equal(t, MaxTimeout, New(nil, Options{Timeout: time.Hour}).client.Timeout)
}
