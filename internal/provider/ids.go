package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// Identifiers people type: UUIDs, and import IDs of "/"-separated parts (`<cluster id>/<queue id or key>`)
// checked part by part, with an error that shows the accepted form.

// uuidPattern matches a UUID in its canonical textual form.
var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// isUUID reports whether s is a UUID.
func isUUID(s string) bool { return uuidPattern.MatchString(s) }

// importPart is one "/"-separated part of an import ID.
type importPart struct {
	name string // as shown to the user, "<cluster id>"
	uuid bool   // the part must be a UUID (or a GraphQL ID of one of graphQLTypes)
	// graphQLTypes are the GraphQL types whose IDs the part accepts in place of the UUID they encode: the
	// official provider's import IDs and states name objects that way.
	graphQLTypes []string
}

// uuidPart is a part that must be a UUID, or the GraphQL ID of an object of one of graphQLTypes.
func uuidPart(name string, graphQLTypes ...string) importPart {
	return importPart{name: name, uuid: true, graphQLTypes: graphQLTypes}
}

// keyPart is a part that may be an ID, a key or a slug, or the GraphQL ID of an object of one of
// graphQLTypes.
func keyPart(name string, graphQLTypes ...string) importPart {
	return importPart{name: name, graphQLTypes: graphQLTypes}
}

// importForm renders the accepted form, "<cluster id>/<queue id or key>".
func importForm(parts []importPart) string {
	names := make([]string, len(parts))
	for i, p := range parts {
		names[i] = p.name
	}
	return strings.Join(names, "/")
}

// associationGraphQLTypes are the GraphQL types of the official provider's association IDs, which encode the
// association's own UUID; the REST API never shows it, so such an ID names nothing this provider can find.
var associationGraphQLTypes = map[string]string{
	"TeamMember":   "a team membership (buildkite_team_member): import it as `<team id or slug>/<user id>`",
	"TeamPipeline": "a team's access to a pipeline (buildkite_pipeline_team): import it as `<team id or slug>/<pipeline id or slug>`",
	"TeamSuite":    "a team's access to a test suite (buildkite_test_suite_team): import it as `<team id or slug>/<suite id or slug>`",
}

// checkPart returns the value of one import part as the provider looks it up: a GraphQL ID of one of the
// part's types becomes the UUID it encodes. It explains a value of the wrong kind.
func checkPart(p importPart, v string) (string, error) {
	if v == "" {
		return "", fmt.Errorf("%s is empty", p.name)
	}
	typ, uuid, isGraphQL := decodeGraphQLID(v)
	switch {
	case isGraphQL && slices.Contains(p.graphQLTypes, typ):
		return strings.ToLower(uuid), nil
	case isGraphQL && associationGraphQLTypes[typ] != "":
		return "", fmt.Errorf("%s %q is the official provider's ID of %s, named by its two sides, because its GraphQL ID "+
			"encodes the association's own UUID, which the REST API never shows", p.name, v, associationGraphQLTypes[typ])
	case isGraphQL && len(p.graphQLTypes) > 0:
		return "", fmt.Errorf("%s %q is the GraphQL ID of a %s (%s), not of %s", p.name, v, typ, uuid, graphQLTypeList(p.graphQLTypes))
	case p.uuid && !isUUID(v):
		return "", fmt.Errorf("%s %q is not a UUID%s", p.name, v, graphQLAlternative(p))
	}
	return v, nil
}

// graphQLAlternative names the GraphQL IDs a part accepts besides a UUID, for an error.
func graphQLAlternative(p importPart) string {
	if len(p.graphQLTypes) == 0 {
		return ""
	}
	return " or the GraphQL ID of " + graphQLTypeList(p.graphQLTypes)
}

// splitImportID splits id into exactly the given parts, each non-empty and of the right kind (GraphQL IDs
// decoded to their UUIDs), or explains the accepted form.
func splitImportID(id string, parts ...importPart) ([]string, error) {
	form := importForm(parts)
	values := strings.Split(strings.TrimSpace(id), "/")
	if len(values) != len(parts) {
		if typ, _, ok := decodeGraphQLID(strings.TrimSpace(id)); ok && associationGraphQLTypes[typ] != "" {
			return nil, fmt.Errorf("expected an import ID of the form %q, got %q, the official provider's ID of %s: "+
				"its GraphQL ID encodes the association's own UUID, which the REST API never shows", form, id, associationGraphQLTypes[typ])
		}
		return nil, fmt.Errorf("expected an import ID of the form %q, got %q", form, id)
	}
	for i, v := range values {
		checked, err := checkPart(parts[i], v)
		if err != nil {
			return nil, fmt.Errorf("expected an import ID of the form %q, got %q: %w", form, id, err)
		}
		values[i] = checked
	}
	return values, nil
}

// parseImportID is splitImportID that reports a failure as "Invalid Import ID" on resp.
func parseImportID(resp *resource.ImportStateResponse, id string, parts ...importPart) ([]string, bool) {
	values, err := splitImportID(id, parts...)
	if err != nil {
		resp.Diagnostics.AddError("Invalid Import ID", capitalize(err.Error())+".")
		return nil, false
	}
	return values, true
}

// setSlugOrID starts an imported object's state from its import key: a UUID is its ID, anything else its
// slug. Read then finds the object either way.
func setSlugOrID(ctx context.Context, resp *resource.ImportStateResponse, key string) diag.Diagnostics {
	attr := "slug"
	if isUUID(key) {
		attr = "id"
	}
	return resp.State.SetAttribute(ctx, path.Root(attr), key)
}
