package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/outbound"
)

// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document):
// a client names itself by the https URL of a JSON document holding its
// metadata, and clubd fetches that document instead of keeping a row for
// the client. The fetch runs on a client's word, so it is guarded against
// server-side request forgery: the address is checked at connect time,
// after resolution, by internal/plumbing/outbound's policy (the one every request
// made on a user's behalf goes through), and the size, the time and the
// redirects are bounded.

// The bounds of a document fetch.
const (
	// MaxClientDocument is the largest document clubd reads.
	MaxClientDocument = 64 << 10
	// ClientDocumentTimeout bounds a whole fetch: connection, redirects and body.
	ClientDocumentTimeout = 5 * time.Second
	// MaxClientDocumentAge bounds how long a document is cached, whatever its
	// headers say.
	MaxClientDocumentAge = 24 * time.Hour
	// ClientDocumentRetry is how long a document refused for what it is
	// (see documentFetcher.fetch) is refused again without another fetch.
	ClientDocumentRetry = time.Minute
	// maxCachedDocuments bounds the entries of the cache.
	maxCachedDocuments = 1024
	// maxDocumentRedirects bounds the redirects a fetch follows, on its host.
	maxDocumentRedirects = 3
)

// Registration paths, as the log names them.
const (
	RegistrationCIMD          = "cimd"          // a Client ID Metadata Document
	RegistrationDCR           = "dcr"           // dynamic client registration, the compatibility path
	RegistrationPreregistered = "preregistered" // MCP_OAUTH_CLIENT_ID
)

// IsClientDocumentURL reports whether the client_id id names a Client ID
// Metadata Document rather than a registered client: an http or https URL.
func IsClientDocumentURL(id string) bool {
	return strings.HasPrefix(id, "https://") || strings.HasPrefix(id, "http://")
}

// LoopbackURL reports whether u, a base URL, is on a loopback host; clubd
// fetches documents on loopback addresses only when its own
// PUBLIC_BASE_URL is (outbound.Policy.AllowLoopback), or when
// OUTBOUND_ALLOW_PRIVATE_NETWORKS opens private networks.
func LoopbackURL(u string) bool {
	p, err := url.Parse(u)
	return err == nil && p.Host != "" && isLoopback(p.Hostname())
}

// clientDocument is the part of a Client ID Metadata Document clubd reads.
type clientDocument struct {
	ClientID                string   `json:"client_id"`
	ClientName              string   `json:"client_name"`
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
}

// documentFetcher fetches Client ID Metadata Documents and caches them as
// their HTTP headers allow.
type documentFetcher struct {
	client *http.Client
	policy outbound.Policy // the addresses documents may be fetched from
	now    func() time.Time

	mu    sync.Mutex
	cache map[string]cachedDocument
}

// cachedDocument is a document, or the refusal of one (err), until expires.
type cachedDocument struct {
	doc     clientDocument
	err     error
	expires time.Time
}

// newDocumentFetcher returns a fetcher that connects only to the
// addresses policy allows (outbound.Policy.Control), and follows at most
// maxDocumentRedirects redirects, on the document's host.
func newDocumentFetcher(policy outbound.Policy, now func() time.Time) *documentFetcher {
	client := policy.Client(ClientDocumentTimeout)
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > maxDocumentRedirects {
			return fmt.Errorf("%w: more than %d", errRedirect, maxDocumentRedirects)
		}
		if req.URL.Scheme != via[0].URL.Scheme || req.URL.Host != via[0].URL.Host {
			return fmt.Errorf("%w: to another host (%s)", errRedirect, req.URL.Host)
		}
		return nil
	}
	return &documentFetcher{client: client, policy: policy, now: now, cache: map[string]cachedDocument{}}
}

// errRedirect is the error of a redirect a fetch does not follow.
var errRedirect = errors.New("redirect not followed")

// fetch returns the document at id, from the cache while its headers allow.
// A document refused for what it is (its content, or a 4xx of its server
// other than 408 and 429) is refused again for ClientDocumentRetry without
// another fetch, unless the caller went away while it was fetched; one
// refused for a failure that may pass (the network, a 5xx) is not
// remembered. Errors: ErrUnknownClient, saying why the document is refused,
// with the details of a failure to reach its server only in the cause, for
// the log.
func (f *documentFetcher) fetch(ctx context.Context, id string) (clientDocument, error) {
	if err := f.checkURL(id); err != nil {
		return clientDocument{}, err
	}
	now := f.now()
	f.mu.Lock()
	c, ok := f.cache[id]
	f.mu.Unlock()
	if ok && now.Before(c.expires) {
		return c.doc, c.err
	}
	doc, ttl, err := f.get(ctx, id)
	if err != nil {
		var refusal *docRefusal
		if !errors.As(err, &refusal) {
			refusal = &docRefusal{reason: "it could not be fetched", cause: err}
		}
		err = ErrUnknownClient.Withf("The client metadata document %q could not be used: %s.", id, refusal.reason).Wrap(err)
		if refusal.lasting && ctx.Err() == nil {
			f.store(id, cachedDocument{err: err, expires: now.Add(ClientDocumentRetry)}, now)
		}
		return clientDocument{}, err
	}
	if ttl > 0 {
		f.store(id, cachedDocument{doc: doc, expires: now.Add(ttl)}, now)
	}
	return doc, nil
}

// checkURL refuses a client_id that cannot be a document's URL: https with
// a path, no credentials, fragment or dot segments, on a host the policy
// allows (outbound.Policy.CheckHost); plain http only where the policy
// allows it (outbound.Policy.PlainHTTP: a loopback host with loopback
// open, a private address with private networks open).
func (f *documentFetcher) checkURL(id string) error {
	u, err := url.Parse(id)
	if err != nil || u.Host == "" || u.User != nil || u.Fragment != "" || strings.Contains(id, "#") || u.Opaque != "" {
		return ErrUnknownClient.Withf("The client_id %q is not a client metadata document URL.", id)
	}
	if u.Path == "" || u.Path == "/" {
		return ErrUnknownClient.Withf("The client_id %q must name a document by a path.", id)
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if seg == "." || seg == ".." {
			return ErrUnknownClient.Withf("The client_id %q must not hold dot segments.", id)
		}
	}
	host := u.Hostname()
	switch {
	case f.policy.CheckHost(host) != nil && isLoopback(host):
		return ErrUnknownClient.Withf("The client_id %q is on a loopback address: clubd fetches such documents only when its own PUBLIC_BASE_URL is a loopback address, or with OUTBOUND_ALLOW_PRIVATE_NETWORKS=true.", id)
	case f.policy.CheckHost(host) != nil:
		return ErrUnknownClient.Withf("The client_id %q is on an address that is not public.", id)
	case u.Scheme == "http" && !f.policy.PlainHTTP(host):
		return ErrUnknownClient.Withf("The client_id %q must be an https URL.", id)
	case u.Scheme != "http" && u.Scheme != "https":
		return ErrUnknownClient.Withf("The client_id %q must be an https URL.", id)
	}
	return nil
}

// get fetches and checks the document at id, and returns how long it may
// be cached. Errors: *docRefusal.
func (f *documentFetcher) get(ctx context.Context, id string) (clientDocument, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, ClientDocumentTimeout)
	defer cancel()
	unreachable := func(cause error) (clientDocument, time.Duration, error) {
		return clientDocument{}, 0, &docRefusal{reason: "it could not be fetched", cause: cause}
	}
	lasting := func(format string, args ...any) (clientDocument, time.Duration, error) {
		return clientDocument{}, 0, &docRefusal{reason: fmt.Sprintf(format, args...), lasting: true}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, id, nil)
	if err != nil {
		return unreachable(err)
	}
	req.Header.Set("Accept", "application/json")
	res, err := f.client.Do(req)
	switch {
	case errors.Is(err, errRedirect):
		return clientDocument{}, 0, &docRefusal{reason: "it redirects to another host or too many times", lasting: true, cause: err}
	case err != nil:
		return unreachable(err)
	}
	defer res.Body.Close()
	switch s := res.StatusCode; {
	case s == http.StatusRequestTimeout, s == http.StatusTooManyRequests, s >= 500:
		return clientDocument{}, 0, &docRefusal{reason: "the server answered " + res.Status}
	case s != http.StatusOK:
		return lasting("the server answered %s", res.Status)
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, MaxClientDocument+1))
	if err != nil {
		return unreachable(err)
	}
	if len(body) > MaxClientDocument {
		return lasting("it is larger than %d KiB", MaxClientDocument>>10)
	}
	var doc clientDocument
	if err := json.Unmarshal(body, &doc); err != nil {
		return lasting("it is not a JSON object of client metadata")
	}
	if doc.ClientID != id {
		return lasting("its client_id %q is not its URL", doc.ClientID)
	}
	if len(doc.RedirectURIs) == 0 {
		return lasting("it lists no redirect_uris")
	}
	if m := doc.TokenEndpointAuthMethod; m != "" && m != "none" {
		return lasting("its token_endpoint_auth_method is %q: only public clients (none) are accepted", m)
	}
	doc.ClientName = strings.TrimSpace(doc.ClientName)
	if doc.ClientName == "" || !validText(doc.ClientName, 255) {
		u, _ := url.Parse(id)
		doc.ClientName = u.Host
	}
	return doc, cacheTTL(res.Header, f.now()), nil
}

// docRefusal is why a document is not used: reason, as the caller of
// /authorize is told it, and the cause, for the log alone (what a
// connection found: a resolver's answer, an address, the state of a port).
// It is lasting when fetching the document again soon would find the same.
type docRefusal struct {
	reason  string
	lasting bool
	cause   error
}

func (e *docRefusal) Error() string {
	if e.cause == nil {
		return e.reason
	}
	return e.reason + ": " + e.cause.Error()
}

func (e *docRefusal) Unwrap() error { return e.cause }

// store caches c under id, first making room: expired entries go, then,
// if the cache is still full, the one that expires soonest.
func (f *documentFetcher) store(id string, c cachedDocument, now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if old, ok := f.cache[id]; ok && c.err != nil && old.err == nil && now.Before(old.expires) {
		return // a refusal racing a fetch that succeeded does not replace it
	}
	if len(f.cache) >= maxCachedDocuments {
		var soonest string
		for k, v := range f.cache {
			if !now.Before(v.expires) {
				delete(f.cache, k)
			} else if soonest == "" || v.expires.Before(f.cache[soonest].expires) {
				soonest = k
			}
		}
		if len(f.cache) >= maxCachedDocuments {
			delete(f.cache, soonest)
		}
	}
	f.cache[id] = c
}

// cacheTTL is how long a response with headers h may be cached as of now:
// Cache-Control's max-age, else Expires (against Date when sent), at most
// MaxClientDocumentAge; 0 for no-store, no-cache or neither header.
func cacheTTL(h http.Header, now time.Time) time.Duration {
	var ttl time.Duration
	maxAge := false
	for _, d := range strings.Split(h.Get("Cache-Control"), ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), "=")
		switch strings.ToLower(name) {
		case "no-store", "no-cache":
			return 0
		case "max-age":
			n, err := strconv.Atoi(strings.Trim(value, `"`))
			if err != nil || n < 0 {
				return 0
			}
			ttl, maxAge = time.Duration(n)*time.Second, true
		}
	}
	if !maxAge {
		exp, err := http.ParseTime(h.Get("Expires"))
		if err != nil {
			return 0
		}
		base := now
		if d, err := http.ParseTime(h.Get("Date")); err == nil {
			base = d
		}
		ttl = exp.Sub(base)
	}
	return max(0, min(ttl, MaxClientDocumentAge))
}
