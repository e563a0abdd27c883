package provider

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// Comparing what the service holds with what the state records: after faults or an interrupted apply, every
// object the service lists must be in state (no orphan, no duplicate) and every one in state on the
// service. Objects are compared by ID, kind by kind.

// objectsByType are IDs by resource type.
type objectsByType map[string][]string

func (o objectsByType) add(typ, id string) { o[typ] = append(o[typ], id) }

// stateObjects are the managed resources of a state, by type.
func stateObjects(s *terraform.State) objectsByType {
	inState := objectsByType{}
	for addr, rs := range s.RootModule().Resources {
		if strings.HasPrefix(addr, "data.") || !strings.HasPrefix(rs.Type, "buildkite_") {
			continue
		}
		id := rs.Primary.Attributes["id"]
		if _, hasID := rs.Primary.Attributes["id"]; !hasID {
			id = rs.Primary.Attributes["uuid"] // a type without id, such as a portal
		}
		inState.add(rs.Type, id)
	}
	return inState
}

// serviceObjects lists what the service holds of the kinds whose IDs the comparison knows.
func serviceObjects(ctx context.Context, c *buildkite.Client) (objectsByType, error) {
	listed := objectsByType{}
	for _, list := range []func(context.Context, *buildkite.Client, objectsByType) error{
		listClusterObjects, listTeamAndPipelineObjects, listSuiteAndRegistryObjects,
		listPortalAndNotificationObjects,
	} {
		if err := list(ctx, c, listed); err != nil {
			return nil, err
		}
	}
	return listed, nil
}

// listClusterObjects lists clusters, and their queues, agent tokens and agent images.
func listClusterObjects(ctx context.Context, c *buildkite.Client, listed objectsByType) error {
	clusters, err := c.Clusters.List(ctx)
	if err != nil {
		return err
	}
	for _, cl := range clusters {
		listed.add("buildkite_cluster", cl.ID)
		queues, err := c.Queues.List(ctx, cl.ID)
		if err != nil {
			return err
		}
		for _, q := range queues {
			listed.add("buildkite_cluster_queue", q.ID)
		}
		tokens, err := c.ClusterTokens.List(ctx, cl.ID)
		if err != nil {
			return err
		}
		for _, t := range tokens {
			listed.add("buildkite_cluster_agent_token", t.ID)
		}
		images, err := c.AgentImages.List(ctx, cl.ID)
		if err != nil {
			return err
		}
		for _, img := range images {
			listed.add("buildkite_hosted_agent_image", img.ID)
		}
	}
	return nil
}

// listTeamAndPipelineObjects lists teams, pipelines, pipeline templates and rules.
func listTeamAndPipelineObjects(ctx context.Context, c *buildkite.Client, listed objectsByType) error {
	teams, err := c.Teams.List(ctx, buildkite.TeamListOptions{})
	if err != nil {
		return err
	}
	for _, t := range teams {
		listed.add("buildkite_team", t.ID)
	}
	pipelines, err := c.Pipelines.List(ctx, nil)
	if err != nil {
		return err
	}
	for _, p := range pipelines {
		listed.add("buildkite_pipeline", p.ID)
	}
	templates, err := c.PipelineTemplates.List(ctx)
	if err != nil {
		return err
	}
	for _, t := range templates {
		listed.add("buildkite_pipeline_template", t.UUID)
	}
	rules, err := c.Rules.List(ctx)
	if err != nil {
		return err
	}
	for _, r := range rules {
		listed.add("buildkite_organization_rule", r.UUID)
	}
	return nil
}

// listSuiteAndRegistryObjects lists test suites, registries and registry tokens.
func listSuiteAndRegistryObjects(ctx context.Context, c *buildkite.Client, listed objectsByType) error {
	suites, err := c.TestSuites.List(ctx)
	if err != nil {
		return err
	}
	for _, s := range suites {
		listed.add("buildkite_test_suite", s.ID)
	}
	registries, err := c.Registries.List(ctx)
	if err != nil {
		return err
	}
	for _, r := range registries {
		listed.add("buildkite_registry", r.ID)
		tokens, err := c.RegistryTokens.List(ctx, r.Slug)
		if err != nil {
			return err
		}
		for _, t := range tokens {
			listed.add("buildkite_registry_token", t.ID)
		}
	}
	return nil
}

// compareObjects fails, naming each kind, where the service and the state do not hold the same IDs. Only
// the kinds serviceObjects lists are compared.
func compareObjects(listed, inState objectsByType) error {
	var problems []string
	for typ := range serviceListed {
		got, want := listed[typ], inState[typ]
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			problems = append(problems, fmt.Sprintf("%s: the service has %d (%v), the state %d (%v)", typ, len(got), got, len(want), want))
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return fmt.Errorf("the service and the state disagree:\n%s", strings.Join(problems, "\n"))
	}
	return nil
}

// serviceListed are the kinds serviceObjects lists.
var serviceListed = map[string]bool{
	"buildkite_cluster": true, "buildkite_cluster_queue": true, "buildkite_cluster_agent_token": true,
	"buildkite_team": true, "buildkite_pipeline": true, "buildkite_pipeline_template": true,
	"buildkite_organization_rule": true, "buildkite_test_suite": true, "buildkite_registry": true,
	"buildkite_registry_token": true,
	"buildkite_portal":         true, "buildkite_notification_service": true,
	"buildkite_hosted_agent_image": true,
}

// checkServiceMatchesState compares, kind by kind, the objects the service lists with those in state.
func (e *testEnv) checkServiceMatchesState(s *terraform.State) error {
	listed, err := serviceObjects(context.Background(), e.client)
	if err != nil {
		return err
	}
	return compareObjects(listed, stateObjects(s))
}

// listPortalAndNotificationObjects lists portals (by UUID: they have no id) and notification services.
func listPortalAndNotificationObjects(ctx context.Context, c *buildkite.Client, listed objectsByType) error {
	portals, err := c.Portals.List(ctx)
	if err != nil {
		return err
	}
	for _, p := range portals {
		listed.add("buildkite_portal", p.UUID)
	}
	services, err := c.NotificationServices.List(ctx)
	if err != nil {
		return err
	}
	for _, s := range services {
		listed.add("buildkite_notification_service", s.ID)
	}
	return nil
}
