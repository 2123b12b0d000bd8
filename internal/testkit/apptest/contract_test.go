package apptest

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func check(t *testing.T, method, path string, code int, body string) []string {
	t.Helper()
	req, err := http.NewRequest(method, "http://clubhouse.test"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{TB: t}
	h := http.Header{"Content-Type": {"application/json"}}
	checkContract(rec, req, nil, &Response{Method: method, Path: path, Code: code, Header: h, Body: []byte(body)})
	return rec.errors
}

// TestContract_catchesDrift proves the contract check fails on each kind of
// drift between the server and its description.
func TestContract_catchesDrift(t *testing.T) {
	t.Parallel()
	ok := `{"status":"ok","database":"up","accounting":"off"}`
	assert.Empty(t, check(t, "GET", "/health", 200, ok), "a documented response passes")
	assert.NotEmpty(t, check(t, "GET", "/api/nowhere", 200, ok), "an undocumented route fails")
	assert.NotEmpty(t, check(t, "GET", "/health", 418, ok), "an undocumented status fails")
	assert.NotEmpty(t, check(t, "GET", "/health", 200, `{"status":"ok","database":"up","accounting":"off","extra":1}`), "an undocumented field fails")
	assert.NotEmpty(t, check(t, "GET", "/health", 200, `{"status":"ok"}`), "a missing required field fails")
	assert.NotEmpty(t, check(t, "GET", "/health", 200, `{"status":"ok","database":7,"accounting":"off"}`), "a field of the wrong type fails")
	assert.Empty(t, check(t, "GET", "/api/nowhere", 404, `{"error":"not found"}`), "a 404 error for an unknown path passes")
	assert.NotEmpty(t, check(t, "GET", "/api/nowhere", 404, `not json`), "a 404 without an error body fails")
}
