package app

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/realtime"
)

// registry returns the metrics of a: the Go runtime and the process, the
// main database's pools, the club's backlogs (club.Services.Metrics), the
// states of the jobs (supervise.Supervisor) and the realtime relay when
// it runs. The API records its requests in it and serves it at /metrics.
func (a *App) registry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		a.Services.Metrics(), a.Supervisor)
	if a.DB != nil {
		reg.MustRegister(collectors.NewDBStatsCollector(a.DB.DB.DB, "main"), poolCollector{db: a.DB})
	}
	if a.Relay != nil {
		reg.MustRegister(relayCollector{a.Relay})
	}
	return reg
}

// poolCollector exports the statistics of the pgx pool.
type poolCollector struct{ db *sqldb.DB }

var (
	poolTotal    = prometheus.NewDesc("clubhouse_db_pool_connections", "Connections in the pgx pool by state.", []string{"state"}, nil)
	poolMax      = prometheus.NewDesc("clubhouse_db_pool_max_connections", "Maximum size of the pgx pool.", nil, nil)
	poolAcquires = prometheus.NewDesc("clubhouse_db_pool_acquires_total", "Connections acquired from the pgx pool.", nil, nil)
	poolWait     = prometheus.NewDesc("clubhouse_db_pool_acquire_wait_seconds_total", "Time spent waiting for a pool connection.", nil, nil)
)

func (poolCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- poolTotal
	ch <- poolMax
	ch <- poolAcquires
	ch <- poolWait
}

func (p poolCollector) Collect(ch chan<- prometheus.Metric) {
	st := p.db.Pool.Stat()
	ch <- prometheus.MustNewConstMetric(poolTotal, prometheus.GaugeValue, float64(st.AcquiredConns()), "acquired")
	ch <- prometheus.MustNewConstMetric(poolTotal, prometheus.GaugeValue, float64(st.IdleConns()), "idle")
	ch <- prometheus.MustNewConstMetric(poolTotal, prometheus.GaugeValue, float64(st.ConstructingConns()), "constructing")
	ch <- prometheus.MustNewConstMetric(poolMax, prometheus.GaugeValue, float64(st.MaxConns()))
	ch <- prometheus.MustNewConstMetric(poolAcquires, prometheus.CounterValue, float64(st.AcquireCount()))
	ch <- prometheus.MustNewConstMetric(poolWait, prometheus.CounterValue, st.AcquireDuration().Seconds())
}

// relayCollector exports the realtime relay's counters (realtime.Stats).
type relayCollector struct{ relay *realtime.Relay }

var (
	relayConnections = prometheus.NewDesc("clubhouse_realtime_connections", "Open connections of the realtime relay.", nil, nil)
	relayPublished   = prometheus.NewDesc("clubhouse_realtime_published_total", "Messages the relay took: read from the event log, or published to its broker.", nil, nil)
	relayDelivered   = prometheus.NewDesc("clubhouse_realtime_delivered_total", "Messages queued to connections, one per connection.", nil, nil)
	relayDropped     = prometheus.NewDesc("clubhouse_realtime_dropped_total", "Messages published to the broker and lost: its queue was full or it failed.", nil, nil)
	relaySlow        = prometheus.NewDesc("clubhouse_realtime_slow_closed_total", "Connections closed because they did not read their messages fast enough.", nil, nil)
)

func (relayCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- relayConnections
	ch <- relayPublished
	ch <- relayDelivered
	ch <- relayDropped
	ch <- relaySlow
}

func (c relayCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.relay.Stats()
	ch <- prometheus.MustNewConstMetric(relayConnections, prometheus.GaugeValue, float64(st.Connections))
	ch <- prometheus.MustNewConstMetric(relayPublished, prometheus.CounterValue, float64(st.Published))
	ch <- prometheus.MustNewConstMetric(relayDelivered, prometheus.CounterValue, float64(st.Delivered))
	ch <- prometheus.MustNewConstMetric(relayDropped, prometheus.CounterValue, float64(st.Dropped))
	ch <- prometheus.MustNewConstMetric(relaySlow, prometheus.CounterValue, float64(st.Slow))
}
