package buildkite

import (
	"context"
	"testing"
)

func TestRegistryTokens_Lifecycle(t *testing.T) {
	c := newEmulatorClient(t)
	ctx := context.Background()
	reg, err := c.Registries.Create(ctx, RegistryCreate{Name: "npm", Ecosystem: "javascript"})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := c.RegistryTokens.Create(ctx, reg.Slug, RegistryTokenWrite{Description: "CI"})
	if err != nil {
		t.Fatal(err)
	}
	if tok.Token == "" || tok.ID == "" || tok.Registry == nil || tok.Registry.ID != reg.ID || tok.CreatedAt == nil ||
		tok.Organization == nil || tok.Organization.Slug != "acme" {
		t.Fatalf("created %+v", tok)
	}
	got, err := c.RegistryTokens.Get(ctx, reg.Slug, tok.ID)
	if err != nil || got.Token != "" || got.Description != "CI" {
		t.Fatalf("get: %+v, %v (the secret is shown only on create)", got, err)
	}
	upd, err := c.RegistryTokens.Update(ctx, reg.Slug, tok.ID, RegistryTokenWrite{Description: "Deploys"})
	if err != nil || upd.Description != "Deploys" {
		t.Fatalf("update: %+v, %v", upd, err)
	}
	if all, err := c.RegistryTokens.List(ctx, reg.Slug); err != nil || len(all) != 1 {
		t.Errorf("list: %v, %v", all, err)
	}
	if err := c.RegistryTokens.Delete(ctx, reg.Slug, tok.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.RegistryTokens.Get(ctx, reg.Slug, tok.ID); !IsNotFound(err) {
		t.Errorf("after delete: %v", err)
	}
}
