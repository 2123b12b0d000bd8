package calendar

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
)

// nonceSize is the length of a feed's random nonce: 128 bits, so that no
// two feeds of a server share a token.
const nonceSize = 16

// tokenLength is the length of a token: 32 bytes in unpadded base64url.
const tokenLength = 43

// deriveToken is the token of the feed of kind and subject made with
// nonce under key: HMAC-SHA256, in unpadded base64url (43 characters,
// 256 bits). The database keeps the nonce and hashToken's hash of the
// token, never the token, so only a holder of key rebuilds it.
func deriveToken(key []byte, kind Kind, subject int64, nonce []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("clubhouse calendar feed\x00"))
	m.Write([]byte(kind))
	m.Write([]byte{0})
	m.Write(strconv.AppendInt(nil, subject, 10))
	m.Write([]byte{0})
	m.Write(nonce)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// hashToken is what the database keeps of a token: its SHA-256.
func hashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// wellFormed reports whether s has the form of a token, so that a request
// with any other costs no query.
func wellFormed(s string) bool {
	if len(s) != tokenLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
