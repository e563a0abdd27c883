package kit

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

// Object and association resources are declared, not written: a type gives an ObjectKind (its name, scopes,
// identity, schema, state moves, mapping from the client's type, client calls and import form) and
// NewObject serves it with the one objectResource below, which holds Create, Read, Update, Delete,
// ImportState, the identity, the timeouts and the shared failure paths (resource_base.go: FinishCreate,
// FinishRead, FinishUpdate, ReadFailed, DeleteFailed, RemoveGone; adoption.go; lost_secret.go). The type's
// file keeps what is its own: the model, fromAPI, the schema, the descriptor, and the hooks below where it
// really differs. Associations (association.go) are the same kind, served by NewAssociation.

var (
	_ resource.Resource                 = (*objectResource[struct{}, struct{}])(nil)
	_ resource.ResourceWithConfigure    = (*objectResource[struct{}, struct{}])(nil)
	_ resource.ResourceWithImportState  = (*objectResource[struct{}, struct{}])(nil)
	_ resource.ResourceWithIdentity     = (*objectResource[struct{}, struct{}])(nil)
	_ resource.ResourceWithModifyPlan   = (*objectResource[struct{}, struct{}])(nil)
	_ resource.ResourceWithUpgradeState = (*objectResource[struct{}, struct{}])(nil)

	_ resource.ResourceWithConfigValidators = (*objectResource[struct{}, struct{}])(nil)
)

// ObjectKind declares a resource whose client type is T and whose model (a struct with tfsdk tags) is M.
type ObjectKind[T, M any] struct {
	Name     string // type name without "buildkite_": "team"
	What     string // in errors: "team"
	Scopes   OperationScopes
	Identity resourceIdentity
	// Schema is the resource's schema; the parent and key attributes are in it.
	Schema func() schema.Schema
	// Moves upgrade the states of earlier schema versions (upgrade.go).
	Moves StateMoves
	// NoID: the schema has no id attribute; the identity alone names the object (a portal, by slug).
	NoID bool
	// Singleton: the organization's one object of the type (its banner), which the calls find without a
	// key and errors name by the organization.
	Singleton bool
	// Setting: a setting of its parent (a cluster's default queue) rather than an object of its own, addressed
	// and named by the parent's ID alone, which is also its id; Get answers ErrAbsent where the parent holds
	// none.
	Setting bool
	// GraphQL: the type's calls go through Buildkite's GraphQL API (every plan needs it: graphql_scope.go),
	// whose answers may carry the object, or show it done, and errors as well.
	GraphQL *GraphQLCalls
	// GraphQLAttrs are the attributes served through GraphQL, on a type served through REST otherwise (a
	// cluster's agent tracing service): a plan needs GraphQL only where one of them is set (graphql_scope.go).
	GraphQLAttrs []string

	// Key is the attribute that addresses the object: "id", or "slug" where the service addresses it so;
	// Parent, where the service keeps the object under another ("cluster_id", "team_id"), the attribute
	// holding the parent's ID, else "". Read, Update and Delete address the object by these two, and
	// ImportState sets them.
	Parent, Key string

	// FromAPI fills the model from the service's object; parentID is the parent's, which the object may
	// not carry. The model holds the plan or prior state it is filled over.
	FromAPI func(m *M, parentID string, obj *T)
	// Create, Get, Update and Remove are the client's calls. Update is nil where the service cannot change
	// the object: every attribute then replaces it, and an update is never planned. Update has the prior
	// state beside the plan (to send only what changed, or keep what only a create answer holds); it answers
	// nil, nil where it sent nothing for the object itself (only a part WritePart writes changed).
	Create func(ctx context.Context, c *buildkite.Client, parentID string, plan *M) (*T, error)
	Get    func(ctx context.Context, c *buildkite.Client, parentID, key string) (*T, error)
	Update func(ctx context.Context, c *buildkite.Client, parentID, key string, plan, state *M) (*T, error)
	Remove func(ctx context.Context, c *buildkite.Client, parentID, key string) error

	// ImportParts is the form of the import ID and of the identity, in order; Resolve turns the parts into
	// the parent's ID and the key, checking that the object exists. Without Resolve the parts are the
	// parent's ID (where there is a parent) and the key, as given.
	ImportParts []ImportPart
	Resolve     func(ctx context.Context, c *buildkite.Client, parts []string) (parentID, key string, err error)
	// Parents, for an object under a parent, lists the parents' IDs: an import ID that is the object's own
	// ID alone (as Terraform holds it in `id`) is then looked for under each with Get (import_kit.go).
	Parents func(ctx context.Context, c *buildkite.Client) ([]string, error)

	// The hooks below are for the types that need them; nil (or "") where a type does not.

	// Named names the object a create makes in its errors ("\"Platform\""); without it, the parent and key.
	Named func(plan *M) string
	// Secret is the attribute that only the create answer carries (a token): a create whose answer was
	// lost records the object tainted, with the secret null (lost_secret.go).
	Secret string
	// Holder finds the object holding the name or key a create was refused for, for the error that adopts
	// it (adoption.go).
	Holder func(c *buildkite.Client, plan *M) HolderLookup
	// Replaced reports, in a Read, that the object at the key is another than the one in state (deleted and
	// made again outside Terraform): its detail is warned of and the resource leaves state.
	Replaced func(state *M, obj *T) string
	// DeleteRefused explains a refused delete (such as one of an object still in use), or returns "" for
	// the service's error as it is.
	DeleteRefused func(ctx context.Context, c *buildkite.Client, parentID, key string, err error) string
	// Planned adjusts, or refuses, the plan of an update (both plan and state known), such as a computed
	// attribute that stays unless something else changes.
	Planned func(plan, state *M, diags *diag.Diagnostics)
	// Renamed are the attributes the service derives from the name (a slug, URLs): unknown in a plan that
	// changes the name.
	Renamed []string
	// ByID and KeyOf are for an object addressed by a slug that a rename elsewhere changes (key "slug"):
	// it is found by the slug in state, then by its ID (the id attribute) with ByID, and Update and Delete
	// address it by the slug it has now, KeyOf. It imports by slug or ID.
	ByID  func(ctx context.Context, c *buildkite.Client, parentID, id string) (*T, error)
	KeyOf func(obj *T) string
	// ExplainCreate reports a refused create in the type's own words (adding the error and returning true),
	// before the shared report.
	ExplainCreate func(plan *M, err error, diags *diag.Diagnostics) bool
	// WritePart writes a part of the object served apart from it (a cluster's agent tracing service, through
	// GraphQL) after a create or update has recorded the object in got: from plan, over prior (nil for a
	// create). It records in got what the service then holds and adds its own errors; the state records got.
	WritePart func(ctx context.Context, c *buildkite.Client, plan, prior, got *M, diags *diag.Diagnostics)
	// ReadPart reads that part into got after a get, adding its own errors, which leave the state as it was.
	ReadPart func(ctx context.Context, d *ProviderData, got *M, diags *diag.Diagnostics)
	// Applied checks, after a create or update and before FromAPI fills the plan, that the service holds what
	// the plan asked for (a policy it normalized into something that means otherwise), adding an error if
	// not; the state still records what the service holds.
	Applied func(plan *M, obj *T, ident string, diags *diag.Diagnostics)
	// Kept is for an object that outlives the resource (the organization's pipeline settings): Delete sends
	// nothing and warns with the summary and detail it returns.
	Kept func(c *buildkite.Client) (summary, detail string)
	// WriteOnly copies into the plan, before create and update, what only the configuration holds: the
	// write-only attributes (a secret's value_wo), which FromAPI nulls again, or what a hook needs to know of
	// how the configuration was written (the pipeline's provider settings it names).
	WriteOnly func(plan, config *M)
	// ModifyPlan is the plan-time check or change of a type that needs the whole request (the configuration,
	// a raw comparison with state), after the checks every resource makes.
	ModifyPlan func(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse)
	// Validators are the type's configuration validators (attributes that conflict or go together).
	Validators []resource.ConfigValidator
	// AfterImport completes, in the first Read after an import, what the service shows only that way (the
	// teams a registry was created for, the team that owns a suite).
	AfterImport func(ctx context.Context, c *buildkite.Client, state *M, obj *T)

	// AfterCreate runs once the created object is recorded in state, under the request's context rather
	// than the call timeout (a build to wait for, within the type's own timeouts.create): it returns the
	// object as it then stands, recorded again, and an error that fails the apply, the object staying in
	// state, tainted.
	AfterCreate func(ctx context.Context, c *buildkite.Client, parentID string, plan *M, obj *T) (*T, error)
	// OpaqueKey: the key is "id" and holds an ID the service assigns that is not a UUID (an agent image's),
	// sent as it is.
	OpaqueKey bool

	// Current, when set, makes Create take over an association that exists already (association.go).
	Current func(existing *T, plan *M) bool

	// A plan-time check or change that needs the provider's data.

	// PlanWith is ModifyPlan for a type whose plan-time check or change asks the service (the pipelines a
	// value names by slug, the member a create would adopt) or depends on the provider's settings (whether
	// Buildkite's GraphQL API can be reached): it runs after ModifyPlan, with the resource's base, whose Data
	// is nil while the provider is not configured.
	PlanWith func(ctx context.Context, b *ResourceBase, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse)

	// Found from what its state holds, and adopted rather than made (object_lookup.go): for an object that no
	// one key addresses (a membership: by a user's UUID, the invitation tracked, or an e-mail), which a create
	// may take over instead of making it, announced at plan (PlanWith). b is the resource's base: its client,
	// timeouts and shared failure paths. Lookup finds the object for Read, in place of Get (ErrAbsent once it
	// has confirmed it gone); its removal depends on how the state came to hold it (an adopted one is given
	// back rather than removed: RemoveFrom); Import is ImportState for an import that reads what it takes
	// over. Their calls report in their own words, and with Reported, as diagnostics.
	Lookup func(ctx context.Context, b *ResourceBase, state *M) (*T, error)
	Import func(ctx context.Context, b *ResourceBase, req resource.ImportStateRequest, resp *resource.ImportStateResponse)

	// Import IDs written in another form than ImportParts'.

	// OtherImportID turns an import ID of another form (the official provider's, such as "<object's GraphQL
	// ID>,<parent's UUID>") into the form of ImportParts, before ImportState reads it; it returns any other ID
	// as it is.
	OtherImportID func(id string) string

	// A parent named as written (object_parent.go). AsWritten: the parent attribute keeps the parent as the
	// configuration wrote it (a pipeline's slug, UUID or GraphQL ID), handed so to the calls and naming the
	// object so in errors. Locate, where the calls address the parent in another form found from that one
	// (a pipeline's slug, which a rename changes), finds it for each call and keeps it in private state;
	// plans and imports then go through it too.
	AsWritten bool
	Locate    *ParentLocator
	// KeyOr is the attribute whose value addresses the object where the Key attribute holds no ID of the
	// type (the uuid beside the GraphQL ID the official provider kept in id).
	KeyOr string

	// For an object whose state steers its calls beyond its key (a pipeline), object_state.go. Find replaces
	// Get in Read: it finds the object by its key and its ID (the UUID the id attribute names, "" for none)
	// together, Update and Delete finding nothing first. RemoveFrom replaces Remove in Delete: it removes the
	// object the state holds as the state and the provider's settings say (an archive rather than a delete,
	// an adopted member given back its role rather than removed), with the resource's base.
	Find       func(ctx context.Context, c *buildkite.Client, key, id string) (*T, error)
	RemoveFrom func(ctx context.Context, b *ResourceBase, state *M) error
	// LoadPrivate fills the prior state, in Read and Update, from the type's keys in the private state (what the
	// state does not show: how a value was configured). SavePrivate returns the keys to record once the create
	// or update hook has run, whatever it answered; a nil value removes a key.
	LoadPrivate func(state *M, get func(key string) []byte)
	SavePrivate func(plan *M) map[string][]byte

	// Settings is for a singleton that manages only the settings its configuration sets and puts back what it
	// managed when destroyed (singleton_settings.go, object_settings.go): the organization's API settings.
	Settings *SettingsCalls[M]
	// ImportWhole reads, for an import, the whole object into the model the state records (adding its own
	// errors and warnings) where the first Read cannot complete it from the key alone: what a configuration
	// that leaves it out never writes but an import must hold (the organization's enforce_2fa). id is the
	// import ID as given ("" for an import by identity), parts its parts as ImportParts reads them.
	ImportWhole func(ctx context.Context, d *ProviderData, id string, parts []string, m *M, diags *diag.Diagnostics)
}

// GraphQLCalls is how a kind's GraphQL answers are reported. A create whose answer carries the object and a
// remove that was done are recorded, their errors warned of (ActedWithErrors); a refused create is reported
// error by error, each on the attribute fields names for the mutation's input field (AddGraphQLError).
type GraphQLCalls struct {
	Fields map[string]path.Path
	// Removes is the verb of remove in errors ("revoke"); "" is "delete".
	Removes string
}

// objectResource serves every object and association resource from its kind.
type objectResource[T, M any] struct {
	ResourceBase
	kind *ObjectKind[T, M]
	// sides: an association, named in errors by its two sides and addressed by canonical IDs.
	sides bool
}

// NewObject returns the resource a kind declares.
func NewObject[T, M any](kind *ObjectKind[T, M]) resource.Resource {
	base := NewResourceBase(kind.Name, kind.Scopes, kind.Identity)
	if kind.NoID {
		base = base.withoutID()
	}
	if kind.GraphQL != nil {
		base = base.WithGraphQLType()
	}
	if len(kind.GraphQLAttrs) > 0 {
		base = base.WithGraphQLAttrs(kind.GraphQLAttrs...)
	}
	if kind.Locate != nil {
		kind = locatedKind(kind)
	}
	return &objectResource[T, M]{ResourceBase: base, kind: kind}
}

// Schema implements resource.Resource.
func (r *objectResource[T, M]) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.kind.Schema()
}

// UpgradeState implements resource.ResourceWithUpgradeState with the kind's moves.
func (r *objectResource[T, M]) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return Upgraders(ctx, r, r.kind.Moves)
}

// ConfigValidators implements resource.ResourceWithConfigValidators with the kind's validators.
func (r *objectResource[T, M]) ConfigValidators(context.Context) []resource.ConfigValidator {
	return r.kind.Validators
}

// ModifyPlan adds the kind's planned hook to the checks every resource makes at plan time.
func (r *objectResource[T, M]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.ResourceBase.ModifyPlan(ctx, req, resp)
	if r.kind.ModifyPlan != nil {
		r.kind.ModifyPlan(ctx, req, resp)
	}
	if r.kind.PlanWith != nil {
		r.kind.PlanWith(ctx, &r.ResourceBase, req, resp)
	}
	if r.kind.Settings != nil {
		r.planSettings(ctx, req, resp)
	}
	if len(r.kind.Renamed) > 0 {
		unknownWhenRenamed(ctx, req, resp, r.kind.Renamed...)
	}
	if r.kind.Locate != nil {
		r.replanParent(ctx, req, resp)
	}
	if r.kind.Planned == nil || resp.Diagnostics.HasError() || req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return
	}
	var plan, state M
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.kind.Planned(&plan, &state, &resp.Diagnostics)
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
	if r.kind.Parent != "" {
		p, _ = stringAttribute(ctx, src, r.kind.Parent, diags)
	}
	k, _ := stringAttribute(ctx, src, r.kind.Key, diags)
	if r.sides {
		a := objectAddress{parent: CanonicalID(p), key: CanonicalID(k)}
		a.ident = a.parent
		if a.key != "" {
			a.ident += "/" + a.key
		}
		return a
	}
	a := objectAddress{parent: readableUUID(p), key: k, ident: k}
	if r.kind.AsWritten {
		a.parent = p
	}
	if r.kind.Setting {
		a.key, a.ident = a.parent, a.parent
		return a
	}
	if r.kind.Singleton {
		a.ident = r.Client().Organization()
		return a
	}
	if r.kind.Key == AttrID && !r.kind.OpaqueKey {
		a.key = readableUUID(k)
	}
	if r.kind.KeyOr != "" {
		a.key = r.keyOr(ctx, src, k, diags)
	}
	if r.kind.ByID != nil {
		id, _ = stringAttribute(ctx, src, AttrID, diags)
		a.id = readableUUID(id)
		if id != "" {
			a.ident = id
		}
	}
	if r.kind.Find != nil {
		id, _ = stringAttribute(ctx, src, AttrID, diags)
		a.id = readableUUID(id)
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
	c := r.Client()
	if r.kind.Find != nil {
		return r.kind.Find(ctx, c, a.key, a.id)
	}
	get := func(ctx context.Context, key string) (*T, error) { return r.kind.Get(ctx, c, a.parent, key) }
	if r.kind.ByID == nil {
		return get(ctx, a.key)
	}
	return bySlugThenID(ctx, a.key, a.id, get, func(ctx context.Context, id string) (*T, error) {
		return r.kind.ByID(ctx, c, a.parent, id)
	})
}

// current returns a with the key the object has now, for a kind whose key a rename elsewhere changes.
func (r *objectResource[T, M]) current(ctx context.Context, a objectAddress) (objectAddress, error) {
	if r.kind.ByID == nil {
		return a, nil
	}
	obj, err := r.find(ctx, a)
	if err == nil {
		a.key = r.kind.KeyOf(obj)
	}
	return a, err
}

// Create makes the object, adopting or taking over where the kind says so.
func (r *objectResource[T, M]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.FinishCreate(ctx, resp)
	var plan M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	r.withWriteOnly(ctx, req.Config, &plan, &resp.Diagnostics)
	if r.kind.Locate != nil {
		ctx = r.locating(ctx, nil)
		defer r.keepParent(ctx, resp.Private, &resp.Diagnostics)
	}
	if r.kind.Settings != nil {
		r.sendSettings(ctx, req.Config, nil, &plan, &resp.Diagnostics)
	}
	a := r.address(ctx, req.Plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	parentID, ident := a.parent, a.ident
	if r.kind.Named != nil {
		ident = r.kind.Named(&plan)
	}
	request := ctx
	ctx, cancel := r.Timeout(ctx, OpCreate)
	defer cancel()
	c := r.claim(ident)
	if c != nil {
		c.mu.Lock()
		defer c.mu.Unlock()
	}
	obj, err := r.kind.Create(ctx, r.Client(), parentID, &plan)
	if r.kind.SavePrivate != nil {
		r.savePrivate(ctx, resp.Private, &plan, &resp.Diagnostics)
	}
	if err != nil && r.kind.Current != nil && refusedCreate(err) {
		if c != nil && c.held {
			resp.Diagnostics.AddError("Unable to Create "+titleWords(r.kind.What), fmt.Sprintf(
				"Creating %s %s: %s. Another buildkite_%s of this configuration created or took it over in this "+
					"run, and one resource must own it: remove the duplicate.", r.kind.What, ident, DescribeError(err), r.kind.Name))
			return
		}
		obj, err = r.takeOver(ctx, parentID, a.key, &plan, err)
	}
	lost := r.kind.Secret != "" && obj != nil && SecretLost(ctx, &resp.Diagnostics, err, r.kind.What, ident, r.kind.Secret)
	acted := r.kind.GraphQL != nil && obj != nil && ActedWithErrors(&resp.Diagnostics, err, "create", r.kind.What, ident)
	if err != nil && !lost && !acted {
		if ownWords(err) {
			r.hookFailed(&resp.Diagnostics, "create", ident, err)
			if partial(obj, err) {
				r.kind.FromAPI(&plan, parentID, obj)
				resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
			}
			return
		}
		if r.kind.GraphQL != nil {
			AddGraphQLError(&resp.Diagnostics, "create", r.kind.What, ident, err, r.kind.GraphQL.Fields)
			return
		}
		if r.kind.ExplainCreate != nil && r.kind.ExplainCreate(&plan, err, &resp.Diagnostics) {
			return
		}
		var find HolderLookup
		if r.kind.Holder != nil {
			find = r.kind.Holder(r.Client(), &plan)
		}
		r.CreateFailed(ctx, &resp.Diagnostics, err, r.kind.What, ident, find)
		return
	}
	if c != nil {
		c.held = true
	}
	if r.kind.Applied != nil {
		r.kind.Applied(&plan, obj, ident, &resp.Diagnostics)
	}
	planned := plan
	r.kind.FromAPI(&plan, parentID, obj)
	if r.kind.WritePart != nil {
		r.kind.WritePart(ctx, r.Client(), &planned, nil, &plan, &resp.Diagnostics)
	}
	if r.kind.Settings != nil && !r.writeSettings(ctx, req.Config, &planned, nil, &plan, resp.Private, &resp.Diagnostics) {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	if r.kind.AfterCreate != nil && !resp.Diagnostics.HasError() {
		obj, err = r.kind.AfterCreate(request, r.Client(), parentID, &plan, obj)
		r.kind.FromAPI(&plan, parentID, obj)
		resp.Diagnostics.Append(resp.State.Set(request, &plan)...)
		if err != nil {
			r.hookFailed(&resp.Diagnostics, "create", ident, err)
		}
	}
}

// Read refreshes the object; a 404 removes it from state once the organization is confirmed.
func (r *objectResource[T, M]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.FinishRead(ctx, req, resp)
	var state M
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if r.kind.Locate != nil {
		ctx = r.locating(ctx, req.Private)
		defer r.keepParent(ctx, resp.Private, &resp.Diagnostics)
	}
	if r.kind.LoadPrivate != nil {
		r.loadPrivate(ctx, req.Private, &state)
	}
	a := r.address(ctx, req.State, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, OpRead)
	defer cancel()
	obj, err := r.findRecorded(ctx, a, &state)
	var left *LeftBehind
	switch {
	case errors.As(err, &left):
		resp.Diagnostics.AddWarning(left.Summary, left.Detail)
		r.RemoveGone(ctx, resp)
		return
	case errors.Is(err, ErrAbsent):
		r.RemoveGone(ctx, resp)
		return
	case ownWords(err):
		r.hookFailed(&resp.Diagnostics, "read", a.ident, err)
		return
	case err != nil:
		r.ReadFailed(ctx, resp, err, r.kind.What, a.ident)
		return
	}
	if r.kind.Replaced != nil {
		if detail := r.kind.Replaced(&state, obj); detail != "" {
			resp.Diagnostics.AddWarning(titleWords(r.kind.What)+" Replaced Outside Terraform", detail)
			r.RemoveGone(ctx, resp)
			return
		}
	}
	r.kind.FromAPI(&state, a.parent, obj)
	if r.kind.AfterImport != nil {
		if imported, _ := req.Private.GetKey(ctx, r.importKey()); string(imported) == "true" {
			r.kind.AfterImport(ctx, r.Client(), &state, obj)
			resp.Diagnostics.Append(resp.Private.SetKey(ctx, r.importKey(), nil)...)
		}
	}
	if r.kind.ReadPart != nil {
		if r.kind.ReadPart(ctx, r.Data, &state, &resp.Diagnostics); resp.Diagnostics.HasError() {
			return
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// importKey marks, in the private state an import hands to its Read, that AfterImport is to complete it.
func (r *objectResource[T, M]) importKey() string { return "buildkite_" + r.kind.Name + "_imported" }

// Update changes the object's attributes in place.
func (r *objectResource[T, M]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.FinishUpdate(ctx, req, resp)
	var plan, state M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if r.kind.LoadPrivate != nil {
		r.loadPrivate(ctx, req.Private, &state)
	}
	r.withWriteOnly(ctx, req.Config, &plan, &resp.Diagnostics)
	if r.kind.Locate != nil {
		ctx = r.locating(ctx, req.Private)
		defer r.keepParent(ctx, resp.Private, &resp.Diagnostics)
	}
	if r.kind.Settings != nil {
		r.sendSettings(ctx, req.Config, req.Private, &plan, &resp.Diagnostics)
	}
	a := r.address(ctx, req.State, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.kind.Update == nil {
		resp.Diagnostics.AddError("Unable to Update "+titleWords(r.kind.What),
			fmt.Sprintf("Updating %s %s: the service cannot change it in place, and every change should replace it. "+
				"Please report this issue to the provider developers.", r.kind.What, a.ident))
		return
	}
	ctx, cancel := r.Timeout(ctx, OpUpdate)
	defer cancel()
	a, err := r.current(ctx, a)
	var obj *T
	if err == nil {
		obj, err = r.kind.Update(ctx, r.Client(), a.parent, a.key, &plan, &state)
		if r.kind.SavePrivate != nil {
			r.savePrivate(ctx, resp.Private, &plan, &resp.Diagnostics)
		}
	}
	if err != nil {
		r.hookFailed(&resp.Diagnostics, "update", a.ident, err)
		if !partial(obj, err) {
			return
		}
	}
	if r.kind.Applied != nil {
		r.kind.Applied(&plan, obj, a.ident, &resp.Diagnostics)
	}
	planned := plan
	if obj != nil { // nil: the update sent nothing for the object itself, only for a part served apart
		r.kind.FromAPI(&plan, a.parent, obj)
	}
	if r.kind.WritePart != nil {
		r.kind.WritePart(ctx, r.Client(), &planned, &state, &plan, &resp.Diagnostics)
	}
	if r.kind.Settings != nil && !r.writeSettings(ctx, req.Config, &planned, &state, &plan, resp.Private, &resp.Diagnostics) {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete removes the object; one already gone is success.
func (r *objectResource[T, M]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if r.kind.Kept != nil {
		resp.Diagnostics.AddWarning(r.kind.Kept(r.Client()))
		return
	}
	if r.kind.RemoveFrom != nil {
		r.removeFrom(ctx, req, resp)
		return
	}
	if r.kind.Locate != nil {
		ctx = r.locating(ctx, req.Private)
	}
	if r.kind.Settings != nil {
		r.undoSettings(ctx, req, resp)
		return
	}
	a := r.address(ctx, req.State, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, OpDelete)
	defer cancel()
	a, err := r.current(ctx, a)
	if err == nil {
		err = r.kind.Remove(ctx, r.Client(), a.parent, a.key)
	}
	if g := r.kind.GraphQL; g != nil && ActedWithErrors(&resp.Diagnostics, err, cmp.Or(g.Removes, "delete"), r.kind.What, a.ident) {
		return // the answer shows it done
	}
	if err != nil && r.kind.DeleteRefused != nil {
		if detail := r.kind.DeleteRefused(ctx, r.Client(), a.parent, a.key, err); detail != "" {
			resp.Diagnostics.AddError("Unable to Delete "+titleWords(r.kind.What), detail)
			return
		}
	}
	if ownWords(err) {
		r.hookFailed(&resp.Diagnostics, "delete", a.ident, err)
	} else {
		r.DeleteFailed(ctx, &resp.Diagnostics, err, r.kind.What, a.ident)
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
	if r.kind.OtherImportID != nil {
		req.ID = r.kind.OtherImportID(req.ID)
	}
	if r.kind.Import != nil {
		r.importOwn(ctx, req, resp)
		return
	}
	if r.kind.Locate != nil {
		r.importLocated(ctx, req, resp)
		return
	}
	if r.kind.Parents != nil && !r.qualify(ctx, &req, resp) {
		return
	}
	parts, ok := r.partsFromNode(ctx, req.ID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if !ok {
		if parts, ok = r.ImportParts(ctx, req, resp, r.kind.ImportParts...); !ok {
			return
		}
	}
	if r.kind.ImportWhole != nil {
		r.importWhole(ctx, req.ID, parts, resp)
		return
	}
	var parentID, key string
	switch {
	case r.kind.Resolve != nil:
		ctx, cancel := r.Timeout(ctx, OpRead)
		defer cancel()
		var err error
		if parentID, key, err = r.kind.Resolve(ctx, r.Client(), parts); err != nil {
			r.hookFailed(&resp.Diagnostics, "import", req.ID, err)
			return
		}
	case r.kind.Setting:
		parentID, key = parts[0], parts[0]
	case r.kind.Parent != "":
		parentID, key = parts[0], parts[1]
	default:
		key = parts[0]
	}
	if r.kind.Parent != "" {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(r.kind.Parent), parentID)...)
	}
	if r.kind.ByID != nil {
		resp.Diagnostics.Append(setSlugOrID(ctx, resp, key)...)
	} else {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(r.kind.Key), key)...)
	}
	if r.kind.AfterImport != nil {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, r.importKey(), []byte("true"))...)
	}
}

// qualify turns an import ID that is the object's own ID alone into "<parent>/<id>", asking each parent.
func (r *objectResource[T, M]) qualify(ctx context.Context, req *resource.ImportStateRequest, resp *resource.ImportStateResponse) bool {
	ctx, cancel := r.Timeout(ctx, OpRead)
	defer cancel()
	c := r.Client()
	return QualifyImportID(ctx, req, resp, r.kind.What, importForm(r.kind.ImportParts),
		func(ctx context.Context) ([]string, error) { return r.kind.Parents(ctx, c) },
		func(ctx context.Context, parent, id string) error {
			_, err := r.kind.Get(ctx, c, parent, id)
			return err
		})
}

// DiagnosedError is an error a client call or hook reports in its own words (a summary users' tests match
// on). Returned by a get, it leaves the object in state; returned by a create or update together with an
// answer (a change applied in part), the state records the answer.
type DiagnosedError struct{ Summary, Detail string }

// partial reports whether a hook's error came with the answer of a change applied in part.
func partial[T any](obj *T, err error) bool {
	return obj != nil && (errors.As(err, new(*DiagnosedError)) || errors.As(err, new(*Reported)))
}

// LeftBehind is what a client call or hook reports as a warning: the operation succeeds for Terraform, and
// the warning says what it left behind (a default queue the service refused to unset). From a get, it is
// the object found unusable (a revoked token): Read warns of it and removes the resource from state.
type LeftBehind DiagnosedError

func (e *LeftBehind) Error() string { return e.Summary + ": " + e.Detail }

func (e *DiagnosedError) Error() string { return e.Summary + ": " + e.Detail }

// hookFailed reports the error of a client call or hook: in the hook's own words where it gave them.
func (r *objectResource[T, M]) hookFailed(diags *diag.Diagnostics, op, ident string, err error) {
	var own *DiagnosedError
	var as *ReportedAs
	var left *LeftBehind
	var by *Reported
	switch {
	case errors.As(err, &by): // the hook reports it itself (object_reported.go)
		by.Report(diags, ident)
	case errors.As(err, &left):
		diags.AddWarning(left.Summary, left.Detail)
	case errors.As(err, &own):
		diags.AddError(own.Summary, own.Detail)
	case errors.As(err, &as):
		AddAPIError(diags, as.Op, as.What, ident, as.Err)
	default:
		AddAPIError(diags, op, r.kind.What, ident, err)
	}
}

// ownWords reports whether err is to be reported as a hook gave it (DiagnosedError, ReportedAs, LeftBehind,
// Reported) rather than by the shared failure paths of its operation.
func ownWords(err error) bool {
	return errors.As(err, new(*DiagnosedError)) || errors.As(err, new(*ReportedAs)) || errors.As(err, new(*LeftBehind)) ||
		errors.As(err, new(*Reported))
}

// ErrAbsent is a setting's get finding that its parent holds none: removed outside Terraform, which the
// parent's answer confirms, so Read removes it from state.
var ErrAbsent = errors.New("the parent holds no such setting")

// ReportedAs is an error an update hook reports as another operation, or of another part of the object,
// than the update's own: the "update" of a "cluster secret value".
type ReportedAs struct {
	Op, What string
	Err      error
}

func (e *ReportedAs) Error() string { return e.Err.Error() }

func (e *ReportedAs) Unwrap() error { return e.Err }

// withWriteOnly copies the configuration's write-only attributes into the plan, for the kinds that have any.
func (r *objectResource[T, M]) withWriteOnly(ctx context.Context, config tfsdk.Config, plan *M, diags *diag.Diagnostics) {
	if r.kind.WriteOnly == nil {
		return
	}
	var c M
	diags.Append(config.Get(ctx, &c)...)
	r.kind.WriteOnly(plan, &c)
}
