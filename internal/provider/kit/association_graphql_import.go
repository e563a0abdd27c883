package kit

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// associationNodeTypes are the GraphQL types of the official provider's IDs of the team associations, by
// resource type: such an ID, given to import, is resolved into its two sides with GraphQL's node(id:).
var associationNodeTypes = map[string]string{
	"team_member":     "TeamMember",
	"pipeline_team":   "TeamPipeline",
	"test_suite_team": "TeamSuite",
	"team_registry":   "TeamRegistry",
}

// partsFromNode returns the import parts (team UUID, other side's UUID) of an import ID that is the
// GraphQL ID of this type's association, asking GraphQL's node(id:); handled is false for any other ID,
// which the import form decides as before.
func (r *objectResource[T, M]) partsFromNode(ctx context.Context, id string, diags *diag.Diagnostics) (parts []string, handled bool) {
	typ, _, ok := DecodeGraphQLID(strings.TrimSpace(id))
	if !ok || typ != associationNodeTypes[r.kind.Name] {
		return nil, false
	}
	if !r.Data.GraphQLReachable() {
		diags.AddError("Unable to Import "+titleWords(r.kind.What), fmt.Sprintf(
			"%q is the official provider's ID of a %s (a %s GraphQL ID), which only Buildkite's GraphQL API resolves into "+
				"its two sides, and the provider cannot reach it (no graphql_url where rest_url is set, or an API token "+
				"without the graphql scope). Import it as %q instead, or give the provider GraphQL access.",
			id, r.kind.What, typ, importForm(r.kind.ImportParts)))
		return nil, true
	}
	sides, err := r.Client().TeamLinkSides(ctx, strings.TrimSpace(id))
	if buildkite.IsNotFound(err) {
		diags.AddError("Unable to Import "+titleWords(r.kind.What), fmt.Sprintf(
			"Cannot import non-existent remote object: the service knows no %s with the GraphQL ID %q (node(id:) answered "+
				"none).", r.kind.What, id))
		return nil, true
	}
	if err != nil {
		AddGraphQLError(diags, "import", r.kind.What, id, err, nil)
		return nil, true
	}
	for _, side := range []string{sides.TeamID, sides.OtherID} {
		_, uuid, ok := DecodeGraphQLID(side)
		if !ok {
			diags.AddError("Unable to Import "+titleWords(r.kind.What), fmt.Sprintf(
				"The service resolved %q into %q, which is not a GraphQL ID this provider can read.", id, side))
			return nil, true
		}
		parts = append(parts, strings.ToLower(uuid))
	}
	return parts, true
}
