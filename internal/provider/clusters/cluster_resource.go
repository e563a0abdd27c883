package clusters

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// clusterIdentity names a cluster for import blocks and terraform query.
var clusterIdentity = kit.IdentifiedBy(kit.IdentityAttr("id", "The cluster's ID (a UUID)."))

// NewClusterResource returns the buildkite_cluster resource.
func NewClusterResource() resource.Resource { return kit.NewObject(clusterKind) }

// clusterKind declares buildkite_cluster: served by REST, but for its agent tracing service, set and read
// through GraphQL only where the configuration sets it; a new cluster refuses enabled hosted settings at plan,
// and an update sends its REST attributes, then its hosted settings, then its tracing service, each step
// recorded before the next.
var clusterKind = &kit.ObjectKind[buildkite.Cluster, clusterModel]{
	Name:     "cluster",
	What:     "cluster",
	Scopes:   kit.WriteScopes("write_clusters"),
	Identity: clusterIdentity,
	Schema:   clusterSchema,
	// The official provider's states, and ours of version 0, move to version 1 as they are.
	Moves:        kit.StateMoves{},
	Key:          kit.AttrID,
	GraphQLAttrs: []string{"agent_tracing_service_uuid"},
	FromAPI:      func(m *clusterModel, _ string, c *buildkite.Cluster) { m.fromAPI(c) },
	Create: func(ctx context.Context, c *buildkite.Client, _ string, plan *clusterModel) (*buildkite.Cluster, error) {
		return c.Clusters.Create(ctx, plan.toCreate())
	},
	Get: func(ctx context.Context, c *buildkite.Client, _, id string) (*buildkite.Cluster, error) {
		return c.Clusters.Get(ctx, id)
	},
	Update: updateCluster,
	Remove: func(ctx context.Context, c *buildkite.Client, _, id string) error {
		return c.Clusters.Delete(ctx, id)
	},
	ImportParts: []kit.ImportPart{kit.UuidPart("<cluster id>", "Cluster")},
	Named:       func(plan *clusterModel) string { return plan.Name.ValueString() },
	ModifyPlan:  clusterModifyPlan,
	WritePart: func(ctx context.Context, c *buildkite.Client, plan, prior, got *clusterModel, diags *diag.Diagnostics) {
		switch {
		case prior != nil:
			got.AgentTracingServiceUUID = prior.AgentTracingServiceUUID
		case kit.IsKnownValue(plan.AgentTracingServiceUUID):
			got.AgentTracingServiceUUID = types.StringValue("") // a new cluster has none
		default:
			got.AgentTracingServiceUUID = types.StringNull()
		}
		writeTracing(ctx, c, plan, got, diags)
	},
	ReadPart: func(ctx context.Context, d *kit.ProviderData, got *clusterModel, diags *diag.Diagnostics) {
		if err := readTracing(ctx, d, got); err != nil {
			// REST has just served the cluster: a GraphQL null or not found for its tracing service is no 404 of it.
			kit.AddPartReadError(diags, "cluster", got.ID.ValueString(), "agent tracing service (agent_tracing_service_uuid)", err)
		}
	},
}

type clusterModel struct {
	ID          types.String `tfsdk:"id"`
	UUID        types.String `tfsdk:"uuid"`
	GraphQLID   types.String `tfsdk:"graphql_id"`
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
	Emoji       types.String `tfsdk:"emoji"`
	Color       types.String `tfsdk:"color"`
	URL         types.String `tfsdk:"url"`
	WebURL      types.String `tfsdk:"web_url"`

	HostedGitMirrorEnabled      types.Bool   `tfsdk:"hosted_git_mirror_enabled"`
	HostedContainerCacheEnabled types.Bool   `tfsdk:"hosted_container_cache_enabled"`
	AgentTracingServiceUUID     types.String `tfsdk:"agent_tracing_service_uuid"`
}

// clusterHostedAttrs are the hosted agents' settings, which Buildkite changes only once the cluster has a
// hosted queue.
var clusterHostedAttrs = []string{"hosted_git_mirror_enabled", "hosted_container_cache_enabled"}

// clusterHostedQueueNeeded says why, and what to do; it ends both the plan-time refusal and the 422's error.
const clusterHostedQueueNeeded = "Buildkite changes a cluster's hosted settings only once it has a hosted queue " +
	"(it answers 422 until then): add a buildkite_cluster_queue with hosted_agents to the cluster, apply, and then " +
	"set the attribute."

// tracingServicePattern is a lower-case UUID, the form the service answers (any other would never read back
// as configured), or "" for no service.
var tracingServicePattern = regexp.MustCompile(`^(|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$`)

func (m *clusterModel) fromAPI(c *buildkite.Cluster) {
	m.ID = types.StringValue(c.ID)
	m.UUID = types.StringValue(c.ID)
	m.GraphQLID = types.StringValue(c.GraphQLID)
	m.Name = types.StringValue(c.Name)
	// A configured "" (a workspace written after importing its cluster has one) stays "": the service shows it
	// as empty, as it shows none.
	m.Description = kit.KeepEmpty(m.Description, &c.Description)
	m.Emoji = kit.KeepEmpty(m.Emoji, &c.Emoji)
	m.Color = kit.KeepEmpty(m.Color, &c.Color)
	m.URL = types.StringValue(c.URL)
	m.WebURL = types.StringValue(c.WebURL)
	// An answer without them (a token that cannot manage the cluster) keeps what was known.
	m.HostedGitMirrorEnabled = boolOrKeep(c.HostedGitMirrorEnabled, m.HostedGitMirrorEnabled)
	m.HostedContainerCacheEnabled = boolOrKeep(c.HostedContainerCacheEnabled, m.HostedContainerCacheEnabled)
	if m.AgentTracingServiceUUID.IsUnknown() {
		m.AgentTracingServiceUUID = types.StringNull() // read only where set or imported (readTracing)
	}
}

// boolOrKeep is the service's value, else prior where known, else null.
func boolOrKeep(v *bool, prior types.Bool) types.Bool {
	switch {
	case v != nil:
		return types.BoolValue(*v)
	case prior.IsUnknown():
		return types.BoolNull()
	}
	return prior
}

// hostedWrite is the change of the hosted settings from prior to m: each that m sets and prior does not hold.
func (m *clusterModel) hostedWrite(prior *clusterModel) buildkite.ClusterHostedSettings {
	var w buildkite.ClusterHostedSettings
	for _, f := range []struct {
		plan, prior types.Bool
		dst         *buildkite.Optional[bool]
	}{
		{m.HostedGitMirrorEnabled, prior.HostedGitMirrorEnabled, &w.HostedGitMirrorEnabled},
		{m.HostedContainerCacheEnabled, prior.HostedContainerCacheEnabled, &w.HostedContainerCacheEnabled},
	} {
		if kit.IsKnownValue(f.plan) && !f.plan.Equal(f.prior) {
			*f.dst = buildkite.Value(f.plan.ValueBool())
		}
	}
	return w
}

// tracingWrite is the selection to send where m's differs from prior's ("" and none are the same): the
// service's UUID, or Cleared for "".
func (m *clusterModel) tracingWrite(prior types.String) (buildkite.Optional[string], bool) {
	v := m.AgentTracingServiceUUID
	if !kit.IsKnownValue(v) || v.ValueString() == prior.ValueString() {
		return buildkite.Optional[string]{}, false
	}
	if v.ValueString() == "" {
		return buildkite.Cleared[string](), true
	}
	return buildkite.Value(v.ValueString()), true
}

func (m *clusterModel) toCreate() buildkite.ClusterCreate {
	return buildkite.ClusterCreate{
		Name:        m.Name.ValueString(),
		Description: kit.StringPtrIfSet(m.Description),
		Emoji:       kit.StringPtrIfSet(m.Emoji),
		Color:       kit.StringPtrIfSet(m.Color),
	}
}

// toUpdate is the change from prior to m of what REST's PUT sets; a removed attribute is sent as "", which
// clears it. Nothing when none changed.
func (m *clusterModel) toUpdate(prior *clusterModel) buildkite.ClusterUpdate {
	if m.Name.Equal(prior.Name) && m.Description.Equal(prior.Description) && m.Emoji.Equal(prior.Emoji) &&
		m.Color.Equal(prior.Color) {
		return buildkite.ClusterUpdate{}
	}
	return buildkite.ClusterUpdate{
		Name:        buildkite.Value(m.Name.ValueString()),
		Description: buildkite.Value(m.Description.ValueString()),
		Emoji:       buildkite.Value(m.Emoji.ValueString()),
		Color:       buildkite.Value(m.Color.ValueString()),
	}
}

// clusterSchema is the schema of buildkite_cluster.
func clusterSchema() schema.Schema {
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A cluster groups queues of agents and the pipelines that run on them. " +
			"Manage its queues with `buildkite_cluster_queue`, its agent tokens with `buildkite_cluster_agent_token` " +
			"and its default queue with `buildkite_cluster_default_queue`. Import it by its ID (or its GraphQL ID).",
		Attributes: kit.WithCommon("cluster", map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: "The cluster's name.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			// No validators beyond the official provider's (none): "" is what an imported cluster's workspace holds.
			"description": schema.StringAttribute{
				MarkdownDescription: "A description of the cluster.",
				Optional:            true,
			},
			"emoji": schema.StringAttribute{
				MarkdownDescription: "An emoji shown with the cluster, in emoji syntax such as `:rocket:`.",
				Optional:            true,
			},
			"color": schema.StringAttribute{
				MarkdownDescription: "A color shown with the cluster, as a hex code such as `#A8D5FF`.",
				Optional:            true,
			},
			// Optional+Computed, as the official provider has them, so that leaving one unset adopts the cluster's.
			"hosted_git_mirror_enabled": schema.BoolAttribute{
				MarkdownDescription: "Whether the cluster's hosted agents keep a git mirror of the repositories they check out. " +
					"Buildkite changes it only once the cluster has a hosted queue (a `buildkite_cluster_queue` with " +
					"`hosted_agents`), so `true` is refused at plan when the cluster is created: enable it in a later apply. " +
					"Left unset, the cluster's setting is kept and read.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			},
			"hosted_container_cache_enabled": schema.BoolAttribute{
				MarkdownDescription: "Whether the cluster's hosted agents cache container images between jobs. " +
					"Buildkite changes it only once the cluster has a hosted queue, so `true` is refused at plan when the " +
					"cluster is created: enable it in a later apply. Buildkite turns it on when the cluster's first hosted " +
					"queue is created, so a configured `false` plans one update after that. Left unset, the cluster's " +
					"setting is kept and read.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			},
			"agent_tracing_service_uuid": schema.StringAttribute{
				MarkdownDescription: "The UUID (lower case) of the OpenTelemetry tracing notification service the cluster's " +
					"agents export traces to: the `id` of a `buildkite_notification_service` with `provider_type = " +
					"\"open_telemetry_tracing\"` that is enabled, covers all pipelines and has no branch filter. `\"\"` clears " +
					"the selection. It only affects agents that register afterwards. Set and read through Buildkite's GraphQL " +
					"API; left unset (and after an import), the cluster's selection is neither changed nor read, so removing " +
					"the attribute does not clear it: set `\"\"`.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
				Validators: []validator.String{stringvalidator.RegexMatches(tracingServicePattern,
					`must be a lower-case UUID (a notification service's id), or "" to clear the selection`)},
			},
		}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL, kit.AttrWebURL),
	}
}

// clusterModifyPlan refuses to enable a hosted setting on a cluster about to be
// created: it has no hosted queue yet, so the service would refuse it after the cluster was made. A value
// known only at apply could be true, so it is refused too.
func clusterModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	for _, a := range clusterHostedAttrs {
		var v types.Bool
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(a), &v)...)
		if v.IsUnknown() || v.ValueBool() {
			resp.Diagnostics.AddAttributeError(path.Root(a), "Hosted Setting Refused on a New Cluster", fmt.Sprintf(
				"buildkite_cluster.%s cannot be true (or a value known only at apply) when the cluster is created: "+
					"a cluster has no hosted queue when it is created. %s Nothing has been created.", a, clusterHostedQueueNeeded))
		}
	}
}

// writeTracing selects plan's tracing service where it differs from got's, and records in got what the
// service answered. A refusal names the attribute, with the service's words and what it takes.
func writeTracing(ctx context.Context, c *buildkite.Client, plan, got *clusterModel, diags *diag.Diagnostics) {
	v, ok := plan.tracingWrite(got.AgentTracingServiceUUID)
	if !ok {
		if kit.IsKnownValue(plan.AgentTracingServiceUUID) {
			got.AgentTracingServiceUUID = plan.AgentTracingServiceUUID // "" where the service holds none
		}
		return
	}
	selected, err := c.Clusters.SetAgentTracingService(ctx, got.GraphQLID.ValueString(), v)
	if kit.ActedWithErrors(diags, err, "set the agent tracing service of", "cluster", got.ID.ValueString()) {
		got.AgentTracingServiceUUID = types.StringValue(selected)
		return
	}
	if err != nil {
		diags.AddAttributeError(path.Root("agent_tracing_service_uuid"), "Unable to Set Cluster Agent Tracing Service",
			fmt.Sprintf("Selecting the agent tracing service %q of cluster %s: %s. It must be the id of a "+
				"buildkite_notification_service with provider_type \"open_telemetry_tracing\" that is enabled, covers all pipelines "+
				"and has no branch filter, in an organization with agent tracing enabled; \"\" clears the selection. "+
				"The rest of the cluster is recorded as applied.", plan.AgentTracingServiceUUID.ValueString(),
				got.ID.ValueString(), kit.DescribeError(err)))
		return
	}
	got.AgentTracingServiceUUID = types.StringValue(selected)
}

// readTracing reads the cluster's tracing service where the state holds one (the configuration set it, "" too)
// and GraphQL can be asked: a configuration that never sets it costs no GraphQL request and needs no GraphQL
// scope. An import reads none either, as a create that leaves it unset, so that both record the same.
func readTracing(ctx context.Context, d *kit.ProviderData, m *clusterModel) error {
	if m.AgentTracingServiceUUID.IsNull() || !d.GraphQLReachable() {
		return nil
	}
	selected, err := d.Client.Clusters.AgentTracingService(ctx, m.GraphQLID.ValueString())
	if err != nil {
		return err
	}
	m.AgentTracingServiceUUID = types.StringValue(selected)
	return nil
}

// updateCluster sends the REST attributes where they changed, then the hosted settings where they changed
// (WritePart then sends the tracing service). A refused hosted change records the REST step before it;
// nothing sent answers nil.
func updateCluster(ctx context.Context, c *buildkite.Client, _, id string, plan, state *clusterModel) (*buildkite.Cluster, error) {
	var got *buildkite.Cluster
	if u := plan.toUpdate(state); !u.IsZero() {
		var err error
		if got, err = c.Clusters.Update(ctx, id, u); err != nil {
			return nil, err
		}
	}
	if w := plan.hostedWrite(state); !w.IsZero() {
		h, err := c.Clusters.SetHostedSettings(ctx, id, w)
		if err != nil {
			plan.HostedGitMirrorEnabled, plan.HostedContainerCacheEnabled = state.HostedGitMirrorEnabled, state.HostedContainerCacheEnabled
			plan.AgentTracingServiceUUID = state.AgentTracingServiceUUID
			return got, hostedSettingsError(id, err)
		}
		got = h
	}
	return got, nil
}

// hostedSettingsError reports a refused change of the hosted settings: the service's words, and for its
// 422 why and what to do.
func hostedSettingsError(id string, err error) error {
	detail := fmt.Sprintf("Updating the hosted settings (%s) of cluster %s: %s.", strings.Join(clusterHostedAttrs, ", "), id,
		kit.DescribeError(err))
	if buildkite.IsValidation(err) {
		detail += " " + clusterHostedQueueNeeded
	}
	return &kit.DiagnosedError{Summary: "Unable to Update Cluster Hosted Settings", Detail: detail + " The cluster's other changes are recorded as applied."}
}
