package fakeserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// testEnv is a fresh emulator behind an httptest server.
type testEnv struct {
	t   *testing.T
	srv *Server
	ts  *httptest.Server
}

func newEnv(t *testing.T, opts Options) *testEnv {
	t.Helper()
	srv := New(opts)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &testEnv{t: t, srv: srv, ts: ts}
}

// response is a decoded answer.
type response struct {
	status int
	header http.Header
	raw    []byte
}

// object decodes the body as a JSON object.
func (r response) object(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.raw, &m); err != nil {
		t.Fatalf("body %q is not a JSON object: %v", r.raw, err)
	}
	return m
}

// list decodes the body as a JSON array of objects.
func (r response) list(t *testing.T) []map[string]any {
	t.Helper()
	var l []map[string]any
	if err := json.Unmarshal(r.raw, &l); err != nil {
		t.Fatalf("body %q is not a JSON array: %v", r.raw, err)
	}
	return l
}

// message returns the body's "message".
func (r response) message(t *testing.T) string {
	t.Helper()
	msg, _ := r.object(t)["message"].(string)
	return msg
}

// do sends a request with token ("" for none); body is marshalled unless it is a string or nil.
func (e *testEnv) do(method, path, token string, body any) response {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, e.ts.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, raw: raw}
}

// api sends a request with the default token to a path under /v2/organizations/acme.
func (e *testEnv) api(method, path string, body any) response {
	e.t.Helper()
	return e.do(method, "/v2/organizations/acme"+path, "test-token", body)
}

// expect fails unless r has status, printing the body.
func expect(t *testing.T, r response, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.raw)
	}
}

// expectError fails unless r has status and message.
func expectError(t *testing.T, r response, status int, message string) {
	t.Helper()
	expect(t, r, status)
	if got := r.message(t); got != message {
		t.Fatalf("message %q, want %q", got, message)
	}
}

// createCluster creates a cluster and returns its ID.
func (e *testEnv) createCluster(name string) string {
	e.t.Helper()
	r := e.api("POST", "/clusters", map[string]any{"name": name})
	expect(e.t, r, http.StatusCreated)
	return r.object(e.t)["id"].(string)
}

// createQueue creates a queue in cluster and returns its ID.
func (e *testEnv) createQueue(cluster, key string) string {
	e.t.Helper()
	r := e.api("POST", "/clusters/"+cluster+"/queues", map[string]any{"key": key})
	expect(e.t, r, http.StatusCreated)
	return r.object(e.t)["id"].(string)
}
