package buildkite

import (
	"context"
	"net/http"
	"testing"
)

const teamID = "c4e5bc36-c5b7-4b19-a0e0-9ef9a3a3d1b5"

// teamJSON is a team as a create or update answers it: the documented team plus the echoed write properties.
const teamJSON = `{
  "id": "c4e5bc36-c5b7-4b19-a0e0-9ef9a3a3d1b5",
  "graphql_id": "VGVhbS0tLWM0ZTViYzM2",
  "name": "Platform Ops",
  "slug": "platform-ops",
  "description": "",
  "privacy": "secret",
  "default": true,
  "is_default_team": true,
  "default_member_role": "maintainer",
  "members_can_create_pipelines": true,
  "created_at": "2026-01-02T03:04:05.123Z",
  "created_by": ` + userJSON + `
}`

// teamReadJSON is a team in the form the teams API lists for reads: no write properties.
const teamReadJSON = `{
  "id": "c4e5bc36-c5b7-4b19-a0e0-9ef9a3a3d1b5",
  "graphql_id": "VGVhbS0tLWM0ZTViYzM2",
  "name": "Platform Ops",
  "slug": "platform-ops",
  "description": "Runs the platform",
  "privacy": "visible",
  "default": true,
  "created_at": "2026-01-02T03:04:05.123Z",
  "created_by": ` + userJSON + `
}`

func TestTeams_List(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `[`+teamJSON+`,`+teamReadJSON+`]`))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Teams.List(context.Background(), TeamListOptions{UserID: "3d3c3bf0-7d58-4afe-8fe7-b3017d5504de"})
	if err != nil {
		t.Fatal(err)
	}
	r := s.only(t)
	assertRequest(t, r, "GET", "/v2/organizations/acme/teams", "")
	if r.Query != "per_page=100&user_id=3d3c3bf0-7d58-4afe-8fe7-b3017d5504de" {
		t.Errorf("query = %q", r.Query)
	}
	if len(got) != 2 {
		t.Fatalf("%d teams", len(got))
	}
	tm := got[0]
	if tm.ID != teamID || tm.Slug != "platform-ops" || tm.Privacy != "secret" || !tm.IsDefault() ||
		tm.DefaultMemberRole == nil || *tm.DefaultMemberRole != "maintainer" ||
		tm.MembersCanCreatePipelines == nil || !*tm.MembersCanCreatePipelines || tm.CreatedAt == nil {
		t.Errorf("team decoded as %+v", tm)
	}
	assertUser(t, tm.CreatedBy)
	// The read form has only "default"; the write properties it lacks stay nil, not zero.
	rd := got[1]
	if !rd.IsDefault() || rd.DefaultMemberRole != nil || rd.MembersCanCreatePipelines != nil || rd.Description != "Runs the platform" {
		t.Errorf("read form decoded as %+v", rd)
	}

	s = newStub(t, respond(http.StatusOK, `[]`))
	c = newTestClient(t, s.srv.URL)
	if _, err := c.Teams.List(context.Background(), TeamListOptions{}); err != nil {
		t.Fatal(err)
	}
	if q := s.only(t).Query; q != "per_page=100" {
		t.Errorf("unfiltered query = %q", q)
	}
}

func TestTeams_Get(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, teamReadJSON))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Teams.Get(context.Background(), teamID)
	if err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "GET", "/v2/organizations/acme/teams/"+teamID, "")
	if got.ID != teamID || got.Name != "Platform Ops" {
		t.Errorf("team = %+v", got)
	}

	s = newStub(t, respond(http.StatusNotFound, `{"message":"No team found"}`))
	c = newTestClient(t, s.srv.URL)
	if got, err := c.Teams.Get(context.Background(), teamID); !IsNotFound(err) || got != nil {
		t.Errorf("Get = %v, %v; want not found", got, err)
	}
	if _, err := c.Teams.Get(context.Background(), ""); err == nil {
		t.Error("Get of an empty ID did not fail")
	}
}

func TestTeams_FindBySlug(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `[`+teamJSON+`]`))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Teams.FindBySlug(context.Background(), "platform-ops")
	if err != nil || got.ID != teamID {
		t.Fatalf("FindBySlug = %+v, %v", got, err)
	}
	if _, err := c.Teams.FindBySlug(context.Background(), "nope"); !IsNotFound(err) {
		t.Errorf("unknown slug: error = %v, want not found", err)
	}
}

func TestTeams_CreateAndUpdateSendAllSix(t *testing.T) {
	in := TeamWrite{Name: "Platform Ops", Privacy: "secret", DefaultMemberRole: "member"}
	// Zero values are sent too: the documentation lists all six as required on both writes.
	want := `{"name":"Platform Ops","description":"","privacy":"secret","is_default_team":false,
		"default_member_role":"member","members_can_create_pipelines":false}`

	s := newStub(t, creating(respond(http.StatusCreated, teamJSON)))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Teams.Create(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.onlyCreate(t), "POST", "/v2/organizations/acme/teams", want)
	if got.ID != teamID {
		t.Errorf("created = %+v", got)
	}

	s = newStub(t, respond(http.StatusOK, teamJSON))
	c = newTestClient(t, s.srv.URL)
	if _, err := c.Teams.Update(context.Background(), teamID, in); err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "PATCH", "/v2/organizations/acme/teams/"+teamID, want)
}

func TestTeams_Delete(t *testing.T) {
	s := newStub(t, respond(http.StatusNoContent, ""))
	c := newTestClient(t, s.srv.URL)
	if err := c.Teams.Delete(context.Background(), teamID); err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "DELETE", "/v2/organizations/acme/teams/"+teamID, "")
}
