package buildkite

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// AgentTokensService manages the organization's unclustered agent tokens, which only Buildkite's GraphQL API
// creates, reads and revokes (https://buildkite.com/docs/apis/graphql/cookbooks/agents). A revoked token is
// still read, with RevokedAt set: the caller decides what that means.
type AgentTokensService struct{ client *Client }

// AgentToken is an unclustered agent token.
type AgentToken struct {
	ID          string     `json:"id"` // the GraphQL ID
	UUID        string     `json:"uuid"`
	Description *string    `json:"description"`
	CreatedAt   *time.Time `json:"createdAt"`
	RevokedAt   *time.Time `json:"revokedAt"`
	// Token is the secret, set only in the answer to Create.
	Token string `json:"-"`
}

// Revoked reports whether the token was revoked (in the web interface, by someone else's Terraform, …).
func (t *AgentToken) Revoked() bool { return t.RevokedAt != nil }

// AgentTokenRevokeReason is the reason Terraform gives when it revokes a token, as the official provider's.
const AgentTokenRevokeReason = "Revoked by Terraform"

var (
	opGetAgentToken     = queryFile("getAgentToken")
	opGetAgentTokenByID = queryFile("getAgentTokenByID")
	opListAgentTokens   = queryFile("listAgentTokens")
	// opListLastAgentTokens reads the other end of the list when the first page did not hold every token.
	opListLastAgentTokens = queryFile("listLastAgentTokens")
	opCreateAgentToken    = mutationFile("createAgentToken", false)
	opRevokeAgentToken    = mutationFile("revokeAgentToken", true) // revoking a revoked token changes nothing
)

// getAgentTokenAnswer is the data of getAgentToken's answer.
type getAgentTokenAnswer struct {
	AgentToken *AgentToken `json:"agentToken"`
}

// getAgentTokenByIDAnswer is the data of getAgentTokenByID's answer.
type getAgentTokenByIDAnswer struct {
	Node *struct {
		Typename string `json:"__typename"`
		AgentToken
	} `json:"node"`
}

// listAgentTokensAnswer is the data of the answers of listAgentTokens and listLastAgentTokens.
type listAgentTokensAnswer struct {
	Organization *struct {
		AgentTokens struct {
			Count int `json:"count"`
			Edges []struct {
				Node *AgentToken `json:"node"`
			} `json:"edges"`
		} `json:"agentTokens"`
	} `json:"organization"`
}

// AgentTokenListing is what the service shows of the organization's tokens that are not revoked: Tokens,
// and Total, how many it counts. Its connection has no cursor, so a listing sees the first 500 and the
// last 500 of the list and no more: with over 1,000 tokens, Unseen of them are counted but not shown.
type AgentTokenListing struct {
	Tokens []AgentToken
	Total  int
}

// Unseen is how many of the tokens the service counted the listing does not show.
func (l *AgentTokenListing) Unseen() int { return max(0, l.Total-len(l.Tokens)) }

// createAgentTokenAnswer is the data of createAgentToken's answer.
type createAgentTokenAnswer struct {
	AgentTokenCreate *struct {
		TokenValue     string `json:"tokenValue"`
		AgentTokenEdge struct {
			Node *AgentToken `json:"node"`
		} `json:"agentTokenEdge"`
	} `json:"agentTokenCreate"`
}

// revokeAgentTokenAnswer is the data of revokeAgentToken's answer.
type revokeAgentTokenAnswer struct {
	AgentTokenRevoke *struct {
		AgentToken *AgentToken `json:"agentToken"`
	} `json:"agentTokenRevoke"`
}

// Get reads the token whose UUID is uuid. A token nobody can find is a not-found error (IsNotFound); a
// revoked one is returned.
func (s *AgentTokensService) Get(ctx context.Context, uuid string) (*AgentToken, error) {
	if strings.TrimSpace(uuid) == "" || strings.Contains(uuid, "/") {
		return nil, fmt.Errorf("%w %q", ErrInvalidID, uuid)
	}
	out, err := gqlQuery[getAgentTokenAnswer](ctx, s.client, opGetAgentToken, map[string]any{"slug": s.client.org + "/" + uuid})
	if err != nil {
		return nil, err
	}
	if out.AgentToken == nil {
		return nil, s.client.graphQLNotFound(opGetAgentToken.name, "agent token "+uuid)
	}
	return out.AgentToken, nil
}

// GetByID reads the token whose GraphQL ID is id; a node of another type is not found.
func (s *AgentTokensService) GetByID(ctx context.Context, id string) (*AgentToken, error) {
	out, err := gqlQuery[getAgentTokenByIDAnswer](ctx, s.client, opGetAgentTokenByID, map[string]any{"id": id})
	if err != nil {
		return nil, err
	}
	if out.Node == nil || out.Node.Typename != "AgentToken" {
		return nil, s.client.graphQLNotFound(opGetAgentTokenByID.name, "agent token "+id)
	}
	return &out.Node.AgentToken, nil
}

// List returns the organization's tokens that are not revoked, as many as Listing sees (all of them up to
// 1,000, and always the first 500 and the last 500).
func (s *AgentTokensService) List(ctx context.Context) ([]AgentToken, error) {
	l, err := s.Listing(ctx)
	if err != nil {
		return nil, err
	}
	return l.Tokens, nil
}

// Listing lists the organization's tokens that are not revoked. The connection has no cursor (no `after`
// argument), so it reads the first 500 with their count, and only when the count is larger the last 500
// (a second query): each token appears once, in the service's order, and what neither end shows is
// counted in Unseen.
func (s *AgentTokensService) Listing(ctx context.Context) (*AgentTokenListing, error) {
	var l AgentTokenListing
	seen := map[string]bool{}
	for _, op := range []operation{opListAgentTokens, opListLastAgentTokens} {
		out, err := gqlQuery[listAgentTokensAnswer](ctx, s.client, op, map[string]any{"slug": s.client.org})
		if err != nil {
			return nil, err
		}
		if out.Organization == nil {
			return nil, s.client.graphQLNotFound(op.name, "organization "+s.client.org)
		}
		page := out.Organization.AgentTokens
		l.Total = max(l.Total, page.Count) // a token made between the two queries counts too
		for _, e := range page.Edges {
			if e.Node != nil && !seen[e.Node.ID] {
				seen[e.Node.ID] = true
				l.Tokens = append(l.Tokens, *e.Node)
			}
		}
		if l.Unseen() == 0 {
			break // the first page held them all
		}
	}
	return &l, nil
}

// Create makes a token with description (nil for none) and returns it with its secret, which no later
// answer carries. When the create's answer is lost, its secret is lost with it: what the lost create made,
// the one token of the description that was not there before the create was sent and that no other create
// returned, is revoked, and the create sent again, so that exactly one token, whose secret the caller has,
// remains; with two or more such tokens, none is revoked (createOrReplace).
func (s *AgentTokensService) Create(ctx context.Context, description *string) (*AgentToken, error) {
	orgID, err := s.client.organizationID(ctx)
	if err != nil {
		return nil, fmt.Errorf("finding the organization's GraphQL ID: %w", err)
	}
	send := func(ctx context.Context) (*AgentToken, error) {
		out, err := gqlMutate[createAgentTokenAnswer](ctx, s.client, opCreateAgentToken, map[string]any{"organizationId": orgID, "description": description})
		if err != nil {
			return s.madeWithErrors(ctx, out, err)
		}
		if out.AgentTokenCreate == nil || out.AgentTokenCreate.AgentTokenEdge.Node == nil || out.AgentTokenCreate.AgentTokenEdge.Node.ID == "" ||
			out.AgentTokenCreate.TokenValue == "" {
			// Answered without the token: whether it was made is unknown, as after a lost answer.
			return nil, &unknownOutcomeError{err: errors.New("GraphQL createAgentToken: the service answered without the token or its secret")}
		}
		t := out.AgentTokenCreate.AgentTokenEdge.Node
		t.Token = out.AgentTokenCreate.TokenValue
		return t, nil
	}
	lc := lostCreate[AgentToken]{
		matching: func(ctx context.Context) ([]AgentToken, error) {
			all, err := s.List(ctx)
			return keep(all, err, func(t *AgentToken) bool { return sameDescription(t.Description, description) })
		},
		id: func(t *AgentToken) string { return t.ID },
		describe: func(t *AgentToken) string {
			return fmt.Sprintf("agent token %q (ID %s, UUID %s)", deref(t.Description), t.ID, t.UUID)
		},
	}
	del := func(ctx context.Context, t *AgentToken) error { return s.Revoke(ctx, t.ID, AgentTokenRevokeReason) }
	return createOrReplaceWith(ctx, s.client, opCreateAgentToken.name, send, lc, del)
}

// madeWithErrors reads the answer to a create that came with errors (err). A token in its data exists:
// it is returned with its secret and err marked Acted, for the caller to record. One answered without
// its secret is of no use to anyone and is known to be this create's (the answer names it): it is revoked,
// and the error says so. No token in the data: the service refused, err alone.
func (s *AgentTokensService) madeWithErrors(ctx context.Context, out *createAgentTokenAnswer, err error) (*AgentToken, error) {
	if out == nil || out.AgentTokenCreate == nil || out.AgentTokenCreate.AgentTokenEdge.Node == nil ||
		out.AgentTokenCreate.AgentTokenEdge.Node.ID == "" {
		return nil, err
	}
	t := out.AgentTokenCreate.AgentTokenEdge.Node
	if out.AgentTokenCreate.TokenValue != "" {
		t.Token = out.AgentTokenCreate.TokenValue
		return actedWith(t, err)
	}
	if rerr := s.Revoke(ctx, t.ID, AgentTokenRevokeReason); rerr != nil && !IsNotFound(rerr) {
		return nil, fmt.Errorf("%w; its answer held the token it made (%s) without the token's secret, and revoking "+
			"that token failed: %w; revoke it in Buildkite (Agents, Agent Tokens)", err, t.ID, rerr)
	}
	return nil, fmt.Errorf("%w; its answer held the token it made (%s) without the token's secret, so that token was "+
		"revoked: nothing is left behind, and the next apply creates a token again", err, t.ID)
}

func sameDescription(a, b *string) bool {
	return (a == nil || *a == "") == (b == nil || *b == "") && (a == nil || b == nil || *a == *b)
}

// Revoke revokes the token whose GraphQL ID is id, giving reason. Revoking a revoked token changes nothing,
// so the call is repeatable. An answer that holds no token is checked by reading it: one nobody can find
// is an error IsNotFound recognises, one still live an error.
func (s *AgentTokensService) Revoke(ctx context.Context, id, reason string) error {
	if strings.TrimSpace(id) == "" {
		return fmt.Errorf("%w %q", ErrInvalidID, id)
	}
	out, err := gqlMutate[revokeAgentTokenAnswer](ctx, s.client, opRevokeAgentToken, map[string]any{"id": id, "reason": reason})
	if err != nil {
		// A token in the answer that is revoked was revoked, whatever else the answer says.
		if out != nil && out.AgentTokenRevoke != nil && out.AgentTokenRevoke.AgentToken != nil && out.AgentTokenRevoke.AgentToken.Revoked() {
			_, err = actedWith(out.AgentTokenRevoke.AgentToken, err)
		}
		return err
	}
	if out.AgentTokenRevoke == nil || out.AgentTokenRevoke.AgentToken == nil {
		// A null answer without errors says nothing of the token: only reading it tells gone from not revoked.
		t, rerr := s.GetByID(ctx, id)
		switch {
		case rerr != nil:
			return rerr // a token nobody can find is gone (IsNotFound)
		case !t.Revoked():
			return fmt.Errorf("GraphQL %s: the service answered null for agent token %s, which is still live: it was not "+
				"revoked; try again", opRevokeAgentToken.name, id)
		}
	}
	return nil
}
