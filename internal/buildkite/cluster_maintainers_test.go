package buildkite

import (
	"context"
	"fmt"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// secondMember returns the emulator's non-admin member.
func secondMember(t *testing.T, c *Client) Member {
	t.Helper()
	members, err := c.Organizations.ListMembers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range members {
		if m.Email == "second-member@example.com" {
			return m
		}
	}
	t.Fatal("no second member")
	return Member{}
}

func TestClusterMaintainers_Emulator(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{})
	c := newTestClient(t, e.url)
	ctx := context.Background()
	cl := newCluster(t, c, "Maintained")
	team, err := c.Teams.Create(ctx, TeamWrite{Name: "Platform", Privacy: "visible", DefaultMemberRole: "member"})
	if err != nil {
		t.Fatal(err)
	}
	user := secondMember(t, c)

	byUser, err := c.ClusterMaintainers.Create(ctx, cl, ClusterMaintainerCreate{UserID: user.ID})
	if err != nil {
		t.Fatal(err)
	}
	if a := byUser.Actor; byUser.ID == "" || a.ID != user.ID || a.Type != ActorUser || *a.Email != user.Email || a.Slug != nil {
		t.Errorf("user maintainer %+v", byUser)
	}
	byTeam, err := c.ClusterMaintainers.Create(ctx, cl, ClusterMaintainerCreate{TeamID: team.ID})
	if err != nil {
		t.Fatal(err)
	}
	if a := byTeam.Actor; a.Type != ActorTeam || *a.Slug != "platform" || *a.Name != "Platform" || a.Email != nil {
		t.Errorf("team maintainer %+v", byTeam)
	}
	all, err := c.ClusterMaintainers.List(ctx, cl)
	if err != nil || len(all) != 2 || all[0].ID != byUser.ID || all[1].ID != byTeam.ID {
		t.Fatalf("List = %+v, %v", all, err)
	}
	if _, err := c.ClusterMaintainers.Create(ctx, cl, ClusterMaintainerCreate{TeamID: team.ID}); !IsValidation(err) {
		t.Errorf("the team again: %v", err)
	}
	if err := c.ClusterMaintainers.Delete(ctx, cl, byTeam.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ClusterMaintainers.Get(ctx, cl, byTeam.ID); !IsNotFound(err) {
		t.Errorf("Get after Delete: %v", err)
	}
	if got, err := c.ClusterMaintainers.Get(ctx, cl, byUser.ID); err != nil || *got.Actor.Name != user.Name {
		t.Errorf("Get = %+v, %v", got, err)
	}
}

// TestClusterMaintainers_refreshThroughListing: reading every maintainer of a cluster costs its listing;
// a lost create is adopted by its actor.
func TestClusterMaintainers_refreshThroughListing(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{Faults: fakeserver.Faults{DropCreates: 1}})
	c := newTestClient(t, e.url)
	ctx := context.Background()
	cl := newCluster(t, c, "Maintained")
	reader := newTestClient(t, e.url, withListReads)
	readsOneListing(t, e, "/v2/organizations/acme/clusters/"+cl+"/maintainers", 4, func(i int) (string, error) {
		team, err := c.Teams.Create(ctx, TeamWrite{Name: fmt.Sprint("team ", i), Privacy: "visible", DefaultMemberRole: "member"})
		if err != nil {
			return "", err
		}
		m, err := c.ClusterMaintainers.Create(ctx, cl, ClusterMaintainerCreate{TeamID: team.ID})
		switch {
		case err != nil:
			return "", err
		case m.Actor.ID != team.ID:
			return "", fmt.Errorf("adopted the assignment of %s, want %s", m.Actor.ID, team.ID)
		}
		return m.ID, nil
	}, func(id string) error {
		_, err := reader.ClusterMaintainers.Get(ctx, cl, id)
		return err
	})
	if acted := e.FaultCounts().ActedCreates(); acted != 9 {
		t.Fatalf("%d creates lost their answer, want 9", acted)
	}
}
