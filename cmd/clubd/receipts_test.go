package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/objtest"
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
	courtType := post("/api/admin/court-types", `{"name":"Padel"}`)
	court := post("/api/admin/courts", `{"name":"A","price":1000,"court_type_id":`+courtType+`}`)
	rental := post("/api/admin/reservation-types", `{"name":"Rental"}`)
	post("/api/admin/reservation-statuses", `{"name":"Pending","color":"#F9A825"}`)
	booking := post("/api/admin/booking", `{"court_id":`+court+`,"reservation_type_id":`+rental+`,"checking":"2026-03-02 10:00","checkout":"2026-03-02 11:00"}`)

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
	keys, err := objtest.Store(t, cfg).Keys(context.Background(), "receipts/"+booking+"/")
	require.NoError(t, err)
	assert.Len(t, keys, 1, "the receipt is in the bucket, not under the ignored public base URL")
	require.NoError(t, s.stop(t))
}

func TestRun_invalidObjectStoreEndpoint(t *testing.T) {
	err := run(context.Background(), []string{"clubd", "--objstore-bucket", "b", "--objstore-endpoint", "s3.local:9000"}, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "OBJSTORE_ENDPOINT")
}
