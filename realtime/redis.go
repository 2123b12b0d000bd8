package realtime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is the Broker of several instances: each publishes to one Redis
// channel, Channel(prefix), and each subscribes to it, so that a client
// of any instance receives what any instance published. Two clubs that
// share a Redis server use different prefixes and never hear each other.
//
// The subscription's connection is go-redis's: when it breaks, go-redis
// dials again and subscribes again. A connection that died without a word
// (a NAT or a load balancer dropped it) is found by a ping: when nothing,
// not even the pong, comes back for a whole ping interval, the broker
// drops the connection and subscribes on a new one. Redis keeps nothing
// for a subscriber, so the messages published while it was away are
// lost. The broker logs the loss and the return.
type Redis struct {
	client  *redis.Client
	channel string
	log     *slog.Logger
	ping    time.Duration // redisPing; shorter in tests

	mu     sync.Mutex
	pubsub *redis.PubSub
	stop   context.CancelFunc
	done   chan struct{}
}

// redisPing is how long the subscription waits for a message before it
// pings Redis, so that a dead connection shows.
const redisPing = 30 * time.Second

// redisRetry is the wait between two attempts to reach Redis again.
const redisRetry = time.Second

// Channel is the Redis channel of the relays of prefix.
func Channel(prefix string) string { return prefix + ":messages" }

// OpenRedis returns the Redis Broker of the server at url (redis:// or
// rediss://, as go-redis reads it) and the channel of prefix. It does
// not connect: Subscribe does. Errors: a URL go-redis cannot read, an
// empty prefix.
func OpenRedis(url, prefix string, log *slog.Logger) (*Redis, error) {
	if prefix == "" {
		return nil, errors.New("realtime: the Redis channel needs a prefix")
	}
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("REDIS_URL: %w", err)
	}
	if log == nil {
		log = slog.Default()
	}
	return &Redis{client: redis.NewClient(opt), channel: Channel(prefix), log: log, ping: redisPing}, nil
}

// Subscribe implements Broker: it subscribes to the channel and waits for
// Redis to confirm, then hands every message to deliver from a goroutine
// of its own until Close.
func (b *Redis) Subscribe(ctx context.Context, deliver func([]byte)) error {
	ps := b.client.Subscribe(ctx, b.channel)
	if _, err := ps.Receive(ctx); err != nil { // the confirmation (*redis.Subscription)
		_ = ps.Close()
		return fmt.Errorf("subscribe to redis channel %s: %w", b.channel, err)
	}
	rctx, stop := context.WithCancel(context.Background())
	b.mu.Lock()
	b.pubsub, b.stop, b.done = ps, stop, make(chan struct{})
	b.mu.Unlock()
	go b.receive(rctx, ps, deliver)
	return nil
}

// receive hands the messages of ps to deliver until ctx ends.
func (b *Redis) receive(ctx context.Context, ps *redis.PubSub, deliver func([]byte)) {
	defer close(b.done)
	defer func() { _ = ps.Close() }() // the last one, which Close may not know of
	lost := false
	awaiting := false // a ping went out and nothing came back since
	gone := func(err error) {
		if !lost {
			b.log.Warn("realtime: redis subscription lost; reconnecting, messages published meanwhile are lost", "channel", b.channel, "err", err)
			lost = true
		}
	}
	for {
		msg, err := ps.ReceiveTimeout(ctx, b.ping)
		if ctx.Err() != nil {
			return
		}
		var ne net.Error
		switch {
		case errors.As(err, &ne) && ne.Timeout() && awaiting:
			// Not even the pong came back: the connection is dead though
			// it looks open. Subscribe again on a new one.
			gone(errors.New("no answer to a ping"))
			ps = b.resubscribe(ctx, ps)
			awaiting = false
			continue
		case errors.As(err, &ne) && ne.Timeout():
			if err := ps.Ping(ctx); err != nil {
				gone(err)
				continue
			}
			awaiting = true
			continue
		case err != nil:
			gone(err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(redisRetry):
			}
			continue
		}
		awaiting = false
		switch m := msg.(type) {
		case *redis.Message:
			deliver([]byte(m.Payload))
		case *redis.Subscription:
			if lost {
				b.log.Info("realtime: redis subscription back", "channel", b.channel)
				lost = false
			}
		}
	}
}

// resubscribe closes old and subscribes again on a new connection; the
// confirmation arrives as the next message of the one it returns.
func (b *Redis) resubscribe(ctx context.Context, old *redis.PubSub) *redis.PubSub {
	_ = old.Close()
	ps := b.client.Subscribe(ctx, b.channel)
	b.mu.Lock()
	if b.pubsub == old {
		b.pubsub = ps
	}
	b.mu.Unlock()
	return ps
}

// Publish implements Broker.
func (b *Redis) Publish(ctx context.Context, msg []byte) error {
	if err := b.client.Publish(ctx, b.channel, msg).Err(); err != nil {
		return fmt.Errorf("publish to redis channel %s: %w", b.channel, err)
	}
	return nil
}

// Close implements Broker: it ends the subscription, waits for its
// goroutine, and closes the client.
func (b *Redis) Close() error {
	b.mu.Lock()
	ps, stop, done := b.pubsub, b.stop, b.done
	b.pubsub = nil
	b.mu.Unlock()
	if ps != nil {
		stop()
		_ = ps.Close()
		<-done
	}
	return b.client.Close()
}
