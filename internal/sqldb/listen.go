package sqldb

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ListenRetry is how long Listen waits before it connects again.
const ListenRetry = time.Second

// Listen keeps a connection of its own, opened with pool's configuration,
// listening on channel until ctx ends: it calls up(true) once it listens,
// notify with the payload of each notification, and up(false) when the
// connection is lost (notifications may then go unheard until up(true)
// again), passing the error to report and connecting again after
// ListenRetry. It returns when ctx ends, after up(false). The callbacks run
// on Listen's goroutine, one at a time.
func Listen(ctx context.Context, pool *pgxpool.Pool, channel string, up func(bool), notify func(string), report func(error)) {
	for {
		err := listen(ctx, pool, channel, up, notify)
		up(false)
		if ctx.Err() != nil {
			return
		}
		report(fmt.Errorf("listen %s: %w", channel, err))
		select {
		case <-ctx.Done():
			return
		case <-time.After(ListenRetry):
		}
	}
}

func listen(ctx context.Context, pool *pgxpool.Pool, channel string, up func(bool), notify func(string)) error {
	conn, err := pgx.ConnectConfig(ctx, pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
		return err
	}
	up(true)
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		notify(n.Payload)
	}
}
