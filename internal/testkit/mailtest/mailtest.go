// Package mailtest gives each test its own SMTP server: a Mailpit process
// (github.com/axllent/mailpit) on free loopback ports, with chaos enabled,
// stopped when the test ends. The test sends to it over real SMTP (its
// SMTPURL is what SMTP_URL names) and reads what arrived through
// Mailpit's API: the messages, each with its text and HTML parts.
//
// Mailpit is installed by `.ci/services` at Version; the binary is looked
// up on PATH, then in GOBIN and GOPATH/bin, and must be a build of that
// version.
package mailtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clubhouse-go/clubhouse/internal/testkit/gobin"
)

// Version is the Mailpit release the tests run against; .ci/services
// installs the same one.
const Version = "v1.33.1"

// startTimeout bounds the wait for Mailpit to listen.
const startTimeout = 15 * time.Second

// Server is one Mailpit of a test.
type Server struct {
	SMTPURL string // smtp://127.0.0.1:port, for SMTP_URL
	API     string // http://127.0.0.1:port, Mailpit's web page and API
	bin     string
	dir     string
	smtp    string // host:port
	http    string // host:port
	stop    func()
}

// New starts a Mailpit for tb. It goes away when tb ends.
func New(tb testing.TB) *Server {
	tb.Helper()
	s := &Server{bin: gobin.Find(tb, "mailpit", "github.com/axllent/mailpit", Version), dir: tb.TempDir()}
	var err error
	// A port found free can be taken before Mailpit binds it; try again.
	for range 3 {
		if s.smtp, err = freeAddr(); err != nil {
			continue
		}
		if s.http, err = freeAddr(); err != nil {
			continue
		}
		if err = s.start(tb); err == nil {
			break
		}
	}
	if err != nil {
		tb.Fatalf("mailtest: start Mailpit: %v", err)
	}
	s.SMTPURL, s.API = "smtp://"+s.smtp, "http://"+s.http
	return s
}

// Stop stops the server, as a mail server that went down: nothing
// listens on its SMTP port until Start. What it received is kept.
func (s *Server) Stop(tb testing.TB) {
	tb.Helper()
	if s.stop != nil {
		s.stop()
		s.stop = nil
	}
}

// Start starts a stopped server again on the same ports.
func (s *Server) Start(tb testing.TB) {
	tb.Helper()
	if s.stop != nil {
		return
	}
	if err := s.start(tb); err != nil {
		tb.Fatalf("mailtest: start Mailpit again: %v", err)
	}
}

// start runs Mailpit on s's ports and waits until both accept
// connections.
func (s *Server) start(tb testing.TB) error {
	var out bytes.Buffer
	cmd := exec.Command(s.bin, "--smtp", s.smtp, "--listen", s.http, "--database", filepath.Join(s.dir, "mailpit.db"),
		"--enable-chaos", "--quiet", "--disable-version-check", "--max", "5000")
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			_ = cmd.Process.Kill()
			<-exited
		}
	}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(startTimeout)
	for {
		if listening(s.smtp) && listening(s.http) {
			s.stop = stop
			tb.Cleanup(stop)
			return nil
		}
		select {
		case err := <-exited:
			stopped = true
			return fmt.Errorf("mailpit exited (%v): %s", err, out.String())
		case <-deadline:
			stop()
			return errors.New("mailpit did not listen within " + startTimeout.String())
		case <-tick.C:
		}
	}
}

func listening(addr string) bool {
	c, err := net.Dial("tcp", addr)
	if err == nil {
		_ = c.Close()
	}
	return err == nil
}

// Address is a sender or recipient as Mailpit reads it.
type Address struct {
	Name    string `json:"Name"`
	Address string `json:"Address"`
}

// Message is a message Mailpit received: its summary, and, from Read,
// its parts.
type Message struct {
	ID        string    `json:"ID"`
	MessageID string    `json:"MessageID"`
	From      Address   `json:"From"`
	To        []Address `json:"To"`
	Subject   string    `json:"Subject"`
	Text      string    `json:"Text"` // from Read
	HTML      string    `json:"HTML"` // from Read
}

// Messages returns every message received, newest first, without their
// parts.
func (s *Server) Messages(tb testing.TB) []Message {
	tb.Helper()
	var page struct {
		Messages []Message `json:"messages"`
	}
	s.get(tb, "/api/v1/messages?limit=5000", &page)
	return page.Messages
}

// To returns the messages received for address, oldest first, with
// their parts.
func (s *Server) To(tb testing.TB, address string) []Message {
	tb.Helper()
	var out []Message
	all := s.Messages(tb)
	for i := len(all) - 1; i >= 0; i-- {
		for _, to := range all[i].To {
			if strings.EqualFold(to.Address, address) {
				out = append(out, s.Read(tb, all[i].ID))
			}
		}
	}
	return out
}

// Wait waits up to timeout for n messages to address and returns them,
// oldest first, with their parts; it fails tb when fewer arrive.
func (s *Server) Wait(tb testing.TB, address string, n int, timeout time.Duration) []Message {
	tb.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got := s.To(tb, address)
		if len(got) >= n || time.Now().After(deadline) {
			if len(got) < n {
				tb.Fatalf("mailtest: %d message(s) to %s within %s, want %d", len(got), address, timeout, n)
			}
			return got
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Read returns the message with Mailpit's id, with its parts.
func (s *Server) Read(tb testing.TB, id string) Message {
	tb.Helper()
	var m Message
	s.get(tb, "/api/v1/message/"+url.PathEscape(id), &m)
	return m
}

// Chaos makes the SMTP server answer code to every RCPT TO (a 4xx: try
// again later; a 5xx: refused), or, with code 0, stops doing so.
func (s *Server) Chaos(tb testing.TB, code int) {
	tb.Helper()
	probability := 100
	if code == 0 {
		code, probability = 451, 0
	}
	body := fmt.Sprintf(`{"Recipient":{"ErrorCode":%d,"Probability":%d}}`, code, probability)
	req, err := http.NewRequest(http.MethodPut, s.API+"/api/v1/chaos", strings.NewReader(body))
	if err != nil {
		tb.Fatalf("mailtest: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("mailtest: chaos: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("mailtest: chaos answered %s", resp.Status)
	}
}

func (s *Server) get(tb testing.TB, path string, into any) {
	tb.Helper()
	resp, err := http.Get(s.API + path)
	if err != nil {
		tb.Fatalf("mailtest: GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("mailtest: GET %s answered %s", path, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(into); err != nil {
		tb.Fatalf("mailtest: GET %s: %v", path, err)
	}
}

// freeAddr returns a loopback address whose port was free a moment ago.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
