package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// The list resources of clusters and of what belongs to them. The three nested kinds share one filter,
// cluster_id, and one way to find their clusters: the organization's cluster listing, which also gives each
// result a display name that starts with its cluster's name.

var (
	_ list.ListResourceWithConfigure = (*clusterListResource)(nil)
	_ list.ListResourceWithConfigure = (*clusterChildList[buildkite.Queue])(nil)
)

// NewClusterListResource returns the buildkite_cluster list resource.
func NewClusterListResource() list.ListResource {
	return &clusterListResource{listBase: newListBase("cluster", clusterIdentity)}
}

type clusterListResource struct {
	listBase
}

type clusterListFilter struct {
	Name types.String `tfsdk:"name"`
}

func (l *clusterListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Finds the organization's clusters, shown by name.",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: "Only the cluster with this name (compared without regard to case). Unset, every cluster.",
				Optional:            true,
				Validators:          []validator.String{notBlank()},
			},
		},
	}
}

func (l *clusterListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var filter clusterListFilter
	if diags := req.Config.Get(ctx, &filter); diags.HasError() {
		listFailed(stream, diags)
		return
	}
	callCtx, cancel := l.timeout(ctx, opRead)
	defer cancel()
	clusters, err := l.client().Clusters.List(callCtx)
	if err != nil {
		var diags diag.Diagnostics
		addAPIError(&diags, "list", "clusters", "", err)
		listFailed(stream, diags)
		return
	}
	var items []found
	for i := range clusters {
		c := &clusters[i]
		if !filter.Name.IsNull() && !strings.EqualFold(c.Name, filter.Name.ValueString()) {
			continue
		}
		var m clusterModel
		m.fromAPI(c)
		items = append(items, found{model: &m, displayName: c.Name})
	}
	stream.Results = l.results(ctx, req, items)
}

// clusterChildList is the list resource of a kind that belongs to clusters, filtered by cluster_id.
type clusterChildList[T any] struct {
	listBase
	what string // "cluster queues"
	// description completes "Finds …" in the schema's description.
	description string
	// listIn lists the objects of one cluster; found makes one into a result.
	listIn func(ctx context.Context, client *buildkite.Client, c *buildkite.Cluster) ([]T, error)
	found  func(c *buildkite.Cluster, item *T) found
}

// clusterChildFilter filters the objects that belong to clusters by their cluster.
type clusterChildFilter struct {
	ClusterID types.String `tfsdk:"cluster_id"`
}

func (l *clusterChildList[T]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: fmt.Sprintf("Finds %s, shown as `<cluster name> / …`.", l.description),
		Attributes: map[string]schema.Attribute{
			"cluster_id": schema.StringAttribute{
				MarkdownDescription: "Only those of the cluster with this ID. Unset, those of every cluster.",
				Optional:            true,
				Validators:          []validator.String{uuidValidator()},
			},
		},
	}
}

// List lists the clusters the filter selects, then what belongs to each.
func (l *clusterChildList[T]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var filter clusterChildFilter
	if diags := req.Config.Get(ctx, &filter); diags.HasError() {
		listFailed(stream, diags)
		return
	}
	callCtx, cancel := l.timeout(ctx, opRead)
	defer cancel()
	var diags diag.Diagnostics
	clusters := l.clusters(callCtx, filter, &diags)
	if diags.HasError() {
		listFailed(stream, diags)
		return
	}
	var items []found
	for i := range clusters {
		c := &clusters[i]
		children, err := l.listIn(callCtx, l.client(), c)
		if err != nil {
			addAPIError(&diags, "list", l.what, fmt.Sprintf("of cluster %q (%s)", c.Name, c.ID), err)
			listFailed(stream, diags)
			return
		}
		for j := range children {
			items = append(items, l.found(c, &children[j]))
		}
	}
	stream.Results = l.results(ctx, req, items)
}

// clusters lists the organization's clusters, or the one the filter names.
func (b *listBase) clusters(ctx context.Context, filter clusterChildFilter, diags *diag.Diagnostics) []buildkite.Cluster {
	all, err := b.client().Clusters.List(ctx)
	if err != nil {
		addAPIError(diags, "list", "clusters", "", err)
		return nil
	}
	if filter.ClusterID.IsNull() {
		return all
	}
	id := filter.ClusterID.ValueString()
	c := pickOne(diags, "cluster", fmt.Sprintf("the ID %q", id), all, func(c *buildkite.Cluster) bool { return c.ID == id })
	if c == nil {
		return nil
	}
	return []buildkite.Cluster{*c}
}

// NewClusterQueueListResource returns the buildkite_cluster_queue list resource.
func NewClusterQueueListResource() list.ListResource {
	return &clusterChildList[buildkite.Queue]{
		listBase:    newListBase("cluster_queue", clusterQueueIdentity),
		what:        "cluster queues",
		description: "the queues of clusters",
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
	return &clusterChildList[buildkite.ClusterToken]{
		listBase:    newListBase("cluster_agent_token", clusterAgentTokenIdentity),
		what:        "cluster agent tokens",
		description: "the agent tokens of clusters (without their secrets, which the service returns only on creation)",
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
	return &clusterChildList[buildkite.Cluster]{
		listBase:    newListBase("cluster_default_queue", clusterDefaultQueueIdentity),
		what:        "clusters",
		description: "the default queues of clusters (a cluster without one has no result)",
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
