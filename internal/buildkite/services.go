package buildkite

// The services of every area of the API. Each is declared here so that the Client wires them all in one
// place; its methods and types live in the area's own file.
type (
	// TeamsService manages teams.
	TeamsService struct{ client *Client }
	// TeamMembersService manages the members of teams.
	TeamMembersService struct{ client *Client }
	// TeamPipelinesService manages teams' access to pipelines.
	TeamPipelinesService struct{ client *Client }
	// TeamSuitesService manages teams' access to test suites.
	TeamSuitesService struct{ client *Client }
	// PipelinesService manages pipelines, including archiving.
	PipelinesService struct{ client *Client }
	// PipelineTemplatesService manages pipeline templates.
	PipelineTemplatesService struct{ client *Client }
	// RulesService manages organization rules.
	RulesService struct{ client *Client }
	// BuildsService reads builds.
	BuildsService struct{ client *Client }
	// TestSuitesService manages analytics test suites.
	TestSuitesService struct{ client *Client }
	// FlakyTestsService reads the flaky tests of suites.
	FlakyTestsService struct{ client *Client }
	// RegistriesService manages package registries.
	RegistriesService struct{ client *Client }
	// RegistryTokensService manages the tokens of package registries.
	RegistryTokensService struct{ client *Client }
	// MetricsService reads agent metrics from the agent API.
	MetricsService struct{ client *Client }
)

// services wires every service to c.
func (c *Client) services() {
	c.Clusters = &ClustersService{client: c}
	c.Queues = &QueuesService{client: c}
	c.ClusterTokens = &ClusterTokensService{client: c}
	c.AccessToken = &AccessTokenService{client: c}
	c.Organizations = &OrganizationsService{client: c}
	c.Teams = &TeamsService{client: c}
	c.TeamMembers = &TeamMembersService{client: c}
	c.TeamPipelines = &TeamPipelinesService{client: c}
	c.TeamSuites = &TeamSuitesService{client: c}
	c.Pipelines = &PipelinesService{client: c}
	c.PipelineTemplates = &PipelineTemplatesService{client: c}
	c.Rules = &RulesService{client: c}
	c.Builds = &BuildsService{client: c}
	c.TestSuites = &TestSuitesService{client: c}
	c.FlakyTests = &FlakyTestsService{client: c}
	c.Registries = &RegistriesService{client: c}
	c.RegistryTokens = &RegistryTokensService{client: c}
	c.Metrics = &MetricsService{client: c}
	c.PipelineSchedules = &PipelineSchedulesService{client: c}
	c.ClusterSecrets = &ClusterSecretsService{client: c}
	c.ClusterMaintainers = &ClusterMaintainersService{client: c}
	c.Meta = &MetaService{client: c}
}
