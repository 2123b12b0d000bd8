package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
)

// wsClientDir holds the script that listens with the npm ws client, with
// its npm lockfile; make services-test installs its packages (npm ci).
const wsClientDir = "../../realtime/testdata/wsclient"

// TestRealtime_npmClientAcrossInstances: two clubd instances on one
// database and one Redis, behind one public address as a proxy would put
// them, with the same signing key. The npm ws client, connected to the
// second, hears the booking that a staff member makes through the first.
//
// Not parallel: clubds started at once in one process write the same
// global flags of urfave/cli (its help flag), which the race detector
// reports; this test starts its two one after the other, alone.
func TestRealtime_npmClientAcrossInstances(t *testing.T) {
	node, err := exec.LookPath("node")
	require.NoError(t, err, "Node.js is needed: run make services-test")
	_, err = os.Stat(filepath.Join(wsClientDir, "node_modules", "ws", "package.json"))
	require.NoError(t, err, "the npm ws client is not installed: run make services-test (npm ci in %s)", wsClientDir)

	dsn, key := dbtest.Missing(t), filepath.Join(t.TempDir(), "k.pem")
	portA, portB := freePort(t), freePort(t)
	public := fmt.Sprintf("http://127.0.0.1:%d", portA)
	prefix := fmt.Sprintf("clubhouse-test:%s:%d", t.Name(), time.Now().UnixNano())
	shared := []string{"--demo", "--public-base-url", public, "--realtime-enabled", "--redis-url", "redis://127.0.0.1:6379/0",
		"--realtime-redis-prefix", prefix}
	a := startOn(t, portA, dsn, key, shared...)
	passwords, _ := demoPasswords(t, a.stdout.String())
	b := startOn(t, portB, dsn, key, shared...)

	var login struct {
		AccessToken string `json:"access_token"`
	}
	body, err := json.Marshal(map[string]string{"email": "operator@demo.club", "password": passwords["operator@demo.club"]})
	require.NoError(t, err)
	res, err := http.Post(a.url("/api/auth/login"), "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	require.NoError(t, json.NewDecoder(res.Body).Decode(&login))
	res.Body.Close()
	require.NotEmpty(t, login.AccessToken)

	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "listen.mjs")
	cmd.Dir = wsClientDir
	cmd.Env = append(os.Environ(), "WS_URL=ws://"+b.addr+"/realtime", "TOKEN="+login.AccessToken, "ROOM=panel", "EVENT=booking:changed")
	var stderr syncBuffer // read below while node writes it
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	lines := bufio.NewScanner(stdout)
	require.True(t, lines.Scan(), "listen.mjs printed nothing: %s", stderr.String())
	require.Equal(t, "ready", lines.Text())

	day := bookableDay(time.Now())
	booking, err := json.Marshal(map[string]any{"court_id": 1, "reservation_type_id": 1,
		"checking": day + " 10:00:00", "checkout": day + " 11:00:00"})
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, a.url("/api/admin/booking"), bytes.NewReader(booking))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+login.AccessToken)
	req.Header.Set("Content-Type", "application/json")
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	var created struct {
		ID int64 `json:"id"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&created))
	res.Body.Close()
	require.Equal(t, http.StatusCreated, res.StatusCode)

	require.True(t, lines.Scan(), "no message reached the npm client: %s", stderr.String())
	var m struct {
		Type, ID, Event, Room, At string
		Data                      struct {
			IDs []int64 `json:"ids"`
		}
	}
	require.NoError(t, json.Unmarshal(lines.Bytes(), &m), lines.Text())
	require.NoError(t, cmd.Wait(), stderr.String())
	assert.Equal(t, "message", m.Type)
	assert.Equal(t, "booking:changed", m.Event)
	assert.Equal(t, "panel", m.Room)
	assert.Equal(t, []int64{created.ID}, m.Data.IDs)
	assert.NotEmpty(t, m.ID)
	at, err := time.Parse(time.RFC3339, m.At)
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now(), at, time.Minute)
}
