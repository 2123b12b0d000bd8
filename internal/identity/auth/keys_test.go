package auth_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
)

func TestLoadOrCreateSigningKey_createsThenReloads(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "keys", "signing.pem") // the directory is missing too

	first, err := auth.LoadOrCreateSigningKey(path)
	require.NoError(t, err)
	require.NotNil(t, first.Private)
	assert.NotEmpty(t, first.KID)

	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "the private key is readable by its owner only")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	block, _ := pem.Decode(b)
	require.NotNil(t, block)
	assert.Equal(t, "PRIVATE KEY", block.Type, "saved as PKCS#8")

	second, err := auth.LoadOrCreateSigningKey(path)
	require.NoError(t, err)
	assert.Equal(t, first.KID, second.KID, "the key survives a restart")
	assert.True(t, first.Private.Equal(second.Private))
}

func TestLoadOrCreateSigningKey_pkcs1(t *testing.T) {
	t.Parallel()
	k := newKey(t)
	path := filepath.Join(t.TempDir(), "rsa.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k.Private)})
	require.NoError(t, os.WriteFile(path, pemBytes, 0o600))

	got, err := auth.LoadOrCreateSigningKey(path)
	require.NoError(t, err)
	assert.Equal(t, k.KID, got.KID)
	assert.True(t, k.Private.Equal(got.Private))
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, pemBytes, after, "an existing key file is never rewritten")
}

func TestLoadOrCreateSigningKey_rejectsGarbage(t *testing.T) {
	t.Parallel()
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	ecDER, err := x509.MarshalPKCS8PrivateKey(ec)
	require.NoError(t, err)

	for name, content := range map[string][]byte{
		"empty":          {},
		"not PEM":        []byte("this is not a key\n"),
		"garbage in PEM": pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("garbage")}),
		"public key":     publicKeyPEM(t, &newKey(t).Private.PublicKey),
		"EC key":         pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: ecDER}),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "key.pem")
			require.NoError(t, os.WriteFile(path, content, 0o600))
			_, err := auth.LoadOrCreateSigningKey(path)
			require.Error(t, err)
			after, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, content, after, "a bad key file is reported, not replaced")
		})
	}
}

func TestLoadOrCreateSigningKey_unreadable(t *testing.T) {
	t.Parallel()
	_, err := auth.LoadOrCreateSigningKey(t.TempDir()) // a directory
	require.Error(t, err)
}

// TestLoadOrCreateSigningKey_danglingSymlink is a key path that links to a
// file not there yet (a secret not mounted): an error, not an endless loop.
func TestLoadOrCreateSigningKey_danglingSymlink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "signing.pem")
	require.NoError(t, os.Symlink(filepath.Join(dir, "secrets", "signing.pem"), path))
	_, err := auth.LoadOrCreateSigningKey(path)
	require.Error(t, err)
}

// TestLoadOrCreateSigningKey_concurrent starts several instances at once on
// a missing file: they must all end up with the one key on disk.
func TestLoadOrCreateSigningKey_concurrent(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "signing.pem")
	const n = 8
	kids := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			k, err := auth.LoadOrCreateSigningKey(path)
			kids[i], errs[i] = k.KID, err
		})
	}
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i])
	}
	onDisk, err := auth.LoadOrCreateSigningKey(path)
	require.NoError(t, err)
	for i := range n {
		assert.Equal(t, onDisk.KID, kids[i], "instance %d uses the key on disk", i)
	}
}

func TestLoadSigningKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.pem")
	_, err := auth.LoadSigningKey(missing)
	require.ErrorIs(t, err, os.ErrNotExist)
	_, err = os.Stat(missing)
	assert.ErrorIs(t, err, os.ErrNotExist, "no key file is created")

	path := filepath.Join(dir, "key.pem")
	made, err := auth.LoadOrCreateSigningKey(path)
	require.NoError(t, err)
	got, err := auth.LoadSigningKey(path)
	require.NoError(t, err)
	assert.Equal(t, made.KID, got.KID, "it reads the key clubd made")

	garbage := filepath.Join(dir, "garbage.pem")
	require.NoError(t, os.WriteFile(garbage, []byte("this is not a key\n"), 0o600))
	_, err = auth.LoadSigningKey(garbage)
	assert.ErrorContains(t, err, "no PEM block")
}
