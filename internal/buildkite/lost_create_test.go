package buildkite

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// The rule for a create whose outcome is unknown (adopt.go): what it made is the one object that matches it,
// did not exist before it was sent and no other create of the Client returned. These tests lose one answer
// of one create, with objects of the same description around it.

// loseFirst loses the answer to the first request that match accepts, in mode: "drop" lets the
// service act, then closes the connection; "unacted" answers 502 without letting it act. Before passing
// that request on, it runs before (when set), outside its lock, so that before may itself call the
// service through the same front.
func loseFirst(match func(*http.Request) bool, mode string, before func()) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		var mu sync.Mutex
		seen := 0
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			mu.Lock()
			lose := false
			if match(r) {
				seen++
				lose = seen == 1
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			mu.Unlock()
			if !lose {
				next.ServeHTTP(w, r)
				return
			}
			if before != nil {
				before()
			}
			if mode == "unacted" {
				respond(http.StatusBadGateway, `<html>Bad Gateway</html>`)(w, r)
				return
			}
			next.ServeHTTP(httptest.NewRecorder(), r)
			hangUp(w, r)
		})
	}
}

// restCreate matches a REST POST whose path ends in suffix.
func restCreate(suffix string) func(*http.Request) bool {
	return func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, suffix)
	}
}

// agentTokenCreate matches the GraphQL mutation that creates an agent token.
func agentTokenCreate(r *http.Request) bool {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/v1") {
		return false
	}
	body, _ := io.ReadAll(r.Body)
	return bytes.Contains(body, []byte("agentTokenCreate"))
}

// deletesUnder counts the DELETEs the emulator served under a path containing part.
func deletesUnder(e *emulator, part string) int {
	n := 0
	for _, r := range e.Requests() {
		if r.Method == http.MethodDelete && strings.Contains(r.Path, part) {
			n++
		}
	}
	return n
}

// TestLostCreate_olderTokenIsNotTaken: a cluster token of the same description made a moment before the
// create is never taken for what the lost create made. The create was lost before the service acted, so
// nothing new matches: the create is sent once more, and the older token is left as it was.
func TestLostCreate_olderTokenIsNotTaken(t *testing.T) {
	ctx := context.Background()
	e := newEmulator(t, fakeserver.Options{})
	setup := newTestClient(t, e.url)
	home, err := setup.Clusters.Create(ctx, ClusterCreate{Name: "home"})
	if err != nil {
		t.Fatal(err)
	}
	older, err := setup.ClusterTokens.Create(ctx, home.ID, ClusterTokenCreate{Description: "ci"})
	if err != nil {
		t.Fatal(err)
	}
	c := newTestClient(t, newEmulatorFront(t, e, loseFirst(restCreate("/tokens"), "unacted", nil)))
	tok, err := c.ClusterTokens.Create(ctx, home.ID, ClusterTokenCreate{Description: "ci"})
	if err != nil {
		t.Fatal(err)
	}
	if tok.ID == older.ID || tok.Token == "" {
		t.Errorf("got %+v; want a new token with its secret", tok)
	}
	ids := matching(t, setup.ClusterTokens.Each(ctx, home.ID, ListOptions{}), func(x *ClusterToken) (string, bool) { return x.ID, true })
	if len(ids) != 2 {
		t.Errorf("the emulator holds %v, want the older token and the new one", ids)
	}
	if n := deletesUnder(e, "/tokens/"); n != 0 {
		t.Errorf("%d tokens revoked, want none: the older one is not what the create made", n)
	}
	posts := 0
	for _, r := range e.Requests() {
		if r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/tokens") && r.Status == http.StatusCreated {
			posts++
		}
	}
	if posts != 2 {
		t.Errorf("%d tokens created, want 2 (the older one, and the create sent once more)", posts)
	}
}

// TestLostCreate_agentTokenOlderIsNotRevoked: the same for an unclustered agent token, created through
// GraphQL: one of the same description made before the create is not revoked.
func TestLostCreate_agentTokenOlderIsNotRevoked(t *testing.T) {
	ctx := context.Background()
	e := newEmulator(t, fakeserver.Options{})
	setup := newGraphQLClient(t, e.url, e.url)
	desc := "ci"
	older, err := setup.AgentTokens.Create(ctx, &desc)
	if err != nil {
		t.Fatal(err)
	}
	front := newEmulatorFront(t, e, loseFirst(agentTokenCreate, "unacted", nil))
	c := newGraphQLClient(t, e.url, front)
	tok, err := c.AgentTokens.Create(ctx, &desc)
	if err != nil {
		t.Fatal(err)
	}
	all, err := setup.AgentTokens.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	live := map[string]bool{}
	for _, x := range all {
		live[x.ID] = true
	}
	if len(all) != 2 || !live[older.ID] || !live[tok.ID] {
		t.Errorf("live tokens %+v; want the older %s and the new %s", all, older.ID, tok.ID)
	}
}

// TestLostCreate_twoCandidatesTouchNothing: while the create's answer is lost, someone else makes a token of
// the same description. Two new tokens match: which one the create made cannot be told, so the create fails
// naming both, and neither is revoked.
func TestLostCreate_twoCandidatesTouchNothing(t *testing.T) {
	ctx := context.Background()
	e := newEmulator(t, fakeserver.Options{})
	setup := newTestClient(t, e.url)
	home, err := setup.Clusters.Create(ctx, ClusterCreate{Name: "home"})
	if err != nil {
		t.Fatal(err)
	}
	var other *ClusterToken
	someoneElse := func() {
		var err error
		if other, err = setup.ClusterTokens.Create(ctx, home.ID, ClusterTokenCreate{Description: "ci"}); err != nil {
			t.Error(err)
		}
	}
	c := newTestClient(t, newEmulatorFront(t, e, loseFirst(restCreate("/tokens"), "drop", someoneElse)))
	tok, err := c.ClusterTokens.Create(ctx, home.ID, ClusterTokenCreate{Description: "ci"})
	var ambiguous *AmbiguousCreateError
	if !errors.As(err, &ambiguous) || tok != nil {
		t.Fatalf("got %+v, %v; want an AmbiguousCreateError", tok, err)
	}
	ids := matching(t, setup.ClusterTokens.Each(ctx, home.ID, ListOptions{}), func(x *ClusterToken) (string, bool) { return x.ID, true })
	if len(ids) != 2 {
		t.Fatalf("the emulator holds %v, want both tokens", ids)
	}
	for _, id := range ids {
		if !strings.Contains(err.Error(), id) {
			t.Errorf("the error does not name %s: %v", id, err)
		}
	}
	if other == nil || !strings.Contains(err.Error(), other.ID) {
		t.Errorf("the error does not name the other token %+v", other)
	}
	if n := deletesUnder(e, "/tokens/"); n != 0 {
		t.Errorf("%d tokens revoked, want none", n)
	}
}

// TestLostCreate_anotherCreatesTokenIsExcluded: while one create of the client is in flight, another create
// of the same client makes a token of the same description and returns it; then the first create's answer
// is lost before the service acted. The other create's token is not a candidate: the first create is sent
// once more, and both tokens stay.
func TestLostCreate_anotherCreatesTokenIsExcluded(t *testing.T) {
	ctx := context.Background()
	e := newEmulator(t, fakeserver.Options{})
	setup := newTestClient(t, e.url)
	home, err := setup.Clusters.Create(ctx, ClusterCreate{Name: "home"})
	if err != nil {
		t.Fatal(err)
	}
	var c *Client
	var first *ClusterToken
	meanwhile := func() {
		var err error
		if first, err = c.ClusterTokens.Create(ctx, home.ID, ClusterTokenCreate{Description: "ci"}); err != nil {
			t.Error(err)
		}
	}
	c = newTestClient(t, newEmulatorFront(t, e, loseFirst(restCreate("/tokens"), "unacted", meanwhile)))
	// One answer first, so that the client's pacing lets two requests be in flight at once.
	if _, err := c.Clusters.Get(ctx, home.ID); err != nil {
		t.Fatal(err)
	}
	second, err := c.ClusterTokens.Create(ctx, home.ID, ClusterTokenCreate{Description: "ci"})
	if err != nil {
		t.Fatal(err)
	}
	if first == nil || first.ID == second.ID || second.Token == "" {
		t.Fatalf("got %+v and %+v; want two tokens, each with its secret", first, second)
	}
	ids := matching(t, setup.ClusterTokens.Each(ctx, home.ID, ListOptions{}), func(x *ClusterToken) (string, bool) { return x.ID, true })
	if len(ids) != 2 {
		t.Errorf("the emulator holds %v, want %s and %s", ids, first.ID, second.ID)
	}
	if n := deletesUnder(e, "/tokens/"); n != 0 {
		t.Errorf("%d tokens revoked, want none: the token the other create returned is not this one's", n)
	}
}

// TestLostCreate_registryTokenBesideAnother: a registry token's create acted and its answer was lost, beside
// an older token of the same description. The one the create made is deleted and made once more for its
// secret; the older one is not touched.
func TestLostCreate_registryTokenBesideAnother(t *testing.T) {
	ctx := context.Background()
	e := newEmulator(t, fakeserver.Options{})
	setup := newTestClient(t, e.url)
	reg, err := setup.Registries.Create(ctx, RegistryCreate{Name: "npm", Ecosystem: "javascript"})
	if err != nil {
		t.Fatal(err)
	}
	older, err := setup.RegistryTokens.Create(ctx, reg.Slug, RegistryTokenWrite{Description: "ci"})
	if err != nil {
		t.Fatal(err)
	}
	c := newTestClient(t, newEmulatorFront(t, e, loseFirst(restCreate("/tokens"), "drop", nil)))
	tok, err := c.RegistryTokens.Create(ctx, reg.Slug, RegistryTokenWrite{Description: "ci"})
	if err != nil {
		t.Fatal(err)
	}
	all, err := setup.RegistryTokens.List(ctx, reg.Slug)
	if err != nil {
		t.Fatal(err)
	}
	live := map[string]bool{}
	for _, x := range all {
		live[x.ID] = true
	}
	if len(all) != 2 || !live[older.ID] || !live[tok.ID] || tok.Token == "" {
		t.Errorf("live tokens %+v, got %+v; want the older %s and the new one with its secret", all, tok, older.ID)
	}
	if n := deletesUnder(e, "/tokens/"+older.ID); n != 0 {
		t.Errorf("the older token was deleted %d times", n)
	}
}

// TestLostCreate_olderPipelineIsAnError: a pipeline of the name exists before the create, whose answer is
// lost before the service acted; the create sent once more is refused as taken. The older pipeline is not
// adopted: the refusal stands, naming it.
func TestLostCreate_olderPipelineIsAnError(t *testing.T) {
	ctx := context.Background()
	e := newEmulator(t, fakeserver.Options{})
	setup := newTestClient(t, e.url)
	older, err := setup.Pipelines.Create(ctx, PipelineCreate{Name: "web", Repository: "git@example.com:web.git", Configuration: ptr(DefaultSteps)})
	if err != nil {
		t.Fatal(err)
	}
	c := newTestClient(t, newEmulatorFront(t, e, loseFirst(restCreate("/pipelines"), "unacted", nil)))
	got, err := c.Pipelines.Create(ctx, PipelineCreate{Name: "web", Repository: "git@example.com:web.git", Configuration: ptr(DefaultSteps)})
	var existed *ExistedBeforeError
	if !errors.As(err, &existed) || !IsValidation(err) {
		t.Fatalf("got %+v, %v; want the repeated create's refusal as an ExistedBeforeError", got, err)
	}
	if !strings.Contains(err.Error(), older.ID) || !strings.Contains(err.Error(), older.Slug) {
		t.Errorf("the error does not name the pipeline %s (%s): %v", older.Slug, older.ID, err)
	}
}

// TestLostCreate_createInFlightIsWaitedFor: while one create's answer is lost before the service acted,
// another create of the same client has acted and its answer is still on its way. The token it made is not
// taken for the lost create's: telling what the lost create made waits until the other has its answer.
func TestLostCreate_createInFlightIsWaitedFor(t *testing.T) {
	ctx := context.Background()
	e := newEmulator(t, fakeserver.Options{})
	setup := newTestClient(t, e.url)
	home, err := setup.Clusters.Create(ctx, ClusterCreate{Name: "home"})
	if err != nil {
		t.Fatal(err)
	}
	acted := make(chan struct{})
	var posts sync.Mutex
	n := 0
	// The other create's answer (the first create the service sees: the lost one never reaches it) is held
	// back 300ms after the service acted on it.
	slow := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			posts.Lock()
			if restCreate("/tokens")(r) {
				n++
			}
			held := n == 1 && restCreate("/tokens")(r)
			posts.Unlock()
			if !held {
				next.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			close(acted)
			time.Sleep(300 * time.Millisecond)
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
		})
	}
	var c *Client
	var other *ClusterToken
	var wg sync.WaitGroup
	meanwhile := func() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if other, err = c.ClusterTokens.Create(ctx, home.ID, ClusterTokenCreate{Description: "ci"}); err != nil {
				t.Error(err)
			}
		}()
		<-acted
	}
	c = newTestClient(t, newEmulatorFront(t, e, slow, loseFirst(restCreate("/tokens"), "unacted", meanwhile)))
	if _, err := c.Clusters.Get(ctx, home.ID); err != nil {
		t.Fatal(err)
	}
	tok, err := c.ClusterTokens.Create(ctx, home.ID, ClusterTokenCreate{Description: "ci"})
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if other == nil || other.ID == tok.ID {
		t.Fatalf("got %+v and %+v; want two tokens", other, tok)
	}
	ids := matching(t, setup.ClusterTokens.Each(ctx, home.ID, ListOptions{}), func(x *ClusterToken) (string, bool) { return x.ID, true })
	if len(ids) != 2 {
		t.Errorf("the emulator holds %v, want %s and %s", ids, other.ID, tok.ID)
	}
	if n := deletesUnder(e, "/tokens/"); n != 0 {
		t.Errorf("%d tokens revoked, want none: the other create's token was still on its way", n)
	}
}

// TestLostCreate_replacedAssociationIsAdopted: an association is named by its two sides, which name it again
// once it is removed and made anew. A team membership this client created (adopted after a lost answer) is
// removed, then created again with its answer lost once more: the new one is adopted, though an earlier
// create of the client returned the same pair.
func TestLostCreate_replacedAssociationIsAdopted(t *testing.T) {
	var mu sync.Mutex
	member, posts := false, 0
	s := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/members/"):
			posts++
			if member {
				respond(http.StatusUnprocessableEntity, `{"message":"Validation failed","errors":[{"field":"user","code":"taken","message":"is already a member of this team"}]}`)(w, r)
				return
			}
			member = true
			respond(http.StatusBadGateway, `<html>Bad Gateway</html>`)(w, r) // acted, answer lost
		case r.Method == http.MethodDelete && strings.HasSuffix(r.URL.Path, "/members/u1"):
			member = false
			respond(http.StatusNoContent, "")(w, r)
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/members/u1") && member:
			respond(http.StatusOK, `{"user_id":"u1","role":"maintainer"}`)(w, r)
		default:
			respond(http.StatusNotFound, `{"message":"No team member found"}`)(w, r)
		}
	})
	c := newTestClient(t, s.srv.URL)
	ctx := context.Background()
	for round := 1; round <= 2; round++ {
		got, err := c.TeamMembers.Create(ctx, "t1", TeamMemberCreate{UserID: "u1", Role: "maintainer"})
		if err != nil || got.UserID != "u1" {
			t.Fatalf("create %d: %+v, %v; want the membership it made adopted", round, got, err)
		}
		if posts != round {
			t.Errorf("create %d: %d creates sent in all, want %d", round, posts, round)
		}
		if round == 1 {
			if err := c.TeamMembers.Delete(ctx, "t1", "u1"); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestLostCreate_listingRefusedSendsNothing: when the listing made before a create fails, the create is not
// sent (what it made could not be told apart should its answer be lost), and the error says so after the
// service's own words.
func TestLostCreate_listingRefusedSendsNothing(t *testing.T) {
	s := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			respond(http.StatusForbidden, `{"message":"Forbidden"}`)(w, r)
			return
		}
		respond(http.StatusCreated, `{"id":"t1","description":"ci","token":"secret"}`)(w, r)
	})
	c := newTestClient(t, s.srv.URL)
	_, err := c.ClusterTokens.Create(context.Background(), "c1", ClusterTokenCreate{Description: "ci"})
	if StatusCode(err) != http.StatusForbidden || !strings.HasSuffix(err.Error(), "the create was not sent)") {
		t.Errorf("error = %v; want the listing's 403, saying the create was not sent", err)
	}
	if n := len(s.sent()); n != 0 {
		t.Errorf("%d creates sent, want none", n)
	}
}

// TestLostCreate_ruleBySlugsIsAdopted: a rule naming its pipelines by slug, whose create acted and lost its
// answer, is found among the rules by the pipelines' UUIDs and adopted; nothing is created twice.
func TestLostCreate_ruleBySlugsIsAdopted(t *testing.T) {
	ctx := context.Background()
	e := newEmulator(t, fakeserver.Options{})
	setup := newTestClient(t, e.url)
	var ids []string
	for _, n := range []string{"src", "dst"} {
		p, err := setup.Pipelines.Create(ctx, PipelineCreate{Name: n, Repository: "git@github.com:a/b.git", Configuration: ptr(DefaultSteps)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	c := newTestClient(t, newEmulatorFront(t, e, loseFirst(restCreate("/rules"), "drop", nil)))
	r, err := c.Rules.Create(ctx, RuleCreate{
		Type: "pipeline.trigger_build.pipeline", Value: []byte(`{"source_pipeline":"src","target_pipeline":"dst"}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	all, err := setup.Rules.List(ctx)
	if err != nil || len(all) != 1 || all[0].UUID != r.UUID || r.SourceUUID != ids[0] || r.TargetUUID != ids[1] {
		t.Errorf("got %+v; the emulator holds %+v (%v), want the one rule, adopted", r, all, err)
	}
}

// TestLostCreate_tokenMadeWithErrorsIsExcluded: a create answered with errors beside the token it made
// returns that token (the caller records it); another create of the client whose answer is lost meanwhile
// does not take that token for its own, and revokes nothing.
func TestLostCreate_tokenMadeWithErrorsIsExcluded(t *testing.T) {
	ctx := context.Background()
	e := newEmulator(t, fakeserver.Options{Faults: fakeserver.Faults{Aimed: []fakeserver.AimedFault{{
		Operation: "createAgentToken", Kind: fakeserver.FaultErrorsWithData, Times: 1,
	}}}})
	desc := "ci"
	var c *Client
	var first *AgentToken
	meanwhile := func() {
		var err error
		first, err = c.AgentTokens.Create(ctx, &desc)
		if _, acted := ActedWithErrors(err); !acted || first == nil {
			t.Errorf("the other create: %+v, %v; want its token with an Acted error", first, err)
		}
	}
	front := newEmulatorFront(t, e, loseFirst(agentTokenCreate, "unacted", meanwhile))
	c = newGraphQLClient(t, e.url, front)
	if _, err := c.Organizations.Get(ctx); err != nil { // one answer first, so that two requests may be in flight
		t.Fatal(err)
	}
	second, err := c.AgentTokens.Create(ctx, &desc)
	if err != nil {
		t.Fatal(err)
	}
	all, err := newGraphQLClient(t, e.url, e.url).AgentTokens.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	live := map[string]bool{}
	for _, x := range all {
		live[x.ID] = true
	}
	if first == nil || len(all) != 2 || !live[first.ID] || !live[second.ID] {
		t.Errorf("live tokens %+v; want the one made with errors and the one made after the lost answer", all)
	}
}
