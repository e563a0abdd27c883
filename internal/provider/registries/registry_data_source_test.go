package registries_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

func TestAccRegistryDataSources(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("packages")
	ctx := context.Background()
	desc := "Shared gems"
	team := e.Team("gems")
	a, err := e.Client.Registries.Create(ctx, buildkite.RegistryCreate{Name: name + "-a", Ecosystem: "ruby", Description: &desc,
		TeamIDs: []string{team}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.Client.Registries.Create(ctx, buildkite.RegistryCreate{Name: name + "-b", Ecosystem: "python"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = e.Client.Registries.Delete(context.Background(), a.Slug)
		_ = e.Client.Registries.Delete(context.Background(), b.Slug)
	})

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config: e.Config(fmt.Sprintf(`
data "buildkite_registry" "a" {
  slug = %q
}

data "buildkite_registries" "all" {}
`, a.Slug)),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("data.buildkite_registry.a", "id", a.ID),
					resource.TestCheckResourceAttr("data.buildkite_registry.a", "uuid", a.ID),
					resource.TestCheckResourceAttr("data.buildkite_registry.a", "ecosystem", "ruby"),
					resource.TestCheckResourceAttr("data.buildkite_registry.a", "description", "Shared gems"),
					resource.TestCheckResourceAttr("data.buildkite_registry.a", "public", "false"),
					resource.TestCheckNoResourceAttr("data.buildkite_registry.a", "emoji"),
					// type and team_ids come from the answer (as the service answers).
					resource.TestCheckResourceAttr("data.buildkite_registry.a", "registry_type", "source"),
					resource.TestCheckResourceAttr("data.buildkite_registry.a", "team_ids.#", "1"),
					resource.TestCheckResourceAttr("data.buildkite_registry.a", "team_ids.0", team),
					resource.TestCheckTypeSetElemNestedAttrs("data.buildkite_registries.all", "registries.*", map[string]string{
						"id": a.ID, "slug": a.Slug, "ecosystem": "ruby", "description": "Shared gems",
					}),
					resource.TestCheckTypeSetElemNestedAttrs("data.buildkite_registries.all", "registries.*", map[string]string{
						"id": b.ID, "slug": b.Slug, "ecosystem": "python", "registry_type": "source",
					}),
				),
			},
			{
				Config:      e.Config(`data "buildkite_registry" "x" { slug = "no-such-registry" }`),
				ExpectError: acctest.RegexpMust(`(?s)Registry not found.*Could not find registry with slug "no-such-registry"`),
			},
		},
	})
}
