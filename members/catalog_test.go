package members

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/tickets"
	"github.com/clubhouse-go/clubhouse/users"
)

// literalKey finds the catalog keys the templates name literally.
var literalKey = regexp.MustCompile(`\.T "([^"]+)"`)

// TestCatalog_appKeys: every message the app's pages and nav name, the
// notices of its sign-in page, and every refusal a form says in words,
// are in both catalogs, so no page shows a bare key.
func TestCatalog_appKeys(t *testing.T) {
	cat, err := web.LoadCatalog()
	require.NoError(t, err)
	keys := map[string]bool{}
	require.NoError(t, fs.WalkDir(templateFiles, "templates", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(templateFiles, path)
		for _, m := range literalKey.FindAllStringSubmatch(string(b), -1) {
			keys[m[1]] = true
		}
		return err
	}))
	require.NotEmpty(t, keys)
	for _, pg := range navPages {
		keys[pg.key] = true
	}
	for _, k := range notices {
		keys[k] = true
	}
	for _, k := range []string{"booked", "held", "cancelled", "reported"} {
		keys["app.booking.done."+k] = true
	}
	for _, k := range []string{"released", "cancelled", "paid", "pending", "owes"} {
		keys["app.state."+k] = true
	}
	for _, k := range []string{payments.DetailPending, payments.DetailCompleted, payments.DetailFailed, payments.DetailRefunded} {
		keys["app.payment."+k] = true
	}
	for _, k := range []string{"enrolled", "waitlisted", "withdrawn"} {
		keys["app.classes.done."+k] = true
	}
	for _, k := range []string{classes.EnrollmentPending, classes.EnrollmentAccepted} {
		keys["app.classes.enrollment."+k] = true
	}
	for _, k := range []string{tickets.TicketAvailable, tickets.TicketUsed, tickets.TicketExpired, tickets.TicketRefunded} {
		keys["app.ticket."+k] = true
	}
	for _, k := range []string{"app.short_name", "app.description"} {
		keys[k] = true
	}
	for _, k := range accountDone {
		keys[k] = true
	}
	for _, k := range []string{fieldCourt, fieldDate, fieldStart, fieldMinutes, fieldKind, "notes"} {
		keys["app.slot.field."+k] = true
	}
	for _, e := range []error{users.ErrInvalidEmail, users.ErrPasswordTooWeak, auth.ErrInvalidName, auth.ErrBadSignUpLink,
		auth.ErrBadPasswordToken, auth.ErrTooManyMails, auth.ErrBadCredentials, auth.ErrTooManyAttempts, auth.ErrUserDisabled,
		booking.ErrDocumentInUse, booking.ErrPhoneInUse, booking.ErrEmailInUse, booking.ErrClientExists, clubhouse.ErrInvalidReference,
		booking.ErrRulePast, booking.ErrRuleStaffOnly, booking.ErrRuleClosed, booking.ErrRuleTooLong, booking.ErrRuleShortNotice,
		booking.ErrRuleTooFarAhead, booking.ErrRuleBookingLimit, booking.ErrRuleCancelWindow, booking.ErrCourtTaken, booking.ErrBookingCancelled,
		payments.ErrClaimAboveDebt, payments.ErrClaimsAboveDebt, payments.ErrClaimRepeated, payments.ErrTooManyClaims,
		payments.ErrReceiptType, payments.ErrReceiptTooLarge, classes.ErrAlreadyEnrolled, payments.ErrNothingOwed, payments.ErrNoGateway,
		payments.ErrGatewayUnavailable, payments.ErrCentsOnline, booking.ErrHoldExpired} {
		keys["err."+strings.ReplaceAll(clubhouse.AsError(e).Code, " ", "_")] = true
	}
	for _, tag := range []string{"es-CO", "en"} {
		p := cat.Printer(language.MustParse(tag), time.UTC)
		for k := range keys {
			assert.True(t, p.Has(k), "%s: no message %q", tag, k)
		}
	}
}
