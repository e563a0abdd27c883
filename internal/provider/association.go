package provider

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// Association resources link an object to a parent that the service keeps the link under: a team's members
// and its access to pipelines and suites (the link named by its two sides), a cluster's maintainers (the link
// has an ID of its own). They differ only in their attributes and client calls, so each is declared with an
// associationKind and served by the one associationResource below: the type file holds the model, its
// mapping from the client's type and the descriptor, not another copy of Create, Read, Update and Delete.

var (
	_ resource.Resource                 = (*associationResource[struct{}, struct{}])(nil)
	_ resource.ResourceWithConfigure    = (*associationResource[struct{}, struct{}])(nil)
	_ resource.ResourceWithImportState  = (*associationResource[struct{}, struct{}])(nil)
	_ resource.ResourceWithIdentity     = (*associationResource[struct{}, struct{}])(nil)
	_ resource.ResourceWithModifyPlan   = (*associationResource[struct{}, struct{}])(nil)
	_ resource.ResourceWithUpgradeState = (*associationResource[struct{}, struct{}])(nil)
)

// associationKind declares an association resource whose client type is T and whose model (a struct with
// tfsdk tags) is M.
type associationKind[T, M any] struct {
	name   string // type name without "buildkite_": "team_member"
	what   string // in errors: "team member"
	scopes operationScopes
	// graphQL says that every operation goes through Buildkite's GraphQL API (graphql_scope.go), which a
	// plan then checks the provider can reach.
	graphQL  bool
	identity resourceIdentity
	// schema is the resource's schema; the parent and key attributes are in it.
	schema func() schema.Schema
	// moves upgrade the states of earlier schema versions (upgrade.go): bySides for an association named by
	// its two sides.
	moves stateMoves

	// parent is the attribute holding the parent's ID ("team_id"); key the one that names the association
	// under its parent: the other side's ID ("user_id"), or "id" where the association has an ID of its own.
	// Read, Update and Delete address the association by these two, and ImportState sets them.
	parent, key string

	// fromAPI fills the model from the service's object; parentID is the parent's, which the object may
	// not carry.
	fromAPI func(m *M, parentID string, obj *T)
	// create, get, update and remove are the client's calls. update is nil where the service cannot change
	// an association: every attribute then replaces it, and Update is never planned.
	create func(ctx context.Context, c *buildkite.Client, parentID string, plan *M) (*T, error)
	get    func(ctx context.Context, c *buildkite.Client, parentID, key string) (*T, error)
	update func(ctx context.Context, c *buildkite.Client, parentID, key string, plan *M) (*T, error)
	remove func(ctx context.Context, c *buildkite.Client, parentID, key string) error

	// current, when set, makes Create take over an association that exists already, which the service
	// refuses (422) to add twice: a pipeline created with default_team_id, or a suite with team_owner_id,
	// gives that team access. The existing association is read with get (the plan's key must then be known
	// before create) and, unless current says it is already what the plan wants, changed with update.
	current func(existing *T, plan *M) bool

	// importParts is the form of the import ID and of the identity, in order; resolve turns the parts into
	// the parent's ID and the key, checking that the association exists.
	importParts []importPart
	resolve     func(ctx context.Context, c *buildkite.Client, parts []string) (parentID, key string, err error)
}

// associationResource serves every association resource from its kind.
type associationResource[T, M any] struct {
	resourceBase
	kind *associationKind[T, M]
}

// newAssociation returns the resource a kind declares.
func newAssociation[T, M any](kind *associationKind[T, M]) resource.Resource {
	base := newResourceBase(kind.name, kind.scopes, kind.identity)
	if kind.graphQL {
		base = base.withGraphQLType()
	}
	return &associationResource[T, M]{resourceBase: base, kind: kind}
}

// Schema implements resource.Resource.
func (r *associationResource[T, M]) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.kind.schema()
}

// UpgradeState implements resource.ResourceWithUpgradeState with the kind's moves.
func (r *associationResource[T, M]) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return upgraders(ctx, r, r.kind.moves)
}

// bySides are the state moves of an association named by its two sides, parent and key ("team_id",
// "user_id"): the official provider's id is the GraphQL ID of the association itself, whose UUID the REST
// API never shows, so the id here is built from the two sides, which its state names by GraphQL ID.
func bySides(parent, key string) stateMoves {
	return stateMoves{refs: []string{parent, key}, official: func(_ int64, a stateAttrs) error {
		p, _ := a[parent].(string)
		k, _ := a[key].(string)
		if !isUUID(p) || !isUUID(k) {
			return fmt.Errorf("%s %q and %s %q do not name the association's two sides", parent, p, key, k)
		}
		a[attrID] = associationID(p, k).ValueString()
		a[attrUUID] = a[attrID]
		return nil
	}}
}

// sides reads the parent's ID and the key from a plan or state, and names the association in errors as its
// import ID does: "<parent>/<key>", or the parent alone while the key is not known.
func (r *associationResource[T, M]) sides(ctx context.Context, src attributeSource, diags *diag.Diagnostics) (parentID, key, ident string) {
	p, _ := stringAttribute(ctx, src, r.kind.parent, diags)
	k, _ := stringAttribute(ctx, src, r.kind.key, diags)
	// The sides are references: a GraphQL ID in the configuration is sent as the UUID it encodes.
	parentID, key = canonicalID(p), canonicalID(k)
	ident = parentID
	if key != "" {
		ident += "/" + key
	}
	return parentID, key, ident
}

// Create adds the association, or takes over the one that exists where the kind allows it.
func (r *associationResource[T, M]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.finishCreate(ctx, resp)
	var plan M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	parentID, key, ident := r.sides(ctx, req.Plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opCreate)
	defer cancel()
	c := r.claim(ident)
	if c != nil {
		c.mu.Lock()
		defer c.mu.Unlock()
	}
	obj, err := r.kind.create(ctx, r.client(), parentID, &plan)
	if err != nil && r.kind.current != nil && refusedCreate(err) {
		if c != nil && c.held {
			resp.Diagnostics.AddError("Unable to Create "+titleWords(r.kind.what), fmt.Sprintf(
				"Creating %s %s: %s. Another buildkite_%s of this configuration created or took it over in this "+
					"run, and one resource must own it: remove the duplicate.", r.kind.what, ident, describeError(err), r.kind.name))
			return
		}
		obj, err = r.takeOver(ctx, parentID, key, &plan, err)
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "create", r.kind.what, ident, err)
		return
	}
	if c != nil {
		c.held = true
	}
	r.kind.fromAPI(&plan, parentID, obj)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// refusedCreate reports whether a create was refused in a way that may mean the association exists: a 422,
// or a GraphQL refusal ("has already been added") that is not a not-found. takeOver then looks.
func refusedCreate(err error) bool {
	var ge *buildkite.GraphQLError
	return buildkite.IsValidation(err) || errors.As(err, &ge) && !ge.Acted && !buildkite.IsNotFound(err)
}

// associationClaim is one association this command created or took over: a second resource of the
// configuration for the same sides is a duplicate, which the service's 422 then refuses, and is not taken
// over. mu orders the creates of one association, so the first settles before the second asks.
type associationClaim struct {
	mu   sync.Mutex
	held bool
}

// claim returns the claim on the association ident names, for the kinds that take over (whose sides are
// known before create), or nil.
func (r *associationResource[T, M]) claim(ident string) *associationClaim {
	if r.kind.current == nil || r.data == nil {
		return nil
	}
	c, _ := r.data.claims.LoadOrStore(r.kind.name+" "+ident, &associationClaim{})
	return c.(*associationClaim)
}

// takeOver finds the association a create was refused for and makes it what the plan says. When there is
// none, the 422 was about something else, and refused is returned as it is.
func (r *associationResource[T, M]) takeOver(ctx context.Context, parentID, key string, plan *M, refused error) (*T, error) {
	existing, err := r.kind.get(ctx, r.client(), parentID, key)
	if err != nil {
		return nil, refused
	}
	if r.kind.current(existing, plan) {
		return existing, nil
	}
	return r.kind.update(ctx, r.client(), parentID, key, plan)
}

// Read refreshes the association; a 404 removes it from state once the organization is confirmed.
func (r *associationResource[T, M]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.finishRead(ctx, req, resp)
	var state M
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	parentID, key, ident := r.sides(ctx, req.State, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	obj, err := r.kind.get(ctx, r.client(), parentID, key)
	if err != nil {
		r.readFailed(ctx, resp, err, r.kind.what, ident)
		return
	}
	r.kind.fromAPI(&state, parentID, obj)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update changes the association's attributes in place.
func (r *associationResource[T, M]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.finishUpdate(ctx, req, resp)
	var plan M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	parentID, key, ident := r.sides(ctx, req.State, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.kind.update == nil {
		resp.Diagnostics.AddError("Unable to Update "+titleWords(r.kind.what),
			fmt.Sprintf("Updating %s %s: the service cannot change it in place, and every change should replace it. "+
				"Please report this issue to the provider developers.", r.kind.what, ident))
		return
	}
	ctx, cancel := r.timeout(ctx, opUpdate)
	defer cancel()
	obj, err := r.kind.update(ctx, r.client(), parentID, key, &plan)
	if err != nil {
		addAPIError(&resp.Diagnostics, "update", r.kind.what, ident, err)
		return
	}
	r.kind.fromAPI(&plan, parentID, obj)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete removes the association; one already gone is success.
func (r *associationResource[T, M]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	parentID, key, ident := r.sides(ctx, req.State, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opDelete)
	defer cancel()
	r.deleteFailed(ctx, &resp.Diagnostics, r.kind.remove(ctx, r.client(), parentID, key), r.kind.what, ident)
	if c := r.claim(ident); c != nil && !resp.Diagnostics.HasError() {
		c.mu.Lock()
		c.held = false
		c.mu.Unlock()
	}
}

// ImportState accepts the kind's import form, as an import ID or as the identity, and the official
// provider's ID of the association (its GraphQL ID, resolved with node(id:); association_graphql_import.go).
func (r *associationResource[T, M]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts, ok := r.partsFromNode(ctx, req.ID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if !ok {
		if parts, ok = r.importParts(ctx, req, resp, r.kind.importParts...); !ok {
			return
		}
	}
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	parentID, key, err := r.kind.resolve(ctx, r.client(), parts)
	if err != nil {
		addAPIError(&resp.Diagnostics, "import", r.kind.what, req.ID, err)
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(r.kind.parent), parentID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(r.kind.key), key)...)
}

// associationID is the ID of an association named by its two sides: "<parent id>/<other id>", the form it
// is imported with. The service gives team associations no identifier of their own.
func associationID(parentID, otherID string) types.String {
	return types.StringValue(parentID + "/" + otherID)
}

// associationAttributes are the computed identifiers of an association named by its two sides; what names
// it ("team membership") and form is its ID's ("<team id>/<user id>").
func associationAttributes(what, form string, attrs map[string]schema.Attribute) map[string]schema.Attribute {
	attrs[attrID] = computedString("The " + what + "'s ID, `" + form + "`.")
	attrs[attrUUID] = computedString("Equal to `id`; configurations written for the official provider refer to it.")
	attrs[attrGraphQLID] = computedString("The " + what + "'s GraphQL ID, where the service sends one (otherwise null).")
	return attrs
}

// teamAndKey resolves the import parts "<team id or slug>/<other>" of a team association: the team by
// UUID or slug, then the other side with find among the team's associations, which returns the key.
func teamAndKey(ctx context.Context, c *buildkite.Client, parts []string,
	find func(ctx context.Context, teamID, other string) (key string, err error)) (teamID, key string, err error) {
	t, err := findTeam(ctx, c, parts[0])
	if err != nil {
		return "", "", err
	}
	key, err = find(ctx, t.ID, parts[1])
	return t.ID, key, err
}

// teamAndOther is teamAndKey for a team association whose other side is named by UUID or slug (a pipeline,
// a suite): the other side is looked up among the team's associations with get and list, and keyOf and
// slugOf read an association's other side.
func teamAndOther[T any](ctx context.Context, c *buildkite.Client, parts []string,
	get func(ctx context.Context, teamID, id string) (*T, error),
	list func(ctx context.Context, teamID string) ([]T, error),
	keyOf, slugOf func(*T) string) (teamID, key string, err error) {
	return teamAndKey(ctx, c, parts, func(ctx context.Context, teamID, other string) (string, error) {
		obj, err := findByIDOrKey(ctx, other,
			func(ctx context.Context, id string) (*T, error) { return get(ctx, teamID, id) },
			func(ctx context.Context) ([]T, error) { return list(ctx, teamID) },
			slugOf)
		if err != nil {
			return "", err
		}
		return keyOf(obj), nil
	})
}
