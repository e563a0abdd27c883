package acctest

import (
	"context"
	"net/http"
	"strings"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// The resource types' test kinds (RegisterTestKind), for every test binary: a test of one area destroys
// and checks objects of another area's types (a test of the pipeline_slug function destroys its pipeline).

func init() {
	RegisterTestKind("buildkite_agent_token", TestKind{
		Fake:     fakeserver.KindUnclusteredAgentToken,
		StoreKey: ByID,
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			t, err := c.AgentTokens.Get(ctx, a["id"])
			if err == nil && t.Revoked() {
				return &buildkite.Error{StatusCode: http.StatusNotFound, Message: "revoked"}
			}
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.AgentTokens.Revoke(ctx, kit.GraphQLID("AgentToken", a["id"]), buildkite.AgentTokenRevokeReason)
		},
	})
}

func init() {
	RegisterTestKind("buildkite_cluster_agent_token", TestKind{
		Fake:     fakeserver.KindClusterToken,
		StoreKey: ByParent("cluster_id"),
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.ClusterTokens.Get(ctx, a["cluster_uuid"], a["id"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.ClusterTokens.Delete(ctx, a["cluster_uuid"], a["id"])
		},
	})
}

func init() {
	RegisterTestKind("buildkite_cluster_cache_registry", TestKind{
		Fake:     fakeserver.KindCacheRegistry,
		StoreKey: ByParent("cluster_id"),
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.CacheRegistries.Get(ctx, kit.CanonicalID(a["cluster_id"]), a["id"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.CacheRegistries.Delete(ctx, kit.CanonicalID(a["cluster_id"]), a["id"])
		},
	})
}

func init() {
	RegisterTestKind("buildkite_cluster_maintainer", TestKind{
		Fake:     fakeserver.KindClusterMaintainer,
		StoreKey: ByParent("cluster_uuid"),
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.ClusterMaintainers.Get(ctx, a["cluster_uuid"], a["id"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.ClusterMaintainers.Delete(ctx, a["cluster_uuid"], a["id"])
		},
	})
}

func init() {
	RegisterTestKind("buildkite_cluster_queue", TestKind{
		Fake:     fakeserver.KindQueue,
		StoreKey: ByParent("cluster_id"),
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.Queues.Get(ctx, a["cluster_uuid"], a["id"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.Queues.Delete(ctx, a["cluster_uuid"], a["id"])
		},
	})
}

func init() {
	RegisterTestKind("buildkite_cluster", TestKind{
		Fake:     fakeserver.KindCluster,
		StoreKey: ByID,
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.Clusters.Get(ctx, a["id"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.Clusters.Delete(ctx, a["id"])
		},
	})
}

func init() {
	RegisterTestKind("buildkite_cluster_secret", TestKind{
		Fake:     fakeserver.KindClusterSecret,
		StoreKey: ByParent("cluster_id"),
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.ClusterSecrets.Get(ctx, a["cluster_id"], a["id"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.ClusterSecrets.Delete(ctx, a["cluster_id"], a["id"])
		},
	})
}

func init() {
	RegisterTestKind("buildkite_hosted_agent_image", TestKind{
		Fake:     fakeserver.KindAgentImage,
		StoreKey: ByParent("cluster_id"),
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.AgentImages.Poll(ctx, a["cluster_id"], a["id"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.AgentImages.Delete(ctx, a["cluster_id"], a["id"])
		},
	})
}

func init() {
	RegisterTestKind("buildkite_notification_service", TestKind{
		Fake:     fakeserver.KindNotificationService,
		StoreKey: ByID,
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.NotificationServices.Get(ctx, a["id"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.NotificationServices.Delete(ctx, a["id"])
		},
	})
}

func init() {
	RegisterTestKind("buildkite_organization_banner", TestKind{
		Fake:     fakeserver.KindOrganizationBanner,
		StoreKey: ByID,
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			b, err := c.OrgSettings.GetBanner(ctx)
			if err == nil && !strings.EqualFold(b.UUID, a["id"]) {
				return &buildkite.Error{StatusCode: 404, Message: "another banner"}
			}
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, _ map[string]string) error {
			return c.OrgSettings.DeleteBanner(ctx)
		},
	})
}

func init() {
	RegisterTestKind("buildkite_organization_rule", TestKind{
		Fake:     fakeserver.KindRule,
		StoreKey: ByID,
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.Rules.Get(ctx, a["id"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.Rules.Delete(ctx, a["id"])
		},
	})
}

func init() {
	RegisterTestKind("buildkite_pipeline", TestKind{
		Fake:     fakeserver.KindPipeline,
		StoreKey: ByID,
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.Pipelines.Find(ctx, a["id"], a["slug"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			p, err := c.Pipelines.Find(ctx, a["id"], a["slug"])
			if err != nil {
				return err
			}
			return c.Pipelines.Delete(ctx, p.Slug)
		},
	})
}

func init() {
	RegisterTestKind("buildkite_pipeline_schedule", TestKind{
		Fake:     fakeserver.KindPipelineSchedule,
		StoreKey: ByParent("pipeline_id"),
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			p, err := kit.FindPipeline(ctx, c, a["pipeline_id"])
			if err == nil {
				_, err = c.PipelineSchedules.Get(ctx, p.Slug, a["id"])
			}
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			p, err := kit.FindPipeline(ctx, c, a["pipeline_id"])
			if err == nil {
				err = c.PipelineSchedules.Delete(ctx, p.Slug, a["id"])
			}
			return err
		},
	})
}

func init() {
	RegisterTestKind("buildkite_pipeline_team", TestKind{
		Fake: fakeserver.KindTeamPipeline, StoreKey: ByID, // "<team id>/<pipeline id>"
		Get: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			_, err := c.TeamPipelines.Get(ctx, attrs["team_id"], attrs["pipeline_id"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			return c.TeamPipelines.Delete(ctx, attrs["team_id"], attrs["pipeline_id"])
		},
	})
}

func init() {
	RegisterTestKind("buildkite_pipeline_template", TestKind{
		Fake:     fakeserver.KindPipelineTemplate,
		StoreKey: ByID,
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.PipelineTemplates.Get(ctx, a["id"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.PipelineTemplates.Delete(ctx, a["id"])
		},
	})
}

func init() {
	RegisterTestKind("buildkite_portal", TestKind{
		Fake:     fakeserver.KindPortal,
		StoreKey: func(a map[string]string) string { return a["uuid"] },
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.Portals.Get(ctx, a["slug"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.Portals.Delete(ctx, a["slug"])
		},
	})
}

func init() {
	RegisterTestKind("buildkite_registry", TestKind{
		Fake:     fakeserver.KindRegistry,
		StoreKey: ByID,
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.Registries.GetByID(ctx, a["id"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.Registries.Delete(ctx, a["slug"])
		},
	})
}

func init() {
	RegisterTestKind("buildkite_registry_token", TestKind{
		Fake:     fakeserver.KindRegistryToken,
		StoreKey: ByParent("registry_id"),
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			reg, err := c.Registries.GetByID(ctx, a["registry_id"])
			if err == nil {
				_, err = c.RegistryTokens.Get(ctx, reg.Slug, a["id"])
			}
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			reg, err := c.Registries.GetByID(ctx, a["registry_id"])
			if err == nil {
				err = c.RegistryTokens.Delete(ctx, reg.Slug, a["id"])
			}
			return err
		},
	})
}

func init() {
	RegisterTestKind("buildkite_team_member", TestKind{
		Fake: fakeserver.KindTeamMember, StoreKey: ByID, // the ID is "<team id>/<user id>", the emulator's key
		Get: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			_, err := c.TeamMembers.Get(ctx, attrs["team_id"], attrs["user_id"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			return c.TeamMembers.Delete(ctx, attrs["team_id"], attrs["user_id"])
		},
	})
}

func init() {
	RegisterTestKind("buildkite_team_registry", TestKind{
		Fake: fakeserver.KindTeamRegistry, StoreKey: ByID, // "<team id>/<registry id>"
		Get: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			_, err := c.TeamRegistries.Get(ctx, attrs["team_id"], attrs["registry_id"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			g, err := c.TeamRegistries.Get(ctx, attrs["team_id"], attrs["registry_id"])
			if err != nil {
				return err
			}
			return c.TeamRegistries.Delete(ctx, g.ID)
		},
	})
}

func init() {
	RegisterTestKind("buildkite_team", TestKind{
		Fake: fakeserver.KindTeam, StoreKey: ByID,
		Get: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			_, err := c.Teams.Get(ctx, attrs["id"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			return c.Teams.Delete(ctx, attrs["id"])
		},
	})
}

func init() {
	RegisterTestKind("buildkite_test_suite", TestKind{
		Fake:     fakeserver.KindSuite,
		StoreKey: ByID,
		Get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.TestSuites.GetByID(ctx, a["id"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.TestSuites.Delete(ctx, a["slug"])
		},
	})
}

func init() {
	RegisterTestKind("buildkite_test_suite_team", TestKind{
		Fake: fakeserver.KindTeamSuite, StoreKey: ByID, // "<team id>/<suite id>"
		Get: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			_, err := c.TeamSuites.Get(ctx, attrs["team_id"], attrs["test_suite_id"])
			return err
		},
		Del: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			return c.TeamSuites.Delete(ctx, attrs["team_id"], attrs["test_suite_id"])
		},
	})
}
