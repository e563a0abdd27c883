package clusters

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
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

// clusterSecretIdentity names a cluster secret for import blocks and terraform query.
var clusterSecretIdentity = kit.IdentifiedBy(
	kit.IdentityAttr("cluster_id", "The ID of the cluster the secret belongs to."),
	kit.IdentityAttr("id", "The secret's ID (a UUID)."),
)

// NewClusterSecretResource returns the buildkite_cluster_secret resource.
func NewClusterSecretResource() resource.Resource { return kit.NewObject(clusterSecretKind) }

// clusterSecretKind declares buildkite_cluster_secret: a value the service never shows again, given as
// value or as write-only value_wo; an update sends the description and policy when they changed, and the
// value when value or value_wo_version did. The value of an imported secret stays unknown (null).
var clusterSecretKind = &kit.ObjectKind[buildkite.ClusterSecret, clusterSecretModel]{
	Name:     "cluster_secret",
	What:     "cluster secret",
	Scopes:   kit.WriteScopes("write_clusters"),
	Identity: clusterSecretIdentity,
	Schema:   clusterSecretSchema,
	// The official provider's states hold id and cluster_id as UUIDs too, and the value as it was sent.
	Moves:   kit.StateMoves{Refs: []string{"cluster_id"}},
	Parent:  "cluster_id",
	Key:     kit.AttrID,
	FromAPI: (*clusterSecretModel).fromAPI,
	Create: func(ctx context.Context, c *buildkite.Client, clusterID string, plan *clusterSecretModel) (*buildkite.ClusterSecret, error) {
		value, ok := secretValue(plan)
		if !ok {
			return nil, &kit.DiagnosedError{Summary: "Unable to Create Cluster Secret", Detail: fmt.Sprintf(
				"Creating cluster secret %q in cluster %s: neither value nor value_wo is set.", plan.Key.ValueString(), clusterID)}
		}
		return c.ClusterSecrets.Create(ctx, clusterID, buildkite.ClusterSecretCreate{
			Key: plan.Key.ValueString(), Value: value,
			Description: kit.StringPtrIfSet(plan.Description), Policy: kit.StringPtrIfSet(plan.Policy.StringValue),
		})
	},
	Get: func(ctx context.Context, c *buildkite.Client, clusterID, id string) (*buildkite.ClusterSecret, error) {
		return c.ClusterSecrets.Get(ctx, clusterID, id)
	},
	Update: func(ctx context.Context, c *buildkite.Client, clusterID, id string, plan, state *clusterSecretModel) (*buildkite.ClusterSecret, error) {
		var s *buildkite.ClusterSecret
		var err error
		if !plan.Description.Equal(state.Description) || !plan.Policy.Equal(state.Policy) {
			s, err = c.ClusterSecrets.Update(ctx, clusterID, id, buildkite.ClusterSecretUpdate{
				Description: kit.StringPtr(plan.Description), Policy: kit.StringPtr(plan.Policy.StringValue),
			})
			if err != nil {
				return nil, err
			}
		}
		if value, ok := secretValue(plan); ok && valueChanged(plan, state) {
			if s, err = c.ClusterSecrets.UpdateValue(ctx, clusterID, id, value); err != nil {
				return nil, &kit.ReportedAs{Op: "update", What: "cluster secret value", Err: err}
			}
		}
		if s == nil { // only what the service does not hold changed (value removed, a version relabelled)
			if s, err = c.ClusterSecrets.Get(ctx, clusterID, id); err != nil {
				return nil, &kit.ReportedAs{Op: "read", What: "cluster secret", Err: err}
			}
		}
		return s, nil
	},
	Remove: func(ctx context.Context, c *buildkite.Client, clusterID, id string) error {
		return c.ClusterSecrets.Delete(ctx, clusterID, id)
	},
	ImportParts: []kit.ImportPart{kit.UuidPart("<cluster id>", "Cluster"), kit.UuidPart("<secret id>")},
	Parents:     func(ctx context.Context, c *buildkite.Client) ([]string, error) { return kit.ClusterIDs(c)(ctx) },
	Named: func(plan *clusterSecretModel) string {
		return fmt.Sprintf("%q in cluster %s", plan.Key.ValueString(), plan.ClusterID.UUID())
	},
	Holder: func(c *buildkite.Client, plan *clusterSecretModel) kit.HolderLookup {
		return secretHolderOfKey(c, plan.ClusterID.UUID(), plan.Key.ValueString())
	},
	WriteOnly:  func(plan, config *clusterSecretModel) { plan.ValueWO = config.ValueWO },
	ModifyPlan: clusterSecretModifyPlan,
	// value and value_wo are alternatives, and value_wo comes with its version.
	Validators: []resource.ConfigValidator{
		resourcevalidator.Conflicting(path.MatchRoot("value"), path.MatchRoot("value_wo")),
		resourcevalidator.RequiredTogether(path.MatchRoot("value_wo"), path.MatchRoot("value_wo_version")),
	},
}

type clusterSecretModel struct {
	ID             types.String       `tfsdk:"id"`
	UUID           types.String       `tfsdk:"uuid"`
	GraphQLID      types.String       `tfsdk:"graphql_id"`
	ClusterID      kit.RefValue       `tfsdk:"cluster_id"`
	Key            types.String       `tfsdk:"key"`
	Description    types.String       `tfsdk:"description"`
	Policy         kit.SemanticString `tfsdk:"policy"`
	Value          types.String       `tfsdk:"value"`
	ValueWO        types.String       `tfsdk:"value_wo"`
	ValueWOVersion types.String       `tfsdk:"value_wo_version"`
	CreatedAt      types.String       `tfsdk:"created_at"`
	UpdatedAt      types.String       `tfsdk:"updated_at"`
}

// fromAPI copies the service's view. The service never shows the value, so value and value_wo_version are
// kept from the plan or state, and value_wo is never stored.
func (m *clusterSecretModel) fromAPI(clusterID string, s *buildkite.ClusterSecret) {
	m.ID = types.StringValue(s.ID)
	m.UUID = m.ID
	m.GraphQLID = types.StringValue(s.GraphQLID)
	m.ClusterID = kit.NewRef(clusterID)
	m.Key = types.StringValue(s.Key)
	m.Description = kit.KeepEmpty(m.Description, s.Description)
	m.Policy = keepEmptyYAML(m.Policy, s.Policy)
	m.ValueWO = types.StringNull()
	m.CreatedAt = kit.TimeValue(s.CreatedAt)
	m.UpdatedAt = kit.TimeValue(s.UpdatedAt)
}

// keepEmptyYAML is KeepEmpty for a YAML document.
func keepEmptyYAML(prior kit.SemanticString, s *string) kit.SemanticString {
	if v := kit.KeepEmpty(prior.StringValue, s); !v.IsNull() {
		return kit.YamlString(v.ValueString())
	}
	return kit.YamlNull()
}

// secretValue is the value the configuration gives, write-only or not, and whether it gives one.
func secretValue(config *clusterSecretModel) (string, bool) {
	if !config.ValueWO.IsNull() {
		return config.ValueWO.ValueString(), true
	}
	return config.Value.ValueString(), !config.Value.IsNull()
}

// valueChanged tells whether an update must send the value: value_wo_version changed (where either has
// one), or value did.
func valueChanged(plan, state *clusterSecretModel) bool {
	if !plan.ValueWOVersion.IsNull() || !state.ValueWOVersion.IsNull() {
		return !plan.ValueWOVersion.Equal(state.ValueWOVersion)
	}
	return !plan.Value.Equal(state.Value)
}

// secretKeyPattern is the form of keys the service accepts.
var secretKeyPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// secretValueMaxBytes is the largest value the service stores.
const secretValueMaxBytes = 8 << 10

// clusterSecretSchema is the schema of buildkite_cluster_secret.
func clusterSecretSchema() schema.Schema {
	valueValidators := []validator.String{stringvalidator.LengthBetween(1, secretValueMaxBytes)}
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A secret of a cluster: a value its agents read (`buildkite-agent secret get KEY`) in the " +
			"builds its `policy` allows. The service never shows the value again, so Terraform knows it only from " +
			"the configuration: set `value` (sensitive, kept in state) or the write-only `value_wo` with " +
			"`value_wo_version` (kept in neither plan nor state; change the version to send a new value). Either " +
			"way a new value is sent in place.\n\n" +
			"**Importing.** Import as `<cluster id>/<secret id>`. An imported secret's value is unknown to " +
			"Terraform, and a configuration without `value` or `value_wo` leaves it as it is. To take the value " +
			"over, set `value`, or `value_wo` and `value_wo_version`, and apply: the update sends it.",
		Attributes: kit.WithCommon("secret", map[string]schema.Attribute{
			"cluster_id": kit.ParentIDAttribute("The ID of the cluster the secret belongs to.", "Cluster"),
			"key": schema.StringAttribute{
				MarkdownDescription: "The name agents read the secret by: a letter, then letters, digits and underscores, " +
					"at most 255 characters, not starting with `buildkite` or `bk` (in any case), which are reserved. " +
					"Changing it replaces the secret.",
				Required:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators: []validator.String{
					stringvalidator.LengthAtMost(255),
					stringvalidator.RegexMatches(secretKeyPattern, "must start with a letter and only contain letters, numbers, and underscores"),
					reservedKeyPrefix{},
				},
			},
			"description": schema.StringAttribute{
				MarkdownDescription: "What the secret is for.",
				Optional:            true,
			},
			"policy": schema.StringAttribute{
				CustomType: kit.YamlStringType,
				MarkdownDescription: "The access policy, as YAML: which pipelines and branches may read the secret. " +
					"Compared by meaning, so formatting never shows as a difference. Unset, the cluster's agents may read it in any build.",
				Optional:      true,
				PlanModifiers: []planmodifier.String{kit.KeepSemanticallyEqualState(kit.YamlFormat)},
			},
			"value": schema.StringAttribute{
				MarkdownDescription: "The secret's value, at most 8 KiB (8,192 bytes); kept in state. Changing it sends " +
					"the new value in place. Conflicts with `value_wo`.",
				Optional:   true,
				Sensitive:  true,
				Validators: valueValidators,
			},
			"value_wo": schema.StringAttribute{
				MarkdownDescription: "The secret's value, write-only (Terraform 1.11 or later): sent to the service and " +
					"kept in neither plan nor state, at most 8 KiB. Requires `value_wo_version`; conflicts with `value`.",
				Optional:   true,
				Sensitive:  true,
				WriteOnly:  true,
				Validators: valueValidators,
			},
			"value_wo_version": schema.StringAttribute{
				MarkdownDescription: "A label of the write-only value, not secret, such as the version ID in your secret " +
					"manager: Terraform cannot see a write-only value change, so changing this label is what sends " +
					"`value_wo` again. Required with `value_wo`.",
				Optional:   true,
				Validators: []validator.String{kit.NotBlank()},
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "When the secret was last changed (RFC 3339).",
				Computed:            true,
			},
		}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrCreatedAt),
	}
}

// clusterSecretModifyPlan checks that a new secret has a value: only an existing one (imported, its value
// unknown to Terraform) may be managed without.
func clusterSecretModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	if !req.State.Raw.IsNull() {
		keepUpdatedAtUnlessChanged(ctx, req, resp)
		return
	}
	var value, valueWO types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("value"), &value)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("value_wo"), &valueWO)...)
	if !resp.Diagnostics.HasError() && value.IsNull() && valueWO.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("value"), "Missing Attribute Configuration",
			"A new cluster secret needs a value: set value, or value_wo with value_wo_version. Only a secret that "+
				"exists already (imported) may be managed without one.")
	}
}

// keepUpdatedAtUnlessChanged plans the state's updated_at when nothing else changes. The framework marks it
// unknown as soon as the configuration differs from the state, before the policy's plan modifier finds
// the same document written otherwise and plans the state's text: that alone is no change.
func keepUpdatedAtUnlessChanged(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var prior types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("updated_at"), &prior)...)
	planned := resp.Plan
	resp.Diagnostics.Append(planned.SetAttribute(ctx, path.Root("updated_at"), prior)...)
	if !resp.Diagnostics.HasError() && planned.Raw.Equal(req.State.Raw) {
		resp.Plan = planned
	}
}

// reservedKeyPrefix refuses the key prefixes the service keeps for itself.
type reservedKeyPrefix struct{}

func (reservedKeyPrefix) Description(context.Context) string {
	return "must not start with buildkite or bk (in any case), which the service reserves"
}

func (v reservedKeyPrefix) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v reservedKeyPrefix) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !kit.IsKnownValue(req.ConfigValue) {
		return
	}
	key := strings.ToLower(req.ConfigValue.ValueString())
	if strings.HasPrefix(key, "buildkite") || strings.HasPrefix(key, "bk") {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid secret key",
			fmt.Sprintf("Secret key must not start with 'buildkite' or 'bk' (reserved prefixes, case-insensitive), got %q.",
				req.ConfigValue.ValueString()))
	}
}

// secretHolderOfKey finds the secret that holds a key in a cluster, for a create refused because the key is
// taken (most likely by an earlier apply stopped before it could record it).
func secretHolderOfKey(c *buildkite.Client, clusterID, key string) kit.HolderLookup {
	return func(ctx context.Context) (*kit.Holder, error) {
		secrets, err := c.ClusterSecrets.List(ctx, clusterID)
		if err != nil {
			return nil, err
		}
		for _, s := range secrets {
			if s.Key == key {
				return &kit.Holder{
					Description: fmt.Sprintf("cluster secret %q (ID %s) in cluster %s", s.Key, s.ID, clusterID),
					ImportID:    clusterID + "/" + s.ID,
				}, nil
			}
		}
		return nil, nil
	}
}
