package buildkite

import (
	"context"
	"net/http"
	"testing"
)

const tokenID = "b6001416-0e1e-41c6-9dbe-3d96766f451a"

const tokensPath = "/v2/organizations/acme/clusters/" + clusterID + "/tokens"

// tokenJSON is an agent token as listed or read (no secret), as
// https://buildkite.com/docs/apis/rest-api/clusters/agent-tokens shows it.
const tokenJSON = `{
  "id": "b6001416-0e1e-41c6-9dbe-3d96766f451a",
  "graphql_id": "Q2x1c3RlclRva2VuLS0tYjYwMDE0MTYtMGUxZS00MWM2LTlkYmUtM2Q5Njc2NmY0NTFh",
  "description": "Windows agents",
  "allowed_ip_addresses": "202.144.0.0/24",
  "url": "https://api.buildkite.com/v2/organizations/acme/clusters/42f1a7da-812d-4430-93d8-1cc7c33a6bcf/tokens/b6001416-0e1e-41c6-9dbe-3d96766f451a",
  "cluster_url": "https://api.buildkite.com/v2/organizations/acme/clusters/42f1a7da-812d-4430-93d8-1cc7c33a6bcf",
  "created_at": "2026-01-02T03:04:05.123Z",
  "created_by": ` + userJSON + `
}`

// createdTokenJSON is the create response, the only one with the secret.
const createdTokenJSON = `{
  "id": "b6001416-0e1e-41c6-9dbe-3d96766f451a",
  "graphql_id": "Q2x1c3RlclRva2VuLS0tYjYwMDE0MTYtMGUxZS00MWM2LTlkYmUtM2Q5Njc2NmY0NTFh",
  "description": "Windows agents",
  "allowed_ip_addresses": "202.144.0.0/24",
  "url": "https://api.buildkite.com/v2/organizations/acme/clusters/42f1a7da-812d-4430-93d8-1cc7c33a6bcf/tokens/b6001416-0e1e-41c6-9dbe-3d96766f451a",
  "cluster_url": "https://api.buildkite.com/v2/organizations/acme/clusters/42f1a7da-812d-4430-93d8-1cc7c33a6bcf",
  "created_at": "2026-01-02T03:04:05.123Z",
  "created_by": ` + userJSON + `,
  "token": "igo6HEj5fxQbgBTDoDzNaZzT"
}`

func assertToken(t *testing.T, tk *ClusterToken, secret string) {
	t.Helper()
	if tk.ID != tokenID || tk.GraphQLID == "" || tk.Description != "Windows agents" ||
		tk.AllowedIPAddresses != "202.144.0.0/24" || tk.URL == "" || tk.ClusterURL == "" || tk.Token != secret {
		t.Errorf("token decoded as %+v", tk)
	}
	if tk.CreatedAt == nil || !tk.CreatedAt.Equal(mustTime(t, "2026-01-02T03:04:05.123Z")) {
		t.Errorf("created_at = %v", tk.CreatedAt)
	}
	assertUser(t, tk.CreatedBy)
}

func TestClusterTokens_List(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `[`+tokenJSON+`]`))
	c := newTestClient(t, s.srv.URL)
	got, err := c.ClusterTokens.List(context.Background(), clusterID)
	if err != nil {
		t.Fatal(err)
	}
	r := s.only(t)
	assertRequest(t, r, "GET", tokensPath, "")
	if r.Query != "per_page=100" {
		t.Errorf("query = %q", r.Query)
	}
	if len(got) != 1 {
		t.Fatalf("%d tokens", len(got))
	}
	assertToken(t, &got[0], "")
}

func TestClusterTokens_Get(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, tokenJSON))
	c := newTestClient(t, s.srv.URL)
	got, err := c.ClusterTokens.Get(context.Background(), clusterID, tokenID)
	if err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "GET", tokensPath+"/"+tokenID, "")
	assertToken(t, got, "")
}

func TestClusterTokens_Create(t *testing.T) {
	s := newStub(t, creating(respond(http.StatusCreated, createdTokenJSON)))
	c := newTestClient(t, s.srv.URL)
	got, err := c.ClusterTokens.Create(context.Background(), clusterID, ClusterTokenCreate{
		Description: "Windows agents", AllowedIPAddresses: ptr("202.144.0.0/24"),
	})
	if err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.onlyCreate(t), "POST", tokensPath, `{"description":"Windows agents","allowed_ip_addresses":"202.144.0.0/24"}`)
	assertToken(t, got, "igo6HEj5fxQbgBTDoDzNaZzT")

	s = newStub(t, creating(respond(http.StatusCreated, createdTokenJSON)))
	c = newTestClient(t, s.srv.URL)
	if _, err := c.ClusterTokens.Create(context.Background(), clusterID, ClusterTokenCreate{Description: "Windows agents"}); err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.onlyCreate(t), "POST", tokensPath, `{"description":"Windows agents"}`)
}

func TestClusterTokens_Update(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, tokenJSON))
	c := newTestClient(t, s.srv.URL)
	got, err := c.ClusterTokens.Update(context.Background(), clusterID, tokenID, ClusterTokenUpdate{
		Description: ptr("Windows agents"), AllowedIPAddresses: ptr("202.144.0.0/24"),
	})
	if err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "PATCH", tokensPath+"/"+tokenID, `{"description":"Windows agents","allowed_ip_addresses":"202.144.0.0/24"}`)
	assertToken(t, got, "")
}

func TestClusterTokens_Delete(t *testing.T) {
	s := newStub(t, respond(http.StatusNoContent, ""))
	c := newTestClient(t, s.srv.URL)
	if err := c.ClusterTokens.Delete(context.Background(), clusterID, tokenID); err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "DELETE", tokensPath+"/"+tokenID, "")
}
