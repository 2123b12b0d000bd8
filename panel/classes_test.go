package panel_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// school is a club with a class for the panel's trainer pages: trainer
// coach@test.club's "Pádel inicial" on court "Cancha 1", every day for a
// week from tomorrow, 18:00 to 19:30, two places; Ana and Bruno hold them
// (both pending) and Carla waits. Trainer other@test.club has a class of
// their own, "Tenis avanzado".
type school struct {
	app                *apptest.App
	class, othersClass int64
	ana, bruno, carla  int64 // their enrollments
	start              time.Time
	bogota             *time.Location
}

func newSchool(t *testing.T) school {
	t.Helper()
	app := apptest.New(t)
	admin := app.AsAdmin()
	bogota, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	now := time.Now().In(bogota)
	s := school{app: app, bogota: bogota, start: time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC)}
	padel := admin.Post("/api/admin/court-types", map[string]any{"name": "Padel"}).Status(t, http.StatusCreated).ID(t)
	court := admin.Post("/api/admin/courts", map[string]any{"name": "Cancha 1", "court_type_id": padel, "price": 60000}).Status(t, http.StatusCreated).ID(t)
	court2 := admin.Post("/api/admin/courts", map[string]any{"name": "Cancha 2", "court_type_id": padel, "price": 60000}).Status(t, http.StatusCreated).ID(t)
	clinic := admin.Post("/api/admin/reservation-types", map[string]any{"name": "Clinic", "gestion": 2}).Status(t, http.StatusCreated).ID(t)
	admin.Post("/api/admin/tariff-classes", map[string]any{"court_type_id": padel, "reservation_type_id": clinic,
		"single_price": 25000, "total_price": 100000, "max_capacity": 2}).Status(t, http.StatusCreated)
	newClass := func(title string, trainer, court int64) int64 {
		return admin.Post("/api/admin/classes", map[string]any{"title": title, "court_id": court, "reservation_type_id": clinic,
			"user_id": trainer, "start_date": s.day(0), "end_date": s.day(6), "recurrence_days": []int{1, 2, 3, 4, 5, 6, 7},
			"start_time": "18:00", "end_time": "19:30"}).Status(t, http.StatusCreated).ID(t)
	}
	s.class = newClass("Pádel inicial", app.User("coach@test.club", clubhouse.RoleTrainer).ID, court)
	s.othersClass = newClass("Tenis avanzado", app.User("other@test.club", clubhouse.RoleTrainer).ID, court2)
	doc := admin.Post("/api/admin/document-types", map[string]any{"name": "CC"}).Status(t, http.StatusCreated).ID(t)
	for i, st := range []struct {
		dst         *int64
		first, last string
	}{{&s.bruno, "Bruno", "Zea"}, {&s.ana, "Ana", "Abad"}, {&s.carla, "Carla", "Mejía"}} {
		email := strings.ToLower(st.first) + "@test.club"
		as := app.As(app.User(email))
		as.Post("/api/account/client", map[string]any{"email": email, "first_name": st.first, "last_name": st.last,
			"document": fmt.Sprint(1000 + i), "document_type_id": doc}).Status(t, http.StatusCreated)
		*st.dst = as.Post(fmt.Sprintf("/api/account/classes/%d/enroll", s.class), map[string]any{"payments": []any{}}).
			Status(t, http.StatusCreated).ID(t)
	}
	return s
}

// day is the date d days after the class's first, as a form sends it.
func (s school) day(d int) string { return s.start.AddDate(0, 0, d).Format(time.DateOnly) }

// words is the date d days after the class's first as the Spanish pages
// write it.
func (s school) words(t *testing.T, d int) string {
	t.Helper()
	cat, err := web.LoadCatalog()
	require.NoError(t, err)
	day := s.start.AddDate(0, 0, d)
	return cat.Printer(language.MustParse("es-CO"), s.bogota).Date(time.Date(day.Year(), day.Month(), day.Day(), 12, 0, 0, 0, s.bogota))
}

// marks returns the marks stored for the session d days after the
// class's first, by enrollment id.
func (s school) marks(t *testing.T, d int) map[int64]string {
	t.Helper()
	day, err := time.Parse(time.DateOnly, s.day(d))
	require.NoError(t, err)
	r, err := s.app.Classes.Classes.Roster(t.Context(), clubhouse.Staff("test"), s.class, day)
	require.NoError(t, err)
	out := map[int64]string{}
	for _, st := range r.Students {
		if st.Mark != "" {
			out[st.ID] = st.Mark
		}
	}
	return out
}

// entry returns the roster entry of the enrollment with id in a class
// page: its <li> up to the next.
func entry(t *testing.T, body string, id int64) string {
	t.Helper()
	_, rest, ok := strings.Cut(body, fmt.Sprintf(`<li id="enrollment-%d">`, id))
	require.True(t, ok, "enrollment %d on the roster", id)
	li, _, _ := strings.Cut(rest, "</li>")
	return li
}

// TestClasses_trainerTakesTheClass: a trainer's list shows their classes
// only, with court, schedule, places and next session; the class's page
// shows the session to come, and the trainer marks two students in one
// tap each, changes a mark, moves between sessions, accepts one
// enrollment and rejects another, whose place goes to the first waiting.
func TestClasses_trainerTakesTheClass(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	d := newDesk(t, s.app)
	require.Equal(t, http.StatusSeeOther, d.signIn("coach@test.club").Status)
	home := d.get("/panel/")
	require.Equal(t, http.StatusSeeOther, home.Status)
	assert.Equal(t, "/panel/classes", home.Location(), "a trainer's first page is their classes")

	list := d.get("/panel/classes")
	require.Equal(t, http.StatusOK, list.Status)
	assert.Contains(t, list.Body, `<a href="/panel/classes" aria-current="page">Mis clases</a>`)
	assert.Contains(t, list.Body, fmt.Sprintf(`<a href="/panel/classes/%d">Pádel inicial</a>`, s.class))
	assert.Contains(t, list.Body, "Cancha 1")
	assert.Contains(t, list.Body, "lunes, martes, miércoles, jueves, viernes, sábado y domingo, de 18:00 a 19:30")
	assert.Contains(t, list.Body, "2 de 2 ocupados")
	assert.Contains(t, list.Body, s.words(t, 0), "the next session")
	assert.NotContains(t, list.Body, "Tenis avanzado", "another trainer's class")
	assert.NotContains(t, list.Body, `href="/panel/dashboard"`, "the desk's pages are not a trainer's")

	classPath := fmt.Sprintf("/panel/classes/%d", s.class)
	pg := d.get(classPath)
	require.Equal(t, http.StatusOK, pg.Status)
	assert.Contains(t, pg.Body, "<h1>Pádel inicial</h1>")
	assert.Contains(t, pg.Body, "Sesión del "+s.words(t, 0), "the session to come")
	assert.Contains(t, pg.Body, fmt.Sprintf(`href="%s?date=%s">Siguiente: %s →`, classPath, s.day(1), s.words(t, 1)))
	assert.NotContains(t, pg.Body, `rel="prev"`, "the first session has none before")
	assert.Contains(t, pg.Body, "Asistencia (2 estudiantes)")
	assert.Less(t, strings.Index(pg.Body, "Ana Abad"), strings.Index(pg.Body, "Bruno Zea"), "the roster by name")
	for _, id := range []int64{s.ana, s.bruno} {
		li := entry(t, pg.Body, id)
		assert.Contains(t, li, "Sin marcar")
		assert.Contains(t, li, `name="present" value="1"`)
		assert.Contains(t, li, `name="present" value="0"`)
		assert.Contains(t, li, fmt.Sprintf(`name="date" value="%s"`, s.day(0)))
	}
	assert.Contains(t, pg.Body, fmt.Sprintf(`<li id="waiting-%d" value="1">Carla Mejía</li>`, s.carla), "the waitlist with positions")
	assert.Contains(t, pg.Body, fmt.Sprintf(`<li id="pending-%d">`, s.ana), "both to decide")
	assert.Contains(t, pg.Body, fmt.Sprintf(`<li id="pending-%d">`, s.bruno))

	// One tap each: Ana present, Bruno absent; Ana's mark changes.
	attendance := classPath + "/attendance"
	for _, m := range []struct {
		id      int64
		present string
		want    string
	}{{s.ana, "1", "Presente"}, {s.bruno, "0", "Ausente"}, {s.ana, "0", "Ausente"}, {s.ana, "1", "Presente"}} {
		res := d.post(attendance, url.Values{"enrollment": {fmt.Sprint(m.id)}, "date": {s.day(0)}, "present": {m.present}})
		require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
		assert.Equal(t, fmt.Sprintf("%s?date=%s#enrollment-%d", classPath, s.day(0), m.id), res.Location())
		pg = d.get(res.Location())
		require.Equal(t, http.StatusOK, pg.Status)
		assert.Contains(t, entry(t, pg.Body, m.id), m.want)
	}
	assert.Equal(t, map[int64]string{s.ana: classes.AttendancePresent, s.bruno: classes.AttendanceAbsent}, s.marks(t, 0))
	assert.Empty(t, s.marks(t, 1), "a mark is the session's")

	next := d.get(fmt.Sprintf("%s?date=%s", classPath, s.day(1)))
	require.Equal(t, http.StatusOK, next.Status)
	assert.Contains(t, next.Body, "Sesión del "+s.words(t, 1))
	assert.Contains(t, next.Body, fmt.Sprintf(`href="%s?date=%s">← Anterior: %s`, classPath, s.day(0), s.words(t, 0)))
	assert.Contains(t, entry(t, next.Body, s.ana), "Sin marcar")

	// Accept Ana, reject Bruno: Carla takes his place.
	res := d.post(classPath+"/accept", url.Values{"enrollment": {fmt.Sprint(s.ana)}, "date": {s.day(1)}})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	assert.Equal(t, fmt.Sprintf("%s?date=%s#enrollment-%d", classPath, s.day(1), s.ana), res.Location())
	res = d.post(classPath+"/reject", url.Values{"enrollment": {fmt.Sprint(s.bruno)}, "date": {s.day(1)}})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	assert.Equal(t, fmt.Sprintf("%s?date=%s#pending", classPath, s.day(1)), res.Location())
	pg = d.get(res.Location())
	require.Equal(t, http.StatusOK, pg.Status)
	assert.NotContains(t, pg.Body, fmt.Sprintf(`id="pending-%d"`, s.ana), "accepted")
	assert.NotContains(t, pg.Body, "Bruno Zea", "rejected")
	assert.Contains(t, pg.Body, fmt.Sprintf(`<li id="pending-%d">`, s.carla), "Carla took the place and waits for a decision")
	assert.Contains(t, entry(t, pg.Body, s.carla), "inscripción por aceptar")
	assert.Contains(t, pg.Body, "Nadie está en lista de espera.")
	e, err := s.app.Classes.Enrollments.Get(t.Context(), clubhouse.Staff("test"), s.ana)
	require.NoError(t, err)
	assert.Equal(t, classes.EnrollmentAccepted, e.Status)

	// Accepting Ana again is refused with the page and its words.
	res = d.post(classPath+"/accept", url.Values{"enrollment": {fmt.Sprint(s.ana)}, "date": {s.day(1)}})
	assert.Equal(t, http.StatusConflict, res.Status)
	assert.Contains(t, res.Body, "Esa inscripción ya no está en ese estado")
	assert.Contains(t, res.Body, "Sesión del "+s.words(t, 1))
}

// TestClasses_refusals: another trainer's class is not found and their
// marks are not stored, a form without the CSRF token or with a bad
// field stores nothing, a malformed date brings the page back with the
// field's message, and the pages are the trainers' only.
func TestClasses_refusals(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	classPath := fmt.Sprintf("/panel/classes/%d", s.class)
	attendance := classPath + "/attendance"
	mark := url.Values{"enrollment": {fmt.Sprint(s.ana)}, "date": {s.day(0)}, "present": {"1"}}

	other := newDesk(t, s.app)
	require.Equal(t, http.StatusSeeOther, other.signIn("other@test.club").Status)
	own := other.get("/panel/classes")
	require.Equal(t, http.StatusOK, own.Status)
	assert.Contains(t, own.Body, "Tenis avanzado")
	assert.NotContains(t, own.Body, "Pádel inicial")
	res := other.get(classPath)
	assert.Equal(t, http.StatusNotFound, res.Status, "another trainer's class")
	assert.NotContains(t, res.Body, "Ana Abad")
	res = other.post(attendance, mark)
	assert.Equal(t, http.StatusNotFound, res.Status, "another trainer's student")
	res = other.post(fmt.Sprintf("/panel/classes/%d/attendance", s.othersClass), mark)
	assert.Equal(t, http.StatusNotFound, res.Status, "through their own class's path")
	res = other.post(classPath+"/accept", url.Values{"enrollment": {fmt.Sprint(s.ana)}})
	assert.Equal(t, http.StatusNotFound, res.Status)
	assert.Empty(t, s.marks(t, 0), "nothing stored")

	d := newDesk(t, s.app)
	require.Equal(t, http.StatusSeeOther, d.signIn("coach@test.club").Status)
	require.Equal(t, http.StatusOK, d.get(classPath).Status)
	noToken := url.Values{"csrf_token": {""}}
	for k, v := range mark {
		noToken[k] = v
	}
	res = d.post(attendance, noToken)
	assert.Equal(t, http.StatusForbidden, res.Status)
	assert.Contains(t, res.Body, "Formulario vencido")
	assert.Empty(t, s.marks(t, 0), "no CSRF token, nothing stored")

	res = d.get(classPath + "?date=2026-13-45")
	assert.Equal(t, http.StatusBadRequest, res.Status)
	assert.Contains(t, res.Body, `aria-invalid="true" aria-describedby="date-error"`)
	assert.Contains(t, res.Body, `<p id="date-error" class="field-error">Escribe una fecha como 2026-03-07.</p>`)
	assert.Contains(t, res.Body, `value="2026-13-45"`, "the date as typed")
	assert.Contains(t, res.Body, "Sesión del "+s.words(t, 0), "the session to come still shows")

	for name, tc := range map[string]struct {
		form   url.Values
		status int
		words  string
	}{
		"a date that is no session": {url.Values{"enrollment": {fmt.Sprint(s.ana)}, "date": {s.day(30)}, "present": {"1"}},
			http.StatusBadRequest, "Esa fecha no es una sesión de la clase."},
		"a malformed date": {url.Values{"enrollment": {fmt.Sprint(s.ana)}, "date": {"mañana"}, "present": {"1"}},
			http.StatusBadRequest, "Escribe una fecha como 2026-03-07."},
		"no mark": {url.Values{"enrollment": {fmt.Sprint(s.ana)}, "date": {s.day(0)}, "present": {"tal vez"}},
			http.StatusBadRequest, "Elige una opción de la lista."},
		"no enrollment": {url.Values{"date": {s.day(0)}, "present": {"1"}}, http.StatusBadRequest, "Completa este campo."},
		"a student on the waitlist": {url.Values{"enrollment": {fmt.Sprint(s.carla)}, "date": {s.day(0)}, "present": {"1"}},
			http.StatusConflict, "Esa inscripción ya no está en ese estado"},
	} {
		t.Run(name, func(t *testing.T) {
			res := d.post(attendance, tc.form)
			assert.Equal(t, tc.status, res.Status)
			assert.Contains(t, res.Body, tc.words)
			assert.Contains(t, res.Body, "<h1>Pádel inicial</h1>", "the class's page comes back")
		})
	}
	assert.Empty(t, s.marks(t, 0), "nothing stored")
	assert.Equal(t, http.StatusNotFound, d.get("/panel/classes/9999").Status)
	assert.Equal(t, http.StatusNotFound, d.get("/panel/classes/abc").Status)

	// The desk's operator is no trainer; a client has no panel.
	desk := newDesk(t, s.app)
	s.app.User("desk@test.club", clubhouse.RoleOperator)
	require.Equal(t, http.StatusSeeOther, desk.signIn("desk@test.club").Status)
	assert.Equal(t, http.StatusForbidden, desk.get("/panel/classes").Status)
	assert.Equal(t, http.StatusForbidden, desk.get(classPath).Status)
	assert.NotContains(t, desk.get("/panel/dashboard").Body, `href="/panel/classes"`, "no trainer's nav for the desk")
	client := newDesk(t, s.app)
	assert.Equal(t, http.StatusForbidden, client.signIn("ana@test.club").Status)
	res = client.get("/panel/classes")
	assert.Equal(t, http.StatusSeeOther, res.Status)
	assert.Equal(t, "/panel/login?next=%2Fpanel%2Fclasses", res.Location())
	assert.Equal(t, http.StatusSeeOther, newDesk(t, s.app).post(attendance, mark).Status, "no session, to sign in")
	assert.Empty(t, s.marks(t, 0), "nothing stored")
}
