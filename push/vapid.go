package push

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/keyfile"
)

// VAPIDKey is the application server's key pair of Voluntary Application
// Server Identification (RFC 8292): an ECDSA P-256 key that signs the JWT
// each push request carries. Browsers subscribe with its public key, so
// it must survive restarts: a new key orphans every subscription.
type VAPIDKey struct {
	Private *ecdsa.PrivateKey
}

// GenerateVAPIDKey returns a fresh P-256 key pair.
func GenerateVAPIDKey() (VAPIDKey, error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return VAPIDKey{}, fmt.Errorf("generate VAPID key: %w", err)
	}
	return VAPIDKey{Private: k}, nil
}

// PublicKey returns the public key as browsers take it for
// PushManager.subscribe's applicationServerKey: the uncompressed point,
// base64url without padding; "" for the zero VAPIDKey.
func (k VAPIDKey) PublicKey() string {
	if k.Private == nil {
		return ""
	}
	b, err := k.Private.PublicKey.Bytes()
	if err != nil {
		return ""
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// privateKey returns the private scalar, base64url without padding, as
// webpush-go takes it.
func (k VAPIDKey) privateKey() (string, error) {
	b, err := k.Private.Bytes()
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// LoadVAPIDKey reads the PEM private key at path (PKCS#8 or SEC 1) and
// never creates one. Errors: a missing file (errors.Is fs.ErrNotExist),
// an unreadable one, and one that holds no P-256 private key.
func LoadVAPIDKey(path string) (VAPIDKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return VAPIDKey{}, fmt.Errorf("read VAPID key: %w", err)
	}
	return parseVAPIDKey(b)
}

// LoadOrCreateVAPIDKey reads the PEM private key at path. When the file
// does not exist it generates a key and saves it (PKCS#8) with 0600
// permissions (os.CreateTemp's), so that the devices' subscriptions
// survive restarts. When two processes start at once, the one that loses
// the race reads the winner's key.
func LoadOrCreateVAPIDKey(path string) (VAPIDKey, error) {
	k, err := LoadVAPIDKey(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	if k, err = GenerateVAPIDKey(); err != nil {
		return VAPIDKey{}, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(k.Private)
	if err != nil {
		return VAPIDKey{}, fmt.Errorf("encode VAPID key: %w", err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return VAPIDKey{}, fmt.Errorf("create key directory: %w", err)
	}
	// Written whole, then put in place (keyfile.Create): a process that
	// starts at the same time reads the whole key of the winner.
	exists, err := keyfile.Create(path, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	if err != nil {
		return VAPIDKey{}, fmt.Errorf("save VAPID key: %w", err)
	}
	if exists {
		// Read once, not recurse: a dangling symlink is ErrNotExist to
		// ReadFile and ErrExist to Link, and would loop forever.
		return LoadVAPIDKey(path)
	}
	return k, nil
}

func parseVAPIDKey(b []byte) (VAPIDKey, error) {
	block, _ := pem.Decode(b)
	if block == nil {
		return VAPIDKey{}, errors.New("VAPID key file holds no PEM block")
	}
	if k, err := x509.ParseECPrivateKey(block.Bytes); err == nil {
		return checkCurve(k)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return VAPIDKey{}, fmt.Errorf("parse VAPID key: %w", err)
	}
	ek, ok := k.(*ecdsa.PrivateKey)
	if !ok {
		return VAPIDKey{}, fmt.Errorf("VAPID key is %T, want ECDSA P-256", k)
	}
	return checkCurve(ek)
}

func checkCurve(k *ecdsa.PrivateKey) (VAPIDKey, error) {
	if k.Curve != elliptic.P256() {
		return VAPIDKey{}, fmt.Errorf("VAPID key is on %s, want P-256", k.Curve.Params().Name)
	}
	return VAPIDKey{Private: k}, nil
}

// CheckSubject reports whether subject may name the application server in
// its VAPID tokens (RFC 8292, section 2.1): a mailto: address or an
// https: URL, where a push service's operator can reach the club.
func CheckSubject(subject string) error {
	u, err := url.Parse(subject)
	switch {
	case err != nil:
	case u.Scheme == "mailto" && strings.Contains(u.Opaque, "@"):
		return nil
	case u.Scheme == "https" && u.Host != "":
		return nil
	}
	return fmt.Errorf("VAPID subject %q must be a mailto: address or an https: URL", subject)
}

// DefaultSubject derives a VAPID subject from the address clients reach
// the server at: that address when it is https, else
// mailto:push@<its host>.
func DefaultSubject(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil || u.Hostname() == "" {
		return "mailto:push@localhost"
	}
	if u.Scheme == "https" {
		return strings.TrimRight(baseURL, "/")
	}
	return "mailto:push@" + u.Hostname()
}
