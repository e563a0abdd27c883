package kit

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// ProviderData is what resources, data sources and list resources receive in Configure: the one client of
// this Terraform command and what the provider block set.
type ProviderData struct {
	Client   *buildkite.Client
	Org      string
	Timeouts OperationTimeouts
	// archivePipelineOnDelete is the provider block's default for buildkite_pipeline.archive_on_delete.
	ArchivePipelineOnDelete bool
	// Token describes the API token, or is nil where the service does not answer GET /v2/access-token;
	// then scopes are not checked at plan time.
	Token *buildkite.AccessToken

	orgMu sync.Mutex
	// orgConfirmed is set once the organization answered; orgErr once it definitely did not.
	orgConfirmed bool
	orgErr       error
	// OrgAtContact is set when first contact (contact) found the organization; it runs inside client calls,
	// some made under orgMu, so it does not take the lock.
	OrgAtContact atomic.Bool

	// claims are the associations this command created or took over, by kind and sides (association.go).
	claims sync.Map
}

// ProviderDataFrom extracts the provider's data in Configure. It returns nil, without a diagnostic, while the
// provider is not configured yet (as during validation).
func ProviderDataFrom(data any, diags *diag.Diagnostics) *ProviderData {
	if data == nil {
		return nil
	}
	pd, ok := data.(*ProviderData)
	if !ok {
		diags.AddError("Unexpected Provider Data",
			fmt.Sprintf("Expected *providerData, got %T. Please report this issue to the provider developers.", data))
		return nil
	}
	return pd
}

// ConfirmOrganization tells, once per run, whether the configured organization answers. A 404 only means
// "gone" after it does: with a mistyped slug every object answers 404, and believing that would empty the
// state. Answers that settle the question are remembered; a transient failure is asked again next time.
func (d *ProviderData) ConfirmOrganization(ctx context.Context) error {
	if d.OrgAtContact.Load() {
		return nil
	}
	d.orgMu.Lock()
	defer d.orgMu.Unlock()
	if d.orgConfirmed || d.orgErr != nil {
		return d.orgErr
	}
	_, err := d.Client.Organizations.Get(ctx)
	switch {
	case err == nil:
		d.orgConfirmed = true
	case buildkite.IsNotFound(err):
		d.orgErr = fmt.Errorf("the organization %q does not exist or the API token cannot see it (%s); check the provider's organization and api_token", d.Org, DescribeError(err))
	case buildkite.IsForbidden(err), buildkite.IsUnauthorized(err):
		d.orgErr = fmt.Errorf("the organization %q could not be confirmed (%s); the API token needs the read_organizations scope so that the provider can tell a deleted object from a wrong organization", d.Org, DescribeError(err))
	default:
		return fmt.Errorf("confirming the organization %q: %w", d.Org, err)
	}
	return d.orgErr
}

// Defaults and environment variables of the provider configuration.
const (
	DefaultRESTURL  = "https://api.buildkite.com"
	DefaultAgentURL = "https://agent.buildkite.com"
	// DefaultGraphQLURL is used only where rest_url is not set either (graphqlEndpoint).
	DefaultGraphQLURL = "https://graphql.buildkite.com/v1"

	EnvAPIToken     = "BUILDKITE_API_TOKEN"
	EnvOrgSlug      = "BUILDKITE_ORGANIZATION_SLUG"
	EnvOrganization = "BUILDKITE_ORGANIZATION"
	EnvRESTURL      = "BUILDKITE_REST_URL"
	EnvAgentURL     = "BUILDKITE_AGENT_URL"
	EnvGraphQLURL   = "BUILDKITE_GRAPHQL_URL"
)
