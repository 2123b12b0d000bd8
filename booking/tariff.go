package booking

import (
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// Tariff is a stored pricing rule (see package pricing for its meaning).
type Tariff struct {
	ID                int64      `db:"id"`
	CourtID           *int64     `db:"court_id"`
	ReservationTypeID *int64     `db:"reservation_type_id"`
	RRule             *string    `db:"rrule"`
	StartDate         *time.Time `db:"start_date"`
	EndDate           *time.Time `db:"end_date"`
	StartTime         *string    `db:"start_time"` // HH:MM:SS
	EndTime           *string    `db:"end_time"`
	Adjustment        string     `db:"adjustment"`
	Description       *string    `db:"description"`
	IsActive          bool       `db:"is_active"`
	CreatedAt         time.Time  `db:"created_at"`
	UpdatedAt         time.Time  `db:"updated_at"`
	// LeftOut says why prices leave the tariff out (a rule stored before it
	// was refused on save, say); "" when it applies.
	LeftOut string `db:"-"`
}

// TariffInput is the data of a tariff to create or change; on create,
// Adjustment and IsActive are required. Only the date fields of the dates
// are read; the times of day lie on the 30-minute grid.
type TariffInput struct {
	CourtID           clubhouse.Optional[int64]
	ReservationTypeID clubhouse.Optional[int64]
	RRule             clubhouse.Optional[string]
	StartDate         clubhouse.Optional[time.Time]
	EndDate           clubhouse.Optional[time.Time]
	StartTime         clubhouse.Optional[pricing.TimeOfDay]
	EndTime           clubhouse.Optional[pricing.TimeOfDay]
	Adjustment        clubhouse.Optional[string]
	Description       clubhouse.Optional[string]
	IsActive          clubhouse.Optional[bool]
}

// apply writes the fields set in in onto t, validating each, and then checks
// the whole tariff as the engine will read it. Errors: Invalid naming the field.
func (in TariffInput) apply(t *Tariff) error {
	if err := wiretext.CheckSet("description", in.Description, MaxDescription); err != nil {
		return err
	}
	var missing []string
	ref := func(name string, f clubhouse.Optional[int64], dst **int64) error {
		if !f.Set {
			return nil
		}
		if f.Value != nil && *f.Value <= 0 {
			return clubhouse.ErrInvalidReference.Withf("%s %d does not exist.", name, *f.Value)
		}
		*dst = f.Value
		return nil
	}
	if err := ref("court_id", in.CourtID, &t.CourtID); err != nil {
		return err
	}
	if err := ref("reservation_type_id", in.ReservationTypeID, &t.ReservationTypeID); err != nil {
		return err
	}
	text := func(f clubhouse.Optional[string], dst **string) {
		if f.Set {
			*dst = nil
			if f.Value != nil && strings.TrimSpace(*f.Value) != "" {
				v := strings.TrimSpace(*f.Value)
				*dst = &v
			}
		}
	}
	text(in.RRule, &t.RRule)
	text(in.Description, &t.Description)
	for _, tm := range []struct {
		f   clubhouse.Optional[pricing.TimeOfDay]
		dst **string
	}{{in.StartTime, &t.StartTime}, {in.EndTime, &t.EndTime}} {
		if tm.f.Set {
			*tm.dst = nil
			if tm.f.Value != nil {
				s := tm.f.Value.String()
				*tm.dst = &s
			}
		}
	}
	for _, d := range []struct {
		name string
		f    clubhouse.Optional[time.Time]
		dst  **time.Time
	}{{"start_date", in.StartDate, &t.StartDate}, {"end_date", in.EndDate, &t.EndDate}} {
		if !d.f.Set {
			continue
		}
		*d.dst = nil
		if d.f.Value != nil {
			v, err := calendarDate(d.name, *d.f.Value)
			if err != nil {
				return err
			}
			*d.dst = &v
		}
	}
	switch {
	case in.Adjustment.Set && in.Adjustment.Value != nil:
		t.Adjustment = strings.TrimSpace(*in.Adjustment.Value)
	case in.Adjustment.Set || t.Adjustment == "":
		missing = append(missing, "adjustment")
	}
	switch {
	case in.IsActive.Set && in.IsActive.Value != nil:
		t.IsActive = *in.IsActive.Value
	case in.IsActive.Set || t.ID == 0 && !in.IsActive.Set:
		missing = append(missing, "is_active")
	}
	if len(missing) > 0 {
		return clubhouse.ErrIncomplete.Withf("Missing required fields: %s.", strings.Join(missing, ", "))
	}
	pt, err := t.engine()
	if err != nil {
		return err
	}
	if err := pt.Validate(); err != nil {
		return err
	}
	// Store the canonical forms.
	t.Adjustment = pt.Adjustment.String()
	if pt.StartTime != nil {
		s := pt.StartTime.String()
		t.StartTime = &s
	}
	if pt.EndTime != nil {
		s := pt.EndTime.String()
		t.EndTime = &s
	}
	return nil
}

// engine converts t to the form of the pricing engine. Errors: Invalid
// naming the field (adjustment, start_time, end_time).
func (t Tariff) engine() (pricing.Tariff, error) {
	adj, err := pricing.ParseAdjustment(t.Adjustment)
	if err != nil {
		return pricing.Tariff{}, err
	}
	pt := pricing.Tariff{ID: t.ID, CourtID: t.CourtID, ReservationTypeID: t.ReservationTypeID, StartDate: t.StartDate,
		EndDate: t.EndDate, Adjustment: adj, Active: t.IsActive}
	if t.RRule != nil {
		pt.RRule = *t.RRule
	}
	if t.Description != nil {
		pt.Description = *t.Description
	}
	for _, tm := range []struct {
		name string
		s    *string
		dst  **pricing.TimeOfDay
	}{{"start_time", t.StartTime, &pt.StartTime}, {"end_time", t.EndTime, &pt.EndTime}} {
		if tm.s == nil {
			continue
		}
		v, err := pricing.ParseTimeOfDay(tm.name, *tm.s)
		if err != nil {
			return pricing.Tariff{}, err
		}
		*tm.dst = &v
	}
	return pt, nil
}
