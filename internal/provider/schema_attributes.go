package provider

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Schema attributes more than one type declares the same way: the computed identifiers and URLs most
// objects have, references to a parent, and descriptions that list values.

// The computed attributes most objects share, by name.
const (
	attrID        = "id"
	attrUUID      = "uuid"
	attrGraphQLID = "graphql_id"
	attrURL       = "url"
	attrWebURL    = "web_url"
	attrCreatedAt = "created_at"
)

// commonDescriptions describes the shared attributes of an object called what ("cluster").
func commonDescription(name, what string) string {
	switch name {
	case attrID:
		return fmt.Sprintf("The %s's ID (a UUID).", what)
	case attrUUID:
		return fmt.Sprintf("The %s's UUID, equal to `id`; configurations written for the official provider refer to it.", what)
	case attrGraphQLID:
		return fmt.Sprintf("The %s's GraphQL ID.", what)
	case attrURL:
		return fmt.Sprintf("The %s's API URL.", what)
	case attrWebURL:
		return fmt.Sprintf("The %s's page in the web interface.", what)
	case attrCreatedAt:
		return fmt.Sprintf("When the %s was created (RFC 3339).", what)
	}
	panic("provider: no common attribute " + name)
}

// computedString is a server-assigned string that does not change once known.
func computedString(description string) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: description,
		Computed:            true,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// withCommon returns attrs with the named shared attributes of an object called what added, so that every
// resource describes id, uuid, graphql_id, url, web_url and created_at the same way.
func withCommon(what string, attrs map[string]schema.Attribute, names ...string) map[string]schema.Attribute {
	for _, n := range names {
		attrs[n] = computedString(commonDescription(n, what))
	}
	return attrs
}

// dataWithCommon is withCommon for data sources.
func dataWithCommon(what string, attrs map[string]dschema.Attribute, names ...string) map[string]dschema.Attribute {
	for _, n := range names {
		attrs[n] = dschema.StringAttribute{MarkdownDescription: commonDescription(n, what), Computed: true}
	}
	return attrs
}

// uuidValidator checks at plan time that a value is a UUID, and says what to use instead of a GraphQL ID.
func uuidValidator() validator.String {
	return stringvalidator.RegexMatches(uuidPattern,
		"must be a UUID (the REST ID, as in the `id` or `uuid` attribute), not a GraphQL ID or a name")
}

// parentIDAttribute is the required UUID of the object a nested object belongs to; moving the object to
// another parent replaces it.
func parentIDAttribute(description string) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: description + " Changing it replaces the resource.",
		Required:            true,
		Validators:          []validator.String{uuidValidator()},
		PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
	}
}

// backquoted renders values as a Markdown list of code spans: `a`, `b`.
func backquoted(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = "`" + v + "`"
	}
	return strings.Join(q, ", ")
}
