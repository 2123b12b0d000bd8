package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

// Coupons and contracts, their admin routes, and applying them to bookings.

type couponDTO struct {
	ID               int64      `json:"id" validate:"required"`
	Code             string     `json:"code" validate:"required" example:"SUMMER10"`
	Kind             string     `json:"kind" validate:"required" enums:"percent,fixed"`
	Value            wire.Money `json:"value" validate:"required" swaggertype:"number" example:"10"`
	Description      *string    `json:"description" validate:"required" extensions:"x-nullable"`
	ValidFrom        *string    `json:"valid_from" validate:"required" extensions:"x-nullable" example:"2026-06-01"`
	ValidUntil       *string    `json:"valid_until" validate:"required" extensions:"x-nullable" example:"2026-08-31"`
	MaxUses          *int       `json:"max_uses" validate:"required" extensions:"x-nullable" example:"100"`
	MaxUsesPerClient *int       `json:"max_uses_per_client" validate:"required" extensions:"x-nullable" example:"1"`
	IsActive         bool       `json:"is_active" validate:"required"`
	Uses             int        `json:"uses" validate:"required"`
	CreatedAt        time.Time  `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt        time.Time  `json:"updated_at" validate:"required" format:"date-time"`
}

func dateString(d *time.Time) *string {
	if d == nil {
		return nil
	}
	s := d.Format(time.DateOnly)
	return &s
}

func newCouponDTO(c booking.Coupon) couponDTO {
	return couponDTO{ID: c.ID, Code: c.Code, Kind: c.Kind, Value: wire.Money(c.Value), Description: c.Description,
		ValidFrom: dateString(c.ValidFrom), ValidUntil: dateString(c.ValidUntil), MaxUses: c.MaxUses,
		MaxUsesPerClient: c.MaxUsesPerClient, IsActive: c.IsActive, Uses: c.Uses, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

type contractDTO struct {
	ID          int64      `json:"id" validate:"required"`
	Name        string     `json:"name" validate:"required" example:"Gómez family membership"`
	ClientID    *int64     `json:"client_id" validate:"required" extensions:"x-nullable"`
	Kind        string     `json:"kind" validate:"required" enums:"percent,fixed"`
	Value       wire.Money `json:"value" validate:"required" swaggertype:"number" example:"15"`
	Description *string    `json:"description" validate:"required" extensions:"x-nullable"`
	ValidFrom   *string    `json:"valid_from" validate:"required" extensions:"x-nullable"`
	ValidUntil  *string    `json:"valid_until" validate:"required" extensions:"x-nullable"`
	IsActive    bool       `json:"is_active" validate:"required"`
	CreatedAt   time.Time  `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt   time.Time  `json:"updated_at" validate:"required" format:"date-time"`
}

func newContractDTO(c booking.Contract) contractDTO {
	return contractDTO{ID: c.ID, Name: c.Name, ClientID: c.ClientID, Kind: c.Kind, Value: wire.Money(c.Value),
		Description: c.Description, ValidFrom: dateString(c.ValidFrom), ValidUntil: dateString(c.ValidUntil),
		IsActive: c.IsActive, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

// couponInput creates a coupon; couponPatch changes one.
//
//patchgen:patch couponPatch
type couponInput struct {
	Code             clubhouse.Optional[string]     `json:"code" validate:"required" swaggertype:"string" example:"SUMMER10" maxLength:"255"`
	Kind             clubhouse.Optional[string]     `json:"kind" validate:"required" swaggertype:"string" enums:"percent,fixed" maxLength:"255"`
	Value            clubhouse.Optional[wire.Money] `json:"value" validate:"required" swaggertype:"number" example:"10"`
	Description      clubhouse.Optional[string]     `json:"description" swaggertype:"string" extensions:"x-nullable" maxLength:"2000" limit:"booking.MaxDescription"`
	ValidFrom        clubhouse.Optional[string]     `json:"valid_from" swaggertype:"string" extensions:"x-nullable" example:"2026-06-01" maxLength:"255"`
	ValidUntil       clubhouse.Optional[string]     `json:"valid_until" swaggertype:"string" extensions:"x-nullable" example:"2026-08-31" maxLength:"255"`
	MaxUses          clubhouse.Optional[int]        `json:"max_uses" swaggertype:"integer" extensions:"x-nullable" minimum:"1" maximum:"2147483647"`
	MaxUsesPerClient clubhouse.Optional[int]        `json:"max_uses_per_client" swaggertype:"integer" extensions:"x-nullable" minimum:"1" maximum:"2147483647"`
	IsActive         clubhouse.Optional[bool]       `json:"is_active" swaggertype:"boolean"`
}

func (in couponInput) domain() (booking.DiscountInput, error) { return couponPatch(in).domain() }
func (in couponPatch) domain() (booking.DiscountInput, error) {
	from, until, err := validity(in.ValidFrom, in.ValidUntil)
	return booking.DiscountInput{Code: in.Code, Kind: in.Kind, Value: wire.OptionalMoney(in.Value), Description: in.Description,
		ValidFrom: from, ValidUntil: until, MaxUses: in.MaxUses, MaxUsesPerClient: in.MaxUsesPerClient, IsActive: in.IsActive}, err
}

// validity reads the valid_from and valid_until dates of a discount.
func validity(from, until clubhouse.Optional[string]) (f, u clubhouse.Optional[time.Time], err error) {
	if f, err = wire.Date("valid_from", from); err != nil {
		return f, u, err
	}
	u, err = wire.Date("valid_until", until)
	return f, u, err
}

// contractInput creates a contract; contractPatch changes one.
//
//patchgen:patch contractPatch
type contractInput struct {
	Name        clubhouse.Optional[string]     `json:"name" validate:"required" swaggertype:"string" example:"Gómez family membership" maxLength:"255"`
	Kind        clubhouse.Optional[string]     `json:"kind" validate:"required" swaggertype:"string" enums:"percent,fixed" maxLength:"255"`
	Value       clubhouse.Optional[wire.Money] `json:"value" validate:"required" swaggertype:"number" example:"15"`
	ClientID    clubhouse.Optional[int64]      `json:"client_id" swaggertype:"integer" extensions:"x-nullable"`
	Description clubhouse.Optional[string]     `json:"description" swaggertype:"string" extensions:"x-nullable" maxLength:"2000" limit:"booking.MaxDescription"`
	ValidFrom   clubhouse.Optional[string]     `json:"valid_from" swaggertype:"string" extensions:"x-nullable" maxLength:"255"`
	ValidUntil  clubhouse.Optional[string]     `json:"valid_until" swaggertype:"string" extensions:"x-nullable" maxLength:"255"`
	IsActive    clubhouse.Optional[bool]       `json:"is_active" swaggertype:"boolean"`
}

func (in contractInput) domain() (booking.DiscountInput, error) { return contractPatch(in).domain() }
func (in contractPatch) domain() (booking.DiscountInput, error) {
	from, until, err := validity(in.ValidFrom, in.ValidUntil)
	return booking.DiscountInput{Name: in.Name, Kind: in.Kind, Value: wire.OptionalMoney(in.Value), ClientID: in.ClientID,
		Description: in.Description, ValidFrom: from, ValidUntil: until, IsActive: in.IsActive}, err
}

// listCoupons lists coupons.
//
// @Summary List coupons
// @Tags coupons
// @Produce json
// @Param search query string false "Case-insensitive match on code or description" maxlength(255)
// @Success 200 {array} couponDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/coupons [get]
func (s *Server) listCoupons(w http.ResponseWriter, r *http.Request) error {
	return listCatalog(w, r, s.club(r).Discounts.Coupons, newCouponDTO)
}

// createCoupon creates a coupon.
//
// @Summary Create a coupon
// @Description A coupon takes a percentage (at most 100) or a fixed amount off one booking's price, never below zero. It applies while active and, when set, between valid_from and valid_until (the club's date when applied); max_uses bounds the bookings that carry it at once, max_uses_per_client those of one client. Codes are 3 to 40 letters, digits, - or _, unique regardless of case.
// @Tags coupons
// @Accept json
// @Produce json
// @Param body body couponInput true "The coupon"
// @Success 201 {object} couponDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/coupons [post]
func (s *Server) createCoupon(w http.ResponseWriter, r *http.Request) error {
	var in couponInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	req, err := in.domain()
	if err != nil {
		return err
	}
	c, err := s.club(r).Discounts.CreateCoupon(r.Context(), actor(r), req)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newCouponDTO(c))
}

// getCoupon reads a coupon.
//
// @Summary Read a coupon
// @Tags coupons
// @Produce json
// @Param id path int true "coupon id"
// @Success 200 {object} couponDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/coupons/{id} [get]
func (s *Server) getCoupon(w http.ResponseWriter, r *http.Request) error {
	return getCatalog(w, r, s.club(r).Discounts.Coupons, newCouponDTO)
}

// updateCoupon changes a coupon.
//
// @Summary Update a coupon
// @Description Changes only the fields sent; null clears an optional field. Bookings that carry the coupon are priced with its new terms.
// @Tags coupons
// @Accept json
// @Produce json
// @Param id path int true "coupon id"
// @Param body body couponPatch true "Fields to change"
// @Success 200 {object} couponDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/coupons/{id} [patch]
func (s *Server) updateCoupon(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in couponPatch
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	req, err := in.domain()
	if err != nil {
		return err
	}
	c, err := s.club(r).Discounts.UpdateCoupon(r.Context(), actor(r), id, req)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newCouponDTO(c))
}

// deleteCoupon deletes a coupon that was never applied.
//
// @Summary Delete a coupon
// @Description A coupon that was ever applied is kept for the audit trail: 409; deactivate it instead (is_active false).
// @Tags coupons
// @Param id path int true "coupon id"
// @Success 204
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/coupons/{id} [delete]
func (s *Server) deleteCoupon(w http.ResponseWriter, r *http.Request) error {
	return deleteCatalog(w, r, s.club(r).Discounts.Coupons)
}

// listContracts lists contracts.
//
// @Summary List contracts
// @Tags contracts
// @Produce json
// @Param search query string false "Case-insensitive match on name or description" maxlength(255)
// @Success 200 {array} contractDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/contracts [get]
func (s *Server) listContracts(w http.ResponseWriter, r *http.Request) error {
	return listCatalog(w, r, s.club(r).Discounts.Contracts, newContractDTO)
}

// createContract creates a contract.
//
// @Summary Create a contract
// @Description A contract (convenio) is a standing discount, a percentage (at most 100) or a fixed amount per booking, for one client (client_id) or, without client, for any booking an operator puts under it (a member group). It applies to bookings whose date lies in valid_from..valid_until while it is active. A booking carries a contract or a coupon, never both.
// @Tags contracts
// @Accept json
// @Produce json
// @Param body body contractInput true "The contract"
// @Success 201 {object} contractDTO
// @Failure 400,401,403,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/contracts [post]
func (s *Server) createContract(w http.ResponseWriter, r *http.Request) error {
	var in contractInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	req, err := in.domain()
	if err != nil {
		return err
	}
	c, err := s.club(r).Discounts.CreateContract(r.Context(), actor(r), req)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newContractDTO(c))
}

// getContract reads a contract.
//
// @Summary Read a contract
// @Tags contracts
// @Produce json
// @Param id path int true "contract id"
// @Success 200 {object} contractDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/contracts/{id} [get]
func (s *Server) getContract(w http.ResponseWriter, r *http.Request) error {
	return getCatalog(w, r, s.club(r).Discounts.Contracts, newContractDTO)
}

// updateContract changes a contract.
//
// @Summary Update a contract
// @Description Changes only the fields sent; null clears an optional field.
// @Tags contracts
// @Accept json
// @Produce json
// @Param id path int true "contract id"
// @Param body body contractPatch true "Fields to change"
// @Success 200 {object} contractDTO
// @Failure 400,401,403,404,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/contracts/{id} [patch]
func (s *Server) updateContract(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in contractPatch
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	req, err := in.domain()
	if err != nil {
		return err
	}
	c, err := s.club(r).Discounts.UpdateContract(r.Context(), actor(r), id, req)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newContractDTO(c))
}

// deleteContract deletes a contract no booking is under.
//
// @Summary Delete a contract
// @Description 409 names the bookings still under it.
// @Tags contracts
// @Param id path int true "contract id"
// @Success 204
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/contracts/{id} [delete]
func (s *Server) deleteContract(w http.ResponseWriter, r *http.Request) error {
	return deleteCatalog(w, r, s.club(r).Discounts.Contracts)
}

type appliedCouponDTO struct {
	ID            int64      `json:"id" validate:"required"`
	ReservationID int64      `json:"reservation_id" validate:"required"`
	CouponID      int64      `json:"coupon_id" validate:"required"`
	CouponCode    string     `json:"coupon_code" validate:"required"`
	CouponType    string     `json:"coupon_type" validate:"required" enums:"percent,fixed"`
	Applied       wire.Money `json:"applied" validate:"required" swaggertype:"number" example:"9000"`
	CreatedAt     time.Time  `json:"created_at" validate:"required" format:"date-time"`
	RemovedAt     *time.Time `json:"removed_at" validate:"required" extensions:"x-nullable" format:"date-time"`
}

// listAppliedCoupons lists the coupon audit trail.
//
// @Summary Applied coupons (audit)
// @Description Every application of a coupon to a booking, latest first, with the discount it gave then; removed_at is set once removed. Headers: X-Total-Count (all entries), X-Page (page index, base 0), X-Per-Page.
// @Tags coupons
// @Produce json
// @Param page query int false "Page, base 1" default(1)
// @Param limit query int false "Page size, 1 to 200; 0 gives the default page, 50" default(50)
// @Success 200 {array} appliedCouponDTO
// @Header 200 {integer} X-Total-Count "Entries in all pages"
// @Header 200 {integer} X-Page "Page index, base 0"
// @Header 200 {integer} X-Per-Page "Page size"
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/coupons [get]
func (s *Server) listAppliedCoupons(w http.ResponseWriter, r *http.Request) error {
	page, limit, err := queryNumbered(r)
	if err != nil {
		return err
	}
	rows, total, err := s.club(r).Discounts.AppliedCoupons(r.Context(), actor(r), page, limit)
	if err != nil {
		return err
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(total))
	w.Header().Set("X-Page", strconv.Itoa(page-1))
	w.Header().Set("X-Per-Page", strconv.Itoa(booking.CouponPaging.Size(limit)))
	return writeJSON(w, http.StatusOK, mapSlice(rows, func(a booking.AppliedCoupon) appliedCouponDTO {
		return appliedCouponDTO{ID: a.ID, ReservationID: a.ReservationID, CouponID: a.CouponID, CouponCode: a.CouponCode,
			CouponType: a.CouponType, Applied: wire.Money(a.Applied), CreatedAt: a.CreatedAt, RemovedAt: a.RemovedAt}
	}))
}

type applyCouponInput struct {
	Code string `json:"code" validate:"required" example:"SUMMER10" maxLength:"255"`
}

// applyCoupon applies a coupon to a booking.
//
// @Summary Apply a coupon
// @Description Answers the booking's new price. 404 for an unknown booking or code; 409 when the coupon is inactive, outside its dates or used up, or the booking already carries a coupon or a contract, was cancelled, or is held by a class session or an event. Emits booking:changed.
// @Tags bookings
// @Accept json
// @Produce json
// @Param id path int true "booking id"
// @Param body body applyCouponInput true "Coupon code"
// @Success 200 {object} adminPriceDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{id}/coupon [post]
func (s *Server) applyCoupon(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in applyCouponInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	q, err := s.club(r).Discounts.ApplyCoupon(r.Context(), actor(r), id, in.Code)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newAdminPriceDTO(q))
}

// removeCoupon removes a booking's coupon.
//
// @Summary Remove the coupon
// @Description Answers the booking's new price; 409 for a cancelled booking, or one held by a class session or an event. Emits booking:changed.
// @Tags bookings
// @Produce json
// @Param id path int true "booking id"
// @Success 200 {object} adminPriceDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{id}/coupon [delete]
func (s *Server) removeCoupon(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	q, err := s.club(r).Discounts.RemoveCoupon(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newAdminPriceDTO(q))
}

// contractAssignInput names the contract to assign; contract_id must be
// sent, as null to remove the contract.
type contractAssignInput struct {
	ContractID clubhouse.Optional[int64] `json:"contract_id" swaggertype:"integer" extensions:"x-nullable" example:"3"`
}

// setContract assigns or removes a booking's contract.
//
// @Summary Assign or remove the contract
// @Description contract_id assigns that contract, null removes it. The contract must be active, valid on the booking's date, and the booking client's (or for any client); a booking with a coupon, a cancelled one, or one held by a class session or an event, cannot take a contract (409). Answers the new price. Emits booking:changed.
// @Tags bookings
// @Accept json
// @Produce json
// @Param id path int true "booking id"
// @Param body body contractAssignInput true "Contract, or null"
// @Success 200 {object} adminPriceDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{id}/contract [patch]
func (s *Server) setContract(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in contractAssignInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	if !in.ContractID.Set {
		return clubhouse.ErrIncomplete.Withf("Missing required fields: contract_id (null removes the contract).")
	}
	q, err := s.club(r).Discounts.SetContract(r.Context(), actor(r), id, in.ContractID.Value)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newAdminPriceDTO(q))
}
