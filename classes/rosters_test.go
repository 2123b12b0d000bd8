package classes_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// day formats an optional date for comparison ("" for nil).
func day(d *time.Time) string {
	if d == nil {
		return ""
	}
	return d.Format(time.DateOnly)
}

func TestClasses_Roster(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	// The coach's camp class (two places), on 03-03, 03-05, 03-10 and
	// 03-12 at 10:00: Bob and Ana hold its places, Cara and Dan wait in
	// that order, Eve withdrew.
	camp := a.campClass(t, 10)
	bob := a.enroll(t, a.client(t, "Bob", "Ayala"), camp.ID)
	ana := a.enroll(t, a.client(t, "Ana", "Ayala"), camp.ID)
	cara := a.enroll(t, a.client(t, "Cara", "Zapata"), camp.ID)
	eve := a.enroll(t, a.client(t, "Eve", "Test"), camp.ID)
	dan := a.enroll(t, a.client(t, "Dan", "Baez"), camp.ID)
	_, err := a.Enrollments.Remove(ctx, a.desk, eve.ID)
	require.NoError(t, err)
	_, err = a.Enrollments.Accept(ctx, a.coach, ana.ID)
	require.NoError(t, err)
	for _, m := range []struct {
		id           int64
		date, status string
	}{{ana.ID, "2026-03-03", classes.AttendancePresent}, {bob.ID, "2026-03-05", classes.AttendanceAbsent}} {
		_, err := a.Enrollments.MarkAttendance(ctx, a.coach, m.id, date(m.date), m.status)
		require.NoError(t, err)
	}
	others := a.newClass(t, a.input(a.other.UserID, a.courtA, 10), nil)
	// A class on Mondays from 02-23 to 03-09, 14:00 to 16:00: its session
	// of 03-02 is in progress at the academy's first time, 15:00.
	mondays := a.newClass(t, a.input(a.coach.UserID, a.courtB, 14), func(in *classes.ClassInput) {
		in.StartDate, in.EndDate = clubhouse.Some(date("2026-02-23")), clubhouse.Some(date("2026-03-09"))
		in.Days, in.EndTime = clubhouse.Some([]int{1}), clubhouse.Some(pricing.TimeOfDay(16*60))
	})
	// A class whose sessions have all ended.
	ended := a.newClass(t, a.input(a.coach.UserID, a.courtB, 8), func(in *classes.ClassInput) {
		in.StartDate, in.EndDate = clubhouse.Some(date("2026-02-17")), clubhouse.Some(date("2026-02-26"))
	})

	for _, tc := range []struct {
		name                string
		by                  clubhouse.Actor
		id                  int64
		date                string
		want                error
		day, previous, next string
	}{
		{"its trainer, the session to come", a.coach, camp.ID, "", nil, "2026-03-03", "", "2026-03-05"},
		{"a session's date", a.coach, camp.ID, "2026-03-05", nil, "2026-03-05", "2026-03-03", "2026-03-10"},
		{"a date between sessions: the next", a.coach, camp.ID, "2026-03-06", nil, "2026-03-10", "2026-03-05", "2026-03-12"},
		{"a date after the last session: the last", a.coach, camp.ID, "2026-04-01", nil, "2026-03-12", "2026-03-10", ""},
		{"a date before the first: the first", a.coach, camp.ID, "2026-01-01", nil, "2026-03-03", "", "2026-03-05"},
		{"the session in progress", a.coach, mondays.ID, "", nil, "2026-03-02", "2026-02-23", "2026-03-09"},
		{"every session ended: the last", a.coach, ended.ID, "", nil, "2026-02-26", "2026-02-24", ""},
		{"staff, any class", a.desk, others.ID, "", nil, "2026-03-03", "", "2026-03-05"},
		{"another trainer's class", a.coach, others.ID, "", classes.ErrClassNotFound, "", "", ""},
		{"staff in the trainer area, another's class", a.head, camp.ID, "", classes.ErrClassNotFound, "", "", ""},
		{"a client", a.client(t, "Fay", "Test").by, camp.ID, "", clubhouse.ErrForbidden, "", "", ""},
		{"no such class", a.desk, 9999, "", classes.ErrClassNotFound, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var on time.Time
			if tc.date != "" {
				on = date(tc.date)
			}
			got, err := a.Classes.Roster(ctx, tc.by, tc.id, on)
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				return
			}
			assert.Equal(t, tc.id, got.Class.ID)
			assert.Equal(t, tc.day, got.Date.Format(time.DateOnly))
			assert.Equal(t, tc.previous, day(got.Previous))
			assert.Equal(t, tc.next, day(got.Next))
		})
	}

	// The roster of the camp's sessions: the students by name with their
	// marks at that session only, the pending one to decide, the
	// waitlist in line.
	type row struct {
		ID   int64
		Name string
		Mark string
	}
	rows := func(r classes.Roster) []row {
		out := []row{}
		for _, s := range r.Students {
			out = append(out, row{s.ID, s.Student.FirstName, s.Mark})
		}
		return out
	}
	first, err := a.Classes.Roster(ctx, a.coach, camp.ID, date("2026-03-03"))
	require.NoError(t, err)
	assert.Equal(t, []row{{ana.ID, "Ana", classes.AttendancePresent}, {bob.ID, "Bob", ""}}, rows(first))
	assert.Equal(t, []int64{bob.ID}, enrollmentIDs(first.Pending))
	assert.Equal(t, []int64{cara.ID, dan.ID}, enrollmentIDs(first.Waitlist))
	assert.Equal(t, 1, *first.Waitlist[0].WaitlistPosition)
	assert.Equal(t, 2, *first.Waitlist[1].WaitlistPosition)
	second, err := a.Classes.Roster(ctx, a.coach, camp.ID, date("2026-03-05"))
	require.NoError(t, err)
	assert.Equal(t, []row{{ana.ID, "Ana", ""}, {bob.ID, "Bob", classes.AttendanceAbsent}}, rows(second))
	none, err := a.Classes.Roster(ctx, a.other, others.ID, time.Time{})
	require.NoError(t, err)
	assert.Empty(t, none.Students)
	assert.Empty(t, none.Pending)
	assert.Empty(t, none.Waitlist)
}

func TestClasses_Overview(t *testing.T) {
	t.Parallel()
	a := newAcademy(t)
	ctx := t.Context()
	own := a.newClass(t, a.input(a.coach.UserID, a.courtA, 10), nil)
	begun := a.begun(t, a.coach.UserID, a.courtB, 12)
	cancelled := a.newClass(t, a.input(a.coach.UserID, a.courtB, 16), nil)
	_, err := a.Classes.Cancel(ctx, a.desk, cancelled.ID)
	require.NoError(t, err)
	others := a.newClass(t, a.input(a.other.UserID, a.courtB, 10), nil)

	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		want error
		next map[int64]string
	}{
		{"a trainer: their own, each with its next session", a.coach, nil,
			map[int64]string{own.ID: "2026-03-03", begun.ID: "2026-03-03", cancelled.ID: ""}},
		{"staff: every class", a.desk, nil,
			map[int64]string{own.ID: "2026-03-03", begun.ID: "2026-03-03", cancelled.ID: "", others.ID: "2026-03-03"}},
		{"a client", a.client(t, "Ana", "Ruiz").by, clubhouse.ErrForbidden, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Classes.Overview(ctx, tc.by, classes.ClassFilter{})
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				return
			}
			next := map[int64]string{}
			for _, c := range got {
				next[c.ID] = day(c.Next)
			}
			assert.Equal(t, tc.next, next)
		})
	}
	a.clock.Set(t, "2026-03-03 10:30")
	got, err := a.Classes.Overview(ctx, a.coach, classes.ClassFilter{})
	require.NoError(t, err)
	require.Equal(t, own.ID, got[1].ID)
	assert.Equal(t, "2026-03-03", day(got[1].Next), "a session in progress is the next until it ends")
	a.clock.Set(t, "2026-03-03 11:00")
	got, err = a.Classes.Overview(ctx, a.coach, classes.ClassFilter{})
	require.NoError(t, err)
	assert.Equal(t, "2026-03-05", day(got[1].Next))
}
