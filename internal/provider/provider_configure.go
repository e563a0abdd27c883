package provider

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// Configure implements provider.Provider: it reads the provider block (falling back to the environment)
// and builds the REST client once. First contact with the service (contact) is made just before the
// client's first request, not here: a plan that needs no request (validation errors, new objects planned
// with -refresh=false) works without reaching the service, and a wrong address, token or organization is
// still one clear error before any object is read or changed.
func (p *buildkiteProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	s := readSettings(cfg, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	ctx = tflog.MaskFieldValuesWithFieldKeys(ctx, "api_token", "token")
	data := &providerData{
		org:                     s.org,
		timeouts:                s.timeouts,
		archivePipelineOnDelete: s.archivePipelineOnDelete,
	}
	client, err := buildkite.NewClient(buildkite.Config{
		BaseURL:      s.restURL,
		AgentURL:     s.agentURL,
		GraphQLURL:   s.graphqlURL,
		Organization: s.org,
		Token:        s.token,
		UserAgent:    fmt.Sprintf("terraform-provider-buildkite/%s terraform/%s", p.version, req.TerraformVersion),
		MaxRetries:   s.maxRetries,
		Logger:       clientLogger(),
		// The client lives for one Terraform command, so a listing may answer the reads of a refresh.
		ListReadTTL: buildkite.DefaultListReadTTL,
		Contact:     func(ctx context.Context) error { return contact(ctx, data, s.restURL) },
	})
	if err != nil {
		resp.Diagnostics.AddError("Unable to Create Buildkite Client", "The REST client could not be built: "+err.Error())
		return
	}
	data.client = client
	tflog.Debug(ctx, "configured buildkite client", map[string]any{"organization": s.org, "rest_url": s.restURL})

	resp.ResourceData = data
	resp.DataSourceData = data
	resp.ListResourceData = data
	resp.ActionData = data
}

// settings are the provider block's values, with the environment's and the defaults filled in.
type settings struct {
	token, org, restURL, agentURL string
	// graphqlURL is the GraphQL endpoint, or "" for none (graphqlEndpoint).
	graphqlURL              string
	maxRetries              int
	timeouts                operationTimeouts
	archivePipelineOnDelete bool
}

// readSettings reads the provider block: one attribute error per unknown, missing or invalid value.
func readSettings(cfg providerModel, diags *diag.Diagnostics) settings {
	unknown := func(v attr.Value, name, env string) {
		if v.IsUnknown() {
			detail := fmt.Sprintf("The provider cannot be configured while %q is unknown. Set it to a known value", name)
			if env != "" {
				detail += ", or leave it unset and use the " + env + " environment variable"
			}
			diags.AddAttributeError(path.Root(name), "Unknown Buildkite "+name, detail+".")
		}
	}
	unknown(cfg.APIToken, "api_token", envAPIToken)
	unknown(cfg.Organization, "organization", envOrgSlug)
	unknown(cfg.RESTURL, "rest_url", envRESTURL)
	unknown(cfg.AgentURL, "agent_url", envAgentURL)
	unknown(cfg.GraphQLURL, "graphql_url", envGraphQLURL)
	unknown(cfg.MaxRetries, "max_retries", "")
	unknown(cfg.ArchivePipelineOnDelete, "archive_pipeline_on_delete", "")
	if diags.HasError() {
		return settings{}
	}

	s := settings{
		token:                   valueOrEnv(cfg.APIToken, envAPIToken),
		org:                     valueOrEnv(cfg.Organization, envOrgSlug, envOrganization),
		restURL:                 valueOrEnv(cfg.RESTURL, envRESTURL),
		agentURL:                valueOrEnv(cfg.AgentURL, envAgentURL),
		archivePipelineOnDelete: cfg.ArchivePipelineOnDelete.ValueBool(),
	}
	s.graphqlURL = graphqlEndpoint(valueOrEnv(cfg.GraphQLURL, envGraphQLURL), s.restURL)
	if s.restURL == "" {
		s.restURL = defaultRESTURL
	}
	if s.agentURL == "" {
		s.agentURL = defaultAgentURL
	}
	if s.token == "" {
		diags.AddAttributeError(path.Root("api_token"), "Missing Buildkite API Token",
			"Set \"api_token\" in the provider configuration or the "+envAPIToken+" environment variable to an API access token.")
	}
	if s.org == "" {
		diags.AddAttributeError(path.Root("organization"), "Missing Buildkite Organization",
			"Set \"organization\" in the provider configuration, or the "+envOrgSlug+" environment variable, to the organization slug.")
	}
	for name, v := range map[string]string{"rest_url": s.restURL, "agent_url": s.agentURL, "graphql_url": s.graphqlURL} {
		if name == "graphql_url" && v == "" {
			continue // none: nothing needs it until the configuration does (graphql_scope.go)
		}
		if u, err := url.Parse(v); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			diags.AddAttributeError(path.Root(name), "Invalid Buildkite "+name,
				fmt.Sprintf("%q must be an absolute http or https URL, got %q.", name, v))
		}
	}
	s.timeouts = configuredTimeouts(cfg.Timeouts, diags)

	// Unset, a call retries until its operation's timeout, so a burst of faults cannot fail a plan.
	if !cfg.MaxRetries.IsNull() {
		s.maxRetries = int(cfg.MaxRetries.ValueInt64())
		if s.maxRetries == 0 {
			s.maxRetries = -1 // the client reads 0 as "until the deadline"
		}
	}
	return s
}

// graphqlEndpoint is the GraphQL endpoint: graphql_url (or its environment variable) when set; otherwise the
// default, unless rest_url (or its environment variable) names an origin other than the default one. A
// configuration that points the provider at another service (the emulator, a proxy) must not have its token
// sent to Buildkite's GraphQL origin behind its back: it has none, and what needs GraphQL says to set
// graphql_url.
func graphqlEndpoint(graphqlURL, restURL string) string {
	switch {
	case graphqlURL != "":
		return graphqlURL
	case restURL != "" && strings.TrimRight(restURL, "/") != defaultRESTURL:
		return ""
	}
	return defaultGraphQLURL
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

// contactFailure is a first-contact check that failed: the diagnostic's words, and whether the service could
// not be reached at all (a plan may then go on where it needs no request).
type contactFailure struct {
	summary, detail string
	unreachable     bool
}

func (f *contactFailure) Error() string { return f.summary + ": " + f.detail }

// contact asks, at once, for the API token (whether it works at all, and which scopes it holds, so that
// resources can refuse at plan time what would fail) and for the organization (whether the slug is right
// and the token sees it, so that no 404 of an object is believed before it is known). The client runs it
// just before its first request (buildkite.Config.Contact); a service that cannot be reached fails it
// within seconds, naming rest_url. What asking again cannot change is final for the client.
func contact(ctx context.Context, data *providerData, restURL string) error {
	ctx, cancel := context.WithTimeout(ctx, data.timeouts.of(opRead))
	defer cancel()
	var (
		wg     sync.WaitGroup
		tok    *buildkite.AccessToken
		tokErr error
		orgErr error
	)
	wg.Go(func() { tok, tokErr = data.client.AccessToken.Get(ctx) })
	wg.Go(func() { _, orgErr = data.client.Organizations.Get(ctx) })
	wg.Wait()

	switch {
	case tokErr == nil:
		data.token = tok
	case buildkite.IsUnreachable(tokErr):
		return buildkite.FinalContact(&contactFailure{summary: "Unable to Reach Buildkite", unreachable: true, detail: fmt.Sprintf(
			"No connection could be made to %s (%s). Check \"rest_url\" (or the %s environment variable), and that the "+
				"service, or the emulator, is running there.", restURL, tokErr, envRESTURL)})
	case buildkite.IsUnauthorized(tokErr):
		return buildkite.FinalContact(&contactFailure{summary: "Invalid Buildkite API Token", detail: fmt.Sprintf(
			"The service refused the API token (%s). Check \"api_token\" or the %s environment variable.", describeError(tokErr), envAPIToken)})
	case buildkite.IsNotFound(tokErr), buildkite.IsForbidden(tokErr):
		// A service or proxy that does not answer the endpoint: scopes go unchecked and calls report their own errors.
		tflog.Warn(ctx, "GET /v2/access-token is not answered; API token scopes will not be checked at plan time", map[string]any{"error": tokErr.Error()})
	default:
		return &contactFailure{summary: "Unable to Reach Buildkite", detail: fmt.Sprintf("Checking the API token against %s: %s", restURL, describeError(tokErr))}
	}
	return confirmedAtContact(data, orgErr)
}

// confirmedAtContact applies the organization's answer to first contact: found, it is confirmed for the run
// (confirmOrganization makes no second call); not found, it is a final failure naming organization. A token
// that may not read organizations (403) leaves the question to confirmOrganization, which asks only when an
// object answers 404.
func confirmedAtContact(data *providerData, orgErr error) error {
	switch {
	case orgErr == nil:
		data.orgAtContact.Store(true)
	case buildkite.IsNotFound(orgErr):
		return buildkite.FinalContact(&contactFailure{summary: "Unknown Buildkite Organization", detail: fmt.Sprintf(
			"The organization %q does not exist or the API token cannot see it (%s). Check \"organization\" (or the %s "+
				"environment variable) against the slug in your organization's URL, and that the API token was created "+
				"for that organization. Nothing was read or changed.", data.org, describeError(orgErr), envOrgSlug)})
	}
	return nil
}
