package httpapi

import (
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/payments"
)

// maxMultipartBody bounds a multipart payment request: the 5 MiB receipt
// plus 1 MiB for the text fields and the multipart framing. A request that
// declares more is refused before its body is read; one that sends more
// without declaring it is cut off at this size.
const maxMultipartBody = payments.MaxReceiptSize + 1<<20

// maxFormField bounds one text field of a multipart request.
const maxFormField = 64 << 10

// CSRF protection of receipt downloads: an authenticated admin GET sets the
// cookie; the download must echo its value in the header.
const (
	xsrfCookie = "XSRF-TOKEN"
	xsrfHeader = "X-XSRF-TOKEN"
)

// Errors of multipart requests and receipt downloads.
var (
	errUploadTooLarge = clubhouse.Errorf(clubhouse.TooLarge, "request too large",
		"A multipart request may not exceed %d bytes (a 5 MiB receipt and its fields).", maxMultipartBody)
	errFieldTooLarge = clubhouse.Errorf(clubhouse.TooLarge, "request too large", "A text field may not exceed %d bytes.", maxFormField)
	errXSRF          = clubhouse.Errorf(clubhouse.Forbidden, "invalid csrf token",
		"Send the value of the XSRF-TOKEN cookie (set by any authenticated admin GET) in the X-XSRF-TOKEN header.")
)

// errMultipart is returned for a multipart body that cannot be read.
var errMultipart = clubhouse.Errorf(clubhouse.Invalid, "invalid multipart", "The request is not valid multipart/form-data.")

// isMultipart tells whether r's body is multipart/form-data.
func isMultipart(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == "multipart/form-data"
}

// paymentForm is a multipart payment request: its text fields, as the JSON
// patch they stand for, and its receipt file.
type paymentForm struct {
	patch   bookingPaymentPatch
	receipt *payments.Receipt // nil when the request has no foto
}

func (f *paymentForm) close() { _ = f.receipt.Close() }

// readPaymentForm streams the multipart body of r, part by part: text
// fields are read into a patch with the types of the JSON body (amount a
// decimal, payment_type_id an integer, status true or false; an empty value
// is null), and the foto file is checked and spooled by
// payments.ReadReceipt, never held in memory. The body is capped at
// maxMultipartBody. The text fields are checked as those of a JSON body
// (checkFields). The caller closes the form.
// Errors: 400 for a malformed body, an unknown, repeated or ill-typed
// field, or text a JSON body could not carry either; 413 for a body, field or receipt too large; 415 for a receipt that
// is not JPEG, PNG or WebP.
func readPaymentForm(w http.ResponseWriter, r *http.Request) (_ *paymentForm, err error) {
	if r.ContentLength > maxMultipartBody {
		return nil, errUploadTooLarge
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxMultipartBody)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, errMultipart.Withf("The request is not valid multipart/form-data: %v.", err)
	}
	f := &paymentForm{}
	defer func() {
		if err != nil {
			f.close()
		}
	}()
	seen := map[string]bool{}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			if err := checkFields(reflect.ValueOf(f.patch), "", ""); err != nil {
				return nil, err
			}
			return f, nil
		}
		if err != nil {
			return nil, bodyError(err)
		}
		name := part.FormName()
		if seen[name] {
			return nil, clubhouse.ErrInvalidData.Withf("Field %q is sent twice.", name)
		}
		seen[name] = true
		if name == "foto" {
			if f.receipt, err = payments.ReadReceipt(part, ""); err != nil {
				return nil, bodyError(err)
			}
			continue
		}
		v, err := readField(part)
		if err != nil {
			return nil, err
		}
		if err := f.patch.setField(name, v); err != nil {
			return nil, err
		}
	}
}

// readField reads one text field, at most maxFormField bytes.
func readField(p *multipart.Part) (string, error) {
	b, err := io.ReadAll(io.LimitReader(p, maxFormField+1))
	if err != nil {
		return "", bodyError(err)
	}
	if len(b) > maxFormField {
		return "", errFieldTooLarge
	}
	return string(b), nil
}

// bodyError maps a failure to read the request body: the cap is a 413,
// domain errors (of the receipt) pass, anything else is a malformed body.
func bodyError(err error) error {
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return errUploadTooLarge
	case clubhouse.AsError(err) != nil:
		return err
	}
	return errMultipart.Withf("The multipart body could not be read: %v.", err)
}

// setField sets the field name of the patch from a form value, with the
// type the JSON body has. An empty value is null.
// Errors: Invalid for an unknown field or a value of the wrong type.
func (p *bookingPaymentPatch) setField(name, v string) error {
	v = strings.TrimSpace(v)
	null := v == ""
	switch name {
	case "amount":
		p.Amount.Set = true
		if null {
			return nil
		}
		d, err := decimal.NewFromString(v)
		if err != nil {
			return clubhouse.ErrInvalidAmount.Withf("amount must be a number, not %q.", v)
		}
		m := wire.Money(d)
		p.Amount.Value = &m
	case "payment_type_id":
		p.PaymentTypeID.Set = true
		if null {
			return nil
		}
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return clubhouse.ErrInvalidData.Withf("Field payment_type_id must be an integer, not %q.", v)
		}
		p.PaymentTypeID.Value = &id
	case "status":
		p.Status.Set = true
		switch v {
		case "":
		case "true", "false":
			b := v == "true"
			p.Status.Value = &b
		default:
			return clubhouse.ErrInvalidData.Withf("Field status must be true or false, not %q.", v)
		}
	case "transaction_id":
		p.TransactionID = optString(v)
	case "description":
		p.Description = optString(v)
	case "gateway_response":
		p.GatewayResponse = optString(v)
	default:
		return clubhouse.ErrUnknownField.Withf("Field %q is not accepted here.", name)
	}
	return nil
}

// optString is a form value as an optional string: empty is null.
func optString(v string) clubhouse.Optional[string] {
	if v == "" {
		return clubhouse.Optional[string]{Set: true}
	}
	return clubhouse.Some(v)
}

// missing lists the fields a multipart create needs and f lacks.
func (f *paymentForm) missing() []string {
	var out []string
	if f.patch.Amount.Value == nil {
		out = append(out, "amount")
	}
	if f.patch.TransactionID.Value == nil {
		out = append(out, "transaction_id")
	}
	if f.receipt == nil {
		out = append(out, "foto")
	}
	return out
}

// createBookingPaymentForm is createBookingPayment for a multipart body.
func (s *Server) createBookingPaymentForm(w http.ResponseWriter, r *http.Request, bookingID int64) error {
	if err := s.club(r).Payments.CheckStorage(); err != nil {
		return err
	}
	f, err := readPaymentForm(w, r)
	if err != nil {
		return err
	}
	defer f.close()
	if m := f.missing(); len(m) > 0 {
		return clubhouse.ErrIncomplete.Withf("Missing required fields: %s.", strings.Join(m, ", "))
	}
	p, err := s.club(r).Payments.CreateForBooking(r.Context(), actor(r), bookingID, bookingPaymentInput(f.patch).domain(), f.receipt)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newPaymentDTO(p))
}

// updateBookingPaymentForm is updateBookingPayment for a multipart body;
// with a foto it adds or replaces the receipt.
func (s *Server) updateBookingPaymentForm(w http.ResponseWriter, r *http.Request, bookingID, id int64) error {
	if err := s.club(r).Payments.CheckStorage(); err != nil {
		return err
	}
	f, err := readPaymentForm(w, r)
	if err != nil {
		return err
	}
	defer f.close()
	p, err := s.club(r).Payments.UpdateForBooking(r.Context(), actor(r), bookingID, id, bookingPaymentInput(f.patch).domain(), f.receipt)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newPaymentDTO(p))
}

// getReceipt streams the receipt image of a booking's payment.
//
// @Summary Download a payment's receipt
// @Description The image bytes, streamed from private storage, with its own Content-Type and Cache-Control: private, no-store. Besides the bearer token (or X-Auth) the request needs the X-XSRF-TOKEN header equal to the XSRF-TOKEN cookie, which every authenticated admin GET sets when the request has none (Path=/, SameSite=Strict, readable by scripts, Secure over HTTPS); 403 invalid csrf token otherwise. 404 when the payment belongs to another booking or has no receipt; 503 while receipt storage is not configured or does not answer.
// @Tags payments
// @Produce jpeg
// @Produce png
// @Produce image/webp
// @Produce json
// @Param bookingId path int true "booking id"
// @Param paymentId path int true "payment id"
// @Param X-XSRF-TOKEN header string true "the value of the XSRF-TOKEN cookie" maxlength(255)
// @Success 200 {file} file "The receipt image (image/jpeg, image/png or image/webp)"
// @Header 200 {string} Cache-Control "private, no-store"
// @Header 200,403 {string} Set-Cookie "XSRF-TOKEN=<token>; Path=/; SameSite=Strict (Secure over HTTPS), when the request carries no XSRF-TOKEN cookie"
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{bookingId}/payment/{paymentId}/foto [get]
func (s *Server) getReceipt(w http.ResponseWriter, r *http.Request) error {
	booking, id, err := bookingPaymentIDs(r)
	if err != nil {
		return err
	}
	if err := checkXSRF(r); err != nil {
		return err
	}
	f, err := s.club(r).Payments.OpenReceipt(r.Context(), actor(r), booking, id)
	if err != nil {
		return err
	}
	defer f.Body.Close()
	h := w.Header()
	h.Set("Content-Type", f.ContentType)
	h.Set("Cache-Control", "private, no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if _, err := io.Copy(w, f.Body); err != nil {
		// The status is sent: abort the response, so that the client sees
		// a broken transfer rather than a complete, truncated image.
		s.log.WarnContext(r.Context(), "receipt download interrupted", "booking", booking, "payment", id, "err", err)
		panic(http.ErrAbortHandler)
	}
	return nil
}

// deleteReceipt removes the receipt of a booking's payment.
//
// @Summary Delete a payment's receipt
// @Description Deletes the stored image and sets foto to null; the payment stays. 404 when the payment belongs to another booking or has no receipt; 503 while receipt storage is not configured or does not answer. Emits payment:updated.
// @Tags payments
// @Param bookingId path int true "booking id"
// @Param paymentId path int true "payment id"
// @Success 204
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{bookingId}/payment/{paymentId}/foto [delete]
func (s *Server) deleteReceipt(w http.ResponseWriter, r *http.Request) error {
	booking, id, err := bookingPaymentIDs(r)
	if err != nil {
		return err
	}
	if _, err := s.club(r).Payments.DeleteReceipt(r.Context(), actor(r), booking, id); err != nil {
		return err
	}
	return noContent(w)
}

// checkXSRF requires the X-XSRF-TOKEN header to equal the XSRF-TOKEN
// cookie, both present. Errors: errXSRF.
func checkXSRF(r *http.Request) error {
	c, err := r.Cookie(xsrfCookie)
	h := r.Header.Get(xsrfHeader)
	if err != nil || c.Value == "" || h == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(h)) != 1 {
		return errXSRF
	}
	return nil
}

// setXSRFCookie gives the caller of an authenticated admin GET an
// XSRF-TOKEN cookie when the request carries none. Scripts of the panel read
// it (not HttpOnly) and echo it in X-XSRF-TOKEN; another site can neither
// read it nor have it sent (SameSite=Strict).
func (s *Server) setXSRFCookie(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(xsrfCookie); err == nil && c.Value != "" {
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: xsrfCookie, Value: rand.Text(), Path: "/", SameSite: http.SameSiteStrictMode,
		Secure: r.TLS != nil || strings.HasPrefix(s.o.PublicBaseURL, "https://"),
	})
}
