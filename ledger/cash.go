package ledger

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
)

// Default accounts of the cash-register close (see DemoChart).
const (
	VaultCode   = "1.1.05.02"
	CashierCode = "1.1.05.01"
)

// SourceCashClose is the Source of the entries CloseCashRegister posts, by
// which a reader tells a close from other entries.
const SourceCashClose = "cash-close"

// CashClose is a cash-register close: money moved from the vault to the
// cashier's drawer at a date.
type CashClose struct {
	Date           time.Time
	Amount         decimal.Decimal
	From           string // credited; VaultCode when empty
	To             string // debited; CashierCode when empty
	Description    string
	IdempotencyKey string
}

// ErrCashNoPeriod answers a cash close on a date no open period covers; the
// panel shows its message to cashiers, in Spanish.
var ErrCashNoPeriod = clubhouse.Errorf(clubhouse.Conflict, "no open period",
	"No hay un período contable abierto que cubra la fecha del cierre de caja. Abra o amplíe un período contable y vuelva a intentarlo.")

// CloseCashRegister records the vault-to-cashier entry of a cash-register
// close, only when an open period covers its date. Errors: ErrCashNoPeriod,
// Invalid for a bad amount, and those of Post (ErrWouldBeNegative when the
// vault holds less).
func (l *Ledger) CloseCashRegister(ctx context.Context, by clubhouse.Actor, c CashClose) (Entry, bool, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return Entry{}, false, err
	}
	if !c.Amount.IsPositive() {
		return Entry{}, false, clubhouse.ErrInvalidAmount.Withf("amount must be greater than 0.")
	}
	if _, err := l.OpenPeriodFor(ctx, by, c.Date); err != nil {
		if clubhouse.KindOf(err) == clubhouse.Conflict {
			return Entry{}, false, ErrCashNoPeriod.Withf(
				"No hay un período contable abierto que cubra el %s. Abra o amplíe un período contable y vuelva a intentarlo.", c.Date.Format(time.DateOnly))
		}
		return Entry{}, false, err
	}
	from, to := orDefault(c.From, VaultCode), orDefault(c.To, CashierCode)
	desc := strings.TrimSpace(c.Description)
	if desc == "" {
		desc = fmt.Sprintf("Cierre de caja %s", c.Date.Format(time.DateOnly))
	}
	e, created, err := l.Post(ctx, by, EntryInput{Date: c.Date, Description: desc, Source: SourceCashClose, IdempotencyKey: c.IdempotencyKey,
		Lines: []LineInput{{AccountCode: to, Debit: c.Amount}, {AccountCode: from, Credit: c.Amount}}})
	if errors.Is(err, ErrNoOpenPeriod) {
		// The period closed between the check and the posting.
		return Entry{}, false, ErrCashNoPeriod
	}
	return e, created, err
}

func orDefault(s, def string) string {
	if s = strings.TrimSpace(s); s == "" {
		return def
	}
	return s
}
