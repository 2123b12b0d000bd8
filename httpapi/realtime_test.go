package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/realtime"
)

// testRedis is the Redis of the tests (.ci/services test starts it); each
// test names its own channel prefix.
const testRedis = "redis://127.0.0.1:6379/0"

// socket is a WebSocket client of the relay.
type socket struct {
	t  *testing.T
	ws *websocket.Conn
}

// frame is any frame the relay sends: an envelope or a control frame.
type frame struct {
	Type    string          `json:"type"`
	ID      string          `json:"id"`
	Event   string          `json:"event"`
	Room    string          `json:"room"`
	User    int64           `json:"user"`
	Data    json.RawMessage `json:"data"`
	At      string          `json:"at"`
	Error   string          `json:"error"`
	Message string          `json:"message"`
}

// relayURL is the relay's address on a, with query.
func relayURL(a *apptest.App, query string) string {
	u := "ws" + strings.TrimPrefix(a.URL, "http") + "/realtime"
	if query != "" {
		u += "?" + query
	}
	return u
}

// dialRelay opens a WebSocket to the relay of a with header, returning the
// handshake's response (its body read) when it is refused.
func dialRelay(t *testing.T, a *apptest.App, query string, header http.Header) (*socket, *http.Response, []byte) {
	t.Helper()
	ws, res, err := websocket.DefaultDialer.Dial(relayURL(a, query), header)
	if err != nil {
		require.ErrorIs(t, err, websocket.ErrBadHandshake, "the handshake reached the server")
		body, rerr := io.ReadAll(res.Body)
		require.NoError(t, rerr)
		return nil, res, body
	}
	t.Cleanup(func() { ws.Close() })
	return &socket{t: t, ws: ws}, res, nil
}

// connect opens a WebSocket to the relay of a with header, which must be
// accepted.
func connect(t *testing.T, a *apptest.App, header http.Header) *socket {
	t.Helper()
	s, res, body := dialRelay(t, a, "", header)
	require.NotNil(t, s, "handshake refused: %d %s", statusOf(res), body)
	return s
}

func statusOf(res *http.Response) int {
	if res == nil {
		return 0
	}
	return res.StatusCode
}

// bearerHeader is the Authorization header of token.
func bearerHeader(token string) http.Header { return http.Header{"Authorization": {"Bearer " + token}} }

// next reads the next frame, within five seconds.
func (s *socket) next() frame {
	s.t.Helper()
	require.NoError(s.t, s.ws.SetReadDeadline(time.Now().Add(5*time.Second)))
	_, b, err := s.ws.ReadMessage()
	require.NoError(s.t, err)
	var f frame
	require.NoError(s.t, json.Unmarshal(b, &f), "%s", b)
	return f
}

// send sends the text frame raw.
func (s *socket) send(raw string) {
	s.t.Helper()
	require.NoError(s.t, s.ws.WriteMessage(websocket.TextMessage, []byte(raw)))
}

// subscribe joins room and waits for the answer, which it returns.
func (s *socket) subscribe(room string) frame {
	s.t.Helper()
	s.send(fmt.Sprintf(`{"type":"subscribe","room":%q}`, room))
	return s.next()
}

// closed reads until the relay closes the connection and returns the
// close code (0 when the connection ended without a close frame).
func (s *socket) closed() int {
	s.t.Helper()
	require.NoError(s.t, s.ws.SetReadDeadline(time.Now().Add(10*time.Second)))
	for {
		_, _, err := s.ws.ReadMessage()
		if err == nil {
			continue
		}
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			return ce.Code
		}
		var ne interface{ Timeout() bool }
		require.False(s.t, errors.As(err, &ne) && ne.Timeout(), "the relay did not close the connection: %v", err)
		return 0
	}
}

// note is a test payload addressed to an audience of its own.
type note struct {
	Text string             `json:"text"`
	To   clubhouse.Audience `json:"-"`
}

func (n note) Audience() clubhouse.Audience { return n.To }

func TestRealtime_disabled(t *testing.T) {
	t.Parallel()
	a := apptest.New(t)
	a.AsAdmin().Get("/realtime").Status(t, http.StatusNotFound).Error(t, "not found")
	s, res, _ := dialRelay(t, a, "", bearerHeader(a.Token(a.User("admin@test.club", clubhouse.RoleAdmin))))
	assert.Nil(t, s)
	assert.Equal(t, http.StatusNotFound, statusOf(res))
}

func TestRealtime_handshake(t *testing.T) {
	t.Parallel()
	a := apptest.New(t, apptest.WithRealtime(app.RealtimeLimits{}))
	staff := a.User("admin@test.club", clubhouse.RoleAdmin, clubhouse.RoleOperator)
	token := a.Token(staff)
	toolsOnly, _, err := a.Issuer.MintForClient(staff, "openid panel mcp", "clubhouse-mcp", apptest.Issuer+"/mcp")
	require.NoError(t, err)
	_, session, err := a.Auth.StartSession(context.Background(), "admin@test.club", "password-admin@test.club", "192.0.2.1", "test")
	require.NoError(t, err)
	cookie := func(v string) string { return "theme=dark; clubhouse_session=" + v }
	for _, tc := range []struct {
		name   string
		query  string
		header http.Header
		status int // 0: accepted
		error  string
	}{
		{"no credentials", "", nil, http.StatusUnauthorized, "unauthorized"},
		{"bad token", "", bearerHeader("not-a-token"), http.StatusUnauthorized, "invalid token"},
		{"bad scheme", "", http.Header{"Authorization": {"Basic " + token}}, http.StatusUnauthorized, "unauthorized"},
		{"bad bot key", "", http.Header{"X-Auth": {"wrong"}}, http.StatusUnauthorized, "invalid api key"},
		{"bad access_token", "access_token=nope", nil, http.StatusUnauthorized, "invalid token"},
		{"token without the API", "", bearerHeader(a.TokenWithScope(staff, "openid mcp")), http.StatusForbidden, "insufficient_scope"},
		{"token for the tool endpoint (RFC 8707)", "", bearerHeader(toolsOnly), http.StatusUnauthorized, "invalid token"},
		{"foreign origin", "", http.Header{"Authorization": {"Bearer " + token}, "Origin": {"https://evil.example"}}, http.StatusForbidden, "forbidden origin"},
		{"token in the header", "", bearerHeader(token), 0, ""},
		{"token in the query", "access_token=" + url.QueryEscape(token), nil, 0, ""},
		{"bot key", "", http.Header{"X-Auth": {apptest.BotKey}}, 0, ""},
		{"public origin", "", http.Header{"Authorization": {"Bearer " + token}, "Origin": {apptest.Issuer}}, 0, ""},
		{"loopback origin", "", http.Header{"Authorization": {"Bearer " + token}, "Origin": {"http://localhost:5173"}}, 0, ""},
		{"a panel page's session cookie", "", http.Header{"Cookie": {cookie(session)}, "Origin": {apptest.Issuer}}, 0, ""},
		{"a session cookie sent by another site's page", "", http.Header{"Cookie": {cookie(session)}, "Origin": {"https://evil.example"}}, http.StatusForbidden, "forbidden origin"},
		{"a session cookie without an Origin", "", http.Header{"Cookie": {cookie(session)}}, http.StatusForbidden, "forbidden origin"},
		{"a session cookie from a loopback page of another port", "", http.Header{"Cookie": {cookie(session)}, "Origin": {"http://localhost:5173"}}, http.StatusForbidden, "forbidden origin"},
		{"an unknown session cookie", "", http.Header{"Cookie": {cookie("not-a-session")}, "Origin": {apptest.Issuer}}, http.StatusUnauthorized, "no session"},
		{"cookies without a session", "", http.Header{"Cookie": {"theme=dark"}}, http.StatusUnauthorized, "no session"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, res, body := dialRelay(t, a, tc.query, tc.header)
			if tc.status == 0 {
				require.NotNil(t, s, "refused: %d %s", statusOf(res), body)
				assert.Equal(t, http.StatusSwitchingProtocols, res.StatusCode)
				assert.Equal(t, realtime.TypeSubscribed, s.subscribe(clubhouse.RoomApp).Type, "the connection serves")
				return
			}
			require.Nil(t, s)
			assert.Equal(t, tc.status, res.StatusCode)
			assert.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
			var e errorBody
			require.NoError(t, json.Unmarshal(body, &e), "%s", body)
			assert.NotEmpty(t, e.Message)
			if tc.error != "" {
				assert.Equal(t, tc.error, e.Error)
			}
		})
	}
	t.Run("not a websocket", func(t *testing.T) {
		a.As(staff).Get("/realtime").Status(t, http.StatusBadRequest).Error(t, "not a websocket handshake")
		a.Anonymous().Get("/realtime").Status(t, http.StatusUnauthorized)
	})
	logs := a.LogText()
	assert.NotContains(t, logs, token, "tokens never reach the log, not even from the query")
	assert.Contains(t, logs, `path=/realtime route="GET /realtime" status=101`, "an upgrade is logged as 101")
	assert.Contains(t, logs, "principal="+staff.LocalID, "and names its caller")
}

func TestRealtime_bookingReachesPanel(t *testing.T) {
	t.Parallel()
	a := apptest.New(t, apptest.WithRealtime(app.RealtimeLimits{}))
	c := newClub(t, a)
	staff := connect(t, a, bearerHeader(a.Token(a.User("operator@test.club", clubhouse.RoleOperator))))
	client := connect(t, a, bearerHeader(a.Token(a.User("client@test.club"))))
	require.Equal(t, realtime.Control{Type: realtime.TypeSubscribed, Room: "panel"}, control(staff.subscribe("panel")))
	require.Equal(t, realtime.TypeSubscribed, client.subscribe("app").Type)

	id := a.AsAdmin().Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00:00", "2026-03-02 11:00:00")).
		Status(t, http.StatusCreated).ID(t)
	for {
		m := staff.next()
		require.Equal(t, realtime.TypeMessage, m.Type)
		if m.Event != "booking:changed" {
			continue // other messages of the booking (availability)
		}
		assert.Equal(t, "panel", m.Room)
		assert.Zero(t, m.User)
		assert.JSONEq(t, fmt.Sprintf(`{"ids":[%d]}`, id), string(m.Data))
		assert.Regexp(t, `^[0-9a-f]{32}$`, m.ID)
		at, err := time.Parse(time.RFC3339, m.At)
		require.NoError(t, err)
		assert.WithinDuration(t, time.Now(), at, time.Minute)
		break
	}

	// The client, in the app room, saw the court's availability change and
	// not the staff's booking message: then comes a note to them.
	a.Relay.Publish("note", note{Text: "yours", To: clubhouse.Audience{Users: []int64{a.User("client@test.club").ID}}})
	m := client.next()
	assert.Equal(t, "availability:updated", m.Event)
	assert.Equal(t, "app", m.Room)
	assert.JSONEq(t, `{"court_id":`+itoa(c.courtA)+`,"date":"2026-03-02"}`, string(m.Data))
	m = client.next()
	assert.Equal(t, "note", m.Event)
	assert.JSONEq(t, `{"text":"yours"}`, string(m.Data))
}

// TestRealtime_fromTheLog: the relay sends what the club's event log
// holds, once the change that recorded it commits: a booking's messages
// reach the staff as soon as its request is answered (the instance reads
// the log after each write it answers; here it reads nothing of its own
// for an hour), a write refused sends nothing, and a message recorded by
// a change that rolled back is never sent.
func TestRealtime_fromTheLog(t *testing.T) {
	t.Parallel()
	a := apptest.New(t, apptest.WithRealtime(app.RealtimeLimits{FeedInterval: time.Hour}))
	c := newClub(t, a)
	staff := connect(t, a, bearerHeader(a.Token(a.User("operator@test.club", clubhouse.RoleOperator))))
	require.Equal(t, realtime.TypeSubscribed, staff.subscribe("panel").Type)

	tx, err := a.DB.BeginTxx(t.Context(), nil)
	require.NoError(t, err)
	require.NoError(t, a.EventLog.Announce(t.Context(), tx, eventlog.Message{Topic: "booking:changed", Payload: booking.Changed{IDs: []int64{-1}}}))
	require.NoError(t, tx.Rollback())
	admin := a.AsAdmin()
	first := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00:00", "2026-03-02 11:00:00")).
		Status(t, http.StatusCreated).ID(t)
	admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:30:00", "2026-03-02 11:30:00")).Status(t, http.StatusConflict)
	second := admin.Post("/api/admin/booking", c.slot(c.courtB, "2026-03-03 10:00:00", "2026-03-03 11:00:00")).
		Status(t, http.StatusCreated).ID(t)
	var got []string
	for len(got) < 4 {
		m := staff.next()
		got = append(got, m.Event+" "+string(m.Data))
	}
	assert.Equal(t, []string{
		fmt.Sprintf(`booking:changed {"ids":[%d]}`, first),
		`availability:updated {"court_id":` + itoa(c.courtA) + `,"date":"2026-03-02"}`,
		fmt.Sprintf(`booking:changed {"ids":[%d]}`, second),
		`availability:updated {"court_id":` + itoa(c.courtB) + `,"date":"2026-03-03"}`,
	}, got, "in the log's order; nothing of the change rolled back nor of the refused one")
}

// TestRealtime_ledgerReachesAccounting: the ledger's messages reach the
// accounting room, and the staff room hears none of them: an entry posted
// (ledger:posted), then a period closed through the API, its closing
// entry first and then period:closed, naming the period and who closed it
// (by label, never by email).
func TestRealtime_ledgerReachesAccounting(t *testing.T) {
	t.Parallel()
	a := apptest.New(t, apptest.WithLedger(t), apptest.WithRealtime(app.RealtimeLimits{FeedInterval: 50 * time.Millisecond}),
		apptest.WithClock(apptest.NewClockAt(time.Date(2026, 4, 15, 10, 0, 0, 0, bogota(t)))))
	a.RunJobs(a.Job("event_log_forward")) // the ledger's messages reach the club's log with its events
	books := a.User("accounting@test.club", clubhouse.RoleAccounting)
	accountant := connect(t, a, bearerHeader(a.Token(books)))
	staff := connect(t, a, bearerHeader(a.Token(a.User("operator@test.club", clubhouse.RoleOperator))))
	require.Equal(t, realtime.TypeSubscribed, accountant.subscribe("accounting").Type)
	require.Equal(t, realtime.TypeSubscribed, staff.subscribe("panel").Type)

	acc := a.As(books)
	p := acc.Post("/api/accounting/periods", map[string]any{"name": "2026-03", "start_date": "2026-03-01", "end_date": "2026-03-31"}).
		Status(t, http.StatusCreated).ID(t)
	e := acc.Post("/api/accounting/journal", map[string]any{"date": "2026-03-02", "description": "Rentals",
		"lines": []any{line("1.1.10.01", 120000, 0), line("4.1.05", 0, 120000)}}).Status(t, http.StatusCreated).ID(t)
	m := accountant.next()
	assert.Equal(t, [3]string{realtime.TypeMessage, "ledger:posted", "accounting"}, [3]string{m.Type, m.Event, m.Room})
	assert.JSONEq(t, fmt.Sprintf(`{"ids":[%d]}`, e), string(m.Data))

	closed := acc.Post(path("/api/accounting/periods/%d/close", p), nil).Status(t, http.StatusOK).Object(t)
	closing := int64(closed["closing_entry_id"].(float64))
	m = accountant.next()
	assert.Equal(t, "ledger:posted", m.Event)
	assert.JSONEq(t, fmt.Sprintf(`{"ids":[%d]}`, closing), string(m.Data), "the closing entry")
	m = accountant.next()
	assert.Equal(t, [3]string{realtime.TypeMessage, "period:closed", "accounting"}, [3]string{m.Type, m.Event, m.Room})
	assert.JSONEq(t, fmt.Sprintf(`{"id":%d,"name":"2026-03","start_date":"2026-03-01","end_date":"2026-03-31","closed_by":%q,
		"closed_early":false,"closing_entry_id":%d}`, p, books.LocalID, closing), string(m.Data))

	a.Relay.Publish("note", note{Text: "staff", To: clubhouse.Audience{Rooms: []string{clubhouse.RoomPanel}}})
	m = staff.next()
	assert.Equal(t, "note", m.Event, "the staff room heard none of the ledger's messages")
}

// control is the control frame of f.
func control(f frame) realtime.Control {
	return realtime.Control{Type: f.Type, Room: f.Room, Error: f.Error, Message: f.Message}
}

func TestRealtime_rooms(t *testing.T) {
	t.Parallel()
	a := apptest.New(t, apptest.WithRealtime(app.RealtimeLimits{}))
	clientUser := a.User("client@test.club")
	trainerUser := a.User("trainer@test.club", clubhouse.RoleTrainer)
	adminUser := a.User("admin@test.club", clubhouse.RoleAdmin, clubhouse.RoleOperator)
	client := connect(t, a, bearerHeader(a.Token(clientUser)))
	trainer := connect(t, a, bearerHeader(a.Token(trainerUser)))
	admin := connect(t, a, bearerHeader(a.Token(adminUser)))
	accountant := connect(t, a, bearerHeader(a.Token(a.User("accounting@test.club", clubhouse.RoleAccounting))))

	for _, tc := range []struct {
		name  string
		s     *socket
		frame string
		want  realtime.Control
	}{
		{"client to panel", client, `{"type":"subscribe","room":"panel"}`, realtime.Control{Type: "error", Room: "panel", Error: "forbidden"}},
		{"client to accounting", client, `{"type":"subscribe","room":"accounting"}`, realtime.Control{Type: "error", Room: "accounting", Error: "forbidden"}},
		{"client to trainer", client, `{"type":"subscribe","room":"trainer"}`, realtime.Control{Type: "error", Room: "trainer", Error: "forbidden"}},
		{"a trainer's room by id", client, fmt.Sprintf(`{"type":"subscribe","room":"trainer:%d"}`, trainerUser.ID), realtime.Control{Type: "error", Room: fmt.Sprintf("trainer:%d", trainerUser.ID), Error: "unknown room"}},
		{"unknown room", client, `{"type":"subscribe","room":"lobby"}`, realtime.Control{Type: "error", Room: "lobby", Error: "unknown room"}},
		{"no room", client, `{"type":"subscribe"}`, realtime.Control{Type: "error", Error: "invalid message"}},
		{"unknown type", client, `{"type":"shout","room":"app"}`, realtime.Control{Type: "error", Room: "app", Error: "invalid message"}},
		{"bad JSON", client, `{"type":`, realtime.Control{Type: "error", Error: "invalid message"}},
		{"client to app", client, `{"type":"subscribe","room":"app"}`, realtime.Control{Type: "subscribed", Room: "app"}},
		{"trainer to trainer", trainer, `{"type":"subscribe","room":"trainer"}`, realtime.Control{Type: "subscribed", Room: "trainer"}},
		{"trainer to panel", trainer, `{"type":"subscribe","room":"panel"}`, realtime.Control{Type: "error", Room: "panel", Error: "forbidden"}},
		{"admin to panel", admin, `{"type":"subscribe","room":"panel"}`, realtime.Control{Type: "subscribed", Room: "panel"}},
		{"admin to accounting", admin, `{"type":"subscribe","room":"accounting"}`, realtime.Control{Type: "subscribed", Room: "accounting"}},
		{"admin again", admin, `{"type":"subscribe","room":"panel"}`, realtime.Control{Type: "subscribed", Room: "panel"}},
		{"accountant to accounting", accountant, `{"type":"subscribe","room":"accounting"}`, realtime.Control{Type: "subscribed", Room: "accounting"}},
		{"accountant to panel", accountant, `{"type":"subscribe","room":"panel"}`, realtime.Control{Type: "error", Room: "panel", Error: "forbidden"}},
		{"accountant leaves accounting", accountant, `{"type":"unsubscribe","room":"accounting"}`, realtime.Control{Type: "unsubscribed", Room: "accounting"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.s.send(tc.frame)
			got := control(tc.s.next())
			if tc.want.Type == realtime.TypeError {
				assert.NotEmpty(t, got.Message)
				got.Message = ""
			}
			assert.Equal(t, tc.want, got)
		})
	}
	require.NoError(t, client.ws.WriteMessage(websocket.BinaryMessage, []byte("x")))
	assert.Equal(t, "invalid message", client.next().Error, "binary frames are refused, the connection stays")

	// Each message reaches each connection once, through the first way
	// its audience names it: the user, then the rooms in order.
	a.Relay.Publish("class:cancelled", note{Text: "trainer", To: clubhouse.Audience{Rooms: []string{clubhouse.TrainerRoom(trainerUser.ID)}}})
	m := trainer.next()
	assert.Equal(t, "trainer", m.Room, "a trainer's room is trainer on the wire")
	assert.JSONEq(t, `{"text":"trainer"}`, string(m.Data))

	a.Relay.Publish("both", note{Text: "both", To: clubhouse.Audience{Users: []int64{adminUser.ID}, Rooms: []string{"accounting", "panel"}}})
	a.Relay.Publish("staff", map[string]string{"text": "staff"}) // not Addressed: the panel room
	a.Relay.Publish("all", note{Text: "all", To: clubhouse.Audience{All: true}})
	m = admin.next()
	assert.Equal(t, "both", m.Event)
	assert.Equal(t, adminUser.ID, m.User)
	assert.Empty(t, m.Room)
	m = admin.next()
	assert.Equal(t, "staff", m.Event, "both came once")
	assert.Equal(t, "panel", m.Room)
	assert.Equal(t, "all", admin.next().Event)
	for _, s := range []*socket{client, trainer, accountant} {
		m := s.next()
		assert.Equal(t, "all", m.Event, "nothing else reached them")
		assert.Empty(t, m.Room)
		assert.Zero(t, m.User)
	}
}

func TestRealtime_limits(t *testing.T) {
	t.Parallel()
	a := apptest.New(t, apptest.WithRealtime(app.RealtimeLimits{}))
	u := a.User("client@test.club")

	big := connect(t, a, bearerHeader(a.Token(u)))
	big.send(`{"type":"subscribe","room":"` + strings.Repeat("a", realtime.DefaultMaxMessageSize) + `"}`)
	assert.Equal(t, websocket.CloseMessageTooBig, big.closed())

	iss := *a.Issuer
	iss.TTL = 2 * time.Second
	short, _, err := iss.Mint(u, auth.ScopePanel)
	require.NoError(t, err)
	expiring := connect(t, a, bearerHeader(short))
	require.Equal(t, realtime.TypeSubscribed, expiring.subscribe("app").Type)
	assert.Equal(t, realtime.CloseTokenExpired, expiring.closed())

	bot := connect(t, a, http.Header{"X-Auth": {apptest.BotKey}})
	require.Equal(t, realtime.TypeSubscribed, bot.subscribe("panel").Type)
	a.Close()
	assert.Equal(t, websocket.CloseGoingAway, bot.closed(), "a server shutting down says so")
}

func TestRealtime_slowClient(t *testing.T) {
	t.Parallel()
	// The write blocked on the slow client waits for it long enough that
	// it reads its close frame once it reads again, even under -race.
	a := apptest.New(t, apptest.WithRealtime(app.RealtimeLimits{QueueSize: 8, WriteTimeout: time.Minute}))
	token := a.Token(a.User("operator@test.club", clubhouse.RoleOperator))
	slow := connect(t, a, bearerHeader(token))
	fast := connect(t, a, bearerHeader(token))
	require.Equal(t, realtime.TypeSubscribed, slow.subscribe("panel").Type)
	require.Equal(t, realtime.TypeSubscribed, fast.subscribe("panel").Type)

	// The slow client reads nothing: once the kernel's buffers are full
	// its queue fills, and it is closed; the fast one, which reads each
	// message as it comes, gets every one.
	text := strings.Repeat("x", 64<<10)
	for i := range 400 {
		a.Relay.Publish("big", map[string]string{"text": text + fmt.Sprint(i)})
		m := fast.next()
		require.Equal(t, "big", m.Event)
		require.True(t, strings.HasSuffix(string(m.Data), fmt.Sprintf(`x%d"}`, i)), "in order")
	}
	deadline := time.Now().Add(10 * time.Second)
	for a.Relay.Stats().Slow == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	require.EqualValues(t, 1, a.Relay.Stats().Slow, "the slow client was let go")
	assert.Equal(t, realtime.CloseTooSlow, slow.closed(), "and told why, once it read its backlog")
	assert.Zero(t, a.Relay.Stats().Dropped)
}

// TestRealtime_redis: two instances on one database ring each other
// through Redis after a write, so that a booking made on one reaches a
// staff client of the other at once, though neither reads the log on its
// own for an hour; once, as the log holds it; an instance of another
// prefix, on the same database, is not rung.
func TestRealtime_redis(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	prefix := fmt.Sprintf("clubhouse-test:%s:%d", t.Name(), time.Now().UnixNano())
	rt := apptest.WithRealtime(app.RealtimeLimits{FeedInterval: time.Hour})
	one := apptest.NewOn(t, db, rt, apptest.WithRedis(testRedis, prefix))
	two := apptest.NewOn(t, db, rt, apptest.WithRedis(testRedis, prefix))
	other := apptest.NewOn(t, db, rt, apptest.WithRedis(testRedis, prefix+":other"))
	staff := panelSocket(t, two)
	elsewhere := connect(t, other, bearerHeader(other.Token(other.User("desk@test.club", clubhouse.RoleOperator))))
	require.Equal(t, realtime.TypeSubscribed, elsewhere.subscribe("panel").Type)

	c := newClub(t, one)
	book := func(from, to string) int64 {
		return one.AsAdmin().Post("/api/admin/booking", c.slot(c.courtA, from, to)).Status(t, http.StatusCreated).ID(t)
	}
	for _, id := range []int64{book("2026-03-02 10:00:00", "2026-03-02 11:00:00"), book("2026-03-02 12:00:00", "2026-03-02 13:00:00")} {
		for {
			m := staff.next()
			if m.Event == "booking:changed" {
				assert.JSONEq(t, fmt.Sprintf(`{"ids":[%d]}`, id), string(m.Data), "each booking once, in order")
				break
			}
		}
	}
	require.NoError(t, elsewhere.ws.SetReadDeadline(time.Now().Add(time.Second)))
	_, b, err := elsewhere.ws.ReadMessage()
	assert.Error(t, err, "the instance of another prefix was not rung: %s", b)
}

// panelSocket connects a staff client to a's relay, in the panel room.
func panelSocket(t *testing.T, a *apptest.App) *socket {
	t.Helper()
	s := connect(t, a, bearerHeader(a.Token(a.User("operator@test.club", clubhouse.RoleOperator))))
	require.Equal(t, realtime.TypeSubscribed, s.subscribe("panel").Type)
	return s
}

// closedWithout reads until the relay closes the connection, as closed,
// and fails on a message of event among the frames before the close.
func (s *socket) closedWithout(event string) int {
	s.t.Helper()
	require.NoError(s.t, s.ws.SetReadDeadline(time.Now().Add(10*time.Second)))
	for {
		_, b, err := s.ws.ReadMessage()
		if err == nil {
			var f frame
			require.NoError(s.t, json.Unmarshal(b, &f), "%s", b)
			assert.NotEqual(s.t, event, f.Event, "a message after the change")
			continue
		}
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			return ce.Code
		}
		var ne interface{ Timeout() bool }
		require.False(s.t, errors.As(err, &ne) && ne.Timeout(), "the relay did not close the connection: %v", err)
		return 0
	}
}

// TestRealtime_userChange: a user disabled or whose roles change loses
// their realtime connections at once, with 4003, as the API refuses their
// next request: by the server that made the change before it answers,
// by every server at the change's announcement (here one made in SQL, as
// clubctl or another instance would). The client connects again and gets
// what its credentials grant now.
func TestRealtime_userChange(t *testing.T) {
	t.Parallel()
	a := apptest.New(t, apptest.WithRealtime(app.RealtimeLimits{}))
	a.Watch()
	var mu sync.Mutex
	heard := map[string]int{} // uid -> the times the auth service told of a change, after the relay
	a.Auth.OnUserChange(func(uid string) {
		mu.Lock()
		defer mu.Unlock()
		heard[uid]++
	})
	bystander := panelSocket(t, a)
	staff := func(email string) (auth.User, string, *socket) {
		u := a.User(email, clubhouse.RoleOperator)
		token := a.Token(u)
		s := connect(t, a, bearerHeader(token))
		require.Equal(t, realtime.TypeSubscribed, s.subscribe(clubhouse.RoomPanel).Type)
		return u, token, s
	}
	publish := func(event string) {
		a.Relay.Publish(event, note{Text: event, To: clubhouse.Audience{Rooms: []string{clubhouse.RoomPanel}}})
		require.Equal(t, event, bystander.next().Event, "the staff who did not change keep the room")
	}

	t.Run("role removed", func(t *testing.T) {
		u, token, s := staff("demoted@test.club")
		publish("before")
		require.Equal(t, "before", s.next().Event)
		a.AsSudo().Patch("/api/sudo/users/"+u.LocalID, map[string]any{"operator": false}).Status(t, http.StatusOK)
		publish("after")
		assert.Equal(t, realtime.CloseCredentialsChanged, s.closedWithout("after"))
		// Told at once and at the announcement: a connection made between
		// the two would be closed by the second.
		require.Eventually(t, func() bool {
			mu.Lock()
			defer mu.Unlock()
			return heard[u.LocalID] == 2
		}, 10*time.Second, 5*time.Millisecond)
		again := connect(t, a, bearerHeader(token))
		assert.Equal(t, "forbidden", again.subscribe(clubhouse.RoomPanel).Error, "the same token, judged on the roles now")
	})
	t.Run("disabled", func(t *testing.T) {
		u, token, s := staff("gone@test.club")
		a.AsSudo().Patch("/api/sudo/users/"+u.LocalID, map[string]any{"disabled": true}).Status(t, http.StatusOK)
		publish("after disabling")
		assert.Equal(t, realtime.CloseCredentialsChanged, s.closedWithout("after disabling"))
		again, res, body := dialRelay(t, a, "", bearerHeader(token))
		require.Nil(t, again)
		assert.Equal(t, http.StatusUnauthorized, res.StatusCode)
		assert.Contains(t, string(body), "user disabled")
	})
	t.Run("role granted elsewhere", func(t *testing.T) {
		u, token, s := staff("promoted@test.club")
		_, err := a.DB.ExecContext(t.Context(), `UPDATE users SET accounting = true WHERE id = $1`, u.ID)
		require.NoError(t, err)
		assert.Equal(t, realtime.CloseCredentialsChanged, s.closed(), "at the announcement")
		again := connect(t, a, bearerHeader(token))
		assert.Equal(t, realtime.TypeSubscribed, again.subscribe(clubhouse.RoomAccounting).Type)
	})
	assert.Contains(t, a.LogText(), "realtime: connections closed, credentials changed")
}

// TestRealtime_caps: a user holds at most MaxUserConnections sockets, the
// server MaxConnections; one more is refused before the upgrade, 429 or
// 503 with Retry-After and {error, message}, and a socket that closes
// frees its slot.
func TestRealtime_caps(t *testing.T) {
	t.Parallel()
	a := apptest.New(t, apptest.WithRealtime(app.RealtimeLimits{MaxUserConnections: 2, MaxConnections: 3}))
	ana := bearerHeader(a.Token(a.User("ana@test.club")))
	refused := func(header http.Header, status int) errorBody {
		t.Helper()
		s, res, body := dialRelay(t, a, "", header)
		require.Nil(t, s, "accepted past a cap")
		assert.Equal(t, status, res.StatusCode)
		assert.Equal(t, "60", res.Header.Get("Retry-After"))
		assert.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
		var e errorBody
		require.NoError(t, json.Unmarshal(body, &e), "%s", body)
		assert.Equal(t, "too many connections", e.Error)
		assert.NotEmpty(t, e.Message)
		return e
	}

	first := connect(t, a, ana)
	connect(t, a, ana)
	e := refused(ana, http.StatusTooManyRequests)
	assert.Contains(t, e.Message, "2 realtime connections")
	connect(t, a, http.Header{"X-Auth": {apptest.BotKey}})
	refused(bearerHeader(a.Token(a.User("bo@test.club"))), http.StatusServiceUnavailable)

	require.NoError(t, first.ws.Close())
	require.Eventually(t, func() bool { return a.Relay.Stats().Connections == 2 }, 10*time.Second, 5*time.Millisecond)
	again := connect(t, a, ana)
	assert.Equal(t, realtime.TypeSubscribed, again.subscribe(clubhouse.RoomApp).Type, "the freed slot serves")
	refused(ana, http.StatusTooManyRequests)
}
