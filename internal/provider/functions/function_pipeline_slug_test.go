package functions_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// slugNames are the names the slug derivation is checked on: the examples Buildkite documents, runs
// and ends of every kind of separator, letters whose lower case is ASCII or is not, and lengths around
// the 100-character limit; randomNames adds more.
func slugNames() []string {
	names := []string{
		"My Pipeline", "My  Pipeline", "API (v2)", "deploy", "Deploy", "DEPLOY-PROD", "a", "0", "9lives",
		"  leading and trailing  ", "--dashes--", "a--b", "a - b", "tabs\tand\nnewlines", "under_score",
		"dots.in.name", "slash/name", "colon: name", "emoji 🚀 launch", "ünïcödé letters", "naïve café",
		"Straße", "ΣΊΣΥΦΟΣ", "日本語 pipeline", "\u212aelvin", "\u0130stanbul", "ﬁle", "x\u0301", "Ａｐｐ",
		"!!!", "   ", "🚀", "-", "ü", strings.Repeat("a", 99), strings.Repeat("a", 100), strings.Repeat("a", 101),
		strings.Repeat("ab ", 33) + "c", strings.Repeat("ab ", 34), strings.Repeat("-", 200) + "x",
		strings.Repeat("é", 150) + "z", "x" + strings.Repeat(" ", 150) + "y",
	}
	return append(names, randomNames(300)...)
}

// randomNames returns n names drawn, the same every run, from characters that each treat differently.
func randomNames(n int) []string {
	alphabet := []rune("aZm09 -_.()/:!?\t'\"üÉİ\u212aßΣ日🚀")
	r := rand.New(rand.NewPCG(20, 26))
	names := make([]string, n)
	for i := range names {
		runes := make([]rune, 1+r.IntN(40))
		for j := range runes {
			runes[j] = alphabet[r.IntN(len(alphabet))]
		}
		names[i] = string(runes)
	}
	return names
}

// TestPipelineSlug_matchesEmulator creates a pipeline with each name in the emulator and checks that
// pipelineSlug derives the slug the emulator gave it, and fails exactly where the emulator refuses the
// slug.
func TestPipelineSlug_matchesEmulator(t *testing.T) {
	t.Parallel()
	srv := fakeserver.New(fakeserver.Options{Org: "acme", Token: "test-token"})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c, err := buildkite.NewClient(buildkite.Config{BaseURL: ts.URL, Organization: "acme", Token: "test-token", UserAgent: "slug-test"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	config := "steps:\n  - command: make\n"
	names := slugNames()
	derived, refused := 0, 0
	for _, name := range names {
		got, fnErr := kit.PipelineSlug(name)
		p, err := c.Pipelines.Create(ctx, buildkite.PipelineCreate{Name: name, Repository: "https://github.com/acme/app.git", Configuration: &config})
		var apiErr *buildkite.Error
		switch {
		case err == nil:
			derived++
			if fnErr != nil || got != p.Slug {
				t.Errorf("name %q: the emulator derived %q, pipelineSlug gave %q (error %v)", name, p.Slug, got, fnErr)
			}
			if err := c.Pipelines.Delete(ctx, p.Slug); err != nil {
				t.Fatal(err)
			}
		case errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusUnprocessableEntity && strings.Contains(err.Error(), "slug"):
			refused++
			if fnErr == nil {
				t.Errorf("name %q: the emulator refused the slug (%v), pipelineSlug gave %q", name, err, got)
			}
		default:
			t.Fatalf("creating a pipeline named %q: %v", name, err)
		}
	}
	t.Logf("%d names: %d slugs derived alike, %d refused by both", len(names), derived, refused)
	if derived < len(names)/2 || refused < 5 {
		t.Fatalf("the names no longer cover both outcomes: %d derived, %d refused", derived, refused)
	}
}

// TestAccPipelineSlugFunction_basic: the function in a configuration gives the slug the service gives the
// pipeline, and refuses a name that has none, naming the argument.
func TestAccPipelineSlugFunction_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("Slug Of (This) Pipeline")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config:      e.Config(`output "bad" { value = provider::buildkite::pipeline_slug("!!! ???") }`),
				ExpectError: acctest.Wrapped(`Invalid value for "name" parameter: the name "!!! ???" has no ASCII letter or digit`),
			},
			{
				Config:      e.Config(`output "long" { value = provider::buildkite::pipeline_slug("` + strings.Repeat("x", 101) + `") }`),
				ExpectError: acctest.Wrapped(`would be 101 characters long and the service allows at most 100`),
			},
			{
				Config: e.Config(`
resource "buildkite_pipeline" "test" {
  name       = "` + name + `"
  repository = "https://github.com/acme/app.git"
  steps      = "steps:\n  - command: make\n"
}

output "derived" {
  value = provider::buildkite::pipeline_slug(buildkite_pipeline.test.name)
}

output "matches" {
  value = provider::buildkite::pipeline_slug(buildkite_pipeline.test.name) == buildkite_pipeline.test.slug
}

output "example" {
  value = provider::buildkite::pipeline_slug("My  App (Staging)")
}
`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("derived", knownvalue.StringExact(strings.ToLower(strings.NewReplacer(" ", "-", "(", "", ")", "").Replace(name)))),
					statecheck.ExpectKnownOutputValue("matches", knownvalue.Bool(true)),
					statecheck.ExpectKnownOutputValue("example", knownvalue.StringExact("my-app-staging")),
				},
			},
		},
	})
}
