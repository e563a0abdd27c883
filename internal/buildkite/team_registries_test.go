package buildkite

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// TestTeamRegistries_lifecycle: a grant made over GraphQL is read back by its two sides and in the REST
// registry's team_ids; its level changes in place; a second grant for the same team is refused; once
// deleted, it is not found, and a second delete is a not-found error too.
func TestTeamRegistries_lifecycle(t *testing.T) {
	ctx := context.Background()
	e := newEmulator(t, fakeserver.Options{})
	c := newGraphQLClient(t, e.url, e.url)
	owner, err := c.Teams.Create(ctx, TeamWrite{Name: "Owner", Privacy: "visible", DefaultMemberRole: "member"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := c.Teams.Create(ctx, TeamWrite{Name: "Other", Privacy: "visible", DefaultMemberRole: "member"})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := c.Registries.Create(ctx, RegistryCreate{Name: "gems", Ecosystem: "ruby", TeamIDs: []string{owner.ID}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := c.TeamRegistries.Create(ctx, other.ID, reg.ID, "READ_ONLY")
	if err != nil || g.TeamID() != other.ID || g.RegistryID() != reg.ID || g.AccessLevel != "READ_ONLY" || g.ID == "" {
		t.Fatalf("Create = %+v, %v", g, err)
	}
	if got, err := c.TeamRegistries.Get(ctx, owner.ID, reg.ID); err != nil || got.AccessLevel != "READ_WRITE_AND_ADMIN" {
		t.Fatalf("the owner's access = %+v, %v", got, err)
	}
	if read, err := c.Registries.Get(ctx, reg.Slug); err != nil || len(read.TeamIDs) != 2 || read.TeamIDs[1] != other.ID {
		t.Fatalf("REST team_ids = %+v, %v", read, err)
	}
	if _, err := c.TeamRegistries.Create(ctx, other.ID, reg.ID, "READ_ONLY"); err == nil || !strings.Contains(err.Error(), "already been added") {
		t.Fatalf("second create: %v, want the service's refusal", err)
	}
	if g, err = c.TeamRegistries.Update(ctx, g.ID, "READ_AND_WRITE"); err != nil || g.AccessLevel != "READ_AND_WRITE" {
		t.Fatalf("Update = %+v, %v", g, err)
	}
	if err := c.TeamRegistries.Delete(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TeamRegistries.Get(ctx, other.ID, reg.ID); !IsNotFound(err) {
		t.Fatalf("Get after delete: %v, want not found", err)
	}
	if err := c.TeamRegistries.Delete(ctx, g.ID); !IsNotFound(err) {
		t.Fatalf("second Delete: %v, want not found", err)
	}
	if _, err := c.TeamRegistries.List(ctx, "0f3c9a52-1d2e-4b6a-9c8d-7e6f5a4b3c2d"); !IsNotFound(err) {
		t.Fatalf("List of a registry nobody has: %v, want not found", err)
	}
}

// TestLostCreate_teamRegistryIsAdopted: the answer to teamRegistryCreate is lost after the service acted;
// the grant it made, which was not there before, is adopted and the mutation is not sent again.
func TestLostCreate_teamRegistryIsAdopted(t *testing.T) {
	ctx := context.Background()
	e := newEmulator(t, fakeserver.Options{})
	setup := newGraphQLClient(t, e.url, e.url)
	team, err := setup.Teams.Create(ctx, TeamWrite{Name: "T", Privacy: "visible", DefaultMemberRole: "member"})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := setup.Registries.Create(ctx, RegistryCreate{Name: "gems", Ecosystem: "ruby"})
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	creates := func(r *http.Request) bool {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte("teamRegistryCreate")) {
			sent++
			return true
		}
		return false
	}
	c := newGraphQLClient(t, e.url, newEmulatorFront(t, e, loseFirst(creates, "drop", nil)))
	g, err := c.TeamRegistries.Create(ctx, team.ID, reg.ID, "READ_AND_WRITE")
	if err != nil || g.TeamID() != team.ID || g.AccessLevel != "READ_AND_WRITE" {
		t.Fatalf("Create = %+v, %v; want the grant it made adopted", g, err)
	}
	if sent != 1 {
		t.Errorf("%d creates sent, want 1", sent)
	}
}
