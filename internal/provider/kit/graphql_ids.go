package kit

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// GraphQL IDs: the other form of a Buildkite identifier. Buildkite's GraphQL API, and so the official
// provider, names every object by a GraphQL ID: standard, padded base64 of "<GraphQL type>---<uuid>", such
// as "Q2x1c3Rlci0tLTAxMjM0NTY3LTg5YWItY2RlZi0wMTIzLTQ1Njc4OWFiY2RlZg==" for Cluster 01234567-89ab-….
// This provider names objects by the UUID (the REST ID), so these helpers convert between the two for
// anything that accepts either form: the graphql_id and uuid functions, the actions' references, and
// configurations and states moving from the official provider.

// graphQLTypes are the GraphQL types whose IDs name objects this provider and the official one deal with (its
// states, as its source at github.com/buildkite/terraform-provider-buildkite writes them), plus Build, whose
// graphql_id the builds data source shows.
var GraphQLTypes = []string{
	"AgentToken", "Build", "CacheRegistry", "Cluster", "ClusterQueue", "ClusterToken", "Organization", "OrganizationBanner", "Pipeline", "PipelineSchedule",
	"PipelineTemplate", "Registry", "Rule", "Suite", "Team", "TeamMember", "TeamPipeline", "TeamRegistry", "TeamSuite", "User",
}

// graphQLSeparator joins the type and the UUID inside a GraphQL ID.
const graphQLSeparator = "---"

// graphQLTypeName is what a GraphQL type name looks like; decoding accepts any such type, known or not.
var graphQLTypeName = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)

// GraphQLID returns the GraphQL ID of the object of type typ with UUID uuid, with the UUID in lower case as
// the service writes it (IDs are compared as strings, so another case would name nothing). The caller
// checks typ with CheckGraphQLType and uuid with IsUUID.
func GraphQLID(typ, uuid string) string {
	return base64.StdEncoding.EncodeToString([]byte(typ + graphQLSeparator + strings.ToLower(uuid)))
}

// DecodeGraphQLID returns the type and UUID inside a GraphQL ID. ok is false unless s is base64 (padded,
// or without the padding, which some tools strip) of "<Type>---<uuid>"; the type need not be one of
// graphQLTypes, so an ID of a type this provider does not know still decodes.
func DecodeGraphQLID(s string) (typ, uuid string, ok bool) {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		if raw, err = base64.RawStdEncoding.DecodeString(s); err != nil {
			return "", "", false
		}
	}
	typ, uuid, found := strings.Cut(string(raw), graphQLSeparator)
	if !found || !graphQLTypeName.MatchString(typ) || !IsUUID(uuid) {
		return "", "", false
	}
	return typ, uuid, true
}

// CheckGraphQLType returns nil when typ is one of graphQLTypes, else an error that lists them and, where
// typ differs from one only in case, names that one.
func CheckGraphQLType(typ string) error {
	if slices.Contains(GraphQLTypes, typ) {
		return nil
	}
	for _, known := range GraphQLTypes {
		if strings.EqualFold(known, typ) {
			return fmt.Errorf("%q is not a GraphQL type: type names are case-sensitive, did you mean %q?", typ, known)
		}
	}
	return fmt.Errorf("%q is not a GraphQL type this provider knows; use one of %s", typ, strings.Join(GraphQLTypes, ", "))
}

// UuidOrGraphQLID returns the UUID that ref names: ref itself when it is a UUID, the UUID inside it when it
// is a GraphQL ID of type typ. ok is false for anything else (a slug or key, or an ID of another type).
func UuidOrGraphQLID(ref, typ string) (uuid string, ok bool, err error) {
	if IsUUID(ref) {
		return ref, true, nil
	}
	gotType, id, isID := DecodeGraphQLID(ref)
	if !isID {
		return "", false, nil
	}
	if gotType != typ {
		return "", false, fmt.Errorf("%q is the GraphQL ID of a %s (%s), not of a %s", ref, gotType, id, typ)
	}
	return id, true, nil
}
