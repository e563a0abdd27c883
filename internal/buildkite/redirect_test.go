package buildkite

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// redirectTo answers every request with status and a Location of target plus the request's path.
func redirectTo(status int, target func() string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", target()+r.URL.Path)
		w.WriteHeader(status)
	}
}

// TestRedirect_anotherOriginIsRefused: a redirect to another port of the same host is not followed, for a
// create or a read: the other server sees no request at all (so no token), the foreign answer is never
// taken for the object, and the error says where the service tried to send the call.
func TestRedirect_anotherOriginIsRefused(t *testing.T) {
	ctx := context.Background()
	foreign := newStub(t, respond(http.StatusCreated, `{"id":"foreign","name":"x"}`))
	for _, status := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		origin := newStub(t, emptyListing("/clusters", redirectTo(status, func() string { return foreign.srv.URL })))
		c := newTestClient(t, origin.srv.URL)

		got, err := c.Clusters.Create(ctx, ClusterCreate{Name: "x"})
		want := "POST /v2/organizations/acme/clusters: the service redirected it to " + foreign.srv.URL +
			"/v2/organizations/acme/clusters: refusing to follow a redirect to another origin"
		if err == nil || !strings.Contains(err.Error(), want) || isUnknownOutcome(err) {
			t.Errorf("%d create: got %+v, %v; want %q", status, got, err, want)
		}
		if _, err := c.Clusters.Get(ctx, "c1"); err == nil || !strings.Contains(err.Error(), "refusing to follow a redirect to another origin") {
			t.Errorf("%d read: error = %v", status, err)
		}
		if n := len(origin.sent()); n != 1 {
			t.Errorf("%d: the origin saw %d creates, want 1 (not retried)", status, n)
		}
		if n := origin.count(); n != 3 {
			t.Errorf("%d: the origin saw %d requests, want 3 (the listing before the create, the create, the read; none retried)", status, n)
		}
	}
	if n := foreign.count(); n != 0 {
		t.Errorf("the other origin saw %d requests (Authorization %q), want none", n, foreign.requests()[0].Header.Get("Authorization"))
	}
}

// TestRedirect_sameOriginReadIsFollowed: a read redirected within the origin is followed, with its token.
func TestRedirect_sameOriginReadIsFollowed(t *testing.T) {
	s := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/moved") {
			respond(http.StatusOK, `{"id":"c1","name":"moved"}`)(w, r)
			return
		}
		http.Redirect(w, r, r.URL.Path+"/moved", http.StatusMovedPermanently)
	})
	got, err := newTestClient(t, s.srv.URL).Clusters.Get(context.Background(), "c1")
	if err != nil || got.Name != "moved" {
		t.Fatalf("got %+v, %v; want the cluster at the new path", got, err)
	}
	reqs := s.requests()
	if len(reqs) != 2 || reqs[1].Header.Get("Authorization") != "Bearer test-token" {
		t.Errorf("requests %+v, want the redirected read sent with its token", reqs)
	}
}

// TestRedirect_sameOriginWriteIsRefused: a write is not followed even within the origin: net/http would
// turn the POST into a GET and its answer would be taken for the created object.
func TestRedirect_sameOriginWriteIsRefused(t *testing.T) {
	s := newStub(t, emptyListing("/clusters", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			respond(http.StatusOK, `{"id":"someone-else"}`)(w, r)
			return
		}
		http.Redirect(w, r, "/v2/organizations/acme/clusters/someone-else", http.StatusSeeOther)
	}))
	got, err := newTestClient(t, s.srv.URL).Clusters.Create(context.Background(), ClusterCreate{Name: "x"})
	if err == nil || !strings.Contains(err.Error(), "refusing to follow the redirect of a POST") {
		t.Errorf("got %+v, %v; want the redirect refused", got, err)
	}
	if n := len(s.sent()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}
