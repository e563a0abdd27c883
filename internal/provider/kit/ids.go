package kit

import (
	"context"
	"encoding/base64"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Identifiers people type: UUIDs, and import IDs of "/"-separated parts (`<cluster id>/<queue id or key>`)
// checked part by part, with an error that shows the accepted form.

// UuidPattern matches a UUID in its canonical textual form.
var UuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// IsUUID reports whether s is a UUID.
func IsUUID(s string) bool { return UuidPattern.MatchString(s) }

// ImportPart is one "/"-separated part of an import ID.
type ImportPart struct {
	name string // as shown to the user, "<cluster id>"
	uuid bool   // the part must be a UUID (or a GraphQL ID of one of graphQLTypes)
	// graphQLTypes are the GraphQL types whose IDs the part accepts in place of the UUID they encode: the
	// official provider's import IDs and states name objects that way.
	graphQLTypes []string
}

// UuidPart is a part that must be a UUID, or the GraphQL ID of an object of one of graphQLTypes.
func UuidPart(name string, graphQLTypes ...string) ImportPart {
	return ImportPart{name: name, uuid: true, graphQLTypes: graphQLTypes}
}

// KeyPart is a part that may be an ID, a key or a slug, or the GraphQL ID of an object of one of
// graphQLTypes.
func KeyPart(name string, graphQLTypes ...string) ImportPart {
	return ImportPart{name: name, graphQLTypes: graphQLTypes}
}

// importForm renders the accepted form, "<cluster id>/<queue id or key>".
func importForm(parts []ImportPart) string {
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

// CheckPart returns the value of one import part as the provider looks it up: a GraphQL ID of one of the
// part's types becomes the UUID it encodes. It explains a value of the wrong kind.
func CheckPart(p ImportPart, v string) (string, error) {
	if v == "" {
		return "", fmt.Errorf("%s is empty", p.name)
	}
	typ, uuid, isGraphQL := DecodeGraphQLID(v)
	switch {
	case isGraphQL && slices.Contains(p.graphQLTypes, typ):
		return strings.ToLower(uuid), nil
	case isGraphQL && associationGraphQLTypes[typ] != "":
		return "", fmt.Errorf("%s %q is the official provider's ID of %s, named by its two sides, because its GraphQL ID "+
			"encodes the association's own UUID, which the REST API never shows", p.name, v, associationGraphQLTypes[typ])
	case isGraphQL && len(p.graphQLTypes) > 0:
		return "", fmt.Errorf("%s %q is the GraphQL ID of a %s (%s), not of %s", p.name, v, typ, uuid, graphQLTypeList(p.graphQLTypes))
	case p.uuid && !IsUUID(v):
		return "", fmt.Errorf("%s %q is not a UUID%s", p.name, v, graphQLAlternative(p))
	}
	return v, nil
}

// graphQLAlternative names the GraphQL IDs a part accepts besides a UUID, for an error.
func graphQLAlternative(p ImportPart) string {
	if len(p.graphQLTypes) == 0 {
		return ""
	}
	return " or the GraphQL ID of " + graphQLTypeList(p.graphQLTypes)
}

// SplitImportID splits id into exactly the given parts, each non-empty and of the right kind (GraphQL IDs
// decoded to their UUIDs), or explains the accepted form.
func SplitImportID(id string, parts ...ImportPart) ([]string, error) {
	form := importForm(parts)
	values := strings.Split(strings.TrimSpace(id), "/")
	if len(values) != len(parts) {
		if typ, _, ok := DecodeGraphQLID(strings.TrimSpace(id)); ok && associationGraphQLTypes[typ] != "" {
			return nil, fmt.Errorf("expected an import ID of the form %q, got %q, the official provider's ID of %s: "+
				"its GraphQL ID encodes the association's own UUID, which the REST API never shows", form, id, associationGraphQLTypes[typ])
		}
		return nil, fmt.Errorf("expected an import ID of the form %q, got %q", form, id)
	}
	for i, v := range values {
		checked, err := CheckPart(parts[i], v)
		if err != nil {
			return nil, fmt.Errorf("expected an import ID of the form %q, got %q: %w", form, id, err)
		}
		values[i] = checked
	}
	return values, nil
}

// parseImportID is SplitImportID that reports a failure as "Invalid Import ID" on resp.
func parseImportID(resp *resource.ImportStateResponse, id string, parts ...ImportPart) ([]string, bool) {
	values, err := SplitImportID(id, parts...)
	if err != nil {
		resp.Diagnostics.AddError("Invalid Import ID", Capitalize(err.Error())+".")
		return nil, false
	}
	return values, true
}

// setSlugOrID starts an imported object's state from its import key: a UUID is its ID, anything else its
// slug. Read then finds the object either way.
func setSlugOrID(ctx context.Context, resp *resource.ImportStateResponse, key string) diag.Diagnostics {
	attr := "slug"
	if IsUUID(key) {
		attr = "id"
	}
	return resp.State.SetAttribute(ctx, path.Root(attr), key)
}

// The ID rule. Every ID the provider reads from state, configuration or an import is a UUID, a GraphQL ID
// of the type expected where it is read (a Pipeline's where a Cluster is meant is refused, and so is a type
// nobody knows), or the type's readable key (a slug, a key) where the type has one. Anything else is an
// error that names the resource and the attribute and says what was expected: it is never sent to the
// service (a 404 for it would say nothing about the object), and never taken for an object that is gone.

// maxShownID bounds how much of an unreadable ID an error repeats.
const maxShownID = 100

// shownID quotes an ID for an error, cut to maxShownID characters.
func shownID(id string) string {
	if r := []rune(id); len(r) > maxShownID {
		return fmt.Sprintf("%q… (%d characters)", string(r[:maxShownID]), len(r))
	}
	return fmt.Sprintf("%q", id)
}

// CheckID applies the ID rule to id: it returns the UUID (in lower case) that id names, when id is a UUID
// or a GraphQL ID of one of graphQLTypes (of any type this provider knows when graphQLTypes is empty), or an
// error saying what id is and what was expected.
func CheckID(id string, graphQLTypes []string) (string, error) {
	if IsUUID(id) {
		return strings.ToLower(id), nil
	}
	expected := "a UUID (the REST ID, as in the `id` or `uuid` attribute) or a GraphQL ID"
	if len(graphQLTypes) > 0 {
		expected = "a UUID (the REST ID, as in the `id` or `uuid` attribute) or the GraphQL ID of " + graphQLTypeList(graphQLTypes)
	}
	typ, uuid, ok := DecodeGraphQLID(id)
	switch {
	case strings.TrimSpace(id) == "":
		return "", fmt.Errorf("must be %s, got an empty value", expected)
	case !ok:
		return "", fmt.Errorf("must be %s, got %s%s", expected, shownID(id), unreadableBecause(id))
	case len(graphQLTypes) == 0 && CheckGraphQLType(typ) != nil:
		return "", fmt.Errorf("must be %s, got %s, the GraphQL ID of a %s, a type no Buildkite object has", expected, shownID(id), typ)
	case len(graphQLTypes) > 0 && !slices.Contains(graphQLTypes, typ):
		return "", fmt.Errorf("must name %s, got %s, the GraphQL ID of a %s (%s)", graphQLTypeList(graphQLTypes), shownID(id), typ, uuid)
	}
	return strings.ToLower(uuid), nil
}

// unreadableBecause says, where it can tell, why id is no GraphQL ID: what it decodes to.
func unreadableBecause(id string) string {
	raw, err := base64.StdEncoding.DecodeString(id)
	if err != nil {
		if raw, err = base64.RawStdEncoding.DecodeString(id); err != nil {
			return ""
		}
	}
	typ, rest, found := strings.Cut(string(raw), graphQLSeparator)
	switch {
	case !found || !utf8.ValidString(typ):
		return ""
	case !graphQLTypeName.MatchString(typ):
		if err := CheckGraphQLType(typ); err != nil {
			return fmt.Sprintf(" (it decodes to %q: %v)", Shortened(string(raw)), err)
		}
		return ""
	case !IsUUID(rest):
		return fmt.Sprintf(" (it decodes to %q, whose part after %q is not a UUID)", Shortened(string(raw)), graphQLSeparator)
	}
	return ""
}

// Shortened cuts s to maxShownID runes for a message.
func Shortened(s string) string {
	if r := []rune(s); len(r) > maxShownID {
		return string(r[:maxShownID]) + "…"
	}
	return s
}

// CheckRef is CheckID for a reference; where keyOK, the attribute may also hold the object's readable key
// (a pipeline's slug): a value that is no GraphQL ID is then taken as the key, as it is, while a GraphQL ID
// of another type is still refused.
func CheckRef(id string, graphQLTypes []string, keyOK bool) (string, error) {
	if _, _, isGraphQL := DecodeGraphQLID(id); keyOK && !isGraphQL && !IsUUID(id) && strings.TrimSpace(id) != "" {
		if strings.ContainsAny(id, "/ \t\n") {
			return "", fmt.Errorf("must be a UUID, a slug or the GraphQL ID of %s, got %s", graphQLTypeList(graphQLTypes), shownID(id))
		}
		return id, nil
	}
	return CheckID(id, graphQLTypes)
}

// idGraphQLTypes is the GraphQL type whose IDs each resource type's `id` holds in the official provider's
// states (its own is the UUID they encode); an empty list: a UUID only. A type not listed declares no ID
// form, and its `id` is not checked (its references still are).
var idGraphQLTypes = map[string][]string{
	"cluster":                {"Cluster"},
	"cluster_queue":          {"ClusterQueue"},
	"cluster_agent_token":    {"ClusterToken"},
	"cluster_default_queue":  {"Cluster"}, // the cluster's, as its official state holds it
	"cluster_secret":         {},
	"cluster_maintainer":     {},
	"team":                   {"Team"},
	"team_member":            {"TeamMember"},
	"pipeline":               {"Pipeline"},
	"pipeline_team":          {"TeamPipeline"},
	"pipeline_schedule":      {"PipelineSchedule"},
	"pipeline_template":      {"PipelineTemplate"},
	"organization_rule":      {"Rule"},
	"registry":               {"Registry"},
	"test_suite":             {"Suite"},
	"test_suite_team":        {"TeamSuite"},
	"organization":           {"Organization"},
	"organization_banner":    {"OrganizationBanner"},
	"notification_service":   {}, // the official provider stores the service's UUID
	"cluster_cache_registry": {"CacheRegistry"},
	"agent_token":            {"AgentToken"},
	// Not listed, on purpose:
	//   - portal: it has no `id`, here as in the official provider (a portal is named by its slug);
	//   - pipeline_webhook: the official `id` is the webhook's external ID on the repository's provider
	//     (GitHub's numeric ID), neither a UUID nor a GraphQL ID, so no form can be checked;
	//   - hosted_agent_image: the `id` is the image's profile ID ("snb5nqcik8ge2" in the docs), neither a
	//     UUID nor a GraphQL ID, so no form can be checked;
}

// CheckStateID applies the ID rule to the `id` a state of the resource type name (without "buildkite_")
// holds: an association's, built of its two sides ("<team id>/<user id>"), part by part.
func CheckStateID(name, id string) error {
	types, listed := idGraphQLTypes[name]
	switch {
	case !listed:
		return nil
	case strings.Contains(id, "/") && !isAssociation(types):
		return fmt.Errorf("must be a UUID or the GraphQL ID of %s, got %s", graphQLTypeList(types), shownID(id))
	case strings.Contains(id, "/"):
		for _, part := range strings.Split(id, "/") {
			if _, err := CheckID(part, nil); err != nil {
				return fmt.Errorf("%s: each of its parts %w", shownID(id), err)
			}
		}
		return nil
	case len(types) == 0:
		if !IsUUID(id) {
			return fmt.Errorf("must be a UUID, got %s", shownID(id))
		}
		return nil
	}
	_, err := CheckID(id, types)
	return err
}

// isAssociation reports whether graphQLTypes are an association's, whose `id` here is built of its sides.
func isAssociation(graphQLTypes []string) bool {
	return slices.ContainsFunc(graphQLTypes, func(t string) bool { return associationGraphQLTypes[t] != "" })
}

// idFix is what to do about a state whose IDs cannot be read, for the end of an error.
func idFix(address string) string {
	if address == "" {
		address = "<address>"
	}
	return fmt.Sprintf("Correct the state (`terraform state pull`, fix the attribute, `terraform state push`), or "+
		"remove the instance with `terraform state rm %s` and import the object by its ID.", address)
}

// GraphQLTypeValidator refuses a GraphQL ID of another type than typ, where an ID of typ (or something
// else: a UUID, a slug) is expected.
type GraphQLTypeValidator struct{ Typ string }

func (v GraphQLTypeValidator) Description(context.Context) string {
	return "a GraphQL ID must be a " + v.Typ + "'s"
}

func (v GraphQLTypeValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v GraphQLTypeValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !IsKnownValue(req.ConfigValue) {
		return
	}
	if _, _, err := UuidOrGraphQLID(req.ConfigValue.ValueString(), v.Typ); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Wrong Kind of GraphQL ID", fmt.Sprintf("%s: %s.", req.Path, err))
	}
}
