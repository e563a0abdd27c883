package buildkite

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// The configured API token and a token of Buildkite's forms that a proxy's error page may echo.
const (
	configuredToken = "0123456789abcdef-configured-token"
	echoedToken     = "bkua_4f9c2e7d1b3a5c6e8f0a2b4c6d8e0f1a2b3c4d5e"
)

// TestError_nonJSONBodyMasked: an error page that is not JSON (a proxy's HTML) and echoes the configured
// token and a bkua_ token reaches neither the error nor the TRACE log unmasked, and is cut to a bound.
func TestError_nonJSONBodyMasked(t *testing.T) {
	page := "<html><body><h1>502 Bad Gateway</h1><pre>Authorization: Bearer " + configuredToken +
		"\nX-Forwarded-Token: " + echoedToken + "</pre>" + strings.Repeat("<p>padding</p>", 2000) + "</body></html>"
	s := newStub(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusForbidden)
		_, _ = fmt.Fprint(w, page)
	})
	log := &recordingLogger{}
	c := newTestClient(t, s.srv.URL, func(c *Config) { c.Logger = log; c.Token = configuredToken })
	_, err := c.Clusters.Get(context.Background(), "c1")
	if err == nil {
		t.Fatal("a 403 page was taken as a cluster")
	}
	text := err.Error()
	for _, secret := range []string{configuredToken, echoedToken, echoedToken[:20]} {
		if strings.Contains(text, secret) {
			t.Errorf("the error holds %q: %s", secret, text)
		}
	}
	if !strings.Contains(text, "502 Bad Gateway") || !strings.Contains(text, "bkua_***") {
		t.Errorf("the error lost what the page said, or does not show where a token was masked: %s", text)
	}
	if len(text) > 600 {
		t.Errorf("the error is %d characters long; a body must be cut to a bound", len(text))
	}
	traced := 0
	for _, l := range log.all() {
		line := fmt.Sprint(l.msg, l.fields)
		for _, secret := range []string{configuredToken, echoedToken, echoedToken[:20]} {
			if strings.Contains(line, secret) {
				t.Errorf("%s line holds %q: %.300s", l.level, secret, line)
			}
		}
		if l.level == "TRACE" {
			traced++
		}
	}
	if traced == 0 {
		t.Error("the response body was not logged at TRACE")
	}
}

// TestError_jsonMessageMasked: a JSON error whose message echoes a token is masked as well; secret
// fields were already.
func TestError_jsonMessageMasked(t *testing.T) {
	s := newStub(t, respond(http.StatusUnauthorized, `{"message":"Token `+configuredToken+` is not valid; nor is `+echoedToken+`"}`))
	c := newTestClient(t, s.srv.URL, func(c *Config) { c.Token = configuredToken })
	_, err := c.Clusters.Get(context.Background(), "c1")
	if err == nil {
		t.Fatal("a 401 was taken as a cluster")
	}
	if text := err.Error(); strings.Contains(text, configuredToken) || strings.Contains(text, echoedToken) {
		t.Errorf("the error holds a token: %s", text)
	}
}

// TestError_longInputShortened: an ID of 100,000 characters is not echoed whole in the error of a call
// that names it, in its path or in the service's message.
func TestError_longInputShortened(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	s := newStub(t, respond(http.StatusNotFound, `{"message":"No cluster `+long+` found"}`))
	c := newTestClient(t, s.srv.URL)
	_, err := c.Clusters.Get(context.Background(), long)
	if err == nil {
		t.Fatal("found")
	}
	text := err.Error()
	if len(text) > 1000 {
		t.Errorf("the error is %d characters long: %.200s…", len(text), text)
	}
	if !strings.Contains(text, "/v2/organizations/acme/clusters/xxxx") || !strings.Contains(text, "100000 characters") {
		t.Errorf("the shortened error does not say what was asked and how long it was: %s", text)
	}
	if !IsNotFound(err) {
		t.Error("the shortened error is no longer a 404")
	}
}

func TestMaskText(t *testing.T) {
	cases := map[string]string{
		"Bearer " + configuredToken + " denied":           "Bearer *** denied",
		"token bkct_abcdefgh12345678 and bkua_zz99yy88":   "token bkct_*** and bkua_***",
		"authorization: Token abc123def456":               "authorization: Token ***",
		"AUTHORIZATION=BEARER abcdefghijkl":               "AUTHORIZATION=BEARER ***",
		"sent bearer abcdefghijkl to":                     "sent bearer *** to",
		"no secret in bk_ here, nor in bkua_":             "no secret in bk_ here, nor in bkua_",
		"commit 0123456789abcdef0123456789abcdef01234567": "commit 0123456789abcdef0123456789abcdef01234567",
	}
	for in, want := range cases {
		if got := maskText(in, configuredToken); got != want {
			t.Errorf("maskText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestError_htmlTokenParameterMasked: a proxy's 502 page that echoes the request with token=<hex> (and a bare
// run of hex) shows neither in the error nor the TRACE log, and is cut short.
func TestError_htmlTokenParameterMasked(t *testing.T) {
	const hex = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	page := "<html><head><title>502 Bad Gateway</title></head><body><p>upstream failed for " +
		"/v2/organizations/acme/clusters?token=" + hex + "&page=2</p><pre>X-Request-Secret " + hex[:40] + "</pre>" +
		strings.Repeat("<p>padding</p>", 500) + "</body></html>"
	s := newStub(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = fmt.Fprint(w, page)
	})
	log := &recordingLogger{}
	c := newTestClient(t, s.srv.URL, func(c *Config) { c.Logger = log; c.MaxRetries = -1 })
	_, err := c.Clusters.Get(context.Background(), "c1")
	if err == nil {
		t.Fatal("a 502 page was taken as a cluster")
	}
	text := err.Error()
	for _, secret := range []string{hex, hex[:32], hex[:40]} {
		if strings.Contains(text, secret) {
			t.Errorf("the error holds %q: %s", secret, text)
		}
	}
	if !strings.Contains(text, "token=***") || !strings.Contains(text, "502 Bad Gateway") {
		t.Errorf("the error lost what the page said, or where it masked: %s", text)
	}
	if len(text) > 600 {
		t.Errorf("the error is %d characters long; a body must be cut to a bound", len(text))
	}
	for _, l := range log.all() {
		if line := fmt.Sprint(l.msg, l.fields); strings.Contains(line, hex[:32]) {
			t.Errorf("%s line holds the token: %.300s", l.level, line)
		}
	}
}

// TestMaskValues: values registered with MaskValues are masked in request and answer bodies at TRACE and
// in errors, wherever they occur, in JSON-escaped form too.
func TestMaskValues(t *testing.T) {
	const apiKey, header = "dd-api-key-0123456789", `Bearer <otel>&"secret"`
	s := newStub(t, creating(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.WriteHeader(http.StatusUnprocessableEntity)
		_, _ = fmt.Fprintf(w, `{"message":"Validation failed: rejected %s","echo":%s}`, apiKey, body)
	}))
	log := &recordingLogger{}
	c := newTestClient(t, s.srv.URL, func(c *Config) { c.Logger = log; c.MaxRetries = -1 })
	c.MaskValues(apiKey, header, "abc")
	_, err := c.Clusters.Create(context.Background(), ClusterCreate{Name: "x", Description: ptr(apiKey + " " + header)})
	if err == nil {
		t.Fatal("a 422 was taken as a cluster")
	}
	if strings.Contains(err.Error(), apiKey) {
		t.Errorf("the error holds the API key: %s", err)
	}
	enc, _ := json.Marshal(header)
	traced := 0
	for _, l := range log.all() {
		line := fmt.Sprint(l.msg, l.fields)
		for _, secret := range []string{apiKey, header, string(enc[1 : len(enc)-1])} {
			if strings.Contains(line, secret) {
				t.Errorf("%s line holds %q: %.300s", l.level, secret, line)
			}
		}
		if l.level == "TRACE" {
			traced++
		}
	}
	if traced < 2 {
		t.Errorf("%d TRACE lines; the request and answer bodies must be logged", traced)
	}
}
