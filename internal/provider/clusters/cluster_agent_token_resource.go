package clusters

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// clusterAgentTokenIdentity names a cluster agent token for import blocks and terraform query.
var clusterAgentTokenIdentity = kit.IdentifiedBy(
	kit.IdentityAttr("cluster_id", "The ID of the cluster the token belongs to."),
	kit.IdentityAttr("id", "The token's ID (a UUID)."),
)

// NewClusterAgentTokenResource returns the buildkite_cluster_agent_token resource.
func NewClusterAgentTokenResource() resource.Resource { return kit.NewObject(clusterAgentTokenKind) }

// clusterAgentTokenKind declares buildkite_cluster_agent_token: a token whose secret only the create answer
// carries; an update keeps it from state. Imported as "<cluster id>/<token id>", or by the token's ID alone.
var clusterAgentTokenKind = &kit.ObjectKind[buildkite.ClusterToken, clusterAgentTokenModel]{
	Name:     "cluster_agent_token",
	What:     "cluster agent token",
	Scopes:   kit.WriteScopes("write_clusters"),
	Identity: clusterAgentTokenIdentity,
	Schema:   clusterAgentTokenSchema,
	// The official provider's states hold cluster_id as a UUID, and no cluster_uuid, which ours of version 0
	// lack too.
	Moves: kit.StateMoves{Refs: []string{"cluster_id"}, Ours: func(_ int64, a kit.StateAttrs) error {
		a["cluster_uuid"] = a["cluster_id"]
		return nil
	}},
	Parent:  "cluster_id",
	Key:     kit.AttrID,
	FromAPI: (*clusterAgentTokenModel).fromAPI,
	Create: func(ctx context.Context, c *buildkite.Client, clusterID string, plan *clusterAgentTokenModel) (*buildkite.ClusterToken, error) {
		return c.ClusterTokens.Create(ctx, clusterID, plan.toCreate())
	},
	Get: func(ctx context.Context, c *buildkite.Client, clusterID, id string) (*buildkite.ClusterToken, error) {
		return c.ClusterTokens.Get(ctx, clusterID, id)
	},
	Update: func(ctx context.Context, c *buildkite.Client, clusterID, id string, plan, state *clusterAgentTokenModel) (*buildkite.ClusterToken, error) {
		plan.Token = state.Token // the update answer has no secret
		return c.ClusterTokens.Update(ctx, clusterID, id, plan.toUpdate())
	},
	Remove: func(ctx context.Context, c *buildkite.Client, clusterID, id string) error {
		return c.ClusterTokens.Delete(ctx, clusterID, id)
	},
	ImportParts: []kit.ImportPart{kit.UuidPart("<cluster id>", "Cluster"), kit.UuidPart("<token id>", "ClusterToken")},
	Parents:     func(ctx context.Context, c *buildkite.Client) ([]string, error) { return kit.ClusterIDs(c)(ctx) },
	Named: func(plan *clusterAgentTokenModel) string {
		return fmt.Sprintf("%q in cluster %s", plan.Description.ValueString(), plan.ClusterID.UUID())
	},
	Secret: "token",
}

type clusterAgentTokenModel struct {
	ID                 types.String `tfsdk:"id"`
	UUID               types.String `tfsdk:"uuid"`
	GraphQLID          types.String `tfsdk:"graphql_id"`
	ClusterID          kit.RefValue `tfsdk:"cluster_id"`
	ClusterUUID        types.String `tfsdk:"cluster_uuid"`
	Description        types.String `tfsdk:"description"`
	AllowedIPAddresses types.List   `tfsdk:"allowed_ip_addresses"`
	ExpiresAt          types.String `tfsdk:"expires_at"`
	Token              types.String `tfsdk:"token"`
	URL                types.String `tfsdk:"url"`
}

// fromAPI copies the service's view; clusterID is the cluster's UUID (cluster_id keeps the configuration's
// form by its semantic equality). The secret is only in the create response, so it is kept from state
// otherwise.
func (m *clusterAgentTokenModel) fromAPI(clusterID string, t *buildkite.ClusterToken) {
	m.ID = types.StringValue(t.ID)
	m.UUID = types.StringValue(t.ID)
	m.GraphQLID = types.StringValue(t.GraphQLID)
	m.ClusterID = kit.NewRef(clusterID)
	m.ClusterUUID = types.StringValue(clusterID)
	m.Description = types.StringValue(t.Description)
	m.AllowedIPAddresses = types.ListNull(types.StringType)
	if blocks := strings.Fields(t.AllowedIPAddresses); len(blocks) > 0 {
		m.AllowedIPAddresses = kit.StringList(blocks)
	}
	// The configured spelling of the expiry is kept when it names the same instant as the service's.
	if t.ExpiresAt == nil {
		m.ExpiresAt = types.StringNull()
	} else if cur, err := time.Parse(time.RFC3339, m.ExpiresAt.ValueString()); err != nil || !cur.Equal(*t.ExpiresAt) {
		m.ExpiresAt = types.StringValue(t.ExpiresAt.UTC().Format(time.RFC3339))
	}
	if t.Token != "" {
		m.Token = types.StringValue(t.Token)
	} else if m.Token.IsUnknown() {
		m.Token = types.StringNull()
	}
	m.URL = types.StringValue(t.URL)
}

// allowedIPs joins the configured blocks with spaces, the form the service takes; nil leaves them unset.
func (m *clusterAgentTokenModel) allowedIPs() *string {
	if !kit.IsKnownValue(m.AllowedIPAddresses) {
		return nil
	}
	var blocks []string
	for _, v := range m.AllowedIPAddresses.Elements() {
		if s, ok := v.(types.String); ok {
			blocks = append(blocks, s.ValueString())
		}
	}
	joined := strings.Join(blocks, " ")
	return &joined
}

func (m *clusterAgentTokenModel) toCreate() buildkite.ClusterTokenCreate {
	in := buildkite.ClusterTokenCreate{Description: m.Description.ValueString(), AllowedIPAddresses: m.allowedIPs()}
	if t, err := time.Parse(time.RFC3339, m.ExpiresAt.ValueString()); err == nil {
		in.ExpiresAt = &t
	}
	return in
}

func (m *clusterAgentTokenModel) toUpdate() buildkite.ClusterTokenUpdate {
	desc := m.Description.ValueString()
	ips := m.allowedIPs()
	if ips == nil {
		// Removing the attribute clears the restriction on the service.
		empty := ""
		ips = &empty
	}
	return buildkite.ClusterTokenUpdate{Description: &desc, AllowedIPAddresses: ips}
}

func clusterAgentTokenSchema() schema.Schema {
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "An agent token of a cluster: agents started with it join the cluster. " +
			"The secret `token` is returned only when the token is created and is kept in state from then on; " +
			"an imported token therefore has no `token` value. Import it as `<cluster id>/<token id>`.",
		Attributes: kit.WithCommon("token", map[string]schema.Attribute{
			"cluster_id":   kit.ParentIDAttribute("The ID of the cluster the token belongs to.", "Cluster"),
			"cluster_uuid": kit.ComputedString("The UUID of the cluster the token belongs to; configurations written for the official provider refer to it."),
			"description": schema.StringAttribute{
				MarkdownDescription: "A description of the token, such as where its agents run.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"allowed_ip_addresses": schema.ListAttribute{
				MarkdownDescription: "The networks, in CIDR notation (for example `[\"10.0.0.0/8\", \"192.168.1.0/24\"]`), " +
					"from which agents may use the token. Unset, agents may use it from anywhere.",
				ElementType: types.StringType,
				Optional:    true,
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.ValueStringsAre(cidrValidator{}),
				},
			},
			"expires_at": schema.StringAttribute{
				MarkdownDescription: "When the token stops working, in RFC 3339 (`2030-01-01T00:00:00Z`). " +
					"Unset, it does not expire. Changing it replaces the token.",
				Optional:      true,
				Validators:    []validator.String{kit.Rfc3339Validator{}},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"token": schema.StringAttribute{
				MarkdownDescription: "The secret agents authenticate with. Known only to the Terraform run that created the token; null after import.",
				Computed:            true,
				Sensitive:           true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL),
	}
}

// cidrValidator checks that a string is one network in CIDR notation with no host bits set, since the
// service would store what the user did not mean.
type cidrValidator struct{}

func (cidrValidator) Description(context.Context) string {
	return "value must be a network in CIDR notation, such as 10.0.0.0/8"
}

func (v cidrValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v cidrValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !kit.IsKnownValue(req.ConfigValue) {
		return
	}
	s := req.ConfigValue.ValueString()
	ip, network, err := net.ParseCIDR(s)
	switch {
	case err != nil:
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid CIDR Notation",
			fmt.Sprintf("%s: %q is not a network in CIDR notation, such as 10.0.0.0/8.", req.Path, s))
	case !ip.Equal(network.IP):
		resp.Diagnostics.AddAttributeError(req.Path, "Host Bits Set in CIDR Block",
			fmt.Sprintf("%s: %q has host bits set; the network it names is %q.", req.Path, s, network.String()))
	}
}
