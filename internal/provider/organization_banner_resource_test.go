package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

func init() {
	registerTestKind("buildkite_organization_banner", testKind{
		fake:     fakeserver.KindOrganizationBanner,
		storeKey: byID,
		get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			b, err := c.OrgSettings.GetBanner(ctx)
			if err == nil && !strings.EqualFold(b.UUID, a["id"]) {
				return &buildkite.Error{StatusCode: 404, Message: "another banner"}
			}
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, _ map[string]string) error {
			return c.OrgSettings.DeleteBanner(ctx)
		},
	})
}

func testAccOrganizationBannerConfig(message string) string {
	return fmt.Sprintf(`
resource "buildkite_organization_banner" "test" {
  message = %q
}
`, message)
}

// checkBannerMessage fails unless the organization's banner on the service has message.
func (e *testEnv) checkBannerMessage(message string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		b, err := e.client.OrgSettings.GetBanner(context.Background())
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
	e := newTestEnv(t)
	e.keepBanner()
	const addr = "buildkite_organization_banner.test"
	first := ":buildkite: Maintenance on **Saturday** " + e.name("banner")
	second := "All clear " + e.name("banner")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_organization_banner"),
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(testAccOrganizationBannerConfig(first)),
				Check: resource.ComposeAggregateTestCheckFunc(
					e.checkExists(addr),
					e.checkBannerMessage(first),
					resource.TestCheckResourceAttr(addr, "message", first),
					resource.TestCheckResourceAttrPair(addr, "id", addr, "uuid"),
					resource.TestCheckResourceAttrSet(addr, "graphql_id"),
				),
				ConfigPlanChecks: expectEmpty(),
			}),
			// The organization's slug, the banner's UUID (id) and its GraphQL ID (the official import ID).
			importSteps(addr, func(*terraform.State) (string, error) { return e.org, nil }),
			step(resource.TestStep{ResourceName: addr, ImportState: true, ImportStateVerify: true}),
			step(resource.TestStep{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: importID(addr, "graphql_id")}),
			step(resource.TestStep{
				Config:           e.config(testAccOrganizationBannerConfig(second)),
				Check:            resource.ComposeAggregateTestCheckFunc(e.checkBannerMessage(second), resource.TestCheckResourceAttr(addr, "message", second)),
				ConfigPlanChecks: inPlace(addr),
			}),
		),
	})
}

func TestAccOrganizationBannerResource_disappears(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	e.keepBanner()
	e.disappears("buildkite_organization_banner.test", testAccOrganizationBannerConfig("Here today "+e.name("banner")))
}

// TestAccOrganizationBannerResource_adopts: a banner that exists already is taken over, not duplicated.
func TestAccOrganizationBannerResource_adopts(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	e.keepBanner()
	if _, err := e.client.OrgSettings.PutBanner(context.Background(), "Set in the web interface"); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_organization_banner"),
		Steps: []resource.TestStep{{
			Config:           e.config(testAccOrganizationBannerConfig("Set by Terraform")),
			Check:            e.checkBannerMessage("Set by Terraform"),
			ConfigPlanChecks: expectEmpty(),
		}},
	})
}

func TestAccOrganizationBannerResource_badInput(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	e.keepBanner()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{Config: e.config(testAccOrganizationBannerConfig("  ")), ExpectError: wrapped("Blank Value")},
			{Config: e.config(testAccOrganizationBannerConfig(strings.Repeat("x", 2001))), ExpectError: wrapped("is too long (maximum is 2000 characters)")},
			{
				Config:        e.config(testAccOrganizationBannerConfig("x")),
				ResourceName:  "buildkite_organization_banner.test",
				ImportState:   true,
				ImportStateId: e.org,
				ExpectError:   wrapped("Unable to Import Organization Banner"),
			},
		},
	})
}

// TestAccOrganizationBannerResource_planWithoutBanners: the service's refusal reaches the user.
func TestAccOrganizationBannerResource_planWithoutBanners(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("changes the organization's plan in the emulator")
	}
	if err := e.server.Store().SetOrgPlan(e.org, false, true); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Config:      e.config(testAccOrganizationBannerConfig("Hello")),
			ExpectError: wrapped("Organization banners are available on the Enterprise plan"),
		}},
	})
}

// The rows of buildkite_organization_banner in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_organization_banner", typeTests{
	identity: &identityCase{
		resourceType: "buildkite_organization_banner", attrs: []string{"id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			e.keepBanner()
			return identityConfigs{
				create: testAccOrganizationBannerConfig("Found by its UUID"),
				update: testAccOrganizationBannerConfig("Still found by its UUID"),
			}
		},
	},
	migration: []migrationCase{
		{name: "organization_banner", add: (*officialWorkspace).addBanner, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_organization_banner.notice", map[string]any{"message": "Deploys are frozen on Fridays"})
		}},
	},
	exempt: map[string]string{
		tableSweeper: "The banner is a singleton the tests hold and put back (singleton_kit_test.go), never named with the tests' prefix.",
	},
})
