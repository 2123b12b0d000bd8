package clubhouse_test

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/calendar"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/pricing"
	"github.com/clubhouse-go/clubhouse/push"
	"github.com/clubhouse-go/clubhouse/reminders"
	"github.com/clubhouse-go/clubhouse/tickets"
	"github.com/clubhouse-go/clubhouse/users"
	"github.com/clubhouse-go/clubhouse/webhooks"
)

// exported lists every exported error of the public packages and of
// internal/identity/auth, whose errors reach the front doors too; the test below
// keeps it complete.
var exported = map[string]error{
	"clubhouse.ErrInvalidData":          clubhouse.ErrInvalidData,
	"clubhouse.ErrInvalidReference":     clubhouse.ErrInvalidReference,
	"clubhouse.ErrInvalidDate":          clubhouse.ErrInvalidDate,
	"clubhouse.ErrInvalidTime":          clubhouse.ErrInvalidTime,
	"clubhouse.ErrInvalidAmount":        clubhouse.ErrInvalidAmount,
	"clubhouse.ErrIncomplete":           clubhouse.ErrIncomplete,
	"clubhouse.ErrInvalidJSON":          clubhouse.ErrInvalidJSON,
	"clubhouse.ErrUnknownField":         clubhouse.ErrUnknownField,
	"clubhouse.ErrInvalidID":            clubhouse.ErrInvalidID,
	"clubhouse.ErrInvalidQuery":         clubhouse.ErrInvalidQuery,
	"clubhouse.ErrLimit":                clubhouse.ErrLimit,
	"clubhouse.ErrTooLarge":             clubhouse.ErrTooLarge,
	"clubhouse.ErrNotFound":             clubhouse.ErrNotFound,
	"clubhouse.ErrForbidden":            clubhouse.ErrForbidden,
	"clubhouse.ErrUnauthorized":         clubhouse.ErrUnauthorized,
	"clubhouse.ErrExists":               clubhouse.ErrExists,
	"clubhouse.ErrInUse":                clubhouse.ErrInUse,
	"booking.ErrClassType":              booking.ErrClassType,
	"booking.ErrHeldType":               booking.ErrHeldType,
	"booking.ErrOverrideForStaff":       booking.ErrOverrideForStaff,
	"booking.ErrRuleBookingLimit":       booking.ErrRuleBookingLimit,
	"booking.ErrRuleCancelWindow":       booking.ErrRuleCancelWindow,
	"booking.ErrRuleClosed":             booking.ErrRuleClosed,
	"booking.ErrRulePast":               booking.ErrRulePast,
	"booking.ErrRuleShortNotice":        booking.ErrRuleShortNotice,
	"booking.ErrRuleStaffOnly":          booking.ErrRuleStaffOnly,
	"booking.ErrRuleTooFarAhead":        booking.ErrRuleTooFarAhead,
	"booking.ErrRuleTooLong":            booking.ErrRuleTooLong,
	"booking.ErrNotClassBooking":        booking.ErrNotClassBooking,
	"booking.ErrBookingCancelled":       booking.ErrBookingCancelled,
	"booking.ErrNoShowMarked":           booking.ErrNoShowMarked,
	"booking.ErrNoShowEarly":            booking.ErrNoShowEarly,
	"booking.ErrHeld":                   booking.ErrHeld,
	"booking.ErrHoldExpired":            booking.ErrHoldExpired,
	"eventlog.ErrCursorExpired":         eventlog.ErrCursorExpired,
	"webhooks.ErrInvalidURL":            webhooks.ErrInvalidURL,
	"webhooks.ErrInvalidEventType":      webhooks.ErrInvalidEventType,
	"webhooks.ErrEndpointNotFound":      webhooks.ErrEndpointNotFound,
	"webhooks.ErrEndpointDisabled":      webhooks.ErrEndpointDisabled,
	"webhooks.ErrMessageNotFound":       webhooks.ErrMessageNotFound,
	"webhooks.ErrInvalidRange":          webhooks.ErrInvalidRange,
	"calendar.ErrFeedNotFound":          calendar.ErrFeedNotFound,
	"reminders.ErrInvalidOffsets":       reminders.ErrInvalidOffsets,
	"reminders.ErrNoLogin":              reminders.ErrNoLogin,
	"calendar.ErrFeedKind":              calendar.ErrFeedKind,
	"calendar.ErrFeedKeyChanged":        calendar.ErrFeedKeyChanged,
	"calendar.ErrTooManyRequests":       calendar.ErrTooManyRequests,
	"calendar.ErrSubjectNotFound":       calendar.ErrSubjectNotFound,
	"classes.ErrTariffNotFound":         classes.ErrTariffNotFound,
	"classes.ErrNotClassType":           classes.ErrNotClassType,
	"classes.ErrTariffExists":           classes.ErrTariffExists,
	"classes.ErrClassNotFound":          classes.ErrClassNotFound,
	"classes.ErrNotTrainer":             classes.ErrNotTrainer,
	"classes.ErrNoTariff":               classes.ErrNoTariff,
	"classes.ErrClassEnded":             classes.ErrClassEnded,
	"classes.ErrClassNotStarted":        classes.ErrClassNotStarted,
	"classes.ErrEnrollmentNotFound":     classes.ErrEnrollmentNotFound,
	"classes.ErrClassNotOpen":           classes.ErrClassNotOpen,
	"classes.ErrAlreadyEnrolled":        classes.ErrAlreadyEnrolled,
	"classes.ErrEnrollmentMove":         classes.ErrEnrollmentMove,
	"classes.ErrClassFull":              classes.ErrClassFull,
	"classes.ErrStudentNotFound":        classes.ErrStudentNotFound,
	"tickets.ErrProgramNotFound":        tickets.ErrProgramNotFound,
	"tickets.ErrPackageNotFound":        tickets.ErrPackageNotFound,
	"tickets.ErrProgramExists":          tickets.ErrProgramExists,
	"tickets.ErrPackageExists":          tickets.ErrPackageExists,
	"tickets.ErrProgramInactive":        tickets.ErrProgramInactive,
	"tickets.ErrPackageInactive":        tickets.ErrPackageInactive,
	"tickets.ErrPackageMove":            tickets.ErrPackageMove,
	"tickets.ErrEventNotFound":          tickets.ErrEventNotFound,
	"tickets.ErrParticipantNotFound":    tickets.ErrParticipantNotFound,
	"tickets.ErrNotEventType":           tickets.ErrNotEventType,
	"tickets.ErrEventFull":              tickets.ErrEventFull,
	"tickets.ErrSlotTaken":              tickets.ErrSlotTaken,
	"tickets.ErrAlreadyIn":              tickets.ErrAlreadyIn,
	"tickets.ErrEventClosed":            tickets.ErrEventClosed,
	"tickets.ErrEventStarted":           tickets.ErrEventStarted,
	"tickets.ErrEventEnded":             tickets.ErrEventEnded,
	"tickets.ErrEventNotStarted":        tickets.ErrEventNotStarted,
	"tickets.ErrTicketNotFound":         tickets.ErrTicketNotFound,
	"tickets.ErrTicketUsed":             tickets.ErrTicketUsed,
	"tickets.ErrTicketExpired":          tickets.ErrTicketExpired,
	"tickets.ErrTicketRefunded":         tickets.ErrTicketRefunded,
	"tickets.ErrSaleNotFound":           tickets.ErrSaleNotFound,
	"tickets.ErrQuoteNotFound":          tickets.ErrQuoteNotFound,
	"tickets.ErrQuoteExpired":           tickets.ErrQuoteExpired,
	"tickets.ErrQuoteUsed":              tickets.ErrQuoteUsed,
	"tickets.ErrQuoteMismatch":          tickets.ErrQuoteMismatch,
	"tickets.ErrPaymentAmount":          tickets.ErrPaymentAmount,
	"tickets.ErrNothingToRefund":        tickets.ErrNothingToRefund,
	"booking.ErrInvalidColor":           booking.ErrInvalidColor,
	"booking.ErrInvalidLedgerAccount":   booking.ErrInvalidLedgerAccount,
	"booking.ErrClientNotFound":         booking.ErrClientNotFound,
	"booking.ErrClientExists":           booking.ErrClientExists,
	"booking.ErrDocumentInUse":          booking.ErrDocumentInUse,
	"booking.ErrEmailInUse":             booking.ErrEmailInUse,
	"booking.ErrPhoneInUse":             booking.ErrPhoneInUse,
	"booking.ErrInvalidEmail":           booking.ErrInvalidEmail,
	"booking.ErrUserNotFound":           booking.ErrUserNotFound,
	"booking.ErrCouponNotFound":         booking.ErrCouponNotFound,
	"booking.ErrCouponInvalid":          booking.ErrCouponInvalid,
	"booking.ErrCouponUsedUp":           booking.ErrCouponUsedUp,
	"booking.ErrHasContract":            booking.ErrHasContract,
	"booking.ErrHasCoupon":              booking.ErrHasCoupon,
	"booking.ErrNoCoupon":               booking.ErrNoCoupon,
	"booking.ErrContractInvalid":        booking.ErrContractInvalid,
	"booking.ErrContractClient":         booking.ErrContractClient,
	"booking.ErrCourtTaken":             booking.ErrCourtTaken,
	"booking.ErrCheckedIn":              booking.ErrCheckedIn,
	"booking.ErrBookingNotFound":        booking.ErrBookingNotFound,
	"booking.ErrOtherClient":            booking.ErrOtherClient,
	"booking.ErrNotAUser":               booking.ErrNotAUser,
	"booking.ErrNoClient":               booking.ErrNoClient,
	"booking.ErrSeriesNotFound":         booking.ErrSeriesNotFound,
	"booking.ErrSeriesTooLong":          booking.ErrSeriesTooLong,
	"booking.ErrSeriesRule":             booking.ErrSeriesRule,
	"booking.ErrTariffNotFound":         booking.ErrTariffNotFound,
	"booking.ErrTooManyTariffs":         booking.ErrTooManyTariffs,
	"booking.ErrOffGrid":                booking.ErrOffGrid,
	"booking.ErrCheckoutBeforeChecking": booking.ErrCheckoutBeforeChecking,
	"payments.ErrStorageOff":            payments.ErrStorageOff,
	"payments.ErrObjectNotFound":        payments.ErrObjectNotFound,
	"payments.ErrStorageFailed":         payments.ErrStorageFailed,
	"payments.ErrInvalidStatus":         payments.ErrInvalidStatus,
	"payments.ErrReceiptType":           payments.ErrReceiptType,
	"payments.ErrReceiptTooLarge":       payments.ErrReceiptTooLarge,
	"payments.ErrReceiptMissing":        payments.ErrReceiptMissing,
	"payments.ErrNoReceipt":             payments.ErrNoReceipt,
	"payments.ErrInboxNotFound":         payments.ErrInboxNotFound,
	"payments.ErrInboxResolved":         payments.ErrInboxResolved,
	"payments.ErrNotFound":              payments.ErrNotFound,
	"payments.ErrNotPending":            payments.ErrNotPending,
	"payments.ErrClaimAboveDebt":        payments.ErrClaimAboveDebt,
	"payments.ErrClaimsAboveDebt":       payments.ErrClaimsAboveDebt,
	"payments.ErrTooManyClaims":         payments.ErrTooManyClaims,
	"payments.ErrNotYours":              payments.ErrNotYours,
	"payments.ErrTransactionUsed":       payments.ErrTransactionUsed,
	"payments.ErrClaimRepeated":         payments.ErrClaimRepeated,
	"payments.ErrTicketSalePayment":     payments.ErrTicketSalePayment,
	"payments.ErrSignatureMissing":      payments.ErrSignatureMissing,
	"payments.ErrCentsOnline":           payments.ErrCentsOnline,
	"payments.ErrGatewayNotFound":       payments.ErrGatewayNotFound,
	"payments.ErrGatewayNotice":         payments.ErrGatewayNotice,
	"payments.ErrGatewaySignature":      payments.ErrGatewaySignature,
	"payments.ErrGatewayStale":          payments.ErrGatewayStale,
	"payments.ErrGatewayUnavailable":    payments.ErrGatewayUnavailable,
	"payments.ErrNoCheckout":            payments.ErrNoCheckout,
	"payments.ErrNotRefundable":         payments.ErrNotRefundable,
	"payments.ErrRefundAboveLeft":       payments.ErrRefundAboveLeft,
	"payments.ErrRefundNotOffered":      payments.ErrRefundNotOffered,
	"payments.ErrNoGateway":             payments.ErrNoGateway,
	"payments.ErrNoPayer":               payments.ErrNoPayer,
	"payments.ErrNothingOwed":           payments.ErrNothingOwed,
	"payments.ErrSignatureMalformed":    payments.ErrSignatureMalformed,
	"payments.ErrSignatureExpired":      payments.ErrSignatureExpired,
	"payments.ErrSignatureMismatch":     payments.ErrSignatureMismatch,
	"payments.ErrWebhookOff":            payments.ErrWebhookOff,
	"payments.ErrDeliveryTooLarge":      payments.ErrDeliveryTooLarge,
	"ledger.ErrAccountNotFound":         ledger.ErrAccountNotFound,
	"ledger.ErrBadCode":                 ledger.ErrBadCode,
	"ledger.ErrNoParent":                ledger.ErrNoParent,
	"ledger.ErrCodeTaken":               ledger.ErrCodeTaken,
	"ledger.ErrParentPosted":            ledger.ErrParentPosted,
	"ledger.ErrCashNoPeriod":            ledger.ErrCashNoPeriod,
	"ledger.ErrEntryNotFound":           ledger.ErrEntryNotFound,
	"ledger.ErrUnbalanced":              ledger.ErrUnbalanced,
	"ledger.ErrInvalidEntry":            ledger.ErrInvalidEntry,
	"ledger.ErrTooFewLines":             ledger.ErrTooFewLines,
	"ledger.ErrKeyReused":               ledger.ErrKeyReused,
	"ledger.ErrNoOpenPeriod":            ledger.ErrNoOpenPeriod,
	"ledger.ErrImmutable":               ledger.ErrImmutable,
	"ledger.ErrNotPostable":             ledger.ErrNotPostable,
	"ledger.ErrWouldBeNegative":         ledger.ErrWouldBeNegative,
	"ledger.ErrAlreadyReversed":         ledger.ErrAlreadyReversed,
	"ledger.ErrPeriodNotFound":          ledger.ErrPeriodNotFound,
	"ledger.ErrPeriodOverlap":           ledger.ErrPeriodOverlap,
	"ledger.ErrPeriodClosed":            ledger.ErrPeriodClosed,
	"ledger.ErrCloseOrder":              ledger.ErrCloseOrder,
	"ledger.ErrCloseCheck":              ledger.ErrCloseCheck,
	"ledger.ErrPeriodNotEnded":          ledger.ErrPeriodNotEnded,
	"ledger.ErrPeriodOpen":              ledger.ErrPeriodOpen,
	"ledger.ErrReopenOrder":             ledger.ErrReopenOrder,
	"ledger.ErrReopenForAdmin":          ledger.ErrReopenForAdmin,
	"ledger.ErrTooManyLines":            ledger.ErrTooManyLines,
	"pricing.ErrInvalidAdjustment":      pricing.ErrInvalidAdjustment,
	"pricing.ErrOffGrid":                pricing.ErrOffGrid,
	"pricing.ErrEmptySpan":              pricing.ErrEmptySpan,
	"pricing.ErrLongSpan":               pricing.ErrLongSpan,
	"pricing.ErrDateRange":              pricing.ErrDateRange,
	"pricing.ErrBadPrice":               pricing.ErrBadPrice,
	"pricing.ErrInvalidRule":            pricing.ErrInvalidRule,
	"push.ErrInvalidEndpoint":           push.ErrInvalidEndpoint,
	"push.ErrInvalidKeys":               push.ErrInvalidKeys,
	"push.ErrInvalidPlatform":           push.ErrInvalidPlatform,
	"push.ErrSubscriptionNotFound":      push.ErrSubscriptionNotFound,
	"push.ErrClientNotFound":            push.ErrClientNotFound,
	"push.ErrNoClient":                  push.ErrNoClient,
	"push.ErrOtherClient":               push.ErrOtherClient,
	"push.ErrDeviceTaken":               push.ErrDeviceTaken,
	"push.ErrTooManyDevices":            push.ErrTooManyDevices,
	"push.ErrTooLong":                   push.ErrTooLong,
	"push.ErrInvalidURL":                push.ErrInvalidURL,
	"push.ErrNotConfigured":             push.ErrNotConfigured,
	"users.ErrUserNotFound":             users.ErrUserNotFound,
	"users.ErrEmailTaken":               users.ErrEmailTaken,
	"users.ErrInvalidEmail":             users.ErrInvalidEmail,
	"users.ErrInvalidRole":              users.ErrInvalidRole,
	"users.ErrPasswordTooWeak":          users.ErrPasswordTooWeak,
	"users.ErrSelfLockout":              users.ErrSelfLockout,
	"users.ErrBotProfile":               users.ErrBotProfile,
	"users.ErrBadPageToken":             users.ErrBadPageToken,
	"auth.ErrTooManyAttempts":           auth.ErrTooManyAttempts,
	"auth.ErrBadOAuthState":             auth.ErrBadOAuthState,
	"auth.ErrTooManyRequests":           auth.ErrTooManyRequests,
	"auth.ErrBadSignUpLink":             auth.ErrBadSignUpLink,
	"auth.ErrInvalidName":               auth.ErrInvalidName,
	"auth.ErrTooManyMails":              auth.ErrTooManyMails,
	"mail.ErrInvalidStatus":             mail.ErrInvalidStatus,
	"mail.ErrNoLetter":                  mail.ErrNoLetter,
	"mail.ErrRefused":                   mail.ErrRefused,
	"auth.ErrInvalidGrant":              auth.ErrInvalidGrant,
	"auth.ErrInvalidMetadata":           auth.ErrInvalidMetadata,
	"auth.ErrToolsAudience":             auth.ErrToolsAudience,
	"auth.ErrNoAPIScope":                auth.ErrNoAPIScope,
	"auth.ErrClientToken":               auth.ErrClientToken,
	"auth.ErrMachineTools":              auth.ErrMachineTools,
	"auth.ErrNoToolsScope":              auth.ErrNoToolsScope,
	"auth.ErrToolsPanel":                auth.ErrToolsPanel,
	"auth.ErrInvalidRedirectURIs":       auth.ErrInvalidRedirectURIs,
	"auth.ErrInvalidRequest":            auth.ErrInvalidRequest,
	"auth.ErrPanelPermission":           auth.ErrPanelPermission,
	"auth.ErrRedirectURI":               auth.ErrRedirectURI,
	"auth.ErrUnknownClient":             auth.ErrUnknownClient,
	"auth.ErrUnsupportedGrant":          auth.ErrUnsupportedGrant,
	"auth.ErrBadCredentials":            auth.ErrBadCredentials,
	"auth.ErrBadRefresh":                auth.ErrBadRefresh,
	"auth.ErrBadBotKey":                 auth.ErrBadBotKey,
	"auth.ErrUserDisabled":              auth.ErrUserDisabled,
	"auth.ErrLocalOnly":                 auth.ErrLocalOnly,
	"auth.ErrBadPageToken":              auth.ErrBadPageToken,
	"auth.ErrInvalidToken":              auth.ErrInvalidToken,
	"auth.ErrBadPasswordToken":          auth.ErrBadPasswordToken,
	"auth.ErrMachineNotFound":           auth.ErrMachineNotFound,
	"auth.ErrInvalidClient":             auth.ErrInvalidClient,
	"auth.ErrInvalidScope":              auth.ErrInvalidScope,
	"auth.ErrInvalidTarget":             auth.ErrInvalidTarget,
	"auth.ErrNotWebSession":             auth.ErrNotWebSession,
	"auth.ErrWebOnly":                   auth.ErrWebOnly,
	"auth.ErrNoSession":                 auth.ErrNoSession,
	"auth.ErrSessionExpired":            auth.ErrSessionExpired,
}

// TestErrors_distinct: errors.Is holds between two exported errors only
// when one narrows the other (made with Withf or Sub, so of the same kind),
// whatever their codes; and exported lists every exported error of those
// packages.
func TestErrors_distinct(t *testing.T) {
	t.Parallel()
	names := make([]string, 0, len(exported))
	for n := range exported {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, a := range names {
		for _, b := range names {
			ea, eb := clubhouse.AsError(exported[a]), clubhouse.AsError(exported[b])
			require.NotNil(t, ea, a)
			// Made with Withf or Sub from b: b is not a, though a is b.
			specialises := !errors.Is(eb, ea) && ea.Kind == eb.Kind
			if a != b && errors.Is(exported[a], exported[b]) && !specialises {
				t.Errorf("errors.Is(%s, %s) is true", a, b)
			}
		}
	}
	assert.Equal(t, names, declaredErrors(t), "exported must list every exported Err variable")
}

// TestErrors_withfAndWrap: a specialised error is its declared error and no
// other with the same code; a wrapped cause reaches the text, not the code.
func TestErrors_withfAndWrap(t *testing.T) {
	t.Parallel()
	err := booking.ErrCourtTaken.Withf("The court is booked by booking 7.")
	assert.ErrorIs(t, err, booking.ErrCourtTaken)
	assert.NotErrorIs(t, booking.ErrOffGrid, booking.ErrCheckoutBeforeChecking, "same code, different errors")
	cause := errors.New("pq: duplicate key")
	w := clubhouse.ErrExists.Wrap(cause)
	assert.ErrorIs(t, w, clubhouse.ErrExists)
	assert.ErrorIs(t, w, cause)
	assert.Same(t, clubhouse.ErrExists, clubhouse.AsError(w))
	assert.Equal(t, cause, clubhouse.Cause(w))
	assert.Contains(t, w.Error(), "pq: duplicate key")
	assert.Nil(t, clubhouse.Cause(clubhouse.ErrExists))
}

// TestErrors_sub: an error declared with Sub is the error it narrows to
// errors.Is, keeps its own code, and stays apart from that error's other
// narrowings; sqldb's fallbacks narrow the root errors of their refusals.
func TestErrors_sub(t *testing.T) {
	t.Parallel()
	assert.ErrorIs(t, booking.ErrUserNotFound, clubhouse.ErrInvalidReference)
	assert.ErrorIs(t, booking.ErrUserNotFound.Withf("user 9 is gone."), clubhouse.ErrInvalidReference)
	assert.Equal(t, "user not found", booking.ErrUserNotFound.Code)
	assert.Equal(t, clubhouse.Invalid, booking.ErrUserNotFound.Kind)
	assert.NotErrorIs(t, booking.ErrUserNotFound, sqldb.ErrReference)
	assert.NotErrorIs(t, clubhouse.ErrInvalidReference, booking.ErrUserNotFound)
	for _, c := range []struct{ err, root error }{
		{sqldb.ErrReference, clubhouse.ErrInvalidReference},
		{sqldb.ErrDuplicate, clubhouse.ErrExists},
		{sqldb.ErrData, clubhouse.ErrInvalidData},
	} {
		assert.ErrorIs(t, c.err, c.root)
		assert.ErrorIs(t, clubhouse.AsError(c.err).Wrap(errors.New("23503")), c.root)
	}
	assert.Equal(t, "conflict", sqldb.ErrDuplicate.Code, "the wire code stays")
}

// declaredErrors finds the exported Err variables of the packages of
// exported by reading their source.
func declaredErrors(t *testing.T) []string {
	t.Helper()
	var out []string
	for dir, pkg := range map[string]string{".": "clubhouse", "booking": "booking", "classes": "classes", "payments": "payments", "ledger": "ledger", "pricing": "pricing", "tickets": "tickets", "push": "push", "users": "users", "mail": "mail", "eventlog": "eventlog", "calendar": "calendar", "webhooks": "webhooks", "reminders": "reminders", "internal/identity/auth": "auth"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
			require.NoError(t, err)
			for _, decl := range file.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					continue
				}
				for _, spec := range gd.Specs {
					for _, name := range spec.(*ast.ValueSpec).Names {
						if strings.HasPrefix(name.Name, "Err") && name.IsExported() {
							out = append(out, pkg+"."+name.Name)
						}
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}
