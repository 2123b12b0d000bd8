package ledger

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
)

// Account is an account of the chart.
type Account struct {
	ID            int64           `db:"id"`
	Code          string          `db:"code"`
	Name          string          `db:"name"`
	ParentID      *int64          `db:"parent_id"`
	Class         int             `db:"class"`
	NormalSide    string          `db:"normal_side"`
	Postable      bool            `db:"postable"`
	Active        bool            `db:"active"`
	NeverNegative bool            `db:"never_negative"`
	Balance       decimal.Decimal `db:"balance"` // kept for never-negative accounts only
	CreatedAt     time.Time       `db:"created_at"`
	UpdatedAt     time.Time       `db:"updated_at"`
}

// Sides of accounts.
const (
	Debit  = "debit"
	Credit = "credit"
)

// The results account, where close-results moves profit or loss.
const ResultsCode = "3.1"

// Kind of an account class, for statements.
const (
	KindAsset     = "asset"
	KindLiability = "liability"
	KindEquity    = "equity"
	KindIncome    = "income"
	KindExpense   = "expense"
	KindMemo      = "memorandum"
)

// ClassKind classifies an account class: 1 asset, 2 liability, 3 equity,
// 4 income, 5 to 7 expense (expenses and costs), 8 and 9 memorandum.
func ClassKind(class int) string {
	switch class {
	case 1:
		return KindAsset
	case 2:
		return KindLiability
	case 3:
		return KindEquity
	case 4:
		return KindIncome
	case 5, 6, 7:
		return KindExpense
	}
	return KindMemo
}

// DefaultSide is the normal side of a class: debit for assets, expenses,
// costs and debtor memorandum accounts (8), credit for the rest.
func DefaultSide(class int) string {
	switch class {
	case 1, 5, 6, 7, 8:
		return Debit
	}
	return Credit
}

// ParentCode returns the code of an account's parent: "1.1" for "1.1.05",
// "" for a class account.
func ParentCode(code string) string {
	if i := strings.LastIndex(code, "."); i >= 0 {
		return code[:i]
	}
	return ""
}

// AccountInput is the data of an account to create or change.
type AccountInput struct {
	Code          clubhouse.Optional[string]
	Name          clubhouse.Optional[string]
	NormalSide    clubhouse.Optional[string] // default: the class's
	Postable      clubhouse.Optional[bool]
	Active        clubhouse.Optional[bool]
	NeverNegative clubhouse.Optional[bool]
}

// Errors of accounts.
var (
	ErrAccountNotFound = clubhouse.Errorf(clubhouse.NotFound, "account not found", "The account does not exist.")
	ErrBadCode         = clubhouse.Errorf(clubhouse.Invalid, "invalid code",
		"code must be a PUC-style code: a class digit 1 to 9, then dot-separated numbers, such as 1.1.05.")
	ErrNoParent     = clubhouse.Errorf(clubhouse.Invalid, "invalid code", "The parent account of that code does not exist; create it first.")
	ErrCodeTaken    = clubhouse.Errorf(clubhouse.Conflict, "already exists", "An account with that code already exists.")
	ErrParentPosted = clubhouse.Errorf(clubhouse.Conflict, "parent has postings",
		"The parent account has postings, so it cannot become a group account.")
)

// validCode reports whether code is a PUC-style dotted code.
func validCode(code string) bool {
	parts := strings.Split(code, ".")
	if len(parts[0]) != 1 || parts[0] < "1" || parts[0] > "9" {
		return false
	}
	for _, p := range parts[1:] {
		if len(p) == 0 || len(p) > 6 || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}
