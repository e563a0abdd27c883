package buildkite

import (
	"context"
	"fmt"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// TestAgentTokens_lifecycle: create answers the secret once; the token reads by UUID and by GraphQL ID,
// lists, and after revoking still reads, revoked; an unknown UUID is not found.
func TestAgentTokens_lifecycle(t *testing.T) {
	ctx := context.Background()
	e := newEmulator(t, fakeserver.Options{})
	c := newGraphQLClient(t, e.url, e.url)
	desc := "ci agents"
	tok, err := c.AgentTokens.Create(ctx, &desc)
	if err != nil {
		t.Fatal(err)
	}
	if tok.Token == "" || tok.UUID == "" || tok.ID == "" || tok.Description == nil || *tok.Description != desc {
		t.Fatalf("created %+v", tok)
	}
	byUUID, err := c.AgentTokens.Get(ctx, tok.UUID)
	if err != nil || byUUID.ID != tok.ID || byUUID.Token != "" || byUUID.Revoked() {
		t.Fatalf("Get = %+v, %v", byUUID, err)
	}
	byID, err := c.AgentTokens.GetByID(ctx, tok.ID)
	if err != nil || byID.UUID != tok.UUID {
		t.Fatalf("GetByID = %+v, %v", byID, err)
	}
	if all, err := c.AgentTokens.List(ctx); err != nil || len(all) != 1 {
		t.Fatalf("List = %+v, %v", all, err)
	}
	if err := c.AgentTokens.Revoke(ctx, tok.ID, AgentTokenRevokeReason); err != nil {
		t.Fatal(err)
	}
	if err := c.AgentTokens.Revoke(ctx, tok.ID, AgentTokenRevokeReason); err != nil {
		t.Fatalf("revoking again: %v", err)
	}
	if got, err := c.AgentTokens.Get(ctx, tok.UUID); err != nil || !got.Revoked() {
		t.Fatalf("after revoking: %+v, %v", got, err)
	}
	if all, err := c.AgentTokens.List(ctx); err != nil || len(all) != 0 {
		t.Fatalf("List after revoking = %+v, %v", all, err)
	}
	if _, err := c.AgentTokens.Get(ctx, "0b4c3f0e-0000-4000-8000-000000000000"); !IsNotFound(err) {
		t.Fatalf("unknown token: %v, want not found", err)
	}
	clusterID := "Q2x1c3Rlci0tLTBiNGMzZjBlLTAwMDAtNDAwMC04MDAwLTAwMDAwMDAwMDAwMA==" // Cluster---…: another type
	if _, err := c.AgentTokens.GetByID(ctx, clusterID); !IsNotFound(err) {
		t.Fatalf("node of another type: %v, want not found", err)
	}
}

// TestAgentTokens_lostCreate: whatever happens to the create's answer, exactly one live token of that
// description remains, the one the caller got, with its secret; a lost one is revoked, never orphaned.
func TestAgentTokens_lostCreate(t *testing.T) {
	ctx := context.Background()
	for _, mode := range []string{"drop", "502", "502 unacted"} {
		for _, lost := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s×%d", mode, lost), func(t *testing.T) {
				e := newEmulator(t, fakeserver.Options{})
				front := newEmulatorFront(t, e, loseAnswers(mode, lost))
				c := newGraphQLClient(t, e.url, front)
				desc := "lost " + mode
				tok, err := c.AgentTokens.Create(ctx, &desc)
				if err != nil {
					t.Fatal(err)
				}
				if tok.Token == "" {
					t.Fatal("the caller has no secret")
				}
				direct := newGraphQLClient(t, e.url, e.url)
				all, err := direct.AgentTokens.List(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if len(all) != 1 || all[0].ID != tok.ID {
					t.Fatalf("live tokens %+v, want only %s", all, tok.ID)
				}
			})
		}
	}
}
