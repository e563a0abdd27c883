package teams_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func TestAccTeamResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name, renamed := e.Name("team"), e.Name("team-renamed")
	const addr = "buildkite_team.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_team"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				// The official provider's spelling, which its users' configurations hold.
				Config: e.Config(acctest.TeamConfig(name, "VISIBLE", "MEMBER", false, "")),
				Check: resource.ComposeTestCheckFunc(
					e.CheckExists(addr),
					resource.TestCheckResourceAttrPair(addr, "uuid", addr, "id"),
					resource.TestCheckResourceAttrSet(addr, "graphql_id"),
					resource.TestCheckResourceAttrSet(addr, "created_at"),
				),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("slug"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("privacy"), knownvalue.StringExact("VISIBLE")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("default_member_role"), knownvalue.StringExact("MEMBER")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact("")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("members_can_create_pipelines"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("members_can_create_suites"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("members_can_destroy_packages"), knownvalue.Bool(false)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			}),
			acctest.ImportSteps(addr, acctest.ImportID(addr, "id")),
			acctest.Step(resource.TestStep{
				// By slug.
				ResourceName: addr, ImportState: true, ImportStateIdFunc: acctest.ImportID(addr, "slug"), ImportStateVerify: true,
			}),
			acctest.Step(resource.TestStep{
				// By GraphQL ID, the official provider's import ID.
				ResourceName: addr, ImportState: true, ImportStateIdFunc: acctest.ImportID(addr, "graphql_id"), ImportStateVerify: true,
			}),
			acctest.Step(resource.TestStep{
				// Every writable property, in place; the new name derives a new slug.
				Config: e.Config(acctest.TeamConfig(renamed, "secret", "maintainer", true, `
  description                    = "Runs the platform"
  members_can_create_pipelines   = true
  members_can_create_suites      = true
  members_can_create_registries  = true
  members_can_destroy_registries = true
  members_can_destroy_packages   = true`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: checkTeamOnService(e, buildkite.TeamWrite{
					Name: renamed, Description: "Runs the platform", Privacy: "secret", IsDefaultTeam: true,
					DefaultMemberRole: "maintainer", MembersCanCreatePipelines: true, MembersCanCreateSuites: acctest.PtrTo(true),
					MembersCanCreateRegistries: acctest.PtrTo(true), MembersCanDestroyRegistries: acctest.PtrTo(true), MembersCanDestroyPackages: acctest.PtrTo(true),
				}),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("slug"), knownvalue.StringExact(renamed)),
				},
			}),
			acctest.Step(resource.TestStep{
				// Back to the defaults: removing the optional attributes sends "" and false.
				Config: e.Config(acctest.TeamConfig(renamed, "secret", "maintainer", true, "")),
				Check: checkTeamOnService(e, buildkite.TeamWrite{
					Name: renamed, Privacy: "secret", IsDefaultTeam: true, DefaultMemberRole: "maintainer",
				}),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			}),
		),
	})
}

// checkTeamOnService compares the writable properties of buildkite_team.test on the service with want.
func checkTeamOnService(e *acctest.TestEnv, want buildkite.TeamWrite) resource.TestCheckFunc {
	const addr = "buildkite_team.test"
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s is not in state", addr)
		}
		tm, err := e.Client.Teams.Get(context.Background(), rs.Primary.ID)
		if err != nil {
			return err
		}
		got := buildkite.TeamWrite{Name: tm.Name, Description: tm.Description, Privacy: tm.Privacy, IsDefaultTeam: tm.IsDefault()}
		if tm.DefaultMemberRole != nil {
			got.DefaultMemberRole = *tm.DefaultMemberRole
		}
		if tm.MembersCanCreatePipelines != nil {
			got.MembersCanCreatePipelines = *tm.MembersCanCreatePipelines
		}
		got.MembersCanCreateSuites, got.MembersCanCreateRegistries = tm.MembersCanCreateSuites, tm.MembersCanCreateRegistries
		got.MembersCanDestroyRegistries, got.MembersCanDestroyPackages = tm.MembersCanDestroyRegistries, tm.MembersCanDestroyPackages
		if teamWriteText(got) != teamWriteText(want) {
			return fmt.Errorf("team on the service = %s, want %s", teamWriteText(got), teamWriteText(want))
		}
		return nil
	}
}

// teamWriteText renders a team's writable properties for comparison, a permission left out as false.
func teamWriteText(w buildkite.TeamWrite) string {
	return fmt.Sprintf("name=%q description=%q privacy=%s default=%t role=%s pipelines=%t suites=%t registries=%t "+
		"destroy_registries=%t destroy_packages=%t", w.Name, w.Description, w.Privacy, w.IsDefaultTeam, w.DefaultMemberRole,
		w.MembersCanCreatePipelines, kit.Deref(w.MembersCanCreateSuites), kit.Deref(w.MembersCanCreateRegistries),
		kit.Deref(w.MembersCanDestroyRegistries), kit.Deref(w.MembersCanDestroyPackages))
}

// The official provider's upper-case spellings are what state holds whatever filled it: the configuration,
// an import of a team configured either way, or a refresh. A lower-case configuration is accepted too: it is
// kept as written and never shows as a change.
func TestAccTeamResource_upperCase(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("team-upper")
	const addr = "buildkite_team.test"
	upper := e.Config(acctest.TeamConfig(name, "SECRET", "MAINTAINER", false, ""))
	lower := e.Config(acctest.TeamConfig(name, "secret", "maintainer", false, ""))

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_team"),
		Steps: []resource.TestStep{
			{
				// Checked at plan time, naming the attribute and both spellings (first: the destroy at the end
				// uses the last step's configuration).
				Config:      e.Config(acctest.TeamConfig(name, "hidden", "maintainer", false, "")),
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Value Match.*privacy\s+value\s+must\s+be\s+one\s+of:\s+\["VISIBLE"\s+"SECRET"\],\s+got:\s+"hidden".*"visible"/"VISIBLE",\s+"secret"/"SECRET"`),
			},
			{
				Config: lower,
				ConfigStateChecks: []statecheck.StateCheck{
					// The configuration's spelling is kept; the service holds the lower-case one.
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("privacy"), knownvalue.StringExact("secret")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("default_member_role"), knownvalue.StringExact("maintainer")),
				},
				Check: checkTeamOnService(e, buildkite.TeamWrite{Name: name, Privacy: "secret", DefaultMemberRole: "maintainer"}),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// An import fills in the official form, whatever the configuration wrote.
				ResourceName: addr, ImportState: true, ImportStateIdFunc: acctest.ImportID(addr, "id"),
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					if len(states) != 1 {
						return fmt.Errorf("imported %d instances, want 1", len(states))
					}
					for attr, want := range map[string]string{"privacy": "SECRET", "default_member_role": "MAINTAINER"} {
						if got := states[0].Attributes[attr]; got != want {
							return fmt.Errorf("imported %s = %q, want %q", attr, got, want)
						}
					}
					return nil
				},
			},
			{
				// Changing only the spelling is not a change.
				Config: upper,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// Import with the upper-case configuration: the plan is a no-op import.
				Config: upper, ResourceName: addr, ImportState: true,
				ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: acctest.ImportID(addr, "slug"),
			},
		},
	})
}

func TestAccTeamResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_team.test"
	cfg := e.Config(acctest.TeamConfig(e.Name("team-gone"), "visible", "member", false, ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_team"),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              e.RemoveOutside(addr),
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
			},
			{Config: cfg, Check: e.CheckExists(addr)},
		},
	})
}

// A property changed outside Terraform is planned back and set by the next apply.
func TestAccTeamResource_driftCorrected(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_team.test"
	name := e.Name("team-drift")
	cfg := e.Config(acctest.TeamConfig(name, "visible", "member", false, ""))
	var teamID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_team"),
		Steps: []resource.TestStep{
			{Config: cfg, Check: resource.TestCheckResourceAttrWith(addr, "id", func(v string) error { teamID = v; return nil })},
			{
				PreConfig: func() {
					if _, err := e.Client.Teams.Update(context.Background(), teamID, buildkite.TeamWrite{
						Name: name, Privacy: "secret", DefaultMemberRole: "maintainer",
					}); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				Check: checkTeamOnService(e, buildkite.TeamWrite{Name: name, Privacy: "visible", DefaultMemberRole: "member"}),
			},
		},
	})
}

func TestAccTeamResource_importErrors(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_team.test"
	cfg := e.Config(acctest.TeamConfig(e.Name("team-imp"), "visible", "member", false, ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				ResourceName: addr, ImportState: true, ImportStateId: "no-such-team",
				ExpectError: regexp.MustCompile(`Unable to Import Team`),
			},
			{
				ResourceName: addr, ImportState: true, ImportStateId: "a/b",
				ExpectError: regexp.MustCompile(`Invalid Import ID(?s).*<team id or slug>`),
			},
		},
	})
}

// The rows of buildkite_team in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_team", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		// A rename changes the slug but not the identity, which is the UUID.
		ResourceType: "buildkite_team", Attrs: []string{"id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			return acctest.IdentityConfigs{
				Create: acctest.TeamConfig(e.Name("identity"), "secret", "maintainer", false, `  description = "Found by its UUID"`),
				Update: acctest.TeamConfig(e.Name("identity-renamed"), "secret", "maintainer", false, `  description = "Found by its UUID"`),
				More:   acctest.IdentityImportSteps("buildkite_team.test"),
			}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "team", Add: (*acctest.OfficialWorkspace).AddTeam, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_team.platform", map[string]any{"privacy": "SECRET", "members_can_create_suites": true})
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_team", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		s := e.SeedTeams(t, base)
		return acctest.QueryRow{
			Blocks: []string{"buildkite_team", "named", fmt.Sprintf("    name = %q", base+"-A")},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_team.all", 2),
				querycheck.ExpectLength("buildkite_team.named", 1),
				querycheck.ExpectIdentity("buildkite_team.named", acctest.IdentityOf("id", s.A.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_team.all", acctest.ByIdentity("id", s.B.ID), knownvalue.StringExact(base+"-b")),
				querycheck.ExpectResourceKnownValues("buildkite_team.all", acctest.ByIdentity("id", s.A.ID), []querycheck.KnownValueCheck{
					acctest.Known("slug", knownvalue.StringExact(s.A.Slug)),
					acctest.Known("description", knownvalue.StringExact("Runs the platform")),
					acctest.Known("privacy", knownvalue.StringExact("SECRET")),
					acctest.Known("default_member_role", knownvalue.StringExact("MAINTAINER")),
					acctest.Known("members_can_create_pipelines", knownvalue.Bool(true)),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_team.all", acctest.ByIdentity("id", s.B.ID), []querycheck.KnownValueCheck{
					acctest.Known("description", knownvalue.StringExact("")),
					acctest.Known("members_can_create_pipelines", knownvalue.Bool(false)),
				}),
			},
			Imports: 2,
		}
	}},
	Taken: &acctest.TakenCase{ResourceType: "buildkite_team", Setup: func(t *testing.T, e *acctest.TestEnv) (string, string) {
		team := e.SeedTeam(e.Name("taken"))
		return acctest.TeamConfig(team.Name, "visible", "member", false, ""), team.ID
	}},
	Upgrade: []acctest.UpgradeCase{
		{
			Name: "team, ours at version 0", TypeName: "buildkite_team", Version: 0,
			State: map[string]any{"id": acctest.TestUUID, "uuid": acctest.TestUUID, "graphql_id": "T", "name": "n", "slug": "n", "description": "",
				"privacy": "visible", "default_team": false, "default_member_role": "member", "members_can_create_pipelines": true, "created_at": "c"},
			Want: map[string]any{"members_can_create_pipelines": true, "members_can_create_suites": false, "members_can_create_registries": false,
				"members_can_destroy_registries": false, "members_can_destroy_packages": false, "description": ""},
		},
		{
			Name: "team, the official provider's", TypeName: "buildkite_team", Version: 0,
			State: map[string]any{"id": kit.GraphQLID("Team", acctest.TestUUID), "uuid": acctest.TestUUID, "name": "n", "slug": "n", "description": "",
				"privacy": "SECRET", "default_team": true, "default_member_role": "MAINTAINER", "members_can_create_pipelines": false,
				"members_can_create_suites": true, "members_can_create_registries": false, "members_can_destroy_registries": true,
				"members_can_destroy_packages": false},
			Want: map[string]any{"id": acctest.TestUUID, "privacy": "SECRET", "description": "", "members_can_create_suites": true,
				"members_can_destroy_registries": true, "created_at": nil},
		},
	},
})
