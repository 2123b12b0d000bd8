package objtest_test

import (
	"context"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/objstore"
	"github.com/clubhouse-go/clubhouse/internal/testkit/objtest"
)

// TestNew starts a server, uses it, and checks it is gone once its test ends.
func TestNew(t *testing.T) {
	t.Parallel()
	var cfg objstore.Config
	t.Run("server", func(t *testing.T) {
		start := time.Now()
		cfg = objtest.New(t)
		t.Logf("versitygw started with its bucket in %s", time.Since(start))
		assert.Equal(t, objtest.Bucket, cfg.Bucket)
		assert.True(t, cfg.UsePathStyle)
		st := objtest.Store(t, cfg)
		require.NoError(t, st.Check(context.Background()))
		require.NoError(t, st.Put(context.Background(), "a/b.png", "image/png", strings.NewReader("x"), 1))
		assert.Equal(t, []string{"a/b.png"}, objtest.Keys(t, cfg))
	})
	u, err := url.Parse(cfg.Endpoint)
	require.NoError(t, err)
	c, err := net.Dial("tcp", u.Host)
	if err == nil {
		c.Close()
	}
	require.Error(t, err, "the server stops with its test")
}

func TestNew_serversAreIsolated(t *testing.T) {
	t.Parallel()
	a, b := objtest.New(t), objtest.New(t)
	assert.NotEqual(t, a.Endpoint, b.Endpoint)
	assert.NotEqual(t, a.SecretAccessKey, b.SecretAccessKey)
	require.NoError(t, objtest.Store(t, a).Put(context.Background(), "k", "image/png", strings.NewReader("x"), 1))
	assert.Empty(t, objtest.Keys(t, b))
}
