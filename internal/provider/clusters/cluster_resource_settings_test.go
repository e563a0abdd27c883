package clusters_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/clusters"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// The cluster's hosted settings (REST, changed only once it has a hosted queue) and its agent tracing
// service (GraphQL).

// checkClusterOnService asks the service for buildkite_cluster.test and checks it with fn.
func checkClusterOnService(e *acctest.TestEnv, fn func(c *buildkite.Cluster, tracing string) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources["buildkite_cluster.test"]
		if !ok {
			return fmt.Errorf("buildkite_cluster.test is not in state")
		}
		c, err := e.Client.Clusters.Get(context.Background(), rs.Primary.ID)
		if err != nil {
			return err
		}
		tracing, err := e.Client.Clusters.AgentTracingService(context.Background(), c.GraphQLID)
		if err != nil {
			return err
		}
		return fn(c, tracing)
	}
}

// hostedOnService checks the cluster's hosted settings on the service.
func hostedOnService(e *acctest.TestEnv, gitMirror, containerCache bool) resource.TestCheckFunc {
	return checkClusterOnService(e, func(c *buildkite.Cluster, _ string) error {
		if kit.Deref(c.HostedGitMirrorEnabled) != gitMirror || kit.Deref(c.HostedContainerCacheEnabled) != containerCache {
			return fmt.Errorf("the service holds git mirror %v, container cache %v; want %v, %v",
				kit.Deref(c.HostedGitMirrorEnabled), kit.Deref(c.HostedContainerCacheEnabled), gitMirror, containerCache)
		}
		return nil
	})
}

// tracingOnService checks the cluster's agent tracing service on the service ("" for none); want names a
// resource's id attribute ("buildkite_notification_service.otel") or is "".
func tracingOnService(e *acctest.TestEnv, want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		uuid := ""
		if want != "" {
			rs, ok := s.RootModule().Resources[want]
			if !ok {
				return fmt.Errorf("%s is not in state", want)
			}
			uuid = rs.Primary.ID
		}
		return checkClusterOnService(e, func(_ *buildkite.Cluster, tracing string) error {
			if tracing != uuid {
				return fmt.Errorf("the service holds agent tracing service %q, want %q", tracing, uuid)
			}
			return nil
		})(s)
	}
}

// testAccClusterHostedConfig is the cluster with extra attributes and, with queue, a hosted Linux queue.
func testAccClusterHostedConfig(name, extra string, queue bool) string {
	cfg := acctest.ClusterConfig(name, extra)
	if queue {
		cfg += `
resource "buildkite_cluster_queue" "hosted" {
  cluster_id = buildkite_cluster.test.id
  key        = "hosted"
  hosted_agents = {
    instance_shape = "LINUX_AMD64_2X4"
  }
}
`
	}
	return cfg
}

// TestAccClusterResource_hostedSettings: a cluster is created with the settings false (a new cluster's), its
// first hosted queue turns the container cache on (read, with no plan where the attribute is unset), both are
// enabled and disabled in place, an unset attribute keeps the service's value, and an import reads them.
func TestAccClusterResource_hostedSettings(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: hosted queues run billed Buildkite agents; this test runs against the emulator only")
	}
	name := e.Name("hosted")
	const addr = "buildkite_cluster.test"
	hostedState := func(gitMirror, containerCache bool) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("hosted_git_mirror_enabled"), knownvalue.Bool(gitMirror)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("hosted_container_cache_enabled"), knownvalue.Bool(containerCache)),
		}
	}
	empty := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	inPlace := resource.ConfigPlanChecks{
		PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster"),
		Steps: []resource.TestStep{
			{
				Config:            e.Config(testAccClusterHostedConfig(name, `  hosted_git_mirror_enabled = false`, false)),
				ConfigPlanChecks:  empty,
				ConfigStateChecks: hostedState(false, false),
				Check:             hostedOnService(e, false, false),
			},
			{
				// The first hosted queue turns the container cache on; the unset attribute follows.
				Config:           e.Config(testAccClusterHostedConfig(name, `  hosted_git_mirror_enabled = false`, true)),
				ConfigPlanChecks: empty,
				Check:            hostedOnService(e, false, true),
			},
			{
				Config: e.Config(testAccClusterHostedConfig(name, `  hosted_git_mirror_enabled      = true
  hosted_container_cache_enabled = true`, true)),
				ConfigPlanChecks:  inPlace,
				ConfigStateChecks: hostedState(true, true),
				Check:             hostedOnService(e, true, true),
			},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true},
			{
				Config: e.Config(testAccClusterHostedConfig(name, `  hosted_git_mirror_enabled      = false
  hosted_container_cache_enabled = false`, true)),
				ConfigPlanChecks:  inPlace,
				ConfigStateChecks: hostedState(false, false),
				Check:             hostedOnService(e, false, false),
			},
			{
				// Removed from the configuration: kept as they are, nothing planned.
				Config: e.Config(testAccClusterHostedConfig(name, "", true)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: hostedOnService(e, false, false),
			},
		},
	})
}

// TestAccClusterResource_hostedSettingsRefusedAtCreate: true (or a value known only at apply) at create is
// refused at plan, naming the attribute and why, for each setting; false is taken (a new cluster's value).
func TestAccClusterResource_hostedSettingsRefusedAtCreate(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	var steps []resource.TestStep
	for _, a := range clusters.ClusterHostedAttrsForTest {
		steps = append(steps, resource.TestStep{
			Config:      e.Config(testAccClusterHostedConfig(e.Name("new"), "  "+a+" = true", true)),
			PlanOnly:    true,
			ExpectError: acctest.RegexpMust(`(?s)Hosted Setting Refused on a New Cluster.*buildkite_cluster\.` + a + ` cannot be true.*has\s+no\s+hosted\s+queue\s+when\s+it\s+is\s+created.*add\s+a\s+buildkite_cluster_queue`),
		})
	}
	// A value known only at apply could be true.
	steps = append(steps, resource.TestStep{
		Config: e.Config(testAccClusterHostedConfig(e.Name("new"), "  hosted_git_mirror_enabled = terraform_data.flag.output", false) + `
resource "terraform_data" "flag" {
  input = false
}
`),
		PlanOnly:    true,
		ExpectError: acctest.RegexpMust(`(?s)Hosted Setting Refused on a New Cluster.*a\s+value\s+known\s+only\s+at\s+apply`),
	})
	steps = append(steps, resource.TestStep{
		Config:             e.Config(testAccClusterHostedConfig(e.Name("new"), "  hosted_git_mirror_enabled = false", false)),
		PlanOnly:           true,
		ExpectNonEmptyPlan: true,
	})
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: e.Factories(), Steps: steps})
}

// TestAccClusterResource_hostedSettingsWithoutHostedQueue: enabling a setting on a cluster without a hosted
// queue reaches the user as the service's 422, in its words, with what to do; the cluster's other change in
// the same apply is recorded, and the setting stays as the service holds it.
func TestAccClusterResource_hostedSettingsWithoutHostedQueue(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("selfhosted")
	const addr = "buildkite_cluster.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster"),
		Steps: []resource.TestStep{
			{Config: e.Config(testAccClusterHostedConfig(name, "", false))},
			{
				Config: e.Config(testAccClusterHostedConfig(name, `  description               = "changed"
  hosted_git_mirror_enabled = true`, false)),
				ExpectError: acctest.RegexpMust(`(?s)Unable to Update Cluster Hosted Settings.*answered 422.*can\s+only\s+be\s+changed\s+once\s+the\s+cluster\s+has\s+a\s+hosted\s+queue.*add\s+a\s+buildkite_cluster_queue\s+with\s+hosted_agents`),
			},
			{
				Config: e.Config(testAccClusterHostedConfig(name, `  description = "changed"`, false)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact("changed")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("hosted_git_mirror_enabled"), knownvalue.Bool(false)),
				},
				Check: hostedOnService(e, false, false),
			},
		},
	})
}

// testAccTracingConfig is the cluster with agent_tracing_service_uuid set to value (HCL; "" leaves it out),
// beside an OpenTelemetry tracing service and a webhook service.
func testAccTracingConfig(name, value string) string {
	extra := ""
	if value != "" {
		extra = "  agent_tracing_service_uuid = " + value
	}
	return acctest.ClusterConfig(name, extra) + `
resource "buildkite_notification_service" "otel" {
  provider_type = "open_telemetry_tracing"
  open_telemetry_tracing = {
    endpoint = "https://otel.example.com"
  }
}

resource "buildkite_notification_service" "webhook" {
  provider_type = "webhook"
  webhook = {
    url    = "https://example.com/buildkite"
    events = ["build.finished"]
  }
}
`
}

// TestAccClusterResource_agentTracingService: set at create, imported, cleared with "", set again, a change
// outside Terraform seen and repaired, kept when removed from the configuration; a service of another kind
// is the service's refusal on the attribute.
func TestAccClusterResource_agentTracingService(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("traced")
	const addr = "buildkite_cluster.test"
	const otel = "buildkite_notification_service.otel"
	set := e.Config(testAccTracingConfig(name, otel+".id"))
	cleared := e.Config(testAccTracingConfig(name, `""`))
	empty := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster"),
		Steps: []resource.TestStep{
			{
				Config:           set,
				ConfigPlanChecks: empty,
				Check: resource.ComposeTestCheckFunc(tracingOnService(e, otel),
					resource.TestCheckResourceAttrPair(addr, "agent_tracing_service_uuid", otel, "id")),
			},
			{
				Config:           cleared,
				ConfigPlanChecks: empty,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("agent_tracing_service_uuid"), knownvalue.StringExact("")),
				},
				Check: tracingOnService(e, ""),
			},
			{
				Config:           set,
				ConfigPlanChecks: empty,
				Check:            tracingOnService(e, otel),
			},
			{
				// Cleared outside Terraform: the refresh sees it and the plan puts it back.
				Config: set,
				Check: func(s *terraform.State) error {
					_, err := e.Client.Clusters.SetAgentTracingService(context.Background(),
						s.RootModule().Resources[addr].Primary.Attributes["graphql_id"], buildkite.Cleared[string]())
					return err
				},
				ExpectNonEmptyPlan: true,
			},
			{
				Config: set,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: tracingOnService(e, otel),
			},
			{
				// Removed from the configuration: neither planned nor cleared.
				Config: e.Config(testAccTracingConfig(name, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: tracingOnService(e, otel),
			},
			{
				Config:      e.Config(testAccTracingConfig(name, "buildkite_notification_service.webhook.id")),
				ExpectError: acctest.RegexpMust(`(?s)Unable to Set Cluster Agent Tracing Service.*agent_tracing_service_uuid.*is a\s+webhook\s+notification\s+service.*open_telemetry_tracing`),
			},
		},
	})
}

// TestAccClusterResource_agentTracingServiceValidation: anything but a lower-case UUID or "" is refused at
// plan, naming the attribute.
func TestAccClusterResource_agentTracingServiceValidation(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	var steps []resource.TestStep
	for _, v := range []string{`"7C3E5A91-AAAA-4BBB-8CCC-000000000001"`, `"U2VydmljZS0tLTdjM2U1YTkx"`, `" "`} {
		steps = append(steps, resource.TestStep{
			Config:      e.Config(acctest.ClusterConfig(e.Name("traced"), "  agent_tracing_service_uuid = "+v)),
			PlanOnly:    true,
			ExpectError: acctest.RegexpMust(`(?s)agent_tracing_service_uuid.*must be a lower-case UUID`),
		})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: e.Factories(), Steps: steps})
}

// TestAccClusterResource_officialStateWithSettings: a workspace of the official provider's version with the
// three attributes (Optional+Computed there: its state holds the values it read), moved here, plans nothing,
// whether the configuration sets them or leaves them unset.
func TestAccClusterResource_officialStateWithSettings(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	ctx := context.Background()
	c, err := e.Client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: e.Name("moved")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Client.Clusters.Delete(context.Background(), c.ID) })
	svc, err := e.Client.NotificationServices.Create(ctx, buildkite.NotificationServiceCreate{
		Provider: "open_telemetry_tracing",
		Settings: buildkite.NotificationServiceSettings{Endpoint: buildkite.Value("https://otel.example.com")},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Client.NotificationServices.Delete(context.Background(), svc.ID) })
	if _, err := e.Client.Clusters.SetAgentTracingService(ctx, c.GraphQLID, buildkite.Value(svc.ID)); err != nil {
		t.Fatal(err)
	}
	state := acctest.OfficialState(t, acctest.OfficialInstance{Address: "buildkite_cluster.main", Attrs: map[string]any{
		"id": c.GraphQLID, "uuid": c.ID, "name": c.Name,
	}})
	// The official provider's newer version writes the three attributes: add them as it stores them.
	state = withOfficialAttributes(t, state, "buildkite_cluster", map[string]any{
		"hosted_git_mirror_enabled": false, "hosted_container_cache_enabled": false, "agent_tracing_service_uuid": svc.ID,
	})
	for name, body := range map[string]string{
		"set":   fmt.Sprintf("  agent_tracing_service_uuid = %q\n  hosted_git_mirror_enabled = false", svc.ID),
		"unset": "",
	} {
		t.Run(name, func(t *testing.T) {
			w := e.ReplaceProvider(t, e.OfficialProviderBlock()+fmt.Sprintf(`
resource "buildkite_cluster" "main" {
  name = %q
%s
}
`, c.Name, body), state)
			w.ExpectNoChanges()
		})
	}
}

// withOfficialAttributes adds attrs to every instance of typ in a state file.
func withOfficialAttributes(t *testing.T, state []byte, typ string, attrs map[string]any) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(state, &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc["resources"].([]any) {
		res := r.(map[string]any)
		if res["type"] != typ {
			continue
		}
		for _, in := range res["instances"].([]any) {
			for k, v := range attrs {
				in.(map[string]any)["attributes"].(map[string]any)[k] = v
			}
		}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"resources"`) {
		t.Fatal("the state lost its resources")
	}
	return out
}

// TestAccClusterDataSource_settings: both cluster data sources show the hosted settings and the agent tracing
// service ("" where a cluster has none).
func TestAccClusterDataSource_settings(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	ctx := context.Background()
	name := e.Name("shown")
	traced, err := e.Client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: name + "-traced"})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := e.Client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: name + "-plain"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = e.Client.Clusters.Delete(context.Background(), traced.ID)
		_ = e.Client.Clusters.Delete(context.Background(), plain.ID)
	})
	svc, err := e.Client.NotificationServices.Create(ctx, buildkite.NotificationServiceCreate{
		Provider: "open_telemetry_tracing",
		Settings: buildkite.NotificationServiceSettings{Endpoint: buildkite.Value("https://otel.example.com")},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Client.NotificationServices.Delete(context.Background(), svc.ID) })
	if _, err := e.Client.Clusters.SetAgentTracingService(ctx, traced.GraphQLID, buildkite.Value(svc.ID)); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config: e.Config(fmt.Sprintf(`
data "buildkite_cluster" "traced" {
  id = %q
}

data "buildkite_clusters" "all" {}
`, traced.ID)),
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("data.buildkite_cluster.traced", "agent_tracing_service_uuid", svc.ID),
				resource.TestCheckResourceAttr("data.buildkite_cluster.traced", "hosted_git_mirror_enabled", "false"),
				resource.TestCheckResourceAttr("data.buildkite_cluster.traced", "hosted_container_cache_enabled", "false"),
				resource.TestCheckTypeSetElemNestedAttrs("data.buildkite_clusters.all", "clusters.*", map[string]string{
					"id": traced.ID, "agent_tracing_service_uuid": svc.ID, "hosted_git_mirror_enabled": "false",
				}),
				resource.TestCheckTypeSetElemNestedAttrs("data.buildkite_clusters.all", "clusters.*", map[string]string{
					"id": plain.ID, "agent_tracing_service_uuid": "", "hosted_container_cache_enabled": "false",
				}),
			),
		}},
	})
}

// TestAccClusterResource_agentTracingServiceFaults: a selection answered with errors beside the cluster is
// recorded with a warning; a refresh whose GraphQL read of the selection fails (null data, not found) fails
// naming the cluster and keeps it in state; a selection refused outright after the create leaves the cluster
// recorded (tainted) with no selection, and the next apply makes it again with the selection.
func TestAccClusterResource_agentTracingServiceFaults(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: the faults are the emulator's")
	}
	const addr = "buildkite_cluster.test"
	const otel = "buildkite_notification_service.otel"
	cfg := e.Config(testAccTracingConfig(e.Name("faulty"), otel+".id"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster"),
		Steps: []resource.TestStep{
			{
				PreConfig:   e.Aim(fakeserver.AimedFault{Operation: "setClusterAgentTracing", Kind: fakeserver.FaultNullData, Times: 1}),
				Config:      cfg,
				ExpectError: acctest.RegexpMust(`(?s)Unable to Set Cluster Agent Tracing Service.*The\s+rest\s+of\s+the\s+cluster\s+is\s+recorded`),
			},
			{
				// The cluster made before the refusal is tainted: replaced, with the selection this time.
				PreConfig: e.Server.ClearAimedFaults,
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(e.CheckFaultsMet(fakeserver.FaultNullData, 1), tracingOnService(e, otel)),
			},
			e.PartKept("getClusterAgentTracing", fakeserver.FaultNullData, "Unable to Read Cluster"),
			e.PartKept("getClusterAgentTracing", fakeserver.FaultNotFound, "Unable to Read Cluster"),
			{
				PreConfig: e.Aim(fakeserver.AimedFault{Operation: "setClusterAgentTracing", Kind: fakeserver.FaultErrorsWithData, Times: 1}),
				Config:    e.Config(testAccTracingConfig(e.Name("faulty"), `""`)),
				Check: resource.ComposeTestCheckFunc(e.CheckFaultsMet(fakeserver.FaultErrorsWithData, 1), tracingOnService(e, ""),
					resource.TestCheckResourceAttr(addr, "agent_tracing_service_uuid", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestAccClusterResource_restOnly: a cluster that leaves agent_tracing_service_uuid unset needs no GraphQL
// (created, updated, imported and refreshed with a REST-only provider, no request to /v1); one that sets it
// fails at plan, naming the attribute, where GraphQL cannot be reached.
func TestAccClusterResource_restOnly(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: the request log is the emulator's")
	}
	e.Server.Store().AddToken("rest-only-token", []string{e.Org}, []string{"read_clusters", "write_clusters"})
	noGraphQL := fmt.Sprintf("provider \"buildkite\" {\n  rest_url = %q\n  organization = %q\n  api_token = %q\n  max_retries = 1\n}\n", e.URL, e.Org, e.Token)
	noScope := fmt.Sprintf("provider \"buildkite\" {\n  rest_url = %q\n  graphql_url = %q\n  organization = %q\n  api_token = \"rest-only-token\"\n  max_retries = 1\n}\n", e.URL, e.GraphQLURL, e.Org)
	name := e.Name("rest")
	const addr = "buildkite_cluster.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster"),
		Steps: []resource.TestStep{
			{
				Config:           noScope + acctest.ClusterConfig(name, `  hosted_git_mirror_enabled = false`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            resource.TestCheckNoResourceAttr(addr, "agent_tracing_service_uuid"),
			},
			{
				Config:           noGraphQL + acctest.ClusterConfig(name, `  description = "changed"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{Config: noGraphQL + acctest.ClusterConfig(name, `  description = "changed"`), ResourceName: addr, ImportState: true, ImportStateVerify: true},
			{
				Config:      noScope + acctest.ClusterConfig(name, `  agent_tracing_service_uuid = ""`),
				ExpectError: acctest.RegexpMust(`Missing API Token Scope[\s\S]*buildkite_cluster.agent_tracing_service_uuid[\s\S]*"graphql"`),
			},
			{
				Config:      noGraphQL + acctest.ClusterConfig(name, `  agent_tracing_service_uuid = ""`),
				ExpectError: acctest.RegexpMust(`GraphQL URL Not Set[\s\S]*buildkite_cluster.agent_tracing_service_uuid`),
			},
		},
	})
	for _, r := range e.Server.Requests() {
		if strings.HasPrefix(r.Path, "/v1") {
			t.Errorf("a workspace that does not set agent_tracing_service_uuid sent %s %s", r.Method, r.Path)
		}
	}
}
