package provider

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ resource.Resource                = (*testSuiteTeamResource)(nil)
	_ resource.ResourceWithConfigure   = (*testSuiteTeamResource)(nil)
	_ resource.ResourceWithImportState = (*testSuiteTeamResource)(nil)
	_ resource.ResourceWithIdentity    = (*testSuiteTeamResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*testSuiteTeamResource)(nil)
)

// testSuiteTeamIdentity names a team's access to a test suite by its two sides, for import blocks and
// terraform query.
var testSuiteTeamIdentity = identifiedBy(
	identityAttr("team_id", "The UUID of the team."),
	identityAttr("test_suite_id", "The UUID of the test suite."),
)

// NewTestSuiteTeamResource returns the buildkite_test_suite_team resource.
func NewTestSuiteTeamResource() resource.Resource {
	return &testSuiteTeamResource{
		resourceBase:     newResourceBase("test_suite_team", writeScopes("write_teams")),
		resourceIdentity: testSuiteTeamIdentity,
	}
}

type testSuiteTeamResource struct {
	resourceBase
	resourceIdentity
}

type testSuiteTeamModel struct {
	ID          types.String `tfsdk:"id"`
	UUID        types.String `tfsdk:"uuid"`
	GraphQLID   types.String `tfsdk:"graphql_id"`
	TeamID      types.String `tfsdk:"team_id"`
	TestSuiteID types.String `tfsdk:"test_suite_id"`
	AccessLevel enumValue    `tfsdk:"access_level"`
}

func (m *testSuiteTeamModel) fromAPI(teamID string, ts *buildkite.TeamSuite) {
	m.ID = associationID(teamID, ts.SuiteID)
	m.UUID = m.ID
	m.GraphQLID = optionalString(ts.GraphQLID)
	m.TeamID = types.StringValue(teamID)
	m.TestSuiteID = types.StringValue(ts.SuiteID)
	m.AccessLevel = newEnumValue(suiteAccessFromAPI(ts.AccessLevel))
}

func (r *testSuiteTeamResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A team's access to a test suite. Import as `<team>/<suite>`, the team by UUID or slug " +
			"and the suite by UUID or slug.\n\n" +
			"The REST API spells the access as an array: `read_only` is `[\"read\"]` and `manage_and_read` is " +
			"`[\"read\", \"edit\"]`. An access set outside Terraform that is neither (only `[\"edit\"]`) shows in a " +
			"plan as its entries joined with commas, `access_level: \"edit\" -> \"read_only\"`, and the next apply " +
			"sets what the configuration says.\n\n" +
			"A `buildkite_test_suite` created with `team_owner_id` gives that team `manage_and_read` access once, " +
			"at creation. A `buildkite_test_suite_team` for the same team and suite owns that access from then on: " +
			"creating it takes over the existing access and sets its own `access_level`.",
		Attributes: associationAttributes("test suite access", "<team id>/<suite id>", map[string]schema.Attribute{
			"team_id":       parentIDAttribute("The UUID of the team."),
			"test_suite_id": parentIDAttribute("The UUID of the test suite (its `id`)."),
			"access_level": caseInsensitiveEnum(schema.StringAttribute{
				MarkdownDescription: "What the team's members may do: `read_only` view the suite, `manage_and_read` also change it.",
				Required:            true,
			}, "read_only", "manage_and_read"),
		}),
	}
}

// ident names the access in errors as its import ID does.
func (m *testSuiteTeamModel) ident() string {
	return m.TeamID.ValueString() + "/" + m.TestSuiteID.ValueString()
}

func (r *testSuiteTeamResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.identifyCreated(ctx, resp)
	var plan testSuiteTeamModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opCreate)
	defer cancel()
	tss := r.client().TeamSuites
	teamID, suiteID, level := plan.TeamID.ValueString(), plan.TestSuiteID.ValueString(), suiteAccessToAPI(plan.AccessLevel.ValueString())
	ts, err := createOrTakeOver(ctx,
		func(ctx context.Context) (*buildkite.TeamSuite, error) {
			return tss.Create(ctx, teamID, buildkite.TeamSuiteCreate{SuiteID: suiteID, AccessLevel: level})
		},
		func(ctx context.Context) (*buildkite.TeamSuite, error) { return tss.Get(ctx, teamID, suiteID) },
		func(ts *buildkite.TeamSuite) bool {
			return suiteAccessFromAPI(ts.AccessLevel) == plan.AccessLevel.API()
		},
		func(ctx context.Context) (*buildkite.TeamSuite, error) {
			return tss.Update(ctx, teamID, suiteID, slices.Clone(level))
		})
	if err != nil {
		addAPIError(&resp.Diagnostics, "create", "test suite team", plan.ident(), err)
		return
	}
	plan.fromAPI(teamID, ts)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *testSuiteTeamResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.identifyRead(ctx, req, resp)
	var state testSuiteTeamModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	ts, err := r.client().TeamSuites.Get(ctx, state.TeamID.ValueString(), state.TestSuiteID.ValueString())
	if err != nil {
		r.readFailed(ctx, resp, err, "test suite team", state.ident())
		return
	}
	state.fromAPI(state.TeamID.ValueString(), ts)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *testSuiteTeamResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.identifyUpdated(ctx, resp)
	var plan testSuiteTeamModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opUpdate)
	defer cancel()
	ts, err := r.client().TeamSuites.Update(ctx, plan.TeamID.ValueString(), plan.TestSuiteID.ValueString(),
		suiteAccessToAPI(plan.AccessLevel.ValueString()))
	if err != nil {
		addAPIError(&resp.Diagnostics, "update", "test suite team", plan.ident(), err)
		return
	}
	plan.fromAPI(plan.TeamID.ValueString(), ts)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *testSuiteTeamResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state testSuiteTeamModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opDelete)
	defer cancel()
	err := r.client().TeamSuites.Delete(ctx, state.TeamID.ValueString(), state.TestSuiteID.ValueString())
	r.deleteFailed(ctx, &resp.Diagnostics, err, "test suite team", state.ident())
}

// ImportState accepts, as an import ID or as the identity, "<team id or slug>/<suite id or slug>"; the suite
// is looked up among the team's suites.
func (r *testSuiteTeamResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts, ok := r.importParts(ctx, req, resp, keyPart("<team id or slug>"), keyPart("<suite id or slug>"))
	if !ok {
		return
	}
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	tss := r.client().TeamSuites
	t, err := findTeam(ctx, r.client(), parts[0])
	var ts *buildkite.TeamSuite
	if err == nil {
		ts, err = findByIDOrKey(ctx, parts[1],
			func(ctx context.Context, id string) (*buildkite.TeamSuite, error) { return tss.Get(ctx, t.ID, id) },
			func(ctx context.Context) ([]buildkite.TeamSuite, error) { return tss.List(ctx, t.ID) },
			(*buildkite.TeamSuite).SuiteSlug)
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "import", "test suite team", req.ID, err)
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("team_id"), t.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("test_suite_id"), ts.SuiteID)...)
}
