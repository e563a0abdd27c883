package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// GraphQL answers taken as they are (issue 39): a mutation answered with errors and, in its data, what it
// made is recorded; a GraphQL null or "not found" for a part of an object REST serves keeps the object in
// state. The faults are the emulator's, aimed at one GraphQL operation.

// aim arms, from the step on, the one aimed fault given (and disarms any other).
func (e *testEnv) aim(faults ...fakeserver.AimedFault) func() {
	return func() {
		e.server.ClearAimedFaults()
		for _, f := range faults {
			e.server.AimFault(f)
		}
	}
}

// checkFaultsMet fails unless the emulator injected at least n faults of kind so far: a test of a fault
// that never met it proves nothing.
func (e *testEnv) checkFaultsMet(kind string, n int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		c := e.server.FaultCounts()
		got := map[string]int64{
			fakeserver.FaultErrorsWithData: c.ErrorsWithData, fakeserver.FaultNullData: c.NullData, fakeserver.FaultNotFound: c.NotFound,
		}[kind]
		if got < int64(n) {
			return fmt.Errorf("the emulator injected %d %s faults, want at least %d: the test did not meet its fault", got, kind, n)
		}
		return nil
	}
}

// checkLiveAgentTokens fails unless the organization has exactly n live agent tokens.
func (e *testEnv) checkLiveAgentTokens(n int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		all, err := e.client.AgentTokens.List(context.Background())
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
	e := newTestEnv(t)
	if e.live {
		t.Skip("live mode: the fault is the emulator's")
	}
	const addr = "buildkite_agent_token.test"
	var seen agentTokenSeen
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             resource.ComposeTestCheckFunc(e.checkFaultsMet(fakeserver.FaultErrorsWithData, 2), e.checkAgentTokensRevoked()),
		Steps: []resource.TestStep{{
			PreConfig: e.aim(
				fakeserver.AimedFault{Operation: "createAgentToken", Kind: fakeserver.FaultErrorsWithData, Times: 1},
				fakeserver.AimedFault{Operation: "revokeAgentToken", Kind: fakeserver.FaultErrorsWithData, Times: 1}),
			Config: e.config(testAccAgentTokenConfig(e.name("acted"))),
			Check: resource.ComposeTestCheckFunc(e.checkFaultsMet(fakeserver.FaultErrorsWithData, 1), seen.record(addr),
				e.checkAgentTokenLive(addr), e.checkLiveAgentTokens(1)),
			ConfigPlanChecks: expectEmpty(),
		}},
	})
}

// ruleWithDescription is testAccRuleConfig's rule between its two pipelines, with a description.
func ruleWithDescription(e *testEnv, name, description string) string {
	return e.config(strings.Replace(testAccRuleConfig(name, "pipeline.trigger_build.pipeline", `jsonencode({
    source_pipeline = buildkite_pipeline.source.uuid
    target_pipeline = buildkite_pipeline.target.uuid
  })`), "type  =", fmt.Sprintf("description = %q\n  type  =", description), 1))
}

// partKept is the refresh of an object REST serves while GraphQL answers op with kind: the refresh fails
// naming the object and what failed, and the resource stays in state (the step after shows it).
func (e *testEnv) partKept(op, kind string, title string) resource.TestStep {
	return resource.TestStep{
		PreConfig:    e.aim(fakeserver.AimedFault{Operation: op, Kind: kind}),
		RefreshState: true,
		ExpectError:  regexp.MustCompile(`(?s)` + title + `.*GraphQL.*stays in state`),
	}
}

// TestAccOrganizationRuleResource_graphQLPartKept: a rule with a description, read over REST, whose
// description GraphQL answers null, then "not found", on refresh: the refresh fails and the rule stays in
// state; with the fault cleared the plan is empty. Its description set at create with an answer that carries
// errors and the rule is recorded.
func TestAccOrganizationRuleResource_graphQLPartKept(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("live mode: the fault is the emulator's")
	}
	cfg := ruleWithDescription(e, e.name("rule-part"), "Deploys trigger releases")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_organization_rule"),
		Steps: []resource.TestStep{
			{
				PreConfig: e.aim(fakeserver.AimedFault{Operation: "updateOrganizationRule", Kind: fakeserver.FaultErrorsWithData, Times: 1}),
				Config:    cfg,
				Check: resource.ComposeTestCheckFunc(e.checkFaultsMet(fakeserver.FaultErrorsWithData, 1),
					e.checkRuleDetails("Deploys trigger releases", nil)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ruleAddr, tfjsonpath.New("description"), knownvalue.StringExact("Deploys trigger releases")),
				},
				ConfigPlanChecks: expectEmpty(),
			},
			e.partKept("getOrganizationRule", fakeserver.FaultNullData, "Unable to Read Rule"),
			e.partKept("getOrganizationRule", fakeserver.FaultNotFound, "Unable to Read Rule"),
			{
				PreConfig: e.server.ClearAimedFaults,
				Config:    cfg,
				Check: resource.ComposeTestCheckFunc(e.checkFaultsMet(fakeserver.FaultNullData, 1),
					e.checkFaultsMet(fakeserver.FaultNotFound, 1), e.checkExists(ruleAddr)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestAccClusterQueueResource_graphQLPartKept: a macOS hosted queue, read over REST, whose settings GraphQL
// answers null, then "not found", on refresh: the refresh fails and the queue stays in state; with the fault
// cleared the plan is empty. Its settings set at create with an answer that carries errors and the queue
// are recorded.
func TestAccClusterQueueResource_graphQLPartKept(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("live mode: the fault is the emulator's")
	}
	cfg := hostedQueueConfig(e, e.name("mac-part"), `    instance_shape = "MACOS_ARM64_M4_6X28"
    mac            = { xcode_version = "16.2", macos_version = "SEQUOIA" }`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{
			{
				PreConfig: e.aim(fakeserver.AimedFault{Operation: "updateClusterQueueMacSettings", Kind: fakeserver.FaultErrorsWithData, Times: 1}),
				Config:    cfg,
				Check: resource.ComposeTestCheckFunc(e.checkFaultsMet(fakeserver.FaultErrorsWithData, 1),
					e.checkMacSettings("16.2", "SEQUOIA")),
				ConfigPlanChecks: expectEmpty(),
			},
			e.partKept("getClusterQueueMacSettings", fakeserver.FaultNullData, "Unable to Read Cluster Queue"),
			e.partKept("getClusterQueueMacSettings", fakeserver.FaultNotFound, "Unable to Read Cluster Queue"),
			{
				PreConfig: e.server.ClearAimedFaults,
				Config:    cfg,
				Check: resource.ComposeTestCheckFunc(e.checkFaultsMet(fakeserver.FaultNullData, 1),
					e.checkFaultsMet(fakeserver.FaultNotFound, 1), e.checkMacSettings("16.2", "SEQUOIA")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestActedWithErrors_warning: a mutation's error marked Acted is a warning naming the object, the
// operation and the service's words, not an error; a refusal adds nothing here.
func TestActedWithErrors_warning(t *testing.T) {
	var diags diag.Diagnostics
	acted := &buildkite.GraphQLError{Operation: "createAgentToken", Acted: true,
		Errors: []buildkite.GraphQLErrorItem{{Message: "Audit log could not be written"}}}
	if !actedWithErrors(&diags, fmt.Errorf("wrapped: %w", acted), "create", "agent token", "ci") {
		t.Fatal("an Acted error was not taken as done")
	}
	if diags.HasError() || len(diags) != 1 {
		t.Fatalf("diagnostics = %v: want one warning", diags)
	}
	w := diags[0]
	if w.Summary() != "Buildkite Answered With Errors" || !strings.Contains(w.Detail(), "Creating agent token ci") ||
		!strings.Contains(w.Detail(), "Audit log could not be written") || !strings.Contains(w.Detail(), "GraphQL createAgentToken") ||
		strings.Contains(w.Detail(), "refused") {
		t.Errorf("warning = %q: %q", w.Summary(), w.Detail())
	}
	refused := &buildkite.GraphQLError{Operation: "createAgentToken", Errors: acted.Errors}
	if actedWithErrors(&diags, refused, "create", "agent token", "ci") || len(diags) != 1 {
		t.Errorf("a refusal was taken as done: %v", diags)
	}
}

// TestAccPipelineWebhookResource_graphQLPartKept: the webhook of a pipeline REST serves, read through the
// pipeline's GraphQL node, which answers null, then "not found", on refresh: the refresh fails and the
// webhook stays in state; with the fault cleared the plan is empty. Its delete at destroy answered with
// errors and the deleted webhook's ID is done.
func TestAccPipelineWebhookResource_graphQLPartKept(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("live mode: the fault is the emulator's")
	}
	name := e.name("hook-part")
	cfg := e.config(testAccPipelineWebhookConfig(name, "https://github.com/acme/"+name+".git", true, "id", "buildkite_pipeline.app.repository"))
	webhookGone := func(s *terraform.State) error {
		id := s.RootModule().Resources["buildkite_pipeline.app"].Primary.Attributes["id"]
		if e.server.Store().Exists(fakeserver.KindPipelineWebhook, e.org, id) {
			return fmt.Errorf("the repository webhook of pipeline %s is still there after destroy", id)
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             resource.ComposeTestCheckFunc(e.checkFaultsMet(fakeserver.FaultErrorsWithData, 1), webhookGone),
		Steps: []resource.TestStep{
			{Config: cfg, Check: e.checkRepoWebhook(true), ConfigPlanChecks: expectEmpty()},
			e.partKept("getPipelineWebhook", fakeserver.FaultNullData, "Unable to Read Pipeline Webhook"),
			e.partKept("getPipelineWebhook", fakeserver.FaultNotFound, "Unable to Read Pipeline Webhook"),
			{
				PreConfig: e.aim(fakeserver.AimedFault{Operation: "deletePipelineWebhook", Kind: fakeserver.FaultErrorsWithData, Times: 1}),
				Config:    cfg,
				Check: resource.ComposeTestCheckFunc(e.checkFaultsMet(fakeserver.FaultNullData, 1),
					e.checkFaultsMet(fakeserver.FaultNotFound, 1), e.checkRepoWebhook(true)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestAccOrganizationResource_enforce2FAAnsweredWithErrors: enforce_2fa set with an answer that carries
// errors and the organization's new value is applied: the apply succeeds and the plan after is empty.
func TestAccOrganizationResource_enforce2FAAnsweredWithErrors(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("live mode: the fault is the emulator's")
	}
	e.keepAPISettings()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkAllowlistRemoved,
		Steps: []resource.TestStep{{
			PreConfig: e.aim(fakeserver.AimedFault{Operation: "setOrganization2FA", Kind: fakeserver.FaultErrorsWithData, Times: 1}),
			Config:    e.config(testAccOrganizationConfig(`enforce_2fa = true`)),
			Check: resource.ComposeTestCheckFunc(e.checkFaultsMet(fakeserver.FaultErrorsWithData, 1),
				resource.TestCheckResourceAttr("buildkite_organization.test", "enforce_2fa", "true")),
			ConfigPlanChecks: expectEmpty(),
		}},
	})
}

// TestAccAgentTokenResource_refreshWithoutGraphQLScope: a token without the graphql scope, met on refresh
// (the GraphQL endpoint answers 401 "Authentication required"), fails the refresh naming the missing scope;
// the agent token stays in state, and plans empty again with a token that has the scope.
func TestAccAgentTokenResource_refreshWithoutGraphQLScope(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("needs a token the emulator issues")
	}
	scopes := slices.DeleteFunc(fakeserver.AllScopes(), func(s string) bool { return s == "graphql" })
	e.server.Store().AddToken("no-graphql", []string{e.org}, scopes)
	token := testAccAgentTokenConfig(e.name("scope"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkAgentTokensRevoked(),
		Steps: []resource.TestStep{
			{Config: e.config(token), Check: e.checkAgentTokenLive("buildkite_agent_token.test")},
			{
				Config:      e.providerBlock(e.org, "no-graphql") + token,
				ExpectError: regexp.MustCompile(`Unable to Read Agent Token[\s\S]*Authentication[\s\S]*required[\s\S]*lacks[\s\S]*the[\s\S]*"graphql"[\s\S]*scope`),
			},
			{Config: e.config(token), PlanOnly: true},
		},
	})
}
