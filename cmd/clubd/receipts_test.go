package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/objtest"
)

// TestRun_receiptStorage configures receipt storage through the OBJSTORE_*
// variables and sends a receipt through clubd to a real S3-compatible server.
func TestRun_receiptStorage(t *testing.T) {
	cfg := objtest.New(t)
	t.Setenv("OBJSTORE_BUCKET", cfg.Bucket)
	t.Setenv("OBJSTORE_ACCESS_KEY_ID", cfg.AccessKeyID)
	t.Setenv("OBJSTORE_SECRET_ACCESS_KEY", cfg.SecretAccessKey)
	t.Setenv("OBJSTORE_DEFAULT_REGION", cfg.Region)
	t.Setenv("OBJSTORE_ENDPOINT", cfg.Endpoint)
	t.Setenv("OBJSTORE_USE_PATH_STYLE_ENDPOINT", "true")
	t.Setenv("OBJSTORE_PUBLIC_BASE_URL", "https://cdn.example.com/receipts")
	s := start(t, dbtest.Missing(t), filepath.Join(t.TempDir(), "k.pem"), "--bot-api-keys", "bot-key")
	booking := sendReceipt(t, s)
	keys, err := objtest.Store(t, cfg).Keys(context.Background(), "receipts/"+booking+"/")
	require.NoError(t, err)
	assert.Len(t, keys, 1, "the receipt is in the bucket, not under the ignored public base URL")
	require.NoError(t, s.stop(t))
}

// TestRun_receiptDirectory keeps receipts in the local directory of
// OBJSTORE_DIR, through the same routes and checks as a bucket.
func TestRun_receiptDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "receipts")
	t.Setenv("OBJSTORE_DIR", dir)
	s := start(t, dbtest.Missing(t), filepath.Join(t.TempDir(), "k.pem"), "--bot-api-keys", "bot-key")
	booking := sendReceipt(t, s)
	files, err := filepath.Glob(filepath.Join(dir, "receipts", booking, "*.png"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	fi, err := os.Stat(files[0])
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	require.NoError(t, s.stop(t))
}

// TestRun_demoReceipts: clubd --demo keeps receipts in ./clubhouse-receipts
// when no store is configured, so that the demo's receipt routes work.
func TestRun_demoReceipts(t *testing.T) {
	wd := t.TempDir()
	t.Chdir(wd)
	s := start(t, dbtest.Missing(t), filepath.Join(wd, "k.pem"), "--bot-api-keys", "bot-key", "--demo")
	booking := sendReceipt(t, s)
	files, err := filepath.Glob(filepath.Join(wd, app.DemoObjectsDir, "receipts", booking, "*.png"))
	require.NoError(t, err)
	assert.Len(t, files, 1)
	require.NoError(t, s.stop(t))
}

// TestRun_bucketOrDirectory: a bucket and a directory together are refused.
func TestRun_bucketOrDirectory(t *testing.T) {
	err := run(context.Background(), []string{"clubd", "--objstore-bucket", "b", "--objstore-dir", t.TempDir()}, io.Discard, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "exclusive")
}

// sendReceipt creates a booking on s with the bot key, pays it with a PNG
// receipt sent as multipart, reads the receipt back through the API and
// returns the booking's id.
func sendReceipt(t *testing.T, s *server) string {
	t.Helper()
	call := func(method, path, contentType string, body []byte, want int) []byte {
		t.Helper()
		req, err := http.NewRequest(method, s.url(path), bytes.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("X-Auth", "bot-key")
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("Cookie", "XSRF-TOKEN=tok")
		req.Header.Set("X-XSRF-TOKEN", "tok")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		require.Equal(t, want, res.StatusCode, "%s %s: %s", method, path, b)
		return b
	}
	id := func(b []byte) string {
		var v struct{ ID int64 }
		require.NoError(t, json.Unmarshal(b, &v))
		return strconv.FormatInt(v.ID, 10)
	}
	post := func(path, body string) string {
		return id(call(http.MethodPost, path, "application/json", []byte(body), http.StatusCreated))
	}
	courtType := post("/api/admin/court-types", `{"name":"Receipt test courts"}`)
	court := post("/api/admin/courts", `{"name":"Receipt test court","price":1000,"court_type_id":`+courtType+`}`)
	rental := post("/api/admin/reservation-types", `{"name":"Receipt test rental"}`)
	post("/api/admin/reservation-statuses", `{"name":"Receipt test pending","color":"#F9A825"}`)
	booking := post("/api/admin/booking", `{"court_id":`+court+`,"reservation_type_id":`+rental+`,"checking":"2026-03-02 10:00","checkout":"2026-03-02 11:00",`+
		`"override_rules":true}`) // a past booking, recorded against the demo's rules

	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	require.NoError(t, mw.WriteField("amount", "1000"))
	require.NoError(t, mw.WriteField("transaction_id", "TX-1"))
	w, err := mw.CreateFormFile("foto", "r.png")
	require.NoError(t, err)
	_, err = w.Write(png)
	require.NoError(t, err)
	require.NoError(t, mw.Close())
	payment := id(call(http.MethodPost, "/api/admin/booking/"+booking+"/payment", mw.FormDataContentType(), body.Bytes(), http.StatusCreated))

	got := call(http.MethodGet, "/api/admin/booking/"+booking+"/payment/"+payment+"/foto", "", nil, http.StatusOK)
	assert.Equal(t, png, got)
	return booking
}

func TestRun_invalidObjectStoreEndpoint(t *testing.T) {
	err := run(context.Background(), []string{"clubd", "--objstore-bucket", "b", "--objstore-endpoint", "s3.local:9000"}, io.Discard, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "OBJSTORE_ENDPOINT")
}
