package buildkite

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// emptyAnswers are 2xx bodies that hold no object, and what the error must say is missing.
var emptyAnswers = map[string]string{
	``:     "the body is empty",
	`null`: "the body is null",
	`{}`:   `"id" is missing`,
}

// TestAnswer_readWithoutObjectIsError: a read answered 200 with no object is an error naming the method,
// the path and what was missing, never a zero object; it is retried a bounded number of times.
func TestAnswer_readWithoutObjectIsError(t *testing.T) {
	for body, missing := range emptyAnswers {
		t.Run("body "+body, func(t *testing.T) {
			s := newStub(t, respond(http.StatusOK, body))
			c := newTestClient(t, s.srv.URL)
			got, err := c.Clusters.Get(context.Background(), "c1")
			if err == nil {
				t.Fatalf("got %+v, want an error", got)
			}
			for _, want := range []string{"GET /v2/organizations/acme/clusters/c1", "answered 200 without the object", missing} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			if n := s.count(); n != 1+maxBadAnswers {
				t.Errorf("%d attempts, want %d", n, 1+maxBadAnswers)
			}
		})
	}
}

// TestAnswer_updateWithoutObjectIsError: an update is repeatable, so it is sent again a bounded number of
// times, then fails; an answer that holds the object in between ends the call.
func TestAnswer_updateWithoutObjectIsError(t *testing.T) {
	ctx := context.Background()
	for body, missing := range emptyAnswers {
		s := newStub(t, respond(http.StatusOK, body))
		c := newTestClient(t, s.srv.URL)
		_, err := c.Clusters.Update(ctx, "c1", ClusterUpdate{Name: Value("x")})
		if err == nil || !strings.Contains(err.Error(), "PUT /v2/organizations/acme/clusters/c1") || !strings.Contains(err.Error(), missing) {
			t.Errorf("body %q: error = %v", body, err)
		}
		if n := s.count(); n != 1+maxBadAnswers {
			t.Errorf("body %q: %d attempts, want %d", body, n, 1+maxBadAnswers)
		}
	}

	s := newStub(t, failThen(1, http.StatusOK, `{"id":"c1","name":"x"}`)) // the first answer: 200 {"message":...}
	c := newTestClient(t, s.srv.URL)
	got, err := c.Clusters.Update(ctx, "c1", ClusterUpdate{Name: Value("x")})
	if err != nil || got.ID != "c1" || s.count() != 2 {
		t.Errorf("got %+v, %v after %d attempts; want c1 from the second", got, err, s.count())
	}
}

// TestAnswer_listMustBeAnArray: an empty array is an empty list; null, an empty body or an object is an
// error.
func TestAnswer_listMustBeAnArray(t *testing.T) {
	ctx := context.Background()
	s := newStub(t, respond(http.StatusOK, `[]`))
	all, err := newTestClient(t, s.srv.URL).Clusters.List(ctx)
	if err != nil || len(all) != 0 {
		t.Errorf("[]: got %v, %v; want an empty list", all, err)
	}
	for body, missing := range map[string]string{``: "empty", `null`: "null", `{}`: "not a list"} {
		s := newStub(t, respond(http.StatusOK, body))
		all, err := newTestClient(t, s.srv.URL).Clusters.List(ctx)
		if err == nil || !strings.Contains(err.Error(), "GET /v2/organizations/acme/clusters") || !strings.Contains(err.Error(), missing) {
			t.Errorf("body %q: got %v, %v; want an error saying %q", body, all, err, missing)
		}
	}
}

// TestAnswer_createWithoutObjectIsUnknownOutcome: a create answered 2xx without the object may have made
// it: without a way to find it, the caller gets an error (never an object with an empty ID), and the
// create is sent once.
func TestAnswer_createWithoutObjectIsUnknownOutcome(t *testing.T) {
	for body, missing := range emptyAnswers {
		s := newStub(t, respond(http.StatusCreated, body))
		c := newTestClient(t, s.srv.URL)
		got, err := c.Builds.Create(context.Background(), "app", BuildCreate{Commit: "HEAD", Branch: "main"})
		if err == nil || !isUnknownOutcome(err) || !strings.Contains(err.Error(), "POST /v2/organizations/acme/pipelines/app/builds") ||
			!strings.Contains(err.Error(), missing) {
			t.Errorf("body %q: got %+v, %v; want an unknown outcome saying %q", body, got, err, missing)
		}
		if s.count() != 1 {
			t.Errorf("body %q: the create was sent %d times, want 1", body, s.count())
		}
	}
}

// badCreateAnswers lets the service act on the first n POSTs, then answers each with status and body in
// place of what the service said, as a broken proxy would. acted false answers without forwarding.
func badCreateAnswers(status int, body string, n int, acted bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		var mu sync.Mutex
		left := n
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			bad := r.Method == http.MethodPost && left > 0
			if bad {
				left--
			}
			mu.Unlock()
			if !bad {
				next.ServeHTTP(w, r)
				return
			}
			if acted {
				next.ServeHTTP(httptest.NewRecorder(), r)
			}
			respond(status, body)(w, r)
		})
	}
}

// TestAnswer_createWithoutObjectIsResolved: a create answered 2xx without the object is resolved like a
// lost answer: what it made is found and adopted (or, for a token whose secret only the answer carried,
// deleted and made again); what it did not make is made. The emulator ends with exactly the object the
// caller holds.
func TestAnswer_createWithoutObjectIsResolved(t *testing.T) {
	ctx := context.Background()
	for body := range emptyAnswers {
		for _, acted := range []bool{true, false} {
			name := map[bool]string{true: "acted", false: "not acted"}[acted]
			t.Run(name+" body "+body, func(t *testing.T) {
				e := newEmulator(t, fakeserver.Options{})
				setup := newTestClient(t, e.url)
				home, err := setup.Clusters.Create(ctx, ClusterCreate{Name: "home"})
				if err != nil {
					t.Fatal(err)
				}
				faulty := func() *Client {
					return newTestClient(t, newEmulatorFront(t, e, badCreateAnswers(http.StatusCreated, body, 1, acted)))
				}
				check := func(kind, gotID string, found []string) {
					t.Helper()
					if gotID == "" || len(found) != 1 || found[0] != gotID {
						t.Errorf("%s: got %q; the emulator holds %v", kind, gotID, found)
					}
				}
				cl, err := faulty().Clusters.Create(ctx, ClusterCreate{Name: "made"})
				if err != nil {
					t.Fatal(err)
				}
				check("cluster", cl.ID, matching(t, setup.Clusters.Each(ctx, ListOptions{}), func(c *Cluster) (string, bool) { return c.ID, c.Name == "made" }))
				tok, err := faulty().ClusterTokens.Create(ctx, home.ID, ClusterTokenCreate{Description: "made"})
				if err != nil {
					t.Fatal(err)
				}
				check("token", tok.ID, matching(t, setup.ClusterTokens.Each(ctx, home.ID, ListOptions{}), func(x *ClusterToken) (string, bool) { return x.ID, x.Description == "made" }))
				if tok.Token == "" {
					t.Error("token: the caller has no secret")
				}
				posts := 0
				for _, r := range e.Requests() {
					if r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/clusters") {
						posts++
					}
				}
				if posts != 2 {
					t.Errorf("the emulator acted on %d cluster creates, want 2 (home, then made once)", posts)
				}
			})
		}
	}
}

// TestAnswer_errorsAreStillErrors: a 4xx keeps its *Error, whatever its body.
func TestAnswer_errorsAreStillErrors(t *testing.T) {
	s := newStub(t, respond(http.StatusNotFound, ``))
	_, err := newTestClient(t, s.srv.URL).Clusters.Get(context.Background(), "c1")
	var apiErr *Error
	if !errors.As(err, &apiErr) || !IsNotFound(err) || s.count() != 1 {
		t.Errorf("error = %v after %d attempts, want one 404", err, s.count())
	}
}
