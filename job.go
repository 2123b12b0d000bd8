package clubhouse

import (
	"context"
	"time"
)

// Job is a piece of a club's background work (posting to the ledger,
// expiring tickets, sending notifications, a purge, a watch), declared by
// the domain that owns it and run by whoever composes the club: clubd runs
// every job under one supervisor, which restarts a job that fails.
//
// Run works until ctx ends and then returns nil; an error means the job
// failed and stopped, and may be run again.
type Job struct {
	Name string // short and stable, in snake case: the job's label in logs, /health and /metrics
	run  func(ctx context.Context) error
}

// NewJob returns the job name that runs run.
func NewJob(name string, run func(ctx context.Context) error) Job {
	return Job{Name: name, run: run}
}

// Every returns the job name that calls once at its start and then every
// interval until its context ends. The first error of once ends the run
// with that error (unless the context ended meanwhile), so that a failing
// round shows as a failed job and is tried again by the supervisor.
func Every(name string, interval time.Duration, once func(ctx context.Context) error) Job {
	return NewJob(name, func(ctx context.Context) error {
		return Repeat(ctx, interval, nil, once)
	})
}

// Repeat calls once at once, then every interval and whenever wake
// receives (nil: never), until ctx ends, when it returns nil. It returns
// the first error of once while ctx lasts. Every is Repeat without a wake.
func Repeat(ctx context.Context, interval time.Duration, wake <-chan struct{}, once func(ctx context.Context) error) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if err := once(ctx); err != nil && ctx.Err() == nil {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-wake:
		}
	}
}

// Run runs the job until ctx ends (nil) or it fails (its error). The zero
// Job returns at once.
func (j Job) Run(ctx context.Context) error {
	if j.run == nil {
		return nil
	}
	return j.run(ctx)
}
