package fakeserver

import (
	"net/http"
	"testing"
)

// TestGraphQLAPIIPAllowlist: organizationApiIpAllowlistUpdate writes the list REST's api-settings shows
// (and the other way round), with REST's check of the CIDRs, for administrators only; a blank list removes it.
func TestGraphQLAPIIPAllowlist(t *testing.T) {
	e := newEnv(t, Options{})
	const set = `mutation($org: ID!, $ips: String!) { organizationApiIpAllowlistUpdate(input: {organizationID: $org, ipAddresses: $ips}) {
  organization { allowedApiIpAddresses } } }`
	org := e.orgGraphQLID()
	a := e.gql(set, map[string]any{"org": org, "ips": "127.0.0.0/8  10.0.0.0/8"}).ok(t)
	if a.str(t, "organizationApiIpAllowlistUpdate", "organization", "allowedApiIpAddresses") != "127.0.0.0/8 10.0.0.0/8" {
		t.Fatalf("set: %s", a.raw)
	}
	if v := e.api("GET", "/api-settings", nil).object(t); v["allowed_ip_addresses"] != "127.0.0.0/8 10.0.0.0/8" {
		t.Fatalf("over REST: %v", v)
	}
	want := "Validation failed: Allowed ip addresses must be IP networks in CIDR notation, separated by spaces"
	if msg := e.gql(set, map[string]any{"org": org, "ips": "127.0.0.0/8 nonsense"}).errorMessage(t); msg != want {
		t.Fatalf("bad CIDR: %q", msg)
	}
	if a := e.gqlAs(e.memberToken(), set, map[string]any{"org": org, "ips": ""}, ""); len(a.Errors) != 1 {
		t.Fatalf("non-admin: %s", a.raw)
	}
	e.gql(set, map[string]any{"org": org, "ips": " "}).ok(t)
	if v := e.api("GET", "/api-settings", nil).object(t); v["allowed_ip_addresses"] != nil {
		t.Fatalf("cleared, over REST: %v", v)
	}
	e.srv.Store().SetAPISettingsFeatures("acme", false, true)
	if msg := e.gql(set, map[string]any{"org": org, "ips": "127.0.0.0/8"}).errorMessage(t); msg != "Your organization's plan does not include the API IP allowlist" {
		t.Fatalf("plan without it: %q", msg)
	}
}

// TestGraphQLOrganizationBanner: the banner upserted over GraphQL is REST's banner (one per organization,
// the same UUID), Organization.banners lists it, and it is deleted once; the REST checks apply.
func TestGraphQLOrganizationBanner(t *testing.T) {
	e := newEnv(t, Options{})
	org := e.orgGraphQLID()
	const upsert = `mutation($org: ID!, $m: String!) { organizationBannerUpsert(input: {organizationId: $org, message: $m}) { banner { id uuid message } } }`
	const read = `{ organization(slug: "acme") { banners(first: 1) { edges { node { uuid message } } nodes { id } } } }`
	const del = `mutation($org: ID!) { organizationBannerDelete(input: {organizationId: $org}) { deletedBannerId } }`
	a := e.gql(upsert, map[string]any{"org": org, "m": "Maintenance"}).ok(t)
	uuid := a.str(t, "organizationBannerUpsert", "banner", "uuid")
	if v := e.api("GET", "/banner", nil).object(t); v["uuid"] != uuid || v["message"] != "Maintenance" {
		t.Fatalf("over REST: %v", v)
	}
	expect(t, e.api("PUT", "/banner", map[string]any{"message": "Changed"}), http.StatusOK)
	if a := e.gql(`query($id: ID!) { node(id: $id) { ... on OrganizationBanner { message } } }`,
		map[string]any{"id": graphQLID("OrganizationBanner", uuid)}).ok(t); a.str(t, "node", "message") != "Changed" {
		t.Fatalf("node: %s", a.raw)
	}
	a = e.gql(read, nil).ok(t)
	if a.str(t, "organization", "banners", "edges", 0, "node", "uuid") != uuid || a.str(t, "organization", "banners", "edges", 0, "node", "message") != "Changed" {
		t.Fatalf("read: %s", a.raw)
	}
	if msg := e.gql(upsert, map[string]any{"org": org, "m": "  "}).errorMessage(t); msg != "Validation failed: Message can't be blank" {
		t.Fatalf("blank: %q", msg)
	}
	a = e.gql(del, map[string]any{"org": org}).ok(t)
	if a.str(t, "organizationBannerDelete", "deletedBannerId") != graphQLID("OrganizationBanner", uuid) {
		t.Fatalf("deleted: %s", a.raw)
	}
	expect(t, e.api("GET", "/banner", nil), http.StatusNotFound)
	if msg := e.gql(del, map[string]any{"org": org}).errorMessage(t); msg != "No banner found" {
		t.Fatalf("deleted again: %q", msg)
	}
	if a = e.gql(read, nil).ok(t); len(a.at(t, "organization", "banners", "edges").([]any)) != 0 {
		t.Fatalf("no banner: %s", a.raw)
	}
}
