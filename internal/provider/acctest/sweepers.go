package acctest

import (
	"context"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// sweeperTable is every type's sweeper: how `make sweep` finds and removes the type's objects a live run
// left. It is the harness's, not the types' test files', so that every test binary holds every sweeper:
// terraform-plugin-testing resolves a sweeper's dependencies (after) inside one binary, and the sweepers'
// tests seed and sweep every type.
var sweeperTable = []Sweeper{
	// Unclustered agent tokens (GraphQL; no REST collection): their name is their description, and removing
	// one revokes it (the service keeps revoked tokens, which the listing leaves out).
	{ResourceType: "buildkite_agent_token", Collection: "graphql:agentTokens", After: nil, List: ListAgentTokens},
	{ResourceType: "buildkite_cluster", Collection: "clusters", After: []string{"buildkite_pipeline", "buildkite_notification_service", "buildkite_cluster_cache_registry",
		"buildkite_hosted_agent_image"}, List: ListClusters},
	// Cache registries live in clusters, which take theirs along; these are the tests' in other clusters.
	{ResourceType: "buildkite_cluster_cache_registry", Collection: "cache-registries", After: nil, List: ListCacheRegistries},
	// Agent images live in clusters, which take theirs along; these are the tests' in other clusters (only
	// hosted clusters have any).
	{ResourceType: "buildkite_hosted_agent_image", Collection: "agent-images", After: nil, List: listAgentImages},
	// Notification services name the pipelines, teams or clusters they are scoped to by UUID: they go
	// before those. Their name is their description.
	{ResourceType: "buildkite_notification_service", Collection: "services", After: nil, List: ListNotificationServices},
	// Rules name pipelines by UUID and have no name: theirs are the names of those pipelines. They go first.
	{ResourceType: "buildkite_organization_rule", Collection: "rules", After: nil, List: ListRules},
	{ResourceType: "buildkite_pipeline", Collection: "pipelines", After: []string{"buildkite_organization_rule", "buildkite_notification_service"}, List: ListPipelines},
	{ResourceType: "buildkite_pipeline_template", Collection: "pipeline-templates", After: []string{"buildkite_pipeline"}, List: ListTemplates},
	// Portals are found by name, and deleted by slug.
	{ResourceType: "buildkite_portal", Collection: "portals", After: nil, List: ListPortals},
	{ResourceType: "buildkite_registry", Collection: "registries", After: nil, List: ListRegistries},
	// Teams own suites, maintain clusters and have access to pipelines and registries: they go last.
	{ResourceType: "buildkite_team", Collection: "teams", After: []string{"buildkite_pipeline", "buildkite_cluster", "buildkite_test_suite", "buildkite_registry",
		"buildkite_notification_service"}, List: ListTeams},
	{ResourceType: "buildkite_test_suite", Collection: "suites", After: nil, List: ListSuites},
}

// SweeperRows are the sweepers of a resource type: one, or none when it has none.
func SweeperRows(resourceType string) []Sweeper {
	var out []Sweeper
	for _, s := range sweeperTable {
		if s.ResourceType == resourceType {
			out = append(out, s)
		}
	}
	return out
}

// listAgentImages lists the agent images of every cluster.
func listAgentImages(ctx context.Context, c *buildkite.Client) ([]Sweepable, error) {
	clusters, err := c.Clusters.List(ctx)
	if err != nil {
		return nil, err
	}
	var out []Sweepable
	for _, cl := range clusters {
		all, err := c.AgentImages.List(ctx, cl.ID)
		if err != nil {
			return nil, err
		}
		for _, img := range all {
			out = append(out, Sweepable{ID: img.ID, Names: []string{img.Name}, Del: func(ctx context.Context) error {
				return c.AgentImages.Delete(ctx, cl.ID, img.ID)
			}})
		}
	}
	return out, nil
}
