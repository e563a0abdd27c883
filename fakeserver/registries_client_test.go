package fakeserver

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/buildkite/go-buildkite/v4"
)

// newRegistryClient returns go-buildkite's client talking to a fresh emulator.
func newRegistryClient(t *testing.T) *buildkite.Client {
	t.Helper()
	return newEnv(t, Options{}).goBuildkite()
}

// TestRegistryGoBuildkite drives the registry endpoints through go-buildkite v4's PackageRegistriesService,
// so its types decode every response (oidc_policy as a string, nulls into strings).
func TestRegistryGoBuildkite(t *testing.T) {
	ctx := context.Background()
	c := newRegistryClient(t)
	svc := c.PackageRegistriesService

	created, _, err := svc.Create(ctx, "acme", buildkite.CreatePackageRegistryInput{
		Name: "Client Gems", Ecosystem: "ruby", Description: "from go-buildkite", Emoji: ":gem:", Color: "#ff0000",
		OIDCPolicy: buildkite.PackageRegistryOIDCPolicy{{
			Issuer: "https://agent.buildkite.com",
			Scopes: []string{"read_packages"},
			Claims: map[string]buildkite.ClaimRule{"pipeline_slug": {Equals: "my-pipeline"}},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if created.Slug != "client-gems" || created.Ecosystem != "ruby" || created.Description != "from go-buildkite" ||
		created.Emoji != ":gem:" || created.Color != "#ff0000" || created.ID == "" || created.GraphQLID == "" ||
		created.OIDCPolicy == "" || created.Public {
		t.Fatalf("created %+v", created)
	}

	// A registry with only the required properties: its nulls decode as empty strings.
	bare, _, err := svc.Create(ctx, "acme", buildkite.CreatePackageRegistryInput{Name: "bare", Ecosystem: "python"})
	if err != nil {
		t.Fatal(err)
	}
	if bare.Description != "" || bare.OIDCPolicy != "" || bare.Emoji != "" {
		t.Fatalf("bare %+v", bare)
	}

	got, _, err := svc.Get(ctx, "acme", "client-gems")
	if err != nil || got != created {
		t.Fatalf("get %+v, %v; want %+v", got, err, created)
	}
	list, _, err := svc.List(ctx, "acme")
	if err != nil || len(list) != 2 || list[0] != created || list[1] != bare {
		t.Fatalf("list %+v, %v", list, err)
	}

	// go-buildkite updates with PATCH.
	updated, _, err := svc.Update(ctx, "acme", "client-gems", buildkite.UpdatePackageRegistryInput{Description: "changed"})
	if err != nil || updated.Description != "changed" || updated.Name != "Client Gems" {
		t.Fatalf("update %+v, %v", updated, err)
	}

	if _, err := svc.Delete(ctx, "acme", "client-gems"); err != nil {
		t.Fatal(err)
	}
	_, resp, err := svc.Get(ctx, "acme", "client-gems")
	var apiErr *buildkite.ErrorResponse
	if !errors.As(err, &apiErr) || resp.StatusCode != http.StatusNotFound || apiErr.Message != "No registry found" {
		t.Fatalf("get after delete: %v", err)
	}
}

// registryTokenDecoded mirrors the PackageRegistryToken type of later go-buildkite versions (v4.23.0 has
// no registry-token service), using v4.23.0's own Timestamp so timestamps are checked by its decoder.
type registryTokenDecoded struct {
	ID          string               `json:"id"`
	GraphQLID   string               `json:"graphql_id"`
	Description string               `json:"description"`
	URL         string               `json:"url"`
	CreatedAt   *buildkite.Timestamp `json:"created_at"`
	CreatedBy   struct {
		ID        string               `json:"id"`
		GraphQLID string               `json:"graphql_id"`
		Name      string               `json:"name"`
		Email     string               `json:"email"`
		AvatarURL string               `json:"avatar_url"`
		CreatedAt *buildkite.Timestamp `json:"created_at"`
	} `json:"created_by"`
	Organization struct {
		ID, Slug, URL string
		WebURL        string `json:"web_url"`
	} `json:"organization"`
	Registry struct {
		ID        string `json:"id"`
		GraphQLID string `json:"graphql_id"`
		Slug      string `json:"slug"`
		URL       string `json:"url"`
		WebURL    string `json:"web_url"`
	} `json:"registry"`
	Token string `json:"token"`
}

// TestRegistryTokenGoBuildkite sends the registry-token requests through go-buildkite's request path
// (NewRequest/Do, the way its later PackageRegistryTokensService does: update by POST) and decodes them.
func TestRegistryTokenGoBuildkite(t *testing.T) {
	ctx := context.Background()
	c := newRegistryClient(t)
	if _, _, err := c.PackageRegistriesService.Create(ctx, "acme", buildkite.CreatePackageRegistryInput{Name: "toks", Ecosystem: "files"}); err != nil {
		t.Fatal(err)
	}
	call := func(method, path string, body any, out any) *buildkite.Response {
		t.Helper()
		req, err := c.NewRequest(ctx, method, "v2/packages/organizations/acme/registries/toks/tokens"+path, body)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Do(req, out)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		return resp
	}

	var created registryTokenDecoded
	if resp := call("POST", "", map[string]string{"description": "CI"}, &created); resp.StatusCode != http.StatusOK {
		t.Fatalf("create status %d", resp.StatusCode)
	}
	if created.Token == "" || created.CreatedAt == nil || created.CreatedAt.IsZero() || created.CreatedBy.CreatedAt == nil ||
		created.CreatedBy.Name != "Test User" || created.Organization.Slug != "acme" || created.Registry.Slug != "toks" {
		t.Fatalf("created %+v", created)
	}
	var got registryTokenDecoded
	call("GET", "/"+created.ID, nil, &got)
	if got.Token != "" || got.ID != created.ID || !got.CreatedAt.Time.Equal(created.CreatedAt.Time) {
		t.Fatalf("get %+v", got)
	}
	var list []registryTokenDecoded
	call("GET", "", nil, &list)
	if len(list) != 1 || list[0].Token != "" {
		t.Fatalf("list %+v", list)
	}
	var updated registryTokenDecoded
	call("POST", "/"+created.ID, map[string]string{"description": "renamed"}, &updated)
	if updated.Description != "renamed" || updated.Token != "" {
		t.Fatalf("update %+v", updated)
	}
	call("DELETE", "/"+created.ID, nil, nil)
}
