package main

import (
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
)

// TestRun_blockedPortWarning starts clubd on a port that browsers refuse
// (one of the Fetch standard's bad ports that is free here, not 6000, which
// another program may hold) and then on an ordinary one: only the first
// start logs the warning, and it says what fails and what to do.
func TestRun_blockedPortWarning(t *testing.T) {
	port := freeBlockedPort(t)
	dsn, key := dbtest.Missing(t), filepath.Join(t.TempDir(), "k.pem")
	s := startOn(t, port, dsn, key)
	require.NoError(t, s.stop(t))
	log := s.log.String()
	assert.Regexp(t, `level=WARN msg=".*ERR_UNSAFE_PORT.*/api-docs.*OAuth login page.*MCP clients cannot connect; set PORT to another port, such as 8080" port=`+strconv.Itoa(port), log)

	s = start(t, dsn, key)
	require.NoError(t, s.stop(t))
	assert.Contains(t, s.log.String(), "clubd listening", "the log was captured")
	assert.NotContains(t, s.log.String(), "level=WARN")
}

// freeBlockedPort returns a port on the browsers' blocked list that nothing
// listens on here.
func freeBlockedPort(t *testing.T) int {
	t.Helper()
	for _, port := range []int{6665, 6666, 6667, 6668, 6669, 6679, 6697, 6566, 4190, 4045, 10080} {
		require.True(t, app.BrowserBlockedPort(port), "port %d", port)
		ln, err := net.Listen("tcp", fmt.Sprintf(":%d", port))
		if err == nil {
			require.NoError(t, ln.Close())
			return port
		}
	}
	t.Fatal("every candidate blocked port is taken")
	return 0
}
