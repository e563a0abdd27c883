package suites_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

func TestAccTestSuiteDataSources(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("suites")
	app := "web"
	a := e.SeedSuite(name+"-a", e.Team("owners"), func(in *buildkite.TestSuiteCreate) { in.ApplicationName = &app })
	const policy = "- iss: https://agent.buildkite.com"
	b := e.SeedSuite(name+"-b", e.Team("owners"), func(in *buildkite.TestSuiteCreate) { in.OIDCPolicy = acctest.PtrTo(policy) })

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config: e.Config(fmt.Sprintf(`
data "buildkite_test_suite" "by_slug" {
  slug = %q
}

data "buildkite_test_suite" "by_id" {
  id = %q
}

data "buildkite_test_suite" "by_graphql_id" {
  id = %q
}

data "buildkite_test_suites" "all" {}
`, a.Slug, b.ID, b.GraphQLID)),
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("data.buildkite_test_suite.by_slug", "id", a.ID),
				resource.TestCheckResourceAttr("data.buildkite_test_suite.by_slug", "uuid", a.ID),
				resource.TestCheckResourceAttr("data.buildkite_test_suite.by_slug", "application_name", "web"),
				resource.TestCheckResourceAttr("data.buildkite_test_suite.by_slug", "default_branch", "main"),
				resource.TestCheckNoResourceAttr("data.buildkite_test_suite.by_slug", "emoji"),
				resource.TestCheckResourceAttr("data.buildkite_test_suite.by_id", "slug", b.Slug),
				resource.TestCheckResourceAttr("data.buildkite_test_suite.by_id", "oidc_policy", policy),
				resource.TestCheckNoResourceAttr("data.buildkite_test_suite.by_slug", "oidc_policy"),
				resource.TestCheckResourceAttr("data.buildkite_test_suite.by_graphql_id", "id", b.GraphQLID),
				resource.TestCheckResourceAttr("data.buildkite_test_suite.by_graphql_id", "uuid", b.ID),
				resource.TestCheckTypeSetElemNestedAttrs("data.buildkite_test_suites.all", "test_suites.*", map[string]string{
					"id": a.ID, "slug": a.Slug, "application_name": "web",
				}),
				resource.TestCheckTypeSetElemNestedAttrs("data.buildkite_test_suites.all", "test_suites.*", map[string]string{
					"id": b.ID, "name": name + "-b",
				}),
			),
		}},
	})
}

func TestAccTestSuiteDataSource_errors(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.Config(`data "buildkite_test_suite" "x" { slug = "no-such-suite" }`),
				ExpectError: acctest.RegexpMust(`(?s)No Test Suite Found.*the slug "no-such-suite"`),
			},
			{
				Config:      e.Config(`data "buildkite_test_suite" "x" { id = "01234567-89ab-cdef-0123-456789abcdef" }`),
				ExpectError: acctest.RegexpMust(`(?s)No Test Suite Found.*the ID "01234567-89ab-cdef-0123-456789abcdef"`),
			},
			{
				Config: e.Config(`
data "buildkite_test_suite" "x" {
  slug = "a"
  id   = "b"
}
`),
				ExpectError: acctest.RegexpMust(`Exactly one of these attributes must be configured`),
			},
		},
	})
}

func TestAccFlakyTestsDataSource(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("flaky tests come from test runs; the emulator seeds them")
	}
	s := e.SeedSuite(e.Name("flaky"), e.Team("owners"))
	latest := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	resolved := time.Date(2024, 5, 3, 9, 0, 0, 0, time.UTC)
	for _, f := range []fakeserver.FlakyTestFixture{
		{Name: "creates a user", Scope: "User#create", Location: "./spec/models/user_spec.rb:12", Branch: "main", Instances: 3, LatestAt: latest},
		{Name: "sends the welcome e-mail", Scope: "Mailer", Location: "./spec/mailers/mailer_spec.rb:40", Branch: "feature", LastResolvedAt: &resolved},
		{Name: "deletes a user", Scope: "User#destroy", Branch: "feature"},
	} {
		if _, err := e.Server.Store().AddFlakyTest(e.Org, s.Slug, f); err != nil {
			t.Fatal(err)
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config: e.Config(fmt.Sprintf(`
data "buildkite_flaky_tests" "all" {
  test_suite_slug = %[1]q
}

data "buildkite_flaky_tests" "feature" {
  test_suite_slug = %[1]q
  branch          = "feature"
}

data "buildkite_flaky_tests" "users_on_feature" {
  test_suite_slug = %[1]q
  branch          = "feature"
  search          = "user"
}
`, s.Slug)),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("data.buildkite_flaky_tests.all", "flaky_tests.#", "3"),
					resource.TestCheckTypeSetElemNestedAttrs("data.buildkite_flaky_tests.all", "flaky_tests.*", map[string]string{
						"name": "creates a user", "scope": "User#create", "location": "./spec/models/user_spec.rb:12",
						"file_name": "./spec/models/user_spec.rb", "instances": "3",
						"latest_occurrence_at": "2024-05-01T10:00:00Z", "most_recent_instance_at": "2024-05-01T10:00:00Z",
					}),
					resource.TestCheckTypeSetElemNestedAttrs("data.buildkite_flaky_tests.all", "flaky_tests.*", map[string]string{
						"name": "sends the welcome e-mail", "last_resolved_at": "2024-05-03T09:00:00Z",
					}),
					resource.TestCheckResourceAttrSet("data.buildkite_flaky_tests.all", "flaky_tests.0.id"),
					resource.TestCheckResourceAttrSet("data.buildkite_flaky_tests.all", "flaky_tests.0.web_url"),
					resource.TestCheckNoResourceAttr("data.buildkite_flaky_tests.all", "flaky_tests.0.last_resolved_at"),
					resource.TestCheckResourceAttr("data.buildkite_flaky_tests.feature", "flaky_tests.#", "2"),
					resource.TestCheckResourceAttr("data.buildkite_flaky_tests.users_on_feature", "flaky_tests.#", "1"),
					resource.TestCheckResourceAttr("data.buildkite_flaky_tests.users_on_feature", "flaky_tests.0.name", "deletes a user"),
				),
			},
			{
				Config:      e.Config(`data "buildkite_flaky_tests" "x" { test_suite_slug = "no-such-suite" }`),
				ExpectError: acctest.RegexpMust(`(?s)Unable to List Flaky Tests.*no-such-suite.*404`),
			},
		},
	})
}
