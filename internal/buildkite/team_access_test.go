package buildkite

import (
	"context"
	"net/http"
	"reflect"
	"testing"
)

const (
	userID     = "3d3c3bf0-7d58-4afe-8fe7-b3017d5504de"
	pipelineID = "01885682-55a7-44f5-84f3-0402fb452e66"
	suiteID    = "7a0a1c77-9b4f-4b9e-a0b5-2c35d9f3b8e3"
	teamBase   = "/v2/organizations/acme/teams/" + teamID
)

const teamMemberJSON = `{"user_id":"` + userID + `","user_name":"Sam Kim","role":"maintainer","created_at":"2026-01-02T03:04:05.123Z"}`

const teamPipelineJSON = `{"pipeline_id":"` + pipelineID + `",
  "pipeline_url":"https://api.buildkite.com/v2/organizations/acme/pipelines/my-pipeline",
  "access_level":"build_and_read","created_at":"2026-01-02T03:04:05.123Z"}`

const teamSuiteJSON = `{"suite_id":"` + suiteID + `",
  "suite_url":"https://api.buildkite.com/v2/analytics/organizations/acme/suites/my-suite",
  "access_level":["read","edit"],"created_at":"2026-01-02T03:04:05.123Z"}`

func TestTeamMembers(t *testing.T) {
	ctx := context.Background()
	s := newStub(t, respond(http.StatusOK, `[`+teamMemberJSON+`]`))
	c := newTestClient(t, s.srv.URL)
	list, err := c.TeamMembers.List(ctx, teamID)
	if err != nil || len(list) != 1 || list[0].UserID != userID || list[0].UserName != "Sam Kim" ||
		list[0].Role != "maintainer" || list[0].CreatedAt == nil {
		t.Fatalf("List = %+v, %v", list, err)
	}
	assertRequest(t, s.only(t), "GET", teamBase+"/members", "")

	s = newStub(t, respond(http.StatusOK, teamMemberJSON))
	c = newTestClient(t, s.srv.URL)
	if m, err := c.TeamMembers.Get(ctx, teamID, userID); err != nil || m.Role != "maintainer" {
		t.Fatalf("Get = %+v, %v", m, err)
	}
	assertRequest(t, s.only(t), "GET", teamBase+"/members/"+userID, "")

	s = newStub(t, creating(respond(http.StatusCreated, teamMemberJSON)))
	c = newTestClient(t, s.srv.URL)
	if _, err := c.TeamMembers.Create(ctx, teamID, TeamMemberCreate{UserID: userID, Role: "maintainer"}); err != nil {
		t.Fatal(err)
	}
	// The documentation's form, with the trailing slash.
	assertRequest(t, s.onlyCreate(t), "POST", teamBase+"/members/", `{"user_id":"`+userID+`","role":"maintainer"}`)

	s = newStub(t, respond(http.StatusOK, teamMemberJSON))
	c = newTestClient(t, s.srv.URL)
	if _, err := c.TeamMembers.Update(ctx, teamID, userID, "member"); err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "PATCH", teamBase+"/members/"+userID, `{"role":"member"}`)

	s = newStub(t, respond(http.StatusNoContent, ""))
	c = newTestClient(t, s.srv.URL)
	if err := c.TeamMembers.Delete(ctx, teamID, userID); err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "DELETE", teamBase+"/members/"+userID, "")

	if _, err := c.TeamMembers.Get(ctx, teamID, ""); err == nil {
		t.Error("Get with an empty user ID did not fail")
	}
}

func TestTeamPipelines(t *testing.T) {
	ctx := context.Background()
	s := newStub(t, respond(http.StatusOK, `[`+teamPipelineJSON+`]`))
	c := newTestClient(t, s.srv.URL)
	list, err := c.TeamPipelines.List(ctx, teamID)
	if err != nil || len(list) != 1 || list[0].PipelineID != pipelineID || list[0].AccessLevel != "build_and_read" ||
		list[0].PipelineSlug() != "my-pipeline" || list[0].CreatedAt == nil {
		t.Fatalf("List = %+v, %v", list, err)
	}
	assertRequest(t, s.only(t), "GET", teamBase+"/pipelines", "")

	s = newStub(t, respond(http.StatusOK, teamPipelineJSON))
	c = newTestClient(t, s.srv.URL)
	if _, err := c.TeamPipelines.Get(ctx, teamID, pipelineID); err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "GET", teamBase+"/pipelines/"+pipelineID, "")

	s = newStub(t, creating(respond(http.StatusCreated, teamPipelineJSON)))
	c = newTestClient(t, s.srv.URL)
	if _, err := c.TeamPipelines.Create(ctx, teamID, TeamPipelineCreate{PipelineID: pipelineID, AccessLevel: "read_only"}); err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.onlyCreate(t), "POST", teamBase+"/pipelines/", `{"pipeline_id":"`+pipelineID+`","access_level":"read_only"}`)

	s = newStub(t, respond(http.StatusOK, teamPipelineJSON))
	c = newTestClient(t, s.srv.URL)
	if _, err := c.TeamPipelines.Update(ctx, teamID, pipelineID, "manage_build_and_read"); err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "PATCH", teamBase+"/pipelines/"+pipelineID, `{"access_level":"manage_build_and_read"}`)

	s = newStub(t, respond(http.StatusNoContent, ""))
	c = newTestClient(t, s.srv.URL)
	if err := c.TeamPipelines.Delete(ctx, teamID, pipelineID); err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "DELETE", teamBase+"/pipelines/"+pipelineID, "")
}

func TestTeamSuites(t *testing.T) {
	ctx := context.Background()
	s := newStub(t, respond(http.StatusOK, `[`+teamSuiteJSON+`]`))
	c := newTestClient(t, s.srv.URL)
	list, err := c.TeamSuites.List(ctx, teamID)
	if err != nil || len(list) != 1 || list[0].SuiteID != suiteID || list[0].SuiteSlug() != "my-suite" ||
		!reflect.DeepEqual(list[0].AccessLevel, []string{"read", "edit"}) {
		t.Fatalf("List = %+v, %v", list, err)
	}
	assertRequest(t, s.only(t), "GET", teamBase+"/suites", "")

	s = newStub(t, respond(http.StatusOK, teamSuiteJSON))
	c = newTestClient(t, s.srv.URL)
	if _, err := c.TeamSuites.Get(ctx, teamID, suiteID); err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "GET", teamBase+"/suites/"+suiteID, "")

	s = newStub(t, creating(respond(http.StatusCreated, teamSuiteJSON)))
	c = newTestClient(t, s.srv.URL)
	if _, err := c.TeamSuites.Create(ctx, teamID, TeamSuiteCreate{SuiteID: suiteID, AccessLevel: []string{"read"}}); err != nil {
		t.Fatal(err)
	}
	// The singular segment and trailing slash are the documentation's.
	assertRequest(t, s.onlyCreate(t), "POST", teamBase+"/suite/", `{"suite_id":"`+suiteID+`","access_level":["read"]}`)

	s = newStub(t, respond(http.StatusOK, teamSuiteJSON))
	c = newTestClient(t, s.srv.URL)
	if _, err := c.TeamSuites.Update(ctx, teamID, suiteID, []string{"read", "edit"}); err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "PATCH", teamBase+"/suites/"+suiteID, `{"access_level":["read","edit"]}`)

	s = newStub(t, respond(http.StatusNoContent, ""))
	c = newTestClient(t, s.srv.URL)
	if err := c.TeamSuites.Delete(ctx, teamID, suiteID); err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "DELETE", teamBase+"/suites/"+suiteID+"/", "")
}
