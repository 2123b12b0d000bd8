package clubhouse_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// servesAnyone lists the exported methods of the domain services that
// read or change the club's data without an actor, each with the reason.
// Every other exported method whose first parameter is a context takes the
// clubhouse.Actor second and refuses a caller without the permission
// itself (TestServicesTakeTheActor), so that every front door and program
// gets the same checks. A method that takes a *sqlx.Tx runs inside the
// transaction of another service, which has judged its actor, and is not
// listed.
var servesAnyone = map[string]string{
	"booking.ClubRules.Get":                "the club's rules are public (GET /api/public/club-rules)",
	"classes.Classes.Open":                 "the open classes are public: anyone may look before enrolling",
	"payments.Service.Deliver":             "the gateway's webhook: its signature is its credential",
	"payments.Service.ReceiveNotification": "the online gateway's notification: its signature is its credential",
	"payments.Service.SettleDue":           "the job that settles what the gateway's API says of a notified transaction",
	"booking.Bookings.ReleaseUnpaid":       "the job that releases the bookings not paid in time",
	"eventlog.Log.Purge":                   "the job that deletes the events past their retention",
	"eventlog.Log.Forward":                 "the job that moves the ledger's events, recorded by its judged changes, into the club's log",
	"eventlog.Log.End":                     "where each instance's realtime relay starts to follow the log: a place, no event",
	"eventlog.Log.Relays":                  "each instance's realtime relay, which delivers each message only to the connections its audience names",
	"payments.Service.Reconcile":           "a verified gateway event (Deliver), or a program acting for the gateway",
	"payments.Service.EnrollmentsPaid":     "sums for the enrollments' domain, which has judged whose enrollments they are",
	"payments.LedgerPoster.PostPending":    "a background job: it posts the outbox",
	"payments.LedgerPoster.Waiting":        "the close's check, asked by the ledger within a close the accountant runs",
	"payments.LedgerPoster.Backlog":        "a background job's backlog, for the metrics",
	"payments.Service.NotificationBacklog": "a background job's backlog, for the metrics",
	"push.Service.DeliverDue":              "a background job: it sends the due deliveries",
	"webhooks.Service.DeliverDue":          "a background job: it delivers the webhooks' due messages",
	"webhooks.Service.Follow":              "a background job: it makes the events the log recorded into the webhooks' messages",
	"webhooks.Service.Purge":               "the job that deletes the webhooks' messages past the event log's retention",
	"push.Service.Backlog":                 "a background job's backlog, for the metrics",
	"mail.Sender.SendDue":                  "a background job: it sends the due messages",
	"mail.Outbox.Backlog":                  "a background job's backlog, for the metrics",
	"mail.SMTP.Send":                       "the sender's transport: it hands a made message to the mail server",
	"mail.Log.Send":                        "the sender's transport without a mail server: it writes a made message to the log",
	"payments.Wompi.Open":                  "a gateway's adapter: it opens a checkout the service has judged (CheckoutBooking)",
	"payments.Wompi.Lookup":                "a gateway's adapter: it reads the gateway's API, no club data",
	"payments.MercadoPago.Open":            "a gateway's adapter: it opens a checkout the service has judged (CheckoutBooking)",
	"payments.MercadoPago.Lookup":          "a gateway's adapter: it reads the gateway's API, no club data",
	"payments.Wompi.Refund":                "a gateway's adapter: it gives back a refund the service has judged (Refund)",
	"payments.MercadoPago.Refund":          "a gateway's adapter: it gives back a refund the service has judged (Refund)",
	"tickets.Expirer.ExpireDue":            "a background job: it expires the tickets past their date",
	"tickets.Expirer.Due":                  "a background job's backlog, for the metrics",
	"reminders.Service.Plan":               "a background job: it plans the reminders of the bookings the log says changed",
	"reminders.Service.SendDue":            "a background job: it sends the due reminders",
	"calendar.Feeds.Serve":                 "a calendar feed's read: the secret token in its URL is its credential",
}

// TestServicesTakeTheActor enforces that the domain services decide who
// may act: every exported method with a context first takes a
// clubhouse.Actor second, but those of servesAnyone and those that run in
// another service's transaction. A listed method that no longer exists,
// or now takes the actor, fails too, so the list stays short and true.
func TestServicesTakeTheActor(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, p := range listPackages(t) {
		name := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if !slices.Contains(domain, name) {
			continue
		}
		fset := token.NewFileSet()
		for _, file := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, file), nil, parser.SkipObjectResolution)
			require.NoError(t, err)
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Recv == nil || !fn.Name.IsExported() {
					continue
				}
				recv := receiverName(fn.Recv.List[0].Type)
				if !ast.IsExported(recv) {
					continue
				}
				params := paramTypes(fn.Type.Params)
				if len(params) == 0 || params[0] != "context.Context" || slices.Contains(params, "*sqlx.Tx") {
					continue
				}
				key := name + "." + recv + "." + fn.Name.Name
				takes := len(params) > 1 && params[1] == "clubhouse.Actor"
				if _, listed := servesAnyone[key]; listed {
					seen[key] = true
					if takes {
						t.Errorf("%s: %s takes the actor now; take it off servesAnyone", fset.Position(fn.Pos()), key)
					}
					continue
				}
				if !takes {
					t.Errorf("%s: %s reads or changes club data without a clubhouse.Actor as its second parameter (or list it in servesAnyone, with the reason)",
						fset.Position(fn.Pos()), key)
				}
			}
		}
	}
	for key := range servesAnyone {
		if !seen[key] {
			t.Errorf("servesAnyone lists %s, which is no exported method with a context any more", key)
		}
	}
}

// paramTypes is the type of each parameter of fl, as written.
func paramTypes(fl *ast.FieldList) []string {
	var out []string
	for _, f := range fl.List {
		s := exprString(f.Type)
		n := max(1, len(f.Names))
		for range n {
			out = append(out, s)
		}
	}
	return out
}

// exprString writes a type expression as the source spells it.
func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	case *ast.StarExpr:
		return "*" + exprString(e.X)
	case *ast.ArrayType:
		return "[]" + exprString(e.Elt)
	case *ast.Ellipsis:
		return "..." + exprString(e.Elt)
	case *ast.MapType:
		return "map[" + exprString(e.Key) + "]" + exprString(e.Value)
	case *ast.IndexExpr:
		return exprString(e.X) + "[" + exprString(e.Index) + "]"
	case *ast.FuncType:
		return "func"
	}
	return "?"
}
