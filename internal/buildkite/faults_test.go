package buildkite

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// loseAnswers lets the service act on the first n POSTs it is given, then loses each answer: "drop" closes
// the connection unanswered, "502" answers as a failing proxy would. "502 unacted" answers 502 without
// letting the service act.
func loseAnswers(mode string, n int) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		var mu sync.Mutex
		left := n
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			lose := r.Method == http.MethodPost && left > 0
			if lose {
				left--
			}
			mu.Unlock()
			if !lose {
				next.ServeHTTP(w, r)
				return
			}
			if mode != "502 unacted" {
				next.ServeHTTP(httptest.NewRecorder(), r)
			}
			if mode == "drop" {
				hangUp(w, r)
				return
			}
			respond(http.StatusBadGateway, `<html>Bad Gateway</html>`)(w, r)
		})
	}
}

// TestCreateOrAdopt_lostAnswers: whatever happens to a create's answer, the emulator ends with exactly
// the one object the caller got, and an agent token's caller has its secret.
func TestCreateOrAdopt_lostAnswers(t *testing.T) {
	ctx := context.Background()
	for _, mode := range []string{"drop", "502", "502 unacted"} {
		for _, lost := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s×%d", mode, lost), func(t *testing.T) {
				e := newEmulator(t, fakeserver.Options{})
				setup := newTestClient(t, e.url)
				home, err := setup.Clusters.Create(ctx, ClusterCreate{Name: "home"})
				if err != nil {
					t.Fatal(err)
				}
				check := func(kind, gotID string, found []string) {
					t.Helper()
					if len(found) != 1 || found[0] != gotID {
						t.Errorf("%s: got %q; the emulator holds %v", kind, gotID, found)
					}
				}
				faulty := func() *Client {
					f := newEmulatorFront(t, e, loseAnswers(mode, lost))
					return newTestClient(t, f, func(c *Config) { c.MaxRetries = 0 })
				}

				cl, err := faulty().Clusters.Create(ctx, ClusterCreate{Name: "lost"})
				if err != nil {
					t.Fatal(err)
				}
				check("cluster", cl.ID, matching(t, setup.Clusters.Each(ctx, ListOptions{}), func(c *Cluster) (string, bool) { return c.ID, c.Name == "lost" }))

				q, err := faulty().Queues.Create(ctx, home.ID, QueueCreate{Key: "lost"})
				if err != nil {
					t.Fatal(err)
				}
				check("queue", q.ID, matching(t, setup.Queues.Each(ctx, home.ID, ListOptions{}), func(q *Queue) (string, bool) { return q.ID, q.Key == "lost" }))

				// A token's secret is in its create answer alone: one lost answer costs the token it made and one
				// create more; a second lost answer leaves the second token, returned with a SecretLostError.
				acted := mode != "502 unacted"
				tok, err := faulty().ClusterTokens.Create(ctx, home.ID, ClusterTokenCreate{Description: "lost"})
				var lostErr *SecretLostError
				switch {
				case acted && lost == 2:
					if !errors.As(err, &lostErr) || !lostErr.Recreated || tok == nil || tok.Token != "" {
						t.Fatalf("two lost answers: got %+v, %v; want the second token without its secret and a SecretLostError", tok, err)
					}
				case err != nil:
					t.Fatal(err)
				case tok.Token == "":
					t.Error("token: the caller has no secret")
				}
				check("token", tok.ID, matching(t, setup.ClusterTokens.Each(ctx, home.ID, ListOptions{}), func(x *ClusterToken) (string, bool) { return x.ID, x.Description == "lost" }))
				deletes := 0
				for _, r := range e.Requests() {
					if r.Method == http.MethodDelete && strings.Contains(r.Path, "/tokens/") {
						deletes++
					}
				}
				if want := map[bool]int{true: 1, false: 0}[acted]; deletes != want {
					t.Errorf("%d tokens revoked, want %d (the one re-create)", deletes, want)
				}
			})
		}
	}
}

// TestCreateOrAdopt_olderQueueIsNotAdopted: a queue with the key that existed before the create is not
// taken for what the create made; the create's own error stands.
func TestCreateOrAdopt_olderQueueIsNotAdopted(t *testing.T) {
	ctx := context.Background()
	e := newEmulator(t, fakeserver.Options{})
	setup := newTestClient(t, e.url)
	home, err := setup.Clusters.Create(ctx, ClusterCreate{Name: "home"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := setup.Queues.Create(ctx, home.ID, QueueCreate{Key: "taken"}); err != nil {
		t.Fatal(err)
	}
	// Every queue looks two minutes old to the finder.
	f := newEmulatorFront(t, e, loseAnswers("502 unacted", 1), func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				next.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			old := time.Now().Add(-2 * time.Minute).UTC().Format(time.RFC3339)
			body := createdAtRe.ReplaceAllString(rec.Body.String(), `"created_at":"`+old+`"`)
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			_, _ = w.Write([]byte(body))
		})
	})
	c := newTestClient(t, f)
	_, err = c.Queues.Create(ctx, home.ID, QueueCreate{Key: "taken"})
	if !IsValidation(err) {
		t.Errorf("error = %v, want the repeated create's 422", err)
	}
}

// TestRetry_twentyPercentFaults: with 20% of requests answered 5xx, 20% answered 429 and some creates
// acted on and then dropped, every read and create succeeds and nothing is duplicated.
func TestRetry_twentyPercentFaults(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 20))
	var mu sync.Mutex
	var faults int
	fault := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			p := rng.Float64()
			mu.Unlock()
			switch {
			case p < 0.2:
				respond([]int{500, 502, 503}[int(p*100)%3], `{"message":"injected"}`)(w, r)
			case p < 0.4:
				w.Header().Set("RateLimit-Remaining", "0")
				w.Header().Set("RateLimit-Reset", "1")
				respond(http.StatusTooManyRequests, `{"message":"injected"}`)(w, r)
			case p < 0.45 && r.Method == http.MethodPost:
				next.ServeHTTP(httptest.NewRecorder(), r)
				hangUp(w, r)
			default:
				next.ServeHTTP(w, r)
				return
			}
			mu.Lock()
			faults++
			mu.Unlock()
		})
	}
	e := newEmulator(t, fakeserver.Options{}, fault)
	c := newTestClient(t, e.url, func(c *Config) {
		c.MaxRetries = 0
		c.RetryWaitMax = 20 * time.Millisecond
	})
	ctx := context.Background()
	const n = 40
	var seq atomic.Int32
	concurrently(t, n, func() error {
		cl, err := c.Clusters.Create(ctx, ClusterCreate{Name: fmt.Sprintf("c-%d", seq.Add(1))})
		if err != nil {
			return err
		}
		_, err = c.Clusters.Get(ctx, cl.ID)
		return err
	})
	// The count is read through the same client, which retries until its deadline: the faults are still on,
	// and a client that stops after a few retries would meet four in a row often enough to fail the test.
	all, err := c.Clusters.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]int{}
	for _, cl := range all {
		names[cl.Name]++
	}
	if len(all) != n || len(names) != n {
		t.Errorf("the emulator holds %d clusters with %d names, want %d of each", len(all), len(names), n)
	}
	t.Logf("%d faults injected in %d requests", faults, faults+len(e.Requests()))
}

var createdAtRe = regexp.MustCompile(`"created_at":"[^"]*"`)

// newEmulatorFront serves e's handler again behind fronts, on a new server, and returns its URL: the same
// state reached through faults.
func newEmulatorFront(t *testing.T, e *emulator, fronts ...func(http.Handler) http.Handler) string {
	t.Helper()
	var h http.Handler = e.Server
	for _, f := range fronts {
		h = f(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// matching returns the IDs of the listed objects match accepts.
func matching[T any](t *testing.T, seq iter.Seq2[*T, error], match func(*T) (string, bool)) []string {
	t.Helper()
	var ids []string
	for obj, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		if id, ok := match(obj); ok {
			ids = append(ids, id)
		}
	}
	return ids
}
