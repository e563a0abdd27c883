package provider

import (
	"context"
	"encoding/json"
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

// `terraform query` (Terraform 1.14+) over the pipeline resources: what the list resources find with their
// filters, and configuration generated from it that imports and then plans empty. `make testacc-next` runs
// these.

// seededPipelines is what seedPipelines made outside Terraform.
type seededPipelines struct {
	cluster             *buildkite.Cluster
	web, api, templated *buildkite.Pipeline
	standard, other     *buildkite.PipelineTemplate
	trigger, artifacts  *buildkite.Rule
}

// seedPipelines makes, through the API as someone outside Terraform would: pipeline "<base>-web" in a
// cluster, with its own steps, a description, a tag and a branch filter; pipeline "<base>-api", tagged and
// archived; pipeline "<base>-templated", which runs template "<base>-standard"; a second template; a rule
// letting web trigger api and one letting api read the artifacts of templated.
func (e *testEnv) seedPipelines(t *testing.T, base string) seededPipelines {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("seeding: %v", err)
		}
	}
	str := func(s string) *string { return &s }
	var s seededPipelines
	var err error
	s.cluster, err = e.client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-cluster"})
	must(err)
	s.standard, err = e.client.PipelineTemplates.Create(ctx, buildkite.PipelineTemplateCreate{
		Name: base + "-standard", Configuration: "steps:\n  - command: make ci\n", Description: str("The standard build"),
	})
	must(err)
	s.other, err = e.client.PipelineTemplates.Create(ctx, buildkite.PipelineTemplateCreate{
		Name: base + "-other", Configuration: "steps:\n  - command: make other\n", Available: ptrTo(true),
	})
	must(err)
	s.web, err = e.client.Pipelines.Create(ctx, buildkite.PipelineCreate{
		Name: base + "-web", Repository: "https://github.com/acme/web.git", ClusterID: &s.cluster.ID,
		Configuration: str("steps:\n  - label: build\n    command: make web\n"), Description: str("The web site"),
		BranchConfiguration: str("main release/*"), Tags: []string{"frontend"},
	})
	must(err)
	s.api, err = e.client.Pipelines.Create(ctx, buildkite.PipelineCreate{
		Name: base + "-api", Repository: "https://github.com/acme/api.git",
		Configuration: str(buildkite.DefaultSteps), Tags: []string{"backend", "legacy"},
	})
	must(err)
	s.api, err = e.client.Pipelines.Archive(ctx, s.api.Slug)
	must(err)
	s.templated, err = e.client.Pipelines.Create(ctx, buildkite.PipelineCreate{
		Name: base + "-templated", Repository: "https://github.com/acme/tools.git", PipelineTemplateUUID: &s.standard.UUID,
	})
	must(err)
	rule := func(typ string, source, target *buildkite.Pipeline) *buildkite.Rule {
		t.Helper()
		value, err := json.Marshal(map[string]string{"source_pipeline": source.ID, "target_pipeline": target.ID})
		must(err)
		r, err := e.client.Rules.Create(ctx, buildkite.RuleCreate{Type: typ, Value: value})
		must(err)
		return r
	}
	s.trigger = rule("pipeline.trigger_build.pipeline", s.web, s.api)
	s.artifacts = rule("pipeline.artifacts_read.pipeline", s.api, s.templated)
	return s
}

func TestAccPipelineResource_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	base := e.name("query")
	s := e.seedPipelines(t, base)
	bySlug := func(p *buildkite.Pipeline) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(identityOf("slug", p.Slug))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Query: true,
				Config: e.queryConfig(
					"buildkite_pipeline", "all", "",
					"buildkite_pipeline", "named", `    name = "WEB"`,
					"buildkite_pipeline", "repository", `    repository = "acme/API"`,
					"buildkite_pipeline", "cluster", fmt.Sprintf("    cluster_id = %q", s.cluster.ID),
					"buildkite_pipeline", "tagged", `    tag = "legacy"`,
					"buildkite_pipeline", "both", fmt.Sprintf("    tag = \"legacy\"\n    cluster_id = %q", s.cluster.ID),
				),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("buildkite_pipeline.all", 3),
					querycheck.ExpectLength("buildkite_pipeline.named", 1),
					querycheck.ExpectIdentity("buildkite_pipeline.named", identityOf("slug", s.web.Slug)),
					querycheck.ExpectLength("buildkite_pipeline.repository", 1),
					querycheck.ExpectIdentity("buildkite_pipeline.repository", identityOf("slug", s.api.Slug)),
					querycheck.ExpectLength("buildkite_pipeline.cluster", 1),
					querycheck.ExpectIdentity("buildkite_pipeline.cluster", identityOf("slug", s.web.Slug)),
					querycheck.ExpectLength("buildkite_pipeline.tagged", 1),
					querycheck.ExpectIdentity("buildkite_pipeline.tagged", identityOf("slug", s.api.Slug)),
					querycheck.ExpectLength("buildkite_pipeline.both", 0),
					querycheck.ExpectResourceDisplayName("buildkite_pipeline.all", bySlug(s.templated),
						knownvalue.StringExact(base+"-templated")),
					querycheck.ExpectResourceKnownValues("buildkite_pipeline.all", bySlug(s.web), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("id"), KnownValue: knownvalue.StringExact(s.web.ID)},
						{Path: tfjsonpath.New("cluster_id"), KnownValue: knownvalue.StringExact(s.cluster.ID)},
						{Path: tfjsonpath.New("steps"), KnownValue: knownvalue.StringExact("steps:\n  - label: build\n    command: make web\n")},
						{Path: tfjsonpath.New("branch_configuration"), KnownValue: knownvalue.StringExact("main release/*")},
						{Path: tfjsonpath.New("default_team_id"), KnownValue: knownvalue.Null()},
					}),
					querycheck.ExpectResourceKnownValues("buildkite_pipeline.all", bySlug(s.api), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("archived"), KnownValue: knownvalue.Bool(true)},
						{Path: tfjsonpath.New("description"), KnownValue: knownvalue.Null()},
						{Path: tfjsonpath.New("tags"), KnownValue: knownvalue.SetExact([]knownvalue.Check{
							knownvalue.StringExact("backend"), knownvalue.StringExact("legacy"),
						})},
					}),
					querycheck.ExpectResourceKnownValues("buildkite_pipeline.all", bySlug(s.templated), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("pipeline_template_id"), KnownValue: knownvalue.StringExact(s.standard.UUID)},
					}),
				},
			},
			{
				Query:       true,
				Config:      e.queryConfig("buildkite_pipeline", "bad", `    cluster_id = "Q2x1c3Rlci0tLWFiYw=="`),
				ExpectError: regexp.MustCompile(`cluster_id`),
			},
		},
	})
	// The archived pipeline and the one on a template (whose generated configuration holds both its steps
	// and its template) import and plan empty too.
	e.queryImport(t, listBlocks("buildkite_pipeline", "all", ""), 3)
}

func TestAccPipelineTemplateResource_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	base := e.name("query")
	s := e.seedPipelines(t, base)
	byID := func(tpl *buildkite.PipelineTemplate) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(identityOf("id", tpl.UUID))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Query: true,
			Config: e.queryConfig(
				"buildkite_pipeline_template", "all", "",
				"buildkite_pipeline_template", "named", fmt.Sprintf("    name = %q", base+"-STANDARD"),
				"buildkite_pipeline_template", "none", `    name = "standard"`,
			),
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_pipeline_template.all", 2),
				querycheck.ExpectLength("buildkite_pipeline_template.named", 1),
				querycheck.ExpectLength("buildkite_pipeline_template.none", 0),
				querycheck.ExpectIdentity("buildkite_pipeline_template.named", identityOf("id", s.standard.UUID)),
				querycheck.ExpectResourceDisplayName("buildkite_pipeline_template.all", byID(s.other), knownvalue.StringExact(base+"-other")),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_template.all", byID(s.standard), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("configuration"), KnownValue: knownvalue.StringExact("steps:\n  - command: make ci\n")},
					{Path: tfjsonpath.New("description"), KnownValue: knownvalue.StringExact("The standard build")},
					{Path: tfjsonpath.New("available"), KnownValue: knownvalue.Bool(false)},
				}),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_template.all", byID(s.other), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("description"), KnownValue: knownvalue.Null()},
					{Path: tfjsonpath.New("available"), KnownValue: knownvalue.Bool(true)},
				}),
			},
		}},
	})
	e.queryImport(t, listBlocks("buildkite_pipeline_template", "all", ""), 2)
}

func TestAccOrganizationRuleResource_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	base := e.name("query")
	s := e.seedPipelines(t, base)
	byID := func(r *buildkite.Rule) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(identityOf("id", r.UUID))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Query: true,
				Config: e.queryConfig(
					"buildkite_organization_rule", "all", "",
					"buildkite_organization_rule", "triggers", `    type = "pipeline.trigger_build.pipeline"`,
					"buildkite_organization_rule", "templated", fmt.Sprintf("    pipeline_id = %q", s.templated.ID),
					"buildkite_organization_rule", "api", fmt.Sprintf("    pipeline_id = %q", s.api.ID),
				),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("buildkite_organization_rule.all", 2),
					querycheck.ExpectLength("buildkite_organization_rule.triggers", 1),
					querycheck.ExpectIdentity("buildkite_organization_rule.triggers", identityOf("id", s.trigger.UUID)),
					querycheck.ExpectLength("buildkite_organization_rule.templated", 1),
					querycheck.ExpectIdentity("buildkite_organization_rule.templated", identityOf("id", s.artifacts.UUID)),
					querycheck.ExpectLength("buildkite_organization_rule.api", 2),
					querycheck.ExpectResourceDisplayName("buildkite_organization_rule.all", byID(s.trigger),
						knownvalue.StringExact("pipeline.trigger_build.pipeline: "+base+"-web -> "+base+"-api")),
					querycheck.ExpectResourceKnownValues("buildkite_organization_rule.all", byID(s.artifacts), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("source_uuid"), KnownValue: knownvalue.StringExact(s.api.ID)},
						{Path: tfjsonpath.New("target_uuid"), KnownValue: knownvalue.StringExact(s.templated.ID)},
						{Path: tfjsonpath.New("action"), KnownValue: knownvalue.StringExact("artifacts_read")},
					}),
				},
			},
			{
				Query:       true,
				Config:      e.queryConfig("buildkite_organization_rule", "bad", `    type = "trigger_build"`),
				ExpectError: wrapped(`must have the form <source>.<action>.<target>`),
			},
		},
	})
	e.queryImport(t, listBlocks("buildkite_organization_rule", "all", ""), 2)
}

// TestAccPipelines_query imports everything the pipeline list resources find in one query, as the guide
// does, and counts the calls: listings only, never one GET per object.
func TestAccPipelines_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	e.seedPipelines(t, e.name("query"))
	calls := e.queryImport(t, listBlocks(
		"buildkite_pipeline", "all", "",
		"buildkite_pipeline_template", "all", "",
		"buildkite_organization_rule", "all", "",
	), 3+2+2)
	if e.live {
		return
	}
	listing := regexp.MustCompile(`^/v2/organizations/[^/]+/(pipelines|pipeline-templates|rules)$`)
	lists := 0
	for _, r := range calls {
		switch {
		case r.Method == http.MethodGet && listing.MatchString(r.Path):
			lists++
		case r.Method == http.MethodGet && (r.Path == "/v2/access-token" || r.Path == "/v2/organizations/"+e.org):
		default:
			t.Errorf("terraform query made %s %s; it should only list", r.Method, r.Path)
		}
	}
	// Each list block lists its kind once; the rules list the pipelines too, to name them.
	if want := 4; lists != want {
		t.Errorf("terraform query made %d listing calls, want %d (pipelines twice, templates and rules once)", lists, want)
	}
}
