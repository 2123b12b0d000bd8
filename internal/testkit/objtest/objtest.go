// Package objtest gives each test its own S3-compatible server: a
// versitygw process (posix backend over a temporary directory) on a free
// loopback port, with random root credentials and one bucket, stopped when
// the test ends. Requests to it are real SigV4-signed S3 requests.
//
// versitygw is installed by `.ci/services test` (make services-test) at Version; the
// binary is looked up on PATH, then in GOBIN and GOPATH/bin, and must be a
// build of that version.
package objtest

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/objstore"
	"github.com/clubhouse-go/clubhouse/internal/testkit/gobin"
)

// Version is the versitygw release the tests run against; .ci/services
// installs the same one.
const Version = "v1.8.0"

// Bucket is the bucket every server starts with.
const Bucket = "receipts"

// startTimeout bounds the wait for versitygw to listen (it takes about 40ms).
const startTimeout = 15 * time.Second

// New starts a versitygw server for tb, creates Bucket, and returns the
// configuration that reaches it with path-style addressing. The server and
// its files go away when tb ends.
func New(tb testing.TB) objstore.Config {
	tb.Helper()
	bin := gobin.Find(tb, "versitygw", "github.com/versity/versitygw/cmd/versitygw", Version)
	dir := tb.TempDir()
	cfg := objstore.Config{
		Bucket: Bucket, AccessKeyID: "AK" + rand.Text()[:18], SecretAccessKey: rand.Text() + rand.Text(),
		Region: objstore.DefaultRegion, UsePathStyle: true,
	}
	var err error
	// A port found free can be taken before versitygw binds it, by
	// another test's versitygw even, which then answers in its place with
	// other credentials: try again on another port until the bucket is
	// made with ours.
	for range 3 {
		if cfg.Endpoint, err = start(tb, bin, dir, cfg); err != nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		err = Store(tb, cfg).EnsureBucket(ctx)
		cancel()
		if err == nil {
			break
		}
	}
	if err != nil {
		tb.Fatalf("objtest: start versitygw and create its bucket: %v", err)
	}
	return cfg
}

// Store returns a Store of cfg.
func Store(tb testing.TB, cfg objstore.Config) *objstore.Store {
	tb.Helper()
	st, err := objstore.New(context.Background(), cfg)
	if err != nil {
		tb.Fatalf("objtest: %v", err)
	}
	return st
}

// Keys lists every object in cfg's bucket.
func Keys(tb testing.TB, cfg objstore.Config) []string {
	tb.Helper()
	keys, err := Store(tb, cfg).Keys(context.Background(), "")
	if err != nil {
		tb.Fatalf("objtest: list: %v", err)
	}
	return keys
}

// start runs versitygw on a free loopback port and waits until it accepts
// connections; it returns the endpoint. The process is killed when tb ends.
func start(tb testing.TB, bin, dir string, cfg objstore.Config) (string, error) {
	tb.Helper()
	port, err := freePort()
	if err != nil {
		return "", err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	var out strings.Builder
	cmd := exec.Command(bin, "--port", addr, "--region", cfg.Region, "--quiet", "posix", dir)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY="+cfg.AccessKeyID, "ROOT_SECRET_KEY="+cfg.SecretAccessKey)
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		return "", err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		_ = cmd.Process.Kill()
		<-exited
	}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(startTimeout)
	for {
		if c, err := net.Dial("tcp", addr); err == nil {
			_ = c.Close()
			tb.Cleanup(stop)
			return "http://" + addr, nil
		}
		select {
		case err := <-exited:
			return "", fmt.Errorf("versitygw exited (%v): %s", err, out.String())
		case <-deadline:
			stop()
			return "", errors.New("versitygw did not listen within " + startTimeout.String())
		case <-tick.C:
		}
	}
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
