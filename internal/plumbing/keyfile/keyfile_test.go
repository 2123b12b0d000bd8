package keyfile

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCreate: one of many racing writers wins; the others find its whole
// key; the file is the owner's only; no temporary file stays.
func TestCreate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "k.pem")
	var wg sync.WaitGroup
	won := make([]bool, 16)
	for i := range won {
		wg.Go(func() {
			exists, err := Create(path, []byte{byte('a' + i)})
			assert.NoError(t, err)
			won[i] = !exists
		})
	}
	wg.Wait()
	winners := 0
	for i, w := range won {
		if w {
			winners++
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, []byte{byte('a' + i)}, b, "the file holds the winner's key")
		}
	}
	assert.Equal(t, 1, winners)
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file stays")
}

// TestCreateExclusive: the fallback of filesystems without hard links.
func TestCreateExclusive(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "k.pem")
	exists, err := createExclusive(path, []byte("first"))
	require.NoError(t, err)
	assert.False(t, exists)
	exists, err = createExclusive(path, []byte("second"))
	require.NoError(t, err)
	assert.True(t, exists)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "first", string(b))
}
