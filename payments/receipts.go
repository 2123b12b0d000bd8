package payments

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Receipt is an uploaded receipt image, checked and spooled to a temporary
// file until it is stored. Close removes the file.
type Receipt struct {
	ContentType string
	Size        int64
	file        *os.File
}

// ReadReceipt reads an uploaded receipt from r. Its first bytes decide its
// type, before anything else is read; reading stops at MaxReceiptSize+1
// bytes. The image goes to a temporary file in dir (os.TempDir when empty),
// never whole into memory. Errors: ErrReceiptMissing for an empty file,
// ErrReceiptType, ErrReceiptTooLarge, and r's own errors (wrapped).
func ReadReceipt(r io.Reader, dir string) (*Receipt, error) {
	head := make([]byte, SniffLen)
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read receipt: %w", err)
	}
	if n == 0 {
		return nil, ErrReceiptMissing
	}
	ct, err := SniffReceipt(head[:n])
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, "receipt-*")
	if err != nil {
		return nil, fmt.Errorf("spool receipt: %w", err)
	}
	rc := &Receipt{ContentType: ct, file: f}
	body := LimitReceipt(io.MultiReader(bytes.NewReader(head[:n]), r), MaxReceiptSize)
	if rc.Size, err = io.Copy(f, body); err != nil {
		_ = rc.Close()
		if errors.Is(err, ErrReceiptTooLarge) {
			return nil, ErrReceiptTooLarge
		}
		return nil, fmt.Errorf("spool receipt: %w", err)
	}
	return rc, nil
}

// body returns a fresh reader of the spooled image. It can seek (the object
// store may read it twice, to sign it) and has no Close, so that no HTTP
// client closes the file under the Receipt.
func (rc *Receipt) body() io.Reader { return io.NewSectionReader(rc.file, 0, rc.Size) }

// Close removes the spooled file; it is safe on a nil Receipt and twice.
func (rc *Receipt) Close() error {
	if rc == nil || rc.file == nil {
		return nil
	}
	name := rc.file.Name()
	err := errors.Join(rc.file.Close(), os.Remove(name))
	rc.file = nil
	return err
}

// ReceiptFile is a stored receipt opened for reading; the caller closes Body.
type ReceiptFile struct {
	ContentType string
	Body        io.ReadCloser
}

// cleanupTimeout bounds the removal of an object a failed request stored.
const cleanupTimeout = 30 * time.Second

// CheckStorage tells whether receipt storage is configured.
// Errors: ErrStorageOff.
func (s *Service) CheckStorage() error {
	if s.objects == nil {
		return ErrStorageOff
	}
	return nil
}

// createWithReceipt is CreateForBooking with a receipt image. The data is
// validated first; then the image is stored under a fresh key and the row
// inserted, with its events. When the insert fails the object is removed,
// so no object is left without a payment.
func (s *Service) createWithReceipt(ctx context.Context, by clubhouse.Actor, bookingID int64, in Input, rc *Receipt) (Payment, error) {
	if err := s.CheckStorage(); err != nil {
		return Payment{}, err
	}
	var p Payment
	in.ReservationID = clubhouse.Some(bookingID)
	if err := in.apply(&p, "reservation_id", "amount"); err != nil {
		return Payment{}, err
	}
	if _, err := s.store.bookingClient(ctx, s.db, bookingID); err != nil {
		return Payment{}, err
	}
	key, err := s.putReceipt(ctx, receiptKey(bookingID, newUUID(), token(), rc.ContentType), rc)
	if err != nil {
		return Payment{}, err
	}
	p.Foto, p.FotoType = &key, &rc.ContentType
	out, err := s.insert(ctx, by, p)
	if err != nil {
		s.removeObject(ctx, key)
		return Payment{}, fmt.Errorf("create payment: %w", err)
	}
	return out, nil
}

// storeClaimReceipt stores the receipt of a client's claim on the booking
// with bookingID under a fresh key, once the booking is known to be the
// client's (ErrNotYours otherwise), so that nobody stores an object under
// another's booking; the claim's own checks follow.
func (s *Service) storeClaimReceipt(ctx context.Context, by clubhouse.Actor, bookingID int64, rc *Receipt) (string, error) {
	if err := s.CheckStorage(); err != nil {
		return "", err
	}
	clientID, err := booking.ClientOf(ctx, s.db, by)
	if err != nil {
		return "", err
	}
	owner, err := s.store.bookingClient(ctx, s.db, bookingID)
	if err := claimOwner(err, clientID, owner); err != nil {
		return "", err
	}
	return s.putReceipt(ctx, receiptKey(bookingID, newUUID(), token(), rc.ContentType), rc)
}

// putReceipt stores rc under key and returns key; when it fails, whatever
// the store kept of it is removed. Errors: ErrStorageFailed.
func (s *Service) putReceipt(ctx context.Context, key string, rc *Receipt) (string, error) {
	if err := s.objects.Put(ctx, key, rc.ContentType, rc.body(), rc.Size); err != nil {
		s.removeObject(ctx, key)
		return "", storageErr("store receipt", err)
	}
	return key, nil
}

// claimOwner judges the lookup of a booking's client for a claim of the
// client with clientID (0: none): ErrNotYours for a booking that does not
// exist or is another's, the lookup's own error otherwise.
func claimOwner(err error, clientID, owner int64) error {
	switch {
	case errors.Is(err, booking.ErrBookingNotFound) || err == nil && (clientID == 0 || owner != clientID):
		return ErrNotYours
	}
	return err
}

// updateWithReceipt is UpdateForBooking that also adds or replaces the
// payment's receipt. The data is validated first; then the new image is
// stored under a fresh key, and one transaction updates the row, records
// the change's event and deletes the old object, committing only once it
// is gone. When any step fails the new object is removed and the old
// receipt stays.
func (s *Service) updateWithReceipt(ctx context.Context, by clubhouse.Actor, bookingID, id int64, in Input, rc *Receipt) (Payment, error) {
	if err := s.CheckStorage(); err != nil {
		return Payment{}, err
	}
	in.ReservationID = clubhouse.Optional[int64]{}
	// Check what can be checked before storing anything.
	p, err := s.getForBooking(ctx, bookingID, id)
	if err != nil {
		return Payment{}, err
	}
	if err := in.apply(&p); err != nil {
		return Payment{}, err
	}
	key, err := s.putReceipt(ctx, receiptKey(bookingID, strconv.FormatInt(id, 10), token(), rc.ContentType), rc)
	if err != nil {
		return Payment{}, err
	}
	var out Payment
	err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		p, err := s.store.get(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if p.ReservationID == nil || *p.ReservationID != bookingID {
			return ErrNotFound
		}
		before := p
		if err := in.change(&p); err != nil {
			return err
		}
		old := p.Foto
		p.Foto, p.FotoType = &key, &rc.ContentType
		if out, err = s.store.update(ctx, tx, p); err != nil {
			return err
		}
		if err := s.record(ctx, tx, by.Name(), &before, out); err != nil {
			return err
		}
		if err := s.Announce(ctx, tx, out); err != nil {
			return err
		}
		if old != nil && *old != key {
			if err := s.objects.Delete(ctx, *old); err != nil {
				return storageErr("delete old receipt", err)
			}
		}
		return nil
	})
	if err != nil {
		s.removeObject(ctx, key)
		return Payment{}, fmt.Errorf("update payment: %w", err)
	}
	return out, nil
}

// OpenReceipt opens the receipt of the payment with id, which must belong
// to the booking with bookingID when it is not 0 (0: any payment, of a
// booking or an enrollment). Errors: ErrStorageOff, ErrNotFound (also for
// another booking's payment), ErrNoReceipt, ErrObjectNotFound,
// ErrStorageFailed.
func (s *Service) OpenReceipt(ctx context.Context, by clubhouse.Actor, bookingID, id int64) (ReceiptFile, error) {
	if err := by.RequirePanel(); err != nil {
		return ReceiptFile{}, err
	}
	if err := s.CheckStorage(); err != nil {
		return ReceiptFile{}, err
	}
	var p Payment
	var err error
	if bookingID == 0 {
		p, err = s.store.get(ctx, s.db, id, false)
	} else {
		p, err = s.getForBooking(ctx, bookingID, id)
	}
	if err != nil {
		return ReceiptFile{}, err
	}
	if p.Foto == nil {
		return ReceiptFile{}, ErrNoReceipt
	}
	body, err := s.objects.Get(ctx, *p.Foto)
	if err != nil {
		return ReceiptFile{}, storageErr("open receipt", err)
	}
	ct := TypeJPEG
	if p.FotoType != nil {
		ct = *p.FotoType
	}
	return ReceiptFile{ContentType: ct, Body: body}, nil
}

// DeleteReceipt removes the receipt of the payment with id, which must
// belong to the booking with bookingID, and returns the payment without it.
// Row, event (EventUpdated) and object go in one transaction that commits
// only once the object is gone. Errors: ErrStorageOff, ErrNotFound,
// ErrNoReceipt, ErrStorageFailed.
func (s *Service) DeleteReceipt(ctx context.Context, by clubhouse.Actor, bookingID, id int64) (Payment, error) {
	if err := by.RequirePanel(); err != nil {
		return Payment{}, err
	}
	if err := s.CheckStorage(); err != nil {
		return Payment{}, err
	}
	var out Payment
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		p, err := s.store.get(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if p.ReservationID == nil || *p.ReservationID != bookingID {
			return ErrNotFound
		}
		if p.Foto == nil {
			return ErrNoReceipt
		}
		before, key := p, *p.Foto
		p.Foto, p.FotoType = nil, nil
		if out, err = s.store.update(ctx, tx, p); err != nil {
			return err
		}
		if err := s.record(ctx, tx, by.Name(), &before, out); err != nil {
			return err
		}
		if err := s.Announce(ctx, tx, out); err != nil {
			return err
		}
		if err := s.objects.Delete(ctx, key); err != nil {
			return storageErr("delete receipt", err)
		}
		return nil
	})
	if err != nil {
		return Payment{}, fmt.Errorf("delete receipt: %w", err)
	}
	return out, nil
}

// removeObject deletes an object a failed request stored. It runs even when
// ctx was cancelled (the client left), within cleanupTimeout; a failure
// leaves an unreferenced object, which is harmless and cannot be reported
// better than the request's own error.
func (s *Service) removeObject(ctx context.Context, key string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	_ = s.objects.Delete(ctx, key)
}

// storageErr classifies an error of the object store: a missing object
// (fs.ErrNotExist) is ErrObjectNotFound, a domain error passes through,
// and anything else is ErrStorageFailed, with the cause kept for the log.
func storageErr(op string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w: %w", op, ErrObjectNotFound, err)
	}
	if clubhouse.AsError(err) != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return fmt.Errorf("%s: %w: %w", op, ErrStorageFailed, err)
}

// token returns 16 random lowercase base32 characters (80 bits).
func token() string { return strings.ToLower(rand.Text()[:16]) }

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
