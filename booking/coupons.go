package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

var (
	coupons = func() *catalog {
		c := newCatalog("coupons", "coupon", []string{"code", "kind", "value", "description", "valid_from", "valid_until",
			"max_uses", "max_uses_per_client", "is_active"}, []string{"code", "description"},
			reference{"applied_coupons", "coupon_id", "applied coupon records"})
		c.selectSQ = `SELECT t.id, t.code, t.kind, t.value, t.description, t.valid_from, t.valid_until, t.max_uses,
			t.max_uses_per_client, t.is_active, t.created_at, t.updated_at,
			(SELECT count(*) FROM reservations r WHERE r.coupon_id = t.id AND r.cancelled_at IS NULL) AS uses
			FROM coupons t`
		c.errs["coupons_code_key"] = clubhouse.ErrExists.Withf("A coupon with that code already exists.")
		c.errs["coupons_validity_check"] = errValidity
		return c
	}()
	contracts = func() *catalog {
		c := newCatalog("contracts", "contract", []string{"name", "client_id", "kind", "value", "description", "valid_from",
			"valid_until", "is_active"}, []string{"name", "description"}, reference{"reservations", "contract_id", "bookings"})
		c.errs["contracts_client_id_fkey"] = clubhouse.ErrInvalidReference.Withf("client_id does not name an existing client.")
		c.errs["contracts_validity_check"] = errValidity
		return c
	}()
	errValidity = clubhouse.Errorf(clubhouse.Invalid, "invalid date", "valid_until must not be before valid_from.")
)

// Errors of discounts.
var (
	ErrCouponNotFound  = clubhouse.Errorf(clubhouse.NotFound, "coupon not found", "No coupon has that code.")
	ErrCouponInvalid   = clubhouse.Errorf(clubhouse.Conflict, "coupon not valid", "The coupon is inactive or outside its validity dates.")
	ErrCouponUsedUp    = clubhouse.Errorf(clubhouse.Conflict, "coupon used up", "The coupon has reached its usage limit.")
	ErrHasContract     = clubhouse.Errorf(clubhouse.Conflict, "contract assigned", "The booking is under a contract; remove it before applying a coupon.")
	ErrHasCoupon       = clubhouse.Errorf(clubhouse.Conflict, "coupon applied", "The booking has a coupon; remove it first.")
	ErrNoCoupon        = clubhouse.Errorf(clubhouse.NotFound, "no coupon", "The booking has no coupon.")
	ErrContractInvalid = clubhouse.Errorf(clubhouse.Conflict, "contract not valid", "The contract is inactive or outside its validity dates.")
	ErrContractClient  = clubhouse.Errorf(clubhouse.Conflict, "contract of another client", "The contract belongs to another client than the booking's.")
)

// Discounts manages coupons and contracts and applies them to bookings.
type Discounts struct {
	db       *sqlx.DB
	bookings *Bookings

	Coupons   *Catalog[Coupon]
	Contracts *Catalog[Contract]
}

// CreateCoupon validates and stores a coupon. Errors: Invalid, Conflict for a taken code.
func (d *Discounts) CreateCoupon(ctx context.Context, by clubhouse.Actor, in DiscountInput) (Coupon, error) {
	if err := by.RequirePanel(); err != nil {
		return Coupon{}, err
	}
	cols, err := in.columns(true, true, "", decimal.Zero)
	if err != nil {
		return Coupon{}, err
	}
	return insert[Coupon](ctx, d.db, coupons, cols)
}

// UpdateCoupon changes a coupon. Errors: as CreateCoupon, and NotFound.
func (d *Discounts) UpdateCoupon(ctx context.Context, by clubhouse.Actor, id int64, in DiscountInput) (Coupon, error) {
	if err := by.RequirePanel(); err != nil {
		return Coupon{}, err
	}
	cur, err := d.Coupons.Get(ctx, by, id)
	if err != nil {
		return Coupon{}, err
	}
	cols, err := in.columns(true, false, cur.Kind, cur.Value)
	if err != nil || len(cols) == 0 {
		return cur, err
	}
	return update[Coupon](ctx, d.db, coupons, id, cols)
}

// CreateContract validates and stores a contract. Errors: Invalid.
func (d *Discounts) CreateContract(ctx context.Context, by clubhouse.Actor, in DiscountInput) (Contract, error) {
	if err := by.RequirePanel(); err != nil {
		return Contract{}, err
	}
	cols, err := in.columns(false, true, "", decimal.Zero)
	if err != nil {
		return Contract{}, err
	}
	return insert[Contract](ctx, d.db, contracts, cols)
}

// UpdateContract changes a contract. Errors: as CreateContract, and NotFound.
func (d *Discounts) UpdateContract(ctx context.Context, by clubhouse.Actor, id int64, in DiscountInput) (Contract, error) {
	if err := by.RequirePanel(); err != nil {
		return Contract{}, err
	}
	cur, err := d.Contracts.Get(ctx, by, id)
	if err != nil {
		return Contract{}, err
	}
	cols, err := in.columns(false, false, cur.Kind, cur.Value)
	if err != nil || len(cols) == 0 {
		return cur, err
	}
	return update[Contract](ctx, d.db, contracts, id, cols)
}

// ApplyCoupon applies the coupon with code to the booking with id, and
// returns the booking's new price. The coupon must be active, valid today
// (the club's date), and under its usage limits, counted over the bookings
// that carry it and are not cancelled; the booking must have no contract or coupon. The coupon row
// is locked, so concurrent applications cannot exceed a limit. Errors:
// ErrBookingNotFound, ErrBookingCancelled, ErrHeld, ErrCouponNotFound,
// ErrCouponInvalid, ErrCouponUsedUp, ErrHasContract, ErrHasCoupon.
func (d *Discounts) ApplyCoupon(ctx context.Context, by clubhouse.Actor, id int64, code string) (BookingQuote, error) {
	if err := by.RequirePanel(); err != nil {
		return BookingQuote{}, err
	}
	today := d.bookings.Now()
	err := sqldb.Transact(ctx, d.db, func(tx *sqlx.Tx) error {
		r, err := d.bookings.store.getLive(ctx, tx, id)
		if err != nil {
			return err
		}
		changes := Changes{}
		changes.changed(r)
		switch {
		case r.ContractID != nil:
			return ErrHasContract
		case r.CouponID != nil:
			return ErrHasCoupon
		}
		var c Coupon
		err = tx.GetContext(ctx, &c, `SELECT id, code, kind, value, description, valid_from, valid_until, max_uses,
			max_uses_per_client, is_active, created_at, updated_at, 0 AS uses FROM coupons WHERE lower(code) = lower($1) FOR UPDATE`,
			strings.TrimSpace(code))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrCouponNotFound
		}
		if err != nil {
			return err
		}
		if !c.IsActive || !validity(c.ValidFrom, c.ValidUntil, today) {
			return ErrCouponInvalid
		}
		var uses, clientUses int
		err = tx.QueryRowxContext(ctx, `SELECT count(*), count(*) FILTER (WHERE client_id = $2) FROM reservations
			WHERE coupon_id = $1 AND cancelled_at IS NULL`,
			c.ID, r.ClientID).Scan(&uses, &clientUses)
		if err != nil {
			return err
		}
		if (c.MaxUses != nil && uses >= *c.MaxUses) || (c.MaxUsesPerClient != nil && r.ClientID != nil && clientUses >= *c.MaxUsesPerClient) {
			return ErrCouponUsedUp
		}
		amounts, err := d.bookings.amounts(ctx, tx, []Reservation{r})
		if err != nil {
			return err
		}
		applied := Discount{Kind: c.Kind, Value: c.Value}.Amount(amounts[r.ID].Subtotal)
		if _, err := tx.ExecContext(ctx, `UPDATE reservations SET coupon_id = $2, updated_at = now() WHERE id = $1`, id, c.ID); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO applied_coupons (reservation_id, coupon_id, coupon_code, coupon_type, applied, client_id)
			VALUES ($1, $2, $3, $4, $5, $6)`, id, c.ID, c.Code, c.Kind, applied, r.ClientID)
		if err != nil {
			return err
		}
		if err := (historyStore{}).add(ctx, tx, id, d.bookings.change(by, ActionCoupon)); err != nil {
			return err
		}
		return d.bookings.Announce(ctx, tx, changes)
	})
	if err != nil {
		return BookingQuote{}, fmt.Errorf("apply coupon: %w", err)
	}
	return d.bookings.Price(ctx, by, id)
}

// RemoveCoupon removes the booking's coupon (its audit record is stamped
// removed) and returns the new price. Errors: ErrBookingNotFound,
// ErrBookingCancelled, ErrHeld, ErrNoCoupon.
func (d *Discounts) RemoveCoupon(ctx context.Context, by clubhouse.Actor, id int64) (BookingQuote, error) {
	if err := by.RequirePanel(); err != nil {
		return BookingQuote{}, err
	}
	err := sqldb.Transact(ctx, d.db, func(tx *sqlx.Tx) error {
		r, err := d.bookings.store.getLive(ctx, tx, id)
		if err != nil {
			return err
		}
		changes := Changes{}
		changes.changed(r)
		if r.CouponID == nil {
			return ErrNoCoupon
		}
		if _, err := tx.ExecContext(ctx, `UPDATE reservations SET coupon_id = NULL, updated_at = now() WHERE id = $1`, id); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE applied_coupons SET removed_at = now() WHERE reservation_id = $1 AND removed_at IS NULL`, id)
		if err != nil {
			return err
		}
		if err := (historyStore{}).add(ctx, tx, id, d.bookings.change(by, ActionCoupon)); err != nil {
			return err
		}
		return d.bookings.Announce(ctx, tx, changes)
	})
	if err != nil {
		return BookingQuote{}, fmt.Errorf("remove coupon: %w", err)
	}
	return d.bookings.Price(ctx, by, id)
}

// SetContract puts the booking with id under the contract (nil removes it)
// and returns the new price. The contract must be active, valid on the
// booking's date, and be the booking client's or for any client.
// Errors: ErrBookingNotFound, ErrBookingCancelled, ErrHeld, NotFound for
// the contract, ErrHasCoupon, ErrContractInvalid, ErrContractClient.
func (d *Discounts) SetContract(ctx context.Context, by clubhouse.Actor, id int64, contractID *int64) (BookingQuote, error) {
	if err := by.RequirePanel(); err != nil {
		return BookingQuote{}, err
	}
	err := sqldb.Transact(ctx, d.db, func(tx *sqlx.Tx) error {
		r, err := d.bookings.store.getLive(ctx, tx, id)
		if err != nil {
			return err
		}
		changes := Changes{}
		changes.changed(r)
		if contractID != nil {
			if r.CouponID != nil {
				return ErrHasCoupon
			}
			c, err := get[Contract](ctx, tx, contracts, *contractID)
			if err != nil {
				return err
			}
			if !c.IsActive || !validity(c.ValidFrom, c.ValidUntil, r.Checking) {
				return ErrContractInvalid
			}
			if c.ClientID != nil && (r.ClientID == nil || *r.ClientID != *c.ClientID) {
				return ErrContractClient
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE reservations SET contract_id = $2, updated_at = now() WHERE id = $1`, id, contractID)
		if err != nil {
			return err
		}
		if err := (historyStore{}).add(ctx, tx, id, d.bookings.change(by, ActionContract)); err != nil {
			return err
		}
		return d.bookings.Announce(ctx, tx, changes)
	})
	if err != nil {
		return BookingQuote{}, fmt.Errorf("set contract: %w", err)
	}
	return d.bookings.Price(ctx, by, id)
}

// AppliedCoupon is an entry of the coupon audit trail.
type AppliedCoupon struct {
	ID            int64           `db:"id"`
	ReservationID int64           `db:"reservation_id"`
	CouponID      int64           `db:"coupon_id"`
	CouponCode    string          `db:"coupon_code"`
	CouponType    string          `db:"coupon_type"`
	Applied       decimal.Decimal `db:"applied"`
	CreatedAt     time.Time       `db:"created_at"`
	RemovedAt     *time.Time      `db:"removed_at"`
}

// AppliedCoupons returns page number page (from 1) of the audit trail,
// latest first, and the total number of entries. Errors:
// clubhouse.ErrForbidden, ErrInvalidQuery for a page out of CouponPaging.
func (d *Discounts) AppliedCoupons(ctx context.Context, by clubhouse.Actor, page, limit int) ([]AppliedCoupon, int, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, 0, err
	}
	limit, offset, err := CouponPaging.Numbered(page, limit)
	if err != nil {
		return nil, 0, err
	}
	rows := []AppliedCoupon{}
	err = d.db.SelectContext(ctx, &rows, `SELECT id, reservation_id, coupon_id, coupon_code, coupon_type, applied, created_at, removed_at
		FROM applied_coupons ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("applied coupons: %w", err)
	}
	var total int
	if err := d.db.GetContext(ctx, &total, `SELECT count(*) FROM applied_coupons`); err != nil {
		return nil, 0, err
	}
	return rows, total, nil
}
