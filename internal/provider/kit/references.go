package kit

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// References: attributes that name another object by its ID (cluster_id, team_id, ...). The official
// provider's configurations and states name objects by GraphQL ID, ours by UUID; both must work and never
// show a diff between them. Four pieces do that, and RefAttribute puts them on an attribute:
//   - RefType/RefValue: a string whose semantic equality treats a GraphQL ID and the UUID it encodes as the
//     same value, so the value kept after create, update and read is the configuration's form;
//   - RefValidator: the plan-time check, a UUID or a GraphQL ID of the right type, naming the attribute;
//   - RefKeepStateForm: when the configuration switches form, the plan keeps the state's (Terraform accepts a
//     planned value equal to the prior state in place of the configuration's), placed before any
//     RequiresReplace so that a change of form never replaces anything;
//   - RefValue.UUID: the UUID to send to the REST API.

var (
	_ basetypes.StringTypable                    = RefType{}
	_ basetypes.StringValuableWithSemanticEquals = RefValue{}
)

// RefType is the type of a reference attribute.
type RefType struct {
	basetypes.StringType
}

// String names the type in diagnostics.
func (t RefType) String() string { return "provider.refType" }

// Equal reports whether o is also a RefType.
func (t RefType) Equal(o attr.Type) bool {
	_, ok := o.(RefType)
	return ok
}

// ValueType returns the value type of this type.
func (t RefType) ValueType(context.Context) attr.Value { return RefValue{} }

// ValueFromString wraps a framework string as a RefValue.
func (t RefType) ValueFromString(_ context.Context, in basetypes.StringValue) (basetypes.StringValuable, diag.Diagnostics) {
	return RefValue{StringValue: in}, nil
}

// ValueFromTerraform converts a Terraform value into a RefValue.
func (t RefType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	s, err := terraformString(ctx, in)
	return RefValue{StringValue: s}, err
}

// RefValue is the value of a reference attribute: a UUID or a GraphQL ID.
type RefValue struct {
	basetypes.StringValue
}

// NewRef is a known reference; "" is null, the service's way of saying "none".
func NewRef(id string) RefValue {
	if id == "" {
		return RefValue{StringValue: basetypes.NewStringNull()}
	}
	return RefValue{StringValue: basetypes.NewStringValue(id)}
}

// NewRefPtr is NewRef for an ID the service may send as null.
func NewRefPtr(id *string) RefValue { return NewRef(Deref(id)) }

// Type returns RefType.
func (v RefValue) Type(context.Context) attr.Type { return RefType{} }

// Equal is exact equality, which Terraform needs for plans; StringSemanticEquals is the loose one.
func (v RefValue) Equal(o attr.Value) bool {
	other, ok := o.(RefValue)
	return ok && v.StringValue.Equal(other.StringValue)
}

// StringSemanticEquals treats a GraphQL ID and the UUID it encodes as the same value.
func (v RefValue) StringSemanticEquals(_ context.Context, newValuable basetypes.StringValuable) (bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	nv, ok := newValuable.(RefValue)
	if !ok {
		diags.AddError("Semantic Equality Check Error",
			fmt.Sprintf("Expected a reference value, got %T. Please report this issue to the provider developers.", newValuable))
		return false, diags
	}
	return SameObject(v.ValueString(), nv.ValueString()), diags
}

// UUID is the REST ID the reference names: the UUID itself, or the one a GraphQL ID encodes. A value the
// ID rule refuses never gets this far from a configuration (RefValidator); from a state it is "", which
// the client refuses to send (buildkite.ErrInvalidID), and ReadFailed reports as an unreadable ID.
func (v RefValue) UUID() string { return readableUUID(v.ValueString()) }

// UUIDPtr is UUID for a create body: nil when the reference is null or unknown.
func (v RefValue) UUIDPtr() *string {
	if !IsKnownValue(v) {
		return nil
	}
	id := v.UUID()
	return &id
}

// CanonicalID is the UUID an ID names, in lower case, when it is a UUID or a GraphQL ID of a type this
// provider knows; anything else (a slug, a key, or an ID the rule refuses) is returned as it is, never
// decoded into an object's UUID. Where the type matters, CheckID decides; the comparisons that use this
// (SameObject) only ever equate two forms of one ID.
func CanonicalID(id string) string {
	if IsUUID(id) {
		return strings.ToLower(id)
	}
	if typ, uuid, ok := DecodeGraphQLID(id); ok && CheckGraphQLType(typ) == nil {
		return strings.ToLower(uuid)
	}
	return id
}

// SameObject reports whether two IDs name the same object: equal, or a UUID and a GraphQL ID of it. Two
// GraphQL IDs of different types never do, even where they encode one UUID.
func SameObject(a, b string) bool {
	if a == b {
		return true
	}
	ta, _, aGraphQL := DecodeGraphQLID(a)
	tb, _, bGraphQL := DecodeGraphQLID(b)
	if aGraphQL && bGraphQL && ta != tb {
		return false
	}
	return CanonicalID(a) == CanonicalID(b)
}

// RefValidator checks at plan time that a reference is a UUID or a GraphQL ID of one of its types.
type RefValidator struct{ GraphQLTypes []string }

var _ validator.String = RefValidator{}

func (v RefValidator) Description(context.Context) string {
	return "value must be a UUID or the GraphQL ID of " + graphQLTypeList(v.GraphQLTypes)
}

func (v RefValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v RefValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !IsKnownValue(req.ConfigValue) {
		return
	}
	if _, err := RefUUID(req.ConfigValue.ValueString(), v.GraphQLTypes); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Reference",
			fmt.Sprintf("Attribute %s %s.", req.Path, err))
	}
}

// RefUUID returns the UUID id names when it is a UUID or a GraphQL ID of one of graphQLTypes, or an error
// that says what it is instead (the ID rule, CheckID).
func RefUUID(id string, graphQLTypes []string) (string, error) { return CheckID(id, graphQLTypes) }

// graphQLTypeList names GraphQL types for a message: "a Team", "a Pipeline or a Suite".
func graphQLTypeList(graphQLTypes []string) string {
	named := make([]string, len(graphQLTypes))
	for i, t := range graphQLTypes {
		named[i] = "a " + t
	}
	return strings.Join(named, " or ")
}

// RefKeepStateForm plans the state's value when the configuration names the same object in the other form.
type RefKeepStateForm struct{}

var _ planmodifier.String = RefKeepStateForm{}

func (RefKeepStateForm) Description(context.Context) string {
	return "a GraphQL ID and the UUID it encodes are the same reference"
}

func (m RefKeepStateForm) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (RefKeepStateForm) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.StateValue.IsNull() || !IsKnownValue(req.ConfigValue) || req.PlanValue.IsUnknown() {
		return
	}
	if c, s := req.ConfigValue.ValueString(), req.StateValue.ValueString(); c != s && SameObject(c, s) {
		resp.PlanValue = req.StateValue
	}
}

// RefAttribute makes a resource's string attribute a reference to an object of one of graphQLTypes: it sets
// the type, adds the check and the plan modifier (first, so that RequiresReplace sees the kept form), and
// says in the description that a GraphQL ID works too.
func RefAttribute(a schema.StringAttribute, graphQLTypes ...string) schema.StringAttribute {
	a.CustomType = RefType{}
	a.Validators = append([]validator.String{RefValidator{GraphQLTypes: graphQLTypes}}, a.Validators...)
	a.PlanModifiers = append([]planmodifier.String{RefKeepStateForm{}}, a.PlanModifiers...)
	a.MarkdownDescription = strings.TrimSpace(a.MarkdownDescription) + " " + RefDescription(graphQLTypes)
	return a
}

// RefDescription tells that a reference takes either form.
func RefDescription(graphQLTypes []string) string {
	return "The GraphQL ID of " + graphQLTypeList(graphQLTypes) + " (as the official provider's `id` holds) is accepted " +
		"too, and never shows as a change against the UUID it encodes."
}

// ParentIDAttribute is the required reference to the object a nested object belongs to; moving the object
// to another parent replaces it, naming the same parent in the other form does not.
func ParentIDAttribute(description string, graphQLTypes ...string) schema.StringAttribute {
	return RefAttribute(schema.StringAttribute{
		MarkdownDescription: description + " Changing it replaces the resource.",
		Required:            true,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
	}, graphQLTypes...)
}

// OptionalRefAttribute is an optional reference, changed in place.
func OptionalRefAttribute(description string, graphQLTypes ...string) schema.StringAttribute {
	return RefAttribute(schema.StringAttribute{MarkdownDescription: description, Optional: true}, graphQLTypes...)
}

// DataRefAttribute is a data source's reference argument (required or optional): the ID of the object it
// is asked about, a UUID or a GraphQL ID, sent as CanonicalID gives it.
func DataRefAttribute(description string, required bool, graphQLTypes ...string) dschema.StringAttribute {
	return dschema.StringAttribute{
		MarkdownDescription: strings.TrimSpace(description) + " " + RefDescription(graphQLTypes),
		Required:            required,
		Optional:            !required,
		Validators:          []validator.String{RefValidator{GraphQLTypes: graphQLTypes}},
	}
}

// RefListKeepStateForm plans the state's list when the configuration's names the same objects in the other
// form, element by element.
type RefListKeepStateForm struct{}

var _ planmodifier.List = RefListKeepStateForm{}

func (RefListKeepStateForm) Description(context.Context) string {
	return "GraphQL IDs and the UUIDs they encode are the same references"
}

func (m RefListKeepStateForm) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (RefListKeepStateForm) PlanModifyList(_ context.Context, req planmodifier.ListRequest, resp *planmodifier.ListResponse) {
	if req.StateValue.IsNull() || !IsKnownValue(req.PlanValue) || req.PlanValue.Equal(req.StateValue) {
		return
	}
	if sameObjects(listStrings(req.PlanValue), listStrings(req.StateValue)) {
		resp.PlanValue = req.StateValue
	}
}

// RefListAttribute makes a list of references to objects of one of graphQLTypes, with its elements checked
// and a change of form never planned.
func RefListAttribute(a schema.ListAttribute, graphQLTypes ...string) schema.ListAttribute {
	a.ElementType = types.StringType
	a.Validators = append([]validator.List{refListValidator{RefValidator{GraphQLTypes: graphQLTypes}}}, a.Validators...)
	a.PlanModifiers = append([]planmodifier.List{RefListKeepStateForm{}}, a.PlanModifiers...)
	a.MarkdownDescription = strings.TrimSpace(a.MarkdownDescription) + " " + RefDescription(graphQLTypes)
	return a
}

// refListValidator checks every element of a list of references as RefValidator does.
type refListValidator struct{ elem RefValidator }

var _ validator.List = refListValidator{}

func (v refListValidator) Description(ctx context.Context) string {
	return "each element: " + v.elem.Description(ctx)
}

func (v refListValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v refListValidator) ValidateList(ctx context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if !IsKnownValue(req.ConfigValue) {
		return
	}
	for i, e := range req.ConfigValue.Elements() {
		s, ok := e.(basetypes.StringValuable)
		if !ok {
			continue
		}
		sv, d := s.ToStringValue(ctx)
		resp.Diagnostics.Append(d...)
		var r validator.StringResponse
		v.elem.ValidateString(ctx, validator.StringRequest{Path: req.Path.AtListIndex(i), ConfigValue: sv}, &r)
		resp.Diagnostics.Append(r.Diagnostics...)
	}
}

// refTypesOf returns the GraphQL types a schema attribute's reference check accepts, whether it takes a
// readable key (a slug) too, and whether the attribute is a reference at all: a RefAttribute, a
// RefListAttribute, or one checked by GraphQLTypeValidator (an ID or a key).
func refTypesOf(validators any) (graphQLTypes []string, keyOK, isRef bool) {
	switch vs := validators.(type) {
	case []validator.String:
		for _, v := range vs {
			switch rv := v.(type) {
			case RefValidator:
				return rv.GraphQLTypes, false, true
			case GraphQLTypeValidator:
				return []string{rv.Typ}, true, true
			}
		}
	case []validator.List:
		for _, v := range vs {
			if rv, ok := v.(refListValidator); ok {
				return rv.elem.GraphQLTypes, false, true
			}
		}
	}
	return nil, false, false
}

// listStrings is the string elements of a known list, unknown and null elements as "".
func listStrings(l types.List) []string {
	out := make([]string, 0, len(l.Elements()))
	for _, e := range l.Elements() {
		if s, ok := e.(basetypes.StringValuable); ok {
			v, _ := s.ToStringValue(context.Background())
			out = append(out, v.ValueString())
		}
	}
	return out
}

// sameObjects reports whether two lists of IDs name the same objects in the same order.
func sameObjects(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !SameObject(a[i], b[i]) {
			return false
		}
	}
	return true
}

// ListUUIDs is the UUIDs a known list of references names, for the REST API.
func ListUUIDs(l types.List) []string {
	if !IsKnownValue(l) {
		return nil
	}
	ids := listStrings(l)
	for i := range ids {
		ids[i] = CanonicalID(ids[i])
	}
	return ids
}

// RestID is the REST ID in an object's own `id` attribute: a state written by the official provider, or by
// hand, may hold its GraphQL ID, which is read as the UUID it encodes rather than taken for a missing object.
// An ID the rule cannot read is "", which the client refuses to send (buildkite.ErrInvalidID): it never
// reaches the service, and ReadFailed reports it naming the attribute.
func RestID(id types.String) string { return readableUUID(id.ValueString()) }

// readableUUID is the UUID id names when it is a UUID or a GraphQL ID of a type this provider knows, else
// "": never the unreadable value itself.
func readableUUID(id string) string {
	uuid, err := CheckID(id, nil)
	if err != nil {
		return ""
	}
	return uuid
}
