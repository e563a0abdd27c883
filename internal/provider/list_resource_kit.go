package provider

import (
	"context"
	"fmt"
	"iter"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// List resources (Terraform 1.14+): `terraform query` finds what exists with them, and
// `terraform query -generate-config-out` writes configuration and import blocks for it. Each list resource
// has the type name of the resource it finds, and answers with the resource's state and identity, built from
// the service's listings (a page of 100 objects per call) rather than one GET per object.

// Most list resources are one of two shapes, built from the generic types below rather than written out
// for each kind: namedList (a kind found by name in one organization-wide listing) and childList (a kind
// that belongs to parents, such as a cluster's queues, found through the parents' listing). The area files
// keep only what is particular to their kind: which listing, the display name and the model.

var (
	_ list.ListResourceWithConfigure = (*namedList[struct{}])(nil)
	_ list.ListResourceWithConfigure = (*childList[struct{}, struct{}])(nil)
)

// listBase gives every list resource the Metadata of the resource it finds, Configure, the client, a read
// timeout, and the identity it shares with that resource. Embed it and build it with newListBase.
type listBase struct {
	resourceBase
}

// newListBase builds the base of the list resource for the resource type name (without "buildkite_"),
// whose identity is identity.
func newListBase(name string, identity resourceIdentity) listBase {
	return listBase{resourceBase: newResourceBase(name, operationScopes{}, identity)}
}

// found is one object a list resource found: the resource's model as Read leaves it (a struct with tfsdk
// tags, or a pointer to one) and the name `terraform query` shows for it.
type found struct {
	model       any
	displayName string
}

// results answers a List request with what was found, in order of display name and up to the request's
// limit. Each result's identity is taken from its model, so it is the identity Read keeps.
func (b *listBase) results(ctx context.Context, req list.ListRequest, items []found) iter.Seq[list.ListResult] {
	sort.SliceStable(items, func(i, j int) bool { return items[i].displayName < items[j].displayName })
	return func(push func(list.ListResult) bool) {
		for n, it := range items {
			if req.Limit > 0 && int64(n) >= req.Limit {
				return
			}
			result := req.NewListResult(ctx)
			result.DisplayName = it.displayName
			result.Diagnostics.Append(result.Resource.Set(ctx, it.model)...)
			if !result.Diagnostics.HasError() {
				b.identify(ctx, *result.Resource, result.Identity, &result.Diagnostics)
			}
			if !push(result) {
				return
			}
		}
	}
}

// listFailed answers a List request with diagnostics instead of results.
func listFailed(stream *list.ListResultsStream, diags diag.Diagnostics) {
	stream.Results = list.ListResultsStreamDiagnostics(diags)
}

// withWarnings answers warnings (a listing that could not show everything) before the results: a result that
// holds only diagnostics is passed to Terraform as they are, and none is sent when there are no warnings.
func withWarnings(warnings diag.Diagnostics, results iter.Seq[list.ListResult]) iter.Seq[list.ListResult] {
	if len(warnings) == 0 {
		return results
	}
	return func(push func(list.ListResult) bool) {
		if !push(list.ListResult{Diagnostics: warnings}) {
			return
		}
		results(push)
	}
}

// namedList is the list resource of a kind the organization lists in one collection and a person knows by
// name: it has one filter, name, and shows each object by its name.
type namedList[T any] struct {
	listBase
	what        string // in errors: "pipeline templates"
	description string // the schema's
	// nameFilter describes the name filter; nameFilterDescription words it for most kinds.
	nameFilter string
	list       func(ctx context.Context, c *buildkite.Client) ([]T, error)
	name       func(*T) string
	// model is the resource's model of one object, as Read leaves it after an import.
	model func(*T) any
}

// nameFilterDescription describes the name filter of a namedList whose objects are each called one.
func nameFilterDescription(one string) string {
	return fmt.Sprintf("Only the %s with this name (compared without regard to case). Unset, every %s.", one, one)
}

type namedListFilter struct {
	Name types.String `tfsdk:"name"`
}

func (l *namedList[T]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: l.description,
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: l.nameFilter,
				Optional:            true,
				Validators:          []validator.String{notBlank()},
			},
		},
	}
}

func (l *namedList[T]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var filter namedListFilter
	if diags := req.Config.Get(ctx, &filter); diags.HasError() {
		listFailed(stream, diags)
		return
	}
	callCtx, cancel := l.timeout(ctx, opRead)
	defer cancel()
	all, err := l.list(callCtx, l.client())
	if err != nil {
		var diags diag.Diagnostics
		addAPIError(&diags, "list", l.what, "", err)
		listFailed(stream, diags)
		return
	}
	var items []found
	for i := range all {
		name := l.name(&all[i])
		if filter.Name.IsNull() || strings.EqualFold(name, filter.Name.ValueString()) {
			items = append(items, found{model: l.model(&all[i]), displayName: name})
		}
	}
	stream.Results = l.results(ctx, req, items)
}

// parentKind is what a childList needs of the parents of what it lists (clusters, teams, registries): how
// to list them, the filter that picks one of them, and how errors name them.
type parentKind[P any] struct {
	one, many string // in errors: "cluster", "clusters"
	// filter is the attribute that picks one parent by ID ("cluster_id"); filterDescription describes it.
	filter            string
	filterDescription string
	// graphQLType is the parents' GraphQL type: the filter takes their GraphQL IDs too.
	graphQLType string
	list        func(ctx context.Context, c *buildkite.Client) ([]P, error)
	// hasID reports whether a parent has the ID the filter names (the service may compare without
	// regard to case, and so then does hasID).
	hasID func(p *P, id string) bool
	// name and ref name a parent in errors, as `cluster "name" (ref)`: ref is its ID, or the slug
	// the children's listing is asked by.
	name, ref func(*P) string
}

// pick lists the organization's parents, or only the one the filter names when it is set.
func (k *parentKind[P]) pick(ctx context.Context, c *buildkite.Client, id types.String, diags *diag.Diagnostics) []P {
	all, err := k.list(ctx, c)
	if err != nil {
		addAPIError(diags, "list", k.many, "", err)
		return nil
	}
	if id.IsNull() {
		return all
	}
	want := canonicalID(id.ValueString())
	p := pickOne(diags, k.one, fmt.Sprintf("the ID %q", want), all, func(p *P) bool { return k.hasID(p, want) })
	if p == nil {
		return nil
	}
	return []P{*p}
}

// childList is the list resource of a kind C that belongs to parents P (a cluster's queues, a team's
// members): filtered by the ID of one parent, and across every parent when that is unset. A query costs
// the parents' listing and one listing per parent.
type childList[P, C any] struct {
	listBase
	parents *parentKind[P]
	what    string // in errors: "cluster queues"
	// description is the schema's.
	description string
	// listIn lists the objects of one parent; found makes one into a result.
	listIn func(ctx context.Context, c *buildkite.Client, parent *P) ([]C, error)
	found  func(parent *P, item *C) found
}

func (l *childList[P, C]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: l.description,
		Attributes: map[string]schema.Attribute{
			l.parents.filter: schema.StringAttribute{
				MarkdownDescription: l.parents.filterDescription + " " + refDescription([]string{l.parents.graphQLType}),
				Optional:            true,
				Validators:          []validator.String{refValidator{graphQLTypes: []string{l.parents.graphQLType}}},
			},
		},
	}
}

// List lists the parents the filter selects, then what belongs to each.
func (l *childList[P, C]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	// The filter's attribute is named by the parent kind, so it is read by path, not into a tagged struct.
	var parentID types.String
	if diags := req.Config.GetAttribute(ctx, path.Root(l.parents.filter), &parentID); diags.HasError() {
		listFailed(stream, diags)
		return
	}
	callCtx, cancel := l.timeout(ctx, opRead)
	defer cancel()
	var diags diag.Diagnostics
	parents := l.parents.pick(callCtx, l.client(), parentID, &diags)
	if diags.HasError() {
		listFailed(stream, diags)
		return
	}
	var items []found
	for i := range parents {
		p := &parents[i]
		children, err := l.listIn(callCtx, l.client(), p)
		if err != nil {
			addAPIError(&diags, "list", l.what,
				fmt.Sprintf("of %s %q (%s)", l.parents.one, l.parents.name(p), l.parents.ref(p)), err)
			listFailed(stream, diags)
			return
		}
		for j := range children {
			items = append(items, l.found(p, &children[j]))
		}
	}
	stream.Results = l.results(ctx, req, items)
}

// teamParents are the parents of the teams' association kinds (members, pipelines, suites; three areas
// share them): found in the team listing, picked by UUID compared without regard to case.
var teamParents = &parentKind[buildkite.Team]{
	one:               "team",
	many:              "teams",
	filter:            "team_id",
	filterDescription: "Only those of the team with this UUID. Unset, those of every team.",
	graphQLType:       "Team",
	list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Team, error) {
		return c.Teams.List(ctx, buildkite.TeamListOptions{})
	},
	hasID: func(t *buildkite.Team, id string) bool { return strings.EqualFold(t.ID, id) },
	name:  func(t *buildkite.Team) string { return t.Name },
	ref:   func(t *buildkite.Team) string { return t.ID },
}

// registryParents are the parents of registry tokens and of teams' access to registries: found in the
// registry listing, picked by exact ID, and named in errors by slug, which token paths name the registry by.
var registryParents = &parentKind[buildkite.Registry]{
	one:               "registry",
	many:              "registries",
	filter:            "registry_id",
	filterDescription: "Only the tokens of the registry with this ID. Unset, those of every registry.",
	graphQLType:       "Registry",
	list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Registry, error) {
		return c.Registries.List(ctx)
	},
	hasID: func(r *buildkite.Registry, id string) bool { return r.ID == id },
	name:  func(r *buildkite.Registry) string { return r.Name },
	ref:   func(r *buildkite.Registry) string { return r.Slug },
}
