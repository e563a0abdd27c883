package provider

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// Object and association resources are declared, not written: a type gives an objectKind (its name, scopes,
// identity, schema, state moves, mapping from the client's type, client calls and import form) and
// newObject serves it with the one objectResource below, which holds Create, Read, Update, Delete,
// ImportState, the identity, the timeouts and the shared failure paths (resource_base.go: finishCreate,
// finishRead, finishUpdate, readFailed, deleteFailed, removeGone; adoption.go; lost_secret.go). The type's
// file keeps what is its own: the model, fromAPI, the schema, the descriptor, and the hooks below where it
// really differs. Associations (association.go) are the same kind, served by newAssociation.

var (
	_ resource.Resource                 = (*objectResource[struct{}, struct{}])(nil)
	_ resource.ResourceWithConfigure    = (*objectResource[struct{}, struct{}])(nil)
	_ resource.ResourceWithImportState  = (*objectResource[struct{}, struct{}])(nil)
	_ resource.ResourceWithIdentity     = (*objectResource[struct{}, struct{}])(nil)
	_ resource.ResourceWithModifyPlan   = (*objectResource[struct{}, struct{}])(nil)
	_ resource.ResourceWithUpgradeState = (*objectResource[struct{}, struct{}])(nil)

	_ resource.ResourceWithConfigValidators = (*objectResource[struct{}, struct{}])(nil)
)

// objectKind declares a resource whose client type is T and whose model (a struct with tfsdk tags) is M.
type objectKind[T, M any] struct {
	name     string // type name without "buildkite_": "team"
	what     string // in errors: "team"
	scopes   operationScopes
	identity resourceIdentity
	// schema is the resource's schema; the parent and key attributes are in it.
	schema func() schema.Schema
	// moves upgrade the states of earlier schema versions (upgrade.go).
	moves stateMoves
	// noID: the schema has no id attribute; the identity alone names the object (a portal, by slug).
	noID bool
	// singleton: the organization's one object of the type (its banner), which the calls find without a
	// key and errors name by the organization.
	singleton bool
	// setting: a setting of its parent (a cluster's default queue) rather than an object of its own, addressed
	// and named by the parent's ID alone, which is also its id; get answers errAbsent where the parent holds
	// none.
	setting bool
	// graphQL: the type's calls go through Buildkite's GraphQL API (every plan needs it: graphql_scope.go),
	// whose answers may carry the object, or show it done, and errors as well.
	graphQL *graphQLCalls

	// key is the attribute that addresses the object: "id", or "slug" where the service addresses it so;
	// parent, where the service keeps the object under another ("cluster_id", "team_id"), the attribute
	// holding the parent's ID, else "". Read, Update and Delete address the object by these two, and
	// ImportState sets them.
	parent, key string

	// fromAPI fills the model from the service's object; parentID is the parent's, which the object may
	// not carry. The model holds the plan or prior state it is filled over.
	fromAPI func(m *M, parentID string, obj *T)
	// create, get, update and remove are the client's calls. update is nil where the service cannot change
	// the object: every attribute then replaces it, and Update is never planned. update has the prior
	// state beside the plan (to send only what changed, or keep what only a create answer holds).
	create func(ctx context.Context, c *buildkite.Client, parentID string, plan *M) (*T, error)
	get    func(ctx context.Context, c *buildkite.Client, parentID, key string) (*T, error)
	update func(ctx context.Context, c *buildkite.Client, parentID, key string, plan, state *M) (*T, error)
	remove func(ctx context.Context, c *buildkite.Client, parentID, key string) error

	// importParts is the form of the import ID and of the identity, in order; resolve turns the parts into
	// the parent's ID and the key, checking that the object exists. Without resolve the parts are the
	// parent's ID (where there is a parent) and the key, as given.
	importParts []importPart
	resolve     func(ctx context.Context, c *buildkite.Client, parts []string) (parentID, key string, err error)
	// parents, for an object under a parent, lists the parents' IDs: an import ID that is the object's own
	// ID alone (as Terraform holds it in `id`) is then looked for under each with get (import_kit.go).
	parents func(ctx context.Context, c *buildkite.Client) ([]string, error)

	// The hooks below are for the types that need them; nil (or "") where a type does not.

	// named names the object a create makes in its errors ("\"Platform\""); without it, the parent and key.
	named func(plan *M) string
	// secret is the attribute that only the create answer carries (a token): a create whose answer was
	// lost records the object tainted, with the secret null (lost_secret.go).
	secret string
	// holder finds the object holding the name or key a create was refused for, for the error that adopts
	// it (adoption.go).
	holder func(c *buildkite.Client, plan *M) holderLookup
	// replaced reports, in a Read, that the object at the key is another than the one in state (deleted and
	// made again outside Terraform): its detail is warned of and the resource leaves state.
	replaced func(state *M, obj *T) string
	// deleteRefused explains a refused delete (such as one of an object still in use), or returns "" for
	// the service's error as it is.
	deleteRefused func(ctx context.Context, c *buildkite.Client, parentID, key string, err error) string
	// planned adjusts, or refuses, the plan of an update (both plan and state known), such as a computed
	// attribute that stays unless something else changes.
	planned func(plan, state *M, diags *diag.Diagnostics)
	// renamed are the attributes the service derives from the name (a slug, URLs): unknown in a plan that
	// changes the name.
	renamed []string
	// byID and keyOf are for an object addressed by a slug that a rename elsewhere changes (key "slug"):
	// it is found by the slug in state, then by its ID (the id attribute) with byID, and Update and Delete
	// address it by the slug it has now, keyOf. It imports by slug or ID.
	byID  func(ctx context.Context, c *buildkite.Client, parentID, id string) (*T, error)
	keyOf func(obj *T) string
	// explainCreate reports a refused create in the type's own words (adding the error and returning true),
	// before the shared report.
	explainCreate func(plan *M, err error, diags *diag.Diagnostics) bool
	// applied checks, after a create or update and before fromAPI fills the plan, that the service holds what
	// the plan asked for (a policy it normalized into something that means otherwise), adding an error if
	// not; the state still records what the service holds.
	applied func(plan *M, obj *T, ident string, diags *diag.Diagnostics)
	// kept is for an object that outlives the resource (the organization's pipeline settings): Delete sends
	// nothing and warns with the summary and detail it returns.
	kept func(c *buildkite.Client) (summary, detail string)
	// writeOnly copies into the plan, before create and update, the write-only attributes only the
	// configuration holds (a secret's value_wo); fromAPI nulls them again.
	writeOnly func(plan, config *M)
	// modifyPlan is the plan-time check or change of a type that needs the whole request (the configuration,
	// a raw comparison with state), after the checks every resource makes.
	modifyPlan func(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse)
	// validators are the type's configuration validators (attributes that conflict or go together).
	validators []resource.ConfigValidator
	// afterImport completes, in the first Read after an import, what the service shows only that way (the
	// teams a registry was created for, the team that owns a suite).
	afterImport func(ctx context.Context, c *buildkite.Client, state *M, obj *T)

	// afterCreate runs once the created object is recorded in state, under the request's context rather
	// than the call timeout (a build to wait for, within the type's own timeouts.create): it returns the
	// object as it then stands, recorded again, and an error that fails the apply, the object staying in
	// state, tainted.
	afterCreate func(ctx context.Context, c *buildkite.Client, parentID string, plan *M, obj *T) (*T, error)
	// opaqueKey: the key is "id" and holds an ID the service assigns that is not a UUID (an agent image's),
	// sent as it is.
	opaqueKey bool

	// current, when set, makes Create take over an association that exists already (association.go).
	current func(existing *T, plan *M) bool
}

// graphQLCalls is how a kind's GraphQL answers are reported. A create whose answer carries the object and a
// remove that was done are recorded, their errors warned of (actedWithErrors); a refused create is reported
// error by error, each on the attribute fields names for the mutation's input field (addGraphQLError).
type graphQLCalls struct {
	fields map[string]path.Path
	// removes is the verb of remove in errors ("revoke"); "" is "delete".
	removes string
}

// objectResource serves every object and association resource from its kind.
type objectResource[T, M any] struct {
	resourceBase
	kind *objectKind[T, M]
	// sides: an association, named in errors by its two sides and addressed by canonical IDs.
	sides bool
}

// newObject returns the resource a kind declares.
func newObject[T, M any](kind *objectKind[T, M]) resource.Resource {
	base := newResourceBase(kind.name, kind.scopes, kind.identity)
	if kind.noID {
		base = base.withoutID()
	}
	if kind.graphQL != nil {
		base = base.withGraphQLType()
	}
	return &objectResource[T, M]{resourceBase: base, kind: kind}
}

// Schema implements resource.Resource.
func (r *objectResource[T, M]) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.kind.schema()
}

// UpgradeState implements resource.ResourceWithUpgradeState with the kind's moves.
func (r *objectResource[T, M]) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return upgraders(ctx, r, r.kind.moves)
}

// ConfigValidators implements resource.ResourceWithConfigValidators with the kind's validators.
func (r *objectResource[T, M]) ConfigValidators(context.Context) []resource.ConfigValidator {
	return r.kind.validators
}

// ModifyPlan adds the kind's planned hook to the checks every resource makes at plan time.
func (r *objectResource[T, M]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.resourceBase.ModifyPlan(ctx, req, resp)
	if r.kind.modifyPlan != nil {
		r.kind.modifyPlan(ctx, req, resp)
	}
	if len(r.kind.renamed) > 0 {
		unknownWhenRenamed(ctx, req, resp, r.kind.renamed...)
	}
	if r.kind.planned == nil || resp.Diagnostics.HasError() || req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return
	}
	var plan, state M
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.kind.planned(&plan, &state, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// objectAddress is where an object is: its parent's ID, its key and, for a kind found by ID too, its ID;
// ident names it in errors.
type objectAddress struct{ parent, key, id, ident string }

// address reads the object's address from a plan or state. An association is named as its import ID names
// it, "<parent>/<key>" (the parent alone while the key is not known), its sides sent as the UUIDs their
// GraphQL IDs encode. An object is named by its key (by its ID, where it is found by ID too) as state holds
// it; an ID is sent as the UUID it names, or "" (which the client refuses without asking) when it names
// none.
func (r *objectResource[T, M]) address(ctx context.Context, src attributeSource, diags *diag.Diagnostics) objectAddress {
	var p, id string
	if r.kind.parent != "" {
		p, _ = stringAttribute(ctx, src, r.kind.parent, diags)
	}
	k, _ := stringAttribute(ctx, src, r.kind.key, diags)
	if r.sides {
		a := objectAddress{parent: canonicalID(p), key: canonicalID(k)}
		a.ident = a.parent
		if a.key != "" {
			a.ident += "/" + a.key
		}
		return a
	}
	a := objectAddress{parent: readableUUID(p), key: k, ident: k}
	if r.kind.setting {
		a.key, a.ident = a.parent, a.parent
		return a
	}
	if r.kind.singleton {
		a.ident = r.client().Organization()
		return a
	}
	if r.kind.key == attrID && !r.kind.opaqueKey {
		a.key = readableUUID(k)
	}
	if r.kind.byID != nil {
		id, _ = stringAttribute(ctx, src, attrID, diags)
		a.id = readableUUID(id)
		if id != "" {
			a.ident = id
		}
	}
	switch {
	case p != "" && a.ident != "":
		a.ident = p + "/" + a.ident
	case p != "":
		a.ident = p
	}
	return a
}

// find reads the object at a: by its key, then, for a kind found by ID too, by its ID.
func (r *objectResource[T, M]) find(ctx context.Context, a objectAddress) (*T, error) {
	c := r.client()
	get := func(ctx context.Context, key string) (*T, error) { return r.kind.get(ctx, c, a.parent, key) }
	if r.kind.byID == nil {
		return get(ctx, a.key)
	}
	return bySlugThenID(ctx, a.key, a.id, get, func(ctx context.Context, id string) (*T, error) {
		return r.kind.byID(ctx, c, a.parent, id)
	})
}

// current returns a with the key the object has now, for a kind whose key a rename elsewhere changes.
func (r *objectResource[T, M]) current(ctx context.Context, a objectAddress) (objectAddress, error) {
	if r.kind.byID == nil {
		return a, nil
	}
	obj, err := r.find(ctx, a)
	if err == nil {
		a.key = r.kind.keyOf(obj)
	}
	return a, err
}

// Create makes the object, adopting or taking over where the kind says so.
func (r *objectResource[T, M]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.finishCreate(ctx, resp)
	var plan M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	r.withWriteOnly(ctx, req.Config, &plan, &resp.Diagnostics)
	a := r.address(ctx, req.Plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	parentID, ident := a.parent, a.ident
	if r.kind.named != nil {
		ident = r.kind.named(&plan)
	}
	request := ctx
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
		obj, err = r.takeOver(ctx, parentID, a.key, &plan, err)
	}
	lost := r.kind.secret != "" && obj != nil && secretLost(ctx, &resp.Diagnostics, err, r.kind.what, ident, r.kind.secret)
	acted := r.kind.graphQL != nil && obj != nil && actedWithErrors(&resp.Diagnostics, err, "create", r.kind.what, ident)
	if err != nil && !lost && !acted {
		if ownWords(err) {
			r.hookFailed(&resp.Diagnostics, "create", ident, err)
			if partial(obj, err) {
				r.kind.fromAPI(&plan, parentID, obj)
				resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
			}
			return
		}
		if r.kind.graphQL != nil {
			addGraphQLError(&resp.Diagnostics, "create", r.kind.what, ident, err, r.kind.graphQL.fields)
			return
		}
		if r.kind.explainCreate != nil && r.kind.explainCreate(&plan, err, &resp.Diagnostics) {
			return
		}
		var find holderLookup
		if r.kind.holder != nil {
			find = r.kind.holder(r.client(), &plan)
		}
		r.createFailed(ctx, &resp.Diagnostics, err, r.kind.what, ident, find)
		return
	}
	if c != nil {
		c.held = true
	}
	if r.kind.applied != nil {
		r.kind.applied(&plan, obj, ident, &resp.Diagnostics)
	}
	r.kind.fromAPI(&plan, parentID, obj)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	if r.kind.afterCreate != nil && !resp.Diagnostics.HasError() {
		obj, err = r.kind.afterCreate(request, r.client(), parentID, &plan, obj)
		r.kind.fromAPI(&plan, parentID, obj)
		resp.Diagnostics.Append(resp.State.Set(request, &plan)...)
		if err != nil {
			r.hookFailed(&resp.Diagnostics, "create", ident, err)
		}
	}
}

// Read refreshes the object; a 404 removes it from state once the organization is confirmed.
func (r *objectResource[T, M]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.finishRead(ctx, req, resp)
	var state M
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	a := r.address(ctx, req.State, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	obj, err := r.find(ctx, a)
	var left *leftBehind
	switch {
	case errors.As(err, &left):
		resp.Diagnostics.AddWarning(left.summary, left.detail)
		r.removeGone(ctx, resp)
		return
	case errors.Is(err, errAbsent):
		r.removeGone(ctx, resp)
		return
	case ownWords(err):
		r.hookFailed(&resp.Diagnostics, "read", a.ident, err)
		return
	case err != nil:
		r.readFailed(ctx, resp, err, r.kind.what, a.ident)
		return
	}
	if r.kind.replaced != nil {
		if detail := r.kind.replaced(&state, obj); detail != "" {
			resp.Diagnostics.AddWarning(titleWords(r.kind.what)+" Replaced Outside Terraform", detail)
			r.removeGone(ctx, resp)
			return
		}
	}
	r.kind.fromAPI(&state, a.parent, obj)
	if r.kind.afterImport != nil {
		if imported, _ := req.Private.GetKey(ctx, r.importKey()); string(imported) == "true" {
			r.kind.afterImport(ctx, r.client(), &state, obj)
			resp.Diagnostics.Append(resp.Private.SetKey(ctx, r.importKey(), nil)...)
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// importKey marks, in the private state an import hands to its Read, that afterImport is to complete it.
func (r *objectResource[T, M]) importKey() string { return "buildkite_" + r.kind.name + "_imported" }

// Update changes the object's attributes in place.
func (r *objectResource[T, M]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.finishUpdate(ctx, req, resp)
	var plan, state M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	r.withWriteOnly(ctx, req.Config, &plan, &resp.Diagnostics)
	a := r.address(ctx, req.State, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.kind.update == nil {
		resp.Diagnostics.AddError("Unable to Update "+titleWords(r.kind.what),
			fmt.Sprintf("Updating %s %s: the service cannot change it in place, and every change should replace it. "+
				"Please report this issue to the provider developers.", r.kind.what, a.ident))
		return
	}
	ctx, cancel := r.timeout(ctx, opUpdate)
	defer cancel()
	a, err := r.current(ctx, a)
	var obj *T
	if err == nil {
		obj, err = r.kind.update(ctx, r.client(), a.parent, a.key, &plan, &state)
	}
	if err != nil {
		r.hookFailed(&resp.Diagnostics, "update", a.ident, err)
		if !partial(obj, err) {
			return
		}
	}
	if r.kind.applied != nil {
		r.kind.applied(&plan, obj, a.ident, &resp.Diagnostics)
	}
	r.kind.fromAPI(&plan, a.parent, obj)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete removes the object; one already gone is success.
func (r *objectResource[T, M]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if r.kind.kept != nil {
		resp.Diagnostics.AddWarning(r.kind.kept(r.client()))
		return
	}
	a := r.address(ctx, req.State, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opDelete)
	defer cancel()
	a, err := r.current(ctx, a)
	if err == nil {
		err = r.kind.remove(ctx, r.client(), a.parent, a.key)
	}
	if g := r.kind.graphQL; g != nil && actedWithErrors(&resp.Diagnostics, err, cmp.Or(g.removes, "delete"), r.kind.what, a.ident) {
		return // the answer shows it done
	}
	if err != nil && r.kind.deleteRefused != nil {
		if detail := r.kind.deleteRefused(ctx, r.client(), a.parent, a.key, err); detail != "" {
			resp.Diagnostics.AddError("Unable to Delete "+titleWords(r.kind.what), detail)
			return
		}
	}
	if ownWords(err) {
		r.hookFailed(&resp.Diagnostics, "delete", a.ident, err)
	} else {
		r.deleteFailed(ctx, &resp.Diagnostics, err, r.kind.what, a.ident)
	}
	if c := r.claim(a.ident); c != nil && !resp.Diagnostics.HasError() {
		c.mu.Lock()
		c.held = false
		c.mu.Unlock()
	}
}

// ImportState accepts the kind's import form, as an import ID or as the identity, and, for the team
// associations, the official provider's ID of the association (its GraphQL ID, resolved with node(id:);
// association_graphql_import.go).
func (r *objectResource[T, M]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if r.kind.parents != nil && !r.qualify(ctx, &req, resp) {
		return
	}
	parts, ok := r.partsFromNode(ctx, req.ID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if !ok {
		if parts, ok = r.importParts(ctx, req, resp, r.kind.importParts...); !ok {
			return
		}
	}
	var parentID, key string
	switch {
	case r.kind.resolve != nil:
		ctx, cancel := r.timeout(ctx, opRead)
		defer cancel()
		var err error
		if parentID, key, err = r.kind.resolve(ctx, r.client(), parts); err != nil {
			r.hookFailed(&resp.Diagnostics, "import", req.ID, err)
			return
		}
	case r.kind.setting:
		parentID, key = parts[0], parts[0]
	case r.kind.parent != "":
		parentID, key = parts[0], parts[1]
	default:
		key = parts[0]
	}
	if r.kind.parent != "" {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(r.kind.parent), parentID)...)
	}
	if r.kind.byID != nil {
		resp.Diagnostics.Append(setSlugOrID(ctx, resp, key)...)
	} else {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(r.kind.key), key)...)
	}
	if r.kind.afterImport != nil {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, r.importKey(), []byte("true"))...)
	}
}

// qualify turns an import ID that is the object's own ID alone into "<parent>/<id>", asking each parent.
func (r *objectResource[T, M]) qualify(ctx context.Context, req *resource.ImportStateRequest, resp *resource.ImportStateResponse) bool {
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	c := r.client()
	return qualifyImportID(ctx, req, resp, r.kind.what, importForm(r.kind.importParts),
		func(ctx context.Context) ([]string, error) { return r.kind.parents(ctx, c) },
		func(ctx context.Context, parent, id string) error {
			_, err := r.kind.get(ctx, c, parent, id)
			return err
		})
}

// diagnosedError is an error a client call or hook reports in its own words (a summary users' tests match
// on). Returned by a get, it leaves the object in state; returned by a create or update together with an
// answer (a change applied in part), the state records the answer.
type diagnosedError struct{ summary, detail string }

// partial reports whether a hook's error came with the answer of a change applied in part.
func partial[T any](obj *T, err error) bool {
	return obj != nil && errors.As(err, new(*diagnosedError))
}

// leftBehind is what a client call or hook reports as a warning: the operation succeeds for Terraform, and
// the warning says what it left behind (a default queue the service refused to unset). From a get, it is
// the object found unusable (a revoked token): Read warns of it and removes the resource from state.
type leftBehind diagnosedError

func (e *leftBehind) Error() string { return e.summary + ": " + e.detail }

func (e *diagnosedError) Error() string { return e.summary + ": " + e.detail }

// hookFailed reports the error of a client call or hook: in the hook's own words where it gave them.
func (r *objectResource[T, M]) hookFailed(diags *diag.Diagnostics, op, ident string, err error) {
	var own *diagnosedError
	var as *reportedAs
	var left *leftBehind
	switch {
	case errors.As(err, &left):
		diags.AddWarning(left.summary, left.detail)
	case errors.As(err, &own):
		diags.AddError(own.summary, own.detail)
	case errors.As(err, &as):
		addAPIError(diags, as.op, as.what, ident, as.err)
	default:
		addAPIError(diags, op, r.kind.what, ident, err)
	}
}

// ownWords reports whether err is to be reported as a hook gave it (diagnosedError, reportedAs, leftBehind) rather
// than by the shared failure paths of its operation.
func ownWords(err error) bool {
	return errors.As(err, new(*diagnosedError)) || errors.As(err, new(*reportedAs)) || errors.As(err, new(*leftBehind))
}

// errAbsent is a setting's get finding that its parent holds none: removed outside Terraform, which the
// parent's answer confirms, so Read removes it from state.
var errAbsent = errors.New("the parent holds no such setting")

// reportedAs is an error an update hook reports as another operation, or of another part of the object,
// than the update's own: the "update" of a "cluster secret value".
type reportedAs struct {
	op, what string
	err      error
}

func (e *reportedAs) Error() string { return e.err.Error() }

func (e *reportedAs) Unwrap() error { return e.err }

// withWriteOnly copies the configuration's write-only attributes into the plan, for the kinds that have any.
func (r *objectResource[T, M]) withWriteOnly(ctx context.Context, config tfsdk.Config, plan *M, diags *diag.Diagnostics) {
	if r.kind.writeOnly == nil {
		return
	}
	var c M
	diags.Append(config.Get(ctx, &c)...)
	r.kind.writeOnly(plan, &c)
}
