package suites

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// keptWhenLeftOut makes an optional attribute Optional+Computed with UseStateForUnknown, as the official
// provider declares the suite's fields that removal keeps.
func keptWhenLeftOut(a schema.StringAttribute) schema.StringAttribute {
	a.Computed = true
	a.PlanModifiers = append(a.PlanModifiers, stringplanmodifier.UseStateForUnknown())
	return a
}

// testSuiteIdentity names a test suite for import blocks and terraform query by its slug, as its URLs do.
// The slug follows the name, so the identity is mutable: Read and Update keep it current after a rename.
var testSuiteIdentity = kit.MutableIdentity(kit.IdentityAttr("slug", "The suite's slug, derived from its name."))

// NewTestSuiteResource returns the buildkite_test_suite resource.
func NewTestSuiteResource() resource.Resource { return kit.NewObject(testSuiteKind) }

// testSuiteKind declares buildkite_test_suite: addressed by its slug, found again by ID after a rename
// elsewhere; its API token is only in the create answer. A change of team_owner_id moves the suite's
// manage_and_read access from the old team to the new.
var testSuiteKind = &kit.ObjectKind[buildkite.TestSuite, testSuiteModel]{
	Name:     "test_suite",
	What:     "test suite",
	Scopes:   kit.WriteScopes("write_suites"),
	Identity: testSuiteIdentity,
	Schema:   testSuiteSchema,
	Moves:    kit.StateMoves{Refs: []string{"team_owner_id"}},
	Key:      "slug",
	FromAPI:  func(m *testSuiteModel, _ string, s *buildkite.TestSuite) { m.fromAPI(s) },
	Create: func(ctx context.Context, c *buildkite.Client, _ string, plan *testSuiteModel) (*buildkite.TestSuite, error) {
		return c.TestSuites.Create(ctx, plan.toCreate())
	},
	Get: func(ctx context.Context, c *buildkite.Client, _, slug string) (*buildkite.TestSuite, error) {
		return c.TestSuites.Get(ctx, slug)
	},
	ByID: func(ctx context.Context, c *buildkite.Client, _, id string) (*buildkite.TestSuite, error) {
		return c.TestSuites.GetByID(ctx, id)
	},
	KeyOf: func(s *buildkite.TestSuite) string { return s.Slug },
	Update: func(ctx context.Context, c *buildkite.Client, _, slug string, plan, state *testSuiteModel) (*buildkite.TestSuite, error) {
		s, err := c.TestSuites.Update(ctx, slug, plan.toUpdate())
		if err != nil {
			return nil, err
		}
		if from, to := state.TeamOwnerID.UUID(), plan.TeamOwnerID.UUID(); from != "" && to != "" && from != to {
			if err := moveSuiteOwner(ctx, c, s.ID, from, to); err != nil {
				return nil, err
			}
		}
		plan.APIToken = state.APIToken
		return s, nil
	},
	Remove: func(ctx context.Context, c *buildkite.Client, _, slug string) error {
		return c.TestSuites.Delete(ctx, slug)
	},
	ImportParts: []kit.ImportPart{kit.KeyPart("<test suite slug or id>", "Suite")},
	// The imported suite's team_owner_id is the team that may manage it, as the official provider finds it.
	// Where several teams may (the official provider takes the first), it stays unset: a guess that differs
	// from the configuration would plan an owner change, whose apply takes the guessed team's access away.
	// Unset, the configured owner is only recorded.
	AfterImport: func(ctx context.Context, c *buildkite.Client, state *testSuiteModel, s *buildkite.TestSuite) {
		if owner := soleManagingTeam(ctx, c, s.ID); owner != "" {
			state.TeamOwnerID = kit.NewRef(owner)
		}
	},
	Named:  func(plan *testSuiteModel) string { return plan.Name.ValueString() },
	Secret: "api_token",
	Holder: func(c *buildkite.Client, plan *testSuiteModel) kit.HolderLookup {
		return suiteNames.HolderOf(c, plan.Name.ValueString())
	},
	ExplainCreate: func(plan *testSuiteModel, err error, diags *diag.Diagnostics) bool {
		if !plan.TeamOwnerID.IsNull() || !buildkite.IsValidation(err) || !strings.Contains(strings.ToLower(kit.DescribeError(err)), "team") {
			return false
		}
		diags.AddAttributeError(path.Root("team_owner_id"), "Unable to Create Test Suite",
			fmt.Sprintf("Creating test suite %s: %s. The organization has teams enabled, so a test suite needs a team: "+
				"set team_owner_id to the ID of a team.", plan.Name.ValueString(), kit.DescribeError(err)))
		return true
	},
	Renamed: []string{"slug", "url", "web_url"},
}

// testSuiteModel is what the data sources show of a suite, with what only the resource knows: the team it
// was created for and its API token.
type testSuiteModel struct {
	testSuiteDataModel
	TeamOwnerID kit.RefValue `tfsdk:"team_owner_id"`
	APIToken    types.String `tfsdk:"api_token"`
}

// fromAPI copies the service's view. The API token is only in the create response and team_owner_id in no
// response, so both are kept from state otherwise. A color, application name or OIDC policy configured as ""
// (which clears it) is answered as null and kept as "", as the official provider keeps it.
func (m *testSuiteModel) fromAPI(s *buildkite.TestSuite) {
	policy, color, app, emoji := m.OIDCPolicy, m.Color, m.ApplicationName, m.Emoji
	m.testSuiteDataModel.fromAPI(s)
	for _, f := range []struct {
		dst *types.String
		was types.String
	}{{&m.Color, color}, {&m.ApplicationName, app}, {&m.OIDCPolicy, policy}, {&m.Emoji, emoji}} {
		if f.dst.IsNull() && kit.IsKnownValue(f.was) && f.was.ValueString() == "" {
			*f.dst = f.was
		}
	}
	if s.APIToken != "" {
		m.APIToken = types.StringValue(s.APIToken)
	} else if m.APIToken.IsUnknown() {
		m.APIToken = types.StringNull()
	}
}

func (m *testSuiteModel) toCreate() buildkite.TestSuiteCreate {
	in := buildkite.TestSuiteCreate{
		Name:            m.Name.ValueString(),
		DefaultBranch:   m.DefaultBranch.ValueString(),
		ShowAPIToken:    true,
		Emoji:           kit.StringPtrIfSet(m.Emoji),
		Color:           kit.StringPtrIfSet(m.Color),
		ApplicationName: kit.StringPtrIfSet(m.ApplicationName),
		OIDCPolicy:      kit.StringPtrIfSet(m.OIDCPolicy),
	}
	if team := m.TeamOwnerID.UUID(); team != "" {
		in.TeamIDs = []string{team}
	}
	return in
}

// toUpdate sends the name, the branch and the emoji (a removed emoji as "", which clears it). color,
// application_name and oidc_policy are sent as planned: a removed one plans the state's value, which is kept
// (unmanaged), and "" clears it.
func (m *testSuiteModel) toUpdate() buildkite.TestSuiteUpdate {
	name, branch := m.Name.ValueString(), m.DefaultBranch.ValueString()
	return buildkite.TestSuiteUpdate{
		Name:            &name,
		DefaultBranch:   &branch,
		Emoji:           kit.StringPtr(m.Emoji),
		Color:           kit.StringPtrIfSet(m.Color),
		ApplicationName: kit.StringPtrIfSet(m.ApplicationName),
		OIDCPolicy:      kit.StringPtrIfSet(m.OIDCPolicy),
	}
}

// testSuiteSchema is the schema of buildkite_test_suite.
func testSuiteSchema() schema.Schema {
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A Test Engine (analytics) test suite. Its `api_token`, which test collectors report with, " +
			"is returned only when the suite is created and is kept in state from then on: an imported suite has no " +
			"`api_token`. A suite renamed outside Terraform gets a new slug and is found again by its ID. " +
			"Import it by its slug or its ID.",
		Attributes: kit.WithCommon("test suite", map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: "The suite's name; its slug is derived from it, so renaming changes `slug` and `url`.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"default_branch": schema.StringAttribute{
				MarkdownDescription: "The branch whose results the suite shows by default, such as `main`.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"team_owner_id": kit.RefAttribute(schema.StringAttribute{
				MarkdownDescription: "The ID (UUID) of the team that owns the suite: given `manage_and_read` access when the " +
					"suite is created (REST `team_ids`). Required where the organization has teams enabled. The service " +
					"does not report it, so it is kept from the configuration. Changing it from one team to another is " +
					"done in place, as by the official provider: the new team is given `manage_and_read` access and the " +
					"old team's access is removed. An import sets it to the team that may manage the suite; where several may, " +
					"it stays unset and the configured owner is only recorded.",
				Optional: true,
			}, "Team"),
			"oidc_policy": keptWhenLeftOut(schema.StringAttribute{
				MarkdownDescription: "The suite's OIDC policy, as YAML or JSON text. Left out of the configuration, the " +
					"suite keeps the policy it has (as with the official provider); `\"\"` clears it.",
				Optional: true,
			}),
			"emoji": schema.StringAttribute{
				MarkdownDescription: "An emoji shown with the suite, in emoji syntax such as `:rspec:`.",
				Optional:            true,
			},
			"color": schema.StringAttribute{
				MarkdownDescription: "A color shown with the suite, as a hex code such as `#E0F1FF`. Left out, the " +
					"suite keeps the color it has (as with the official provider); `\"\"` clears it.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"application_name": schema.StringAttribute{
				MarkdownDescription: "The name of the application the suite tests. Left out, the suite keeps the name " +
					"it has (as with the official provider); `\"\"` clears it.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"slug": schema.StringAttribute{
				MarkdownDescription: "The suite's slug, derived from its name.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"api_token": schema.StringAttribute{
				MarkdownDescription: "The suite's API token, for test collectors (`BUILDKITE_ANALYTICS_TOKEN`). Known only " +
					"to the Terraform that created the suite: null for an imported suite.",
				Computed:      true,
				Sensitive:     true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL, kit.AttrWebURL),
	}
}

// moveSuiteOwner gives the suite's new owning team manage_and_read access (or raises the access it has to
// that) and then removes the old team's access, which may be gone already (the team deleted or replaced
// first).
func moveSuiteOwner(ctx context.Context, c *buildkite.Client, suiteID, from, to string) error {
	manage := suiteAccessToAPI("manage_and_read")
	ts := c.TeamSuites
	_, err := ts.Create(ctx, to, buildkite.TeamSuiteCreate{SuiteID: suiteID, AccessLevel: manage})
	if buildkite.IsValidation(err) {
		if _, getErr := ts.Get(ctx, to, suiteID); getErr == nil {
			_, err = ts.Update(ctx, to, suiteID, manage)
		}
	}
	if err != nil {
		// The official provider's summary, which its users' tests match on.
		return &kit.DiagnosedError{Summary: "Could not add new owner team",
			Detail: fmt.Sprintf("Giving team %s manage_and_read access to test suite %s: %s", to, suiteID, kit.DescribeError(err))}
	}
	if err := ts.Delete(ctx, from, suiteID); err != nil && !buildkite.IsNotFound(err) {
		return &kit.DiagnosedError{Summary: "Failed to delete team owner",
			Detail: fmt.Sprintf("Removing the access of team %s, the suite's previous owner, to test suite %s: %s", from, suiteID, kit.DescribeError(err))}
	}
	return nil
}

// soleManagingTeam is the one team with manage_and_read access to the suite, or "" when there is none, more
// than one, or the teams cannot be read.
func soleManagingTeam(ctx context.Context, c *buildkite.Client, suiteID string) string {
	teams, err := c.Teams.List(ctx, buildkite.TeamListOptions{})
	if err != nil {
		return ""
	}
	owner := ""
	for _, t := range teams {
		ts, err := c.TeamSuites.Get(ctx, t.ID, suiteID)
		if err != nil || suiteAccessFromAPI(ts.AccessLevel) != "manage_and_read" {
			continue
		}
		if owner != "" {
			return ""
		}
		owner = t.ID
	}
	return owner
}

// suiteNames finds the suite that holds a name: suite names are unique through their slugs. A suite is
// adopted by its slug, its identity.
var suiteNames = &kit.UniqueNames[buildkite.TestSuite]{
	What: "test suite",
	List: func(ctx context.Context, c *buildkite.Client) ([]buildkite.TestSuite, error) {
		return c.TestSuites.List(ctx)
	},
	Name:     func(s *buildkite.TestSuite) string { return s.Name },
	Slug:     func(s *buildkite.TestSuite) string { return s.Slug },
	Id:       func(s *buildkite.TestSuite) string { return s.ID },
	ImportID: func(s *buildkite.TestSuite) string { return s.Slug },
}
