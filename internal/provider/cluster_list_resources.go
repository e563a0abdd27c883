package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// The list resources of clusters and of what belongs to them. The three nested kinds share one filter,
// cluster_id, and one way to find their clusters: the organization's cluster listing, which also gives each
// result a display name that starts with its cluster's name.

// NewClusterListResource returns the buildkite_cluster list resource.
func NewClusterListResource() list.ListResource {
	return &namedList[buildkite.Cluster]{
		listBase:    newListBase("cluster", clusterIdentity),
		what:        "clusters",
		description: "Finds the organization's clusters, shown by name.",
		nameFilter:  nameFilterDescription("cluster"),
		list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Cluster, error) {
			return c.Clusters.List(ctx)
		},
		name: func(c *buildkite.Cluster) string { return c.Name },
		model: func(c *buildkite.Cluster) any {
			var m clusterModel
			m.fromAPI(c)
			return &m
		},
	}
}

// clusterParents are the parents of the nested kinds: found in the cluster listing, picked by exact ID.
var clusterParents = &parentKind[buildkite.Cluster]{
	one:               "cluster",
	many:              "clusters",
	filter:            "cluster_id",
	filterDescription: "Only those of the cluster with this ID. Unset, those of every cluster.",
	list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Cluster, error) {
		return c.Clusters.List(ctx)
	},
	hasID: func(c *buildkite.Cluster, id string) bool { return c.ID == id },
	name:  func(c *buildkite.Cluster) string { return c.Name },
	ref:   func(c *buildkite.Cluster) string { return c.ID },
}

// NewClusterQueueListResource returns the buildkite_cluster_queue list resource.
func NewClusterQueueListResource() list.ListResource {
	return &childList[buildkite.Cluster, buildkite.Queue]{
		listBase:    newListBase("cluster_queue", clusterQueueIdentity),
		parents:     clusterParents,
		what:        "cluster queues",
		description: "Finds the queues of clusters, shown as `<cluster name> / …`.",
		listIn: func(ctx context.Context, client *buildkite.Client, c *buildkite.Cluster) ([]buildkite.Queue, error) {
			return client.Queues.List(ctx, c.ID)
		},
		found: func(c *buildkite.Cluster, q *buildkite.Queue) found {
			var m clusterQueueModel
			m.fromAPI(c.ID, q)
			return found{model: &m, displayName: c.Name + " / " + q.Key}
		},
	}
}

// NewClusterAgentTokenListResource returns the buildkite_cluster_agent_token list resource.
func NewClusterAgentTokenListResource() list.ListResource {
	return &childList[buildkite.Cluster, buildkite.ClusterToken]{
		listBase: newListBase("cluster_agent_token", clusterAgentTokenIdentity),
		parents:  clusterParents,
		what:     "cluster agent tokens",
		description: "Finds the agent tokens of clusters (without their secrets, which the service returns only " +
			"on creation), shown as `<cluster name> / …`.",
		listIn: func(ctx context.Context, client *buildkite.Client, c *buildkite.Cluster) ([]buildkite.ClusterToken, error) {
			return client.ClusterTokens.List(ctx, c.ID)
		},
		found: func(c *buildkite.Cluster, t *buildkite.ClusterToken) found {
			var m clusterAgentTokenModel
			m.fromAPI(c.ID, t)
			return found{model: &m, displayName: c.Name + " / " + t.Description}
		},
	}
}

// NewClusterDefaultQueueListResource returns the buildkite_cluster_default_queue list resource. It answers
// from the cluster listing alone: each cluster names its default queue.
func NewClusterDefaultQueueListResource() list.ListResource {
	return &childList[buildkite.Cluster, buildkite.Cluster]{
		listBase:    newListBase("cluster_default_queue", clusterDefaultQueueIdentity),
		parents:     clusterParents,
		what:        "clusters",
		description: "Finds the default queues of clusters (a cluster without one has no result), shown as `<cluster name> / …`.",
		listIn: func(_ context.Context, _ *buildkite.Client, c *buildkite.Cluster) ([]buildkite.Cluster, error) {
			if deref(c.DefaultQueueID) == "" {
				return nil, nil
			}
			return []buildkite.Cluster{*c}, nil
		},
		found: func(c *buildkite.Cluster, _ *buildkite.Cluster) found {
			var m clusterDefaultQueueModel
			m.fromAPI(c)
			return found{model: &m, displayName: c.Name + " / default queue"}
		},
	}
}

// NewClusterSecretListResource returns the buildkite_cluster_secret list resource.
func NewClusterSecretListResource() list.ListResource {
	return &childList[buildkite.Cluster, buildkite.ClusterSecret]{
		listBase: newListBase("cluster_secret", clusterSecretIdentity),
		parents:  clusterParents,
		what:     "cluster secrets",
		description: "Finds the secrets of clusters (without their values, which the service never shows), shown " +
			"as `<cluster name> / <key>`.",
		listIn: func(ctx context.Context, client *buildkite.Client, c *buildkite.Cluster) ([]buildkite.ClusterSecret, error) {
			return client.ClusterSecrets.List(ctx, c.ID)
		},
		found: func(c *buildkite.Cluster, s *buildkite.ClusterSecret) found {
			m := clusterSecretModel{Value: types.StringNull(), ValueWOVersion: types.StringNull()}
			m.fromAPI(c.ID, s)
			return found{model: &m, displayName: c.Name + " / " + s.Key}
		},
	}
}

// maintainerParents are clusterParents with the filter named as the maintainer's attribute, cluster_uuid.
var maintainerParents = func() *parentKind[buildkite.Cluster] {
	p := *clusterParents
	p.filter = "cluster_uuid"
	return &p
}()

// NewClusterMaintainerListResource returns the buildkite_cluster_maintainer list resource.
func NewClusterMaintainerListResource() list.ListResource {
	return &childList[buildkite.Cluster, buildkite.ClusterMaintainer]{
		listBase:    newListBase("cluster_maintainer", clusterMaintainerIdentity),
		parents:     maintainerParents,
		what:        "cluster maintainers",
		description: "Finds the maintainers of clusters, shown as `<cluster name> / <user or team name>`.",
		listIn: func(ctx context.Context, client *buildkite.Client, c *buildkite.Cluster) ([]buildkite.ClusterMaintainer, error) {
			return client.ClusterMaintainers.List(ctx, c.ID)
		},
		found: func(c *buildkite.Cluster, cm *buildkite.ClusterMaintainer) found {
			var m clusterMaintainerModel
			m.fromAPI(c.ID, cm)
			return found{model: &m, displayName: c.Name + " / " + displayOr(deref(cm.Actor.Name), cm.Actor.ID)}
		},
	}
}
