// Package pushtest is a real Web Push service for tests: an HTTP server on
// loopback that plays the push service of the devices it makes. It checks
// each push request as a push service would (RFC 8030 headers, the VAPID
// Authorization of RFC 8292: a JWT signed ES256 with the application
// server's public key, aud the endpoint's origin, sub the subject) and
// decrypts its aes128gcm body with the device's private key and
// authentication secret (RFC 8291, RFC 8188), recording the plaintext.
// A test tells it what to answer each device: 201 by default, or a queue
// of statuses (500 to make the sender retry, 410 to say the device is
// gone).
package pushtest

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Receiver is a push service on loopback.
type Receiver struct {
	URL string // its origin, http://127.0.0.1:port

	tb      testing.TB
	key     *ecdsa.PublicKey // the application server's VAPID key
	keyText string
	subject string
	mu      sync.Mutex
	devices map[string]*Device // by path
	changed chan struct{}      // closed and replaced at each request
}

// Device is a browser's subscription at a Receiver.
type Device struct {
	Endpoint string // the push service's URL of the device
	P256dh   string // the device's public key, base64url
	Auth     string // its authentication secret, base64url

	private  *ecdh.PrivateKey
	secret   []byte
	answers  []int    // statuses to answer next, in order; then 201
	received [][]byte // the plaintexts of the requests answered 2xx
	requests int
}

// New starts a push service for tb that accepts the VAPID tokens of the
// public key publicKey (base64url, as PublicKey of push.VAPIDKey gives it)
// with subject; it stops when tb ends.
func New(tb testing.TB, publicKey, subject string) *Receiver {
	tb.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(publicKey)
	if err != nil {
		tb.Fatalf("pushtest: public key: %v", err)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		tb.Fatalf("pushtest: public key: %v", err)
	}
	r := &Receiver{tb: tb, key: pub, keyText: publicKey, subject: subject, devices: map[string]*Device{}, changed: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(r.serve))
	tb.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}

// Device makes a device whose push service is r: fresh keys and an
// endpoint of its own. answers are the statuses r answers its first
// requests with, in order; 201 after them.
func (r *Receiver) Device(answers ...int) *Device {
	r.tb.Helper()
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		r.tb.Fatal(err)
	}
	secret := make([]byte, 16)
	_, _ = rand.Read(secret)
	r.mu.Lock()
	defer r.mu.Unlock()
	path := "/push/" + strconv.Itoa(len(r.devices)+1) + "-" + rand.Text()
	d := &Device{Endpoint: r.URL + path, P256dh: base64.RawURLEncoding.EncodeToString(priv.PublicKey().Bytes()),
		Auth: base64.RawURLEncoding.EncodeToString(secret), private: priv, secret: secret, answers: answers}
	r.devices[path] = d
	return d
}

// Received returns the plaintexts d accepted (answered 2xx), in order,
// and the number of requests it got.
func (r *Receiver) Received(d *Device) ([][]byte, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][]byte(nil), d.received...), d.requests
}

// Wait waits until d has got at least requests requests, and fails the
// test after timeout; it returns what Received returns.
func (r *Receiver) Wait(d *Device, requests int, timeout time.Duration) ([][]byte, int) {
	r.tb.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		r.mu.Lock()
		n, changed := d.requests, r.changed
		r.mu.Unlock()
		if n >= requests {
			return r.Received(d)
		}
		select {
		case <-changed:
		case <-deadline.C:
			r.tb.Fatalf("pushtest: %s got %d requests, want %d", d.Endpoint, n, requests)
		}
	}
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	d, ok := r.devices[req.URL.Path]
	r.mu.Unlock()
	if !ok {
		http.Error(w, "no such subscription", http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(req.Body)
	if err == nil {
		err = r.check(req)
	}
	var plain []byte
	if err == nil {
		plain, err = d.decrypt(body)
	}
	r.mu.Lock()
	defer func() {
		close(r.changed)
		r.changed = make(chan struct{})
		r.mu.Unlock()
	}()
	d.requests++
	if err != nil {
		r.tb.Errorf("pushtest: bad push request to %s: %v", req.URL.Path, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	status := http.StatusCreated
	if len(d.answers) > 0 {
		status, d.answers = d.answers[0], d.answers[1:]
	}
	if status/100 == 2 {
		d.received = append(d.received, plain)
	}
	w.WriteHeader(status)
}

// check checks the headers of a push request (RFC 8030, section 5; RFC
// 8292, section 3).
func (r *Receiver) check(req *http.Request) error {
	if req.Method != http.MethodPost {
		return fmt.Errorf("method %s, want POST", req.Method)
	}
	if ce := req.Header.Get("Content-Encoding"); ce != "aes128gcm" {
		return fmt.Errorf("content encoding %q, want aes128gcm", ce)
	}
	if ttl, err := strconv.Atoi(req.Header.Get("TTL")); err != nil || ttl < 0 {
		return fmt.Errorf("header TTL %q is not a number of seconds", req.Header.Get("TTL"))
	}
	if u := req.Header.Get("Urgency"); u != "" && u != "very-low" && u != "low" && u != "normal" && u != "high" {
		return fmt.Errorf("header Urgency %q", u)
	}
	scheme, params, ok := strings.Cut(req.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "vapid") {
		return fmt.Errorf("header Authorization %q is not vapid", req.Header.Get("Authorization"))
	}
	var token, key string
	for _, p := range strings.Split(params, ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(p), "=")
		switch name {
		case "t":
			token = value
		case "k":
			key = value
		}
	}
	if key != r.keyText {
		return fmt.Errorf("vapid k=%q is not the server's public key", key)
	}
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return r.key, nil },
		jwt.WithValidMethods([]string{"ES256"}), jwt.WithAudience("http://"+req.Host), jwt.WithExpirationRequired())
	if err != nil {
		return fmt.Errorf("vapid token: %w", err)
	}
	if sub, _ := claims.GetSubject(); sub != r.subject {
		return fmt.Errorf("vapid sub %q, want %q", sub, r.subject)
	}
	if exp, _ := claims.GetExpirationTime(); exp.After(time.Now().Add(24 * time.Hour)) {
		return fmt.Errorf("vapid exp %v is more than 24 hours ahead", exp)
	}
	return nil
}

// decrypt decrypts the aes128gcm body of a push message (RFC 8291,
// section 3.4; RFC 8188, section 2): a header (salt, record size, the
// sender's ephemeral public key) and one record.
func (d *Device) decrypt(body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("body shorter than its header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if len(body) < 21+idlen || idlen != 65 {
		return nil, fmt.Errorf("keyid of %d bytes, want 65", idlen)
	}
	record := body[21+idlen:]
	if len(record) > int(rs) || len(record) <= 16 {
		return nil, fmt.Errorf("a record of %d bytes with rs %d: want exactly one", len(record), rs)
	}
	senderKey, err := ecdh.P256().NewPublicKey(body[21 : 21+idlen])
	if err != nil {
		return nil, fmt.Errorf("sender key: %w", err)
	}
	shared, err := d.private.ECDH(senderKey)
	if err != nil {
		return nil, err
	}
	info := "WebPush: info\x00" + string(d.private.PublicKey().Bytes()) + string(senderKey.Bytes())
	ikm, err := hkdf.Key(sha256.New, shared, d.secret, info, 32)
	if err != nil {
		return nil, err
	}
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, record, nil)
	if err != nil {
		return nil, fmt.Errorf("decrypt: %w", err)
	}
	// The last record ends with the delimiter 2, then zero padding.
	end := len(plain) - 1
	for end >= 0 && plain[end] == 0 {
		end--
	}
	if end < 0 || plain[end] != 2 {
		return nil, errors.New("the record has no last-record delimiter")
	}
	return plain[:end], nil
}
