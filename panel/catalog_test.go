package panel

import (
	"fmt"
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
)

// literalKey finds the catalog keys the templates name literally: {{.T
// "key"}}, {{$.T "key" ...}}.
var literalKey = regexp.MustCompile(`\.T "([^"]+)"`)

// TestCatalog_panelKeys: every message the panel's pages and nav name,
// literally or by a pattern over known values (the scopes a client may
// ask for, the payments', enrollments', marks of attendance, classes',
// events' and tickets' states, the classes' weekdays), and every refusal
// a page says in words, is in both catalogs, so no page shows a bare key.
func TestCatalog_panelKeys(t *testing.T) {
	cat, err := web.LoadCatalog()
	require.NoError(t, err)
	keys := map[string]bool{}
	require.NoError(t, fs.WalkDir(templateFiles, "templates", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(templateFiles, path)
		if err != nil {
			return err
		}
		for _, m := range literalKey.FindAllStringSubmatch(string(b), -1) {
			keys[m[1]] = true
		}
		return nil
	}))
	require.NotEmpty(t, keys)
	for _, pg := range navPages {
		keys[pg.key] = true
	}
	for _, s := range auth.SupportedScopes() {
		keys["scope."+s] = true
	}
	for _, s := range []string{payments.DetailPending, payments.DetailCompleted, payments.DetailFailed, payments.DetailRefunded} {
		keys["payment."+s] = true
	}
	for _, s := range []string{classes.AttendancePresent, classes.AttendanceAbsent, classes.AttendanceLate, classes.AttendanceExcused, "none"} {
		keys["classes.mark."+s] = true
	}
	for _, s := range []string{classes.StatusScheduled, classes.StatusCancelled, classes.StatusCompleted} {
		keys["classes.status."+s] = true
	}
	for d := 1; d <= 7; d++ {
		keys[fmt.Sprintf("classes.weekday.%d", d)] = true
	}
	for _, rw := range refusalWords {
		keys[rw.key] = true
	}
	keys["classes.and"], keys["classes.schedule"] = true, true
	for _, s := range []string{tickets.StatusScheduled, tickets.StatusCancelled, tickets.StatusCompleted} {
		keys["events.status."+s] = true
	}
	for _, s := range []string{tickets.TicketAvailable, tickets.TicketUsed, tickets.TicketExpired, tickets.TicketRefunded} {
		keys["ticketsale.state."+s] = true
	}
	for _, r := range scanRefusals {
		keys[r.key] = true
	}
	for _, r := range saleRefusals {
		keys[r.key] = true
	}
	keys["ticketsale.err_count"], keys["ticketsale.err_package"] = true, true
	keys["err."+strings.ReplaceAll(errNotStaff.Code, " ", "_")] = true
	for _, s := range []booking.PaymentState{booking.PaymentPaid, booking.PaymentPartial, booking.PaymentUnpaid} {
		keys["day.pay."+string(s)] = true
	}
	for _, a := range []booking.Action{booking.ActionCreated, booking.ActionMoved, booking.ActionResized, booking.ActionChanged,
		booking.ActionCancelled, booking.ActionNoShow, booking.ActionNoShowCleared, booking.ActionCheckedIn, booking.ActionCheckInUndone,
		booking.ActionCoupon, booking.ActionContract} {
		keys["history."+string(a)] = true
	}
	for d := range dones {
		keys["booking.done."+d] = true
	}
	for _, h := range []string{classes.HoldKind, tickets.HoldKind} {
		keys["day.held."+h] = true
	}
	for _, s := range []string{classes.EnrollmentPending, classes.EnrollmentAccepted, classes.EnrollmentWaitlisted,
		classes.EnrollmentRejected, classes.EnrollmentCancelled} {
		keys["clients.enrollment."+s] = true
	}
	for _, e := range []error{errNotStaff, booking.ErrClientNotFound, booking.ErrInvalidEmail, booking.ErrEmailInUse,
		booking.ErrDocumentInUse, booking.ErrPhoneInUse, clubhouse.ErrInvalidQuery} {
		keys["err."+strings.ReplaceAll(clubhouse.AsError(e).Code, " ", "_")] = true
	}
	for _, tag := range []string{"es-CO", "en"} {
		p := cat.Printer(language.MustParse(tag), time.UTC)
		for k := range keys {
			assert.True(t, p.Has(k), "%s: no message %q", tag, k)
		}
	}
}
