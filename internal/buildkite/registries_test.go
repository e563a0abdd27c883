package buildkite

import (
	"context"
	"net/http"
	"testing"
)

func TestRegistries_Lifecycle(t *testing.T) {
	c := newEmulatorClient(t)
	ctx := context.Background()
	created, err := c.Registries.Create(ctx, RegistryCreate{Name: "Ruby Gems", Ecosystem: "ruby", Description: ptr("gems")})
	if err != nil {
		t.Fatal(err)
	}
	if created.Slug != "ruby-gems" || created.Ecosystem != "ruby" || created.Description == nil || *created.Description != "gems" ||
		created.Emoji != nil || created.ID == "" || created.GraphQLID == "" || created.WebURL == "" {
		t.Fatalf("created %+v", created)
	}
	updated, err := c.Registries.Update(ctx, "ruby-gems", RegistryUpdate{Name: ptr("Gems"), Description: ptr(""), Color: ptr("#00FF00")})
	if err != nil {
		t.Fatal(err)
	}
	if updated.Slug != "gems" || updated.Description != nil || updated.Color == nil {
		t.Errorf("updated %+v", updated)
	}
	if got, err := c.Registries.Get(ctx, "gems"); err != nil || got.ID != created.ID {
		t.Errorf("get: %+v, %v", got, err)
	}
	if got, err := c.Registries.GetByID(ctx, created.ID); err != nil || got.Slug != "gems" {
		t.Errorf("by id: %+v, %v", got, err)
	}
	if all, err := c.Registries.List(ctx); err != nil || len(all) != 1 {
		t.Errorf("list: %v, %v", all, err)
	}
	if err := c.Registries.Delete(ctx, "gems"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Registries.Get(ctx, "gems"); !IsNotFound(err) {
		t.Errorf("after delete: %v", err)
	}
	if _, err := c.Registries.GetByID(ctx, created.ID); !IsNotFound(err) || err.Error() == "" {
		t.Errorf("by id after delete: %v", err)
	}
}

// An update is a POST, but repeating it changes nothing more: it is retried after a 5xx, unlike a create.
func TestRegistries_UpdateIsRetriedCreateIsNot(t *testing.T) {
	s := newStub(t, respond(http.StatusBadGateway, `{"message":"busy"}`))
	c := newTestClient(t, s.srv.URL)
	if _, err := c.Registries.Update(context.Background(), "gems", RegistryUpdate{Name: ptr("x")}); err == nil {
		t.Fatal("want an error")
	}
	reqs := s.requests()
	if len(reqs) < 2 || reqs[0].Method != http.MethodPost || reqs[0].Path != "/v2/packages/organizations/acme/registries/gems" {
		t.Fatalf("update requests %+v", reqs)
	}
	before := s.count()
	if _, err := c.RegistryTokens.Update(context.Background(), "gems", "t1", RegistryTokenWrite{Description: "d"}); err == nil {
		t.Fatal("want an error")
	}
	if s.count()-before < 2 {
		t.Errorf("token update sent %d times, want retries", s.count()-before)
	}
}
