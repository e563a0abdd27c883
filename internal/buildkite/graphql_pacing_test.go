package buildkite

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// newPacedGraphQLClient is newPacedClient with the emulator's GraphQL endpoint.
func newPacedGraphQLClient(t *testing.T, e *emulator) *Client {
	t.Helper()
	c, err := newClient(Config{BaseURL: e.url, GraphQLURL: e.url + "/v1", Organization: "acme", Token: "test-token",
		RetryWaitMin: 10 * time.Millisecond, RetryWaitMax: 5 * time.Second}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// tooManyBy counts the 429s of the emulator's request log, GraphQL's (POST /v1) apart from REST's.
func tooManyBy(e *emulator) (graphQL, rest, graphQLRequests int) {
	for _, r := range e.Requests() {
		isGraphQL := r.Method == http.MethodPost && r.Path == "/v1"
		if isGraphQL {
			graphQLRequests++
		}
		if r.Status == http.StatusTooManyRequests {
			if isGraphQL {
				graphQL++
			} else {
				rest++
			}
		}
	}
	return graphQL, rest, graphQLRequests
}

// TestGraphQLPacing_workspacesSharingABudgetDrawNo429: four clients (four workspaces' processes) of one
// organization, whose GraphQL budget is on (the service's 20,000 points, in a window of 3 s instead of 5
// minutes) as is its REST limit, each read agent tokens, rules' descriptions and pipelines' emoji again and
// again, ten reads at a time, and draw no 429 on either scope: each paces its GraphQL requests by the
// points the answers report left, counting a request by what it costs (RateLimit-Complexity-Actual), as it
// paces REST requests by the count left. Listing agent tokens costs about a thousand points, so the four
// spend the budget about twice over and wait for a new window.
func TestGraphQLPacing_workspacesSharingABudgetDrawNo429(t *testing.T) {
	const window = 3 * time.Second
	var spent atomic.Int64 // the points the emulator's answers say were spent
	e := newEmulator(t, fakeserver.Options{GraphQLBudget: 20000, GraphQLBudgetWindow: window,
		RateLimit: 200, RateLimitWindow: window}, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(w, r)
			if n, err := strconv.Atoi(w.Header().Get("RateLimit-Complexity-Actual")); err == nil && w.Header().Get("RateLimit-Remaining") != "" {
				spent.Add(int64(n))
			}
		})
	})
	ctx := context.Background()
	setup := newPacedGraphQLClient(t, e)
	var pipelines []*Pipeline
	for _, name := range []string{"Web", "API"} {
		p, err := setup.Pipelines.Create(ctx, PipelineCreate{Name: name, Repository: "https://github.com/acme/app.git", Configuration: ptr(DefaultSteps)})
		if err != nil {
			t.Fatal(err)
		}
		pipelines = append(pipelines, p)
	}
	var rules []string
	for _, pair := range [][2]*Pipeline{{pipelines[0], pipelines[1]}, {pipelines[1], pipelines[0]}} {
		value, _ := json.Marshal(map[string]string{"source_pipeline": pair[0].ID, "target_pipeline": pair[1].ID})
		r, err := setup.Rules.Create(ctx, RuleCreate{Type: "pipeline.trigger_build.pipeline", Value: value})
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, r.UUID)
	}
	for _, d := range []string{"one", "two"} {
		if _, err := setup.AgentTokens.Create(ctx, &d); err != nil {
			t.Fatal(err)
		}
	}

	// Each client reads as a refresh at Terraform's default parallelism does: ten reads at a time, each of
	// the three kinds in turn.
	const rounds, parallelism = 3, 10
	began := time.Now()
	var wg sync.WaitGroup
	for range 4 {
		c := newPacedGraphQLClient(t, e)
		wg.Go(func() {
			var next atomic.Int64
			concurrently(t, parallelism, func() error {
				kind := next.Add(1) % 3
				for range rounds {
					switch kind {
					case 0:
						if _, err := c.AgentTokens.List(ctx); err != nil {
							return err
						}
					case 1:
						if got, err := c.Rules.DetailsOf(ctx, rules); err != nil || len(got) != len(rules) {
							return fmt.Errorf("rules' descriptions: %d of %d, %w", len(got), len(rules), err)
						}
					default:
						for _, p := range pipelines {
							if _, err := c.Pipelines.Looks(ctx, p.ID, p.GraphQLID); err != nil {
								return err
							}
						}
					}
				}
				return nil
			})
		})
	}
	wg.Wait()
	elapsed := time.Since(began)
	points := int(spent.Load())
	graphQL429, rest429, requests := tooManyBy(e)
	t.Logf("bench: graphql pacing: 4 clients x %d reads x %d rounds: %d GraphQL requests, %d points, %.1f s (window %s, budget 20000), 429s: %d GraphQL, %d REST",
		parallelism, rounds, requests, points, elapsed.Seconds(), window, graphQL429, rest429)
	if graphQL429 != 0 || rest429 != 0 {
		t.Errorf("%d GraphQL and %d REST requests answered 429, want none", graphQL429, rest429)
	}
	if points <= 20000 {
		t.Errorf("the clients spent %d points, want more than one window's 20,000: the test proves nothing", points)
	}
}

// TestGraphQLPacing_requestsCountWhatTheyCost: at the GraphQL gate a request counts what it costs against
// the points left, not one: with 1,500 of 2,000 points left (our first request cost 500), three requests of 500 go at once and a fourth waits
// for the reset.
func TestGraphQLPacing_requestsCountWhatTheyCost(t *testing.T) {
	g := &rateGate{}
	ctx := context.Background()
	if err := g.acquireCost(ctx, 1, true); err != nil {
		t.Fatal(err)
	}
	g.releaseCost(window{remaining: 1500, hasRemaining: true, limit: 2000, reset: 10 * time.Second, hasReset: true,
		cost: 500, hasCost: true}, false, 1)
	for i := range 3 {
		g.mu.Lock()
		wait := g.waitCost(time.Now(), 500)
		g.mu.Unlock()
		if wait != 0 {
			t.Fatalf("request %d of 500 points with %d left waits %v, want none", i+1, 1500-500*i, wait)
		}
		if err := g.acquireCost(ctx, 500, false); err != nil {
			t.Fatal(err)
		}
	}
	g.mu.Lock()
	wait := g.waitCost(time.Now(), 500)
	g.mu.Unlock()
	if wait < 9*time.Second {
		t.Errorf("a fourth request of 500 points with 1,500 left and 1,500 in flight waits %v, want the reset (10 s)", wait)
	}
}

// TestGraphQLPacing_costLearnedFromAnswers: what a document costs is what its answer said
// (RateLimit-Complexity-Actual); before any answer, it is a guess, and the request goes alone.
func TestGraphQLPacing_costLearnedFromAnswers(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{GraphQLBudget: 20000})
	c := newPacedGraphQLClient(t, e)
	if _, guessed := c.graphCosts.estimate(opListAgentTokens.document); !guessed {
		t.Fatal("a document never sent has a known cost")
	}
	if _, err := c.AgentTokens.List(context.Background()); err != nil {
		t.Fatal(err)
	}
	// organization 1, agentTokens 1, and edges and node 1 each for each of the 500 tokens it asks for.
	if cost, guessed := c.graphCosts.estimate(opListAgentTokens.document); guessed || cost != 1002 {
		t.Errorf("listAgentTokens costs %d (guessed %v), want 1002 as its answer said", cost, guessed)
	}
	if cost, guessed := c.graphCosts.estimate(opGetAgentToken.document); !guessed || cost != 1002 {
		t.Errorf("a document never sent is guessed at %d (guessed %v), want the most any cost, 1002", cost, guessed)
	}
}

// TestGraphQLPacing_429WaitsForTheReset: a client that knows nothing of the window (a process started
// after another spent the budget) draws a 429, and its query is sent again once RateLimit-Reset has passed.
func TestGraphQLPacing_429WaitsForTheReset(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{GraphQLBudget: 1000, GraphQLBudgetWindow: 2 * time.Second})
	ctx := context.Background()
	if _, err := newPacedGraphQLClient(t, e).AgentTokens.List(ctx); err != nil { // 1,002 points: all of it
		t.Fatal(err)
	}
	began := time.Now()
	if _, err := newPacedGraphQLClient(t, e).AgentTokens.List(ctx); err != nil {
		t.Fatalf("the query after a 429: %v, want it sent again after the reset", err)
	}
	graphQL429, _, requests := tooManyBy(e)
	if graphQL429 != 1 || requests != 3 {
		t.Errorf("%d GraphQL requests, %d answered 429; want 3 and 1", requests, graphQL429)
	}
	if waited := time.Since(began); waited < time.Second {
		t.Errorf("sent again after %v, want after the reset (up to 2 s)", waited)
	}
}
