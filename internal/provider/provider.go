package provider

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ provider.Provider                  = (*buildkiteProvider)(nil)
	_ provider.ProviderWithListResources = (*buildkiteProvider)(nil)
)

// Defaults and environment variables of the provider configuration.
const (
	defaultRESTURL  = "https://api.buildkite.com"
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
	APIToken                types.String   `tfsdk:"api_token"`
	Organization            types.String   `tfsdk:"organization"`
	RESTURL                 types.String   `tfsdk:"rest_url"`
	GraphQLURL              types.String   `tfsdk:"graphql_url"`
	AgentURL                types.String   `tfsdk:"agent_url"`
	MaxRetries              types.Int64    `tfsdk:"max_retries"`
	ArchivePipelineOnDelete types.Bool     `tfsdk:"archive_pipeline_on_delete"`
	Timeouts                *timeoutsModel `tfsdk:"timeouts"`
}

// timeoutsModel is the provider block's timeouts, as the official provider spells them.
type timeoutsModel struct {
	Create types.String `tfsdk:"create"`
	Read   types.String `tfsdk:"read"`
	Update types.String `tfsdk:"update"`
	Delete types.String `tfsdk:"delete"`
}

func (p *buildkiteProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "buildkite"
	resp.Version = p.version
}

func (p *buildkiteProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	duration := []validator.String{durationValidator{}}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manage Buildkite through its REST API: clusters with their queues, agent tokens and default " +
			"queues; teams, their members and their access to pipelines and test suites; pipelines, pipeline templates " +
			"and organization rules; test suites; package registries and their tokens. Data sources read the " +
			"organization, its members, teams, clusters, pipelines, templates, rules, suites, flaky tests, " +
			"registries, builds and agent metrics. " +
			"Configurations written for the official provider need only their `source` changed: " +
			"`rest_url`, `graphql_url`, `archive_pipeline_on_delete` and `timeouts` are accepted as it spells them.",
		Attributes: map[string]schema.Attribute{
			"api_token": schema.StringAttribute{
				MarkdownDescription: "API access token. Falls back to the `" + envAPIToken + "` environment variable. " +
					"The token needs the scopes of the resources you manage (for clusters `read_clusters` and `write_clusters`) " +
					"and `read_organizations`, so that the provider can tell an object deleted outside Terraform from a wrong " +
					"organization. A missing scope is reported at plan time, before anything changes.",
				Optional:  true,
				Sensitive: true,
			},
			"organization": schema.StringAttribute{
				MarkdownDescription: "Organization slug. Falls back to `" + envOrgSlug + "`, then `" + envOrganization + "`.",
				Optional:            true,
			},
			"rest_url": schema.StringAttribute{
				MarkdownDescription: "Origin of the REST API (without `/v2`). Falls back to `" + envRESTURL +
					"`, then `" + defaultRESTURL + "`. Point it at the local emulator to test configurations without an account.",
				Optional: true,
			},
			"graphql_url": schema.StringAttribute{
				MarkdownDescription: "Accepted so that configurations written for the official provider keep working; " +
					"this provider only uses the REST API, so the value is ignored (with a warning).",
				Optional: true,
			},
			"agent_url": schema.StringAttribute{
				MarkdownDescription: "Origin of the agent API that serves metrics. Falls back to `" + envAgentURL +
					"`, then `" + defaultAgentURL + "`.",
				Optional: true,
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: "At most how many times a request is retried after a rate limit, a server error or " +
					"a connection failure. Unset, requests are retried until the operation's timeout (see `timeouts`); " +
					"0 disables retries.",
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(0, 50)},
			},
			"archive_pipeline_on_delete": schema.BoolAttribute{
				MarkdownDescription: "Default of `buildkite_pipeline.archive_on_delete`: archive pipelines instead of deleting " +
					"them when they leave the configuration. Defaults to `false`.",
				Optional: true,
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": schema.SingleNestedBlock{
				MarkdownDescription: "How long each kind of operation may take, across its retries and rate-limit waits, " +
					"as a Go duration such as `90s` or `5m`. Each defaults to 3 minutes.",
				Attributes: map[string]schema.Attribute{
					"create": schema.StringAttribute{MarkdownDescription: "Timeout of creates.", Optional: true, Validators: duration},
					"read":   schema.StringAttribute{MarkdownDescription: "Timeout of reads (refresh, import, data sources).", Optional: true, Validators: duration},
					"update": schema.StringAttribute{MarkdownDescription: "Timeout of updates.", Optional: true, Validators: duration},
					"delete": schema.StringAttribute{MarkdownDescription: "Timeout of deletes.", Optional: true, Validators: duration},
				},
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

	unknown := func(v attr.Value, name, env string) {
		if v.IsUnknown() {
			detail := fmt.Sprintf("The provider cannot be configured while %q is unknown. Set it to a known value", name)
			if env != "" {
				detail += ", or leave it unset and use the " + env + " environment variable"
			}
			resp.Diagnostics.AddAttributeError(path.Root(name), "Unknown Buildkite "+name, detail+".")
		}
	}
	unknown(cfg.APIToken, "api_token", envAPIToken)
	unknown(cfg.Organization, "organization", envOrgSlug)
	unknown(cfg.RESTURL, "rest_url", envRESTURL)
	unknown(cfg.AgentURL, "agent_url", envAgentURL)
	unknown(cfg.MaxRetries, "max_retries", "")
	unknown(cfg.ArchivePipelineOnDelete, "archive_pipeline_on_delete", "")
	if resp.Diagnostics.HasError() {
		return
	}

	token := valueOrEnv(cfg.APIToken, envAPIToken)
	org := valueOrEnv(cfg.Organization, envOrgSlug, envOrganization)
	restURL := valueOrEnv(cfg.RESTURL, envRESTURL)
	if restURL == "" {
		restURL = defaultRESTURL
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
	for name, v := range map[string]string{"rest_url": restURL, "agent_url": agentURL} {
		if u, err := url.Parse(v); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			resp.Diagnostics.AddAttributeError(path.Root(name), "Invalid Buildkite "+name,
				fmt.Sprintf("%q must be an absolute http or https URL, got %q.", name, v))
		}
	}
	if !cfg.GraphQLURL.IsNull() {
		resp.Diagnostics.AddAttributeWarning(path.Root("graphql_url"), "GraphQL URL Ignored",
			"This provider uses only the REST API (rest_url); graphql_url is accepted for configurations written for the official provider and is not used.")
	}
	timeouts := configuredTimeouts(cfg.Timeouts, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	// Unset, a call retries until its operation's timeout, so a burst of faults cannot fail a plan.
	maxRetries := 0
	if !cfg.MaxRetries.IsNull() {
		maxRetries = int(cfg.MaxRetries.ValueInt64())
		if maxRetries == 0 {
			maxRetries = -1 // the client reads 0 as "until the deadline"
		}
	}

	ctx = tflog.MaskFieldValuesWithFieldKeys(ctx, "api_token", "token")
	client, err := buildkite.NewClient(buildkite.Config{
		BaseURL:      restURL,
		AgentURL:     agentURL,
		Organization: org,
		Token:        token,
		UserAgent:    fmt.Sprintf("terraform-provider-buildkite/%s terraform/%s", p.version, req.TerraformVersion),
		MaxRetries:   maxRetries,
		Logger:       buildkite.TFLog(),
		// The client lives for one Terraform command, so a listing may answer the reads of a refresh.
		ListReadTTL: buildkite.DefaultListReadTTL,
	})
	if err != nil {
		resp.Diagnostics.AddError("Unable to Create Buildkite Client", "The REST client could not be built: "+err.Error())
		return
	}
	data := &providerData{
		client:                  client,
		org:                     org,
		timeouts:                timeouts,
		archivePipelineOnDelete: cfg.ArchivePipelineOnDelete.ValueBool(),
	}

	// One call tells whether the token works at all (a 401 here is a plan-time error on api_token, not a
	// failed apply) and which scopes it holds, so that resources can refuse at plan time what would fail.
	checkCtx, cancel := context.WithTimeout(ctx, timeouts.of(opRead))
	defer cancel()
	tok, err := client.AccessToken.Get(checkCtx)
	switch {
	case err == nil:
		data.token = tok
	case buildkite.IsUnauthorized(err):
		resp.Diagnostics.AddAttributeError(path.Root("api_token"), "Invalid Buildkite API Token",
			fmt.Sprintf("The service refused the API token (%s). Check \"api_token\" or the %s environment variable.", describeError(err), envAPIToken))
		return
	case buildkite.IsNotFound(err), buildkite.IsForbidden(err):
		// A service or proxy that does not answer the endpoint: scopes go unchecked and calls report their own errors.
		tflog.Warn(ctx, "GET /v2/access-token is not answered; API token scopes will not be checked at plan time", map[string]any{"error": err.Error()})
	default:
		resp.Diagnostics.AddError("Unable to Reach Buildkite",
			fmt.Sprintf("Checking the API token against %s: %s", restURL, describeError(err)))
		return
	}
	tflog.Debug(ctx, "configured buildkite client", map[string]any{"organization": org, "rest_url": restURL})

	resp.ResourceData = data
	resp.DataSourceData = data
	resp.ListResourceData = data
	resp.ActionData = data
}

// configuredTimeouts parses the timeouts block; validation has already refused values that do not parse.
func configuredTimeouts(m *timeoutsModel, diags *diag.Diagnostics) operationTimeouts {
	var t operationTimeouts
	if m == nil {
		return t
	}
	for op, v := range map[operation]types.String{opCreate: m.Create, opRead: m.Read, opUpdate: m.Update, opDelete: m.Delete} {
		if v.IsNull() || v.IsUnknown() {
			continue
		}
		d, err := time.ParseDuration(v.ValueString())
		if err != nil || d <= 0 {
			diags.AddAttributeError(path.Root("timeouts"), "Invalid Timeout", fmt.Sprintf("%q is not a positive duration such as \"90s\" or \"5m\".", v.ValueString()))
			continue
		}
		t[op] = d
	}
	return t
}

func (p *buildkiteProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewClusterResource,
		NewClusterQueueResource,
		NewClusterAgentTokenResource,
		NewClusterDefaultQueueResource,
		NewTeamResource,
		NewTeamMemberResource,
		NewPipelineTeamResource,
		NewTestSuiteTeamResource,
		NewPipelineResource,
		NewPipelineTemplateResource,
		NewOrganizationRuleResource,
		NewTestSuiteResource,
		NewRegistryResource,
		NewRegistryTokenResource,
		NewPipelineScheduleResource,
		NewClusterSecretResource,
		NewClusterMaintainerResource,
	}
}

// ListResources implements provider.ProviderWithListResources: the list resources `terraform query` runs.
func (p *buildkiteProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		NewClusterListResource,
		NewClusterQueueListResource,
		NewClusterAgentTokenListResource,
		NewClusterDefaultQueueListResource,
		NewTestSuiteListResource,
		NewRegistryListResource,
		NewRegistryTokenListResource,
		NewTeamListResource,
		NewTeamMemberListResource,
		NewPipelineTeamListResource,
		NewTestSuiteTeamListResource,
		NewPipelineListResource,
		NewPipelineTemplateListResource,
		NewOrganizationRuleListResource,
		NewPipelineScheduleListResource,
		NewClusterSecretListResource,
		NewClusterMaintainerListResource,
	}
}

func (p *buildkiteProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewOrganizationDataSource,
		NewOrganizationMemberDataSource,
		NewOrganizationMembersDataSource,
		NewTeamDataSource,
		NewTeamsDataSource,
		NewTeamMembersDataSource,
		NewPipelineDataSource,
		NewPipelinesDataSource,
		NewPipelineTemplateDataSource,
		NewPipelineTemplatesDataSource,
		NewOrganizationRuleDataSource,
		NewOrganizationRulesDataSource,
		NewClusterDataSource,
		NewClustersDataSource,
		NewClusterQueuesDataSource,
		NewTestSuiteDataSource,
		NewTestSuitesDataSource,
		NewFlakyTestsDataSource,
		NewRegistryDataSource,
		NewRegistriesDataSource,
		NewBuildsDataSource,
		NewAgentMetricsDataSource,
		NewMetaDataSource,
	}
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

var (
	_ provider.ProviderWithActions   = (*buildkiteProvider)(nil)
	_ provider.ProviderWithFunctions = (*buildkiteProvider)(nil)
)

// Actions implements provider.ProviderWithActions (Terraform 1.14+).
func (p *buildkiteProvider) Actions(_ context.Context) []func() action.Action {
	return []func() action.Action{
		NewCreateBuildAction,
		NewSetQueueDispatchAction,
	}
}

// Functions implements provider.ProviderWithFunctions (Terraform 1.8+).
func (p *buildkiteProvider) Functions(_ context.Context) []func() function.Function {
	return []func() function.Function{
		NewPipelineSlugFunction,
		NewGraphQLIDFunction,
		NewUUIDFunction,
	}
}
