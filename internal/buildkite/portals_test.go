package buildkite

import (
	"context"
	"fmt"
	"testing"
)

func TestPortals_Lifecycle(t *testing.T) {
	c := newEmulatorClient(t)
	ctx := context.Background()
	created, err := c.Portals.Create(ctx, PortalWrite{Name: "Stats", Slug: "stats", Query: "{ viewer { user { name } } }",
		Description: ptr("numbers"), AllowedIPAddresses: ptr("10.0.0.0/8")})
	if err != nil {
		t.Fatal(err)
	}
	if created.Token == "" || created.UUID == "" || created.Description == nil || *created.Description != "numbers" ||
		created.CreatedBy == nil || created.CreatedAt == nil {
		t.Fatalf("created %+v", created)
	}
	got, err := c.Portals.Get(ctx, "stats")
	if err != nil || got.Token != "" || got.UUID != created.UUID {
		t.Fatalf("get %+v, %v", got, err)
	}
	// Nil optional fields clear them on an update; the slug may change.
	updated, err := c.Portals.Update(ctx, "stats", PortalWrite{Name: "Stats", Slug: "numbers", Query: "{ viewer { user { email } } }", UserInvokable: true})
	if err != nil {
		t.Fatal(err)
	}
	if updated.Slug != "numbers" || updated.Description != nil || updated.AllowedIPAddresses != nil || !updated.UserInvokable {
		t.Fatalf("updated %+v", updated)
	}
	if err := c.Portals.Delete(ctx, "numbers"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Portals.Get(ctx, "numbers"); !IsNotFound(err) {
		t.Fatalf("after delete: %v", err)
	}
}

// List reads every page, not only the first.
func TestPortals_ListEveryPage(t *testing.T) {
	c := newEmulatorClient(t)
	ctx := context.Background()
	for i := range 105 {
		if _, err := c.Portals.Create(ctx, PortalWrite{Name: fmt.Sprintf("P %d", i), Slug: fmt.Sprintf("p-%d", i), Query: "{ a }"}); err != nil {
			t.Fatal(err)
		}
	}
	all, err := c.Portals.List(ctx)
	if err != nil || len(all) != 105 {
		t.Fatalf("list: %d, %v", len(all), err)
	}
}
