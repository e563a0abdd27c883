package provider

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// testAccSafetyConfig is a cluster with a queue and an agent token: a parent and two nested objects, so
// that every kind of read meets the wrong organization or token.
func testAccSafetyConfig(name string) string {
	return fmt.Sprintf(`
resource "buildkite_cluster" "test" {
  name = %q
}

resource "buildkite_cluster_queue" "test" {
  cluster_id = buildkite_cluster.test.id
  key        = "linux"
}

resource "buildkite_cluster_agent_token" "test" {
  cluster_id  = buildkite_cluster.test.id
  description = "agents"
}
`, name)
}

// testAccWrongOrgConfig is a cluster with a queue and an agent token, a team and the organization data
// source: resources and data sources that would each meet the wrong organization.
func testAccWrongOrgConfig(name string) string {
	return testAccSafetyConfig(name) + acctest.TeamConfig(name, "VISIBLE", "MEMBER", false, "") +
		`data "buildkite_organization" "o" {}`
}

// TestAccProvider_wrongOrganizationKeepsState: with a mistyped organization every object would answer 404.
// Configuring the provider asks for the organization, so plan and apply fail with exactly one error, on
// organization, naming the slug, for resources and data sources alike; the state keeps every resource, as
// the empty plan with the right organization afterwards shows.
func TestAccProvider_wrongOrganizationKeepsState(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("the wrong organization is an emulator setting; live runs cover it with BUILDKITE_ORGANIZATION_SLUG")
	}
	body := testAccWrongOrgConfig(e.Name("safety"))
	wrongOrg := e.ProviderBlock("acme-typo", e.Token) + body
	oneError := acctest.OnlyError(`Unknown Buildkite Organization[\s\S]*organization\s+=\s+"acme-typo"[\s\S]*` +
		`organization\s+"acme-typo"\s+does\s+not\s+exist\s+or\s+the\s+API\s+token\s+cannot\s+see\s+it`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster"),
		Steps: []resource.TestStep{
			{Config: e.Config(body)},
			{Config: wrongOrg, ExpectError: oneError},
			{Config: wrongOrg, PlanOnly: true, ExpectError: oneError},
			{
				// Back to the right organization: nothing was lost, so nothing is planned.
				Config: e.Config(body),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					e.CheckExists("buildkite_cluster.test"),
					e.CheckExists("buildkite_cluster_queue.test"),
					e.CheckExists("buildkite_cluster_agent_token.test"),
					e.CheckExists("buildkite_team.test"),
					resource.TestCheckResourceAttr("data.buildkite_organization.o", "slug", e.Org),
				),
			},
		},
	})
}

// TestAccProvider_organizationConfirmedOnce: the organization is confirmed while the provider configures,
// alongside the token; an object deleted outside Terraform, whose 404 must be weighed against the
// organization, costs no second call for it.
func TestAccProvider_organizationConfirmedOnce(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("counts the emulator's requests")
	}
	body := testAccSafetyConfig(e.Name("confirmed"))
	var configures, orgGets int
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: e.Config(body), Check: e.RemoveOutside("buildkite_cluster_agent_token.test"), ExpectNonEmptyPlan: true},
			{
				PreConfig: e.Server.ResetRequests,
				Config:    e.Config(body), PlanOnly: true, ExpectNonEmptyPlan: true,
			},
			{
				PreConfig: func() {
					for _, r := range e.Server.Requests() {
						switch {
						case r.Method != http.MethodGet:
						case r.Path == "/v2/access-token":
							configures++
						case r.Path == "/v2/organizations/"+e.Org:
							orgGets++
						}
					}
				},
				Config: e.Config(body),
			},
		},
	})
	if configures == 0 || orgGets != configures {
		t.Errorf("the plan configured the provider %d times and asked for the organization %d times, want once each time", configures, orgGets)
	}
}

// TestAccProvider_wrongTokenKeepsState: a token the service refuses fails at plan time with one error on
// api_token, not one per object read, and the state keeps every resource.
func TestAccProvider_wrongTokenKeepsState(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("needs a second token of the emulator")
	}
	body := testAccSafetyConfig(e.Name("safety"))
	wrongToken := e.ProviderBlock(e.Org, "not-a-token") + body
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster"),
		Steps: []resource.TestStep{
			{Config: e.Config(body)},
			{Config: wrongToken, PlanOnly: true, ExpectError: acctest.OnlyError(`Invalid\s+Buildkite\s+API\s+Token[\s\S]*401`)},
			{Config: wrongToken, ExpectError: acctest.OnlyError(`Invalid\s+Buildkite\s+API\s+Token`)},
			{
				Config: e.Config(body),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestAccProvider_missingScopeFailsAtPlan: a token without write_clusters may plan what it does not change,
// but a change it cannot make fails at plan time, naming the resource and the scope, before anything is
// applied.
func TestAccProvider_missingScopeFailsAtPlan(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("needs a token with chosen scopes, which the emulator issues")
	}
	e.Server.Store().AddToken("read-only-token", []string{e.Org}, []string{"read_clusters", "read_organizations"})
	readOnly := e.ProviderBlock(e.Org, "read-only-token")
	name := e.Name("scopes")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster"),
		Steps: []resource.TestStep{
			{
				Config:      readOnly + acctest.ClusterConfig(name, ""),
				ExpectError: acctest.RegexpMust(`Missing API Token Scope[\s\S]*create a buildkite_cluster, which needs the[\s\S]*"write_clusters" scope`),
			},
			{Config: e.Config(acctest.ClusterConfig(name, ""))},
			{
				// Unchanged: reading needs no write scope.
				Config:   readOnly + acctest.ClusterConfig(name, ""),
				PlanOnly: true,
			},
			{
				Config:      readOnly + acctest.ClusterConfig(name+"-renamed", ""),
				ExpectError: acctest.RegexpMust(`update a buildkite_cluster, which needs the[\s\S]*"write_clusters"`),
			},
			{
				Config:      readOnly,
				ExpectError: acctest.RegexpMust(`delete a buildkite_cluster, which needs the[\s\S]*"write_clusters"`),
			},
			{
				Config: e.Config(acctest.ClusterConfig(name, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestProvider_unansweredServiceTimesOut: against a service that accepts connections and never answers, a
// plan fails within the read timeout instead of hanging.
func TestProvider_unansweredServiceTimesOut(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() { close(release); silent.Close() })

	e := acctest.NewTestEnv(t)
	start := time.Now()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "buildkite" {
  rest_url     = %q
  organization = "acme"
  api_token    = "t"
  timeouts = {
    read = "3s"
  }
}
`, silent.URL) + acctest.ClusterConfig("x", ""),
			PlanOnly:    true,
			ExpectError: acctest.RegexpMust(`Unable to Reach Buildkite[\s\S]*no answer after \d+[\s]+attempts?[\s]+over[\s\S]*deadline exceeded`),
		}},
	})
	if took := time.Since(start); took > 60*time.Second {
		t.Errorf("the plan took %s against a read timeout of 3s", took)
	}
}

// TestProvider_unreachableServiceFailsFast: with nothing listening at rest_url, what Terraform validates
// before it configures the provider still works (validation errors, a data source refusing a non-UUID), as
// with the official provider; a plan of new objects and an apply fail at once with one error naming rest_url
// and the address, rather than retrying until the read timeout (a generous 2 minutes here, whose expiry
// would read "deadline exceeded" instead).
func TestProvider_unreachableServiceFailsFast(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()

	e := acctest.NewTestEnv(t)
	provider := fmt.Sprintf(`
provider "buildkite" {
  rest_url     = "http://%s"
  organization = "acme"
  api_token    = "t"
  timeouts = {
    read   = "2m"
    create = "2m"
  }
}
`, addr)
	newObjects := acctest.ClusterConfig("x", "") + acctest.PipelineSettingsConfig(`  default_branch = "main"`)
	unreachable := acctest.OnlyError(`Unable to Reach Buildkite[\s\S]*No\s+connection\s+could\s+be\s+made\s+to\s+http://` +
		regexp.QuoteMeta(addr) + `[\s\S]*refused[\s\S]*rest_url`)
	start := time.Now()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config:      provider + acctest.PipelineSettingsConfig(`  scheduled_job_expiry_in_minutes = 1`),
				PlanOnly:    true,
				ExpectError: acctest.OnlyError(`Invalid Attribute Value[\s\S]*between 60 and 43200`),
			},
			{
				Config: provider + `
data "buildkite_cluster_network_ranges" "x" {
  cluster_uuid = "not-a-uuid"
}
`,
				PlanOnly:    true,
				ExpectError: acctest.OnlyError(`Invalid Cluster UUID`),
			},
			{Config: provider + newObjects, PlanOnly: true, ExpectError: unreachable},
			{Config: provider + newObjects, ExpectError: unreachable},
		},
	})
	if took := time.Since(start); took > 90*time.Second {
		t.Errorf("the steps took %s: the unreachable service was waited for", took)
	}
}
