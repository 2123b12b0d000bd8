package club

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metricsTimeout bounds the queries of one scrape of the backlogs.
const metricsTimeout = 2 * time.Second

var (
	outboxDesc = prometheus.NewDesc("clubhouse_ledger_outbox_waiting",
		"Postings (payments and ticket movements) in the outbox not posted to the ledger yet.", nil, nil)
	pushDesc = prometheus.NewDesc("clubhouse_push_deliveries",
		"Push deliveries waiting to be sent (pending) and those that failed for good (failed).", []string{"status"}, nil)
	mailDesc = prometheus.NewDesc("clubhouse_mail_messages",
		"Outgoing e-mail waiting to be sent, retries among them (pending), and that which failed for good (failed).", []string{"status"}, nil)
	gatewayDesc = prometheus.NewDesc("clubhouse_gateway_events",
		"Payment gateway notifications waiting to be settled, retries among them (due), and those given up after every retry (given_up).",
		[]string{"status"}, nil)
	expiryDesc = prometheus.NewDesc("clubhouse_tickets_due_to_expire",
		"Available tickets whose time is up, which the next round of the ticket expiry expires.", nil, nil)
	backlogErrorsDesc = prometheus.NewDesc("clubhouse_backlog_scrape_errors",
		"Backlogs that could not be read in this scrape (the database did not answer in time).", nil, nil)
)

// Metrics returns the collector of the backlogs of the club's jobs, read
// from the database at each scrape: the ledger outbox (with a ledger),
// the push deliveries and e-mail messages pending and failed, the
// payment gateway's notifications due and given up, and the tickets due
// to expire.
func (s *Services) Metrics() prometheus.Collector { return backlogs{s} }

// backlogs collects the backlogs of a club's jobs.
type backlogs struct{ s *Services }

func (b backlogs) Describe(ch chan<- *prometheus.Desc) {
	ch <- outboxDesc
	ch <- pushDesc
	ch <- mailDesc
	ch <- gatewayDesc
	ch <- expiryDesc
	ch <- backlogErrorsDesc
}

// Collect reads each backlog; one the database does not give within
// metricsTimeout is left out and counted in clubhouse_backlog_scrape_errors,
// so that a scrape still answers while the database is down.
func (b backlogs) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), metricsTimeout)
	defer cancel()
	failed := 0
	gauge := func(d *prometheus.Desc, n int, err error, labels ...string) {
		if err != nil {
			failed++
			return
		}
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, float64(n), labels...)
	}
	if b.s.Poster != nil {
		n, err := b.s.Poster.Backlog(ctx)
		gauge(outboxDesc, n, err)
	}
	pending, dead, err := b.s.Push.Backlog(ctx)
	gauge(pushDesc, pending, err, "pending")
	if err == nil {
		gauge(pushDesc, dead, nil, "failed")
	}
	pending, dead, err = b.s.Mail.Backlog(ctx)
	gauge(mailDesc, pending, err, "pending")
	if err == nil {
		gauge(mailDesc, dead, nil, "failed")
	}
	pending, dead, err = b.s.Payments.NotificationBacklog(ctx)
	gauge(gatewayDesc, pending, err, "due")
	if err == nil {
		gauge(gatewayDesc, dead, nil, "given_up")
	}
	n, err := b.s.Expirer.Due(ctx)
	gauge(expiryDesc, n, err)
	ch <- prometheus.MustNewConstMetric(backlogErrorsDesc, prometheus.GaugeValue, float64(failed))
}
