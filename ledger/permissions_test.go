package ledger_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/migrations"
)

// books is the actor of the tests' accounting: the club's own program,
// with staff rights (admin opens the ledger).
var books = clubhouse.Staff("books")

// TestPermissions_ledger: every call of the ledger, which took no actor
// (or a By label) before the services decided who may act, opens to the
// accountants and the administrators only: a client, a trainer, an
// operator, an administrator acting as a trainer and the anonymous caller
// are refused with ErrForbidden, and the books stay as they were.
func TestPermissions_ledger(t *testing.T) {
	t.Parallel()
	db, _ := dbtest.NewWith(t, migrations.Accounting())
	l := ledger.New(db.DB, ledger.Options{Now: func() time.Time { return time.Date(2027, 2, 1, 12, 0, 0, 0, time.UTC) }})
	ctx := t.Context()
	require.NoError(t, l.SeedChart(ctx, books, ledger.DemoChart))
	p, err := l.CreatePeriod(ctx, books, "2026", day("2026-01-01"), day("2026-12-31"))
	require.NoError(t, err)
	sale, _, err := l.Post(ctx, books, entry("2026-05-01", "Sale", dr("1.1.10.01", "10"), cr("4.1.05", "10")))
	require.NoError(t, err)
	state := func() string {
		var s string
		require.NoError(t, db.GetContext(ctx, &s, `SELECT concat_ws('|',
			(SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY id), '')) FROM accounts t),
			(SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY id), '')) FROM periods t),
			(SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY id), '')) FROM entries t),
			(SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY id), '')) FROM lines t))`))
		return s
	}
	roles := func(rs ...clubhouse.Role) clubhouse.Actor {
		a := clubhouse.Actor{UserID: 5, UID: "u-5", Roles: map[clubhouse.Role]bool{}}
		for _, r := range rs {
			a.Roles[r] = true
		}
		return a
	}
	refused := map[string]clubhouse.Actor{
		"anonymous":        {},
		"client":           roles(),
		"trainer":          roles(clubhouse.RoleTrainer),
		"operator":         roles(clubhouse.RoleOperator),
		"admin as trainer": roles(clubhouse.RoleAdmin, clubhouse.RoleTrainer).In(clubhouse.AreaTrainer),
	}
	admitted := map[string]clubhouse.Actor{"accountant": roles(clubhouse.RoleAccounting), "admin": roles(clubhouse.RoleAdmin)}
	year := func(s string) time.Time { return day(s) }
	ops := []struct {
		name string
		run  func(ctx context.Context, by clubhouse.Actor) error
	}{
		{"Accounts", func(ctx context.Context, by clubhouse.Actor) error { _, err := l.Accounts(ctx, by); return err }},
		{"Account", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := l.Account(ctx, by, "4.1.05")
			return err
		}},
		{"CreateAccount", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := l.CreateAccount(ctx, by, ledger.AccountInput{Code: clubhouse.Some("1.1.05.09"), Name: clubhouse.Some("Caja 9")})
			return err
		}},
		{"UpdateAccount", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := l.UpdateAccount(ctx, by, "4.1.05", ledger.AccountInput{Name: clubhouse.Some("Renamed")})
			return err
		}},
		{"DeleteAccount", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := l.DeleteAccount(ctx, by, "1.1.05.09")
			return err
		}},
		{"CreatePeriod", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := l.CreatePeriod(ctx, by, "2027", year("2027-01-01"), year("2027-12-31"))
			return err
		}},
		{"Periods", func(ctx context.Context, by clubhouse.Actor) error { _, err := l.Periods(ctx, by); return err }},
		{"Period", func(ctx context.Context, by clubhouse.Actor) error { _, err := l.Period(ctx, by, p.ID); return err }},
		{"OpenPeriodFor", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := l.OpenPeriodFor(ctx, by, day("2026-06-01"))
			return err
		}},
		{"Post", func(ctx context.Context, by clubhouse.Actor) error {
			_, _, err := l.Post(ctx, by, entry("2026-05-02", "Sale", dr("1.1.10.01", "5"), cr("4.1.05", "5")))
			return err
		}},
		{"Reverse", func(ctx context.Context, by clubhouse.Actor) error {
			_, _, err := l.Reverse(ctx, by, sale.ID, time.Time{}, "")
			return err
		}},
		{"Entry", func(ctx context.Context, by clubhouse.Actor) error { _, err := l.Entry(ctx, by, sale.ID); return err }},
		{"Entries", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := l.Entries(ctx, by, ledger.EntryFilter{})
			return err
		}},
		{"TrialBalance", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := l.TrialBalance(ctx, by, ledger.ReportDate{Date: day("2026-12-31")})
			return err
		}},
		{"GeneralLedger", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := l.GeneralLedger(ctx, by, "4.1.05", ledger.ReportRange{From: day("2026-01-01"), To: day("2026-12-31")})
			return err
		}},
		{"FinancialPosition", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := l.FinancialPosition(ctx, by, ledger.ReportDate{Date: day("2026-12-31")})
			return err
		}},
		{"ProfitOrLoss", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := l.ProfitOrLoss(ctx, by, ledger.ReportRange{From: day("2026-01-01"), To: day("2026-12-31")})
			return err
		}},
		{"ChangesInEquity", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := l.ChangesInEquity(ctx, by, ledger.ReportRange{From: day("2026-01-01"), To: day("2026-12-31")})
			return err
		}},
		{"Readiness", func(ctx context.Context, by clubhouse.Actor) error { _, err := l.Readiness(ctx, by, p.ID); return err }},
		{"CloseResults", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := l.CloseResults(ctx, by, p.ID)
			return err
		}},
		{"CloseCashRegister", func(ctx context.Context, by clubhouse.Actor) error {
			_, _, err := l.CloseCashRegister(ctx, by, ledger.CashClose{Date: day("2026-06-01"), Amount: amt("1")})
			return err
		}},
		{"SeedChart", func(ctx context.Context, by clubhouse.Actor) error {
			return l.SeedChart(ctx, by, []ledger.ChartAccount{{Code: "1.1.05.08", Name: "Caja 8"}})
		}},
		{"Close", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := l.Close(ctx, by, p.ID, ledger.CloseOptions{})
			return err
		}},
	}
	for _, o := range ops {
		t.Run(o.name, func(t *testing.T) {
			for who, by := range refused {
				before := state()
				require.ErrorIsf(t, o.run(ctx, by), clubhouse.ErrForbidden, "%s", who)
				require.Equal(t, before, state(), "%s's refused call changed nothing", who)
			}
			for who, by := range admitted {
				err := o.run(ctx, by)
				require.NotErrorIsf(t, err, clubhouse.ErrForbidden, "%s is admitted", who)
			}
		})
	}
}
