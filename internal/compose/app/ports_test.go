package app_test

import (
	"bytes"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/clubhouse-go/clubhouse/internal/compose/app"
)

func TestBrowserBlockedPort(t *testing.T) {
	t.Parallel()
	for port, blocked := range map[int]bool{
		6000: true, 6665: true, 6669: true, 4045: true, 10080: true, 22: true,
		8080: false, 3000: false, 6001: false, 443: false, 80: false, 18000: false,
	} {
		assert.Equal(t, blocked, app.BrowserBlockedPort(port), "port %d", port)
	}
}

func TestWarnBlockedPort(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	app.WarnBlockedPort(log, 8080)
	assert.Empty(t, buf.String(), "8080 is fine")
	app.WarnBlockedPort(log, 6000)
	assert.Contains(t, buf.String(), "level=WARN")
	assert.Contains(t, buf.String(), "port=6000")
	assert.Contains(t, buf.String(), "ERR_UNSAFE_PORT")
	assert.Contains(t, buf.String(), "set PORT to another port")
}
