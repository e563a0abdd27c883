package organization_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

func testAccOrganizationBannerConfig(message string) string {
	return fmt.Sprintf(`
resource "buildkite_organization_banner" "test" {
  message = %q
}
`, message)
}

// checkBannerMessage fails unless the organization's banner on the service has message.
func checkBannerMessage(e *acctest.TestEnv, message string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		b, err := e.Client.OrgSettings.GetBanner(context.Background())
		if err != nil {
			return err
		}
		if b.Message != message {
			return fmt.Errorf("the banner on the service says %q, want %q", b.Message, message)
		}
		return nil
	}
}

func TestAccOrganizationBannerResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.KeepBanner()
	const addr = "buildkite_organization_banner.test"
	first := ":buildkite: Maintenance on **Saturday** " + e.Name("banner")
	second := "All clear " + e.Name("banner")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_organization_banner"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccOrganizationBannerConfig(first)),
				Check: resource.ComposeAggregateTestCheckFunc(
					e.CheckExists(addr),
					checkBannerMessage(e, first),
					resource.TestCheckResourceAttr(addr, "message", first),
					resource.TestCheckResourceAttrPair(addr, "id", addr, "uuid"),
					resource.TestCheckResourceAttrSet(addr, "graphql_id"),
				),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			// The organization's slug, the banner's UUID (id) and its GraphQL ID (the official import ID).
			acctest.ImportSteps(addr, func(*terraform.State) (string, error) { return e.Org, nil }),
			acctest.Step(resource.TestStep{ResourceName: addr, ImportState: true, ImportStateVerify: true}),
			acctest.Step(resource.TestStep{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: acctest.ImportID(addr, "graphql_id")}),
			acctest.Step(resource.TestStep{
				Config:           e.Config(testAccOrganizationBannerConfig(second)),
				Check:            resource.ComposeAggregateTestCheckFunc(checkBannerMessage(e, second), resource.TestCheckResourceAttr(addr, "message", second)),
				ConfigPlanChecks: acctest.InPlace(addr),
			}),
		),
	})
}

func TestAccOrganizationBannerResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.KeepBanner()
	e.Disappears("buildkite_organization_banner.test", testAccOrganizationBannerConfig("Here today "+e.Name("banner")))
}

// TestAccOrganizationBannerResource_adopts: a banner that exists already is taken over, not duplicated.
func TestAccOrganizationBannerResource_adopts(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.KeepBanner()
	if _, err := e.Client.OrgSettings.PutBanner(context.Background(), "Set in the web interface"); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_organization_banner"),
		Steps: []resource.TestStep{{
			Config:           e.Config(testAccOrganizationBannerConfig("Set by Terraform")),
			Check:            checkBannerMessage(e, "Set by Terraform"),
			ConfigPlanChecks: acctest.ExpectEmpty(),
		}},
	})
}

func TestAccOrganizationBannerResource_badInput(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.KeepBanner()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: e.Config(testAccOrganizationBannerConfig("  ")), ExpectError: acctest.Wrapped("Blank Value")},
			{Config: e.Config(testAccOrganizationBannerConfig(strings.Repeat("x", 2001))), ExpectError: acctest.Wrapped("is too long (maximum is 2000 characters)")},
			{
				Config:        e.Config(testAccOrganizationBannerConfig("x")),
				ResourceName:  "buildkite_organization_banner.test",
				ImportState:   true,
				ImportStateId: e.Org,
				ExpectError:   acctest.Wrapped("Unable to Import Organization Banner"),
			},
		},
	})
}

// TestAccOrganizationBannerResource_planWithoutBanners: the service's refusal reaches the user.
func TestAccOrganizationBannerResource_planWithoutBanners(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("changes the organization's plan in the emulator")
	}
	if err := e.Server.Store().SetOrgPlan(e.Org, false, true); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config:      e.Config(testAccOrganizationBannerConfig("Hello")),
			ExpectError: acctest.Wrapped("Organization banners are available on the Enterprise plan"),
		}},
	})
}

// The rows of buildkite_organization_banner in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_organization_banner", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		ResourceType: "buildkite_organization_banner", Attrs: []string{"id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			e.KeepBanner()
			return acctest.IdentityConfigs{
				Create: testAccOrganizationBannerConfig("Found by its UUID"),
				Update: testAccOrganizationBannerConfig("Still found by its UUID"),
			}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "organization_banner", Add: (*acctest.OfficialWorkspace).AddBanner, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_organization_banner.notice", map[string]any{"message": "Deploys are frozen on Fridays"})
		}},
	},
	Exempt: map[string]string{
		acctest.TableSweeper: "The banner is a singleton the tests hold and put back (acctest/singleton.go), never named with the tests' prefix.",
	},
})
