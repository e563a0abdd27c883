package organization_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// changeRuleOutside changes the rule's description and conditions on the service, as the web interface would.
func changeRuleOutside(e *acctest.TestEnv, address, description string, conditions []string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources[address].Primary.Attributes
		value, _ := json.Marshal(map[string]any{"source_pipeline": a["source_uuid"], "target_pipeline": a["target_uuid"], "conditions": conditions})
		org, err := e.Client.Organizations.Get(context.Background())
		if err != nil {
			return err
		}
		_, err = e.Client.Rules.Update(context.Background(), buildkite.RuleUpdate{
			OrganizationID: org.GraphQLID, ID: a["graphql_id"], Description: &description, Value: value,
		})
		return err
	}
}

// TestAccOrganizationRuleResource_inPlace: description and conditions applied on create and read back
// (import included); a change of conditions, of pipelines or of description is an update in place
// (ruleUpdate), the same rule; a removed description is cleared on the service; a change made outside
// Terraform shows as a difference and is put back; the data source reads description and conditions.
func TestAccOrganizationRuleResource_inPlace(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("rulegql")
	rule := func(description, conditions string) string {
		desc := ""
		if description != "" {
			desc = fmt.Sprintf("description = %q\n  ", description)
		}
		return e.Config(fmt.Sprintf(`
resource "buildkite_pipeline" "source" {
  name       = "%[1]s-source"
  repository = "https://github.com/acme/app.git"
}

resource "buildkite_pipeline" "target" {
  name       = "%[1]s-target"
  repository = "https://github.com/acme/app.git"
}

resource "buildkite_organization_rule" "test" {
  %[2]stype  = "pipeline.trigger_build.pipeline"
  value = jsonencode({
    source_pipeline = buildkite_pipeline.source.uuid
    target_pipeline = buildkite_pipeline.target.uuid
    %[3]s
  })
}

data "buildkite_organization_rule" "test" {
  uuid = buildkite_organization_rule.test.uuid
}

data "buildkite_organization_rules" "all" {
  depends_on = [buildkite_organization_rule.test]
}
`, name, desc, conditions))
	}
	mainOnly := `conditions = ["source.build.branch == 'main'"]`
	two := `conditions = ["source.build.branch == 'main'", "source.build.creator.teams includes 'deploy'"]`
	var firstID string
	sameRule := func(s *terraform.State) error {
		if id := s.RootModule().Resources[acctest.RuleAddr].Primary.ID; id != firstID {
			return fmt.Errorf("the rule was replaced: %s, was %s", id, firstID)
		}
		return nil
	}
	dataValue := func(conditions ...string) knownvalue.Check {
		return knownvalue.StringFunc(func(v string) error {
			var got struct {
				Conditions []string `json:"conditions"`
			}
			if err := json.Unmarshal([]byte(v), &got); err != nil {
				return err
			}
			if !reflect.DeepEqual(got.Conditions, conditions) && (len(got.Conditions)+len(conditions) > 0) {
				return fmt.Errorf("conditions %q, want %q", got.Conditions, conditions)
			}
			return nil
		})
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_organization_rule"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: rule("Deploys trigger releases", mainOnly),
				Check: resource.ComposeTestCheckFunc(e.CheckExists(acctest.RuleAddr),
					e.CheckRuleDetails("Deploys trigger releases", []string{"source.build.branch == 'main'"}),
					func(s *terraform.State) error {
						firstID = s.RootModule().Resources[acctest.RuleAddr].Primary.ID
						return nil
					}),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.buildkite_organization_rule.test", tfjsonpath.New("description"), knownvalue.StringExact("Deploys trigger releases")),
					statecheck.ExpectKnownValue("data.buildkite_organization_rule.test", tfjsonpath.New("value"), dataValue("source.build.branch == 'main'")),
				},
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			acctest.ImportSteps(acctest.RuleAddr, acctest.ImportID(acctest.RuleAddr, "id")),
			acctest.Step(resource.TestStep{
				// Another condition: in place.
				Config:           rule("Deploys trigger releases", two),
				ConfigPlanChecks: acctest.InPlace(acctest.RuleAddr),
				Check: resource.ComposeTestCheckFunc(sameRule,
					e.CheckRuleDetails("Deploys trigger releases", []string{"source.build.branch == 'main'", "source.build.creator.teams includes 'deploy'"})),
			}),
			acctest.Step(resource.TestStep{
				// The rules data source reads them too (one GraphQL request for the page). It lists the
				// organization's other rules as well (a live organization, or a parallel test), so the check
				// finds this one by UUID.
				Config: rule("Deploys trigger releases", two),
				Check: listedRule("data.buildkite_organization_rules.all", acctest.RuleAddr, "Deploys trigger releases",
					"source.build.branch == 'main'", "source.build.creator.teams includes 'deploy'"),
			}),
			acctest.Step(resource.TestStep{
				// Changed outside Terraform: description and conditions are read back, and the plan puts them back.
				Config:             rule("Deploys trigger releases", two),
				Check:              changeRuleOutside(e, acctest.RuleAddr, "Changed in the web interface", []string{"source.build.branch == 'release'"}),
				ExpectNonEmptyPlan: true,
			}),
			acctest.Step(resource.TestStep{
				Config: rule("Deploys trigger releases", two),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(acctest.RuleAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(acctest.RuleAddr, tfjsonpath.New("description"), knownvalue.StringExact("Deploys trigger releases")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(sameRule,
					e.CheckRuleDetails("Deploys trigger releases", []string{"source.build.branch == 'main'", "source.build.creator.teams includes 'deploy'"})),
			}),
			acctest.Step(resource.TestStep{
				// No description and no conditions: both cleared on the service, in place.
				Config:           rule("", ""),
				ConfigPlanChecks: acctest.InPlace(acctest.RuleAddr),
				Check:            resource.ComposeTestCheckFunc(sameRule, e.CheckRuleDetails(nil, nil)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.RuleAddr, tfjsonpath.New("description"), knownvalue.Null()),
					statecheck.ExpectKnownValue("data.buildkite_organization_rule.test", tfjsonpath.New("description"), knownvalue.Null()),
				},
			}),
		),
	})
}

// TestAccOrganizationRuleResource_inPlaceRefused: a value change the service refuses (a condition naming no
// variable) fails in its words and leaves the rule as it was.
func TestAccOrganizationRuleResource_inPlaceRefused(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("rulebad")
	cfg := func(conditions string) string {
		return e.Config(testAccRuleConfig(name, "pipeline.trigger_build.pipeline", `jsonencode({
    source_pipeline = buildkite_pipeline.source.uuid
    target_pipeline = buildkite_pipeline.target.uuid
    conditions      = [`+conditions+`]
  })`))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_organization_rule"),
		Steps: []resource.TestStep{
			{Config: cfg(`"source.build.branch == 'main'"`), ConfigPlanChecks: acctest.ExpectEmpty()},
			{
				Config:      cfg(`"source.nonexistent_condition includes 'x'"`),
				ExpectError: regexp.MustCompile("(?s)Unable to Update Rule.*is not a variable"),
			},
			{
				Config:   cfg(`"source.build.branch == 'main'"`),
				PlanOnly: true,
				Check:    e.CheckRuleDetails(nil, []string{"source.build.branch == 'main'"}),
			},
		},
	})
}

// listedRule checks that the rules data source at dataAddr lists the rule at ruleAddr with this description
// and these conditions in its value, wherever in the list it is.
func listedRule(dataAddr, ruleAddr, description string, conditions ...string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rule, ok := s.RootModule().Resources[ruleAddr]
		if !ok {
			return fmt.Errorf("%s is not in the state", ruleAddr)
		}
		data, ok := s.RootModule().Resources[dataAddr]
		if !ok {
			return fmt.Errorf("%s is not in the state", dataAddr)
		}
		uuid := rule.Primary.Attributes["uuid"]
		attrs := data.Primary.Attributes
		n, err := strconv.Atoi(attrs["rules.#"])
		if err != nil {
			return fmt.Errorf("%s: rules.# is %q", dataAddr, attrs["rules.#"])
		}
		for i := range n {
			prefix := fmt.Sprintf("rules.%d.", i)
			if attrs[prefix+"uuid"] != uuid {
				continue
			}
			if got := attrs[prefix+"description"]; got != description {
				return fmt.Errorf("%s lists rule %s with description %q, want %q", dataAddr, uuid, got, description)
			}
			var value struct {
				Conditions []string `json:"conditions"`
			}
			if err := json.Unmarshal([]byte(attrs[prefix+"value"]), &value); err != nil {
				return fmt.Errorf("%s lists rule %s with value %q: %w", dataAddr, uuid, attrs[prefix+"value"], err)
			}
			if !reflect.DeepEqual(value.Conditions, conditions) {
				return fmt.Errorf("%s lists rule %s with conditions %q, want %q", dataAddr, uuid, value.Conditions, conditions)
			}
			return nil
		}
		return fmt.Errorf("%s does not list rule %s among its %d rules", dataAddr, uuid, n)
	}
}
