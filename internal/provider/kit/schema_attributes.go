package kit

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
	AttrID        = "id"
	AttrUUID      = "uuid"
	AttrGraphQLID = "graphql_id"
	AttrURL       = "url"
	AttrWebURL    = "web_url"
	AttrCreatedAt = "created_at"
)

// commonDescriptions describes the shared attributes of an object called what ("cluster").
func CommonDescription(name, what string) string {
	switch name {
	case AttrID:
		return fmt.Sprintf("The %s's ID (a UUID).", what)
	case AttrUUID:
		return fmt.Sprintf("The %s's UUID, equal to `id`; configurations written for the official provider refer to it.", what)
	case AttrGraphQLID:
		return fmt.Sprintf("The %s's GraphQL ID.", what)
	case AttrURL:
		return fmt.Sprintf("The %s's API URL.", what)
	case AttrWebURL:
		return fmt.Sprintf("The %s's page in the web interface.", what)
	case AttrCreatedAt:
		return fmt.Sprintf("When the %s was created (RFC 3339).", what)
	}
	panic("provider: no common attribute " + name)
}

// ComputedString is a server-assigned string that does not change once known.
func ComputedString(description string) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: description,
		Computed:            true,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// WithCommon returns attrs with the named shared attributes of an object called what added, so that every
// resource describes id, uuid, graphql_id, url, web_url and created_at the same way.
func WithCommon(what string, attrs map[string]schema.Attribute, names ...string) map[string]schema.Attribute {
	for _, n := range names {
		attrs[n] = ComputedString(CommonDescription(n, what))
	}
	return attrs
}

// DataWithCommon is WithCommon for data sources.
func DataWithCommon(what string, attrs map[string]dschema.Attribute, names ...string) map[string]dschema.Attribute {
	for _, n := range names {
		attrs[n] = dschema.StringAttribute{MarkdownDescription: CommonDescription(n, what), Computed: true}
	}
	return attrs
}

// UuidValidator checks at plan time that a value is a UUID, and says what to use instead of a GraphQL ID.
func UuidValidator() validator.String {
	return stringvalidator.RegexMatches(UuidPattern,
		"must be a UUID (the REST ID, as in the `id` or `uuid` attribute), not a GraphQL ID or a name")
}

// Backquoted renders values as a Markdown list of code spans: `a`, `b`.
func Backquoted(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = "`" + v + "`"
	}
	return strings.Join(q, ", ")
}
