package push_test

import (
	"encoding/base64"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/push"
)

func TestLoadOrCreateVAPIDKey(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "keys", "vapid.pem")
	_, err := push.LoadVAPIDKey(path)
	require.ErrorIs(t, err, fs.ErrNotExist)

	keys := make([]push.VAPIDKey, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			k, err := push.LoadOrCreateVAPIDKey(path)
			assert.NoError(t, err)
			keys[i] = k
		})
	}
	wg.Wait()
	for _, k := range keys[1:] {
		require.Equal(t, keys[0].PublicKey(), k.PublicKey(), "processes starting at once share one key")
	}
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	again, err := push.LoadVAPIDKey(path)
	require.NoError(t, err)
	assert.Equal(t, keys[0].PublicKey(), again.PublicKey(), "the key survives a restart")
	raw, err := base64.RawURLEncoding.DecodeString(again.PublicKey())
	require.NoError(t, err)
	assert.Len(t, raw, 65)
	assert.Equal(t, byte(4), raw[0], "uncompressed point")

	bad := filepath.Join(t.TempDir(), "bad.pem")
	require.NoError(t, os.WriteFile(bad, []byte("not a key"), 0o600))
	_, err = push.LoadOrCreateVAPIDKey(bad)
	require.Error(t, err, "a file that holds no key is not replaced")
}

func TestSubject(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"mailto:desk@club.example", "https://club.example"} {
		assert.NoError(t, push.CheckSubject(s), s)
	}
	for _, s := range []string{"", "desk@club.example", "http://club.example", "mailto:", "https://"} {
		assert.Error(t, push.CheckSubject(s), s)
	}
	assert.Equal(t, "https://club.example", push.DefaultSubject("https://club.example/"))
	assert.Equal(t, "mailto:push@localhost", push.DefaultSubject("http://localhost:6000"))
	assert.NoError(t, push.CheckSubject(push.DefaultSubject("http://clubhouse.test")))
}
