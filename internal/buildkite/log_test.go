package buildkite

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// recordingLogger keeps every line logged, by level.
type recordingLogger struct {
	mu    sync.Mutex
	lines []logLine
}

type logLine struct {
	level, msg string
	fields     map[string]any
}

func (l *recordingLogger) Debug(_ context.Context, msg string, fields map[string]any) {
	l.add("DEBUG", msg, fields)
}

func (l *recordingLogger) Trace(_ context.Context, msg string, fields map[string]any) {
	l.add("TRACE", msg, fields)
}

func (l *recordingLogger) add(level, msg string, fields map[string]any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, logLine{level, msg, fields})
}

func (l *recordingLogger) all() []logLine {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]logLine(nil), l.lines...)
}

// TestLog_agentTokenCreateLogsNoSecret: the TRACE log of creating an agent token holds neither the token's
// value nor the API token, and DEBUG has one line per attempt with what it is for.
func TestLog_agentTokenCreateLogsNoSecret(t *testing.T) {
	const secret = "bkct_s3cr3t-agent-token"
	s := newStub(t, creating(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("RateLimit-Remaining", "41")
		respond(http.StatusCreated, `{"id":"t1","description":"ci","token":"`+secret+`",
			"nested":{"registration_token":"`+secret+`","list":[{"webhook_secret":"`+secret+`"}]}}`)(w, r)
	}))
	log := &recordingLogger{}
	c := newTestClient(t, s.srv.URL, func(c *Config) { c.Logger = log; c.Token = "bkua_api-token-value" })
	got, err := c.ClusterTokens.Create(context.Background(), "c1", ClusterTokenCreate{Description: "ci"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Token != secret {
		t.Fatalf("token = %q: the caller must still get the secret", got.Token)
	}

	lines := log.all()
	var debug, trace int
	for _, l := range lines {
		text := fmt.Sprint(l.msg, l.fields)
		if strings.Contains(text, secret) || strings.Contains(text, "bkua_api-token-value") {
			t.Errorf("%s line leaks a secret: %s", l.level, text)
		}
		if l.fields["method"] == http.MethodGet || l.fields["status"] == http.StatusNotFound {
			continue // the listing made before the create, to tell what it makes should its answer be lost
		}
		switch l.level {
		case "DEBUG":
			debug++
			want := map[string]any{"method": "POST", "path": "/v2/organizations/acme/clusters/c1/tokens",
				"status": 201, "attempt": int32(1), "ratelimit_remaining": "41"}
			for k, v := range want {
				if l.fields[k] != v {
					t.Errorf("DEBUG field %s = %#v, want %#v", k, l.fields[k], v)
				}
			}
			if _, ok := l.fields["duration_ms"]; !ok {
				t.Error("DEBUG line has no duration_ms")
			}
		case "TRACE":
			trace++
			if body, _ := l.fields["body"].(string); !strings.Contains(body, `"description":"ci"`) {
				t.Errorf("TRACE body = %q, want the non-secret fields kept", body)
			}
		}
	}
	if debug != 1 || trace != 2 {
		t.Errorf("%d DEBUG and %d TRACE lines, want 1 and 2 (request and response bodies)", debug, trace)
	}
}

// TestLog_everyAttempt: a retried call logs each attempt with its number.
func TestLog_everyAttempt(t *testing.T) {
	s := newStub(t, failThen(2, http.StatusBadGateway, `{"id":"c1"}`))
	log := &recordingLogger{}
	c := newTestClient(t, s.srv.URL, func(c *Config) { c.Logger = log })
	if _, err := c.Clusters.Get(context.Background(), "c1"); err != nil {
		t.Fatal(err)
	}
	var attempts []string
	for _, l := range log.all() {
		if l.level == "DEBUG" {
			attempts = append(attempts, fmt.Sprint(l.fields["attempt"], ":", l.fields["status"]))
		}
	}
	if got := strings.Join(attempts, " "); got != "1:502 2:502 3:200" {
		t.Errorf("attempts logged = %q", got)
	}
}

func TestMaskBody(t *testing.T) {
	cases := map[string]string{
		`{"token":"a","api_token":"b","Access_Token":"c","client_secret":"d","name":"n","token_count":3}`: `{"Access_Token":"***","api_token":"***","client_secret":"***","name":"n","token":"***","token_count":3}`,
		`[{"x":{"secret":"s","token":null}}]`: `[{"x":{"secret":"***","token":null}}]`,
		`{"n":12345678901234567890}`:          `{"n":12345678901234567890}`,
		`<html>Bad   gateway</html>`:          `<html>Bad gateway</html>`,
	}
	for in, want := range cases {
		if got := maskBody([]byte(in), []string{"test-token"}); got != want {
			t.Errorf("maskBody(%s) = %s, want %s", in, got, want)
		}
	}
}
