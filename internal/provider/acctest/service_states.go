package acctest

import (
	"context"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// serviceStates list, for each type the comparison knows, the IDs of the type's objects the service holds,
// as its state records them (id, or uuid where it has none): the types compared with the state after faults
// (CheckServiceMatchesState). It is the harness's, not the types' test files', so that every test binary
// compares every type: a test of one area (the provider's faults and interrupts, another area's lost
// create) leaves objects of many.
var serviceStates = map[string]func(ctx context.Context, c *buildkite.Client) ([]string, error){
	"buildkite_cluster": func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		all, err := c.Clusters.List(ctx)
		return ServiceIDs(all, err, func(cl buildkite.Cluster) string { return cl.ID })
	},
	"buildkite_cluster_agent_token": func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		clusters, err := c.Clusters.List(ctx)
		return ChildIDs(clusters, err, func(cl buildkite.Cluster) ([]buildkite.ClusterToken, error) { return c.ClusterTokens.List(ctx, cl.ID) },
			func(t buildkite.ClusterToken) string { return t.ID })
	},
	"buildkite_cluster_queue": func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		clusters, err := c.Clusters.List(ctx)
		return ChildIDs(clusters, err, func(cl buildkite.Cluster) ([]buildkite.Queue, error) { return c.Queues.List(ctx, cl.ID) },
			func(q buildkite.Queue) string { return q.ID })
	},
	"buildkite_hosted_agent_image": func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		clusters, err := c.Clusters.List(ctx)
		return ChildIDs(clusters, err, func(cl buildkite.Cluster) ([]buildkite.AgentImage, error) { return c.AgentImages.List(ctx, cl.ID) },
			func(img buildkite.AgentImage) string { return img.ID })
	},
	"buildkite_notification_service": func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		all, err := c.NotificationServices.List(ctx)
		return ServiceIDs(all, err, func(s buildkite.NotificationService) string { return s.ID })
	},
	"buildkite_organization_rule": func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		all, err := c.Rules.List(ctx)
		return ServiceIDs(all, err, func(r buildkite.Rule) string { return r.UUID })
	},
	"buildkite_pipeline": func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		all, err := c.Pipelines.List(ctx, nil)
		return ServiceIDs(all, err, func(p buildkite.Pipeline) string { return p.ID })
	},
	"buildkite_pipeline_template": func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		all, err := c.PipelineTemplates.List(ctx)
		return ServiceIDs(all, err, func(t buildkite.PipelineTemplate) string { return t.UUID })
	},
	"buildkite_portal": func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		all, err := c.Portals.List(ctx)
		return ServiceIDs(all, err, func(p buildkite.Portal) string { return p.UUID }) // by UUID: a portal has no id
	},
	"buildkite_registry": func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		all, err := c.Registries.List(ctx)
		return ServiceIDs(all, err, func(r buildkite.Registry) string { return r.ID })
	},
	"buildkite_registry_token": func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		registries, err := c.Registries.List(ctx)
		return ChildIDs(registries, err, func(r buildkite.Registry) ([]buildkite.RegistryToken, error) {
			return c.RegistryTokens.List(ctx, r.Slug)
		},
			func(t buildkite.RegistryToken) string { return t.ID })
	},
	"buildkite_team": func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		all, err := c.Teams.List(ctx, buildkite.TeamListOptions{})
		return ServiceIDs(all, err, func(t buildkite.Team) string { return t.ID })
	},
	"buildkite_test_suite": func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		all, err := c.TestSuites.List(ctx)
		return ServiceIDs(all, err, func(s buildkite.TestSuite) string { return s.ID })
	},
}
