package buildkite

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// emulatorPost creates an object the client has no service for yet (pipelines, suites) and returns its id.
func emulatorPost(t *testing.T, base, path, body string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+path, bytes.NewBufferString(body))
	req.Header.Set("Authorization", "Bearer test-token")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out struct{ ID string }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST %s: %d %v", path, resp.StatusCode, err)
	}
	return out.ID
}

// TestTeamServices_Emulator drives every team service against the emulator, so the paths the client
// sends (the documentation's trailing slashes and singular /suite/) are ones the emulator serves.
func TestTeamServices_Emulator(t *testing.T) {
	srv := httptest.NewServer(fakeserver.New(fakeserver.Options{}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL)
	ctx := context.Background()

	team, err := c.Teams.Create(ctx, TeamWrite{Name: "Platform Ops", Privacy: "secret", DefaultMemberRole: "maintainer", MembersCanCreatePipelines: true})
	if err != nil {
		t.Fatal(err)
	}
	if team.Slug != "platform-ops" || team.Privacy != "secret" || team.IsDefault() ||
		team.DefaultMemberRole == nil || *team.DefaultMemberRole != "maintainer" || !*team.MembersCanCreatePipelines {
		t.Errorf("created team = %+v", team)
	}
	if team, err = c.Teams.Update(ctx, team.ID, TeamWrite{Name: "Platform", Description: "d", Privacy: "visible", IsDefaultTeam: true, DefaultMemberRole: "member"}); err != nil ||
		team.Slug != "platform" || !team.IsDefault() || *team.MembersCanCreatePipelines {
		t.Fatalf("Update = %+v, %v", team, err)
	}
	if found, err := c.Teams.FindBySlug(ctx, "platform"); err != nil || found.ID != team.ID {
		t.Errorf("FindBySlug = %+v, %v", found, err)
	}

	members, err := c.Organizations.ListMembers(ctx)
	if err != nil || len(members) < 2 {
		t.Fatalf("organization members = %+v, %v", members, err)
	}
	user := members[1].ID
	if _, err := c.TeamMembers.Create(ctx, team.ID, TeamMemberCreate{UserID: user, Role: "member"}); err != nil {
		t.Fatal(err)
	}
	if m, err := c.TeamMembers.Update(ctx, team.ID, user, "maintainer"); err != nil || m.Role != "maintainer" || m.UserName == "" {
		t.Fatalf("member Update = %+v, %v", m, err)
	}
	if byUser, err := c.Teams.List(ctx, TeamListOptions{UserID: user}); err != nil || len(byUser) != 1 {
		t.Errorf("teams of the user = %+v, %v", byUser, err)
	}

	pipeline := emulatorPost(t, srv.URL, "/v2/organizations/acme/pipelines",
		`{"name":"My Pipeline","repository":"git@example.com:a/b.git","configuration":"steps: []"}`)
	if _, err := c.TeamPipelines.Create(ctx, team.ID, TeamPipelineCreate{PipelineID: pipeline, AccessLevel: "read_only"}); err != nil {
		t.Fatal(err)
	}
	if tp, err := c.TeamPipelines.Update(ctx, team.ID, pipeline, "build_and_read"); err != nil ||
		tp.AccessLevel != "build_and_read" || tp.PipelineSlug() != "my-pipeline" {
		t.Fatalf("pipeline Update = %+v, %v", tp, err)
	}

	// With teams enabled a suite needs an owning team, which gets read and edit; give it another one.
	owner, err := c.Teams.Create(ctx, TeamWrite{Name: "Owners", Privacy: "visible", DefaultMemberRole: "member"})
	if err != nil {
		t.Fatal(err)
	}
	suite := emulatorPost(t, srv.URL, "/v2/analytics/organizations/acme/suites",
		`{"name":"My Suite","default_branch":"main","team_ids":["`+owner.ID+`"]}`)
	if _, err := c.TeamSuites.Create(ctx, team.ID, TeamSuiteCreate{SuiteID: suite, AccessLevel: []string{"read"}}); err != nil {
		t.Fatal(err)
	}
	if ts, err := c.TeamSuites.Update(ctx, team.ID, suite, []string{"read", "edit"}); err != nil ||
		!reflect.DeepEqual(ts.AccessLevel, []string{"read", "edit"}) || ts.SuiteSlug() != "my-suite" {
		t.Fatalf("suite Update = %+v, %v", ts, err)
	}

	if err := c.TeamSuites.Delete(ctx, team.ID, suite); err != nil {
		t.Fatal(err)
	}
	if err := c.TeamPipelines.Delete(ctx, team.ID, pipeline); err != nil {
		t.Fatal(err)
	}
	if err := c.TeamMembers.Delete(ctx, team.ID, user); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"suite":    errOf(c.TeamSuites.Get(ctx, team.ID, suite)),
		"pipeline": errOf(c.TeamPipelines.Get(ctx, team.ID, pipeline)),
		"member":   errOf(c.TeamMembers.Get(ctx, team.ID, user)),
	} {
		if !IsNotFound(err) {
			t.Errorf("%s after delete: %v, want not found", name, err)
		}
	}
	if err := c.Teams.Delete(ctx, team.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Teams.Get(ctx, team.ID); !IsNotFound(err) {
		t.Errorf("team after delete: %v", err)
	}
}

func errOf[T any](_ T, err error) error { return err }
