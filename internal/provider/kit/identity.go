package kit

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Resource identity (Terraform 1.12+): what names an object for a person, such as a queue's cluster and key.
// It lets `import { to = …, identity = { … } }` and `terraform query` name objects without an import ID.
//
// ResourceBase embeds the resource's resourceIdentity, built with IdentifiedBy (or MutableIdentity), so every
// resource implements resource.ResourceWithIdentity. Each identity attribute mirrors the state attribute of
// the same name, and ResourceBase's FinishCreate, FinishRead and FinishUpdate (deferred at the top of Create,
// Read and Update) keep the identity current. ImportState takes its parts from the import ID or from the
// identity alike:
//
//	parts, ok := r.ImportParts(ctx, req, resp, UuidPart("<cluster id>"), KeyPart("<queue id or key>"))
//
// The identity attributes are listed in the order of the import ID's parts. An identity that can change
// while the object lives (a renamed pipeline's slug) is built with MutableIdentity.
type resourceIdentity struct {
	attrs []identityAttribute
	// mutable: the identity changes while the object lives (Terraform then accepts a new one from Read).
	mutable bool
}

// identityAttribute is one string attribute of an identity.
type identityAttribute struct {
	name        string // in the identity and in the resource's state
	description string
}

// IdentityAttr names a state attribute that is part of the identity.
func IdentityAttr(name, description string) identityAttribute {
	return identityAttribute{name: name, description: description}
}

// IdentifiedBy builds the identity of a resource from state attributes, in the order of its import ID.
func IdentifiedBy(attrs ...identityAttribute) resourceIdentity {
	return resourceIdentity{attrs: attrs}
}

// MutableIdentity is IdentifiedBy for an identity that follows the object, such as a slug after a rename.
func MutableIdentity(attrs ...identityAttribute) resourceIdentity {
	return resourceIdentity{attrs: attrs, mutable: true}
}

// IdentitySchema implements resource.ResourceWithIdentity: every attribute is a string required to import.
func (i *resourceIdentity) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	attrs := make(map[string]identityschema.Attribute, len(i.attrs))
	for _, a := range i.attrs {
		attrs[a.name] = identityschema.StringAttribute{RequiredForImport: true, Description: a.description}
	}
	resp.IdentitySchema = identityschema.Schema{Attributes: attrs}
}

// attributeSource is what identities are copied from: tfsdk.State, tfsdk.Plan and the tfsdk.Resource of a
// list result.
type attributeSource interface {
	GetAttribute(ctx context.Context, p path.Path, target any) diag.Diagnostics
}

// identify copies the identity attributes of the resource held in src into identity. It leaves identity as
// it is when src does not hold the resource or any attribute is not known yet.
func (i *resourceIdentity) identify(ctx context.Context, src attributeSource, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	if identity == nil {
		return
	}
	values := make([]string, len(i.attrs))
	for n, a := range i.attrs {
		v, known := stringAttribute(ctx, src, a.name, diags)
		if !known {
			return
		}
		// A reference may hold a GraphQL ID; the identity names the object by its UUID either way, so that it
		// never changes with the form the configuration uses.
		values[n] = CanonicalID(v)
	}
	for n, a := range i.attrs {
		diags.Append(identity.SetAttribute(ctx, path.Root(a.name), values[n])...)
	}
}

// ImportParts returns the parts of an import: split from the import ID, or, for an import block with an
// identity, the identity's attributes in order. Either way each part is checked against parts, and a
// failure is reported as "Invalid Import ID" or "Invalid Import Identity" naming the accepted form.
func (i *resourceIdentity) ImportParts(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse, parts ...ImportPart) ([]string, bool) {
	if req.ID != "" || req.Identity == nil {
		return parseImportID(resp, req.ID, parts...)
	}
	if len(parts) != len(i.attrs) {
		resp.Diagnostics.AddError("Invalid Import Identity",
			fmt.Sprintf("The resource's identity has %d attributes and its import ID %d parts. Please report this issue to the provider developers.", len(i.attrs), len(parts)))
		return nil, false
	}
	values := make([]string, len(i.attrs))
	var problems []string
	for n, a := range i.attrs {
		var v types.String
		resp.Diagnostics.Append(req.Identity.GetAttribute(ctx, path.Root(a.name), &v)...)
		if resp.Diagnostics.HasError() {
			return nil, false
		}
		part := parts[n]
		part.name = a.name + " (" + part.name + ")"
		checked, err := CheckPart(part, strings.TrimSpace(v.ValueString()))
		if err != nil {
			problems = append(problems, err.Error())
		}
		values[n] = checked
	}
	if len(problems) > 0 {
		resp.Diagnostics.AddError("Invalid Import Identity",
			fmt.Sprintf("The identity must give %s: %s.", i.form(), strings.Join(problems, "; ")))
		return nil, false
	}
	return values, true
}

// form renders the identity as an import block writes it: `{ cluster_id = "…", key = "…" }`.
func (i *resourceIdentity) form() string {
	names := make([]string, len(i.attrs))
	for n, a := range i.attrs {
		names[n] = a.name + ` = "…"`
	}
	return "{ " + strings.Join(names, ", ") + " }"
}

// stringAttribute reads a string attribute of any string type (plain, a reference, an enum) from src; known
// is false when it is null or unknown, or could not be read (diags says why).
func stringAttribute(ctx context.Context, src attributeSource, name string, diags *diag.Diagnostics) (value string, known bool) {
	var v *anyString
	if d := src.GetAttribute(ctx, path.Root(name), &v); d.HasError() {
		diags.Append(d...)
		return "", false
	}
	if v == nil || v.value == nil {
		return "", false
	}
	return *v.value, true
}

// anyString receives a string attribute whatever its custom type: the framework hands a target that
// implements tftypes.ValueConverter the Terraform value itself.
type anyString struct{ value *string }

// FromTerraform5Value implements tftypes.ValueConverter; value stays nil for null and unknown.
func (s *anyString) FromTerraform5Value(v tftypes.Value) error {
	if !v.IsKnown() || v.IsNull() {
		return nil
	}
	var str string
	if err := v.As(&str); err != nil {
		return err
	}
	s.value = &str
	return nil
}
