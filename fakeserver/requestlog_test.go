package fakeserver

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

// TestRequestLogEntries: each entry names the method, path, status, the GraphQL operation (its name, or
// its first root field), the organization and the time, in the order asked.
func TestRequestLogEntries(t *testing.T) {
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	clock := start
	e := newEnv(t, Options{Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	e.api("GET", "/pipelines", nil)
	e.gqlAs("test-token", `query OrgName { organization(slug: "acme") { name } }`, nil, "")
	e.gqlAs("test-token", `query A { viewer { user { name } } } query B { organization(slug: "acme") { name } }`, nil, "B")
	e.gqlAs("test-token", `{ organization(slug: "acme") { name } }`, nil, "")
	e.do("GET", "/v2/organizations/other/pipelines", "test-token", nil)
	e.do("GET", "/v2/user", "nope", nil)
	got := e.srv.Requests()
	want := []Request{
		{Method: "GET", Path: "/v2/organizations/acme/pipelines", Status: 200, Org: "acme"},
		{Method: "POST", Path: "/v1", Status: 200, Operation: "OrgName", Org: "acme"},
		{Method: "POST", Path: "/v1", Status: 200, Operation: "B", Org: "acme"},
		{Method: "POST", Path: "/v1", Status: 200, Operation: "organization", Org: "acme"},
		{Method: "GET", Path: "/v2/organizations/other/pipelines", Status: 404, Org: "other"},
		{Method: "GET", Path: "/v2/user", Status: 401},
	}
	if len(got) != len(want) {
		t.Fatalf("Requests() = %+v, want %d entries", got, len(want))
	}
	for i := range want {
		// The server may read its clock more than once a request (the GraphQL budget's window does): each entry's
		// time is one the clock gave, after the one before.
		if !got[i].Time.After(start) || got[i].Time.After(clock) || (i > 0 && !got[i].Time.After(got[i-1].Time)) {
			t.Errorf("entry %d time %v, not in the order asked", i, got[i].Time)
		}
		got[i].Time = time.Time{}
		if got[i] != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestControlRequests: GET /_emulator/requests answers the log as JSON, oldest first, without the controls'
// own requests; DELETE empties it; both need the admin token, and are 404 without one configured.
func TestControlRequests(t *testing.T) {
	e := newEnv(t, Options{AdminToken: testAdminToken})
	e.api("POST", "/clusters", map[string]any{"name": "c"})
	e.gqlAs("test-token", `mutation Nothing { __typename }`, nil, "")
	expect(t, e.do("GET", "/_emulator/requests", "test-token", nil), http.StatusUnauthorized)
	r := e.do("GET", "/_emulator/requests", testAdminToken, nil)
	expect(t, r, http.StatusOK)
	var got []map[string]any
	if err := json.Unmarshal(r.raw, &got); err != nil {
		t.Fatalf("body %s: %v", r.raw, err)
	}
	if len(got) != 2 {
		t.Fatalf("entries %s, want the two API requests", r.raw)
	}
	first := got[0]
	if first["method"] != "POST" || first["path"] != "/v2/organizations/acme/clusters" || first["status"] != 201.0 ||
		first["organization"] != "acme" {
		t.Errorf("first entry %v", first)
	}
	if _, err := time.Parse(time.RFC3339Nano, first["time"].(string)); err != nil {
		t.Errorf("time %v: %v", first["time"], err)
	}
	if got[1]["path"] != "/v1" || got[1]["operation"] != "Nothing" {
		t.Errorf("second entry %v", got[1])
	}
	expect(t, e.do("DELETE", "/_emulator/requests", testAdminToken, nil), http.StatusNoContent)
	if n := len(e.srv.Requests()); n != 0 {
		t.Fatalf("%d entries after DELETE", n)
	}
	if c := e.srv.RequestCounts(); len(c) != 0 {
		t.Fatalf("counts %v after DELETE", c)
	}
	r = e.do("GET", "/_emulator/requests", testAdminToken, nil)
	expect(t, r, http.StatusOK)
	if string(r.raw) != "[]\n" && string(r.raw) != "[]" {
		t.Fatalf("empty log answered %q, want []", r.raw)
	}

	off := newEnv(t, Options{})
	for _, m := range []string{"GET", "DELETE"} {
		expectError(t, off.do(m, "/_emulator/requests", testAdminToken, nil), http.StatusNotFound, "Not Found")
	}
}
