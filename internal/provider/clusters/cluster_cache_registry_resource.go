package clusters

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// clusterCacheRegistryIdentity names a cache registry for import blocks and terraform query.
var clusterCacheRegistryIdentity = kit.IdentifiedBy(
	kit.IdentityAttr("cluster_id", "The ID of the cluster the registry belongs to."),
	kit.IdentityAttr("id", "The registry's UUID."),
)

// NewClusterCacheRegistryResource returns the buildkite_cluster_cache_registry resource.
func NewClusterCacheRegistryResource() resource.Resource {
	return kit.NewObject(clusterCacheRegistryKind)
}

// clusterCacheRegistryKind declares buildkite_cluster_cache_registry, a cache registry of a cluster
// (Buildkite Cache, a public preview): an update sends what changed (nothing sent when nothing the service
// holds did), and a policy the service normalized into something that means otherwise is an error. The
// cluster's default registry cannot be deleted: the service's reason is shown.
var clusterCacheRegistryKind = &kit.ObjectKind[buildkite.CacheRegistry, clusterCacheRegistryModel]{
	Name:   "cluster_cache_registry",
	What:   "cache registry",
	Parent: "cluster_id",
	Key:    kit.AttrID,
	// The official provider's states hold the GraphQL IDs of the registry (id) and its cluster.
	Moves:    kit.StateMoves{Refs: []string{"cluster_id"}},
	Scopes:   kit.WriteScopes("write_clusters"),
	Identity: clusterCacheRegistryIdentity,
	Schema:   clusterCacheRegistrySchema,
	FromAPI:  (*clusterCacheRegistryModel).fromAPI,
	Create: func(ctx context.Context, c *buildkite.Client, clusterID string, plan *clusterCacheRegistryModel) (*buildkite.CacheRegistry, error) {
		return c.CacheRegistries.Create(ctx, clusterID, plan.write(nil))
	},
	Get: func(ctx context.Context, c *buildkite.Client, clusterID, id string) (*buildkite.CacheRegistry, error) {
		return c.CacheRegistries.Get(ctx, clusterID, id)
	},
	Update: func(ctx context.Context, c *buildkite.Client, clusterID, id string, plan, state *clusterCacheRegistryModel) (*buildkite.CacheRegistry, error) {
		var r *buildkite.CacheRegistry
		var err error
		if w := plan.write(state); !w.IsZero() {
			r, err = c.CacheRegistries.Update(ctx, clusterID, id, w)
		} else {
			r, err = c.CacheRegistries.Get(ctx, clusterID, id)
		}
		if buildkite.IsNotFound(err) {
			return nil, &kit.DiagnosedError{Summary: "Unable to Update Cache Registry", Detail: fmt.Sprintf(
				"Updating cache registry %s: the cache registry no longer exists; run terraform plan before applying again (%s).",
				state.ident(), kit.DescribeError(err))}
		}
		return r, err
	},
	Remove: func(ctx context.Context, c *buildkite.Client, clusterID, id string) error {
		return c.CacheRegistries.Delete(ctx, clusterID, id)
	},
	ImportParts: []kit.ImportPart{kit.UuidPart("<cluster id>", "Cluster"), kit.UuidPart("<registry uuid>", cacheRegistryGraphQLType)},
	Parents:     func(ctx context.Context, c *buildkite.Client) ([]string, error) { return kit.ClusterIDs(c)(ctx) },
	Named: func(plan *clusterCacheRegistryModel) string {
		return fmt.Sprintf("%q in cluster %s", plan.Name.ValueString(), plan.ClusterID.UUID())
	},
	Holder: func(c *buildkite.Client, plan *clusterCacheRegistryModel) kit.HolderLookup {
		return cacheRegistryHolderOfName(c, plan.ClusterID.UUID(), plan.Name.ValueString())
	},
	Applied: func(plan *clusterCacheRegistryModel, r *buildkite.CacheRegistry, ident string, diags *diag.Diagnostics) {
		policyApplied(diags, plan.Policy, r, ident)
	},
	// updated_at stays while nothing changes (a policy written otherwise is no change).
	ModifyPlan: func(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
		if !req.State.Raw.IsNull() && !req.Plan.Raw.IsNull() {
			keepUpdatedAtUnlessChanged(ctx, req, resp)
		}
	},
}

type clusterCacheRegistryModel struct {
	ID          types.String       `tfsdk:"id"`
	UUID        types.String       `tfsdk:"uuid"`
	GraphQLID   types.String       `tfsdk:"graphql_id"`
	ClusterID   kit.RefValue       `tfsdk:"cluster_id"`
	ClusterUUID types.String       `tfsdk:"cluster_uuid"`
	Name        types.String       `tfsdk:"name"`
	Slug        types.String       `tfsdk:"slug"`
	Description types.String       `tfsdk:"description"`
	Emoji       types.String       `tfsdk:"emoji"`
	Color       types.String       `tfsdk:"color"`
	Policy      kit.SemanticString `tfsdk:"policy"`
	Default     types.Bool         `tfsdk:"default"`
	CreatedAt   types.String       `tfsdk:"created_at"`
	UpdatedAt   types.String       `tfsdk:"updated_at"`
}

// fromAPI copies the service's view. The policy keeps the model's spelling while it means what the service
// answered; "" kept for the optional strings (KeepEmpty).
func (m *clusterCacheRegistryModel) fromAPI(clusterID string, c *buildkite.CacheRegistry) {
	m.ID = types.StringValue(c.UUID)
	m.UUID = m.ID
	m.GraphQLID = types.StringValue(kit.GraphQLID(cacheRegistryGraphQLType, c.UUID))
	if !kit.IsKnownValue(m.ClusterID) || !kit.SameObject(m.ClusterID.ValueString(), clusterID) {
		m.ClusterID = kit.NewRef(clusterID)
	}
	m.ClusterUUID = types.StringValue(kit.CanonicalID(clusterID))
	m.Name = types.StringValue(c.Name)
	m.Slug = types.StringValue(c.Slug)
	m.Description = kit.KeepEmpty(m.Description, c.Description)
	m.Emoji = kit.KeepEmpty(m.Emoji, c.Emoji)
	m.Color = kit.KeepEmpty(m.Color, c.Color)
	m.Policy = keptPolicy(m.Policy, c.Policy)
	m.Default = types.BoolValue(c.Default)
	m.CreatedAt = kit.TimeValue(c.CreatedAt)
	m.UpdatedAt = kit.TimeValue(c.UpdatedAt)
}

func (m *clusterCacheRegistryModel) ident() string {
	return fmt.Sprintf("%q (%s) in cluster %s", m.Name.ValueString(), m.ID.ValueString(), m.ClusterID.UUID())
}

// cacheRegistryGraphQLType is the registries' GraphQL type (inferred from the official provider's
// cacheRegistry node reads; the REST model carries no GraphQL ID).
const cacheRegistryGraphQLType = "CacheRegistry"

// clusterCacheRegistrySchema is the schema of buildkite_cluster_cache_registry (version 1: the official
// provider's states are upgraded).
func clusterCacheRegistrySchema() schema.Schema {
	optional := func(description string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: description, Optional: true}
	}
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A cache registry of a cluster (Buildkite Cache, a public preview): a named store of build " +
			"caches, with a policy saying which builds may save and restore entries. Every cluster has a registry named " +
			"`Default`, which cannot be deleted: import it to manage it, and a destroy of it fails with the service's " +
			"reason. The token needs the `read_clusters` and `write_clusters` scopes, and its user must be able to " +
			"manage the cluster. Import as `<cluster id>/<registry uuid>`, or by the registry's GraphQL ID.",
		Attributes: kit.WithCommon("cache registry", map[string]schema.Attribute{
			"graphql_id":   kit.ComputedString("The registry's GraphQL ID (the official provider's `id`), built from its UUID."),
			"cluster_id":   kit.ParentIDAttribute("The ID of the cluster the registry belongs to (its UUID or GraphQL ID).", "Cluster"),
			"cluster_uuid": kit.ComputedString("The UUID of the cluster the registry belongs to."),
			"name": schema.StringAttribute{
				MarkdownDescription: "The registry's name; its slug is made from it.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"slug": schema.StringAttribute{
				MarkdownDescription: "The registry's slug, made from its name (informational: the API addresses registries by UUID).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{kit.KeepWhileUnchanged{Other: "name"}},
			},
			"description": optional("What the registry holds. Removing it clears it."),
			"emoji":       optional("An emoji shown with the registry (`:package:`). Removing it clears it."),
			"color":       optional("A color shown with the registry (`#1a73e8`). Removing it clears it."),
			"policy": schema.StringAttribute{
				CustomType: kit.JsonStringType,
				MarkdownDescription: "The policy, a JSON object: `save.scopes` (an object of `branch`, `build` and " +
					"`pipeline` set to `true`), `restore.scopes` (an ordered list of objects of those dimensions to a " +
					"value, `\"$current\"` for the job's own) and `rules` (`{name, effect = \"allow\", action = " +
					"\"save\"|\"restore\"|[...], when = <CEL>}`, the first that matches deciding). The service " +
					"normalizes it; the configured spelling is kept while it means what the service holds. Unset on " +
					"create, the service's default (unrestricted) policy applies; removed later, the current policy " +
					"stays.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{cachePolicyValidator{}},
				PlanModifiers: []planmodifier.String{keepEquivalentPolicy{}},
			},
			"default": schema.BoolAttribute{
				MarkdownDescription: "Whether this is the cluster's default registry (which cannot be deleted).",
				Computed:            true,
				PlanModifiers:       []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "When the registry was last changed (RFC 3339).",
				Computed:            true,
			},
		}, kit.AttrID, kit.AttrUUID, kit.AttrCreatedAt),
	}
}

// write is the body of a create (prior nil) or an update: what plan sets, and on an update the optional
// strings removed since prior as null.
func (m *clusterCacheRegistryModel) write(prior *clusterCacheRegistryModel) buildkite.CacheRegistryWrite {
	var w buildkite.CacheRegistryWrite
	if prior == nil || !m.Name.Equal(prior.Name) {
		w.Name = m.Name.ValueStringPointer()
	}
	for _, f := range []struct {
		plan  types.String
		prior func() types.String
		dst   *buildkite.Optional[string]
	}{
		{m.Description, func() types.String { return prior.Description }, &w.Description},
		{m.Emoji, func() types.String { return prior.Emoji }, &w.Emoji},
		{m.Color, func() types.String { return prior.Color }, &w.Color},
	} {
		switch {
		case prior == nil:
			if v := kit.StringPtrIfSet(f.plan); v != nil {
				*f.dst = buildkite.Value(*v)
			}
		case f.plan.Equal(f.prior()):
		case f.plan.IsNull():
			*f.dst = buildkite.Cleared[string]()
		default:
			*f.dst = buildkite.Value(f.plan.ValueString())
		}
	}
	if kit.IsKnownValue(m.Policy) && (prior == nil || !policyEquivalent(m.Policy.ValueString(), prior.Policy.ValueString())) {
		if policy, err := kit.CompactJSON(m.Policy.ValueString()); err == nil {
			w.Policy = buildkite.Value(policy)
		}
	}
	return w
}

// policyApplied adds an error when the service holds another policy than the one planned (which it normalized
// into something that means otherwise); the state records what it holds, so the next plan shows the difference.
func policyApplied(diags interface{ AddError(string, string) }, wanted kit.SemanticString, c *buildkite.CacheRegistry, ident string) {
	if !kit.IsKnownValue(wanted) || policyEquivalent(wanted.ValueString(), string(c.Policy)) {
		return
	}
	diags.AddError("Cache Registry Policy Not Applied", fmt.Sprintf(
		"The service holds for cache registry %s the policy %s, which does not mean what was configured (%s). The "+
			"state records what the service holds.", ident, string(c.Policy), wanted.ValueString()))
}

// cacheRegistryHolderOfName finds the registry whose slug a name takes, for a create refused because it is
// taken.
func cacheRegistryHolderOfName(c *buildkite.Client, clusterID, name string) kit.HolderLookup {
	return func(ctx context.Context) (*kit.Holder, error) {
		all, err := c.CacheRegistries.List(ctx, clusterID)
		if err != nil {
			return nil, err
		}
		for _, c := range all {
			if kit.SlugOf(c.Name) == kit.SlugOf(name) {
				return &kit.Holder{
					Description: fmt.Sprintf("cache registry %q (UUID %s) in cluster %s", c.Name, c.UUID, clusterID),
					ImportID:    clusterID + "/" + c.UUID,
				}, nil
			}
		}
		return nil, nil
	}
}

// ---- the policy ----

// keptPolicy is the policy to record: prior's spelling while it means what the service answered.
func keptPolicy(prior kit.SemanticString, answered json.RawMessage) kit.SemanticString {
	if len(answered) == 0 || string(answered) == "null" {
		return kit.JsonNull()
	}
	if kit.IsKnownValue(prior) && policyEquivalent(prior.ValueString(), string(answered)) {
		return prior
	}
	return kit.JsonString(string(answered))
}

// normalizedPolicy is a policy as the service normalizes it: sections and lists filled in, a string action
// made a one-element list, null names and conditions dropped. ok is false for text that is not a JSON object.
func normalizedPolicy(s string) (any, bool) {
	v, err := kit.DecodeJSON(s)
	m, isObject := v.(map[string]any)
	if err != nil || !isObject {
		return nil, false
	}
	section := func(name string, empty any) {
		sec, _ := m[name].(map[string]any)
		if sec == nil {
			sec = map[string]any{}
		}
		if sec["scopes"] == nil {
			sec["scopes"] = empty
		}
		m[name] = sec
	}
	section("save", map[string]any{})
	section("restore", []any{})
	rules, _ := m["rules"].([]any)
	if rules == nil {
		rules = []any{}
	}
	for _, r := range rules {
		rule, ok := r.(map[string]any)
		if !ok {
			continue
		}
		for _, k := range []string{"name", "when"} {
			if v, present := rule[k]; present && v == nil {
				delete(rule, k)
			}
		}
		if a, ok := rule["action"].(string); ok {
			rule["action"] = []any{a}
		}
	}
	m["rules"] = rules
	return m, true
}

// policyEquivalent reports whether two policies mean the same once normalized.
func policyEquivalent(a, b string) bool {
	na, okA := normalizedPolicy(a)
	nb, okB := normalizedPolicy(b)
	return okA && okB && kit.SameDocument(na, nb)
}

// cachePolicyValidator is the official check: the policy is a JSON object, never null.
type cachePolicyValidator struct{}

func (cachePolicyValidator) Description(context.Context) string {
	return "must be a JSON object (not null)"
}

func (v cachePolicyValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (cachePolicyValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !kit.IsKnownValue(req.ConfigValue) {
		return
	}
	if _, ok := normalizedPolicy(req.ConfigValue.ValueString()); !ok {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid cache registry policy",
			fmt.Sprintf("%s must be a JSON object (jsonencode({...})), not null, an array or a string; got %s.",
				req.Path, kit.Shortened(req.ConfigValue.ValueString())))
	}
}

// keepEquivalentPolicy plans the state's policy when the configuration means the same, and the state's
// policy (as USFU) when the configuration has none: removing the policy leaves the current one in place.
type keepEquivalentPolicy struct{}

func (keepEquivalentPolicy) Description(context.Context) string {
	return "Keeps the state's policy while the configuration means the same, or sets none."
}

func (m keepEquivalentPolicy) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (keepEquivalentPolicy) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.State.Raw.IsNull() {
		return
	}
	switch {
	case req.ConfigValue.IsNull():
		resp.PlanValue = req.StateValue
	case req.PlanValue.IsUnknown() || !kit.IsKnownValue(req.StateValue):
	case policyEquivalent(req.PlanValue.ValueString(), req.StateValue.ValueString()):
		resp.PlanValue = req.StateValue
	}
}
