package realtime_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/realtime"
)

// testRedis is the Redis of the tests (.ci/services test starts it).
const testRedis = "redis://127.0.0.1:6379/0"

// TestRelay_publishNeverBlocks: with its queue full (no broker takes the
// messages: the relay is not started), Publish drops and counts.
func TestRelay_publishNeverBlocks(t *testing.T) {
	t.Parallel()
	r := realtime.New(realtime.Options{PublishQueue: 2})
	t.Cleanup(r.Close)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 5 {
			r.Publish("booking:changed", map[string]int{"i": i})
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Publish blocked")
	}
	st := r.Stats()
	assert.EqualValues(t, 2, st.Published)
	assert.EqualValues(t, 3, st.Dropped)
}

// TestRedis_channels: brokers of one prefix hear each other from the
// moment Subscribe returns; those of another prefix do not.
func TestRedis_channels(t *testing.T) {
	t.Parallel()
	prefix := fmt.Sprintf("clubhouse-test:%s:%d", t.Name(), time.Now().UnixNano())
	open := func(prefix string) (*realtime.Redis, chan string) {
		b, err := realtime.OpenRedis(testRedis, prefix, nil)
		require.NoError(t, err)
		t.Cleanup(func() { assert.NoError(t, b.Close()) })
		got := make(chan string, 10)
		require.NoError(t, b.Subscribe(context.Background(), func(msg []byte) { got <- string(msg) }))
		return b, got
	}
	a, gotA := open(prefix)
	_, gotB := open(prefix)
	c, gotC := open(prefix + ":other")

	require.NoError(t, a.Publish(context.Background(), []byte("one")))
	require.NoError(t, c.Publish(context.Background(), []byte("other")))
	for _, got := range []chan string{gotA, gotB} {
		select {
		case m := <-got:
			assert.Equal(t, "one", m)
		case <-time.After(5 * time.Second):
			t.Fatal("a subscriber of the prefix heard nothing")
		}
	}
	select {
	case m := <-gotC:
		assert.Equal(t, "other", m, "the other prefix hears only its own")
	case <-time.After(5 * time.Second):
		t.Fatal("the other prefix heard nothing")
	}

	_, err := realtime.OpenRedis(testRedis, "", nil)
	assert.Error(t, err, "a channel needs its prefix")
	_, err = realtime.OpenRedis("http://127.0.0.1:6379", prefix, nil)
	assert.Error(t, err)
}
