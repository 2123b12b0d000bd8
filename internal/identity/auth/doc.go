// Package auth authenticates principals for clubd. It is clubd's own
// identity provider by default: it keeps users with bcrypt password hashes,
// signs RS256 access tokens with a key kept on disk, publishes that key as a
// JWKS, and rotates refresh tokens by family. It can instead trust an external
// OIDC issuer, verifying its tokens through discovery and JWKS. Bot API keys
// are checked here too, and machine clients (client-credentials clients)
// are kept and given tokens of their own (machines.go).
//
// Tokens are accepted only when signed with RS256 by a key of the issuer's key
// set, for the configured issuer and audience, and not expired; everything
// else is a clubhouse.Unauthenticated error. A token proves identity only: the
// roles and the disabled flag are read from the user's (or the machine
// client's) row on every request.
package auth
