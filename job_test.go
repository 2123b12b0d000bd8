package clubhouse_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
)

// TestEvery: a periodic job works at once, returns nil when its context
// ends, and fails with the first error of a round.
func TestEvery(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	rounds := 0
	job := clubhouse.Every("tick", time.Hour, func(context.Context) error {
		rounds++
		cancel() // the first round ends the job's context
		return nil
	})
	assert.Equal(t, "tick", job.Name)
	require.NoError(t, job.Run(ctx))
	assert.Equal(t, 1, rounds, "the first round runs at once")

	errDown := errors.New("down")
	err := clubhouse.Every("fail", time.Hour, func(context.Context) error { return errDown }).Run(t.Context())
	require.ErrorIs(t, err, errDown)

	ctx, cancel = context.WithCancel(t.Context())
	err = clubhouse.Every("late", time.Hour, func(context.Context) error { cancel(); return errDown }).Run(ctx)
	assert.NoError(t, err, "an error after the context ended is not a failure")
}

// TestRepeat: a round runs at once and again whenever wake receives.
func TestRepeat(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	wake := make(chan struct{})
	rounds := make(chan int, 3)
	n := 0
	done := make(chan error)
	go func() {
		done <- clubhouse.Repeat(ctx, time.Hour, wake, func(context.Context) error {
			n++
			rounds <- n
			return nil
		})
	}()
	assert.Equal(t, 1, <-rounds)
	wake <- struct{}{}
	assert.Equal(t, 2, <-rounds, "woken, not waiting for the hour")
	cancel()
	assert.NoError(t, <-done)
}
