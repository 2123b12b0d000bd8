package objstore_test

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/objstore"
	"github.com/clubhouse-go/clubhouse/payments"
)

// A Dir is the receipts' store of package payments.
var _ payments.ObjectStore = (*objstore.Dir)(nil)

func TestDir_putGetDelete(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "receipts-store")
	st, err := objstore.NewDir(root)
	require.NoError(t, err)
	ctx := context.Background()

	fi, err := os.Stat(root)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm(), "the directory is private")

	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{7}, 3000)...)
	require.NoError(t, st.Put(ctx, "receipts/1/a.png", "image/png", bytes.NewReader(png), int64(len(png))))
	require.NoError(t, st.Put(ctx, "receipts/1/b.png", "image/png", io.MultiReader(bytes.NewReader(png)), int64(len(png))))
	keys, err := st.Keys(ctx, "receipts/1/")
	require.NoError(t, err)
	assert.Equal(t, []string{"receipts/1/a.png", "receipts/1/b.png"}, keys)

	fi, err = os.Stat(filepath.Join(root, "receipts", "1", "a.png"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the files are private")

	rc, err := st.Get(ctx, "receipts/1/a.png")
	require.NoError(t, err)
	got, err := io.ReadAll(rc)
	require.NoError(t, rc.Close())
	require.NoError(t, err)
	assert.Equal(t, png, got)

	require.NoError(t, st.Delete(ctx, "receipts/1/a.png"))
	require.NoError(t, st.Delete(ctx, "receipts/1/a.png"), "a missing object is not an error")
	_, err = st.Get(ctx, "receipts/1/a.png")
	require.ErrorIs(t, err, fs.ErrNotExist)
	assert.Equal(t, clubhouse.Internal, clubhouse.KindOf(err), "a store names no domain error; payments answers ErrObjectNotFound")
	keys, err = st.Keys(ctx, "")
	require.NoError(t, err)
	assert.Equal(t, []string{"receipts/1/b.png"}, keys)
}

// TestDir_wrongSize: a body that is shorter or longer than announced is
// refused, and leaves neither the object nor a temporary file behind.
func TestDir_wrongSize(t *testing.T) {
	t.Parallel()
	st, err := objstore.NewDir(t.TempDir())
	require.NoError(t, err)
	ctx := context.Background()
	require.Error(t, st.Put(ctx, "receipts/1/short.png", "image/png", strings.NewReader("abc"), 4))
	require.Error(t, st.Put(ctx, "receipts/1/long.png", "image/png", strings.NewReader("abcde"), 4))
	entries, err := os.ReadDir(filepath.Join(st.Root(), "receipts", "1"))
	require.NoError(t, err)
	assert.Empty(t, entries)
}

// TestDir_keysStayInside: no key reaches outside the directory.
func TestDir_keysStayInside(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	st, err := objstore.NewDir(filepath.Join(parent, "store"))
	require.NoError(t, err)
	ctx := context.Background()
	for _, key := range []string{"", "../x.png", "receipts/../../x.png", "/etc/x.png", "receipts//x.png",
		"receipts/./x.png", "receipts/x.png/", `receipts\..\x.png`, ".put-x", "receipts/1/.put-x", "receipts/\x00.png"} {
		assert.Error(t, st.Put(ctx, key, "image/png", strings.NewReader("x"), 1), "put %q", key)
		_, err := st.Get(ctx, key)
		assert.Error(t, err, "get %q", key)
		assert.NotErrorIs(t, err, fs.ErrNotExist, "get %q", key)
		assert.Error(t, st.Delete(ctx, key), "delete %q", key)
	}
	_, err = os.Stat(filepath.Join(parent, "x.png"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// TestDir_onlyFilesAreObjects: a key that names a directory of other keys,
// or passes through an object as if it were one, is not found, as in a
// bucket, and deleting it deletes nothing.
func TestDir_onlyFilesAreObjects(t *testing.T) {
	t.Parallel()
	st, err := objstore.NewDir(t.TempDir())
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, st.Put(ctx, "receipts/1/a.png", "image/png", strings.NewReader("png"), 3))
	for _, key := range []string{"receipts", "receipts/1", "receipts/1/a.png/b.png", "receipts/2/a.png"} {
		_, err := st.Get(ctx, key)
		require.ErrorIs(t, err, fs.ErrNotExist, "get %q", key)
		require.NoError(t, st.Delete(ctx, key), "delete %q", key)
	}
	keys, err := st.Keys(ctx, "")
	require.NoError(t, err)
	assert.Equal(t, []string{"receipts/1/a.png"}, keys)
}
