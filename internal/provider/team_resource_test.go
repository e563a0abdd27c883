package provider

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

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func init() {
	registerTestKind("buildkite_team", testKind{
		fake: fakeserver.KindTeam, storeKey: byID,
		get: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			_, err := c.Teams.Get(ctx, attrs["id"])
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			return c.Teams.Delete(ctx, attrs["id"])
		},
	})
}

// testAccTeamConfig is a team with the three required enums and booleans; extra adds attributes.
func testAccTeamConfig(name, privacy, role string, defaultTeam bool, extra string) string {
	return fmt.Sprintf(`
resource "buildkite_team" "test" {
  name                = %q
  privacy             = %q
  default_team        = %t
  default_member_role = %q
%s
}
`, name, privacy, defaultTeam, role, extra)
}

func TestAccTeamResource_basic(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	name, renamed := e.name("team"), e.name("team-renamed")
	const addr = "buildkite_team.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_team"),
		Steps: steps(
			step(resource.TestStep{
				// The official provider's spelling, which its users' configurations hold.
				Config: e.config(testAccTeamConfig(name, "VISIBLE", "MEMBER", false, "")),
				Check: resource.ComposeTestCheckFunc(
					e.checkExists(addr),
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
			importSteps(addr, importID(addr, "id")),
			step(resource.TestStep{
				// By slug.
				ResourceName: addr, ImportState: true, ImportStateIdFunc: importID(addr, "slug"), ImportStateVerify: true,
			}),
			step(resource.TestStep{
				// By GraphQL ID, the official provider's import ID.
				ResourceName: addr, ImportState: true, ImportStateIdFunc: importID(addr, "graphql_id"), ImportStateVerify: true,
			}),
			step(resource.TestStep{
				// Every writable property, in place; the new name derives a new slug.
				Config: e.config(testAccTeamConfig(renamed, "secret", "maintainer", true, `
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
				Check: e.checkTeamOnService(buildkite.TeamWrite{
					Name: renamed, Description: "Runs the platform", Privacy: "secret", IsDefaultTeam: true,
					DefaultMemberRole: "maintainer", MembersCanCreatePipelines: true, MembersCanCreateSuites: ptrTo(true),
					MembersCanCreateRegistries: ptrTo(true), MembersCanDestroyRegistries: ptrTo(true), MembersCanDestroyPackages: ptrTo(true),
				}),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("slug"), knownvalue.StringExact(renamed)),
				},
			}),
			step(resource.TestStep{
				// Back to the defaults: removing the optional attributes sends "" and false.
				Config: e.config(testAccTeamConfig(renamed, "secret", "maintainer", true, "")),
				Check: e.checkTeamOnService(buildkite.TeamWrite{
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
func (e *testEnv) checkTeamOnService(want buildkite.TeamWrite) resource.TestCheckFunc {
	const addr = "buildkite_team.test"
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s is not in state", addr)
		}
		tm, err := e.client.Teams.Get(context.Background(), rs.Primary.ID)
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
	e := newTestEnv(t)
	name := e.name("team-upper")
	const addr = "buildkite_team.test"
	upper := e.config(testAccTeamConfig(name, "SECRET", "MAINTAINER", false, ""))
	lower := e.config(testAccTeamConfig(name, "secret", "maintainer", false, ""))

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_team"),
		Steps: []resource.TestStep{
			{
				// Checked at plan time, naming the attribute and both spellings (first: the destroy at the end
				// uses the last step's configuration).
				Config:      e.config(testAccTeamConfig(name, "hidden", "maintainer", false, "")),
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Value Match.*privacy\s+value\s+must\s+be\s+one\s+of:\s+\["VISIBLE"\s+"SECRET"\],\s+got:\s+"hidden".*"visible"/"VISIBLE",\s+"secret"/"SECRET"`),
			},
			{
				Config: lower,
				ConfigStateChecks: []statecheck.StateCheck{
					// The configuration's spelling is kept; the service holds the lower-case one.
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("privacy"), knownvalue.StringExact("secret")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("default_member_role"), knownvalue.StringExact("maintainer")),
				},
				Check: e.checkTeamOnService(buildkite.TeamWrite{Name: name, Privacy: "secret", DefaultMemberRole: "maintainer"}),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// An import fills in the official form, whatever the configuration wrote.
				ResourceName: addr, ImportState: true, ImportStateIdFunc: importID(addr, "id"),
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
				ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: importID(addr, "slug"),
			},
		},
	})
}

func TestAccTeamResource_disappears(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_team.test"
	cfg := e.config(testAccTeamConfig(e.name("team-gone"), "visible", "member", false, ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_team"),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              e.removeOutside(addr),
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
			},
			{Config: cfg, Check: e.checkExists(addr)},
		},
	})
}

// A property changed outside Terraform is planned back and set by the next apply.
func TestAccTeamResource_driftCorrected(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_team.test"
	name := e.name("team-drift")
	cfg := e.config(testAccTeamConfig(name, "visible", "member", false, ""))
	var teamID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_team"),
		Steps: []resource.TestStep{
			{Config: cfg, Check: resource.TestCheckResourceAttrWith(addr, "id", func(v string) error { teamID = v; return nil })},
			{
				PreConfig: func() {
					if _, err := e.client.Teams.Update(context.Background(), teamID, buildkite.TeamWrite{
						Name: name, Privacy: "secret", DefaultMemberRole: "maintainer",
					}); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				Check: e.checkTeamOnService(buildkite.TeamWrite{Name: name, Privacy: "visible", DefaultMemberRole: "member"}),
			},
		},
	})
}

func TestAccTeamResource_importErrors(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_team.test"
	cfg := e.config(testAccTeamConfig(e.name("team-imp"), "visible", "member", false, ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
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

// The rows of buildkite_team in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_team", typeTests{
	identity: &identityCase{
		// A rename changes the slug but not the identity, which is the UUID.
		resourceType: "buildkite_team", attrs: []string{"id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			return identityConfigs{
				create: testAccTeamConfig(e.name("identity"), "secret", "maintainer", false, `  description = "Found by its UUID"`),
				update: testAccTeamConfig(e.name("identity-renamed"), "secret", "maintainer", false, `  description = "Found by its UUID"`),
				more:   identityImportSteps("buildkite_team.test"),
			}
		},
	},
	migration: []migrationCase{
		{name: "team", add: (*officialWorkspace).addTeam, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_team.platform", map[string]any{"privacy": "SECRET", "members_can_create_suites": true})
		}},
	},
	// Teams own suites, maintain clusters and have access to pipelines and registries: they go last.
	sweeper: &sweeper{"buildkite_team", "teams", []string{"buildkite_pipeline", "buildkite_cluster", "buildkite_test_suite", "buildkite_registry",
		"buildkite_notification_service"}, listTeams},
	query: &queryCase{resourceType: "buildkite_team", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedTeams(t, base)
		return queryRow{
			blocks: []string{"buildkite_team", "named", fmt.Sprintf("    name = %q", base+"-A")},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_team.all", 2),
				querycheck.ExpectLength("buildkite_team.named", 1),
				querycheck.ExpectIdentity("buildkite_team.named", identityOf("id", s.a.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_team.all", byIdentity("id", s.b.ID), knownvalue.StringExact(base+"-b")),
				querycheck.ExpectResourceKnownValues("buildkite_team.all", byIdentity("id", s.a.ID), []querycheck.KnownValueCheck{
					known("slug", knownvalue.StringExact(s.a.Slug)),
					known("description", knownvalue.StringExact("Runs the platform")),
					known("privacy", knownvalue.StringExact("SECRET")),
					known("default_member_role", knownvalue.StringExact("MAINTAINER")),
					known("members_can_create_pipelines", knownvalue.Bool(true)),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_team.all", byIdentity("id", s.b.ID), []querycheck.KnownValueCheck{
					known("description", knownvalue.StringExact("")),
					known("members_can_create_pipelines", knownvalue.Bool(false)),
				}),
			},
			imports: 2,
		}
	}},
	taken: &takenCase{resourceType: "buildkite_team", setup: func(t *testing.T, e *testEnv) (string, string) {
		team := e.seedTeam(e.name("taken"))
		return testAccTeamConfig(team.Name, "visible", "member", false, ""), team.ID
	}},
	upgrade: []upgradeCase{
		{
			name: "team, ours at version 0", typeName: "buildkite_team", version: 0,
			state: map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": "T", "name": "n", "slug": "n", "description": "",
				"privacy": "visible", "default_team": false, "default_member_role": "member", "members_can_create_pipelines": true, "created_at": "c"},
			want: map[string]any{"members_can_create_pipelines": true, "members_can_create_suites": false, "members_can_create_registries": false,
				"members_can_destroy_registries": false, "members_can_destroy_packages": false, "description": ""},
		},
		{
			name: "team, the official provider's", typeName: "buildkite_team", version: 0,
			state: map[string]any{"id": kit.GraphQLID("Team", testUUID), "uuid": testUUID, "name": "n", "slug": "n", "description": "",
				"privacy": "SECRET", "default_team": true, "default_member_role": "MAINTAINER", "members_can_create_pipelines": false,
				"members_can_create_suites": true, "members_can_create_registries": false, "members_can_destroy_registries": true,
				"members_can_destroy_packages": false},
			want: map[string]any{"id": testUUID, "privacy": "SECRET", "description": "", "members_can_create_suites": true,
				"members_can_destroy_registries": true, "created_at": nil},
		},
	},
	serviceState: func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		all, err := c.Teams.List(ctx, buildkite.TeamListOptions{})
		return serviceIDs(all, err, func(t buildkite.Team) string { return t.ID })
	},
})
