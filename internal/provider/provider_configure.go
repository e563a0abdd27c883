package provider

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
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
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// Configure implements provider.Provider: it reads the provider block (falling back to the environment),
// builds the REST client once, and makes first contact with the service (contact), so that a wrong address,
// token or organization is one error on the attribute to fix, at plan time, before any object is planned or
// read, and not one per resource. Terraform configures the provider once per command (validate never does,
// so it makes no request).
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
	data := &kit.ProviderData{
		Org:                     s.org,
		Timeouts:                s.timeouts,
		ArchivePipelineOnDelete: s.archivePipelineOnDelete,
	}
	client, err := buildkite.NewClient(buildkite.Config{
		BaseURL:      s.restURL,
		AgentURL:     s.agentURL,
		GraphQLURL:   s.graphqlURL,
		Organization: s.org,
		Token:        s.token,
		UserAgent:    fmt.Sprintf("terraform-provider-buildkite/%s terraform/%s", p.version, req.TerraformVersion),
		MaxRetries:   s.maxRetries,
		Logger:       kit.ClientLogger(),
		// The client lives for one Terraform command, so a listing may answer the reads of a refresh.
		ListReadTTL: buildkite.DefaultListReadTTL,
		Contact:     func(ctx context.Context) error { return contact(ctx, data, s) },
	})
	if err != nil {
		resp.Diagnostics.AddError("Unable to Create Buildkite Client", "The REST client could not be built: "+err.Error())
		return
	}
	data.Client = client
	resp.Diagnostics.Append(graphqlHostWarning(s)...)
	if err := client.Contact(ctx); err != nil {
		kit.AddContactError(err, &resp.Diagnostics, true)
		return
	}
	tflog.Debug(ctx, "configured buildkite client", map[string]any{"organization": s.org, "rest_url": s.restURL})

	resp.ResourceData = data
	resp.DataSourceData = data
	resp.ListResourceData = data
	resp.ActionData = data
	resp.EphemeralResourceData = data
}

// settings are the provider block's values, with the environment's and the defaults filled in.
type settings struct {
	token, org, restURL, agentURL string
	// graphqlURL is the GraphQL endpoint, or "" for none (graphqlEndpoint).
	graphqlURL string
	// tokenFrom, orgFrom, restFrom and graphqlFrom name where each value came from, for the errors and
	// warnings that ask to change it: the attribute, its environment variable, or "the default".
	tokenFrom, orgFrom, restFrom, graphqlFrom string
	maxRetries                                int
	timeouts                                  kit.OperationTimeouts
	archivePipelineOnDelete                   bool
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
	unknown(cfg.APIToken, "api_token", kit.EnvAPIToken)
	unknown(cfg.Organization, "organization", kit.EnvOrgSlug)
	unknown(cfg.RESTURL, "rest_url", kit.EnvRESTURL)
	unknown(cfg.AgentURL, "agent_url", kit.EnvAgentURL)
	unknown(cfg.GraphQLURL, "graphql_url", kit.EnvGraphQLURL)
	unknown(cfg.MaxRetries, "max_retries", "")
	unknown(cfg.ArchivePipelineOnDelete, "archive_pipeline_on_delete", "")
	if diags.HasError() {
		return settings{}
	}

	s := settings{
		token:                   kit.ValueOrEnv(cfg.APIToken, kit.EnvAPIToken),
		org:                     kit.ValueOrEnv(cfg.Organization, kit.EnvOrgSlug, kit.EnvOrganization),
		restURL:                 kit.ValueOrEnv(cfg.RESTURL, kit.EnvRESTURL),
		agentURL:                kit.ValueOrEnv(cfg.AgentURL, kit.EnvAgentURL),
		archivePipelineOnDelete: cfg.ArchivePipelineOnDelete.ValueBool(),
	}
	s.graphqlURL = GraphQLEndpoint(kit.ValueOrEnv(cfg.GraphQLURL, kit.EnvGraphQLURL), s.restURL)
	s.tokenFrom = sourceOf(cfg.APIToken, "api_token", kit.EnvAPIToken)
	s.orgFrom = sourceOf(cfg.Organization, "organization", kit.EnvOrgSlug, kit.EnvOrganization)
	s.restFrom = sourceOf(cfg.RESTURL, "rest_url", kit.EnvRESTURL)
	s.graphqlFrom = sourceOf(cfg.GraphQLURL, "graphql_url", kit.EnvGraphQLURL)
	if s.restURL == "" {
		s.restURL = kit.DefaultRESTURL
	}
	if s.agentURL == "" {
		s.agentURL = kit.DefaultAgentURL
	}
	if s.token == "" {
		diags.AddAttributeError(path.Root("api_token"), "Missing Buildkite API Token",
			"Set \"api_token\" in the provider configuration or the "+kit.EnvAPIToken+" environment variable to an API access token.")
	}
	if s.org == "" {
		diags.AddAttributeError(path.Root("organization"), "Missing Buildkite Organization",
			"Set \"organization\" in the provider configuration, or the "+kit.EnvOrgSlug+" environment variable, to the organization slug.")
	}
	for name, v := range map[string]string{"rest_url": s.restURL, "agent_url": s.agentURL, "graphql_url": s.graphqlURL} {
		if name == "graphql_url" && v == "" {
			continue // none: nothing needs it until the configuration does (kit/graphql_scope.go)
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
func GraphQLEndpoint(graphqlURL, restURL string) string {
	switch {
	case graphqlURL != "":
		return graphqlURL
	case restURL != "" && strings.TrimRight(restURL, "/") != kit.DefaultRESTURL:
		return ""
	}
	return kit.DefaultGraphQLURL
}

// configuredTimeouts parses the timeouts block; validation has already refused values that do not parse.
func configuredTimeouts(m *timeoutsModel, diags *diag.Diagnostics) kit.OperationTimeouts {
	var t kit.OperationTimeouts
	if m == nil {
		return t
	}
	for op, v := range map[kit.Operation]types.String{kit.OpCreate: m.Create, kit.OpRead: m.Read, kit.OpUpdate: m.Update, kit.OpDelete: m.Delete} {
		if !kit.IsKnownValue(v) {
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

// sourceOf names where ValueOrEnv(v, envs...) found its value: the attribute name, the first environment
// variable set, or "the default".
func sourceOf(v types.String, name string, envs ...string) string {
	if kit.IsKnownValue(v) {
		return name
	}
	for _, e := range envs {
		if os.Getenv(e) != "" {
			return e
		}
	}
	return "the default"
}

// setBy names, for an error's advice, what set a provider attribute's value, from is what sourceOf said.
func setBy(from, attribute string) string {
	switch from {
	case attribute:
		return fmt.Sprintf("%q", attribute)
	case "the default":
		return fmt.Sprintf("%q (not set, so the default)", attribute)
	}
	return fmt.Sprintf("the %s environment variable (%q is not set)", from, attribute)
}

// graphqlHostWarning is the one warning of a configuration that sends the API token to a GraphQL origin other
// than rest_url's, as when rest_url is set for the emulator or a proxy and BUILDKITE_GRAPHQL_URL is left in
// the environment from another workspace. Buildkite's own pair (api.buildkite.com, graphql.buildkite.com) is
// one service and draws none; neither does no GraphQL endpoint at all.
func graphqlHostWarning(s settings) diag.Diagnostics {
	var diags diag.Diagnostics
	rest, gql := originOf(s.restURL), originOf(s.graphqlURL)
	if s.graphqlURL == "" || rest == gql || (rest == originOf(kit.DefaultRESTURL) && gql == originOf(kit.DefaultGraphQLURL)) {
		return diags
	}
	fix := fmt.Sprintf("set \"graphql_url\" to the GraphQL endpoint of the service at %s (the emulator serves it at "+
		"<rest_url>/v1)", rest)
	if s.graphqlFrom == kit.EnvGraphQLURL {
		fix = fmt.Sprintf("unset %s, so that nothing goes to a GraphQL origin, or %s", kit.EnvGraphQLURL, fix)
	}
	diags.AddAttributeWarning(path.Root("graphql_url"), "API Token Sent to Another GraphQL Host", fmt.Sprintf(
		"The API token goes to %s for REST (from %s) and to %s for GraphQL (from %s), another host. If that is "+
			"meant (a proxy for GraphQL alone), nothing needs to change; otherwise %s.", rest, s.restFrom, gql, s.graphqlFrom, fix))
	return diags
}

// originOf is the scheme, host and port of an absolute URL (the port left out where it is the scheme's own),
// or raw itself where it does not parse; readSettings has refused such a value already.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		port = ""
	}
	if port != "" {
		host = net.JoinHostPort(host, port)
	}
	return scheme + "://" + host
}

// contact asks, at once, for the API token (whether it works at all, and which scopes it holds, so that
// resources can refuse at plan time what would fail) and for the organization (whether the slug is right
// and the token sees it, so that no 404 of an object is believed before it is known). Configure runs it
// through the client (buildkite.Config.Contact), once per provider process; a service that cannot be
// reached fails it within seconds, naming rest_url. What asking again cannot change is final for the client.
func contact(ctx context.Context, data *kit.ProviderData, s settings) error {
	ctx, cancel := context.WithTimeout(ctx, data.Timeouts.Of(kit.OpRead))
	defer cancel()
	var (
		wg     sync.WaitGroup
		tok    *buildkite.AccessToken
		tokErr error
		orgErr error
	)
	wg.Go(func() { tok, tokErr = data.Client.AccessToken.Get(ctx) })
	wg.Go(func() { _, orgErr = data.Client.Organizations.Get(ctx) })
	wg.Wait()

	switch {
	case tokErr == nil:
		data.Token = tok
	case buildkite.IsUnreachable(tokErr):
		return buildkite.FinalContact(&kit.ContactFailure{Summary: "Unable to Reach Buildkite", Attribute: "rest_url", Detail: fmt.Sprintf(
			"No connection could be made to %s (%s). Check %s, and that the service, or the emulator, is running there. "+
				"Nothing was read or changed.", s.restURL, tokErr, setBy(s.restFrom, "rest_url"))})
	case buildkite.IsUnauthorized(tokErr):
		return buildkite.FinalContact(&kit.ContactFailure{Summary: "Invalid Buildkite API Token", Attribute: "api_token", Detail: fmt.Sprintf(
			"The service at %s refused the API token (%s). Check %s. Nothing was read or changed.",
			s.restURL, kit.DescribeError(tokErr), setBy(s.tokenFrom, "api_token"))})
	case buildkite.IsNotFound(tokErr), buildkite.IsForbidden(tokErr):
		// A service or proxy that does not answer the endpoint: scopes go unchecked and calls report their own errors.
		tflog.Warn(ctx, "GET /v2/access-token is not answered; API token scopes will not be checked at plan time", map[string]any{"error": tokErr.Error()})
	default:
		return &kit.ContactFailure{Summary: "Unable to Reach Buildkite", Detail: fmt.Sprintf("Checking the API token against %s: %s",
			s.restURL, kit.DescribeError(tokErr))}
	}
	return confirmedAtContact(data, orgErr, s.orgFrom)
}

// confirmedAtContact applies the organization's answer to first contact: found, it is confirmed for the run
// (ConfirmOrganization makes no second call); not found, it is a final failure naming organization. A token
// that may not read organizations (403) leaves the question to ConfirmOrganization, which asks only when an
// object answers 404.
func confirmedAtContact(data *kit.ProviderData, orgErr error, orgFrom string) error {
	switch {
	case orgErr == nil:
		data.OrgAtContact.Store(true)
	case buildkite.IsNotFound(orgErr):
		return buildkite.FinalContact(&kit.ContactFailure{Summary: "Unknown Buildkite Organization", Attribute: "organization", Detail: fmt.Sprintf(
			"The organization %q does not exist or the API token cannot see it (%s). Check %s against the slug in your "+
				"organization's URL, and that the API token was created for that organization. Nothing was read or changed.",
			data.Org, kit.DescribeError(orgErr), setBy(orgFrom, "organization"))})
	}
	return nil
}
