package organization_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func testAccAgentTokenConfig(description string) string {
	return fmt.Sprintf(`
resource "buildkite_agent_token" "test" {
  description = %q
}
`, description)
}

// TestAccAgentTokenResource_basic: create keeps the secret; import by UUID and by GraphQL ID (and by an
// import block whose generated configuration plans empty); a new description replaces the token with a
// new secret and revokes the old one; destroy revokes.
func TestAccAgentTokenResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_agent_token.test"
	name := e.Name("unclustered")
	var first agentTokenSeen
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckAgentTokensRevoked(),
		Steps: []resource.TestStep{
			{
				Config: e.Config(testAccAgentTokenConfig(name)),
				Check:  resource.ComposeTestCheckFunc(checkAgentTokenLive(e), first.record(addr)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(kit.UuidPattern)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("graphql_id"), knownvalue.NotNull()),
					statecheck.ExpectSensitiveValue(addr, tfjsonpath.New("token")),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"token"},
			},
			{
				ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"token"},
				ImportStateIdFunc: acctest.ImportID(addr, "graphql_id"),
			},
			acctest.GenerateConfigStep(addr, acctest.ImportID(addr, "id")),
			{
				Config: e.Config(testAccAgentTokenConfig(name + "-renamed")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					checkAgentTokenLive(e),
					resource.TestCheckResourceAttrWith(addr, "token", func(v string) error {
						if v == "" || v == first.token {
							return fmt.Errorf("the replacement should carry a new secret")
						}
						return nil
					}),
					func(*terraform.State) error {
						old, err := e.Client.AgentTokens.Get(context.Background(), first.uuid)
						if err != nil || !old.Revoked() {
							return fmt.Errorf("the replaced token %s: %+v, %w; want it revoked", first.uuid, old, err)
						}
						return nil
					},
				),
			},
		},
	})
}

// agentTokenSeen records a token's UUID and secret from state, for later steps to compare.
type agentTokenSeen struct{ uuid, token string }

func (s *agentTokenSeen) record(addr string) resource.TestCheckFunc {
	return func(st *terraform.State) error {
		rs, ok := st.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s is not in state", addr)
		}
		s.uuid, s.token = rs.Primary.Attributes["id"], rs.Primary.Attributes["token"]
		if s.token == "" {
			return fmt.Errorf("token is empty: the secret from the create answer was not kept")
		}
		return nil
	}
}

// checkAgentTokenLive fails unless the token behind buildkite_agent_token.test exists and is not revoked.
func checkAgentTokenLive(e *acctest.TestEnv) resource.TestCheckFunc {
	const addr = "buildkite_agent_token.test"
	return func(st *terraform.State) error {
		rs, ok := st.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s is not in state", addr)
		}
		tok, err := e.Client.AgentTokens.Get(context.Background(), rs.Primary.Attributes["id"])
		if err != nil {
			return err
		}
		if tok.Revoked() {
			return fmt.Errorf("%s: the token is revoked", addr)
		}
		return nil
	}
}

// TestAccAgentTokenResource_revokedOutside: a token revoked outside Terraform (or deleted) is planned for
// re-creation, with a warning that says so.
func TestAccAgentTokenResource_revokedOutside(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_agent_token.test"
	cfg := e.Config(testAccAgentTokenConfig(e.Name("revoked")))
	revoke := func(st *terraform.State) error {
		rs := st.RootModule().Resources[addr]
		return e.Client.AgentTokens.Revoke(context.Background(), rs.Primary.Attributes["graphql_id"], "revoked in the web interface")
	}
	recreate := resource.TestStep{
		Config: cfg,
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
		},
		Check: checkAgentTokenLive(e),
	}
	steps := []resource.TestStep{{Config: cfg, Check: revoke, ExpectNonEmptyPlan: true}, recreate}
	if !e.Live {
		steps = append(steps, resource.TestStep{Config: cfg, Check: e.RemoveOutside(addr), ExpectNonEmptyPlan: true}, recreate)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckAgentTokensRevoked(),
		Steps:                    steps,
	})
}

// TestAccAgentTokenResource_needsGraphQL: where rest_url is set without graphql_url, or the token lacks the
// graphql scope, a configuration with an agent token fails at plan naming what to fix, and sends nothing
// to GraphQL; one without needs neither.
func TestAccAgentTokenResource_needsGraphQL(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("needs provider blocks and tokens the emulator issues")
	}
	e.Server.Store().AddToken("rest-only-token", []string{e.Org}, []string{"read_clusters", "write_clusters", "read_organizations"})
	noGraphQL := fmt.Sprintf("provider \"buildkite\" {\n  rest_url = %q\n  organization = %q\n  api_token = %q\n  max_retries = 1\n}\n", e.URL, e.Org, e.Token)
	noScope := fmt.Sprintf("provider \"buildkite\" {\n  rest_url = %q\n  graphql_url = %q\n  organization = %q\n  api_token = \"rest-only-token\"\n  max_retries = 1\n}\n", e.URL, e.GraphQLURL, e.Org)
	token := testAccAgentTokenConfig("x")
	cluster := acctest.ClusterConfig(e.Name("rest-only"), "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: noGraphQL + token, ExpectError: acctest.RegexpMust(`GraphQL URL Not Set[\s\S]*buildkite_agent_token[\s\S]*graphql_url`)},
			{Config: noScope + token, ExpectError: acctest.RegexpMust(`Missing API Token Scope[\s\S]*buildkite_agent_token[\s\S]*"graphql"[\s\S]*scope`)},
			// A workspace that needs no GraphQL needs neither the endpoint nor the scope.
			{Config: noGraphQL + cluster},
			{Config: noScope + cluster, PlanOnly: true},
		},
	})
	for _, r := range e.Server.Requests() {
		if strings.HasPrefix(r.Path, "/v1") {
			t.Errorf("a refused plan sent %s %s", r.Method, r.Path)
		}
	}
}

// TestAccAgentTokenResource_validation: an import ID that names no token fails, showing the form.
func TestAccAgentTokenResource_validation(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config: e.Config(testAccAgentTokenConfig("x")), ResourceName: "buildkite_agent_token.test",
				ImportState: true, ImportStateId: kit.GraphQLID("ClusterToken", "0b6c2b8e-6a4f-4a8e-9a43-5d0d1c1c2f11"),
				ExpectError: acctest.RegexpMust(`AgentToken`),
			},
		},
	})
	if !e.Live {
		for _, r := range e.Server.Requests() {
			if r.Method == http.MethodPost {
				t.Errorf("a refused import sent %s %s", r.Method, r.Path)
			}
		}
	}
}

// checkLiveAgentTokens fails unless the organization has exactly n live agent tokens.
func checkLiveAgentTokens(e *acctest.TestEnv, n int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		all, err := e.Client.AgentTokens.List(context.Background())
		if err != nil {
			return err
		}
		if len(all) != n {
			return fmt.Errorf("%d live agent tokens, want %d: %+v", len(all), n, all)
		}
		return nil
	}
}

// TestAccAgentTokenResource_answeredWithErrors: the create answered 200 with errors[] and the new token in
// data made the token: it is in state with its secret, exactly one token exists, and the next plan is empty.
// The revoke at destroy answered the same way revoked it: the destroy succeeds.
func TestAccAgentTokenResource_answeredWithErrors(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: the fault is the emulator's")
	}
	const addr = "buildkite_agent_token.test"
	var seen agentTokenSeen
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             resource.ComposeTestCheckFunc(e.CheckFaultsMet(fakeserver.FaultErrorsWithData, 2), e.CheckAgentTokensRevoked()),
		Steps: []resource.TestStep{{
			PreConfig: e.Aim(
				fakeserver.AimedFault{Operation: "createAgentToken", Kind: fakeserver.FaultErrorsWithData, Times: 1},
				fakeserver.AimedFault{Operation: "revokeAgentToken", Kind: fakeserver.FaultErrorsWithData, Times: 1}),
			Config: e.Config(testAccAgentTokenConfig(e.Name("acted"))),
			Check: resource.ComposeTestCheckFunc(e.CheckFaultsMet(fakeserver.FaultErrorsWithData, 1), seen.record(addr),
				checkAgentTokenLive(e), checkLiveAgentTokens(e, 1)),
			ConfigPlanChecks: acctest.ExpectEmpty(),
		}},
	})
}

// TestAccAgentTokenResource_refreshWithoutGraphQLScope: a token without the graphql scope, met on refresh
// (the GraphQL endpoint answers 401 "Authentication required"), fails the refresh naming the missing scope;
// the agent token stays in state, and plans empty again with a token that has the scope.
func TestAccAgentTokenResource_refreshWithoutGraphQLScope(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("needs a token the emulator issues")
	}
	scopes := slices.DeleteFunc(fakeserver.AllScopes(), func(s string) bool { return s == "graphql" })
	e.Server.Store().AddToken("no-graphql", []string{e.Org}, scopes)
	token := testAccAgentTokenConfig(e.Name("scope"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckAgentTokensRevoked(),
		Steps: []resource.TestStep{
			{Config: e.Config(token), Check: checkAgentTokenLive(e)},
			{
				Config:      e.ProviderBlock(e.Org, "no-graphql") + token,
				ExpectError: regexp.MustCompile(`Unable to Read Agent Token[\s\S]*Authentication[\s\S]*required[\s\S]*lacks[\s\S]*the[\s\S]*"graphql"[\s\S]*scope`),
			},
			{Config: e.Config(token), PlanOnly: true},
		},
	})
}

// TestAccAgentTokenResource_revokeAnsweredNull: a revoke at destroy answered with null data, the service
// having done nothing, fails the destroy and keeps the token in state (it used to count as gone, leaving the
// token live and untracked); the destroy after it revokes the token.
func TestAccAgentTokenResource_revokeAnsweredNull(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: the fault is the emulator's")
	}
	cfg := e.Config(testAccAgentTokenConfig(e.Name("revoke-null")))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             resource.ComposeTestCheckFunc(e.CheckFaultsMet(fakeserver.FaultNullData, 1), e.CheckAgentTokensRevoked()),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: e.Aim(fakeserver.AimedFault{Operation: "revokeAgentToken", Kind: fakeserver.FaultNullData, Times: 1}),
				Config:    cfg, Destroy: true,
				ExpectError: regexp.MustCompile(`Unable to Delete Agent Token[\s\S]*still live`),
			},
			{Config: cfg, Check: checkAgentTokenLive(e), ConfigPlanChecks: acctest.ExpectEmpty()},
		},
	})
}

// TestAccAgentTokenResource_answeredWithErrorsWarns: the apply of a token whose create answer carries errors
// and the token succeeds showing the warning that names the errors; exactly one token exists and the plan
// after is empty.
func TestAccAgentTokenResource_answeredWithErrorsWarns(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: the fault is the emulator's")
	}
	w := e.WorkdirWith(t, acctest.TerraformCLI(t), testAccAgentTokenConfig(e.Name("warned")))
	e.Aim(fakeserver.AimedFault{Operation: "createAgentToken", Kind: fakeserver.FaultErrorsWithData, Times: 1})()
	out := w.Apply()
	acctest.ExpectOutput(t, out, "Warning: Buildkite Answered With Errors", "GraphQL createAgentToken", "1 added")
	if err := checkLiveAgentTokens(e, 1)(nil); err != nil {
		t.Error(err)
	}
	w.ExpectNoChanges()
	w.Destroy()
}

// The rows of buildkite_agent_token in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_agent_token", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		ResourceType: "buildkite_agent_token", Attrs: []string{"id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			return acctest.IdentityConfigs{
				Create: testAccAgentTokenConfig(e.Name("identity")), Secret: "token", Destroyed: e.CheckAgentTokensRevoked(),
			}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "agent_token", Add: (*acctest.OfficialWorkspace).AddUnclusteredAgentToken, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_agent_token.legacy", map[string]any{"token": "moved-secret", "description": "Unclustered agents"})
			a := w.StateAttributes("buildkite_agent_token.legacy")
			if typ, _, ok := kit.DecodeGraphQLID(fmt.Sprint(a["graphql_id"])); !ok || typ != "AgentToken" {
				t.Errorf("after the move graphql_id = %v, want the token's GraphQL ID", a["graphql_id"])
			}
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_agent_token", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		ctx := t.Context()
		ci, err := e.Client.AgentTokens.Create(ctx, acctest.PtrTo(base+"-CI"))
		if err != nil {
			t.Fatal(err)
		}
		bare, err := e.Client.AgentTokens.Create(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		// A revoked token is not listed: it can never be used again.
		revoked, err := e.Client.AgentTokens.Create(ctx, acctest.PtrTo(base+"-revoked"))
		if err == nil {
			err = e.Client.AgentTokens.Revoke(ctx, revoked.ID, buildkite.AgentTokenRevokeReason)
		}
		if err != nil {
			t.Fatal(err)
		}
		return acctest.QueryRow{
			Blocks: []string{
				"buildkite_agent_token", "described", fmt.Sprintf("    description = %q", base+"-ci"),
				"buildkite_agent_token", "revoked", fmt.Sprintf("    description = %q", base+"-revoked"),
			},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_agent_token.all", 2),
				querycheck.ExpectLength("buildkite_agent_token.described", 1),
				querycheck.ExpectLength("buildkite_agent_token.revoked", 0),
				querycheck.ExpectIdentity("buildkite_agent_token.described", acctest.IdentityOf("id", ci.UUID)),
				// A token without a description is shown by its UUID.
				querycheck.ExpectResourceDisplayName("buildkite_agent_token.all", acctest.ByIdentity("id", bare.UUID), knownvalue.StringExact(bare.UUID)),
				querycheck.ExpectResourceKnownValues("buildkite_agent_token.all", acctest.ByIdentity("id", ci.UUID), []querycheck.KnownValueCheck{
					acctest.Known("uuid", knownvalue.StringExact(ci.UUID)),
					acctest.Known("graphql_id", knownvalue.StringExact(ci.ID)),
					acctest.Known("description", knownvalue.StringExact(base+"-CI")),
					acctest.Known("token", knownvalue.Null()), // returned only on creation
				}),
				querycheck.ExpectResourceKnownValues("buildkite_agent_token.all", acctest.ByIdentity("id", bare.UUID),
					[]querycheck.KnownValueCheck{acctest.Known("description", knownvalue.Null())}),
			},
			Refused: []acctest.QueryRefusal{{Body: `    description = " "`, Message: regexp.MustCompile(`description`)}},
			Imports: 2,
		}
	}},
	Exempt: map[string]string{
		acctest.TableLostSecret: "Created through GraphQL, not by the REST POST this table's faults pick out; " +
			"TestAgentTokens_lostCreate (internal/buildkite) loses its create's answer and checks that one live token remains.",
	},
})
