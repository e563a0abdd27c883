package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// The objects the team association tests give teams access to. Pipelines and suites are created here with
// plain REST calls, in this one place, until the client has services for them; then these become calls to
// e.client.Pipelines and e.client.TestSuites. They work against the emulator and the real service alike.

// seeded is a pipeline or a suite made for a test.
type seeded struct{ id, slug string }

// seedPipeline creates a pipeline named name, deleted when the test ends.
func (e *testEnv) seedPipeline(name string) seeded {
	e.t.Helper()
	p := e.seedREST("/v2/organizations/"+e.org+"/pipelines", map[string]any{
		"name": name, "repository": "git@github.com:acme/app.git", "configuration": "steps:\n  - command: true\n",
	})
	e.t.Cleanup(func() { e.deleteREST("/v2/organizations/" + e.org + "/pipelines/" + p.slug) })
	return p
}

// seedSuite creates a test suite named name. Organizations with teams enabled (the emulator's and most
// real ones) need a team to own it; that team gets read and edit access.
func (e *testEnv) seedSuite(name, ownerTeamID string) seeded {
	e.t.Helper()
	s := e.seedREST("/v2/analytics/organizations/"+e.org+"/suites", map[string]any{
		"name": name, "default_branch": "main", "team_ids": []string{ownerTeamID},
	})
	e.t.Cleanup(func() { e.deleteREST("/v2/analytics/organizations/" + e.org + "/suites/" + s.slug) })
	return s
}

// seedTeam creates a team through the client, deleted when the test ends.
func (e *testEnv) seedTeam(name string) *buildkite.Team {
	e.t.Helper()
	t, err := e.client.Teams.Create(context.Background(), buildkite.TeamWrite{Name: name, Privacy: "visible", DefaultMemberRole: "member"})
	if err != nil {
		e.t.Fatalf("seeding team %q: %v", name, err)
	}
	e.t.Cleanup(func() { _ = e.client.Teams.Delete(context.Background(), t.ID) })
	return t
}

func (e *testEnv) seedREST(path string, body any) seeded {
	e.t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, strings.TrimSuffix(e.url, "/")+path, bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+e.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("POST %s: %v", path, err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out struct{ ID, Slug string }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusCreated || out.ID == "" {
		e.t.Fatalf("POST %s: %d %v", path, resp.StatusCode, err)
	}
	return seeded{id: out.ID, slug: out.Slug}
}

// deleteREST deletes what a test seeded; the emulator goes away with the test, the real service needs it.
func (e *testEnv) deleteREST(path string) {
	if !e.live {
		return
	}
	req, _ := http.NewRequest(http.MethodDelete, strings.TrimSuffix(e.url, "/")+path, nil)
	req.Header.Set("Authorization", "Bearer "+e.token)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		_ = resp.Body.Close()
	} else {
		e.t.Logf("cleaning up %s: %v", path, fmt.Sprint(err))
	}
}
