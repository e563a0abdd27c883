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
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func init() {
	registerTestKind("buildkite_team_registry", testKind{
		fake: fakeserver.KindTeamRegistry, storeKey: byID, // "<team id>/<registry id>"
		get: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			_, err := c.TeamRegistries.Get(ctx, attrs["team_id"], attrs["registry_id"])
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			g, err := c.TeamRegistries.Get(ctx, attrs["team_id"], attrs["registry_id"])
			if err != nil {
				return err
			}
			return c.TeamRegistries.Delete(ctx, g.ID)
		},
	})
}

// testAccTeamRegistryConfig gives a team named team access to the registry registryID at level.
func testAccTeamRegistryConfig(team, registryID, level string) string {
	return testAccTeamConfig(team, "visible", "member", false, "") + fmt.Sprintf(`
resource "buildkite_team_registry" "test" {
  team_id      = buildkite_team.test.id
  registry_id  = %q
  access_level = %q
}
`, registryID, level)
}

// checkRegistryAccess asks the service for the access level of the team registry at addr.
func (e *testEnv) checkRegistryAccess(addr, want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources[addr].Primary.Attributes
		g, err := e.client.TeamRegistries.Get(context.Background(), a["team_id"], a["registry_id"])
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
	e := newTestEnv(t)
	team := e.name("tr")
	r1, r2 := e.seedRegistry(e.name("tr-one")), e.seedRegistry(e.name("tr-two"))
	const addr = "buildkite_team_registry.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_team_registry"),
		Steps: steps(
			step(resource.TestStep{
				Config:      e.config(testAccTeamRegistryConfig(team, r1.ID, "admin")),
				ExpectError: regexp.MustCompile(`(?s)access_level\s+value\s+must\s+be\s+one\s+of:\s+\["READ_ONLY"\s+"READ_AND_WRITE"\s+"READ_WRITE_AND_ADMIN"\]`),
			}),
			step(resource.TestStep{
				Config: e.config(testAccTeamRegistryConfig(team, r1.ID, "READ_ONLY")),
				Check: resource.ComposeTestCheckFunc(
					e.checkExists(addr), e.checkRegistryAccess(addr, "READ_ONLY"),
					resource.TestMatchResourceAttr(addr, "uuid", regexp.MustCompile(`^[0-9a-f-]{36}$`)),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			}),
			importSteps(addr, importID(addr, "team_id", "registry_id")),
			step(resource.TestStep{
				// The team and the registry by slug.
				ResourceName: addr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return s.RootModule().Resources["buildkite_team.test"].Primary.Attributes["slug"] + "/" + r1.Slug, nil
				},
			}),
			step(resource.TestStep{
				// The official provider's ID: the access's GraphQL ID.
				ResourceName: addr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: importID(addr, "graphql_id"),
			}),
			step(resource.TestStep{
				Config: e.config(testAccTeamRegistryConfig(team, r1.ID, "read_and_write")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: e.checkRegistryAccess(addr, "READ_AND_WRITE"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("access_level"), knownvalue.StringExact("read_and_write")),
				},
			}),
			step(resource.TestStep{
				Config: e.config(testAccTeamRegistryConfig(team, r2.ID, "READ_WRITE_AND_ADMIN")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: resource.ComposeTestCheckFunc(e.checkExists(addr), e.checkRegistryAccess(addr, "READ_WRITE_AND_ADMIN")),
			}),
		),
	})
}

func TestAccTeamRegistryResource_disappears(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_team_registry.test"
	cfg := e.config(testAccTeamRegistryConfig(e.name("tr-gone"), e.seedRegistry(e.name("tr-gone")).ID, "READ_ONLY"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_team_registry"),
		Steps: []resource.TestStep{
			{
				Config: cfg, Check: e.removeOutside(addr), ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
			},
			{Config: cfg, Check: e.checkExists(addr)},
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
	e := newTestEnv(t)
	registry, owner, other := e.name("tr-both"), e.name("tr-owner"), e.name("tr-other")
	const ownerAddr, otherAddr = "buildkite_team_registry.owner", "buildkite_team_registry.other"
	both := e.config(testAccRegistryWithTeamsConfig(registry, owner, other, map[string]string{"other": "READ_ONLY"}))
	same := e.config(testAccRegistryWithTeamsConfig(registry, owner, other, map[string]string{"other": "READ_ONLY", "owner": "READ_AND_WRITE"}))
	teamIDs := func(want int) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			reg, err := e.client.Registries.Get(context.Background(), s.RootModule().Resources["buildkite_registry.test"].Primary.Attributes["slug"])
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
		g, err := e.client.TeamRegistries.Get(context.Background(), team, reg)
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
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_team_registry"),
		Steps: []resource.TestStep{
			{
				Config: both, ConfigPlanChecks: empty,
				Check: resource.ComposeTestCheckFunc(teamIDs(2), ownerAccess, e.checkRegistryAccess(otherAddr, "READ_ONLY"),
					resource.TestCheckResourceAttr("buildkite_registry.test", "team_ids.#", "1")),
			},
			{Config: both, PlanOnly: true},
			{
				// The team team_ids names: its access is taken over, at this resource's level.
				Config: same, ConfigPlanChecks: empty,
				Check: resource.ComposeTestCheckFunc(teamIDs(2), e.checkRegistryAccess(ownerAddr, "READ_AND_WRITE")),
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
	e := newTestEnv(t)
	reg := e.seedRegistry(e.name("tr-rest"))
	cfg := fmt.Sprintf(`
provider "buildkite" {
  rest_url     = %q
  organization = %q
  api_token    = %q
}
`, e.url, e.org, e.token) + testAccTeamRegistryConfig(e.name("tr-rest"), reg.ID, "READ_ONLY")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Config: cfg, PlanOnly: true,
			ExpectError: regexp.MustCompile(`(?s)GraphQL URL Not Set.*buildkite_team_registry`),
		}},
	})
}

var _ = registerTypeTests("buildkite_team_registry", typeTests{
	identity: &identityCase{
		resourceType: "buildkite_team_registry", attrs: []string{"team_id", "registry_id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			reg, team := e.seedRegistry(e.name("identity-registry")), e.name("identity")
			return identityConfigs{
				create: testAccTeamRegistryConfig(team, reg.ID, "read_and_write"),
				update: testAccTeamRegistryConfig(team, reg.ID, "read_only"),
			}
		},
	},
	migration: []migrationCase{
		{name: "team_registry", add: (*officialWorkspace).addTeamRegistry, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_team_registry.gems", map[string]any{"access_level": "READ_ONLY"})
			a := w.stateAttributes("buildkite_team_registry.gems")
			if typ, _, ok := kit.DecodeGraphQLID(fmt.Sprint(a["graphql_id"])); !ok || typ != "TeamRegistry" || !kit.IsUUID(fmt.Sprint(a["uuid"])) {
				t.Errorf("after the move graphql_id = %v, uuid = %v; want the access's GraphQL ID and UUID", a["graphql_id"], a["uuid"])
			}
		}},
	},
	query: &queryCase{resourceType: "buildkite_team_registry", run: func(t *testing.T, e *testEnv, base string) queryRow {
		// Team a owns registry gems (it was created for a); team b is given access to both registries.
		a, b := e.seedTeam(base+"-a"), e.seedTeam(base+"-b")
		gems, pypi := e.seedRegistry(base+"-gems", a.ID), e.seedRegistry(base+"-pypi")
		must := seeding(t)
		_, err := e.client.TeamRegistries.Create(context.Background(), b.ID, gems.ID, "READ_ONLY")
		must(err)
		_, err = e.client.TeamRegistries.Create(context.Background(), b.ID, pypi.ID, "READ_AND_WRITE")
		must(err)
		access := func(tm *buildkite.Team, reg *buildkite.Registry) queryfilter.QueryFilter {
			return byIdentity("team_id", tm.ID, "registry_id", reg.ID)
		}
		level := func(v string) []querycheck.KnownValueCheck {
			return []querycheck.KnownValueCheck{known("access_level", knownvalue.StringExact(v))}
		}
		return queryRow{
			blocks: []string{"buildkite_team_registry", "pypi", fmt.Sprintf("    registry_id = %q", pypi.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_team_registry.all", 3),
				querycheck.ExpectLength("buildkite_team_registry.pypi", 1),
				querycheck.ExpectIdentity("buildkite_team_registry.pypi", identityOf("team_id", b.ID, "registry_id", pypi.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_team_registry.all", access(a, gems), knownvalue.StringExact(base+"-gems / "+base+"-a")),
				querycheck.ExpectResourceKnownValues("buildkite_team_registry.all", access(a, gems),
					append(level("READ_WRITE_AND_ADMIN"), known("id", knownvalue.StringExact(a.ID+"/"+gems.ID)))),
				querycheck.ExpectResourceKnownValues("buildkite_team_registry.all", access(b, gems), level("READ_ONLY")),
				querycheck.ExpectResourceKnownValues("buildkite_team_registry.pypi", access(b, pypi), level("READ_AND_WRITE")),
			},
			refused: []queryRefusal{
				{fmt.Sprintf(unknownUUIDFilter, "registry_id"), wrapped(`No registry matches the ID "` + unknownUUID + `"`)},
			},
			imports: 3,
		}
	}},
	association: &associationCase{
		resourceType: "buildkite_team_registry",
		importAttrs:  []string{"team_id", "registry_id"},
		values:       []string{"READ_ONLY", "read_write_and_admin"},
		setup: func(t *testing.T, e *testEnv) func(string, string) string {
			teams := twoTeams(e, "assoc-registry")
			reg := e.seedRegistry(e.name("assoc-registry"))
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
	upgrade: []upgradeCase{
		{
			// The official id (the access's GraphQL ID) moves to graphql_id; its uuid, the access's own, stays.
			name: "team registry, the official provider's", typeName: "buildkite_team_registry", version: 0,
			state: map[string]any{"id": kit.GraphQLID("TeamRegistry", testUUID), "uuid": testUUID, "team_id": kit.GraphQLID("Team", otherUUID),
				"registry_id": kit.GraphQLID("Registry", unknownUUID), "access_level": "READ_ONLY"},
			want: map[string]any{"id": otherUUID + "/" + unknownUUID, "uuid": testUUID, "graphql_id": kit.GraphQLID("TeamRegistry", testUUID),
				"team_id": otherUUID, "registry_id": unknownUUID, "access_level": "READ_ONLY"},
		},
	},
	exempt: map[string]string{
		tableSweeper: "A team's access to a registry goes with the team or the registry, which their sweepers remove.",
	},
})
