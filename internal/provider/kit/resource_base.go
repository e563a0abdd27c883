package kit

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// ResourceBase gives every resource its Metadata, Configure, identity (identity.go), a plan-time scope check
// (scopes.go), operation timeouts, the read-or-remove and delete conventions, and the guards that keep a
// state usable. Embed it and build it with NewResourceBase.
type ResourceBase struct {
	resourceIdentity
	Name   string // type name without the "buildkite_" prefix
	scopes OperationScopes
	Data   *ProviderData
	// graphQL is what of the type needs Buildkite's GraphQL API (graphql_scope.go).
	graphQL graphQLNeeds
	// noID: the schema has no id attribute (a type whose official schema has none, such as a portal, named
	// by its identity alone).
	noID bool
}

func NewResourceBase(name string, scopes OperationScopes, identity resourceIdentity) ResourceBase {
	return ResourceBase{resourceIdentity: identity, Name: name, scopes: scopes}
}

// Metadata implements resource.Resource.
func (b *ResourceBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.Name
	resp.ResourceBehavior.MutableIdentity = b.mutable
}

// Configure implements resource.ResourceWithConfigure.
func (b *ResourceBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.Data = ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

// withoutID returns the base of a type whose schema has no id attribute: its identity attributes alone
// must be set in what Create, Read and Update leave.
func (b ResourceBase) withoutID() ResourceBase {
	b.noID = true
	return b
}

// Client returns the shared REST client.
func (b *ResourceBase) Client() *buildkite.Client { return b.Data.Client }

// Timeout bounds an operation by the provider block's timeouts. A write is seen through to its answer even
// when Terraform asks the provider to stop (Ctrl-C cancels the context of every call in flight): the
// service may have acted on a request already sent, and only the answer puts the object in state. The
// operation's timeout still bounds it, and a read stays cancellable.
func (b *ResourceBase) Timeout(ctx context.Context, op Operation) (context.Context, context.CancelFunc) {
	if op != OpRead {
		ctx = context.WithoutCancel(ctx)
	}
	return OperationContext(ctx, b.Data, op)
}

// ReadFailed handles the error of a Read's lookup: a 404 removes the resource from state, but only once the
// organization is confirmed to answer; anything else is an error naming the object.
func (b *ResourceBase) ReadFailed(ctx context.Context, resp *resource.ReadResponse, err error, what, ident string) {
	if errors.Is(err, buildkite.ErrInvalidID) {
		// RestID or RefValue.UUID found no ID to send: say which attribute holds what, if the rule knows.
		if problems := b.unreadableIDs(ctx, resp.State); len(problems) > 0 {
			resp.Diagnostics.AddError("Unreadable ID in State", fmt.Sprintf(
				"The state of this buildkite_%s cannot be read: %s. It was not read, nothing was sent to the service, "+
					"and the instance stays in state as it is. %s", b.Name, strings.Join(problems, "; "), idFix("")))
			return
		}
	}
	if buildkite.IsNotFound(err) {
		if orgErr := b.Data.ConfirmOrganization(ctx); orgErr != nil {
			resp.Diagnostics.AddError("Unable to Read "+titleWords(what),
				fmt.Sprintf("Reading %s %s: the service answered 404, and %s. The resource stays in state.", what, ident, orgErr))
			return
		}
		b.RemoveGone(ctx, resp)
		return
	}
	AddAPIError(&resp.Diagnostics, "read", what, ident, err)
}

// DeleteFailed handles the error of a Delete: a 404 means it is already gone (once the organization is
// confirmed to answer), anything else is an error.
func (b *ResourceBase) DeleteFailed(ctx context.Context, diags *diag.Diagnostics, err error, what, ident string) {
	if err == nil {
		return
	}
	if buildkite.IsNotFound(err) {
		if orgErr := b.Data.ConfirmOrganization(ctx); orgErr != nil {
			diags.AddError("Unable to Delete "+titleWords(what),
				fmt.Sprintf("Deleting %s %s: the service answered 404, and %s.", what, ident, orgErr))
		}
		return
	}
	AddAPIError(diags, "delete", what, ident, err)
}

// What Create, Read and Update leave is checked before Terraform records it: an instance whose ID (or an
// identity attribute) is empty fails every later plan, and a resource dropped from state on an answer that
// did not say it is gone is lost track of. Each of Create, Read and Update defers its finish* call first.

// goneKey marks, in a Read's private state, a removal RemoveGone made.
const goneKey = "buildkite_gone"

// RemoveGone removes the resource from state in a Read once the service has confirmed the object is gone
// (a 404 after the organization answered, or its parent's answer without it). FinishRead refuses any other
// removal. An answer about an ID the ID rule refuses says nothing about the object: the resource then stays
// in state, with an error naming the attribute.
func (b *ResourceBase) RemoveGone(ctx context.Context, resp *resource.ReadResponse) {
	if problems := b.unreadableIDs(ctx, resp.State); len(problems) > 0 {
		resp.Diagnostics.AddError("Unreadable ID in State", fmt.Sprintf(
			"The state of this buildkite_%s cannot be read: %s. The service answered that it has no such object, "+
				"which says nothing about the object this instance was meant to manage, so the instance stays in "+
				"state and nothing is planned for it. %s", b.Name, strings.Join(problems, "; "), idFix("")))
		return
	}
	if resp.Private != nil {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, goneKey, []byte("true"))...)
	}
	resp.State.RemoveResource(ctx)
}

// unreadableIDs applies the ID rule to the IDs a state holds: its `id` (against the type's entry in
// idGraphQLTypes; an `id` built of IDs, "<id>/<id>", part by part) and every reference attribute
// (RefAttribute, RefListAttribute, or one with a GraphQLTypeValidator) against its types. It describes each one refused, "id X must be ...".
func (b *ResourceBase) unreadableIDs(ctx context.Context, state tfsdk.State) []string {
	if state.Raw.IsNull() || state.Schema == nil {
		return nil
	}
	var problems []string
	check := func(name, v string, types []string, keyOK bool) {
		if _, err := CheckRef(v, types, keyOK); err != nil {
			problems = append(problems, name+" "+err.Error())
		}
	}
	var diags diag.Diagnostics
	if id, known := stringAttribute(ctx, state, AttrID, &diags); known {
		if err := CheckStateID(b.Name, id); err != nil {
			problems = append(problems, AttrID+" "+err.Error())
		}
	}
	names := make([]string, 0, len(state.Schema.GetAttributes()))
	for name := range state.Schema.GetAttributes() {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		switch a := state.Schema.GetAttributes()[name].(type) {
		case schema.StringAttribute:
			if types, keyOK, isRef := refTypesOf(a.Validators); isRef {
				if v, known := stringAttribute(ctx, state, name, &diags); known {
					check(name, v, types, keyOK)
				}
			}
		case schema.ListAttribute:
			if types, keyOK, isRef := refTypesOf(a.Validators); isRef {
				var l basetypes.ListValue
				if d := state.GetAttribute(ctx, path.Root(name), &l); !d.HasError() {
					for i, v := range listStrings(l) {
						check(fmt.Sprintf("%s[%d]", name, i), v, types, keyOK)
					}
				}
			}
		}
	}
	return problems
}

// what names the type in errors: "cluster queue".
func (b *ResourceBase) what() string { return strings.ReplaceAll(b.Name, "_", " ") }

// unnamed returns the first of id and the identity's attributes that is empty or unknown in src, or "".
func (b *ResourceBase) unnamed(ctx context.Context, src attributeSource, diags *diag.Diagnostics) string {
	var names []string
	if !b.noID {
		names = append(names, AttrID)
	}
	for _, a := range b.attrs {
		names = append(names, a.name)
	}
	for _, name := range names {
		// Read whatever the attribute's string type (references are refValues).
		var d diag.Diagnostics
		v, known := stringAttribute(ctx, src, name, &d)
		if d.HasError() {
			diags.Append(d...)
			return ""
		}
		if !known || strings.TrimSpace(v) == "" {
			return name
		}
	}
	return ""
}

// FinishCreate checks the state Create leaves and sets the identity from it; defer it at the top of Create.
// A state without an ID is not recorded: the instance is dropped with an error saying the object may
// exist, rather than kept with an ID that fails every later plan.
func (b *ResourceBase) FinishCreate(ctx context.Context, resp *resource.CreateResponse) {
	if resp.State.Raw.IsNull() {
		return
	}
	if missing := b.unnamed(ctx, resp.State, &resp.Diagnostics); missing != "" {
		resp.State.RemoveResource(ctx)
		resp.Diagnostics.AddError("Unable to Create "+titleWords(b.what()), fmt.Sprintf(
			"Creating a buildkite_%s: the service's answer held no %s, so nothing is recorded (a state without one "+
				"fails every later plan). The object may exist on the service all the same: look for it with "+
				"`terraform query` (the buildkite_%s list resource) or in the web interface, and import or delete it "+
				"before applying again.", b.Name, missing, b.Name))
		return
	}
	b.identify(ctx, resp.State, resp.Identity, &resp.Diagnostics)
}

// FinishRead checks the state Read leaves and keeps the identity current; defer it at the top of Read. A
// removal that RemoveGone did not make, or a state without an ID, is refused: the prior state stays, with
// an error.
func (b *ResourceBase) FinishRead(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if req.State.Raw.IsNull() {
		return
	}
	if resp.State.Raw.IsNull() {
		if !b.removedAsGone(ctx, resp) {
			resp.State.Raw = req.State.Raw
			resp.Diagnostics.AddError("Unable to Read "+titleWords(b.what()), fmt.Sprintf(
				"Reading a buildkite_%s: it was to be removed from state without the service saying it is gone; it "+
					"stays in state. Please report this issue to the provider developers.", b.Name))
		}
		// The identity comes from the prior state: the framework refuses a Read that returns none.
		b.identify(ctx, req.State, resp.Identity, &resp.Diagnostics)
		return
	}
	if missing := b.unnamed(ctx, resp.State, &resp.Diagnostics); missing != "" {
		resp.State.Raw = req.State.Raw
		resp.Diagnostics.AddError("Unable to Read "+titleWords(b.what()), fmt.Sprintf(
			"Reading a buildkite_%s: the service's answer held no %s; the resource stays in state as it was. "+
				"Try again; if it persists, the service (or something between it and Terraform) answers without "+
				"the object.", b.Name, missing))
	}
	b.identify(ctx, resp.State, resp.Identity, &resp.Diagnostics)
}

// removedAsGone reports whether RemoveGone removed the resource in this Read.
func (b *ResourceBase) removedAsGone(ctx context.Context, resp *resource.ReadResponse) bool {
	if resp.Private == nil {
		return false
	}
	v, _ := resp.Private.GetKey(ctx, goneKey)
	return string(v) == "true"
}

// FinishUpdate checks the state Update leaves and sets the identity from it; defer it at the top of Update.
// A state without an ID is refused: the prior state stays, with an error.
func (b *ResourceBase) FinishUpdate(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if resp.State.Raw.IsNull() {
		return
	}
	if missing := b.unnamed(ctx, resp.State, &resp.Diagnostics); missing != "" {
		resp.State.Raw = req.State.Raw
		resp.Diagnostics.AddError("Unable to Update "+titleWords(b.what()), fmt.Sprintf(
			"Updating a buildkite_%s: the service's answer held no %s; the state keeps what it held before the "+
				"update, and the next plan shows what is left to change.", b.Name, missing))
		return
	}
	b.identify(ctx, resp.State, resp.Identity, &resp.Diagnostics)
}
