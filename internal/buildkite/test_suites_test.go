package buildkite

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// emulatorWithStore serves a fresh emulator (organization "acme", token "test-token", on both the REST and
// the agent origin) and returns a client for it with the server, whose store tests seed.
func emulatorWithStore(t *testing.T) (*Client, *fakeserver.Server) {
	t.Helper()
	fs := fakeserver.New(fakeserver.Options{})
	srv := httptest.NewServer(fs)
	t.Cleanup(srv.Close)
	return newTestClient(t, srv.URL, func(cfg *Config) { cfg.AgentURL = srv.URL }), fs
}

func TestTestSuites_Lifecycle(t *testing.T) {
	c := newEmulatorClient(t)
	ctx := context.Background()
	team, err := c.Teams.Create(ctx, TeamWrite{Name: "Owners", Privacy: "visible", DefaultMemberRole: "member"})
	if err != nil {
		t.Fatal(err)
	}

	created, err := c.TestSuites.Create(ctx, TestSuiteCreate{
		Name: "Unit Tests", DefaultBranch: "main", ShowAPIToken: true, TeamIDs: []string{team.ID}, Emoji: ptr(":test_tube:"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if created.Slug != "unit-tests" || created.APIToken == "" || created.ID == "" || created.GraphQLID == "" ||
		created.Emoji == nil || *created.Emoji != ":test_tube:" || created.Color != nil {
		t.Fatalf("created %+v", created)
	}

	got, err := c.TestSuites.Get(ctx, "unit-tests")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != created.ID || got.APIToken != "" {
		t.Errorf("get = %+v: the token is shown only on create", got)
	}

	renamed, err := c.TestSuites.Update(ctx, "unit-tests", TestSuiteUpdate{Name: ptr("Integration"), Color: ptr("#FF0000")})
	if err != nil {
		t.Fatal(err)
	}
	if renamed.Slug != "integration" || renamed.Color == nil || *renamed.Color != "#FF0000" {
		t.Errorf("renamed %+v", renamed)
	}
	if _, err := c.TestSuites.Get(ctx, "unit-tests"); !IsNotFound(err) {
		t.Errorf("old slug: %v, want 404", err)
	}
	byID, err := c.TestSuites.GetByID(ctx, created.ID)
	if err != nil || byID.Slug != "integration" {
		t.Fatalf("by id: %+v, %v", byID, err)
	}
	all, err := c.TestSuites.List(ctx)
	if err != nil || len(all) != 1 {
		t.Fatalf("list: %v, %v", all, err)
	}

	if err := c.TestSuites.Delete(ctx, "integration"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TestSuites.GetByID(ctx, created.ID); !IsNotFound(err) {
		t.Errorf("by id after delete: %v, want 404", err)
	}
}

func TestTestSuites_CreateBody(t *testing.T) {
	s := newStub(t, creating(respond(http.StatusCreated, `{"id":"s1","slug":"a","name":"A","default_branch":"main","api_token":"secret"}`)))
	c := newTestClient(t, s.srv.URL)
	got, err := c.TestSuites.Create(context.Background(), TestSuiteCreate{Name: "A", DefaultBranch: "main", ShowAPIToken: true, TeamIDs: []string{"t1"}})
	if err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.onlyCreate(t), "POST", "/v2/analytics/organizations/acme/suites",
		`{"name":"A","default_branch":"main","show_api_token":true,"team_ids":["t1"]}`)
	if got.APIToken != "secret" {
		t.Errorf("api token = %q", got.APIToken)
	}
}

func TestTestSuites_UpdateIsRetried(t *testing.T) {
	n := 0
	s := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		n++
		if n == 1 {
			respond(http.StatusBadGateway, `{"message":"busy"}`)(w, r)
			return
		}
		respond(http.StatusOK, `{"id":"s1","slug":"a"}`)(w, r)
	})
	c := newTestClient(t, s.srv.URL)
	if _, err := c.TestSuites.Update(context.Background(), "a", TestSuiteUpdate{DefaultBranch: ptr("trunk")}); err != nil {
		t.Fatal(err)
	}
	reqs := s.requests()
	if len(reqs) != 2 || reqs[1].Method != http.MethodPatch || reqs[1].Path != "/v2/analytics/organizations/acme/suites/a" {
		t.Errorf("requests %+v", reqs)
	}
}
