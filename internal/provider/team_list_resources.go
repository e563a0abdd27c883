package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// The list resources of teams and of their associations. The three association kinds (members, pipeline
// access, suite access) share one filter, team_id, and one way to find their teams: the organization's team
// listing, which also gives each result a display name that starts with its team's name. The service lists
// each team's associations in one listing, so a query costs one call per page of teams and one per team.

var (
	_ list.ListResourceWithConfigure = (*teamListResource)(nil)
	_ list.ListResourceWithConfigure = (*teamChildList[buildkite.TeamMember])(nil)
)

// NewTeamListResource returns the buildkite_team list resource.
func NewTeamListResource() list.ListResource {
	return &teamListResource{listBase: newListBase("team", teamIdentity)}
}

type teamListResource struct {
	listBase
}

type teamListFilter struct {
	Name types.String `tfsdk:"name"`
}

func (l *teamListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Finds the organization's teams, shown by name.",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: "Only the team with this name (compared without regard to case). Unset, every team.",
				Optional:            true,
				Validators:          []validator.String{notBlank()},
			},
		},
	}
}

func (l *teamListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var filter teamListFilter
	if diags := req.Config.Get(ctx, &filter); diags.HasError() {
		listFailed(stream, diags)
		return
	}
	callCtx, cancel := l.timeout(ctx, opRead)
	defer cancel()
	teams, err := l.client().Teams.List(callCtx, buildkite.TeamListOptions{})
	if err != nil {
		var diags diag.Diagnostics
		addAPIError(&diags, "list", "teams", "", err)
		listFailed(stream, diags)
		return
	}
	var items []found
	for i := range teams {
		t := &teams[i]
		if !filter.Name.IsNull() && !strings.EqualFold(t.Name, filter.Name.ValueString()) {
			continue
		}
		var m teamModel
		m.fromAPI(t)
		items = append(items, found{model: &m, displayName: t.Name})
	}
	stream.Results = l.results(ctx, req, items)
}

// teamChildList is the list resource of a kind that belongs to teams, filtered by team_id.
type teamChildList[T any] struct {
	listBase
	what string // "team members"
	// description completes "Finds …" in the schema's description.
	description string
	// listIn lists the objects of one team; found makes one into a result.
	listIn func(ctx context.Context, client *buildkite.Client, t *buildkite.Team) ([]T, error)
	found  func(t *buildkite.Team, item *T) found
}

// teamChildFilter filters the objects that belong to teams by their team.
type teamChildFilter struct {
	TeamID types.String `tfsdk:"team_id"`
}

func (l *teamChildList[T]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: fmt.Sprintf("Finds %s, shown as `<team name> / …`.", l.description),
		Attributes: map[string]schema.Attribute{
			"team_id": schema.StringAttribute{
				MarkdownDescription: "Only those of the team with this UUID. Unset, those of every team.",
				Optional:            true,
				Validators:          []validator.String{uuidValidator()},
			},
		},
	}
}

// List lists the teams the filter selects, then what belongs to each.
func (l *teamChildList[T]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var filter teamChildFilter
	if diags := req.Config.Get(ctx, &filter); diags.HasError() {
		listFailed(stream, diags)
		return
	}
	callCtx, cancel := l.timeout(ctx, opRead)
	defer cancel()
	var diags diag.Diagnostics
	teams := l.filteredTeams(callCtx, filter, &diags)
	if diags.HasError() {
		listFailed(stream, diags)
		return
	}
	var items []found
	for i := range teams {
		t := &teams[i]
		children, err := l.listIn(callCtx, l.client(), t)
		if err != nil {
			addAPIError(&diags, "list", l.what, fmt.Sprintf("of team %q (%s)", t.Name, t.ID), err)
			listFailed(stream, diags)
			return
		}
		for j := range children {
			items = append(items, l.found(t, &children[j]))
		}
	}
	stream.Results = l.results(ctx, req, items)
}

// filteredTeams lists the organization's teams, or the one the filter names.
func (b *listBase) filteredTeams(ctx context.Context, filter teamChildFilter, diags *diag.Diagnostics) []buildkite.Team {
	all, err := b.client().Teams.List(ctx, buildkite.TeamListOptions{})
	if err != nil {
		addAPIError(diags, "list", "teams", "", err)
		return nil
	}
	if filter.TeamID.IsNull() {
		return all
	}
	id := filter.TeamID.ValueString()
	t := pickOne(diags, "team", fmt.Sprintf("the ID %q", id), all, func(t *buildkite.Team) bool { return strings.EqualFold(t.ID, id) })
	if t == nil {
		return nil
	}
	return []buildkite.Team{*t}
}

// NewTeamMemberListResource returns the buildkite_team_member list resource.
func NewTeamMemberListResource() list.ListResource {
	return &teamChildList[buildkite.TeamMember]{
		listBase:    newListBase("team_member", teamMemberIdentity),
		what:        "team members",
		description: "the members of teams, with their roles",
		listIn: func(ctx context.Context, client *buildkite.Client, t *buildkite.Team) ([]buildkite.TeamMember, error) {
			return client.TeamMembers.List(ctx, t.ID)
		},
		found: func(t *buildkite.Team, tm *buildkite.TeamMember) found {
			var m teamMemberModel
			m.fromAPI(t.ID, tm)
			return found{model: &m, displayName: t.Name + " / " + displayOr(tm.UserName, tm.UserID)}
		},
	}
}

// NewPipelineTeamListResource returns the buildkite_pipeline_team list resource.
func NewPipelineTeamListResource() list.ListResource {
	return &teamChildList[buildkite.TeamPipeline]{
		listBase:    newListBase("pipeline_team", pipelineTeamIdentity),
		what:        "team pipelines",
		description: "the pipelines teams have access to, with the access level, each shown by the pipeline's slug",
		listIn: func(ctx context.Context, client *buildkite.Client, t *buildkite.Team) ([]buildkite.TeamPipeline, error) {
			return client.TeamPipelines.List(ctx, t.ID)
		},
		found: func(t *buildkite.Team, tp *buildkite.TeamPipeline) found {
			var m pipelineTeamModel
			m.fromAPI(t.ID, tp)
			return found{model: &m, displayName: t.Name + " / " + displayOr(tp.PipelineSlug(), tp.PipelineID)}
		},
	}
}

// NewTestSuiteTeamListResource returns the buildkite_test_suite_team list resource.
func NewTestSuiteTeamListResource() list.ListResource {
	return &teamChildList[buildkite.TeamSuite]{
		listBase:    newListBase("test_suite_team", testSuiteTeamIdentity),
		what:        "team test suites",
		description: "the test suites teams have access to, with the access level, each shown by the suite's slug",
		listIn: func(ctx context.Context, client *buildkite.Client, t *buildkite.Team) ([]buildkite.TeamSuite, error) {
			return client.TeamSuites.List(ctx, t.ID)
		},
		found: func(t *buildkite.Team, ts *buildkite.TeamSuite) found {
			var m testSuiteTeamModel
			m.fromAPI(t.ID, ts)
			return found{model: &m, displayName: t.Name + " / " + displayOr(ts.SuiteSlug(), ts.SuiteID)}
		},
	}
}

// displayOr is s, or fallback when the service sent no s: a display name is never empty.
func displayOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}
