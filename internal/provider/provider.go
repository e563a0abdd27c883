// Package provider implements the buildkite Terraform provider on terraform-plugin-framework.
package provider

import (
	"context"
	"fmt"
	"net/url"
	"os"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var _ provider.Provider = (*buildkiteProvider)(nil)

// Defaults and environment variables of the provider configuration.
const (
	defaultAPIURL   = "https://api.buildkite.com"
	defaultAgentURL = "https://agent.buildkite.com"

	envAPIToken     = "BUILDKITE_API_TOKEN"
	envOrgSlug      = "BUILDKITE_ORGANIZATION_SLUG"
	envOrganization = "BUILDKITE_ORGANIZATION"
	envRESTURL      = "BUILDKITE_REST_URL"
	envAgentURL     = "BUILDKITE_AGENT_URL"
)

// New returns a constructor of the provider at the given version, as providerserver expects.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		return &buildkiteProvider{version: version}
	}
}

type buildkiteProvider struct {
	version string
}

type providerModel struct {
	APIToken     types.String `tfsdk:"api_token"`
	Organization types.String `tfsdk:"organization"`
	APIURL       types.String `tfsdk:"api_url"`
	AgentURL     types.String `tfsdk:"agent_url"`
	MaxRetries   types.Int64  `tfsdk:"max_retries"`
}

// providerData is what resources and data sources receive in Configure.
type providerData struct {
	client   *buildkite.Client
	agentURL string
}

func (p *buildkiteProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "buildkite"
	resp.Version = p.version
}

func (p *buildkiteProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manage Buildkite clusters, queues, agent tokens, teams, pipelines and more through the REST API.",
		Attributes: map[string]schema.Attribute{
			"api_token": schema.StringAttribute{
				MarkdownDescription: "API access token. Falls back to the `" + envAPIToken + "` environment variable. " +
					"The token needs the scopes of the resources you manage (for clusters `read_clusters` and `write_clusters`).",
				Optional:  true,
				Sensitive: true,
			},
			"organization": schema.StringAttribute{
				MarkdownDescription: "Organization slug. Falls back to `" + envOrgSlug + "`, then `" + envOrganization + "`.",
				Optional:            true,
			},
			"api_url": schema.StringAttribute{
				MarkdownDescription: "Origin of the REST API (without `/v2`). Falls back to `" + envRESTURL +
					"`, then `" + defaultAPIURL + "`. Point it at the local emulator to test configurations without an account.",
				Optional: true,
			},
			"agent_url": schema.StringAttribute{
				MarkdownDescription: "Origin of the agent API that serves metrics. Falls back to `" + envAgentURL +
					"`, then `" + defaultAgentURL + "`.",
				Optional: true,
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: "How many times a request is retried after a rate limit, a server error or a " +
					"connection failure. Defaults to 5; 0 disables retries.",
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(0, 50)},
			},
		},
	}
}

func (p *buildkiteProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}

	unknown := func(v types.String, attr, env string) {
		if v.IsUnknown() {
			resp.Diagnostics.AddAttributeError(path.Root(attr), "Unknown Buildkite "+attr,
				fmt.Sprintf("The provider cannot be configured while %q is unknown. Set it to a known value, or leave it unset and use the %s environment variable.", attr, env))
		}
	}
	unknown(cfg.APIToken, "api_token", envAPIToken)
	unknown(cfg.Organization, "organization", envOrgSlug)
	unknown(cfg.APIURL, "api_url", envRESTURL)
	unknown(cfg.AgentURL, "agent_url", envAgentURL)
	if cfg.MaxRetries.IsUnknown() {
		resp.Diagnostics.AddAttributeError(path.Root("max_retries"), "Unknown Buildkite max_retries",
			"The provider cannot be configured while \"max_retries\" is unknown. Set it to a known value or leave it unset.")
	}
	if resp.Diagnostics.HasError() {
		return
	}

	token := valueOrEnv(cfg.APIToken, envAPIToken)
	org := valueOrEnv(cfg.Organization, envOrgSlug, envOrganization)
	apiURL := valueOrEnv(cfg.APIURL, envRESTURL)
	if apiURL == "" {
		apiURL = defaultAPIURL
	}
	agentURL := valueOrEnv(cfg.AgentURL, envAgentURL)
	if agentURL == "" {
		agentURL = defaultAgentURL
	}

	if token == "" {
		resp.Diagnostics.AddAttributeError(path.Root("api_token"), "Missing Buildkite API Token",
			"Set \"api_token\" in the provider configuration or the "+envAPIToken+" environment variable to an API access token.")
	}
	if org == "" {
		resp.Diagnostics.AddAttributeError(path.Root("organization"), "Missing Buildkite Organization",
			"Set \"organization\" in the provider configuration, or the "+envOrgSlug+" environment variable, to the organization slug.")
	}
	for attr, v := range map[string]string{"api_url": apiURL, "agent_url": agentURL} {
		if u, err := url.Parse(v); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			resp.Diagnostics.AddAttributeError(path.Root(attr), "Invalid Buildkite "+attr,
				fmt.Sprintf("%q must be an absolute http or https URL, got %q.", attr, v))
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}

	maxRetries := 5
	if !cfg.MaxRetries.IsNull() {
		maxRetries = int(cfg.MaxRetries.ValueInt64())
		if maxRetries == 0 {
			maxRetries = -1 // the client reads 0 as "default"
		}
	}

	ctx = tflog.MaskFieldValuesWithFieldKeys(ctx, "api_token", "token")
	client, err := buildkite.NewClient(buildkite.Config{
		BaseURL:      apiURL,
		AgentURL:     agentURL,
		Organization: org,
		Token:        token,
		UserAgent:    fmt.Sprintf("terraform-provider-buildkite/%s terraform/%s", p.version, req.TerraformVersion),
		MaxRetries:   maxRetries,
	})
	if err != nil {
		resp.Diagnostics.AddError("Unable to Create Buildkite Client", "The REST client could not be built: "+err.Error())
		return
	}
	tflog.Debug(ctx, "configured buildkite client", map[string]any{"organization": org, "api_url": apiURL})

	data := &providerData{client: client, agentURL: agentURL}
	resp.ResourceData = data
	resp.DataSourceData = data
}

func (p *buildkiteProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewClusterResource,
		NewClusterQueueResource,
		NewClusterAgentTokenResource,
		NewClusterDefaultQueueResource,
	}
}

func (p *buildkiteProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return nil
}

// valueOrEnv returns the configured value, else the first non-empty environment variable.
func valueOrEnv(v types.String, envs ...string) string {
	if !v.IsNull() && !v.IsUnknown() {
		return v.ValueString()
	}
	for _, e := range envs {
		if s := os.Getenv(e); s != "" {
			return s
		}
	}
	return ""
}
