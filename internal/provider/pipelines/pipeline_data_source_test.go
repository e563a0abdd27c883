package pipelines_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// seedPipelines creates pipelines through the API, as objects that exist before Terraform reads them.

func TestAccPipelineDataSource(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cluster, err := e.Client.Clusters.Create(context.Background(), buildkite.ClusterCreate{Name: e.Name("c")})
	if err != nil {
		t.Fatal(err)
	}
	name := e.Name("seeded")
	p := e.SeedPipeline(buildkite.PipelineCreate{
		Name: name, Repository: "https://github.com/acme/seeded.git", ClusterID: &cluster.ID, Tags: []string{"blue"},
		ProviderSettings: map[string]any{"build_tags": true},
	})
	e.SeedPipeline(buildkite.PipelineCreate{Name: name + "-other", Repository: "https://github.com/acme/other.git", Tags: []string{"red"}})
	const one, all = "data.buildkite_pipeline.one", "data.buildkite_pipelines.all"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config: e.Config(`
data "buildkite_pipeline" "one" {
  slug = "` + p.Slug + `"
}
data "buildkite_pipeline" "by_id" {
  id = "` + p.ID + `"
}
data "buildkite_pipelines" "all" {}
data "buildkite_pipelines" "in_cluster" {
  cluster_id = "` + cluster.ID + `"
}
data "buildkite_pipelines" "tagged" {
  tag  = "red"
  name = "` + name + `"
}
data "buildkite_pipelines" "none" {
  repository = "nowhere"
}
data "buildkite_pipeline" "by_graphql_id" {
  id = "` + p.GraphQLID + `"
}
data "buildkite_pipelines" "in_cluster_by_graphql_id" {
  cluster_id = "` + cluster.GraphQLID + `"
}
data "buildkite_pipelines" "searched" {
  search   = "` + strings.ToUpper(name) + `"
  archived = false
  tags     = ["red"]
}
data "buildkite_pipelines" "archived" {
  search   = "` + name + `"
  archived = true
}`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(one, tfjsonpath.New("id"), knownvalue.StringExact(p.ID)),
					statecheck.ExpectKnownValue(one, tfjsonpath.New("steps"), knownvalue.StringExact("steps:\n  - command: make\n")),
					statecheck.ExpectKnownValue(one, tfjsonpath.New("tags"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("blue")})),
					statecheck.ExpectKnownValue(one, tfjsonpath.New("provider_settings").AtMapKey("build_tags"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(one, tfjsonpath.New("cluster_id"), knownvalue.StringExact(cluster.ID)),
					statecheck.ExpectKnownValue(one, tfjsonpath.New("cluster_name"), knownvalue.StringExact(cluster.Name)),
					statecheck.ExpectKnownValue(one, tfjsonpath.New("clone_mirror_url"), knownvalue.Null()),
					statecheck.ExpectKnownValue("data.buildkite_pipeline.by_graphql_id", tfjsonpath.New("uuid"), knownvalue.StringExact(p.ID)),
					statecheck.ExpectKnownValue("data.buildkite_pipelines.in_cluster_by_graphql_id", tfjsonpath.New("pipelines").AtSliceIndex(0).AtMapKey("cluster_name"), knownvalue.StringExact(cluster.Name)),
					statecheck.ExpectKnownValue("data.buildkite_pipeline.by_id", tfjsonpath.New("slug"), knownvalue.StringExact(p.Slug)),
					statecheck.ExpectKnownValue(all, tfjsonpath.New("pipelines"), e.Ours(2, "name", name, name+"-other")),
					statecheck.ExpectKnownValue("data.buildkite_pipelines.in_cluster", tfjsonpath.New("pipelines").AtSliceIndex(0).AtMapKey("slug"), knownvalue.StringExact(p.Slug)),
					statecheck.ExpectKnownValue("data.buildkite_pipelines.in_cluster", tfjsonpath.New("pipelines"), knownvalue.ListSizeExact(1)),
					statecheck.ExpectKnownValue("data.buildkite_pipelines.tagged", tfjsonpath.New("pipelines").AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact(name+"-other")),
					statecheck.ExpectKnownValue("data.buildkite_pipelines.none", tfjsonpath.New("pipelines"), knownvalue.ListSizeExact(0)),
					// The official provider's filters and count.
					statecheck.ExpectKnownValue(all, tfjsonpath.New("total"), e.Total(2)),
					statecheck.ExpectKnownValue("data.buildkite_pipelines.searched", tfjsonpath.New("total"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue("data.buildkite_pipelines.searched", tfjsonpath.New("pipelines").AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact(name+"-other")),
					statecheck.ExpectKnownValue("data.buildkite_pipelines.archived", tfjsonpath.New("total"), knownvalue.Int64Exact(0)),
				},
			},
			{
				Config:      e.Config(`data "buildkite_pipeline" "one" { slug = "no-such-pipeline" }`),
				ExpectError: acctest.Wrapped(`Could not find pipeline with slug "no-such-pipeline"`),
			},
			{
				Config:      e.Config(`data "buildkite_pipeline" "one" { id = "00000000-0000-0000-0000-000000000000" }`),
				ExpectError: acctest.RegexpMust(`Unable to find pipeline`),
			},
		},
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config:      e.Config(`data "buildkite_pipeline" "one" {}`),
			ExpectError: acctest.Wrapped(`Exactly one of these attributes must be configured: [id,slug]`),
			PlanOnly:    true,
		}},
	})
}

func TestAccPipelineTemplateDataSource(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	ctx := context.Background()
	name := e.Name("tpl")
	tpl, err := e.Client.PipelineTemplates.Create(ctx, buildkite.PipelineTemplateCreate{Name: name, Configuration: "steps: []\n", Available: acctest.PtrTo(true)})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := e.Client.PipelineTemplates.Create(ctx, buildkite.PipelineTemplateCreate{Name: name + "-twin", Configuration: "steps: []\n"}); err != nil {
			t.Fatal(err)
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config: e.Config(`
data "buildkite_pipeline_template" "by_name" { name = "` + name + `" }
data "buildkite_pipeline_template" "by_id" { id = "` + tpl.UUID + `" }
data "buildkite_pipeline_templates" "all" {}`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.buildkite_pipeline_template.by_name", tfjsonpath.New("id"), knownvalue.StringExact(tpl.UUID)),
					statecheck.ExpectKnownValue("data.buildkite_pipeline_template.by_id", tfjsonpath.New("available"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("data.buildkite_pipeline_template.by_id", tfjsonpath.New("name"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue("data.buildkite_pipeline_templates.all", tfjsonpath.New("pipeline_templates"), e.Ours(3, "name", name, name+"-twin", name+"-twin")),
				},
			},
			{
				Config:      e.Config(`data "buildkite_pipeline_template" "x" { name = "` + name + `-twin" }`),
				ExpectError: acctest.RegexpMust(`More Than One Pipeline Template Found`),
			},
			{
				Config:      e.Config(`data "buildkite_pipeline_template" "x" { name = "nope" }`),
				ExpectError: acctest.RegexpMust(`Unable to find pipeline template`),
			},
			{
				Config:      e.Config(`data "buildkite_pipeline_template" "x" { id = "00000000-0000-0000-0000-000000000000" }`),
				ExpectError: acctest.RegexpMust(`Unable to find pipeline template`),
			},
		},
	})
	// id and name together: the official provider's ExactlyOneOf summary.
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config:      e.Config("data \"buildkite_pipeline_template\" \"x\" {\n  id   = \"" + tpl.UUID + "\"\n  name = \"" + name + "\"\n}"),
			ExpectError: acctest.RegexpMust(`Invalid Attribute Combination`),
			PlanOnly:    true,
		}},
	})
}

func TestAccOrganizationRuleDataSource(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("rules")
	a := e.SeedPipeline(buildkite.PipelineCreate{Name: name + "-a", Repository: "https://github.com/acme/a.git"})
	b := e.SeedPipeline(buildkite.PipelineCreate{Name: name + "-b", Repository: "https://github.com/acme/b.git"})
	value, _ := json.Marshal(map[string]string{"source_pipeline": a.Slug, "target_pipeline": b.ID})
	rule, err := e.Client.Rules.Create(context.Background(), buildkite.RuleCreate{Type: "pipeline.trigger_build.pipeline", Value: value})
	if err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config: e.Config(`
data "buildkite_organization_rule" "one" { id = "` + rule.UUID + `" }
data "buildkite_organization_rule" "by_uuid" { uuid = "` + rule.UUID + `" }
data "buildkite_organization_rule" "by_graphql_id" { id = "` + rule.GraphQLID + `" }
data "buildkite_organization_rules" "all" {}`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.buildkite_organization_rule.one", tfjsonpath.New("source_uuid"), knownvalue.StringExact(a.ID)),
					statecheck.ExpectKnownValue("data.buildkite_organization_rule.one", tfjsonpath.New("description"), knownvalue.Null()),
					statecheck.ExpectKnownValue("data.buildkite_organization_rule.by_uuid", tfjsonpath.New("id"), knownvalue.StringExact(rule.UUID)),
					statecheck.ExpectKnownValue("data.buildkite_organization_rule.by_graphql_id", tfjsonpath.New("uuid"), knownvalue.StringExact(rule.UUID)),
					statecheck.ExpectKnownValue("data.buildkite_organization_rule.by_graphql_id", tfjsonpath.New("target_uuid"), knownvalue.StringExact(b.ID)),
					statecheck.ExpectKnownValue("data.buildkite_organization_rule.one", tfjsonpath.New("value"),
						knownvalue.StringExact(`{"source_pipeline":"`+a.ID+`","target_pipeline":"`+b.ID+`"}`)),
					statecheck.ExpectKnownValue("data.buildkite_organization_rules.all", tfjsonpath.New("rules"), knownvalue.ListSizeExact(1)),
					statecheck.ExpectKnownValue("data.buildkite_organization_rules.all", tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("action"), knownvalue.StringExact("TRIGGER_BUILD")),
				},
			},
			{
				Config:      e.Config(`data "buildkite_organization_rule" "one" { id = "00000000-0000-0000-0000-000000000000" }`),
				ExpectError: acctest.RegexpMust(`Unable to find organization rule`),
			},
		},
	})
}
