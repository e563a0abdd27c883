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

// TestAgentTokens_listingBeyondOnePage: the connection has no cursor, so the listing reads the first 500
// tokens with their count and, only when there are more, the last 500: 700 tokens are all seen, each once,
// in two queries; 1,200 are seen at both ends (1,000) and the 200 in the middle are counted as unseen; 500
// take one query. Revoked tokens are neither listed nor counted.
func TestAgentTokens_listingBeyondOnePage(t *testing.T) {
	for _, tc := range []struct {
		tokens, seen, queries int
	}{{500, 500, 1}, {700, 700, 2}, {1200, 1000, 2}} {
		t.Run(fmt.Sprint(tc.tokens), func(t *testing.T) {
			e := newEmulator(t, fakeserver.Options{})
			c := newGraphQLClient(t, e.url, e.url)
			st := e.Store()
			var ids []string
			for i := range tc.tokens + 1 {
				id, _, err := st.AddUnclusteredAgentToken("acme", fmt.Sprintf("token %04d", i))
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, id)
			}
			// One more, revoked: it is in neither end's count.
			if !st.RevokeUnclusteredAgentToken("acme", ids[tc.tokens/2], "gone") {
				t.Fatal("revoking a seeded token")
			}
			e.ResetRequests()
			l, err := c.AgentTokens.Listing(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if l.Total != tc.tokens || len(l.Tokens) != tc.seen || l.Unseen() != tc.tokens-tc.seen {
				t.Errorf("listing of %d tokens: %d seen, total %d, unseen %d; want %d seen, %d unseen",
					tc.tokens, len(l.Tokens), l.Total, l.Unseen(), tc.seen, tc.tokens-tc.seen)
			}
			unique := map[string]bool{}
			for _, tok := range l.Tokens {
				if unique[tok.UUID] || tok.Revoked() {
					t.Errorf("token %s listed twice, or revoked", tok.UUID)
				}
				unique[tok.UUID] = true
			}
			// Both ends are seen: the first token made, and the last.
			if !unique[ids[0]] || !unique[ids[len(ids)-1]] {
				t.Errorf("the first or the last token made is not listed")
			}
			if n := len(e.Requests()); n != tc.queries {
				t.Errorf("%d requests, want %d", n, tc.queries)
			}
		})
	}
}
