package buildkite

import "context"

// A team association's own GraphQL ID (TeamMember, TeamPipeline, TeamSuite, TeamRegistry: the official
// provider's IDs of buildkite_team_member, buildkite_pipeline_team, buildkite_test_suite_team and
// buildkite_team_registry) encodes the association's
// UUID, which the REST API never shows. GraphQL's node(id:) turns it into its two sides (Buildkite's GraphQL
// schema: https://buildkite.com/docs/apis/graphql/schemas/object/teampipeline).

var opGetTeamLink = queryFile("getTeamLink")

// getTeamLinkAnswer is the data of getTeamLink's answer.
type getTeamLinkAnswer struct {
	Node *struct {
		Typename string      `json:"__typename"`
		Team     *graphQLRef `json:"team"`
		User     *graphQLRef `json:"user"`
		Pipeline *graphQLRef `json:"pipeline"`
		Suite    *graphQLRef `json:"suite"`
		Registry *graphQLRef `json:"registry"`
	} `json:"node"`
}

// TeamLinkSides are the two sides of a team association, by GraphQL ID.
type TeamLinkSides struct {
	// Type is the association's GraphQL type: TeamMember, TeamPipeline, TeamSuite or TeamRegistry.
	Type string
	// TeamID is the team's GraphQL ID; OtherID the user's, pipeline's, suite's or registry's.
	TeamID, OtherID string
}

type graphQLRef struct {
	ID string `json:"id"`
}

// TeamLinkSides resolves a team association's GraphQL ID into its two sides. An ID the service does not
// know, or one of another type, is an error IsNotFound recognises.
func (c *Client) TeamLinkSides(ctx context.Context, id string) (*TeamLinkSides, error) {
	out, err := gqlQuery[getTeamLinkAnswer](ctx, c, opGetTeamLink, map[string]string{"id": id})
	if err != nil {
		return nil, err
	}
	n := out.Node
	if n == nil || n.Team == nil {
		return nil, c.graphQLNotFound(opGetTeamLink.name, "team association "+id)
	}
	sides := &TeamLinkSides{Type: n.Typename, TeamID: n.Team.ID}
	for _, other := range []*graphQLRef{n.User, n.Pipeline, n.Suite, n.Registry} {
		if other != nil {
			sides.OtherID = other.ID
		}
	}
	if sides.OtherID == "" {
		return nil, c.graphQLNotFound(opGetTeamLink.name, "the other side of team association "+id)
	}
	return sides, nil
}
