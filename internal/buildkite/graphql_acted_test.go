package buildkite

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// gqlStub answers REST's organization (for the GraphQL ID mutations take) and access token (with these
// scopes), and hands every GraphQL call to gql with its operation's name.
func gqlStub(t *testing.T, scopes string, gql func(op string) (int, string)) *stub {
	var s *stub
	s = newStub(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v2/organizations/acme":
			respond(http.StatusOK, `{"id":"o1","graphql_id":"T3JnLS0tMQ==","slug":"acme","name":"Acme"}`)(w, r)
		case "/v2/access-token":
			respond(http.StatusOK, `{"uuid":"t1","scopes":`+scopes+`}`)(w, r)
		case "/v1":
			ops := gqlOps(s)
			status, answer := gql(ops[len(ops)-1])
			respond(status, answer)(w, r)
		default:
			respond(http.StatusNotFound, `{"message":"Not Found"}`)(w, r)
		}
	})
	return s
}

func gqlOps(s *stub) []string {
	var ops []string
	for _, r := range s.requests() {
		if r.Path == "/v1" {
			var req struct {
				OperationName string `json:"operationName"`
			}
			_ = json.Unmarshal([]byte(r.Body), &req)
			ops = append(ops, req.OperationName)
		}
	}
	return ops
}

const actedToken = `{"id":"QWdlbnRUb2tlbi0tLTE=","uuid":"0b4c3f0e-0000-4000-8000-000000000001","description":"ci","createdAt":"2026-12-01T00:00:00Z","revokedAt":null}`

// TestGraphQL_createAnsweredWithErrorsAndData: a create answered 200 with errors[] and the new token in
// data made the token: it is returned with its secret and an error marked Acted, sent once, nothing revoked
// and nothing sent again. An answer with errors and no token is a refusal (not Acted). One with the token but
// not its secret revokes that token (the answer names it) and says so.
func TestGraphQL_createAnsweredWithErrorsAndData(t *testing.T) {
	ctx := context.Background()
	desc := "ci"
	// noTokens answers the listing a create makes before it is sent (adopt.go) with no tokens, and hands
	// every other call to gql; creates are the calls other than that listing.
	noTokens := func(gql func(op string) (int, string)) func(op string) (int, string) {
		return func(op string) (int, string) {
			if op == "listAgentTokens" {
				return http.StatusOK, `{"data":{"organization":{"agentTokens":{"edges":[]}}}}`
			}
			return gql(op)
		}
	}
	creates := func(s *stub) []string {
		return slices.DeleteFunc(gqlOps(s), func(op string) bool { return op == "listAgentTokens" })
	}
	t.Run("token and secret", func(t *testing.T) {
		s := gqlStub(t, `["graphql"]`, noTokens(func(op string) (int, string) {
			return http.StatusOK, `{"data":{"agentTokenCreate":{"tokenValue":"bkat_secretvalue1","agentTokenEdge":{"node":` + actedToken + `}}},` +
				`"errors":[{"message":"Audit log could not be written"}]}`
		}))
		c := newGraphQLClient(t, s.srv.URL, s.srv.URL)
		tok, err := c.AgentTokens.Create(ctx, &desc)
		ge, acted := ActedWithErrors(err)
		if !acted || tok == nil {
			t.Fatalf("Create = %+v, %v: want the token and an Acted error", tok, err)
		}
		if tok.Token != "bkat_secretvalue1" || tok.ID != "QWdlbnRUb2tlbi0tLTE=" {
			t.Errorf("token = %+v", tok)
		}
		if len(ge.Messages()) != 1 || ge.Messages()[0] != "Audit log could not be written" {
			t.Errorf("messages = %v", ge.Messages())
		}
		if !strings.Contains(err.Error(), "acted nonetheless") {
			t.Errorf("err = %v: must say the service acted", err)
		}
		if ops := creates(s); len(ops) != 1 || ops[0] != "createAgentToken" {
			t.Errorf("GraphQL calls = %v: want the one create, nothing revoked or sent again", ops)
		}
	})
	t.Run("refused", func(t *testing.T) {
		s := gqlStub(t, `["graphql"]`, noTokens(func(op string) (int, string) {
			return http.StatusOK, `{"data":{"agentTokenCreate":null},"errors":[{"message":"Description is too long"}]}`
		}))
		c := newGraphQLClient(t, s.srv.URL, s.srv.URL)
		tok, err := c.AgentTokens.Create(ctx, &desc)
		var ge *GraphQLError
		if tok != nil || !errors.As(err, &ge) || ge.Acted {
			t.Fatalf("Create = %+v, %v: want a refusal, not Acted", tok, err)
		}
		if _, acted := ActedWithErrors(err); acted {
			t.Error("ActedWithErrors on a refusal")
		}
	})
	t.Run("token without secret", func(t *testing.T) {
		s := gqlStub(t, `["graphql"]`, noTokens(func(op string) (int, string) {
			if op == "revokeAgentToken" {
				return http.StatusOK, `{"data":{"agentTokenRevoke":{"agentToken":` + strings.Replace(actedToken, `"revokedAt":null`, `"revokedAt":"2026-12-01T00:00:01Z"`, 1) + `}}}`
			}
			return http.StatusOK, `{"data":{"agentTokenCreate":{"tokenValue":null,"agentTokenEdge":{"node":` + actedToken + `}}},` +
				`"errors":[{"message":"tokenValue could not be shown"}]}`
		}))
		c := newGraphQLClient(t, s.srv.URL, s.srv.URL)
		tok, err := c.AgentTokens.Create(ctx, &desc)
		if tok != nil || err == nil || !strings.Contains(err.Error(), "was revoked") {
			t.Fatalf("Create = %+v, %v: want an error saying the token was revoked", tok, err)
		}
		if ops := creates(s); len(ops) != 2 || ops[1] != "revokeAgentToken" {
			t.Errorf("GraphQL calls = %v: want the create, then the revoke of the token it named", ops)
		}
	})
}

// TestGraphQL_mutationsAnsweredWithErrorsAndData: every mutation whose answer carries its result along
// with errors returns that result with an Acted error.
func TestGraphQL_mutationsAnsweredWithErrorsAndData(t *testing.T) {
	ctx := context.Background()
	const errs = `"errors":[{"message":"Something else failed"}]`
	answers := map[string]string{
		"revokeAgentToken": `{"data":{"agentTokenRevoke":{"agentToken":` +
			strings.Replace(actedToken, `"revokedAt":null`, `"revokedAt":"2026-12-01T00:00:01Z"`, 1) + `}},` + errs + `}`,
		"updateClusterQueueMacSettings": `{"data":{"clusterQueueUpdate":{"clusterQueue":{"id":"Q","hostedAgents":{"platformSettings":` +
			`{"macos":{"xcodeVersion":"16.2","macosVersion":"SEQUOIA"}}}}}},` + errs + `}`,
		"updateOrganizationRule": `{"data":{"ruleUpdate":{"rule":{"id":"R","uuid":"u","type":"pipeline.trigger_build.pipeline",` +
			`"description":"set","document":null}}},` + errs + `}`,
		"setOrganization2FA": `{"data":{"organizationEnforceTwoFactorAuthenticationForMembersUpdate":{"organization":` +
			`{"membersRequireTwoFactorAuthentication":true}}},` + errs + `}`,
		"deletePipelineWebhook": `{"data":{"pipelineDeleteWebhook":{"deletedWebhookExternalId":"42"}},` + errs + `}`,
	}
	s := gqlStub(t, `["graphql"]`, func(op string) (int, string) { return http.StatusOK, answers[op] })
	c := newGraphQLClient(t, s.srv.URL, s.srv.URL)
	acted := func(what string, ok bool, err error) {
		t.Helper()
		if _, isActed := ActedWithErrors(err); !isActed || !ok {
			t.Errorf("%s: result kept %t, err = %v: want the result and an Acted error", what, ok, err)
		}
	}
	err := c.AgentTokens.Revoke(ctx, "QWdlbnRUb2tlbi0tLTE=", AgentTokenRevokeReason)
	acted("revoke", true, err)
	mac, err := c.Queues.SetMacSettings(ctx, "Q", "MACOS_ARM64_M4_6X28", MacSettingsWrite{XcodeVersion: ptr("16.2")})
	acted("mac settings", mac != nil && mac.XcodeVersion == "16.2", err)
	rule, err := c.Rules.Update(ctx, RuleUpdate{ID: "R", Value: json.RawMessage(`{}`)})
	acted("rule", rule != nil && rule.Description != nil && *rule.Description == "set", err)
	on, err := c.Organizations.SetTwoFactorEnforced(ctx, true)
	acted("2fa", on, err)
	ext, err := c.Pipelines.DeleteWebhook(ctx, "P", "")
	acted("webhook", ext == "42", err)

	// The same errors without the result are refusals.
	refused := gqlStub(t, `["graphql"]`, func(op string) (int, string) {
		return http.StatusOK, `{"data":null,` + errs + `}`
	})
	c = newGraphQLClient(t, refused.srv.URL, refused.srv.URL)
	if _, err := c.Queues.SetMacSettings(ctx, "Q", "MACOS_ARM64_M4_6X28", MacSettingsWrite{}); err == nil {
		t.Error("a refusal returned no error")
	} else if _, isActed := ActedWithErrors(err); isActed {
		t.Errorf("a refusal is Acted: %v", err)
	}
}

// TestGraphQL_errorsMaskRegisteredSecrets: a GraphQL error's message is masked with every registered
// secret, as a REST error's is, not only with the API token.
func TestGraphQL_errorsMaskRegisteredSecrets(t *testing.T) {
	const secret = "registered-secret-value-42"
	s := newStub(t, respond(http.StatusOK, `{"data":{"thingSet":null},"errors":[{"message":"value `+secret+` is not allowed"}]}`))
	c := newGraphQLClient(t, "http://rest.invalid", s.srv.URL)
	c.MaskValues(secret)
	_, err := gqlMutate[json.RawMessage](context.Background(), c, testSetOp, nil)
	var ge *GraphQLError
	if !errors.As(err, &ge) {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), secret) || strings.Contains(ge.Errors[0].Message, secret) {
		t.Errorf("the error holds a registered secret: %v", err)
	}
	if !strings.Contains(err.Error(), "value *** is not allowed") {
		t.Errorf("err = %v: the rest of the message must stay", err)
	}
}

// TestGraphQL_missingScopeNamed: a GraphQL 401 to a token REST knows, which lacks the graphql scope, names
// the scope and stays a 401; a token that has the scope gets the service's answer as it was.
func TestGraphQL_missingScopeNamed(t *testing.T) {
	refuse := func(string) (int, string) {
		return http.StatusUnauthorized, `{"message":"Authentication required. Please supply a valid API Access Token"}`
	}
	s := gqlStub(t, `["read_pipelines","write_pipelines"]`, refuse)
	c := newGraphQLClient(t, s.srv.URL, s.srv.URL)
	_, err := c.AgentTokens.Get(context.Background(), "0b4c3f0e-0000-4000-8000-000000000001")
	var missing *MissingScopeError
	if !errors.As(err, &missing) || missing.Scope != "graphql" {
		t.Fatalf("err = %v (%T): want a *MissingScopeError naming graphql", err, err)
	}
	if !IsUnauthorized(err) {
		t.Errorf("err = %v: must still read as a 401", err)
	}
	if !strings.Contains(err.Error(), `lacks the "graphql" scope`) || !strings.Contains(err.Error(), "Authentication required") {
		t.Errorf("err = %q: want the service's words and the missing scope", err)
	}

	s = gqlStub(t, `["graphql"]`, refuse)
	c = newGraphQLClient(t, s.srv.URL, s.srv.URL)
	_, err = c.AgentTokens.Get(context.Background(), "0b4c3f0e-0000-4000-8000-000000000001")
	if errors.As(err, &missing) || !IsUnauthorized(err) {
		t.Errorf("err = %v: a token with the scope must get the 401 as it was", err)
	}
}

// TestGraphQL_deleteAnsweredNullIsChecked: a revoke or webhook delete answered null without errors says
// nothing of the object: it is read, and one still there is an error (not taken for gone), one revoked is
// done, one nobody finds is not found.
func TestGraphQL_deleteAnsweredNullIsChecked(t *testing.T) {
	ctx := context.Background()
	revoked := strings.Replace(actedToken, `"revokedAt":null`, `"revokedAt":"2026-12-01T00:00:01Z"`, 1)
	for name, tc := range map[string]struct {
		node    string
		check   func(error) bool
		explain string
	}{
		"still live": {`{"__typename":"AgentToken",` + actedToken[1:], func(err error) bool {
			return err != nil && !IsNotFound(err) && strings.Contains(err.Error(), "still live")
		}, "an error saying it is still live"},
		"revoked": {`{"__typename":"AgentToken",` + revoked[1:], func(err error) bool { return err == nil }, "done"},
		"gone":    {`null`, IsNotFound, "not found"},
	} {
		t.Run("revoke, token "+name, func(t *testing.T) {
			s := gqlStub(t, `["graphql"]`, func(op string) (int, string) {
				if op == "getAgentTokenByID" {
					return http.StatusOK, `{"data":{"node":` + tc.node + `}}`
				}
				return http.StatusOK, `{"data":{"agentTokenRevoke":null}}`
			})
			c := newGraphQLClient(t, s.srv.URL, s.srv.URL)
			if err := c.AgentTokens.Revoke(ctx, "QWdlbnRUb2tlbi0tLTE=", AgentTokenRevokeReason); !tc.check(err) {
				t.Errorf("Revoke = %v, want %s", err, tc.explain)
			}
		})
	}
	s := gqlStub(t, `["graphql"]`, func(op string) (int, string) {
		if op == "getPipelineWebhook" {
			return http.StatusOK, `{"data":{"node":{"id":"P","repository":{"provider":{"webhook":{"externalId":"42","url":"u"}}}}}}`
		}
		return http.StatusOK, `{"data":{"pipelineDeleteWebhook":null}}`
	})
	c := newGraphQLClient(t, s.srv.URL, s.srv.URL)
	if _, err := c.Pipelines.DeleteWebhook(ctx, "P", ""); err == nil || IsNotFound(err) || !strings.Contains(err.Error(), "still there") {
		t.Errorf("DeleteWebhook = %v, want an error saying the webhook is still there", err)
	}
}
