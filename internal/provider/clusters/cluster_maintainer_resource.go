package clusters

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// clusterMaintainerIdentity names a maintainer assignment by its cluster and its own ID, for import blocks
// and terraform query.
var clusterMaintainerIdentity = kit.IdentifiedBy(
	kit.IdentityAttr("cluster_uuid", "The UUID of the cluster."),
	kit.IdentityAttr("id", "The assignment's ID (a UUID)."),
)

// NewClusterMaintainerResource returns the buildkite_cluster_maintainer resource.
func NewClusterMaintainerResource() resource.Resource {
	return kit.NewAssociation(clusterMaintainerKind)
}

// clusterMaintainerModel has the official provider's attributes (its schema version 1), and uuid.
type clusterMaintainerModel struct {
	ID          types.String `tfsdk:"id"`
	UUID        types.String `tfsdk:"uuid"`
	ClusterUUID kit.RefValue `tfsdk:"cluster_uuid"`
	UserUUID    types.String `tfsdk:"user_uuid"`
	TeamUUID    types.String `tfsdk:"team_uuid"`
	ActorUUID   types.String `tfsdk:"actor_uuid"`
	ActorType   types.String `tfsdk:"actor_type"`
	ActorName   types.String `tfsdk:"actor_name"`
	ActorEmail  types.String `tfsdk:"actor_email"`
	ActorSlug   types.String `tfsdk:"actor_slug"`
}

// fromAPI copies the assignment; the actor's UUID goes to user_uuid or team_uuid by its type, as the
// official provider stores it.
func (m *clusterMaintainerModel) fromAPI(clusterID string, cm *buildkite.ClusterMaintainer) {
	m.ID = types.StringValue(cm.ID)
	m.UUID = m.ID
	m.ClusterUUID = kit.NewRef(clusterID)
	m.ActorUUID = types.StringValue(cm.Actor.ID)
	m.ActorType = types.StringValue(cm.Actor.Type)
	m.ActorName = kit.OptionalStringPtr(cm.Actor.Name)
	m.ActorEmail = kit.OptionalStringPtr(cm.Actor.Email)
	m.ActorSlug = kit.OptionalStringPtr(cm.Actor.Slug)
	m.UserUUID, m.TeamUUID = types.StringNull(), types.StringNull()
	if cm.Actor.Type == buildkite.ActorTeam {
		m.TeamUUID = m.ActorUUID
	} else {
		m.UserUUID = m.ActorUUID
	}
}

// clusterMaintainerKind declares buildkite_cluster_maintainer: a user's or team's permission to manage a
// cluster, an assignment with an ID of its own that the service cannot change, so every change replaces it.
var clusterMaintainerKind = &kit.AssociationKind[buildkite.ClusterMaintainer, clusterMaintainerModel]{
	Name:     "cluster_maintainer",
	What:     "cluster maintainer",
	Scopes:   kit.WriteScopes("write_clusters"),
	Identity: clusterMaintainerIdentity,
	Schema:   clusterMaintainerSchema,
	Parent:   "cluster_uuid",
	Moves:    kit.StateMoves{Refs: []string{"cluster_uuid", "user_uuid", "team_uuid"}, Official: maintainerFromV0},
	Key:      kit.AttrID,
	FromAPI:  (*clusterMaintainerModel).fromAPI,
	Create: func(ctx context.Context, c *buildkite.Client, clusterID string, plan *clusterMaintainerModel) (*buildkite.ClusterMaintainer, error) {
		return c.ClusterMaintainers.Create(ctx, clusterID, buildkite.ClusterMaintainerCreate{
			UserID: plan.UserUUID.ValueString(), TeamID: plan.TeamUUID.ValueString(),
		})
	},
	Get: func(ctx context.Context, c *buildkite.Client, clusterID, id string) (*buildkite.ClusterMaintainer, error) {
		return c.ClusterMaintainers.Get(ctx, clusterID, id)
	},
	Remove: func(ctx context.Context, c *buildkite.Client, clusterID, id string) error {
		return c.ClusterMaintainers.Delete(ctx, clusterID, id)
	},
	ImportParts: []kit.ImportPart{kit.UuidPart("<cluster id>", "Cluster"), kit.UuidPart("<maintainer id>")},
	// The maintainer ID alone, as the state's id holds it, imports too: its cluster is found.
	Parents: func(ctx context.Context, c *buildkite.Client) ([]string, error) { return kit.ClusterIDs(c)(ctx) },
	Resolve: func(ctx context.Context, c *buildkite.Client, parts []string) (string, string, error) {
		_, err := c.ClusterMaintainers.Get(ctx, parts[0], parts[1])
		return parts[0], parts[1], err
	},
}

// maintainerFromV0 renames the attributes of the official provider's version 0 (cluster_id, user_id,
// team_id, actor_id, which held the same UUIDs) to those of its version 1 and ours.
func maintainerFromV0(version int64, a kit.StateAttrs) error {
	if version != 0 {
		return nil
	}
	for _, side := range []string{"cluster", "user", "team", "actor"} {
		if v, ok := a[side+"_id"]; ok {
			a[side+"_uuid"] = v
			delete(a, side+"_id")
		}
	}
	return nil
}

// actorAttribute is user_uuid or team_uuid: optional, a UUID, replacing the assignment when it changes.
func actorAttribute(description string, validators ...validator.String) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: description + " Exactly one of `user_uuid` and `team_uuid` is set; changing either replaces the resource.",
		Optional:            true,
		Validators:          append([]validator.String{kit.UuidValidator()}, validators...),
		PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
	}
}

func clusterMaintainerSchema() schema.Schema {
	return schema.Schema{
		// Above the official provider's 1, so that its states are upgraded (kit/upgrade.go): at its version 1 they
		// have these attributes with the same meaning (id the assignment's REST ID), at 0 other names.
		Version: 2,
		MarkdownDescription: "A user or team that may manage a cluster (its queues, agent tokens, secrets and " +
			"settings). The service cannot change an assignment, so changing the cluster, the user or the team " +
			"replaces it. Import as `<cluster id>/<maintainer id>`; the maintainer ID is the assignment's `id`, " +
			"which the cluster data sources show as `permission_uuid`.",
		Attributes: map[string]schema.Attribute{
			kit.AttrID:     kit.ComputedString("The assignment's ID (a UUID), the official provider's permission ID."),
			kit.AttrUUID:   kit.ComputedString("Equal to `id`."),
			"cluster_uuid": kit.ParentIDAttribute("The UUID of the cluster.", "Cluster"),
			"user_uuid": actorAttribute("The UUID of the user to make a maintainer (the `id` of a `buildkite_organization_member`).",
				oneActorValidator{}),
			"team_uuid":   actorAttribute("The UUID of the team to make a maintainer."),
			"actor_uuid":  kit.ComputedString("The UUID of the user or team."),
			"actor_type":  kit.ComputedString("`user` or `team`."),
			"actor_name":  kit.ComputedString("The user's or team's name."),
			"actor_email": kit.ComputedString("The user's e-mail address; null for a team."),
			"actor_slug":  kit.ComputedString("The team's slug; null for a user."),
		},
	}
}

// oneActorValidator checks at plan time that exactly one of user_uuid and team_uuid is set (an empty string
// counts as unset, as there). It sits on user_uuid so that it runs whether or not user_uuid is set; its
// summaries are the framework validators' and its details the official provider's, which users' tests match.
type oneActorValidator struct{}

var _ validator.String = oneActorValidator{}

func (oneActorValidator) Description(context.Context) string {
	return "user_uuid or team_uuid must be set, but not both"
}

func (v oneActorValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (oneActorValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.Config.Raw.IsNull() {
		return // no configuration to compare with (a validator called on its own)
	}
	var team types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("team_uuid"), &team)...)
	if resp.Diagnostics.HasError() || req.ConfigValue.IsUnknown() || team.IsUnknown() {
		return
	}
	user, hasTeam := req.ConfigValue.ValueString() != "", team.ValueString() != ""
	switch {
	case user && hasTeam:
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Combination",
			fmt.Sprintf("Only one of user_uuid or team_uuid can be specified, not both: user_uuid is %q and team_uuid is %q.",
				req.ConfigValue.ValueString(), team.ValueString()))
	case !user && !hasTeam:
		resp.Diagnostics.AddAttributeError(req.Path, "Missing Attribute Configuration",
			"Either user_uuid or team_uuid must be specified: the UUID of the user or of the team to make a maintainer.")
	}
}
