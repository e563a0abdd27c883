package kit

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
// for each kind: NamedList (a kind found by name in one organization-wide listing) and ChildList (a kind
// that belongs to parents, such as a cluster's queues, found through the parents' listing). The area files
// keep only what is particular to their kind: which listing, the display name and the model.

var (
	_ list.ListResourceWithConfigure = (*NamedList[struct{}])(nil)
	_ list.ListResourceWithConfigure = (*ChildList[struct{}, struct{}])(nil)
)

// ListBase gives every list resource the Metadata of the resource it finds, Configure, the client, a read
// timeout, and the identity it shares with that resource. Embed it and build it with NewListBase.
type ListBase struct {
	ResourceBase
}

// NewListBase builds the base of the list resource for the resource type name (without "buildkite_"),
// whose identity is identity.
func NewListBase(name string, identity resourceIdentity) ListBase {
	return ListBase{ResourceBase: NewResourceBase(name, OperationScopes{}, identity)}
}

// Found is one object a list resource found: the resource's model as Read leaves it (a struct with tfsdk
// tags, or a pointer to one) and the name `terraform query` shows for it.
type Found struct {
	Model       any
	DisplayName string
}

// Results answers a List request with what was found, in order of display name and up to the request's
// limit. Each result's identity is taken from its model, so it is the identity Read keeps.
func (b *ListBase) Results(ctx context.Context, req list.ListRequest, items []Found) iter.Seq[list.ListResult] {
	sort.SliceStable(items, func(i, j int) bool { return items[i].DisplayName < items[j].DisplayName })
	return func(push func(list.ListResult) bool) {
		for n, it := range items {
			if req.Limit > 0 && int64(n) >= req.Limit {
				return
			}
			result := req.NewListResult(ctx)
			result.DisplayName = it.DisplayName
			result.Diagnostics.Append(result.Resource.Set(ctx, it.Model)...)
			if !result.Diagnostics.HasError() {
				b.identify(ctx, *result.Resource, result.Identity, &result.Diagnostics)
			}
			if !push(result) {
				return
			}
		}
	}
}

// ListFailed answers a List request with diagnostics instead of results.
func ListFailed(stream *list.ListResultsStream, diags diag.Diagnostics) {
	stream.Results = list.ListResultsStreamDiagnostics(diags)
}

// WithWarnings answers warnings (a listing that could not show everything) before the results: a result that
// holds only diagnostics is passed to Terraform as they are, and none is sent when there are no warnings.
func WithWarnings(warnings diag.Diagnostics, results iter.Seq[list.ListResult]) iter.Seq[list.ListResult] {
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

// NamedList is the list resource of a kind the organization lists in one collection and a person knows by
// name: it has one filter, name, and shows each object by its name.
type NamedList[T any] struct {
	ListBase
	What        string // in errors: "pipeline templates"
	Description string // the schema's
	// NameFilter describes the name filter; NameFilterDescription words it for most kinds.
	NameFilter string
	ListFunc   func(ctx context.Context, c *buildkite.Client) ([]T, error)
	Name       func(*T) string
	// Model is the resource's model of one object, as Read leaves it after an import.
	Model func(*T) any
}

// NameFilterDescription describes the name filter of a NamedList whose objects are each called one.
func NameFilterDescription(one string) string {
	return fmt.Sprintf("Only the %s with this name (compared without regard to case). Unset, every %s.", one, one)
}

type namedListFilter struct {
	Name types.String `tfsdk:"name"`
}

func (l *NamedList[T]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: l.Description,
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: l.NameFilter,
				Optional:            true,
				Validators:          []validator.String{NotBlank()},
			},
		},
	}
}

func (l *NamedList[T]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var filter namedListFilter
	if diags := req.Config.Get(ctx, &filter); diags.HasError() {
		ListFailed(stream, diags)
		return
	}
	callCtx, cancel := l.Timeout(ctx, OpRead)
	defer cancel()
	all, err := l.ListFunc(callCtx, l.Client())
	if err != nil {
		var diags diag.Diagnostics
		AddAPIError(&diags, "list", l.What, "", err)
		ListFailed(stream, diags)
		return
	}
	var items []Found
	for i := range all {
		name := l.Name(&all[i])
		if filter.Name.IsNull() || strings.EqualFold(name, filter.Name.ValueString()) {
			items = append(items, Found{Model: l.Model(&all[i]), DisplayName: name})
		}
	}
	stream.Results = l.Results(ctx, req, items)
}

// ParentKind is what a ChildList needs of the parents of what it lists (clusters, teams, registries): how
// to list them, the filter that picks one of them, and how errors name them.
type ParentKind[P any] struct {
	One, Many string // in errors: "cluster", "clusters"
	// Filter is the attribute that picks one parent by ID ("cluster_id"); FilterDescription describes it.
	Filter            string
	FilterDescription string
	// GraphQLType is the parents' GraphQL type: the filter takes their GraphQL IDs too.
	GraphQLType string
	List        func(ctx context.Context, c *buildkite.Client) ([]P, error)
	// hasID reports whether a parent has the ID the filter names (the service may compare without
	// regard to case, and so then does hasID).
	HasID func(p *P, id string) bool
	// Name and ref name a parent in errors, as `cluster "name" (ref)`: ref is its ID, or the slug
	// the children's listing is asked by.
	Name, Ref func(*P) string
}

// pick lists the organization's parents, or only the one the filter names when it is set.
func (k *ParentKind[P]) pick(ctx context.Context, c *buildkite.Client, id types.String, diags *diag.Diagnostics) []P {
	all, err := k.List(ctx, c)
	if err != nil {
		AddAPIError(diags, "list", k.Many, "", err)
		return nil
	}
	if id.IsNull() {
		return all
	}
	want := CanonicalID(id.ValueString())
	p := PickOne(diags, k.One, fmt.Sprintf("the ID %q", want), all, func(p *P) bool { return k.HasID(p, want) })
	if p == nil {
		return nil
	}
	return []P{*p}
}

// ChildList is the list resource of a kind C that belongs to parents P (a cluster's queues, a team's
// members): filtered by the ID of one parent, and across every parent when that is unset. A query costs
// the parents' listing and one listing per parent.
type ChildList[P, C any] struct {
	ListBase
	Parents *ParentKind[P]
	What    string // in errors: "cluster queues"
	// Description is the schema's.
	Description string
	// ListIn lists the objects of one parent; found makes one into a result.
	ListIn func(ctx context.Context, c *buildkite.Client, parent *P) ([]C, error)
	Found  func(parent *P, item *C) Found
}

func (l *ChildList[P, C]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: l.Description,
		Attributes: map[string]schema.Attribute{
			l.Parents.Filter: schema.StringAttribute{
				MarkdownDescription: l.Parents.FilterDescription + " " + RefDescription([]string{l.Parents.GraphQLType}),
				Optional:            true,
				Validators:          []validator.String{RefValidator{GraphQLTypes: []string{l.Parents.GraphQLType}}},
			},
		},
	}
}

// List lists the parents the filter selects, then what belongs to each.
func (l *ChildList[P, C]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	// The filter's attribute is named by the parent kind, so it is read by path, not into a tagged struct.
	var parentID types.String
	if diags := req.Config.GetAttribute(ctx, path.Root(l.Parents.Filter), &parentID); diags.HasError() {
		ListFailed(stream, diags)
		return
	}
	callCtx, cancel := l.Timeout(ctx, OpRead)
	defer cancel()
	var diags diag.Diagnostics
	parents := l.Parents.pick(callCtx, l.Client(), parentID, &diags)
	if diags.HasError() {
		ListFailed(stream, diags)
		return
	}
	var items []Found
	for i := range parents {
		p := &parents[i]
		children, err := l.ListIn(callCtx, l.Client(), p)
		if err != nil {
			AddAPIError(&diags, "list", l.What,
				fmt.Sprintf("of %s %q (%s)", l.Parents.One, l.Parents.Name(p), l.Parents.Ref(p)), err)
			ListFailed(stream, diags)
			return
		}
		for j := range children {
			items = append(items, l.Found(p, &children[j]))
		}
	}
	stream.Results = l.Results(ctx, req, items)
}

// TeamParents are the parents of the teams' association kinds (members, pipelines, suites; three areas
// share them): found in the team listing, picked by UUID compared without regard to case.
var TeamParents = &ParentKind[buildkite.Team]{
	One:               "team",
	Many:              "teams",
	Filter:            "team_id",
	FilterDescription: "Only those of the team with this UUID. Unset, those of every team.",
	GraphQLType:       "Team",
	List: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Team, error) {
		return c.Teams.List(ctx, buildkite.TeamListOptions{})
	},
	HasID: func(t *buildkite.Team, id string) bool { return strings.EqualFold(t.ID, id) },
	Name:  func(t *buildkite.Team) string { return t.Name },
	Ref:   func(t *buildkite.Team) string { return t.ID },
}

// RegistryParents are the parents of registry tokens and of teams' access to registries: found in the
// registry listing, picked by exact ID, and named in errors by slug, which token paths name the registry by.
var RegistryParents = &ParentKind[buildkite.Registry]{
	One:               "registry",
	Many:              "registries",
	Filter:            "registry_id",
	FilterDescription: "Only the tokens of the registry with this ID. Unset, those of every registry.",
	GraphQLType:       "Registry",
	List: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Registry, error) {
		return c.Registries.List(ctx)
	},
	HasID: func(r *buildkite.Registry, id string) bool { return r.ID == id },
	Name:  func(r *buildkite.Registry) string { return r.Name },
	Ref:   func(r *buildkite.Registry) string { return r.Slug },
}
