package teams_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

func TestAccTeamDataSource(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	seededTeam := e.SeedTeam(e.Name("ds-team"))
	const addr = "data.buildkite_team.by_slug"
	check := func(addr string) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(seededTeam.ID)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("uuid"), knownvalue.StringExact(seededTeam.ID)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("slug"), knownvalue.StringExact(seededTeam.Slug)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(seededTeam.Name)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("privacy"), knownvalue.StringExact("VISIBLE")),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("default_team"), knownvalue.Bool(false)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("default_member_role"), knownvalue.StringExact("MEMBER")),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("members_can_create_pipelines"), knownvalue.Bool(false)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("members_can_create_suites"), knownvalue.Bool(false)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("members_can_destroy_packages"), knownvalue.Bool(false)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("is_default_team"), knownvalue.Bool(false)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact("")),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("graphql_id"), knownvalue.NotNull()),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("created_at"), knownvalue.NotNull()),
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.Config(`data "buildkite_team" "x" { slug = "no-such-team" }`),
				ExpectError: regexp.MustCompile(`No Team Found(?s).*the slug "no-such-team"`),
			},
			{
				Config:      e.Config(`data "buildkite_team" "x" { id = "00000000-0000-4000-8000-000000000000" }`),
				ExpectError: regexp.MustCompile(`No Team Found`),
			},
			{
				Config:      e.Config(fmt.Sprintf("data \"buildkite_team\" \"x\" {\n  slug = %q\n  id   = %q\n}\n", seededTeam.Slug, seededTeam.ID)),
				ExpectError: regexp.MustCompile(`Exactly one of these attributes must be configured`),
			},
			{
				Config: e.Config(fmt.Sprintf(`
data "buildkite_team" "by_slug" {
  slug = %q
}
data "buildkite_team" "by_id" {
  id = %q
}
data "buildkite_team" "by_graphql_id" {
  id = %q
}
data "buildkite_team" "by_slug_in_other_case" {
  slug = %q
}
`, seededTeam.Slug, seededTeam.ID, seededTeam.GraphQLID, strings.ToUpper(seededTeam.Slug))),
				ConfigStateChecks: append(append(check(addr), check("data.buildkite_team.by_id")...),
					statecheck.ExpectKnownValue("data.buildkite_team.by_slug_in_other_case", tfjsonpath.New("id"), knownvalue.StringExact(seededTeam.ID)),
					statecheck.ExpectKnownValue("data.buildkite_team.by_slug_in_other_case", tfjsonpath.New("slug"), knownvalue.StringExact(strings.ToUpper(seededTeam.Slug))),
					statecheck.ExpectKnownValue("data.buildkite_team.by_graphql_id", tfjsonpath.New("id"), knownvalue.StringExact(seededTeam.GraphQLID)),
					statecheck.ExpectKnownValue("data.buildkite_team.by_graphql_id", tfjsonpath.New("uuid"), knownvalue.StringExact(seededTeam.ID))),
			},
		},
	})
}

func TestAccTeamDataSource_moreThanOne(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnvWith(t, fakeserver.Options{}, acctest.DuplicateFirstListed("/teams", func(m map[string]any) {
		m["id"] = "00000000-0000-4000-8000-000000000001"
	}))
	seededTeam := e.SeedTeam(e.Name("ds-dup"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config:      e.Config(fmt.Sprintf(`data "buildkite_team" "x" { slug = %q }`, seededTeam.Slug)),
			ExpectError: regexp.MustCompile(`More Than One Team Found`),
		}},
	})
}

func TestAccTeamsDataSource(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	a, b := e.SeedTeam(e.Name("ds-teams-a")), e.SeedTeam(e.Name("ds-teams-b"))
	var user string
	members, err := e.Client.Organizations.ListMembers(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range members {
		if m.Email == e.SecondMemberEmail() {
			user = m.ID
		}
	}
	if _, err := e.Client.TeamMembers.Create(t.Context(), b.ID, buildkite.TeamMemberCreate{UserID: user, Role: "maintainer"}); err != nil {
		t.Fatal(err)
	}
	teamObject := func(tm *buildkite.Team) knownvalue.Check {
		return knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"id": knownvalue.StringExact(tm.ID), "uuid": knownvalue.StringExact(tm.ID), "slug": knownvalue.StringExact(tm.Slug),
			"name": knownvalue.StringExact(tm.Name), "privacy": knownvalue.StringExact("VISIBLE"),
			"default_member_role": knownvalue.StringExact("MEMBER"), "default_team": knownvalue.Bool(false),
			"members_can_create_pipelines": knownvalue.Bool(false), "description": knownvalue.StringExact(""),
			"graphql_id": knownvalue.NotNull(), "created_at": knownvalue.NotNull(), "is_default_team": knownvalue.Bool(false),
			"members_can_create_registries": knownvalue.Bool(false), "members_can_destroy_registries": knownvalue.Bool(false),
		})
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config: e.Config(fmt.Sprintf(`
data "buildkite_teams" "all" {}
data "buildkite_teams" "of_user" {
  user_id = %q
}
data "buildkite_teams" "of_nobody" {
  user_id = "00000000-0000-4000-8000-000000000000"
}
`, user)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.buildkite_teams.all", tfjsonpath.New("teams"),
					e.Listed(teamObject(a), teamObject(b))),
				statecheck.ExpectKnownValue("data.buildkite_teams.of_user", tfjsonpath.New("teams"),
					e.Listed(teamObject(b))),
				statecheck.ExpectKnownValue("data.buildkite_teams.of_nobody", tfjsonpath.New("teams"), knownvalue.ListSizeExact(0)),
			},
		}},
	})
}

func TestAccTeamMembersDataSource(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	tm := e.SeedTeam(e.Name("ds-tm"))
	empty := e.SeedTeam(e.Name("ds-tm-empty"))
	members, err := e.Client.Organizations.ListMembers(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var second buildkite.Member
	for _, m := range members {
		if m.Email == e.SecondMemberEmail() {
			second = m
		}
	}
	if _, err := e.Client.TeamMembers.Create(t.Context(), tm.ID, buildkite.TeamMemberCreate{UserID: second.ID, Role: "maintainer"}); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.Config(`data "buildkite_team_members" "x" { team_id = "00000000-0000-4000-8000-000000000000" }`),
				ExpectError: regexp.MustCompile(`Unable to List Team Members(?s).*404`),
			},
			{
				Config: e.Config(fmt.Sprintf(`
data "buildkite_team_members" "t" {
  team_id = %q
}
data "buildkite_team_members" "empty" {
  team_id = %q
}
`, tm.ID, empty.ID)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.buildkite_team_members.t", tfjsonpath.New("members"),
						knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
							"user_id": knownvalue.StringExact(second.ID), "user_name": knownvalue.StringExact(second.Name),
							"role": knownvalue.StringExact("MAINTAINER"), "created_at": knownvalue.NotNull(),
						})})),
					statecheck.ExpectKnownValue("data.buildkite_team_members.empty", tfjsonpath.New("members"), knownvalue.ListSizeExact(0)),
				},
			},
		},
	})
}

// The shapes the official provider's users write: a team and data sources reading it back in the same
// configuration, by ID and by slug, with the stored forms and defaults of the resource; both arguments at
// once (known only at apply) are refused with the framework's summary that their tests match on.
func TestAccTeamDataSource_fromResource(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("ds-from-resource")
	team := fmt.Sprintf(`
resource "buildkite_team" "t" {
  name                         = %q
  description                  = "a team"
  privacy                      = "VISIBLE"
  default_team                 = true
  default_member_role          = "MEMBER"
  members_can_create_pipelines = true
}
`, name)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_team"),
		Steps: []resource.TestStep{
			{
				Config: e.Config(team + `
data "buildkite_team" "by_id" {
  depends_on = [buildkite_team.t]
  id         = buildkite_team.t.id
}
data "buildkite_team" "by_slug" {
  depends_on = [buildkite_team.t]
  slug       = buildkite_team.t.slug
}
`),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("data.buildkite_team.by_id", "name", name),
					resource.TestCheckResourceAttr("data.buildkite_team.by_id", "members_can_create_pipelines", "true"),
					resource.TestCheckResourceAttr("data.buildkite_team.by_id", "members_can_create_suites", "false"),
					resource.TestCheckResourceAttr("data.buildkite_team.by_slug", "name", name),
					resource.TestCheckResourceAttr("data.buildkite_team.by_slug", "privacy", "VISIBLE"),
					resource.TestCheckResourceAttr("data.buildkite_team.by_slug", "default_member_role", "MEMBER"),
					resource.TestCheckResourceAttr("data.buildkite_team.by_slug", "description", "a team"),
					resource.TestCheckResourceAttrPair("data.buildkite_team.by_slug", "id", "buildkite_team.t", "id"),
				),
			},
			{
				Config: e.Config(team + `
data "buildkite_team" "both" {
  depends_on = [buildkite_team.t]
  id         = buildkite_team.t.id
  slug       = buildkite_team.t.slug
}
`),
				ExpectError: regexp.MustCompile(`Invalid Attribute Combination`),
			},
		},
	})
}

// An organization without teams is an error, with the official provider's summary; a user in no team is not.
func TestAccTeamsDataSource_none(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("it needs an organization without teams, which a real organization running these tests is not")
	}
	members, err := e.Client.Organizations.ListMembers(t.Context())
	if err != nil || len(members) == 0 {
		t.Fatalf("members = %v, %v", members, err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.Config(`data "buildkite_teams" "all" {}`),
				ExpectError: regexp.MustCompile(`No organization teams found`),
			},
			{
				Config: e.Config(fmt.Sprintf(`data "buildkite_teams" "mine" { user_id = %q }`, members[0].ID)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.buildkite_teams.mine", tfjsonpath.New("teams"), knownvalue.ListSizeExact(0)),
				},
			},
		},
	})
}
