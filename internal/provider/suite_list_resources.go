package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// The list resources of test suites, registries and registry tokens. Suites and registries are found by
// name from their organization's listing; tokens from the token listing of each registry, shown after their
// registry's name so that a person can tell the tokens of two registries apart.
//
// What the service returns only on creation (a suite's API token, a registry token's secret) or in no
// response (a suite's team_owner_id, a registry's team_ids) is null in every result, as after an import.

var (
	_ list.ListResourceWithConfigure = (*testSuiteListResource)(nil)
	_ list.ListResourceWithConfigure = (*registryListResource)(nil)
	_ list.ListResourceWithConfigure = (*registryTokenListResource)(nil)
)

// suitesNameFilter filters suites or registries by name, compared without regard to case.
type suitesNameFilter struct {
	Name types.String `tfsdk:"name"`
}

// matches reports whether name passes the filter: always when it is unset.
func (f suitesNameFilter) matches(name string) bool {
	return f.Name.IsNull() || strings.EqualFold(name, f.Name.ValueString())
}

// suitesNameFilterSchema is the schema of a list resource filtered by suitesNameFilter.
func suitesNameFilterSchema(description, what string) schema.Schema {
	return schema.Schema{
		MarkdownDescription: description,
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("Only the %s with this name (compared without regard to case). Unset, every %s.", what, what),
				Optional:            true,
				Validators:          []validator.String{notBlank()},
			},
		},
	}
}

// NewTestSuiteListResource returns the buildkite_test_suite list resource.
func NewTestSuiteListResource() list.ListResource {
	return &testSuiteListResource{listBase: newListBase("test_suite", testSuiteIdentity)}
}

type testSuiteListResource struct {
	listBase
}

func (l *testSuiteListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = suitesNameFilterSchema("Finds the organization's Test Engine test suites, shown by name "+
		"(without their API tokens, which the service returns only on creation).", "test suite")
}

func (l *testSuiteListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var filter suitesNameFilter
	if diags := req.Config.Get(ctx, &filter); diags.HasError() {
		listFailed(stream, diags)
		return
	}
	callCtx, cancel := l.timeout(ctx, opRead)
	defer cancel()
	suites, err := l.client().TestSuites.List(callCtx)
	if err != nil {
		var diags diag.Diagnostics
		addAPIError(&diags, "list", "test suites", "", err)
		listFailed(stream, diags)
		return
	}
	var items []found
	for i := range suites {
		s := &suites[i]
		if !filter.matches(s.Name) {
			continue
		}
		var m testSuiteModel
		m.fromAPI(s)
		items = append(items, found{model: &m, displayName: s.Name})
	}
	stream.Results = l.results(ctx, req, items)
}

// NewRegistryListResource returns the buildkite_registry list resource.
func NewRegistryListResource() list.ListResource {
	return &registryListResource{listBase: newListBase("registry", registryIdentity)}
}

type registryListResource struct {
	listBase
}

func (l *registryListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = suitesNameFilterSchema("Finds the organization's package registries, shown by name.", "registry")
}

func (l *registryListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var filter suitesNameFilter
	if diags := req.Config.Get(ctx, &filter); diags.HasError() {
		listFailed(stream, diags)
		return
	}
	callCtx, cancel := l.timeout(ctx, opRead)
	defer cancel()
	registries, err := l.client().Registries.List(callCtx)
	if err != nil {
		var diags diag.Diagnostics
		addAPIError(&diags, "list", "registries", "", err)
		listFailed(stream, diags)
		return
	}
	var items []found
	for i := range registries {
		reg := &registries[i]
		if !filter.matches(reg.Name) {
			continue
		}
		// team_ids, which no response reports, is null as after an import.
		m := registryModel{TeamIDs: types.ListNull(types.StringType)}
		m.fromAPI(reg)
		items = append(items, found{model: &m, displayName: reg.Name})
	}
	stream.Results = l.results(ctx, req, items)
}

// NewRegistryTokenListResource returns the buildkite_registry_token list resource.
func NewRegistryTokenListResource() list.ListResource {
	return &registryTokenListResource{listBase: newListBase("registry_token", registryTokenIdentity)}
}

type registryTokenListResource struct {
	listBase
}

// registryTokenFilter filters registry tokens by their registry.
type registryTokenFilter struct {
	RegistryID types.String `tfsdk:"registry_id"`
}

func (l *registryTokenListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Finds the tokens of package registries, shown as `<registry name> / <description>` " +
			"(without their secrets, which the service returns only on creation).",
		Attributes: map[string]schema.Attribute{
			"registry_id": schema.StringAttribute{
				MarkdownDescription: "Only the tokens of the registry with this ID. Unset, those of every registry.",
				Optional:            true,
				Validators:          []validator.String{uuidValidator()},
			},
		},
	}
}

// List lists the registries the filter selects, then the tokens of each: token paths name the registry by
// slug, which the registry listing gives.
func (l *registryTokenListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var filter registryTokenFilter
	if diags := req.Config.Get(ctx, &filter); diags.HasError() {
		listFailed(stream, diags)
		return
	}
	callCtx, cancel := l.timeout(ctx, opRead)
	defer cancel()
	var diags diag.Diagnostics
	registries, err := l.client().Registries.List(callCtx)
	if err != nil {
		addAPIError(&diags, "list", "registries", "", err)
		listFailed(stream, diags)
		return
	}
	if !filter.RegistryID.IsNull() {
		id := filter.RegistryID.ValueString()
		reg := pickOne(&diags, "registry", fmt.Sprintf("the ID %q", id), registries,
			func(r *buildkite.Registry) bool { return r.ID == id })
		if reg == nil {
			listFailed(stream, diags)
			return
		}
		registries = []buildkite.Registry{*reg}
	}
	var items []found
	for i := range registries {
		reg := &registries[i]
		tokens, err := l.client().RegistryTokens.List(callCtx, reg.Slug)
		if err != nil {
			addAPIError(&diags, "list", "registry tokens", fmt.Sprintf("of registry %q (%s)", reg.Name, reg.Slug), err)
			listFailed(stream, diags)
			return
		}
		for j := range tokens {
			t := &tokens[j]
			var m registryTokenModel
			m.fromAPI(reg.ID, t)
			items = append(items, found{model: &m, displayName: reg.Name + " / " + t.Description})
		}
	}
	stream.Results = l.results(ctx, req, items)
}
