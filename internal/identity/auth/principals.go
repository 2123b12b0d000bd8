package auth

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// usersChanged is the channel on which the database names the user whose
// row changed in what authenticates them (migration 00017): its local_id,
// at the commit of the change.
const usersChanged = "users_changed"

// Bounds of the users a Service keeps in memory: at most maxPrincipals at
// once (a full set is emptied), each for at most principalFor, a backstop
// for a change the database did not announce.
const (
	maxPrincipals = 10000
	principalFor  = time.Minute
)

// principals keeps the rows of the users that authenticated recently, by
// token subject, while WatchUsersJob listens for their changes, so that a
// user's next requests skip reading the row. Every change of a row that
// decides who the user is and may do (roles, disabled, email, subject) is
// announced by the database at its commit, and the listener forgets that
// user: the next request reads the new row. Without a listener nothing is
// kept.
//
// A request that read a row before a change committed must not keep it
// after the change's announcement was handled: gen counts the
// announcements (and every start or end of listening), and a row is kept
// only when gen did not move while it was read.
type principals struct {
	mu    sync.Mutex
	live  bool
	gen   uint64
	users map[string]principal
}

type principal struct {
	user User
	read time.Time
}

// get returns the kept row of subject sub, when there is one younger than
// principalFor at now.
func (p *principals) get(sub string, now time.Time) (User, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e, ok := p.users[sub]
	if !ok || now.Sub(e.read) >= principalFor {
		return User{}, false
	}
	return e.user, true
}

// generation returns the count a row read from now on is kept under.
func (p *principals) generation() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.gen
}

// put keeps u, the row of subject sub read at now, when a listener runs
// and nothing was announced since generation gen.
func (p *principals) put(sub string, u User, gen uint64, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.live || gen != p.gen {
		return
	}
	if p.users == nil || len(p.users) >= maxPrincipals {
		p.users = make(map[string]principal)
	}
	p.users[sub] = principal{user: u, read: now}
}

// forget drops the row of subject sub, whose change was announced.
func (p *principals) forget(sub string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gen++
	delete(p.users, sub)
}

// listening starts or ends keeping rows; either way the kept ones are
// dropped, since changes may have gone unheard.
func (p *principals) listening(live bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gen++
	p.live = live
	clear(p.users)
}

// WatchUsersJob is the job "auth_users_watch": while it runs, the Service
// keeps the users who authenticated recently in memory, and forgets each
// one as soon as the database announces a change of their row, so that a
// request of a user with a live token reads nothing more than the token
// while roles, disabled flag, email and subject stay what the database
// holds: a change made anywhere (another server, clubctl, SQL) rules every
// request that reaches a server after the announcement, milliseconds after
// the commit; one made through this Service rules the very next request,
// since it forgets the user itself. It listens on a connection of its own,
// opened with the configuration of the Service's pool (sqldb.Listen); a
// lost connection drops every kept user and fails the job, which its
// supervisor runs again. Without it running, or without a pool (the job
// then fails at once), every request reads the user's row.
func (s *Service) WatchUsersJob() clubhouse.Job {
	return clubhouse.NewJob("auth_users_watch", func(ctx context.Context) error {
		if s.o.DB == nil || s.o.DB.Pool == nil {
			return errors.New("watch users: the service has no pgx pool")
		}
		return sqldb.Listen(ctx, s.o.DB.Pool, usersChanged, s.principals.listening, func(uid string) {
			s.principals.forget(uid)
			s.userChanged(uid)
		})
	})
}

// OnUserChange makes the Service call f with the uid (local_id) of each
// user who was disabled, deleted, or whose roles, email or subject
// changed: at once for a change made through the Service (ChangeUser),
// and for every change, wherever it was made (package users), when WatchUsersJob
// hears its announcement; so f may hear one change twice. f runs on the
// caller's goroutine (the users watch's, for an announcement) and must not block.
// Changes announced while the users watch's connection is lost go unheard.
func (s *Service) OnUserChange(f func(uid string)) {
	s.watchers.Lock()
	defer s.watchers.Unlock()
	s.watchers.f = append(s.watchers.f, f)
}

// userChanged tells the functions of OnUserChange that the user uid changed.
func (s *Service) userChanged(uid string) {
	s.watchers.Lock()
	fs := s.watchers.f
	s.watchers.Unlock()
	for _, f := range fs {
		f(uid)
	}
}

// WatchingUsers reports whether WatchUsersJob listens, so that users who
// authenticate are kept in memory.
func (s *Service) WatchingUsers() bool {
	s.principals.mu.Lock()
	defer s.principals.mu.Unlock()
	return s.principals.live
}
