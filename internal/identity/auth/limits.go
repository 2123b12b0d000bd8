package auth

// The limits of what the OAuth server accepts: a registered client's
// redirect URIs, each at most MaxRedirectURI characters, at most
// MaxRedirectURIs of them, and at most MaxClientTypes grant types and as
// many response types. A password's are users.MinPassword and MaxPassword.
const (
	MaxRedirectURI  = 2000
	MaxRedirectURIs = 10
	MaxClientTypes  = 10
)
