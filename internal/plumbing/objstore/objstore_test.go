package objstore_test

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/objstore"
	"github.com/clubhouse-go/clubhouse/internal/testkit/objtest"
	"github.com/clubhouse-go/clubhouse/payments"
)

// A Store is the receipts' store of package payments.
var _ payments.ObjectStore = (*objstore.Store)(nil)

func TestStore_putGetDelete(t *testing.T) {
	t.Parallel()
	cfg := objtest.New(t)
	st := objtest.Store(t, cfg)
	ctx := context.Background()
	require.NoError(t, st.Check(ctx))

	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{7}, 3000)...)
	// A seekable body is signed with its hash; any other is sent unsigned.
	require.NoError(t, st.Put(ctx, "receipts/1/a.png", "image/png", bytes.NewReader(png), int64(len(png))))
	require.NoError(t, st.Put(ctx, "receipts/1/b.png", "image/png", io.MultiReader(bytes.NewReader(png)), int64(len(png))))
	assert.Equal(t, []string{"receipts/1/a.png", "receipts/1/b.png"}, objtest.Keys(t, cfg))

	for _, key := range []string{"receipts/1/a.png", "receipts/1/b.png"} {
		rc, err := st.Get(ctx, key)
		require.NoError(t, err)
		got, err := io.ReadAll(rc)
		require.NoError(t, rc.Close())
		require.NoError(t, err)
		assert.Equal(t, png, got, key)
	}

	require.NoError(t, st.Delete(ctx, "receipts/1/a.png"))
	require.NoError(t, st.Delete(ctx, "receipts/1/a.png"), "a missing object is not an error")
	_, err := st.Get(ctx, "receipts/1/a.png")
	require.ErrorIs(t, err, fs.ErrNotExist)
	assert.Equal(t, clubhouse.Internal, clubhouse.KindOf(err), "a store names no domain error; payments answers ErrObjectNotFound")
	assert.Equal(t, []string{"receipts/1/b.png"}, objtest.Keys(t, cfg))
}

func TestStore_wrongSecret(t *testing.T) {
	t.Parallel()
	cfg := objtest.New(t)
	bad := cfg
	bad.SecretAccessKey = "not-the-secret"
	st := objtest.Store(t, bad)
	ctx := context.Background()
	err := st.Put(ctx, "receipts/1/x.jpg", "image/jpeg", strings.NewReader("\xff\xd8\xff"), 3)
	require.Error(t, err, "the server checks the SigV4 signature")
	assert.Contains(t, err.Error(), "SignatureDoesNotMatch")
	assert.Equal(t, clubhouse.Internal, clubhouse.KindOf(err), "a store failure carries no domain kind; payments classifies it")
	require.Error(t, st.Check(ctx))
	assert.Empty(t, objtest.Keys(t, cfg))
}

func TestStore_unreachable(t *testing.T) {
	t.Parallel()
	st, err := objstore.New(context.Background(), objstore.Config{Bucket: "b", AccessKeyID: "a", SecretAccessKey: "s",
		Endpoint: "http://127.0.0.1:1", UsePathStyle: true})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.Error(t, st.Put(ctx, "k", "image/png", strings.NewReader("x"), 1))
}

func TestConfig_Validate(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		cfg objstore.Config
		ok  bool
	}{
		"minimal":          {objstore.Config{Bucket: "b"}, true},
		"full":             {objstore.Config{Bucket: "b", AccessKeyID: "a", SecretAccessKey: "s", Endpoint: "https://s3.example.com", UsePathStyle: true}, true},
		"no bucket":        {objstore.Config{AccessKeyID: "a", SecretAccessKey: "s"}, false},
		"key without pass": {objstore.Config{Bucket: "b", AccessKeyID: "a"}, false},
		"relative URL":     {objstore.Config{Bucket: "b", Endpoint: "s3.example.com"}, false},
		"other scheme":     {objstore.Config{Bucket: "b", Endpoint: "ftp://s3.example.com"}, false},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			err := tc.cfg.Validate()
			if tc.ok {
				assert.NoError(t, err)
			} else {
				assert.Error(t, err)
			}
		})
	}
}
