package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/realtime"
)

// RelayFeedInterval is how often each instance reads the realtime
// messages that the club's log recorded since its last reading, unless
// RealtimeLimits.FeedInterval says otherwise. A write answered by this
// instance, or rung by another through Redis, has it read at once.
const RelayFeedInterval = time.Second

// relayFeed sends a relay the messages recorded in the club's log
// (eventlog.Log.Relays), in the log's order. Each instance of the club
// follows the log itself, so each sends every message to its own
// connections, and a message reaches them only once the change that
// recorded it commits. It reads what is new every interval, and at once
// when Ring says that this instance answered a write, or when another
// instance rings the bell (a Redis channel, with REDIS_URL): after reading
// for a write of its own, it rings the others.
type relayFeed struct {
	log    *eventlog.Log
	relay  *realtime.Relay
	bell   realtime.Broker // the other instances' doorbell; nil: none
	logger *slog.Logger
	local  chan struct{} // a write of this instance was answered
	remote chan struct{} // another instance rang
	stop   context.CancelFunc
	done   chan struct{}
}

// ring is the doorbell's message: its content says nothing.
var ring = []byte("1")

// startFeed starts a relayFeed of log to relay from the log's end, which
// reads every interval, and rings and listens on bell when it is not nil.
// Errors: the log's end could not be read, the bell's subscription failed.
func startFeed(ctx context.Context, log *eventlog.Log, relay *realtime.Relay, bell realtime.Broker, interval time.Duration,
	logger *slog.Logger) (*relayFeed, error) {
	after, err := log.End(ctx)
	if err != nil {
		return nil, err
	}
	f := &relayFeed{log: log, relay: relay, bell: bell, logger: logger, local: make(chan struct{}, 1), remote: make(chan struct{}, 1),
		done: make(chan struct{})}
	if bell != nil {
		if err := bell.Subscribe(ctx, func([]byte) { signal(f.remote) }); err != nil {
			return nil, err
		}
	}
	fctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	f.stop = stop
	go f.run(fctx, after, interval)
	return f, nil
}

// signal wakes the reader of c, once however often it is called before
// the reader wakes.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// Ring tells the feed that this instance answered a write: it reads the
// log at once, and rings the other instances. It never blocks.
func (f *relayFeed) Ring() { signal(f.local) }

// Close stops the feed and waits for it, and closes the bell.
func (f *relayFeed) Close() {
	f.stop()
	<-f.done
	if f.bell != nil {
		if err := f.bell.Close(); err != nil {
			f.logger.Warn("realtime: close the feed's bell", "err", err)
		}
	}
}

// run reads the log from after until ctx ends: every interval, and when
// rung. A reading that fails is logged once until one succeeds, and tried
// again at the next turn, from the same place: nothing is skipped.
func (f *relayFeed) run(ctx context.Context, after eventlog.Cursor, interval time.Duration) {
	defer close(f.done)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	failing := false
	for {
		mine := false
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-f.remote:
		case <-f.local:
			mine = true
		}
		var err error
		if after, err = f.read(ctx, after); err != nil {
			if ctx.Err() == nil && !failing {
				f.logger.Warn("realtime: read the event log", "err", err)
			}
			failing = true
			continue
		}
		failing = false
		if mine && f.bell != nil {
			if err := f.bell.Publish(ctx, ring); err != nil && ctx.Err() == nil {
				f.logger.Warn("realtime: ring the other instances", "err", err)
			}
		}
	}
}

// read sends the relay every message recorded after the cursor after,
// and returns the cursor past them.
func (f *relayFeed) read(ctx context.Context, after eventlog.Cursor) (eventlog.Cursor, error) {
	for {
		ms, next, err := f.log.Relays(ctx, after)
		if err != nil {
			return after, err
		}
		for _, m := range ms {
			f.relay.Send(realtime.Message{ID: m.ID, Event: m.Topic, Users: m.Users, Rooms: m.Rooms, All: m.All, Data: m.Data, At: m.At})
		}
		if next == after {
			return after, nil
		}
		after = next
	}
}
