package clusters_test

import (
	"context"
	"fmt"
	"regexp"
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
)

// hostedQueue returns the service's view of buildkite_cluster_queue.test.
func hostedQueue(e *acctest.TestEnv, s *terraform.State) (*buildkite.Queue, error) {
	rs, ok := s.RootModule().Resources["buildkite_cluster_queue.test"]
	if !ok {
		return nil, fmt.Errorf("buildkite_cluster_queue.test is not in state")
	}
	return e.Client.Queues.Get(context.Background(), rs.Primary.Attributes["cluster_uuid"], rs.Primary.ID)
}

// checkHostedQueue asks the service for the queue's instance shape and Linux agent image ("" for the default).
func checkHostedQueue(e *acctest.TestEnv, shape, image string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		q, err := hostedQueue(e, s)
		if err != nil {
			return err
		}
		if !q.Hosted || q.HostedAgents == nil {
			return fmt.Errorf("queue %s is not hosted on the service", q.Key)
		}
		if got := q.HostedAgents.InstanceShape.Name; got != shape {
			return fmt.Errorf("queue %s: instance shape %q on the service, want %q", q.Key, got, shape)
		}
		if got := q.HostedAgents.AgentImageRef(); got != image {
			return fmt.Errorf("queue %s: agent image %q on the service, want %q", q.Key, got, image)
		}
		return nil
	}
}

// setImageOutside changes the queue's agent image over REST, behind Terraform's back.
func setImageOutside(e *acctest.TestEnv, shape, image string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources["buildkite_cluster_queue.test"]
		if !ok {
			return fmt.Errorf("buildkite_cluster_queue.test is not in state")
		}
		_, err := e.Client.Queues.Update(context.Background(), rs.Primary.Attributes["cluster_uuid"], rs.Primary.ID, buildkite.QueueUpdate{
			HostedAgents: &buildkite.HostedAgentsWrite{InstanceShape: shape, AgentImageRef: buildkite.Value(image)},
		})
		return err
	}
}

func hostedQueueConfig(e *acctest.TestEnv, cluster, body string) string {
	return e.Config(acctest.ClusterQueueConfig(cluster, "hosted", "  hosted_agents = {\n"+body+"\n  }"))
}

// TestAccClusterQueueResource_hostedLinux creates a hosted Linux queue with an image (the create, then the
// image as an update repeating the shape), resizes it in place, goes back to the default image, repairs an
// image changed outside Terraform, imports it, refuses a change of architecture at plan, and replaces the
// queue when hosted_agents is removed.
func TestAccClusterQueueResource_hostedLinux(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: hosted queues run billed Buildkite agents; this test runs against the emulator only")
	}
	cluster := e.Name("hosted")
	const addr = "buildkite_cluster_queue.test"
	withImage := hostedQueueConfig(e, cluster, `    instance_shape = "LINUX_AMD64_2X4"
    linux          = { agent_image_ref = "ubuntu:24.04" }`)
	resized := hostedQueueConfig(e, cluster, `    instance_shape = "LINUX_AMD64_8X32"
    linux          = { agent_image_ref = "ubuntu:24.04" }`)
	defaultImage := hostedQueueConfig(e, cluster, `    instance_shape = "LINUX_AMD64_8X32"`)
	otherArch := hostedQueueConfig(e, cluster, `    instance_shape = "LINUX_ARM64_8X32"`)
	update := func() resource.ConfigPlanChecks {
		return resource.ConfigPlanChecks{
			PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
			PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{
			{
				Config:           withImage,
				Check:            resource.ComposeTestCheckFunc(e.CheckExists(addr), checkHostedQueue(e, "LINUX_AMD64_2X4", "ubuntu:24.04")),
				ConfigPlanChecks: acctest.ExpectEmpty(),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("hosted_agents").AtMapKey("linux").AtMapKey("agent_image_ref"),
						knownvalue.StringExact("ubuntu:24.04")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("hosted_agents").AtMapKey("mac"), knownvalue.Null()),
				},
			},
			{Config: resized, ConfigPlanChecks: update(), Check: checkHostedQueue(e, "LINUX_AMD64_8X32", "ubuntu:24.04")},
			{
				Config: defaultImage, ConfigPlanChecks: update(), Check: checkHostedQueue(e, "LINUX_AMD64_8X32", ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("hosted_agents").AtMapKey("linux"), knownvalue.Null()),
				},
			},
			{
				// An image set outside Terraform shows as drift on the next plan.
				Config: defaultImage, Check: setImageOutside(e, "LINUX_AMD64_8X32", "debian:12"), ExpectNonEmptyPlan: true,
			},
			{Config: defaultImage, ConfigPlanChecks: update(), Check: checkHostedQueue(e, "LINUX_AMD64_8X32", "")},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: acctest.ImportID(addr, "cluster_id", "key")},
			{
				Config:      otherArch,
				ExpectError: regexp.MustCompile(`(?s)Instance Shape Cannot Change Platform.*Instance shape cannot be\s+changed to\s+LINUX_ARM64_8X32`),
			},
			{
				// Removing hosted_agents replaces the queue: the service converts neither way.
				Config: e.Config(acctest.ClusterQueueConfig(cluster, "hosted", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("hosted_agents"), knownvalue.Null()),
				},
			},
			{
				// And adding it back replaces it again.
				Config: defaultImage,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace)},
				},
				Check: checkHostedQueue(e, "LINUX_AMD64_8X32", ""),
			},
		},
	})
}

// TestAccClusterQueueResource_hostedStepsFail: a Linux agent image the service refuses after the create, and
// macOS settings GraphQL refuses at create and at update, each fail the apply naming the queue. After a
// create the queue made is recorded, tainted, and the next apply replaces it; after an update the queue is
// recorded as it was, and the next apply makes the change in place.
func TestAccClusterQueueResource_hostedStepsFail(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: the faults are the emulator's")
	}
	const addr = "buildkite_cluster_queue.test"
	// A failed create taints the queue it made: the next apply replaces it.
	replace := resource.ConfigPlanChecks{
		PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace)},
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
	}
	const uuid = `[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`
	linux := hostedQueueConfig(e, e.Name("image-fails"), `    instance_shape = "LINUX_AMD64_2X4"
    linux          = { agent_image_ref = "ubuntu:24.04" }`)
	macCluster := e.Name("mac-fails")
	mac := func(xcode string) string {
		return hostedQueueConfig(e, macCluster, `    instance_shape = "MACOS_ARM64_M4_6X28"
    mac            = { xcode_version = "`+xcode+`", macos_version = "SEQUOIA" }`)
	}
	macFault := e.Aim(fakeserver.AimedFault{Operation: "updateClusterQueueMacSettings", Kind: fakeserver.FaultServerError})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{
			{
				PreConfig:   e.Aim(fakeserver.AimedFault{Route: "PUT /v2/organizations/{org}/clusters/{cluster}/queues/{queue}", Kind: fakeserver.FaultServerError}),
				Config:      linux,
				ExpectError: acctest.RegexpMust(`(?s)Unable to Set the agent image of Cluster Queue.*cluster\s+queue\s+` + uuid + `/` + uuid + `:`),
			},
			{
				PreConfig: e.Server.ClearAimedFaults, Config: linux, ConfigPlanChecks: replace,
				Check: checkHostedQueue(e, "LINUX_AMD64_2X4", "ubuntu:24.04"),
			},
		},
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{
			{PreConfig: macFault, Config: mac("16.2"), ExpectError: acctest.RegexpMust(`(?s)Cluster Queue.*macOS settings`)},
			{
				PreConfig: e.Server.ClearAimedFaults, Config: mac("16.2"), ConfigPlanChecks: replace,
				Check: checkMacSettings(e, "16.2", "SEQUOIA"),
			},
			{PreConfig: macFault, Config: mac("16.3"), ExpectError: acctest.RegexpMust(`(?s)Cluster Queue.*macOS settings`)},
			{
				PreConfig: e.Server.ClearAimedFaults, Config: mac("16.3"), ConfigPlanChecks: acctest.InPlace(addr),
				Check: checkMacSettings(e, "16.3", "SEQUOIA"),
			},
		},
	})
}

// checkMacSettings asks the service, through GraphQL, for the queue's macOS settings ("" for none).
func checkMacSettings(e *acctest.TestEnv, xcode, macos string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources["buildkite_cluster_queue.test"].Primary.Attributes
		m, err := e.Client.Queues.MacSettings(context.Background(), a["graphql_id"])
		if err != nil {
			return err
		}
		if m.XcodeVersion != xcode || (macos != "" && m.MacosVersion != macos) {
			return fmt.Errorf("macOS settings on the service = %+v, want Xcode %q, macOS %q", *m, xcode, macos)
		}
		return nil
	}
}

// setMacOutside changes the queue's Xcode version behind Terraform's back.
func setMacOutside(e *acctest.TestEnv, shape, xcode string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources["buildkite_cluster_queue.test"].Primary.Attributes
		_, err := e.Client.Queues.SetMacSettings(context.Background(), a["graphql_id"], shape, buildkite.MacSettingsWrite{XcodeVersion: &xcode})
		return err
	}
}

// TestAccClusterQueueResource_hostedMac creates a hosted macOS queue: the shape is applied and resized
// over REST; the mac settings are set through GraphQL (clusterQueueUpdate after the REST create), changed in
// place, read back (import included, and a change made outside Terraform shows), and cleared when removed.
func TestAccClusterQueueResource_hostedMac(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: hosted queues run billed Buildkite agents; this test runs against the emulator only")
	}
	cluster := e.Name("mac")
	const addr = "buildkite_cluster_queue.test"
	mac := func(shape, settings string) string {
		return hostedQueueConfig(e, cluster, `    instance_shape = "`+shape+`"
    mac            = `+settings)
	}
	macAttr := func(name string) tfjsonpath.Path {
		return tfjsonpath.New("hosted_agents").AtMapKey("mac").AtMapKey(name)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{
			{
				// No macOS version chosen: the one the service selects is read back (the official
				// provider's test of a mac block needs it set).
				Config: mac("MACOS_ARM64_M4_6X28", `{ xcode_version = "16.2" }`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, macAttr("macos_version"), knownvalue.StringExact("TAHOE")),
				},
			},
			{
				Config:           mac("MACOS_ARM64_M4_6X28", `{ xcode_version = "16.2", macos_version = "SEQUOIA" }`),
				Check:            resource.ComposeTestCheckFunc(checkHostedQueue(e, "MACOS_ARM64_M4_6X28", ""), checkMacSettings(e, "16.2", "SEQUOIA")),
				ConfigPlanChecks: acctest.ExpectEmpty(),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, macAttr("xcode_version"), knownvalue.StringExact("16.2")),
					statecheck.ExpectKnownValue(addr, macAttr("macos_version"), knownvalue.StringExact("SEQUOIA")),
				},
			},
			{
				// The macOS settings are read back, so an import has them.
				ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: acctest.ImportID(addr, "cluster_id", "key"),
			},
			{
				// A resize and another Xcode version: both in place.
				Config:           mac("MACOS_ARM64_M4_12X56", `{ xcode_version = "16.3", macos_version = "SEQUOIA" }`),
				Check:            resource.ComposeTestCheckFunc(checkHostedQueue(e, "MACOS_ARM64_M4_12X56", ""), checkMacSettings(e, "16.3", "SEQUOIA")),
				ConfigPlanChecks: acctest.InPlace(addr),
			},
			{
				// Changed outside Terraform: read back, and put back.
				Config:             mac("MACOS_ARM64_M4_12X56", `{ xcode_version = "16.3", macos_version = "SEQUOIA" }`),
				Check:              setMacOutside(e, "MACOS_ARM64_M4_12X56", "15.4"),
				ExpectNonEmptyPlan: true,
			},
			{
				Config:           mac("MACOS_ARM64_M4_12X56", `{ xcode_version = "16.3", macos_version = "SEQUOIA" }`),
				Check:            checkMacSettings(e, "16.3", "SEQUOIA"),
				ConfigPlanChecks: acctest.InPlace(addr),
			},
			{
				// The block removed: the Xcode version is cleared, in place.
				Config:           hostedQueueConfig(e, cluster, `    instance_shape = "MACOS_ARM64_M4_12X56"`),
				Check:            checkMacSettings(e, "", ""),
				ConfigPlanChecks: acctest.InPlace(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("hosted_agents").AtMapKey("mac"), knownvalue.Null()),
				},
			},
			{Config: hostedQueueConfig(e, cluster, `    instance_shape = "LINUX_ARM64_2X4"`), ExpectError: regexp.MustCompile(`Instance Shape Cannot Change Platform`)},
		},
	})
}

// TestAccClusterQueueResource_graphQLPartKept: a macOS hosted queue, read over REST, whose settings GraphQL
// answers null, then "not found", on refresh: the refresh fails and the queue stays in state; with the fault
// cleared the plan is empty. Its settings set at create with an answer that carries errors and the queue
// are recorded.
func TestAccClusterQueueResource_graphQLPartKept(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: the fault is the emulator's")
	}
	cfg := hostedQueueConfig(e, e.Name("mac-part"), `    instance_shape = "MACOS_ARM64_M4_6X28"
    mac            = { xcode_version = "16.2", macos_version = "SEQUOIA" }`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{
			{
				PreConfig: e.Aim(fakeserver.AimedFault{Operation: "updateClusterQueueMacSettings", Kind: fakeserver.FaultErrorsWithData, Times: 1}),
				Config:    cfg,
				Check: resource.ComposeTestCheckFunc(e.CheckFaultsMet(fakeserver.FaultErrorsWithData, 1),
					checkMacSettings(e, "16.2", "SEQUOIA")),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			e.PartKept("getClusterQueueMacSettings", fakeserver.FaultNullData, "Unable to Read Cluster Queue"),
			e.PartKept("getClusterQueueMacSettings", fakeserver.FaultNotFound, "Unable to Read Cluster Queue"),
			{
				PreConfig: e.Server.ClearAimedFaults,
				Config:    cfg,
				Check: resource.ComposeTestCheckFunc(e.CheckFaultsMet(fakeserver.FaultNullData, 1),
					e.CheckFaultsMet(fakeserver.FaultNotFound, 1), checkMacSettings(e, "16.2", "SEQUOIA")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}
