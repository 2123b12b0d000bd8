package realtime

import "time"

// SetPing sets how long b's subscription waits for a message before it
// pings Redis.
func SetPing(b *Redis, d time.Duration) { b.ping = d }
