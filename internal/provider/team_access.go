package provider

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// What the team association resources (buildkite_team_member, buildkite_pipeline_team,
// buildkite_test_suite_team) share: their identifiers, taking over an association that already exists, and
// the mapping of a test suite's access levels.

// associationID is the ID of a team's association with a user, pipeline or suite: "<team id>/<other id>",
// the form the resource is imported with. The service gives associations no identifier of their own.
func associationID(teamID, otherID string) types.String {
	return types.StringValue(teamID + "/" + otherID)
}

// associationAttributes are the computed identifiers of an association resource; what names it ("team
// membership").
func associationAttributes(what, form string, attrs map[string]schema.Attribute) map[string]schema.Attribute {
	attrs[attrID] = computedString("The " + what + "'s ID, `" + form + "`.")
	attrs[attrUUID] = computedString("Equal to `id`; configurations written for the official provider refer to it.")
	attrs[attrGraphQLID] = computedString("The " + what + "'s GraphQL ID, where the service sends one (otherwise null).")
	return attrs
}

// createOrTakeOver creates an association, or takes over the one that exists already: a pipeline created
// with `default_team_id` or a suite created with `team_owner_id` gives that team access, and the service
// refuses (422) a second add. The existing association is then found with get and, unless current says it
// already is what the plan wants, changed with update. Any other failure of the create is returned as is.
func createOrTakeOver[T any](ctx context.Context,
	create func(context.Context) (*T, error),
	get func(context.Context) (*T, error),
	current func(*T) bool,
	update func(context.Context) (*T, error),
) (*T, error) {
	obj, err := create(ctx)
	if err == nil || !buildkite.IsValidation(err) {
		return obj, err
	}
	existing, getErr := get(ctx)
	if getErr != nil {
		return nil, err // the 422 was about something else: report it
	}
	if current(existing) {
		return existing, nil
	}
	return update(ctx)
}

// timestampValue renders a service timestamp as RFC 3339, or null when the service sent none.
func timestampValue(t *time.Time) types.String {
	if t == nil {
		return types.StringNull()
	}
	return types.StringValue(t.UTC().Format(time.RFC3339Nano))
}

// The access levels of buildkite_test_suite_team, as the official provider names them (in the REST API's
// lower case), and the REST API's arrays they stand for.
var suiteAccessLevels = map[string][]string{
	"read_only":       {"read"},
	"manage_and_read": {"read", "edit"},
}

// suiteAccessToAPI is the REST array for an access level; level is checked at plan time.
func suiteAccessToAPI(level string) []string {
	return slices.Clone(suiteAccessLevels[strings.ToLower(level)])
}

// suiteAccessFromAPI names the REST array: read_only or manage_and_read in any order. An array that is
// neither (["edit"], set outside Terraform) is shown as its entries joined with ",", so that a plan reads
// `"edit" -> "read_only"` and the next apply sets what the configuration says.
func suiteAccessFromAPI(levels []string) string {
	set := slices.Clone(levels)
	slices.Sort(set)
	set = slices.Compact(set)
	for name, want := range suiteAccessLevels {
		w := slices.Clone(want)
		slices.Sort(w)
		if slices.Equal(set, w) {
			return name
		}
	}
	return strings.Join(levels, ",")
}
