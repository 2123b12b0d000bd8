package realtime

// Revoke closes every connection of the relay whose principal (Actor.UID:
// for a user, users.local_id, the token's subject) is uid, with
// CloseCredentialsChanged, and returns how many it closed. A handshake of
// uid under way is closed so too once it is upgraded, since it may have
// been authenticated before the change. Call it when what uid may see
// changes (the user disabled, deleted, or given or taken roles): the
// client connects again and is judged on its credentials as they are now.
// It does not wait for the connections to close.
func (r *Relay) Revoke(uid string) int {
	r.mu.Lock()
	r.revocations++
	if r.handshakes > 0 {
		r.revoked[uid] = r.revocations
	}
	conns := r.hub.of(uid)
	r.mu.Unlock()
	n := 0
	for _, c := range conns {
		if c.end(CloseCredentialsChanged, closeCredentialsText) {
			n++
		}
	}
	if n > 0 {
		r.log.Info("realtime: connections closed, credentials changed", "principal", uid, "connections", n)
	}
	return n
}

// closeCredentialsText is the reason of CloseCredentialsChanged.
const closeCredentialsText = "credentials changed: reconnect"

// startHandshake counts a handshake under way and returns the count of
// revocations so far, for revokedSince; the caller calls endHandshake
// when the handshake is over.
func (r *Relay) startHandshake() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.handshakes++
	return r.revocations
}

// revokedSince reports whether the principal uid was revoked after the
// count since. Called with r.mu held.
func (r *Relay) revokedSince(uid string, since uint64) bool {
	return r.revoked[uid] > since
}

// endHandshake ends a handshake that startHandshake counted; once none is
// under way, the revocations they had to know of are forgotten.
func (r *Relay) endHandshake() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.handshakes--; r.handshakes == 0 {
		clear(r.revoked)
	}
}
