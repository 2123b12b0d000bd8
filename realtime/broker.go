package realtime

import (
	"context"
	"sync"
)

// Broker carries the relay's messages to every relay that shares it, the
// publishing one included: Memory for one instance, Redis for several.
type Broker interface {
	// Subscribe starts handing deliver every message published through
	// the broker, from one goroutine at a time, and returns once it is
	// subscribed: every message published after it returns is delivered
	// (while the broker's connection holds). Errors: the subscription
	// could not be made.
	Subscribe(ctx context.Context, deliver func(msg []byte)) error
	// Publish hands msg to every subscriber. Errors: the broker could not
	// take it (ctx ended, connection lost); the message is lost.
	Publish(ctx context.Context, msg []byte) error
	// Close ends the subscription and releases the broker's connections.
	Close() error
}

// Memory is the Broker of a single instance: Publish delivers at once, in
// the publisher's goroutine.
type Memory struct {
	mu      sync.Mutex
	deliver func([]byte)
}

// NewMemory returns an in-memory Broker.
func NewMemory() *Memory { return &Memory{} }

// Subscribe implements Broker.
func (m *Memory) Subscribe(_ context.Context, deliver func([]byte)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.deliver = deliver
	return nil
}

// Publish implements Broker; it never fails.
func (m *Memory) Publish(_ context.Context, msg []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.deliver != nil {
		m.deliver(msg)
	}
	return nil
}

// Close implements Broker.
func (m *Memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.deliver = nil
	return nil
}
