package auth

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/keyfile"
)

// SigningKey is an RSA private key with its key id.
type SigningKey struct {
	Private *rsa.PrivateKey
	KID     string
}

// NewSigningKey wraps k and derives its key id from the public key.
func NewSigningKey(k *rsa.PrivateKey) SigningKey {
	der, _ := x509.MarshalPKIXPublicKey(&k.PublicKey) // cannot fail for an RSA key
	sum := sha256.Sum256(der)
	return SigningKey{Private: k, KID: base64.RawURLEncoding.EncodeToString(sum[:12])}
}

// GenerateSigningKey returns a fresh 2048-bit RSA signing key.
func GenerateSigningKey() (SigningKey, error) {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return SigningKey{}, fmt.Errorf("generate signing key: %w", err)
	}
	return NewSigningKey(k), nil
}

// LoadSigningKey reads the PEM private key at path (PKCS#8 or PKCS#1) and
// never creates one: a program that signs tokens for clubd (clubctl) must
// sign with clubd's key, and a key of its own would only make tokens clubd
// refuses. Errors: a missing file (errors.Is fs.ErrNotExist), an unreadable
// one, and one that holds no RSA private key.
func LoadSigningKey(path string) (SigningKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return SigningKey{}, fmt.Errorf("read signing key: %w", err)
	}
	return parseSigningKey(b)
}

// LoadOrCreateSigningKey reads the PEM private key at path (PKCS#8 or
// PKCS#1). When the file does not exist it generates a key and saves it with
// 0600 permissions, so that tokens survive restarts. Only clubd calls it.
func LoadOrCreateSigningKey(path string) (SigningKey, error) {
	k, err := LoadSigningKey(path)
	if errors.Is(err, fs.ErrNotExist) {
		k, err := GenerateSigningKey()
		if err != nil {
			return SigningKey{}, err
		}
		der, err := x509.MarshalPKCS8PrivateKey(k.Private)
		if err != nil {
			return SigningKey{}, fmt.Errorf("encode signing key: %w", err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return SigningKey{}, fmt.Errorf("create key directory: %w", err)
		}
		// Written whole, then put in place (keyfile.Create): a process
		// that starts at the same time reads the whole key of the winner.
		exists, err := keyfile.Create(path, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
		if err != nil {
			return SigningKey{}, fmt.Errorf("save signing key: %w", err)
		}
		if exists {
			// Read once, not recurse: a dangling symlink is ErrNotExist to
			// ReadFile and ErrExist to Link, and would loop forever.
			return LoadSigningKey(path)
		}
		return k, nil
	}
	return k, err
}

func parseSigningKey(b []byte) (SigningKey, error) {
	block, _ := pem.Decode(b)
	if block == nil {
		return SigningKey{}, errors.New("signing key file holds no PEM block")
	}
	if k, err := x509.ParsePKCS1PrivateKey(block.Bytes); err == nil {
		return NewSigningKey(k), nil
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return SigningKey{}, fmt.Errorf("parse signing key: %w", err)
	}
	rk, ok := k.(*rsa.PrivateKey)
	if !ok {
		return SigningKey{}, fmt.Errorf("signing key is %T, want RSA", k)
	}
	return NewSigningKey(rk), nil
}
