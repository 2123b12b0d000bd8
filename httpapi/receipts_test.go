package httpapi_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/objstore"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/objtest"
	"github.com/clubhouse-go/clubhouse/payments"
)

// Tiny valid images.
var (
	jpegImage = encodeImage(jpeg.Encode)
	pngImage  = encodeImage(func(w io.Writer, m image.Image, _ *jpeg.Options) error { return png.Encode(w, m) })
	// webpImage is a 1×1 lossless WebP: a RIFF header, a VP8L chunk of 9
	// bytes (signature 0x2f, 14-bit width-1 and height-1, alpha and version
	// bits, then one-symbol prefix codes for green, red, blue, alpha = 255
	// and distance) and its pad byte.
	webpImage = []byte("RIFF\x16\x00\x00\x00WEBPVP8L\x09\x00\x00\x00\x2f\x00\x00\x00\x00\x88\x88\xfe\x07\x00")
	pdfBytes  = []byte("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
)

func encodeImage(enc func(io.Writer, image.Image, *jpeg.Options) error) []byte {
	m := image.NewRGBA(image.Rect(0, 0, 2, 2))
	m.Set(0, 0, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	if err := enc(&b, m, nil); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// formFile is the file part of a multipart request.
type formFile struct {
	name, filename, contentType string
	data                        []byte
}

// form encodes text fields (name, value pairs, in order) and files as
// multipart/form-data; it returns the body and its Content-Type.
func form(tb testing.TB, fields []string, files ...formFile) ([]byte, string) {
	tb.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for i := 0; i+1 < len(fields); i += 2 {
		require.NoError(tb, mw.WriteField(fields[i], fields[i+1]))
	}
	for _, f := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, f.name, f.filename))
		h.Set("Content-Type", f.contentType)
		w, err := mw.CreatePart(h)
		require.NoError(tb, err)
		_, err = w.Write(f.data)
		require.NoError(tb, err)
	}
	require.NoError(tb, mw.Close())
	return b.Bytes(), mw.FormDataContentType()
}

func foto(data []byte, filename, contentType string) formFile {
	return formFile{name: "foto", filename: filename, contentType: contentType, data: data}
}

// receiptStore is a store of receipts that lists its keys, as both
// objstore.Store and objstore.Dir do.
type receiptStore interface {
	payments.ObjectStore
	Keys(ctx context.Context, prefix string) ([]string, error)
}

// openStore returns a new, empty receiptStore for the test t.
type openStore func(t *testing.T) receiptStore

func openBucket(t *testing.T) receiptStore { return objtest.Store(t, objtest.New(t)) }

func openDir(t *testing.T) receiptStore {
	d, err := objstore.NewDir(t.TempDir())
	require.NoError(t, err)
	return d
}

// eachStore runs test in parallel against both of clubd's receipt stores:
// a bucket in its own versitygw (OBJSTORE_BUCKET) and a local directory
// (OBJSTORE_DIR).
func eachStore(t *testing.T, test func(t *testing.T, open openStore)) {
	t.Parallel()
	for name, open := range map[string]openStore{"bucket": openBucket, "directory": openDir} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			test(t, open)
		})
	}
}

// receiptFixture is a test app storing receipts in a store of its own,
// with a booking to pay.
type receiptFixture struct {
	app     *apptest.App
	store   receiptStore
	booking int64
	other   int64 // another booking
}

// newReceiptFixture is a receiptFixture storing receipts in a bucket.
func newReceiptFixture(t *testing.T, opts ...apptest.Option) receiptFixture {
	t.Helper()
	return newReceiptFixtureIn(t, openBucket(t), opts...)
}

func newReceiptFixtureIn(t *testing.T, store receiptStore, opts ...apptest.Option) receiptFixture {
	t.Helper()
	app := apptest.New(t, append([]apptest.Option{apptest.WithObjects(store)}, opts...)...)
	return withBookings(t, receiptFixture{app: app, store: store})
}

func withBookings(t *testing.T, f receiptFixture) receiptFixture {
	t.Helper()
	c := newClub(t, f.app)
	admin := f.app.AsAdmin()
	f.booking = admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")).Status(t, http.StatusCreated).ID(t)
	f.other = admin.Post("/api/admin/booking", c.slot(c.courtB, "2026-03-02 10:00", "2026-03-02 11:00")).Status(t, http.StatusCreated).ID(t)
	return f
}

// send sends a multipart request as the admin.
func (f receiptFixture) send(t *testing.T, method, path string, fields []string, files ...formFile) *apptest.Response {
	t.Helper()
	body, ct := form(t, fields, files...)
	return f.app.AsAdmin().WithHeader("Content-Type", ct).Do(method, path, body)
}

func (f receiptFixture) paymentsPath(booking int64) string {
	return path("/api/admin/booking/%d/payment", booking)
}

func (f receiptFixture) fotoPath(booking, payment int64) string {
	return path("/api/admin/booking/%d/payment/%d/foto", booking, payment)
}

// xsrf returns the XSRF-TOKEN cookie an admin GET sets.
func (f receiptFixture) xsrf(t *testing.T) *http.Cookie {
	t.Helper()
	res := f.app.AsAdmin().Get(f.paymentsPath(f.booking)).Status(t, http.StatusOK)
	for _, c := range (&http.Response{Header: res.Header}).Cookies() {
		if c.Name == "XSRF-TOKEN" {
			return c
		}
	}
	t.Fatalf("no XSRF-TOKEN cookie in %v", res.Header)
	return nil
}

// download sends GET .../foto with the cookie and the header.
func (f receiptFixture) download(t *testing.T, booking, payment int64) *apptest.Response {
	t.Helper()
	tok := f.xsrf(t).Value
	return f.app.AsAdmin().WithHeader("Cookie", "XSRF-TOKEN="+tok).WithHeader("X-XSRF-TOKEN", tok).Get(f.fotoPath(booking, payment))
}

func (f receiptFixture) keys(t *testing.T) []string {
	t.Helper()
	keys, err := f.store.Keys(context.Background(), "")
	require.NoError(t, err)
	return keys
}

var keyPattern = regexp.MustCompile(`^receipts/(\d+)/([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|\d+)-[a-z2-7]{16}\.(jpg|png|webp)$`)

func TestReceipt_uploadEachType(t *testing.T) { eachStore(t, testReceiptUploadEachType) }

func testReceiptUploadEachType(t *testing.T, open openStore) {
	f := newReceiptFixtureIn(t, open(t))
	for i, tc := range []struct {
		data             []byte
		filename, sent   string
		contentType, ext string
	}{
		{jpegImage, "r.jpg", "image/jpeg", "image/jpeg", "jpg"},
		{pngImage, "r.png", "image/png", "image/png", "png"},
		{webpImage, "r.webp", "image/webp", "image/webp", "webp"},
		// The bytes decide, not the name or the declared type.
		{pngImage, "scan.pdf", "application/pdf", "image/png", "png"},
	} {
		p := f.send(t, http.MethodPost, f.paymentsPath(f.booking),
			[]string{"amount", "60000.50", "transaction_id", fmt.Sprintf("TX-%d", i), "status", "true", "description", "bank transfer"},
			foto(tc.data, tc.filename, tc.sent)).Status(t, http.StatusCreated).Object(t)
		key, _ := p["foto"].(string)
		m := keyPattern.FindStringSubmatch(key)
		require.NotNil(t, m, "foto is an internal key, not %q", key)
		assert.Equal(t, itoa(f.booking), m[1])
		assert.Equal(t, tc.ext, m[3])
		assert.NotContains(t, key, "://", "no address reaches clients")
		assert.EqualValues(t, f.booking, p["reservation_id"])
		assert.Equal(t, true, p["status"])
		assert.Equal(t, "bank transfer", p["description"])
		assert.EqualValues(t, 60000.5, p["amount"])

		got := f.download(t, f.booking, int64(p["id"].(float64))).Status(t, http.StatusOK)
		assert.Equal(t, tc.data, got.Body)
		assert.Equal(t, tc.contentType, got.Header.Get("Content-Type"))
		assert.Equal(t, "private, no-store", got.Header.Get("Cache-Control"))
		assert.Contains(t, f.keys(t), key)
	}
	assert.Len(t, f.keys(t), 4)
	assert.Len(t, f.app.Events.Topic("payment:updated"), 4)
}

func TestReceipt_rejectedFilesLeaveNothing(t *testing.T) {
	eachStore(t, testReceiptRejectedFilesLeaveNothing)
}

func testReceiptRejectedFilesLeaveNothing(t *testing.T, open openStore) {
	f := newReceiptFixtureIn(t, open(t))
	fields := []string{"amount", "100", "transaction_id", "TX-1"}
	post := func(ff formFile) *apptest.Response {
		t.Helper()
		return f.send(t, http.MethodPost, f.paymentsPath(f.booking), fields, ff)
	}

	post(foto(pdfBytes, "receipt.jpg", "image/jpeg")).Status(t, http.StatusUnsupportedMediaType).Error(t, "unsupported media type").JSONHas(t, "message")
	post(foto([]byte("GIF89a\x01\x00\x01\x00"), "r.gif", "image/gif")).Status(t, http.StatusUnsupportedMediaType)
	post(foto([]byte("RIFF\x04\x00\x00\x00WAVE"), "r.webp", "image/webp")).Status(t, http.StatusUnsupportedMediaType)

	big := append(bytes.Clone(jpegImage[:4]), make([]byte, payments.MaxReceiptSize-4+1)...)
	post(foto(big, "big.jpg", "image/jpeg")).Status(t, http.StatusRequestEntityTooLarge).Error(t, "receipt too large").JSONHas(t, "message")
	assert.Empty(t, f.keys(t), "nothing stored for rejected files")
	var list []any
	f.app.AsAdmin().Get(f.paymentsPath(f.booking)).Status(t, http.StatusOK).JSON(t, &list)
	assert.Empty(t, list, "no payment row for rejected files")

	// Exactly 5 MiB is accepted.
	post(foto(big[:payments.MaxReceiptSize], "max.jpg", "image/jpeg")).Status(t, http.StatusCreated)
	assert.Len(t, f.keys(t), 1)
}

// zeros yields n zero bytes and counts how many were read.
type zeros struct {
	left int64
	read *atomic.Int64
}

func (z *zeros) Read(p []byte) (int, error) {
	if z.left == 0 {
		return 0, io.EOF
	}
	n := int64(len(p))
	if n > z.left {
		n = z.left
	}
	clear(p[:n])
	z.left -= n
	z.read.Add(n)
	return int(n), nil
}

// TestReceipt_hugeUploadIsNotRead streams a 50 MB upload: the server must
// answer 413 having read a bounded part of it (counted on the client side,
// which bounds what the server could have read or kept).
func TestReceipt_hugeUploadIsNotRead(t *testing.T) {
	t.Parallel()
	f := newReceiptFixture(t)
	const size = 50 << 20
	token := f.app.Token(f.app.User("admin@test.club", clubhouse.RoleAdmin, clubhouse.RoleOperator))
	for _, declared := range []bool{true, false} {
		t.Run(fmt.Sprintf("content-length %v", declared), func(t *testing.T) {
			var head bytes.Buffer
			mw := multipart.NewWriter(&head)
			require.NoError(t, mw.WriteField("amount", "100"))
			require.NoError(t, mw.WriteField("transaction_id", "TX-huge"))
			_, err := mw.CreateFormFile("foto", "huge.jpg")
			require.NoError(t, err)
			head.Write(jpegImage[:4])
			tail := "\r\n--" + mw.Boundary() + "--\r\n"
			var read atomic.Int64
			body := io.MultiReader(&head, &zeros{left: size, read: &read}, strings.NewReader(tail))
			req, err := http.NewRequest(http.MethodPost, f.app.URL+f.paymentsPath(f.booking), body)
			require.NoError(t, err)
			if declared {
				req.ContentLength = int64(head.Len()) + size + int64(len(tail))
			}
			req.Header.Set("Authorization", "Bearer "+token)
			req.Header.Set("Content-Type", mw.FormDataContentType())
			res, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer res.Body.Close()
			assert.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode)
			msg, _ := io.ReadAll(res.Body)
			assert.Contains(t, string(msg), "too large")
			t.Logf("client sent %d bytes", read.Load())
			assert.Less(t, read.Load(), int64(20<<20), "the client sent %d bytes: the server kept reading", read.Load())
			assert.Empty(t, f.keys(t))
		})
	}
}

func TestReceipt_badInput(t *testing.T) {
	t.Parallel()
	f := newReceiptFixture(t)
	admin := f.app.AsAdmin()
	id := f.send(t, http.MethodPost, f.paymentsPath(f.booking), []string{"amount", "100", "transaction_id", "TX-ok"},
		foto(pngImage, "r.png", "image/png")).Status(t, http.StatusCreated).ID(t)
	before := f.keys(t)
	require.Len(t, before, 1)

	img := foto(pngImage, "r.png", "image/png")
	for _, tc := range []struct {
		name   string
		fields []string
		files  []formFile
		code   string
	}{
		{"amount not a number", []string{"amount", "abc", "transaction_id", "T"}, []formFile{img}, "invalid amount"},
		{"amount negative", []string{"amount", "-5", "transaction_id", "T"}, []formFile{img}, "invalid amount"},
		{"amount zero", []string{"amount", "0", "transaction_id", "T"}, []formFile{img}, "invalid amount"},
		{"amount with cents of cents", []string{"amount", "10.001", "transaction_id", "T"}, []formFile{img}, "invalid amount"},
		{"payment type not a number", []string{"amount", "1", "transaction_id", "T", "payment_type_id", "cash"}, []formFile{img}, "invalid data"},
		{"payment type not an id", []string{"amount", "1", "transaction_id", "T", "payment_type_id", "-1"}, []formFile{img}, "invalid reference"},
		{"status not a boolean", []string{"amount", "1", "transaction_id", "T", "status", "maybe"}, []formFile{img}, "invalid data"},
		{"unknown field", []string{"amount", "1", "transaction_id", "T", "reservation_id", "9"}, []formFile{img}, "unknown field"},
		{"field twice", []string{"amount", "1", "amount", "2", "transaction_id", "T"}, []formFile{img}, "invalid data"},
		{"foto twice", []string{"amount", "1", "transaction_id", "T"}, []formFile{img, img}, "invalid data"},
		{"foto missing", []string{"amount", "1", "transaction_id", "T"}, nil, "incomplete data"},
		{"foto empty", []string{"amount", "1", "transaction_id", "T"}, []formFile{foto(nil, "r.png", "image/png")}, "incomplete data"},
		{"amount missing", []string{"transaction_id", "T"}, []formFile{img}, "incomplete data"},
		{"transaction missing", []string{"amount", "1"}, []formFile{img}, "incomplete data"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f.send(t, http.MethodPost, f.paymentsPath(f.booking), tc.fields, tc.files...).Status(t, http.StatusBadRequest).Error(t, tc.code)
		})
	}
	res := f.send(t, http.MethodPost, f.paymentsPath(f.booking), []string{"transaction_id", "T"})
	res.Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	assert.Contains(t, string(res.Body), "amount, foto", "every missing field is named")

	// The same rules on PATCH, where foto is optional.
	patch := path("/api/admin/booking/%d/payment/%d", f.booking, id)
	f.send(t, http.MethodPatch, patch, []string{"amount", "abc"}).Status(t, http.StatusBadRequest).Error(t, "invalid amount")
	f.send(t, http.MethodPatch, patch, []string{"amount", "-1"}, img).Status(t, http.StatusBadRequest).Error(t, "invalid amount")
	f.send(t, http.MethodPatch, patch, []string{"amount", ""}).Status(t, http.StatusBadRequest).Error(t, "invalid amount")
	f.send(t, http.MethodPatch, patch, []string{"status", "yes"}, img).Status(t, http.StatusBadRequest)
	f.send(t, http.MethodPatch, patch, nil, foto(pdfBytes, "r.png", "image/png")).Status(t, http.StatusUnsupportedMediaType)
	got := f.send(t, http.MethodPatch, patch, []string{"status", "true", "description", ""}).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, got["status"], "a multipart PATCH without foto changes the fields")
	assert.Nil(t, got["description"])

	// Ids in the path, and a body that is not multipart at all.
	f.send(t, http.MethodPost, "/api/admin/booking/abc/payment", []string{"amount", "1", "transaction_id", "T"}, img).Status(t, http.StatusBadRequest).Error(t, "invalid id")
	f.send(t, http.MethodPatch, path("/api/admin/booking/%d/payment/x1", f.booking), nil, img).Status(t, http.StatusBadRequest).Error(t, "invalid id")
	f.send(t, http.MethodPost, f.paymentsPath(999999), []string{"amount", "1", "transaction_id", "T"}, img).Status(t, http.StatusNotFound)
	admin.WithHeader("Content-Type", "multipart/form-data; boundary=xyz").Post(f.paymentsPath(f.booking), "no parts at all").
		Status(t, http.StatusBadRequest)
	admin.WithHeader("Content-Type", "multipart/form-data; boundary=xyz").
		Post(f.paymentsPath(f.booking), "--xyz\r\nContent-Disposition: form-data; name=\"amount\"\r\n\r\n12").
		Status(t, http.StatusBadRequest).Error(t, "invalid multipart")
	admin.WithHeader("Content-Type", "multipart/form-data").Post(f.paymentsPath(f.booking), "--\r\n").
		Status(t, http.StatusBadRequest).Error(t, "invalid multipart")
	admin.Get(path("/api/admin/booking/%d/payment/abc/foto", f.booking)).Status(t, http.StatusBadRequest).Error(t, "invalid id")
	admin.Delete(path("/api/admin/booking/x/payment/%d/foto", id), nil).Status(t, http.StatusBadRequest).Error(t, "invalid id")

	// JSON bodies keep their rules.
	for _, body := range []string{`{"amount": -1, "transaction_id": "J"}`, `{"amount": 0, "transaction_id": "J"}`,
		`{"amount": 1.005, "transaction_id": "J"}`, `{"amount": "1", "transaction_id": "J"}`,
		`{"amount": 1, "transaction_id": "J", "payment_type_id": "x"}`} {
		admin.Post(f.paymentsPath(f.booking), body).Status(t, http.StatusBadRequest)
	}
	assert.Equal(t, before, f.keys(t), "no failed request left an object")
}

func TestReceipt_replaceAndDelete(t *testing.T) { eachStore(t, testReceiptReplaceAndDelete) }

func testReceiptReplaceAndDelete(t *testing.T, open openStore) {
	f := newReceiptFixtureIn(t, open(t))
	admin := f.app.AsAdmin()
	paid := f.send(t, http.MethodPost, f.paymentsPath(f.booking), []string{"amount", "100", "transaction_id", "TX-1"},
		foto(jpegImage, "a.jpg", "image/jpeg")).Status(t, http.StatusCreated).Object(t)
	id := int64(paid["id"].(float64))
	first := paid["foto"].(string)
	patch := path("/api/admin/booking/%d/payment/%d", f.booking, id)

	// Replace: the new object in, the old one gone.
	got := f.send(t, http.MethodPatch, patch, []string{"status", "true"}, foto(webpImage, "b.webp", "image/webp")).Status(t, http.StatusOK).Object(t)
	second := got["foto"].(string)
	assert.NotEqual(t, first, second)
	assert.True(t, strings.HasPrefix(second, fmt.Sprintf("receipts/%d/%d-", f.booking, id)), second)
	assert.Equal(t, true, got["status"])
	assert.Equal(t, []string{second}, f.keys(t))
	assert.Equal(t, webpImage, f.download(t, f.booking, id).Status(t, http.StatusOK).Body)

	// Add a receipt to a payment made without one.
	plain := admin.Post(f.paymentsPath(f.booking), map[string]any{"amount": 5, "transaction_id": "TX-2"}).Status(t, http.StatusCreated).Object(t)
	assert.Nil(t, plain["foto"], "a JSON payment has no receipt")
	plainID := int64(plain["id"].(float64))
	f.download(t, f.booking, plainID).Status(t, http.StatusNotFound).Error(t, "receipt not found")
	added := f.send(t, http.MethodPatch, path("/api/admin/booking/%d/payment/%d", f.booking, plainID), nil, foto(pngImage, "c.png", "image/png")).
		Status(t, http.StatusOK).Object(t)
	assert.ElementsMatch(t, []string{second, added["foto"].(string)}, f.keys(t))

	// Another booking's payment is not found, with or without a receipt.
	f.download(t, f.other, id).Status(t, http.StatusNotFound).Error(t, "payment not found")
	admin.Delete(f.fotoPath(f.other, id), nil).Status(t, http.StatusNotFound)
	f.send(t, http.MethodPatch, path("/api/admin/booking/%d/payment/%d", f.other, id), nil, foto(pngImage, "c.png", "image/png")).Status(t, http.StatusNotFound)
	admin.Delete(path("/api/admin/booking/%d/payment/%d", f.other, id), nil).Status(t, http.StatusNotFound)
	assert.ElementsMatch(t, []string{second, added["foto"].(string)}, f.keys(t), "nothing stored or deleted for another booking")

	// Delete the receipt: 204, object gone, foto null, the payment stays.
	admin.Delete(f.fotoPath(f.booking, id), nil).Status(t, http.StatusNoContent)
	assert.Equal(t, []string{added["foto"].(string)}, f.keys(t))
	after := admin.Get(path("/api/admin/booking/%d/payment/%d", f.booking, id)).Status(t, http.StatusOK).Object(t)
	assert.Nil(t, after["foto"])
	f.download(t, f.booking, id).Status(t, http.StatusNotFound)
	admin.Delete(f.fotoPath(f.booking, id), nil).Status(t, http.StatusNotFound).Error(t, "receipt not found")

	// Delete a payment with a receipt: the object goes with the row.
	admin.Delete(path("/api/admin/booking/%d/payment/%d", f.booking, plainID), nil).Status(t, http.StatusNoContent)
	assert.Empty(t, f.keys(t))
	admin.Get(path("/api/admin/booking/%d/payment/%d", f.booking, plainID)).Status(t, http.StatusNotFound)
}

func TestReceipt_downloadNeedsXSRF(t *testing.T) {
	t.Parallel()
	f := newReceiptFixture(t)
	id := f.send(t, http.MethodPost, f.paymentsPath(f.booking), []string{"amount", "100", "transaction_id", "TX-1"},
		foto(pngImage, "a.png", "image/png")).Status(t, http.StatusCreated).ID(t)

	c := f.xsrf(t)
	assert.Equal(t, "/", c.Path)
	assert.Equal(t, http.SameSiteStrictMode, c.SameSite)
	assert.False(t, c.HttpOnly, "the panel's scripts read the cookie")
	assert.False(t, c.Secure, "plain HTTP test server")
	assert.GreaterOrEqual(t, len(c.Value), 20)

	admin := f.app.AsAdmin()
	url := f.fotoPath(f.booking, id)
	withCookie := admin.WithHeader("Cookie", "XSRF-TOKEN="+c.Value)
	withCookie.Get(url).Status(t, http.StatusForbidden).Error(t, "invalid csrf token").JSONHas(t, "message")
	withCookie.WithHeader("X-XSRF-TOKEN", c.Value+"x").Get(url).Status(t, http.StatusForbidden)
	admin.WithHeader("X-XSRF-TOKEN", c.Value).Get(url).Status(t, http.StatusForbidden)
	f.app.Anonymous().WithHeader("Cookie", "XSRF-TOKEN="+c.Value).WithHeader("X-XSRF-TOKEN", c.Value).Get(url).Status(t, http.StatusUnauthorized)
	f.app.AsClient().WithHeader("Cookie", "XSRF-TOKEN="+c.Value).WithHeader("X-XSRF-TOKEN", c.Value).Get(url).Status(t, http.StatusForbidden)

	res := withCookie.WithHeader("X-XSRF-TOKEN", c.Value).Get(url).Status(t, http.StatusOK)
	assert.Equal(t, pngImage, res.Body)
	assert.Equal(t, "image/png", res.Header.Get("Content-Type"))
	assert.Equal(t, "private, no-store", res.Header.Get("Cache-Control"))
	assert.Empty(t, res.Header.Values("Set-Cookie"), "a request with the cookie keeps it")

	// Only authenticated admin GETs set the cookie.
	assert.Empty(t, f.app.Anonymous().Get(f.paymentsPath(f.booking)).Header.Values("Set-Cookie"))
	assert.Empty(t, admin.Delete(path("/api/admin/booking/%d/payment/99999", f.booking), nil).Header.Values("Set-Cookie"))
	assert.Empty(t, f.app.AsClient().Get("/api/account/payments").Header.Values("Set-Cookie"))
}

func TestReceipt_storageNotConfigured(t *testing.T) {
	t.Parallel()
	app := apptest.New(t) // no OBJSTORE_BUCKET
	f := withBookings(t, receiptFixture{app: app})
	admin := app.AsAdmin()
	img := foto(pngImage, "a.png", "image/png")

	// JSON keeps working.
	id := admin.Post(f.paymentsPath(f.booking), map[string]any{"amount": 10, "transaction_id": "TX-1"}).Status(t, http.StatusCreated).ID(t)
	one := path("/api/admin/booking/%d/payment/%d", f.booking, id)
	admin.Patch(one, map[string]any{"status": true}).Status(t, http.StatusOK)

	// 503 exactly where the interface lists it.
	f.send(t, http.MethodPost, f.paymentsPath(f.booking), []string{"amount", "1", "transaction_id", "TX-2"}, img).
		Status(t, http.StatusServiceUnavailable).Error(t, "storage not configured").JSONHas(t, "message")
	f.send(t, http.MethodPatch, one, nil, img).Status(t, http.StatusServiceUnavailable)
	f.send(t, http.MethodPatch, one, []string{"status", "false"}).Status(t, http.StatusServiceUnavailable)
	f.download(t, f.booking, id).Status(t, http.StatusServiceUnavailable).Error(t, "storage not configured")
	admin.Delete(f.fotoPath(f.booking, id), nil).Status(t, http.StatusServiceUnavailable)

	// DELETE of a payment: 503 only when it has a receipt.
	withReceipt := admin.Post(f.paymentsPath(f.booking), map[string]any{"amount": 10, "transaction_id": "TX-3"}).Status(t, http.StatusCreated).ID(t)
	_, err := app.DB.ExecContext(context.Background(), `UPDATE payments SET foto = 'receipts/x.png', foto_content_type = 'image/png' WHERE id = $1`, withReceipt)
	require.NoError(t, err)
	admin.Delete(path("/api/admin/booking/%d/payment/%d", f.booking, withReceipt), nil).Status(t, http.StatusServiceUnavailable)
	admin.Delete(one, nil).Status(t, http.StatusNoContent)

	var list []map[string]any
	admin.Get(f.paymentsPath(f.booking)).Status(t, http.StatusOK).JSON(t, &list)
	require.Len(t, list, 1, "only the payment with a receipt is left")
	assert.EqualValues(t, withReceipt, list[0]["id"])
}

func TestReceipt_storageFailure(t *testing.T) {
	t.Parallel()
	cfg := objtest.New(t)
	bad := cfg
	bad.SecretAccessKey = "wrong-" + cfg.SecretAccessKey
	f := withBookings(t, receiptFixture{app: apptest.New(t, apptest.WithObjects(objtest.Store(t, bad))), store: objtest.Store(t, cfg)})
	admin := f.app.AsAdmin()

	f.send(t, http.MethodPost, f.paymentsPath(f.booking), []string{"amount", "1", "transaction_id", "TX-1"}, foto(pngImage, "a.png", "image/png")).
		Status(t, http.StatusServiceUnavailable).Error(t, "storage unavailable")
	assert.Empty(t, f.keys(t), "nothing stored")
	var list []any
	admin.Get(f.paymentsPath(f.booking)).Status(t, http.StatusOK).JSON(t, &list)
	assert.Empty(t, list, "no payment row")
	assert.Contains(t, f.app.Logs.String(), "SignatureDoesNotMatch", "the cause is logged for operators")
	assert.NotContains(t, f.app.Logs.String(), cfg.SecretAccessKey)

	// A receipt whose object cannot be deleted stays, and so does its row.
	id := admin.Post(f.paymentsPath(f.booking), map[string]any{"amount": 10, "transaction_id": "TX-2"}).Status(t, http.StatusCreated).ID(t)
	_, err := f.app.DB.ExecContext(context.Background(), `UPDATE payments SET foto = 'receipts/x.png', foto_content_type = 'image/png' WHERE id = $1`, id)
	require.NoError(t, err)
	admin.Delete(f.fotoPath(f.booking, id), nil).Status(t, http.StatusServiceUnavailable).Error(t, "storage unavailable")
	admin.Delete(path("/api/admin/booking/%d/payment/%d", f.booking, id), nil).Status(t, http.StatusServiceUnavailable)
	f.download(t, f.booking, id).Status(t, http.StatusServiceUnavailable)
	p := admin.Get(path("/api/admin/booking/%d/payment/%d", f.booking, id)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "receipts/x.png", p["foto"])
}

// TestReceipt_directoryFailures: with OBJSTORE_DIR, a receipt removed from
// the directory behind clubd's back is not found, as one missing from a
// bucket, and a directory that cannot be written answers 503 with nothing
// stored.
func TestReceipt_directoryFailures(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "receipts")
	store, err := objstore.NewDir(root)
	require.NoError(t, err)
	f := newReceiptFixtureIn(t, store)
	admin := f.app.AsAdmin()
	p := f.send(t, http.MethodPost, f.paymentsPath(f.booking), []string{"amount", "100", "transaction_id", "TX-1"},
		foto(pngImage, "a.png", "image/png")).Status(t, http.StatusCreated).Object(t)
	id := int64(p["id"].(float64))
	require.NoError(t, os.Remove(filepath.Join(root, filepath.FromSlash(p["foto"].(string)))))
	f.download(t, f.booking, id).Status(t, http.StatusNotFound).Error(t, "receipt not found")

	require.NoError(t, os.RemoveAll(root))
	require.NoError(t, os.WriteFile(root, nil, 0o600)) // a file where the directory was
	f.send(t, http.MethodPost, f.paymentsPath(f.booking), []string{"amount", "1", "transaction_id", "TX-2"}, foto(pngImage, "b.png", "image/png")).
		Status(t, http.StatusServiceUnavailable).Error(t, "storage unavailable")
	var list []any
	admin.Get(f.paymentsPath(f.booking)).Status(t, http.StatusOK).JSON(t, &list)
	assert.Len(t, list, 1, "no payment row for the refused receipt")
}

// failingDeletes is a store whose Delete of one chosen key fails, as a store
// that goes away between two requests would.
type failingDeletes struct {
	payments.ObjectStore
	key atomic.Pointer[string]
}

func (s *failingDeletes) Delete(ctx context.Context, key string) error {
	if k := s.key.Load(); k != nil && *k == key {
		return errors.New("connection refused")
	}
	return s.ObjectStore.Delete(ctx, key)
}

// TestReceipt_failuresAfterStoring covers the requests that fail once the new
// object is stored: it is removed, and the payment keeps its old receipt.
func TestReceipt_failuresAfterStoring(t *testing.T) { eachStore(t, testReceiptFailuresAfterStoring) }

func testReceiptFailuresAfterStoring(t *testing.T, open openStore) {
	objects := open(t)
	store := &failingDeletes{ObjectStore: objects}
	f := withBookings(t, receiptFixture{app: apptest.New(t, apptest.WithObjects(store)), store: objects})
	admin := f.app.AsAdmin()
	p := f.send(t, http.MethodPost, f.paymentsPath(f.booking), []string{"amount", "100", "transaction_id", "TX-1"},
		foto(jpegImage, "a.jpg", "image/jpeg")).Status(t, http.StatusCreated).Object(t)
	id, key := int64(p["id"].(float64)), p["foto"].(string)
	one := path("/api/admin/booking/%d/payment/%d", f.booking, id)
	other := admin.Post(f.paymentsPath(f.booking), map[string]any{"amount": 1, "transaction_id": "TX-2"}).Status(t, http.StatusCreated).ID(t)

	// The insert fails (a duplicate transaction) after the image was stored.
	f.send(t, http.MethodPost, f.paymentsPath(f.booking), []string{"amount", "1", "transaction_id", "TX-1"}, foto(pngImage, "b.png", "image/png")).
		Status(t, http.StatusConflict)
	// The update fails after the image was stored.
	f.send(t, http.MethodPatch, path("/api/admin/booking/%d/payment/%d", f.booking, other), []string{"transaction_id", "TX-1"}, foto(pngImage, "b.png", "image/png")).
		Status(t, http.StatusConflict)
	assert.Equal(t, []string{key}, f.keys(t), "no orphan")

	// The old object cannot be deleted: the replacement is undone.
	store.key.Store(&key)
	f.send(t, http.MethodPatch, one, []string{"status", "true"}, foto(pngImage, "b.png", "image/png")).
		Status(t, http.StatusServiceUnavailable).Error(t, "storage unavailable")
	admin.Delete(f.fotoPath(f.booking, id), nil).Status(t, http.StatusServiceUnavailable)
	admin.Delete(one, nil).Status(t, http.StatusServiceUnavailable)
	assert.Equal(t, []string{key}, f.keys(t), "the new object was removed, the old one kept")
	got := admin.Get(one).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, key, got["foto"], "the payment points to its old receipt")
	assert.Equal(t, false, got["status"], "and none of the request's changes")
	assert.Equal(t, jpegImage, f.download(t, f.booking, id).Status(t, http.StatusOK).Body)

	// Once the store is back, the same requests go through.
	store.key.Store(nil)
	f.send(t, http.MethodPatch, one, nil, foto(pngImage, "b.png", "image/png")).Status(t, http.StatusOK)
	admin.Delete(one, nil).Status(t, http.StatusNoContent)
	assert.Empty(t, f.keys(t))
}

// TestReceipt_concurrentReplacements replaces one payment's receipt from
// many goroutines at once: every request succeeds, and the store ends with
// exactly the object the payment points to.
func TestReceipt_concurrentReplacements(t *testing.T) {
	eachStore(t, testReceiptConcurrentReplacements)
}

func testReceiptConcurrentReplacements(t *testing.T, open openStore) {
	f := newReceiptFixtureIn(t, open(t))
	id := f.send(t, http.MethodPost, f.paymentsPath(f.booking), []string{"amount", "100", "transaction_id", "TX-1"},
		foto(jpegImage, "a.jpg", "image/jpeg")).Status(t, http.StatusCreated).ID(t)
	one := path("/api/admin/booking/%d/payment/%d", f.booking, id)
	body, ct := form(t, nil, foto(pngImage, "b.png", "image/png"))
	admin := f.app.AsAdmin().WithHeader("Content-Type", ct)

	const n = 8
	codes := make(chan int, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() { codes <- admin.Do(http.MethodPatch, one, body).Code })
	}
	wg.Wait()
	close(codes)
	for code := range codes {
		assert.Equal(t, http.StatusOK, code)
	}
	final := f.app.AsAdmin().Get(one).Status(t, http.StatusOK).Object(t)["foto"]
	assert.Equal(t, []string{final.(string)}, f.keys(t), "one object, the one the payment points to")
	assert.Equal(t, pngImage, f.download(t, f.booking, id).Status(t, http.StatusOK).Body)
}
