package httpapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/idem"
)

// The headers of idempotent requests (README, "Retrying writes").
const (
	idempotencyKeyHeader = "Idempotency-Key"
	replayedHeader       = "Idempotent-Replayed"
)

// errIdempotencyKey is the answer to an Idempotency-Key header sent twice
// or holding other than printable ASCII; a key over 255 characters is
// refused before, by the check of the route's documented parameters.
var errIdempotencyKey = idem.ErrInvalidKey.Withf(
	"Idempotency-Key must be sent once, with 1 to %d printable ASCII characters and no spaces.", idem.MaxKeyLen)

// errNoIdempotency answers a keyed request on a server built without a
// database for its keys (Options.DB and Options.Idempotency nil).
var errNoIdempotency = clubhouse.Errorf(clubhouse.Unavailable, "unavailable", "Idempotency keys are not enabled on this server; send the request without Idempotency-Key.")

// idempotent makes h, a handler that creates something, safe to retry. A
// request without an Idempotency-Key header runs h as it is. With one, the
// key is the caller's (its uid) on this route, and idem.Store.Do runs h at
// most once per key and input: a retry gets the first 2xx answer back
// (status, Content-Type, Location and body, plus Idempotent-Replayed:
// true), 422 with other input, and 409 request in progress with
// Retry-After while the first attempt runs. An answer that is not 2xx is
// not kept, so a retry runs again, unless h's write had committed: a
// retry of a request whose write committed but whose answer was lost (its
// server stopped, or h failed after the write) gets 409 request already
// applied, naming GET on the route's own path, where every keyed route
// lists what it creates.
//
// The input is the method, the path and the body: its bytes, or for a
// multipart body its parts (each part's name and content, in name order),
// since a retry of the same upload has another boundary.
func (s *Server) idempotent(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		keys := r.Header.Values(idempotencyKeyHeader)
		if len(keys) == 0 {
			return h(w, r)
		}
		if len(keys) > 1 || idem.CheckKey(keys[0]) != nil {
			return errIdempotencyKey
		}
		if s.o.Idempotency == nil {
			return errNoIdempotency
		}
		fp, done, err := fingerprint(r)
		if err != nil {
			return err
		}
		defer done()
		ri := infoFrom(r.Context())
		key := idem.Key{Owner: ri.actor.UID, Scope: ri.route, Key: keys[0]}
		out, replayed, err := s.o.Idempotency.Do(r.Context(), key, fp, func(ctx context.Context) (idem.Outcome, error) {
			rec := &recorder{header: w.Header()}
			if err := h(rec, r.WithContext(ctx)); err != nil {
				return idem.Outcome{}, err
			}
			if rec.status < 200 || rec.status > 299 {
				return idem.Outcome{}, fmt.Errorf("%s answered %d without an error", ri.route, rec.status)
			}
			return idem.Outcome{Status: rec.status, ContentType: rec.header.Get("Content-Type"),
				Location: rec.header.Get("Location"), Body: rec.body.Bytes()}, nil
		})
		switch {
		case errors.Is(err, idem.ErrInProgress):
			w.Header().Set("Retry-After", "1")
		case errors.Is(err, idem.ErrAlreadyApplied):
			return idem.ErrAlreadyApplied.Withf("The first request with this Idempotency-Key was applied, but its answer was lost; "+
				"it is not applied again. Find what it created with GET %s instead of retrying; use a new key for a new request.", r.URL.Path)
		}
		if err != nil {
			return err
		}
		if replayed {
			if out.ContentType != "" {
				w.Header().Set("Content-Type", out.ContentType)
			}
			if out.Location != "" {
				w.Header().Set("Location", out.Location)
			}
			w.Header().Set(replayedHeader, "true")
		}
		w.WriteHeader(out.Status)
		_, _ = w.Write(out.Body)
		return nil
	}
}

// recorder holds a handler's answer until it is known to be kept. Headers
// go to the real response's (nothing is sent before WriteHeader).
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (rec *recorder) Header() http.Header { return rec.header }

func (rec *recorder) WriteHeader(code int) {
	if rec.status == 0 {
		rec.status = code
	}
}

func (rec *recorder) Write(b []byte) (int, error) {
	rec.WriteHeader(http.StatusOK)
	return rec.body.Write(b)
}

// fingerprint reads the body of r and returns the fingerprint of its
// method, path and body, leaving the body to be read again by the handler;
// the caller calls done once the handler has run. A multipart body is
// spooled to a temporary file (it may hold a 5 MiB receipt) and
// fingerprinted by its parts; one that does not parse is fingerprinted by
// its bytes, and the handler refuses it. A body over the route's limit
// gets the handler's 413 at once.
func fingerprint(r *http.Request) (fp [32]byte, done func(), err error) {
	if !isMultipart(r) {
		b, err := io.ReadAll(io.LimitReader(r.Body, maxJSONBody+1))
		if err != nil {
			return fp, nil, clubhouse.ErrInvalidJSON.Withf("The request body could not be read: %v.", err)
		}
		if len(b) > maxJSONBody {
			return fp, nil, errTooLarge
		}
		r.Body = io.NopCloser(bytes.NewReader(b))
		return idem.Fingerprint([]byte(r.Method), []byte(r.URL.Path), []byte("body"), b), func() {}, nil
	}
	if r.ContentLength > maxMultipartBody {
		return fp, nil, errUploadTooLarge
	}
	f, err := os.CreateTemp("", "idempotent-*")
	if err != nil {
		return fp, nil, fmt.Errorf("spool request body: %w", err)
	}
	remove := func() { _ = f.Close(); _ = os.Remove(f.Name()) }
	defer func() {
		if err != nil {
			remove()
		}
	}()
	n, err := io.Copy(f, io.LimitReader(r.Body, maxMultipartBody+1))
	if err != nil {
		return fp, nil, bodyError(err)
	}
	if n > maxMultipartBody {
		return fp, nil, errUploadTooLarge
	}
	parts, perr := formParts(r, io.NewSectionReader(f, 0, n))
	if perr != nil {
		h := sha256.New()
		if _, err := io.Copy(h, io.NewSectionReader(f, 0, n)); err != nil {
			return fp, nil, fmt.Errorf("read spooled request body: %w", err)
		}
		parts = [][]byte{[]byte("unparsed"), h.Sum(nil)}
	}
	r.Body = io.NopCloser(io.NewSectionReader(f, 0, n))
	return idem.Fingerprint(append([][]byte{[]byte(r.Method), []byte(r.URL.Path), []byte("multipart")}, parts...)...), remove, nil
}

// formParts reads the multipart body of r from body and returns, in order
// of name, each part's name and the SHA-256 of its content: what the
// handler reads of a form, without the boundary, part headers or file name.
func formParts(r *http.Request, body io.Reader) ([][]byte, error) {
	rr := r.Clone(r.Context())
	rr.Body = io.NopCloser(body)
	mr, err := rr.MultipartReader()
	if err != nil {
		return nil, err
	}
	type part struct{ name, sum []byte }
	var list []part
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		if _, err := io.Copy(h, p); err != nil {
			return nil, err
		}
		list = append(list, part{name: []byte(p.FormName()), sum: h.Sum(nil)})
	}
	slices.SortFunc(list, func(a, b part) int {
		if c := bytes.Compare(a.name, b.name); c != 0 {
			return c
		}
		return bytes.Compare(a.sum, b.sum)
	})
	out := make([][]byte, 0, 2*len(list))
	for _, p := range list {
		out = append(out, p.name, p.sum)
	}
	return out, nil
}
