package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/actions"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/clusters"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/functions"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/organization"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/pipelines"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/registries"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/suites"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/teams"
)

var (
	_ provider.Provider                  = (*buildkiteProvider)(nil)
	_ provider.ProviderWithListResources = (*buildkiteProvider)(nil)
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

// timeoutsModel is the provider block's timeouts, a nested attribute as the official provider spells them.
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
	duration := []validator.String{kit.DurationValidator{}}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manage Buildkite through its REST API, and its GraphQL API where only GraphQL serves: " +
			"clusters with their queues, agent tokens, secrets, cache registries, hosted agent images, maintainers and " +
			"default queues; teams, their members and their access to pipelines, test suites and package registries; " +
			"pipelines with their schedules and webhooks, pipeline templates and organization rules; test suites; " +
			"package registries and their tokens; the organization, its members, banner, pipeline settings, " +
			"notification services and portals, and unclustered agent tokens. Data sources read the organization, " +
			"its members, teams, clusters, pipelines, templates, rules, suites, flaky tests, registries, builds and " +
			"agent metrics; list resources find what exists for `terraform query`; an ephemeral cluster agent token " +
			"hands a short-lived token to another provider without storing it. " +
			"Configurations written for the official provider need only their `source` changed: " +
			"`rest_url`, `graphql_url`, `archive_pipeline_on_delete` and `timeouts` are accepted as it spells them.",
		Attributes: map[string]schema.Attribute{
			"api_token": schema.StringAttribute{
				MarkdownDescription: "API access token. Falls back to the `" + kit.EnvAPIToken + "` environment variable. " +
					"The token needs the scopes of the resources you manage (for clusters `read_clusters` and `write_clusters`) " +
					"and `read_organizations`, so that the provider can tell an object deleted outside Terraform from a wrong " +
					"organization. A missing scope is reported at plan time, before anything changes.",
				Optional:  true,
				Sensitive: true,
			},
			"organization": schema.StringAttribute{
				MarkdownDescription: "Organization slug. Falls back to `" + kit.EnvOrgSlug + "`, then `" + kit.EnvOrganization + "`.",
				Optional:            true,
			},
			"rest_url": schema.StringAttribute{
				MarkdownDescription: "Origin of the REST API (without `/v2`). Falls back to `" + kit.EnvRESTURL +
					"`, then `" + kit.DefaultRESTURL + "`. Point it at the local emulator to test configurations without an account.",
				Optional: true,
			},
			"graphql_url": schema.StringAttribute{
				MarkdownDescription: "The GraphQL endpoint, used only for what the REST API cannot serve (unclustered agent " +
					"tokens, an organization's `enforce_2fa`, …). Falls back to `" + kit.EnvGraphQLURL + "`, then `" + kit.DefaultGraphQLURL +
					"`, except where `rest_url` is set: the API token is then sent nowhere but there, and anything that needs " +
					"GraphQL fails with an error until `graphql_url` is set as well (for the emulator, `<rest_url>/v1`).",
				Optional: true,
			},
			"agent_url": schema.StringAttribute{
				MarkdownDescription: "Origin of the agent API that serves metrics. Falls back to `" + kit.EnvAgentURL +
					"`, then `" + kit.DefaultAgentURL + "`.",
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
			"timeouts": schema.SingleNestedAttribute{
				MarkdownDescription: "How long each kind of operation may take, across its retries and rate-limit waits, " +
					"as a Go duration such as `90s` or `5m`: `timeouts = { create = \"60s\" }`, as the official provider " +
					"spells it. Each defaults to 3 minutes.",
				Optional: true,
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

// The registries below list the types by area (organization, clusters, pipelines, teams, test suites, package
// registries), each area's main type first.

// Resources implements provider.Provider.
func (p *buildkiteProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		// Organization
		organization.NewOrganizationResource,
		organization.NewOrganizationBannerResource,
		organization.NewOrganizationPipelineSettingsResource,
		organization.NewOrganizationMembershipResource,
		organization.NewOrganizationRuleResource,
		organization.NewPortalResource,
		organization.NewAgentTokenResource, // unclustered

		// Clusters
		clusters.NewClusterResource,
		clusters.NewClusterQueueResource,
		clusters.NewClusterDefaultQueueResource,
		clusters.NewClusterAgentTokenResource,
		clusters.NewClusterSecretResource,
		clusters.NewHostedAgentImageResource,
		clusters.NewClusterMaintainerResource,
		clusters.NewClusterCacheRegistryResource,

		// Pipelines
		pipelines.NewPipelineResource,
		pipelines.NewPipelineTemplateResource,
		pipelines.NewPipelineScheduleResource,
		pipelines.NewPipelineWebhookResource,
		organization.NewNotificationServiceResource,

		// Teams
		teams.NewTeamResource,
		teams.NewTeamMemberResource,
		pipelines.NewPipelineTeamResource,
		suites.NewTestSuiteTeamResource,

		// Test suites
		suites.NewTestSuiteResource,

		// Package registries
		registries.NewRegistryResource,
		registries.NewRegistryTokenResource,
		teams.NewTeamRegistryResource,
	}
}

// ListResources implements provider.ProviderWithListResources: the list resources `terraform query` runs.
func (p *buildkiteProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		// Organization
		organization.NewOrganizationMembershipListResource,
		organization.NewOrganizationRuleListResource,
		organization.NewPortalListResource,
		organization.NewAgentTokenListResource, // unclustered

		// Clusters
		clusters.NewClusterListResource,
		clusters.NewClusterQueueListResource,
		clusters.NewClusterDefaultQueueListResource,
		clusters.NewClusterAgentTokenListResource,
		clusters.NewClusterSecretListResource,
		clusters.NewHostedAgentImageListResource,
		clusters.NewClusterMaintainerListResource,
		clusters.NewClusterCacheRegistryListResource,

		// Pipelines
		pipelines.NewPipelineListResource,
		pipelines.NewPipelineTemplateListResource,
		pipelines.NewPipelineScheduleListResource,
		organization.NewNotificationServiceListResource,

		// Teams
		teams.NewTeamListResource,
		teams.NewTeamMemberListResource,
		pipelines.NewPipelineTeamListResource,
		suites.NewTestSuiteTeamListResource,

		// Test suites
		suites.NewTestSuiteListResource,

		// Package registries
		registries.NewRegistryListResource,
		registries.NewRegistryTokenListResource,
		teams.NewTeamRegistryListResource,
	}
}

// DataSources implements provider.Provider.
func (p *buildkiteProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		// Organization
		organization.NewOrganizationDataSource,
		organization.NewOrganizationMemberDataSource,
		organization.NewOrganizationMembersDataSource,
		organization.NewOrganizationMembershipDataSource,
		organization.NewOrganizationRuleDataSource,
		organization.NewOrganizationRulesDataSource,
		organization.NewPortalDataSource,
		organization.NewPortalsDataSource,
		organization.NewMetaDataSource,

		// Clusters
		clusters.NewClusterDataSource,
		clusters.NewClustersDataSource,
		clusters.NewClusterQueuesDataSource,
		clusters.NewClusterNetworkRangesDataSource,
		clusters.NewClusterCacheRegistryDataSource,
		organization.NewAgentMetricsDataSource,

		// Pipelines
		pipelines.NewPipelineDataSource,
		pipelines.NewPipelinesDataSource,
		pipelines.NewPipelineTemplateDataSource,
		pipelines.NewPipelineTemplatesDataSource,
		pipelines.NewSignedPipelineStepsDataSource,
		pipelines.NewBuildsDataSource,

		// Teams
		teams.NewTeamDataSource,
		teams.NewTeamsDataSource,
		teams.NewTeamMembersDataSource,

		// Test suites
		suites.NewTestSuiteDataSource,
		suites.NewTestSuitesDataSource,
		suites.NewFlakyTestsDataSource,

		// Package registries
		registries.NewRegistryDataSource,
		registries.NewRegistriesDataSource,
	}
}

var (
	_ provider.ProviderWithActions            = (*buildkiteProvider)(nil)
	_ provider.ProviderWithFunctions          = (*buildkiteProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*buildkiteProvider)(nil)
)

// EphemeralResources implements provider.ProviderWithEphemeralResources (Terraform 1.10+).
func (p *buildkiteProvider) EphemeralResources(_ context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		clusters.NewClusterAgentTokenEphemeral,
	}
}

// Actions implements provider.ProviderWithActions (Terraform 1.14+).
func (p *buildkiteProvider) Actions(_ context.Context) []func() action.Action {
	return []func() action.Action{
		actions.NewCreateBuildAction,
		actions.NewSetQueueDispatchAction,
	}
}

// Functions implements provider.ProviderWithFunctions (Terraform 1.8+).
func (p *buildkiteProvider) Functions(_ context.Context) []func() function.Function {
	return []func() function.Function{
		functions.NewPipelineSlugFunction,
		functions.NewGraphQLIDFunction,
		functions.NewUUIDFunction,
	}
}
