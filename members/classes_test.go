package members_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/webtest"
)

// newClass opens a class of one place on court 2, Tuesdays and Thursdays
// 07:00 to 08:00 from 5 to 14 March 2030, and returns its id.
func (c *bookClub) newClass(t *testing.T, title string) int64 {
	t.Helper()
	admin := c.app.AsAdmin()
	var courtType, clinic int64
	require.NoError(t, c.app.DB.GetContext(t.Context(), &courtType, `SELECT court_type_id FROM courts WHERE id = $1`, c.court2))
	require.NoError(t, c.app.DB.GetContext(t.Context(), &clinic, `SELECT id FROM reservation_types WHERE gestion = 2`))
	admin.Post("/api/admin/tariff-classes", map[string]any{"court_type_id": courtType, "reservation_type_id": clinic,
		"single_price": 25000, "total_price": 100000, "max_capacity": 1}).Status(t, http.StatusCreated)
	coach := c.app.User("coach@example.com", clubhouse.RoleTrainer)
	return admin.Post("/api/admin/classes", map[string]any{"title": title, "court_id": c.court2, "reservation_type_id": clinic,
		"user_id": coach.ID, "start_date": "2030-03-05", "end_date": "2030-03-14", "recurrence_days": []int{2, 4},
		"start_time": "07:00", "end_time": "08:00"}).Status(t, http.StatusCreated).ID(t)
}

// fillClass takes the class's one place for Leo, a member with a client
// record, through the JSON API, and returns his client.
func (c *bookClub) fillClass(t *testing.T, class int64) *apptest.Client {
	t.Helper()
	leo := c.app.As(c.app.User("leo@example.com"))
	var doc int64
	require.NoError(t, c.app.DB.GetContext(t.Context(), &doc, `SELECT id FROM document_types LIMIT 1`))
	leo.Post("/api/account/client", map[string]any{"email": "leo@example.com", "first_name": "Leo", "last_name": "Ríos",
		"document": "2030", "document_type_id": doc}).Status(t, http.StatusCreated)
	leo.Post(fmt.Sprintf("/api/account/classes/%d/enroll", class), map[string]any{"payments": []any{}}).Status(t, http.StatusCreated)
	return leo
}

// TestClasses_enrollAndTheWaitlist: a full class offers its waitlist; Ana
// joins it and sees her position, takes the place when it frees and
// leaves the class; enrolling twice is refused in words.
func TestClasses_enrollAndTheWaitlist(t *testing.T) {
	t.Parallel()
	c := newBookClub(t)
	class := c.newClass(t, "Pádel inicial")
	leo := c.fillClass(t, class)

	page := c.b.Get("/app/classes")
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Contains(t, page.Body, fmt.Sprintf(`<li class="card" id="class-%d">`, class))
	assert.Contains(t, page.Body, "<h2>Pádel inicial</h2>")
	assert.Contains(t, page.Body, "martes y jueves, de 07:00 a 08:00")
	assert.Contains(t, page.Body, `<dd class="places">Sin cupos: puedes quedar en lista de espera</dd>`)
	assert.Contains(t, page.Body, `<button type="submit">Entrar a la lista de espera</button>`)

	page = c.b.Post(fmt.Sprintf("/app/classes/%d/enroll", class), url.Values{})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	assert.Equal(t, fmt.Sprintf("/app/classes?done=waitlisted#class-%d", class), page.Location())
	page = c.b.Get(page.Location())
	assert.Contains(t, page.Body, "quedaste en la lista de espera")
	assert.Contains(t, page.Body, `<p class="mine">Estás en la lista de espera: puesto 1.</p>`)

	page = c.b.Post(fmt.Sprintf("/app/classes/%d/enroll", class), url.Values{})
	assert.Equal(t, http.StatusConflict, page.Status)
	assert.Contains(t, page.Body, `<p id="form-error" class="form-errors" role="alert">Ya hay una inscripción activa de este cliente en la clase.</p>`)

	leo.Delete(fmt.Sprintf("/api/account/classes/%d/enroll", class), nil).Status(t, http.StatusOK)
	page = c.b.Get("/app/classes")
	assert.Contains(t, page.Body, `<p class="mine">Estás inscrito`, "the freed place is Ana's")
	promoted := c.mail.Wait(t, "ana@example.com", 1, 10*time.Second)[0]
	assert.Contains(t, promoted.Text, "/app/classes", "the message links the app's classes")

	page = c.b.Post(fmt.Sprintf("/app/classes/%d/withdraw", class), url.Values{})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	page = c.b.Get(page.Location())
	assert.Contains(t, page.Body, "Saliste de la clase.")
	assert.Contains(t, page.Body, `<dd class="places">Quedan 1 de 1 cupos</dd>`)
	assert.Contains(t, page.Body, `<button type="submit">Inscribirme</button>`)

	page = c.b.Post(fmt.Sprintf("/app/classes/%d/withdraw", class), url.Values{"csrf_token": {""}})
	assert.Equal(t, http.StatusForbidden, page.Status)
}

// TestClasses_withoutARecord: a member who has not completed their client
// record is sent to complete it, and nothing is stored.
func TestClasses_withoutARecord(t *testing.T) {
	t.Parallel()
	c := newBookClub(t)
	class := c.newClass(t, "Pádel inicial")
	c.app.User("eva@example.com")
	eva := webtest.New(t, c.app.URL)
	require.Equal(t, http.StatusSeeOther, eva.Post("/app/login", url.Values{"email": {"eva@example.com"},
		"password": {"password-eva@example.com"}}).Status)
	eva.Get("/app/classes")
	page := eva.Post(fmt.Sprintf("/app/classes/%d/enroll", class), url.Values{})
	assert.Equal(t, http.StatusConflict, page.Status)
	assert.Contains(t, page.Body, `id="no-record"`)
	var n int
	require.NoError(t, c.app.DB.GetContext(t.Context(), &n, `SELECT count(*) FROM enrollments`))
	assert.Zero(t, n)
}
