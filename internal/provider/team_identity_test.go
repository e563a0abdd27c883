package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// Import by identity (Terraform 1.12+) of teams and their members, pipeline and suite access;
// `make testacc-next` runs these.

func TestAccTeamResource_identity(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_team.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_team"),
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(testAccTeamConfig(e.name("identity"), "secret", "maintainer", false,
					`  description = "Found by its UUID"`)),
				ConfigStateChecks: expectIdentity(addr, "id"),
			}),
			identityImportSteps(addr),
			// A rename changes the slug but not the identity, which is the UUID.
			step(resource.TestStep{
				Config: e.config(testAccTeamConfig(e.name("identity-renamed"), "secret", "maintainer", false,
					`  description = "Found by its UUID"`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: expectIdentity(addr, "id"),
			}),
			identityImportSteps(addr),
		),
	})
}

// TestAccTeamResource_identityBySlug imports with the team's slug in the identity, as the import ID may name
// it: the identity in state is then the team's UUID.
func TestAccTeamResource_identityBySlug(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_team.test"
	tm := e.seedTeam(e.name("identity-slug"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Config: e.config(`
import {
  to       = buildkite_team.test
  identity = { id = "` + tm.Slug + `" }
}
` + testAccTeamConfig(tm.Name, "visible", "member", false, "")),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectIdentityValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(tm.ID)),
			},
		}},
	})
}

func TestAccTeamMemberResource_identity(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_team_member.test"
	team, email := e.name("identity"), e.secondMemberEmail()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_team_member"),
		Steps: steps(
			step(resource.TestStep{
				Config:            e.config(testAccTeamMemberConfig(team, email, "member")),
				ConfigStateChecks: expectIdentity(addr, "team_id", "user_id"),
			}),
			identityImportSteps(addr),
			// The identity stays with the membership through a change of role.
			step(resource.TestStep{
				Config: e.config(testAccTeamMemberConfig(team, email, "maintainer")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: expectIdentity(addr, "team_id", "user_id"),
			}),
		),
	})
}

// TestAccTeamMemberResource_identityInvalid imports with identities that cannot name a membership: each is
// refused at plan time, naming the attribute.
func TestAccTeamMemberResource_identityInvalid(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	team := e.seedTeam(e.name("identity-invalid"))
	importBlock := func(teamID, userID string) string {
		return e.config(`
import {
  to       = buildkite_team_member.test
  identity = {
    team_id = "` + teamID + `"
    user_id = "` + userID + `"
  }
}

resource "buildkite_team_member" "test" {
  team_id = "` + team.ID + `"
  user_id = "0b5e7c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b"
  role    = "member"
}
`)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Config:      importBlock(team.ID, "someone"),
				PlanOnly:    true,
				ExpectError: wrapped(`user_id (<user id>) "someone" is not a UUID`),
			},
			{
				Config:      importBlock(team.ID, ""),
				PlanOnly:    true,
				ExpectError: wrapped(`user_id (<user id>) is empty`),
			},
			{
				// A user who is not in the team.
				Config:      importBlock(team.ID, "0b5e7c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b"),
				PlanOnly:    true,
				ExpectError: wrapped(`Unable to Import Team Member`),
			},
		},
	})
}

func TestAccPipelineTeamResource_identity(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_pipeline_team.test"
	team, p := e.name("identity"), e.pipelineNamed(e.name("identity-pipeline"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_pipeline_team"),
		Steps: steps(
			step(resource.TestStep{
				Config:            e.config(testAccPipelineTeamConfig(team, p.ID, "build_and_read")),
				ConfigStateChecks: expectIdentity(addr, "team_id", "pipeline_id"),
			}),
			identityImportSteps(addr),
			step(resource.TestStep{
				Config: e.config(testAccPipelineTeamConfig(team, p.ID, "read_only")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: expectIdentity(addr, "team_id", "pipeline_id"),
			}),
		),
	})
}

func TestAccTestSuiteTeamResource_identity(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_test_suite_team.test"
	owner := e.seedTeam(e.name("identity-owner"))
	suite := e.seedSuite(e.name("identity-suite"), owner.ID)
	team := e.name("identity")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_test_suite_team"),
		Steps: steps(
			step(resource.TestStep{
				Config:            e.config(testAccTestSuiteTeamConfig(team, suite.ID, "manage_and_read")),
				ConfigStateChecks: expectIdentity(addr, "team_id", "test_suite_id"),
			}),
			identityImportSteps(addr),
			step(resource.TestStep{
				Config: e.config(testAccTestSuiteTeamConfig(team, suite.ID, "read_only")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: expectIdentity(addr, "team_id", "test_suite_id"),
			}),
		),
	})
}
