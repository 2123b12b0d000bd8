package payments

import (
	"bytes"
	"fmt"
	"io"

	"github.com/clubhouse-go/clubhouse"
)

// MaxReceiptSize is the largest receipt image accepted, in bytes. The
// interface says "5 MB"; it is read as 5 MiB (5 × 1024 × 1024 = 5 242 880
// bytes), the larger reading, so that no file a user's system shows as
// 5 MB is refused.
const MaxReceiptSize = 5 << 20

// The content types of receipts.
const (
	TypeJPEG = "image/jpeg"
	TypePNG  = "image/png"
	TypeWebP = "image/webp"
)

// SniffLen is the number of leading bytes SniffReceipt needs to decide.
const SniffLen = 12

// Errors of receipt files.
var (
	ErrReceiptType = clubhouse.Errorf(clubhouse.UnsupportedMedia, "unsupported media type",
		"The receipt must be a JPEG, PNG or WebP image; its contents decide, not its name or declared type.")
	ErrReceiptTooLarge = clubhouse.Errorf(clubhouse.TooLarge, "receipt too large",
		"The receipt exceeds 5 MiB (%d bytes).", MaxReceiptSize)
	ErrReceiptMissing = clubhouse.Errorf(clubhouse.Invalid, "incomplete data", "Missing required fields: foto.")
	ErrNoReceipt      = clubhouse.Errorf(clubhouse.NotFound, "receipt not found", "The payment has no receipt.")
)

var (
	magicJPEG = []byte{0xFF, 0xD8, 0xFF}
	magicPNG  = []byte{0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A}
)

// SniffReceipt returns the content type of a receipt from its first bytes
// (at least SniffLen of them for WebP): JPEG starts FF D8 FF, PNG with its
// eight-byte signature, WebP with "RIFF", a length and "WEBP". The name and
// declared type of an upload play no part. Errors: ErrReceiptType.
func SniffReceipt(head []byte) (string, error) {
	switch {
	case bytes.HasPrefix(head, magicJPEG):
		return TypeJPEG, nil
	case bytes.HasPrefix(head, magicPNG):
		return TypePNG, nil
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return TypeWebP, nil
	}
	return "", ErrReceiptType
}

// receiptExt is the file extension of the receipts of contentType.
func receiptExt(contentType string) string {
	switch contentType {
	case TypeJPEG:
		return "jpg"
	case TypePNG:
		return "png"
	case TypeWebP:
		return "webp"
	}
	return "bin"
}

// receiptKey is the object key of a receipt of the booking with bookingID:
// receipts/<booking>/<ref>-<random>.<ext>, where ref is the payment's id or,
// before the payment exists, a random UUID. The random part makes every
// upload a new object, so that a replaced receipt is never overwritten
// before its row points elsewhere.
func receiptKey(bookingID int64, ref, random, contentType string) string {
	return fmt.Sprintf("receipts/%d/%s-%s.%s", bookingID, ref, random, receiptExt(contentType))
}

// LimitReceipt returns a reader of r's bytes that fails with
// ErrReceiptTooLarge once r holds more than n: it yields at most n bytes and
// reads at most n+1 from r, so an oversized upload is refused while it is
// read, never buffered whole.
func LimitReceipt(r io.Reader, n int64) io.Reader {
	return &limitedReader{r: r, left: n}
}

type limitedReader struct {
	r    io.Reader
	left int64 // bytes still allowed; -1 once the limit was passed
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, ErrReceiptTooLarge
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n - 1, ErrReceiptTooLarge
	}
	return n, err
}
