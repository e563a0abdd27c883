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
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// testAccTeamRegistryConfig gives a team named team access to the registry registryID at level.
func testAccTeamRegistryConfig(team, registryID, level string) string {
	return acctest.TeamConfig(team, "visible", "member", false, "") + fmt.Sprintf(`
resource "buildkite_team_registry" "test" {
  team_id      = buildkite_team.test.id
  registry_id  = %q
  access_level = %q
}
`, registryID, level)
}

// checkRegistryAccess asks the service for the access level of the team registry at addr.
func checkRegistryAccess(e *acctest.TestEnv, addr, want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources[addr].Primary.Attributes
		g, err := e.Client.TeamRegistries.Get(context.Background(), a["team_id"], a["registry_id"])
		if err != nil {
			return err
		}
		if g.AccessLevel != want {
			return fmt.Errorf("access level on the service = %q, want %q", g.AccessLevel, want)
		}
		return nil
	}
}

func TestAccTeamRegistryResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	team := e.Name("tr")
	r1, r2 := e.SeedRegistry(e.Name("tr-one")), e.SeedRegistry(e.Name("tr-two"))
	const addr = "buildkite_team_registry.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_team_registry"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config:      e.Config(testAccTeamRegistryConfig(team, r1.ID, "admin")),
				ExpectError: regexp.MustCompile(`(?s)access_level\s+value\s+must\s+be\s+one\s+of:\s+\["READ_ONLY"\s+"READ_AND_WRITE"\s+"READ_WRITE_AND_ADMIN"\]`),
			}),
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccTeamRegistryConfig(team, r1.ID, "READ_ONLY")),
				Check: resource.ComposeTestCheckFunc(
					e.CheckExists(addr), checkRegistryAccess(e, addr, "READ_ONLY"),
					resource.TestMatchResourceAttr(addr, "uuid", regexp.MustCompile(`^[0-9a-f-]{36}$`)),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			}),
			acctest.ImportSteps(addr, acctest.ImportID(addr, "team_id", "registry_id")),
			acctest.Step(resource.TestStep{
				// The team and the registry by slug.
				ResourceName: addr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return s.RootModule().Resources["buildkite_team.test"].Primary.Attributes["slug"] + "/" + r1.Slug, nil
				},
			}),
			acctest.Step(resource.TestStep{
				// The official provider's ID: the access's GraphQL ID.
				ResourceName: addr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: acctest.ImportID(addr, "graphql_id"),
			}),
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccTeamRegistryConfig(team, r1.ID, "read_and_write")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: checkRegistryAccess(e, addr, "READ_AND_WRITE"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("access_level"), knownvalue.StringExact("read_and_write")),
				},
			}),
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccTeamRegistryConfig(team, r2.ID, "READ_WRITE_AND_ADMIN")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: resource.ComposeTestCheckFunc(e.CheckExists(addr), checkRegistryAccess(e, addr, "READ_WRITE_AND_ADMIN")),
			}),
		),
	})
}

func TestAccTeamRegistryResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_team_registry.test"
	cfg := e.Config(testAccTeamRegistryConfig(e.Name("tr-gone"), e.SeedRegistry(e.Name("tr-gone")).ID, "READ_ONLY"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_team_registry"),
		Steps: []resource.TestStep{
			{
				Config: cfg, Check: e.RemoveOutside(addr), ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
			},
			{Config: cfg, Check: e.CheckExists(addr)},
		},
	})
}

// testAccRegistryWithTeamsConfig is a registry created for the team "owner", with buildkite_team_registry
// grants for the teams access names (each "<team resource>=<level>").
func testAccRegistryWithTeamsConfig(registry, owner, other string, access map[string]string) string {
	cfg := fmt.Sprintf(`
resource "buildkite_team" "owner" {
  name                = %q
  privacy             = "VISIBLE"
  default_team        = false
  default_member_role = "MEMBER"
}

resource "buildkite_team" "other" {
  name                = %q
  privacy             = "VISIBLE"
  default_team        = false
  default_member_role = "MEMBER"
}

resource "buildkite_registry" "test" {
  name      = %q
  ecosystem = "ruby"
  team_ids  = [buildkite_team.owner.id]
}
`, owner, other, registry)
	for _, team := range []string{"owner", "other"} {
		if level, ok := access[team]; ok {
			cfg += fmt.Sprintf(`
resource "buildkite_team_registry" %q {
  team_id      = buildkite_team.%s.id
  registry_id  = buildkite_registry.test.id
  access_level = %q
}
`, team, team, level)
		}
	}
	return cfg
}

// TestAccTeamRegistryResource_besideTeamIDs: a registry's team_ids and buildkite_team_registry resources in
// one configuration plan nothing on the second plan: another team's grant shows in neither resource, and a
// grant for the team team_ids names takes over its access and sets its own level. Destroying that grant
// removes the team's access and still plans nothing for the registry.
func TestAccTeamRegistryResource_besideTeamIDs(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	registry, owner, other := e.Name("tr-both"), e.Name("tr-owner"), e.Name("tr-other")
	const ownerAddr, otherAddr = "buildkite_team_registry.owner", "buildkite_team_registry.other"
	both := e.Config(testAccRegistryWithTeamsConfig(registry, owner, other, map[string]string{"other": "READ_ONLY"}))
	same := e.Config(testAccRegistryWithTeamsConfig(registry, owner, other, map[string]string{"other": "READ_ONLY", "owner": "READ_AND_WRITE"}))
	teamIDs := func(want int) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			reg, err := e.Client.Registries.Get(context.Background(), s.RootModule().Resources["buildkite_registry.test"].Primary.Attributes["slug"])
			if err != nil {
				return err
			}
			if len(reg.TeamIDs) != want {
				return fmt.Errorf("the service's team_ids %v, want %d teams", reg.TeamIDs, want)
			}
			return nil
		}
	}
	// What a registry's create gives the teams team_ids names is the emulator's choice (READ_WRITE_AND_ADMIN,
	// after the official docs calling them its owners); a live run shows whether Buildkite agrees.
	ownerAccess := func(s *terraform.State) error {
		team := s.RootModule().Resources["buildkite_team.owner"].Primary.Attributes["id"]
		reg := s.RootModule().Resources["buildkite_registry.test"].Primary.Attributes["id"]
		g, err := e.Client.TeamRegistries.Get(context.Background(), team, reg)
		if err != nil {
			return err
		}
		if g.AccessLevel != "READ_WRITE_AND_ADMIN" {
			return fmt.Errorf("the access team_ids gave = %q, want READ_WRITE_AND_ADMIN", g.AccessLevel)
		}
		return nil
	}
	empty := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_team_registry"),
		Steps: []resource.TestStep{
			{
				Config: both, ConfigPlanChecks: empty,
				Check: resource.ComposeTestCheckFunc(teamIDs(2), ownerAccess, checkRegistryAccess(e, otherAddr, "READ_ONLY"),
					resource.TestCheckResourceAttr("buildkite_registry.test", "team_ids.#", "1")),
			},
			{Config: both, PlanOnly: true},
			{
				// The team team_ids names: its access is taken over, at this resource's level.
				Config: same, ConfigPlanChecks: empty,
				Check: resource.ComposeTestCheckFunc(teamIDs(2), checkRegistryAccess(e, ownerAddr, "READ_AND_WRITE")),
			},
			{Config: same, PlanOnly: true},
			{
				// Its grant destroyed: the team has no access, and the registry, which cannot change team_ids,
				// plans nothing.
				Config: both, ConfigPlanChecks: empty,
				Check: teamIDs(1),
			},
			{Config: both, PlanOnly: true},
		},
	})
}

// TestAccTeamRegistryResource_needsGraphQL: without a GraphQL endpoint the plan fails, naming the type,
// before anything is created.
func TestAccTeamRegistryResource_needsGraphQL(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	reg := e.SeedRegistry(e.Name("tr-rest"))
	cfg := fmt.Sprintf(`
provider "buildkite" {
  rest_url     = %q
  organization = %q
  api_token    = %q
}
`, e.URL, e.Org, e.Token) + testAccTeamRegistryConfig(e.Name("tr-rest"), reg.ID, "READ_ONLY")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config: cfg, PlanOnly: true,
			ExpectError: regexp.MustCompile(`(?s)GraphQL URL Not Set.*buildkite_team_registry`),
		}},
	})
}

var _ = acctest.RegisterTypeTests("buildkite_team_registry", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		ResourceType: "buildkite_team_registry", Attrs: []string{"team_id", "registry_id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			reg, team := e.SeedRegistry(e.Name("identity-registry")), e.Name("identity")
			return acctest.IdentityConfigs{
				Create: testAccTeamRegistryConfig(team, reg.ID, "read_and_write"),
				Update: testAccTeamRegistryConfig(team, reg.ID, "read_only"),
			}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "team_registry", Add: (*acctest.OfficialWorkspace).AddTeamRegistry, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_team_registry.gems", map[string]any{"access_level": "READ_ONLY"})
			a := w.StateAttributes("buildkite_team_registry.gems")
			if typ, _, ok := kit.DecodeGraphQLID(fmt.Sprint(a["graphql_id"])); !ok || typ != "TeamRegistry" || !kit.IsUUID(fmt.Sprint(a["uuid"])) {
				t.Errorf("after the move graphql_id = %v, uuid = %v; want the access's GraphQL ID and UUID", a["graphql_id"], a["uuid"])
			}
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_team_registry", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		// Team a owns registry gems (it was created for a); team b is given access to both registries.
		a, b := e.SeedTeam(base+"-a"), e.SeedTeam(base+"-b")
		gems, pypi := e.SeedRegistry(base+"-gems", a.ID), e.SeedRegistry(base+"-pypi")
		must := acctest.Seeding(t)
		_, err := e.Client.TeamRegistries.Create(context.Background(), b.ID, gems.ID, "READ_ONLY")
		must(err)
		_, err = e.Client.TeamRegistries.Create(context.Background(), b.ID, pypi.ID, "READ_AND_WRITE")
		must(err)
		access := func(tm *buildkite.Team, reg *buildkite.Registry) queryfilter.QueryFilter {
			return acctest.ByIdentity("team_id", tm.ID, "registry_id", reg.ID)
		}
		level := func(v string) []querycheck.KnownValueCheck {
			return []querycheck.KnownValueCheck{acctest.Known("access_level", knownvalue.StringExact(v))}
		}
		return acctest.QueryRow{
			Blocks: []string{"buildkite_team_registry", "pypi", fmt.Sprintf("    registry_id = %q", pypi.ID)},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_team_registry.all", 3),
				querycheck.ExpectLength("buildkite_team_registry.pypi", 1),
				querycheck.ExpectIdentity("buildkite_team_registry.pypi", acctest.IdentityOf("team_id", b.ID, "registry_id", pypi.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_team_registry.all", access(a, gems), knownvalue.StringExact(base+"-gems / "+base+"-a")),
				querycheck.ExpectResourceKnownValues("buildkite_team_registry.all", access(a, gems),
					append(level("READ_WRITE_AND_ADMIN"), acctest.Known("id", knownvalue.StringExact(a.ID+"/"+gems.ID)))),
				querycheck.ExpectResourceKnownValues("buildkite_team_registry.all", access(b, gems), level("READ_ONLY")),
				querycheck.ExpectResourceKnownValues("buildkite_team_registry.pypi", access(b, pypi), level("READ_AND_WRITE")),
			},
			Refused: []acctest.QueryRefusal{
				{Body: fmt.Sprintf(acctest.UnknownUUIDFilter, "registry_id"), Message: acctest.Wrapped(`No registry matches the ID "` + acctest.UnknownUUID + `"`)},
			},
			Imports: 3,
		}
	}},
	Association: &acctest.AssociationCase{
		ResourceType: "buildkite_team_registry",
		ImportAttrs:  []string{"team_id", "registry_id"},
		Values:       []string{"READ_ONLY", "read_write_and_admin"},
		Setup: func(t *testing.T, e *acctest.TestEnv) func(string, string) string {
			teams := acctest.TwoTeams(e, "assoc-registry")
			reg := e.SeedRegistry(e.Name("assoc-registry"))
			return func(parent, level string) string {
				return teams + fmt.Sprintf(`
resource "buildkite_team_registry" "test" {
  team_id      = buildkite_team.%s.id
  registry_id  = %q
  access_level = %q
}
`, parent, reg.ID, level)
			}
		},
	},
	Upgrade: []acctest.UpgradeCase{
		{
			// The official id (the access's GraphQL ID) moves to graphql_id; its uuid, the access's own, stays.
			Name: "team registry, the official provider's", TypeName: "buildkite_team_registry", Version: 0,
			State: map[string]any{"id": kit.GraphQLID("TeamRegistry", acctest.TestUUID), "uuid": acctest.TestUUID, "team_id": kit.GraphQLID("Team", acctest.OtherUUID),
				"registry_id": kit.GraphQLID("Registry", acctest.UnknownUUID), "access_level": "READ_ONLY"},
			Want: map[string]any{"id": acctest.OtherUUID + "/" + acctest.UnknownUUID, "uuid": acctest.TestUUID, "graphql_id": kit.GraphQLID("TeamRegistry", acctest.TestUUID),
				"team_id": acctest.OtherUUID, "registry_id": acctest.UnknownUUID, "access_level": "READ_ONLY"},
		},
	},
	Exempt: map[string]string{
		acctest.TableSweeper: "A team's access to a registry goes with the team or the registry, which their sweepers remove.",
	},
})
