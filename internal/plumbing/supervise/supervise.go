// Package supervise runs the background jobs of a server (clubhouse.Job):
// it starts them, turns a panic into a failure, reports each failure,
// restarts a failed job after a wait that doubles from a second to a
// minute, records whether each job is up and how often it restarted (for
// /health and /metrics), and on shutdown waits for every job to return.
package supervise

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/clubhouse-go/clubhouse"
)

// The waits before a failed job runs again: the first is MinBackoff, each
// next one twice the last, at most MaxBackoff. A job that ran for
// MaxBackoff or longer before it failed starts again from MinBackoff.
const (
	MinBackoff = time.Second
	MaxBackoff = time.Minute
)

// ErrReturned is the failure of a job whose Run returned nil before its
// context ended: a job works until shutdown.
var ErrReturned = errors.New("the job returned before shutdown")

// State is what a supervised job is doing.
type State string

// The states of a job.
const (
	Up         State = "up"         // running
	Restarting State = "restarting" // failed, waiting to run again
	Stopped    State = "stopped"    // not running: its supervisor's context ended, or it never started
)

// Status is the state of one job.
type Status struct {
	Job      string
	State    State
	Restarts int // how many times it was run again after a failure
}

// Options are the settings of a Supervisor; the zero value is clubd's.
type Options struct {
	// Report receives each failure of a job (its error, or a panic with
	// its stack), before the job is run again; nil: none.
	Report func(job string, err error)
	// MinBackoff and MaxBackoff bound the wait before a restart; zero:
	// the package's constants.
	MinBackoff, MaxBackoff time.Duration
	// After waits before a restart, as time.After (nil) does; Now is the
	// clock that times a run, time.Now when nil.
	After func(time.Duration) <-chan time.Time
	Now   func() time.Time
}

// Supervisor runs jobs and keeps their states. Its methods may be called
// concurrently.
type Supervisor struct {
	o Options

	mu      sync.Mutex
	jobs    map[string]*Status
	order   []string        // the jobs' names in the order they were given
	running map[string]bool // the jobs being run, by name
}

// New returns a Supervisor with options o.
func New(o Options) *Supervisor {
	if o.Report == nil {
		o.Report = func(string, error) {}
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = MinBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = MaxBackoff
	}
	if o.After == nil {
		o.After = time.After
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Supervisor{o: o, jobs: map[string]*Status{}, running: map[string]bool{}}
}

// Run runs jobs, each on a goroutine of its own and again after each
// failure, until ctx ends; then it waits for every job to return, and
// returns. A job is known to Status from the call on, under its name,
// which must differ from that of every other job it runs. Run
// may be called more than once, with other jobs, or with a job again once
// it stopped; it panics when a job of the same name is running.
func (s *Supervisor) Run(ctx context.Context, jobs ...clubhouse.Job) {
	var wg sync.WaitGroup
	for _, j := range jobs {
		st := s.add(j.Name)
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.supervise(ctx, j, st)
		}()
	}
	wg.Wait()
}

// add records a job named name as about to run, and returns its status.
// It panics when a job of that name runs already: two copies of one job
// would share one status, and the first to stop would report the other
// stopped too.
func (s *Supervisor) add(name string) *Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.jobs[name]
	if !ok {
		st = &Status{Job: name, State: Stopped}
		s.jobs[name] = st
		s.order = append(s.order, name)
	}
	if s.running[name] {
		panic(fmt.Sprintf("supervise: job %q is running already", name))
	}
	s.running[name] = true
	return st
}

// supervise runs j until ctx ends, again after each failure.
func (s *Supervisor) supervise(ctx context.Context, j clubhouse.Job, st *Status) {
	defer s.stopped(st)
	wait := s.o.MinBackoff
	for ctx.Err() == nil {
		s.set(st, Up, false)
		start := s.o.Now()
		err := run(ctx, j)
		if ctx.Err() != nil {
			// A failure that lands as the shutdown begins is still one.
			if err != nil && !errors.Is(err, context.Canceled) {
				s.o.Report(j.Name, err)
			}
			return
		}
		if err == nil {
			err = ErrReturned
		}
		s.set(st, Restarting, false)
		s.o.Report(j.Name, err)
		if s.o.Now().Sub(start) >= s.o.MaxBackoff {
			wait = s.o.MinBackoff
		}
		select {
		case <-ctx.Done():
			return
		case <-s.o.After(wait):
		}
		wait = min(2*wait, s.o.MaxBackoff)
		s.set(st, Restarting, true)
	}
}

// run runs j once, turning a panic into its error.
func run(ctx context.Context, j clubhouse.Job) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("panic: %v\n%s", v, debug.Stack())
		}
	}()
	return j.Run(ctx)
}

// stopped records that the job of st stopped, and may be run again.
func (s *Supervisor) stopped(st *Status) {
	s.set(st, Stopped, false)
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.running, st.Job)
}

// set records the state of st, and one more restart when restart is set.
func (s *Supervisor) set(st *Status, state State, restart bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st.State = state
	if restart {
		st.Restarts++
	}
}

// Status returns the state of every job the Supervisor was given, in the
// order it was given them.
func (s *Supervisor) Status() []Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Status, len(s.order))
	for i, name := range s.order {
		out[i] = *s.jobs[name]
	}
	return out
}

var (
	upDesc       = prometheus.NewDesc("clubhouse_job_up", "1 while the background job runs, 0 while it waits to restart or has stopped.", []string{"job"}, nil)
	restartsDesc = prometheus.NewDesc("clubhouse_job_restarts_total", "Times the background job was run again after a failure.", []string{"job"}, nil)
)

// Describe implements prometheus.Collector.
func (s *Supervisor) Describe(ch chan<- *prometheus.Desc) {
	ch <- upDesc
	ch <- restartsDesc
}

// Collect implements prometheus.Collector: clubhouse_job_up and
// clubhouse_job_restarts_total of each job.
func (s *Supervisor) Collect(ch chan<- prometheus.Metric) {
	for _, st := range s.Status() {
		up := 0.0
		if st.State == Up {
			up = 1
		}
		ch <- prometheus.MustNewConstMetric(upDesc, prometheus.GaugeValue, up, st.Job)
		ch <- prometheus.MustNewConstMetric(restartsDesc, prometheus.CounterValue, float64(st.Restarts), st.Job)
	}
}
