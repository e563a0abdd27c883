package provider

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// `terraform query` (Terraform 1.14+) over test suites, registries and registry tokens: what the list
// resources find with their filters, and configuration generated from it that imports and then plans empty.
// `make testacc-next` runs these.

// seededSuites is what seedSuites made outside Terraform.
type seededSuites struct {
	web, api     *buildkite.TestSuite
	gems, pypi   *buildkite.Registry
	ci, deploy   *buildkite.RegistryToken // of gems
	readerOfPypi *buildkite.RegistryToken
}

// seedSuites makes, through the API as someone outside Terraform would, suite "<base>-web" with every
// optional attribute and a bare suite "<base>-api" (both for a team, which the organization requires);
// registry "<base>-gems" with every optional attribute and two tokens, and a bare registry "<base>-pypi"
// with one token.
func (e *testEnv) seedSuites(t *testing.T, base string) seededSuites {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("seeding: %v", err)
		}
	}
	str := func(s string) *string { return &s }
	team := e.team("suites")
	var s seededSuites
	var err error
	s.web, err = e.client.TestSuites.Create(ctx, buildkite.TestSuiteCreate{
		Name: base + "-web", DefaultBranch: "main", TeamIDs: []string{team},
		Emoji: str(":test_tube:"), Color: str("#E0F1FF"), ApplicationName: str("web"),
	})
	must(err)
	s.api, err = e.client.TestSuites.Create(ctx, buildkite.TestSuiteCreate{
		Name: base + "-api", DefaultBranch: "trunk", TeamIDs: []string{team},
	})
	must(err)
	s.gems, err = e.client.Registries.Create(ctx, buildkite.RegistryCreate{
		Name: base + "-gems", Ecosystem: "ruby", Description: str("Internal gems"), Emoji: str(":gem:"),
		Color: str("#FFE0E0"), OIDCPolicy: str("- iss: https://agent.buildkite.com\n  claims:\n    organization_slug: acme\n"),
	})
	must(err)
	s.pypi, err = e.client.Registries.Create(ctx, buildkite.RegistryCreate{Name: base + "-pypi", Ecosystem: "python"})
	must(err)
	s.ci, err = e.client.RegistryTokens.Create(ctx, s.gems.Slug, buildkite.RegistryTokenWrite{Description: "CI"})
	must(err)
	s.deploy, err = e.client.RegistryTokens.Create(ctx, s.gems.Slug, buildkite.RegistryTokenWrite{Description: "Deploys"})
	must(err)
	s.readerOfPypi, err = e.client.RegistryTokens.Create(ctx, s.pypi.Slug, buildkite.RegistryTokenWrite{Description: "Readers"})
	must(err)
	t.Cleanup(func() {
		for _, slug := range []string{s.web.Slug, s.api.Slug} {
			_ = e.client.TestSuites.Delete(context.Background(), slug)
		}
		for _, slug := range []string{s.gems.Slug, s.pypi.Slug} {
			_ = e.client.Registries.Delete(context.Background(), slug)
		}
	})
	return s
}

func TestAccTestSuiteResource_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	base := e.name("query")
	s := e.seedSuites(t, base)
	suite := func(ts *buildkite.TestSuite) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(identityOf("slug", ts.Slug))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Query: true,
			Config: e.queryConfig(
				"buildkite_test_suite", "all", "",
				"buildkite_test_suite", "named", fmt.Sprintf("    name = %q", base+"-WEB"),
			),
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_test_suite.all", 2),
				querycheck.ExpectLength("buildkite_test_suite.named", 1),
				querycheck.ExpectIdentity("buildkite_test_suite.named", identityOf("slug", s.web.Slug)),
				querycheck.ExpectResourceDisplayName("buildkite_test_suite.all", suite(s.api), knownvalue.StringExact(base+"-api")),
				querycheck.ExpectResourceKnownValues("buildkite_test_suite.all", suite(s.web), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("id"), KnownValue: knownvalue.StringExact(s.web.ID)},
					{Path: tfjsonpath.New("emoji"), KnownValue: knownvalue.StringExact(":test_tube:")},
					{Path: tfjsonpath.New("application_name"), KnownValue: knownvalue.StringExact("web")},
					// Returned only on creation, and reported by no response.
					{Path: tfjsonpath.New("api_token"), KnownValue: knownvalue.Null()},
					{Path: tfjsonpath.New("team_owner_id"), KnownValue: knownvalue.Null()},
				}),
				querycheck.ExpectResourceKnownValues("buildkite_test_suite.all", suite(s.api), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("default_branch"), KnownValue: knownvalue.StringExact("trunk")},
					{Path: tfjsonpath.New("color"), KnownValue: knownvalue.Null()},
				}),
			},
		}},
	})
	e.queryImport(t, listBlocks("buildkite_test_suite", "all", ""), 2)
}

func TestAccRegistryResource_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	base := e.name("query")
	s := e.seedSuites(t, base)
	registry := func(r *buildkite.Registry) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(identityOf("slug", r.Slug))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Query: true,
			Config: e.queryConfig(
				"buildkite_registry", "all", "",
				"buildkite_registry", "named", fmt.Sprintf("    name = %q", base+"-PyPI"),
			),
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_registry.all", 2),
				querycheck.ExpectLength("buildkite_registry.named", 1),
				querycheck.ExpectIdentity("buildkite_registry.named", identityOf("slug", s.pypi.Slug)),
				querycheck.ExpectResourceDisplayName("buildkite_registry.all", registry(s.gems), knownvalue.StringExact(base+"-gems")),
				querycheck.ExpectResourceKnownValues("buildkite_registry.all", registry(s.gems), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("ecosystem"), KnownValue: knownvalue.StringExact("ruby")},
					{Path: tfjsonpath.New("description"), KnownValue: knownvalue.StringExact("Internal gems")},
					{Path: tfjsonpath.New("oidc_policy"), KnownValue: knownvalue.StringExact(*s.gems.OIDCPolicy)},
					{Path: tfjsonpath.New("team_ids"), KnownValue: knownvalue.Null()},
				}),
				querycheck.ExpectResourceKnownValues("buildkite_registry.named", registry(s.pypi), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("id"), KnownValue: knownvalue.StringExact(s.pypi.ID)},
					{Path: tfjsonpath.New("description"), KnownValue: knownvalue.Null()},
				}),
			},
		}},
	})
	e.queryImport(t, listBlocks("buildkite_registry", "all", ""), 2)
}

func TestAccRegistryTokenResource_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	base := e.name("query")
	s := e.seedSuites(t, base)
	token := func(r *buildkite.Registry, tok *buildkite.RegistryToken) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(identityOf("registry_id", r.ID, "id", tok.ID))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Query: true,
				Config: e.queryConfig(
					"buildkite_registry_token", "all", "",
					"buildkite_registry_token", "pypi", fmt.Sprintf("    registry_id = %q", s.pypi.ID),
				),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("buildkite_registry_token.all", 3),
					querycheck.ExpectLength("buildkite_registry_token.pypi", 1),
					querycheck.ExpectIdentity("buildkite_registry_token.pypi", identityOf("registry_id", s.pypi.ID, "id", s.readerOfPypi.ID)),
					querycheck.ExpectResourceDisplayName("buildkite_registry_token.all", token(s.gems, s.deploy),
						knownvalue.StringExact(base+"-gems / Deploys")),
					querycheck.ExpectResourceKnownValues("buildkite_registry_token.all", token(s.gems, s.ci), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("description"), KnownValue: knownvalue.StringExact("CI")},
						{Path: tfjsonpath.New("created_at"), KnownValue: knownvalue.NotNull()},
						// Returned only on creation.
						{Path: tfjsonpath.New("token"), KnownValue: knownvalue.Null()},
					}),
				},
			},
			{
				Query:       true,
				Config:      e.queryConfig("buildkite_registry_token", "none", `    registry_id = "0b5e7c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b"`),
				ExpectError: wrapped(`No registry matches the ID "0b5e7c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b"`),
			},
			{
				Query:       true,
				Config:      e.queryConfig("buildkite_registry_token", "slug", fmt.Sprintf("    registry_id = %q", s.pypi.Slug)),
				ExpectError: regexp.MustCompile(`registry_id`),
			},
		},
	})
	e.queryImport(t, listBlocks("buildkite_registry_token", "all", ""), 3)
}

// TestAccSuites_query imports every suite, registry and registry token in one query, as the guide does, and
// counts the calls: listings only, never one GET per object.
func TestAccSuites_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	e.seedSuites(t, e.name("query"))
	calls := e.queryImport(t, listBlocks(
		"buildkite_test_suite", "all", "",
		"buildkite_registry", "all", "",
		"buildkite_registry_token", "all", "",
	), 2+2+3)
	if e.live {
		return
	}
	suites := regexp.MustCompile(`^/v2/analytics/organizations/[^/]+/suites$`)
	registries := regexp.MustCompile(`^/v2/packages/organizations/[^/]+/registries(/[^/]+/tokens)?$`)
	lists := 0
	for _, r := range calls {
		switch {
		case r.Method == http.MethodGet && (suites.MatchString(r.Path) || registries.MatchString(r.Path)):
			lists++
		case r.Method == http.MethodGet && (r.Path == "/v2/access-token" || r.Path == "/v2/organizations/"+e.org):
		default:
			t.Errorf("terraform query made %s %s; it should only list", r.Method, r.Path)
		}
	}
	if want := 1 + 2 + 2; lists != want {
		t.Errorf("terraform query made %d listing calls, want %d (suites once, registries twice, the tokens of two registries)", lists, want)
	}
}
