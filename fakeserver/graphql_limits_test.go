package fakeserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// gqlPost posts query with the default token and returns the answer with its headers.
func (e *testEnv) gqlPost(query string) response {
	e.t.Helper()
	return e.do("POST", "/v1", "test-token", map[string]any{"query": query})
}

// gqlMessages are the messages of an answer's errors.
func gqlMessages(t *testing.T, r response) []string {
	t.Helper()
	var a struct {
		Errors []struct{ Message string } `json:"errors"`
	}
	if err := json.Unmarshal(r.raw, &a); err != nil {
		t.Fatalf("answer %s: %v", r.raw, err)
	}
	var out []string
	for _, e := range a.Errors {
		out = append(out, e.Message)
	}
	return out
}

// TestGraphQLTooLarge: a document beyond the size ceilings is refused before it is parsed or validated,
// with HTTP 200 and graphql-ruby's words, in well under a second: 1 MiB of 27,500 repeated scalar fields
// (without the ceiling, minutes of one core), and a short document whose one fragment, spread 60 times,
// makes 3,000 selections. The provider's largest document, 100 aliased rule(uuid:) reads, is served.
func TestGraphQLTooLarge(t *testing.T) {
	e := newEnv(t, Options{})
	huge := `query { organization(slug: "acme") { ` + strings.Repeat("membersRequireTwoFactorAuthentication ", 27500) + `} }`
	if len(huge) < 1<<20-4096 || len(huge) > maxBodyBytes-64 {
		t.Fatalf("the document is %d bytes, want just under 1 MiB", len(huge))
	}
	fields := strings.Repeat("name slug ", 25)
	spread := `query { organization(slug: "acme") { ` + strings.Repeat("...F ", 60) + `} } fragment F on Organization { ` + fields + `}`
	// Eight levels of root fragments, each spreading the next ten times: a few hundred bytes that unfold to 10^8
	// fields, and that every look at the document before the ceiling (the faults' look for the operation)
	// must not unfold either.
	nested := `query { ...F0 }`
	for i := range 8 {
		nested += fmt.Sprintf(" fragment F%d on Query { %s}", i, strings.Repeat(fmt.Sprintf("...F%d ", i+1), 10))
	}
	nested += ` fragment F8 on Query { organization(slug: "acme") { name } }`
	for name, query := range map[string]string{"1 MiB of fields": huge, "a fragment spread 60 times": spread, "nested fragment spreads": nested} {
		start := time.Now()
		r := e.gqlPost(query)
		took := time.Since(start)
		expect(t, r, http.StatusOK)
		if got := gqlMessages(t, r); len(got) != 1 || got[0] != errQueryTooLarge {
			t.Errorf("%s: errors %q, want %q", name, got, errQueryTooLarge)
		}
		t.Logf("%s (%d bytes): refused in %s", name, len(query), took)
		if took > time.Second {
			t.Errorf("%s: refused after %s, want well under a second", name, took)
		}
	}

	var params, reads []string
	vars := map[string]any{}
	for i := range 100 {
		params = append(params, fmt.Sprintf("$u%d: ID!", i))
		reads = append(reads, fmt.Sprintf("r%d: rule(uuid: $u%d) { id uuid type description document }", i, i))
		vars[fmt.Sprintf("u%d", i)] = newID()
	}
	a := e.gql("query getOrganizationRules("+strings.Join(params, ", ")+") { "+strings.Join(reads, " ")+" }", vars).ok(t)
	if len(a.Data) != 100 {
		t.Errorf("the batched rules read: %s", a.raw)
	}
}

// TestGraphQLHangUpStopsWork: a client that hangs up stops the work its request started. A query of 150
// agent tokens with 1,900 aliased fields each (under every ceiling) takes a while to run and longer to
// answer. The executor, its context ended 20 ms in, stops within a fraction of its full run; over HTTP,
// cancelled 50 ms in, the handler returns within a fraction of its full time, without answering.
func TestGraphQLHangUpStopsWork(t *testing.T) {
	srv := New(Options{})
	st := srv.Store()
	for i := range 150 {
		if _, _, err := st.AddUnclusteredAgentToken("acme", fmt.Sprintf("token %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	var aliases strings.Builder
	for i := range 1900 {
		fmt.Fprintf(&aliases, "d%d: description ", i)
	}
	query := `query { organization(slug: "acme") { agentTokens(first: 150) { edges { node { ` + aliases.String() + `} } } } }`

	doc, errs, _ := loadGraphQL(context.Background(), graphqlSchema(), query)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	run := func(ctx context.Context) (time.Duration, int) {
		x := &gqlExec{ctx: ctx, schema: graphqlSchema(), st: st, tok: *st.tokens["test-token"], user: *st.users[st.defaultUserID]}
		start := time.Now()
		st.mu.RLock()
		data := x.run(doc.Operations[0])
		st.mu.RUnlock()
		took := time.Since(start)
		out, err := json.Marshal(data)
		if err != nil {
			t.Fatal(err)
		}
		return took, len(out)
	}
	fullRun, fullSize := run(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	cutRun, cutSize := run(ctx)
	t.Logf("executor: %s and %d bytes to the end, %s and %d bytes when its context ended after 20ms", fullRun, fullSize, cutRun, cutSize)
	if cutRun > fullRun/4 || cutSize >= fullSize {
		t.Errorf("the executor went on for %s after its context ended (%s to the end)", cutRun, fullRun)
	}

	done := make(chan time.Duration, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		srv.ServeHTTP(w, r)
		done <- time.Since(start)
	}))
	t.Cleanup(ts.Close)
	body, _ := json.Marshal(map[string]any{"query": query})
	post := func(ctx context.Context) error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/v1", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer test-token")
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("status %d", resp.StatusCode)
			}
		}
		return err
	}
	if err := post(context.Background()); err != nil {
		t.Fatal(err)
	}
	full := <-done
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if err := post(ctx); err == nil {
		t.Fatal("the cancelled request was answered")
	}
	var hungUp time.Duration
	select {
	case hungUp = <-done:
	case <-time.After(full + 5*time.Second):
		t.Fatal("the handler did not return")
	}
	t.Logf("handler: %s to the end, %s when the client hung up after 50ms", full, hungUp)
	if hungUp > full/2 {
		t.Errorf("the handler went on for %s after the client hung up (%s to the end)", hungUp, full)
	}
}

// TestGraphQLBudget: with Options.GraphQLBudget, an organization's GraphQL requests spend complexity
// points from a window of GraphQLBudgetWindow; once it holds nothing more they are answered 429 with the
// service's message and the RateLimit-* headers of the graphql scope, until the window ends. REST's
// request limit does not count them.
func TestGraphQLBudget(t *testing.T) {
	clock := newBuildClock()
	e := newEnv(t, Options{GraphQLBudget: 3, RateLimit: 1, Now: clock.Now})
	const q = `query { organization(slug: "acme") { name } }` // 1 point
	for i := range 3 {
		r := e.gqlPost(q)
		expect(t, r, http.StatusOK)
		wantHeaders(t, r, "3", strconv.Itoa(2-i))
	}
	r := e.gqlPost(q)
	expect(t, r, http.StatusTooManyRequests)
	wantHeaders(t, r, "3", "0")
	want := "Your organization has exceeded the limit of 3 complexity points. Please try again in 300 seconds."
	if got := gqlMessages(t, r); len(got) != 1 || got[0] != want {
		t.Errorf("429 errors %q, want %q", got, want)
	}
	for range 5 {
		clock.tick()
	}
	r = e.gqlPost(q)
	expect(t, r, http.StatusOK)
	wantHeaders(t, r, "3", "2")
}

// TestGraphQLBudgetOffByDefault: without Options.GraphQLBudget nothing is counted: 25 requests of 1,002
// points each (25,050, beyond the service's 20,000) are answered, every one reporting the service's full
// allowance, so a client that paces itself by the headers never waits.
func TestGraphQLBudgetOffByDefault(t *testing.T) {
	e := newEnv(t, Options{})
	const q = `query { organization(slug: "acme") { pipelines(first: 500) { edges { node { slug } } } } }`
	for range 25 {
		r := e.gqlPost(q)
		expect(t, r, http.StatusOK)
		wantHeaders(t, r, "20000", "20000")
		if c := r.header.Get("RateLimit-Complexity-Actual"); c != "1002" {
			t.Fatalf("complexity %s, want 1002", c)
		}
	}
}

// wantHeaders checks a GraphQL answer's RateLimit-* headers, in a window of five minutes.
func wantHeaders(t *testing.T, r response, limit, remaining string) {
	t.Helper()
	for k, want := range map[string]string{"RateLimit-Scope": "graphql", "RateLimit-Limit": limit, "RateLimit-Remaining": remaining, "RateLimit-Reset": "300"} {
		if got := r.header.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
}
