package provider

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// providerData is what resources and data sources receive in Configure.
type providerData struct {
	client   *buildkite.Client
	org      string
	agentURL string
	timeouts operationTimeouts
	// archivePipelineOnDelete is the provider block's default for buildkite_pipeline.archive_on_delete.
	archivePipelineOnDelete bool
	// token describes the API token, or is nil where the service does not answer GET /v2/access-token;
	// then scopes are not checked at plan time.
	token *buildkite.AccessToken

	orgMu sync.Mutex
	// orgConfirmed is set once the organization answered; orgErr once it definitely did not.
	orgConfirmed bool
	orgErr       error
}

// operation is one of the four things Terraform asks of a resource; each has its own timeout.
type operation int

const (
	opCreate operation = iota
	opRead
	opUpdate
	opDelete
)

// defaultTimeout bounds each operation unless the provider block's timeouts say otherwise, so a service
// that never answers cannot hang a plan.
const defaultTimeout = 3 * time.Minute

// operationTimeouts holds the provider block's timeouts, indexed by operation.
type operationTimeouts [4]time.Duration

func (t operationTimeouts) of(op operation) time.Duration {
	if d := t[op]; d > 0 {
		return d
	}
	return defaultTimeout
}

// confirmOrganization tells, once per run, whether the configured organization answers. A 404 only means
// "gone" after it does: with a mistyped slug every object answers 404, and believing that would empty the
// state. Answers that settle the question are remembered; a transient failure is asked again next time.
func (d *providerData) confirmOrganization(ctx context.Context) error {
	d.orgMu.Lock()
	defer d.orgMu.Unlock()
	if d.orgConfirmed || d.orgErr != nil {
		return d.orgErr
	}
	_, err := d.client.Organizations.Get(ctx)
	switch {
	case err == nil:
		d.orgConfirmed = true
	case buildkite.IsNotFound(err):
		d.orgErr = fmt.Errorf("the organization %q does not exist or the API token cannot see it (%s); check the provider's organization and api_token", d.org, describeError(err))
	case buildkite.IsForbidden(err), buildkite.IsUnauthorized(err):
		d.orgErr = fmt.Errorf("the organization %q could not be confirmed (%s); the API token needs the read_organizations scope so that the provider can tell a deleted object from a wrong organization", d.org, describeError(err))
	default:
		return fmt.Errorf("confirming the organization %q: %w", d.org, err)
	}
	return d.orgErr
}

// missingScopes returns those of scopes the token lacks, or nil where the token's scopes are unknown.
func (d *providerData) missingScopes(scopes []string) []string {
	if d == nil || d.token == nil {
		return nil
	}
	var missing []string
	for _, s := range scopes {
		if !d.token.HasScope(s) {
			missing = append(missing, s)
		}
	}
	return missing
}

// operationScopes lists the token scopes a resource's writes need.
type operationScopes struct {
	create, update, delete []string
}

// writeScopes is the usual case: one set of scopes for create, update and delete.
func writeScopes(scopes ...string) operationScopes {
	return operationScopes{create: scopes, update: scopes, delete: scopes}
}

// resourceBase gives every resource its Metadata, Configure, a plan-time scope check, operation timeouts
// and the read-or-remove and delete conventions. Embed it and build it with newResourceBase.
type resourceBase struct {
	name   string // type name without the "buildkite_" prefix
	scopes operationScopes
	data   *providerData
}

func newResourceBase(name string, scopes operationScopes) resourceBase {
	return resourceBase{name: name, scopes: scopes}
}

// Metadata implements resource.Resource.
func (b *resourceBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.name
}

// Configure implements resource.ResourceWithConfigure.
func (b *resourceBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan implements resource.ResourceWithModifyPlan: a change the token lacks the scope for fails at plan
// time, before anything is applied, rather than leaving a run half-applied on a 403. A resource with its
// own ModifyPlan calls this one first.
func (b *resourceBase) ModifyPlan(_ context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if b.data == nil {
		return
	}
	var need []string
	var action string
	switch {
	case req.State.Raw.IsNull():
		need, action = b.scopes.create, "create"
	case req.Plan.Raw.IsNull():
		need, action = b.scopes.delete, "delete"
	case !req.Plan.Raw.Equal(req.State.Raw):
		need, action = b.scopes.update, "update"
	default:
		return
	}
	if missing := b.data.missingScopes(need); len(missing) > 0 {
		resp.Diagnostics.AddError("Missing API Token Scope",
			fmt.Sprintf("Terraform plans to %s a buildkite_%s, which needs the %s scope%s, and the API token lacks it. "+
				"Add the scope to the token (or use another token) and plan again; nothing has been changed.",
				action, b.name, quoteList(missing), plural(len(missing))))
	}
}

// client returns the shared REST client.
func (b *resourceBase) client() *buildkite.Client { return b.data.client }

// timeout bounds an operation by the provider block's timeouts.
func (b *resourceBase) timeout(ctx context.Context, op operation) (context.Context, context.CancelFunc) {
	if b.data == nil {
		return context.WithTimeout(ctx, defaultTimeout)
	}
	return context.WithTimeout(ctx, b.data.timeouts.of(op))
}

// readFailed handles the error of a Read's lookup: a 404 removes the resource from state, but only once the
// organization is confirmed to answer; anything else is an error naming the object.
func (b *resourceBase) readFailed(ctx context.Context, resp *resource.ReadResponse, err error, what, ident string) {
	if buildkite.IsNotFound(err) {
		if orgErr := b.data.confirmOrganization(ctx); orgErr != nil {
			resp.Diagnostics.AddError("Unable to Read "+titleWords(what),
				fmt.Sprintf("Reading %s %s: the service answered 404, and %s. The resource stays in state.", what, ident, orgErr))
			return
		}
		resp.State.RemoveResource(ctx)
		return
	}
	addAPIError(&resp.Diagnostics, "read", what, ident, err)
}

// deleteFailed handles the error of a Delete: a 404 means it is already gone (once the organization is
// confirmed to answer), anything else is an error.
func (b *resourceBase) deleteFailed(ctx context.Context, diags *diag.Diagnostics, err error, what, ident string) {
	if err == nil {
		return
	}
	if buildkite.IsNotFound(err) {
		if orgErr := b.data.confirmOrganization(ctx); orgErr != nil {
			diags.AddError("Unable to Delete "+titleWords(what),
				fmt.Sprintf("Deleting %s %s: the service answered 404, and %s.", what, ident, orgErr))
		}
		return
	}
	addAPIError(diags, "delete", what, ident, err)
}

// dataSourceBase gives every data source its Metadata, Configure and read timeout.
type dataSourceBase struct {
	name string
	data *providerData
}

func newDataSourceBase(name string) dataSourceBase { return dataSourceBase{name: name} }

// Metadata implements datasource.DataSource.
func (b *dataSourceBase) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.name
}

// Configure implements datasource.DataSourceWithConfigure.
func (b *dataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	b.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// client returns the shared REST client.
func (b *dataSourceBase) client() *buildkite.Client { return b.data.client }

// timeout bounds a read by the provider block's read timeout.
func (b *dataSourceBase) timeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if b.data == nil {
		return context.WithTimeout(ctx, defaultTimeout)
	}
	return context.WithTimeout(ctx, b.data.timeouts.of(opRead))
}

// providerDataFrom extracts the provider's data in Configure. It returns nil, without a diagnostic, while the
// provider is not configured yet (as during validation).
func providerDataFrom(data any, diags *diag.Diagnostics) *providerData {
	if data == nil {
		return nil
	}
	pd, ok := data.(*providerData)
	if !ok {
		diags.AddError("Unexpected Provider Data",
			fmt.Sprintf("Expected *providerData, got %T. Please report this issue to the provider developers.", data))
		return nil
	}
	return pd
}

// pickOne returns the one item that matches, or adds an error naming what was asked: "No Team Found" or
// "More Than One Team Found".
func pickOne[T any](diags *diag.Diagnostics, what, asked string, items []T, match func(*T) bool) *T {
	var found []*T
	for i := range items {
		if match(&items[i]) {
			found = append(found, &items[i])
		}
	}
	switch len(found) {
	case 1:
		return found[0]
	case 0:
		diags.AddError("No "+titleWords(what)+" Found", fmt.Sprintf("No %s matches %s.", what, asked))
	default:
		diags.AddError("More Than One "+titleWords(what)+" Found",
			fmt.Sprintf("%d %ss match %s; ask for one by its ID.", len(found), what, asked))
	}
	return nil
}

func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = fmt.Sprintf("%q", s)
	}
	sort.Strings(q)
	return strings.Join(q, ", ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
