package payments

import (
	"context"
	"io"

	"github.com/clubhouse-go/clubhouse"
)

// ObjectStore keeps receipt images privately. Keys are internal; clients
// never see an object's address. A store says an object is missing with an
// error that matches fs.ErrNotExist (errors.Is), which the service answers
// as ErrObjectNotFound, so that a store needs nothing of this package; any
// other error is taken for a failure of the store and answered as
// ErrStorageFailed.
type ObjectStore interface {
	// Put stores size bytes of body under key with the content type.
	Put(ctx context.Context, key, contentType string, body io.Reader, size int64) error
	// Get opens the object under key. Errors: one matching fs.ErrNotExist
	// when no object is stored under key.
	Get(ctx context.Context, key string) (io.ReadCloser, error)
	// Delete removes the object under key; a missing object is not an error.
	Delete(ctx context.Context, key string) error
}

// Errors of receipts.
var (
	ErrStorageOff = clubhouse.Errorf(clubhouse.Unavailable, "storage not configured",
		"Receipt storage is not configured on this server (OBJSTORE_BUCKET or OBJSTORE_DIR).")
	ErrObjectNotFound = clubhouse.Errorf(clubhouse.NotFound, "receipt not found", "The receipt image is missing from storage.")
	// ErrStorageFailed is a failure of the object store itself (unreachable,
	// credentials refused): a fault on the server's side, answered 503.
	ErrStorageFailed = clubhouse.Errorf(clubhouse.Unavailable, "storage unavailable",
		"Receipt storage did not accept the request; nothing was changed. Try again later.")
)
