package sqldb

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Listen listens on channel, on a connection of its own opened with pool's
// configuration, until ctx ends (nil) or the connection is lost (its
// error): it calls up(true) once it listens, notify with the payload of
// each notification, and up(false) before it returns (notifications may
// then go unheard until a next Listen calls up(true)). The callbacks run
// on Listen's goroutine, one at a time. A watch runs it as a
// clubhouse.Job, which its supervisor runs again after a failure.
func Listen(ctx context.Context, pool *pgxpool.Pool, channel string, up func(bool), notify func(string)) error {
	err := listen(ctx, pool, channel, up, notify)
	up(false)
	if ctx.Err() != nil {
		return nil
	}
	return fmt.Errorf("listen %s: %w", channel, err)
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
