package clusters

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ ephemeral.EphemeralResource              = (*clusterAgentTokenEphemeral)(nil)
	_ ephemeral.EphemeralResourceWithConfigure = (*clusterAgentTokenEphemeral)(nil)
	_ ephemeral.EphemeralResourceWithClose     = (*clusterAgentTokenEphemeral)(nil)
)

// The ephemeral buildkite_cluster_agent_token: a cluster agent token made for one Terraform run. Terraform
// opens an ephemeral resource once in every run that needs its value (a plan, and again the apply), so each
// run makes a token of its own; Close revokes it unless keep_until_expiry asks to leave it to its
// expires_at. The service cannot extend a token's expiry (an update changes only its description and
// allowed addresses), so there is nothing to renew: a token outlives the run by its lifetime.

// clusterAgentTokenDefaultLifetime is the lifetime of a token when expires_in is unset.
const clusterAgentTokenDefaultLifetime = time.Hour

// clusterAgentTokenMinLifetime is the shortest expires_in: the service refuses an expires_at that is not in
// the future by the time the create arrives.
const clusterAgentTokenMinLifetime = time.Minute

// NewClusterAgentTokenEphemeral returns the ephemeral buildkite_cluster_agent_token.
func NewClusterAgentTokenEphemeral() ephemeral.EphemeralResource {
	return &clusterAgentTokenEphemeral{}
}

type clusterAgentTokenEphemeral struct {
	data *kit.ProviderData
}

type clusterAgentTokenEphemeralModel struct {
	ClusterID          types.String `tfsdk:"cluster_id"`
	Description        types.String `tfsdk:"description"`
	AllowedIPAddresses types.String `tfsdk:"allowed_ip_addresses"`
	ExpiresIn          types.String `tfsdk:"expires_in"`
	KeepUntilExpiry    types.Bool   `tfsdk:"keep_until_expiry"`
	ID                 types.String `tfsdk:"id"`
	Token              types.String `tfsdk:"token"`
	ExpiresAt          types.String `tfsdk:"expires_at"`
}

// openedToken is what Open leaves for Close, in the ephemeral resource's private data.
type openedToken struct {
	ClusterID string    `json:"cluster_id"`
	ID        string    `json:"id"`
	Keep      bool      `json:"keep"`
	ExpiresAt time.Time `json:"expires_at"`
}

const openedTokenKey = "token"

func (e *clusterAgentTokenEphemeral) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cluster_agent_token"
}

func (e *clusterAgentTokenEphemeral) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	e.data = kit.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (e *clusterAgentTokenEphemeral) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A cluster agent token made for one Terraform run (Terraform 1.10 or later): its value is " +
			"`token`, which Terraform keeps in neither plan nor state, for a write-only attribute (a secret store's) or a " +
			"provider block. Every run that needs it makes a new token: `terraform plan` one, `terraform apply` two (one " +
			"while planning, one while applying). At the end of the run the token is revoked, unless `keep_until_expiry` " +
			"is `true`: then it stays valid until `expires_at`.",
		Attributes: map[string]schema.Attribute{
			"cluster_id": schema.StringAttribute{
				MarkdownDescription: "The cluster the token registers agents with: its UUID (such as `buildkite_cluster.platform.id`) or its GraphQL ID.",
				Required:            true,
				Validators:          []validator.String{kit.RefValidator{GraphQLTypes: []string{"Cluster"}}},
			},
			"description": schema.StringAttribute{
				MarkdownDescription: "A description of the token, as the cluster's token list shows it.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"allowed_ip_addresses": schema.StringAttribute{
				MarkdownDescription: "The networks agents may use the token from, in CIDR notation separated by spaces. Unset, any.",
				Optional:            true,
			},
			"expires_in": schema.StringAttribute{
				MarkdownDescription: "How long the token is valid from when the run makes it, as a duration such as `30m` or " +
					"`2h`; at least `1m`. Default `1h`. After it agents cannot connect with the token.",
				Optional:   true,
				Validators: []validator.String{durationAtLeast{clusterAgentTokenMinLifetime}},
			},
			"keep_until_expiry": schema.BoolAttribute{
				MarkdownDescription: "Whether the token stays valid after the run, until `expires_at`: set it when the " +
					"value is stored somewhere agents read it later (a secret store). Default `false`: the token is " +
					"revoked when the run ends, and a failure to revoke it is an error of the run.",
				Optional: true,
			},
			"id": schema.StringAttribute{
				MarkdownDescription: "The token's ID (a UUID).",
				Computed:            true,
			},
			"token": schema.StringAttribute{
				MarkdownDescription: "The token's value, which agents register with.",
				Computed:            true,
				Sensitive:           true,
			},
			"expires_at": schema.StringAttribute{
				MarkdownDescription: "When the token expires (RFC 3339).",
				Computed:            true,
			},
		},
	}
}

// lifetime is the configured expires_in, or the default.
func (m *clusterAgentTokenEphemeralModel) lifetime() time.Duration {
	if d, err := time.ParseDuration(m.ExpiresIn.ValueString()); err == nil && !m.ExpiresIn.IsNull() {
		return d
	}
	return clusterAgentTokenDefaultLifetime
}

func (e *clusterAgentTokenEphemeral) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m clusterAgentTokenEphemeralModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if e.data == nil {
		resp.Diagnostics.AddError("Provider Not Configured", "The buildkite provider was not configured when "+
			"the ephemeral buildkite_cluster_agent_token was opened; please report this issue to the provider developers.")
		return
	}
	clusterID := kit.CanonicalID(m.ClusterID.ValueString())
	expiresAt := time.Now().UTC().Add(m.lifetime()).Truncate(time.Second)
	ctx, cancel := kit.OperationContext(ctx, e.data, kit.OpCreate)
	defer cancel()
	t, err := e.data.Client.ClusterTokens.Create(ctx, clusterID, buildkite.ClusterTokenCreate{
		Description: m.Description.ValueString(), AllowedIPAddresses: kit.StringPtrIfSet(m.AllowedIPAddresses), ExpiresAt: &expiresAt,
	})
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "create", "cluster agent token", fmt.Sprintf("%q in cluster %s", m.Description.ValueString(), clusterID), err)
		return
	}
	if t.ExpiresAt != nil {
		expiresAt = t.ExpiresAt.UTC()
	}
	opened := openedToken{ClusterID: clusterID, ID: t.ID, Keep: m.KeepUntilExpiry.ValueBool(), ExpiresAt: expiresAt}
	// What Close needs is recorded before the value is handed on, so that the token is revoked even where
	// handing it on fails.
	raw, err := json.Marshal(opened)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Record Cluster Agent Token", fmt.Sprintf("Recording cluster agent token %s for its "+
			"revocation: %s. Revoke it in Buildkite (cluster %s, Agent Tokens).", t.ID, err, clusterID))
		return
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, openedTokenKey, raw)...)
	m.ID = types.StringValue(t.ID)
	m.Token = types.StringValue(t.Token)
	m.ExpiresAt = types.StringValue(expiresAt.Format(time.RFC3339))
	resp.Diagnostics.Append(resp.Result.Set(ctx, &m)...)
}

// Close revokes the token Open made, unless it is to be kept until it expires. A token already gone
// (revoked outside Terraform) needs nothing; any other failure is an error, saying what is left valid.
func (e *clusterAgentTokenEphemeral) Close(ctx context.Context, req ephemeral.CloseRequest, resp *ephemeral.CloseResponse) {
	raw, diags := req.Private.GetKey(ctx, openedTokenKey)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() || raw == nil {
		return
	}
	var opened openedToken
	if err := json.Unmarshal(raw, &opened); err != nil {
		resp.Diagnostics.AddError("Unable to Revoke Cluster Agent Token", fmt.Sprintf("Reading which cluster agent token this "+
			"run made: %s. Look for it in Buildkite (the cluster's Agent Tokens) and revoke it.", err))
		return
	}
	if opened.Keep {
		return
	}
	if e.data == nil {
		resp.Diagnostics.AddError("Unable to Revoke Cluster Agent Token", fmt.Sprintf("The provider was not configured when "+
			"cluster agent token %s of cluster %s was to be revoked. It stays valid until %s: revoke it in Buildkite.",
			opened.ID, opened.ClusterID, opened.ExpiresAt.Format(time.RFC3339)))
		return
	}
	ctx, cancel := kit.OperationContext(ctx, e.data, kit.OpDelete)
	defer cancel()
	err := e.data.Client.ClusterTokens.Delete(ctx, opened.ClusterID, opened.ID)
	if err == nil || buildkite.IsNotFound(err) {
		return
	}
	resp.Diagnostics.Append(revokeFailed(opened, err))
}

// revokeFailed is the error of a token Close could not revoke: which token, the service's words, and until
// when it stays valid.
func revokeFailed(opened openedToken, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Unable to Revoke Cluster Agent Token", fmt.Sprintf(
		"Revoking cluster agent token %s of cluster %s at the end of the run: %s. The token stays valid until %s: "+
			"revoke it in Buildkite (the cluster's Agent Tokens), or with the REST API's DELETE of the token.",
		opened.ID, opened.ClusterID, kit.DescribeError(err), opened.ExpiresAt.Format(time.RFC3339)))
}

// durationAtLeast accepts a Go duration ("90s", "30m", "2h") no shorter than its minimum.
type durationAtLeast struct{ min time.Duration }

func (v durationAtLeast) Description(context.Context) string {
	return fmt.Sprintf("must be a duration such as 30m or 2h, at least %s", v.min)
}

func (v durationAtLeast) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v durationAtLeast) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !kit.IsKnownValue(req.ConfigValue) {
		return
	}
	d, err := time.ParseDuration(req.ConfigValue.ValueString())
	switch {
	case err != nil:
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Duration", fmt.Sprintf(
			"%q is not a duration: write one such as 30m or 2h (units ns, us, ms, s, m, h).", req.ConfigValue.ValueString()))
	case d < v.min:
		resp.Diagnostics.AddAttributeError(req.Path, "Duration Too Short", fmt.Sprintf(
			"%s is shorter than %s: the service needs a token's expiry to be in the future when it makes it.", d, v.min))
	}
}
