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

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// `terraform query` (Terraform 1.14+) over every list resource: what each finds with its filters, and
// configuration generated from it that imports and then plans empty. `make testacc-next` runs these. A new
// list resource joins with a row of queryCases (and its area's seed in query_seed_kit_test.go).

// queryCase is one list resource: run seeds its area in a fresh environment (names start with base) and
// returns what to query and what must be found.
type queryCase struct {
	resourceType string
	run          func(t *testing.T, e *testEnv, base string) queryRow
}

// queryRow is one list resource's query: list blocks (triples of type, name and config body) and the checks
// of what they find, list blocks each refused with an error, and how many objects the unfiltered list
// block finds, which the generated configuration must import.
type queryRow struct {
	blocks  []string
	checks  []querycheck.QueryResultCheck
	refused []queryRefusal
	imports int
}

type queryRefusal struct {
	body    string // the config block of a list block named after the refusal
	message *regexp.Regexp
}

// known is a KnownValueCheck of one attribute.
func known(attr string, value knownvalue.Check) querycheck.KnownValueCheck {
	return querycheck.KnownValueCheck{Path: tfjsonpath.New(attr), KnownValue: value}
}

// byIdentity picks the result with the identity of attribute-value pairs.
func byIdentity(kv ...string) queryfilter.QueryFilter {
	return queryfilter.ByResourceIdentity(identityOf(kv...))
}

const unknownUUIDFilter = `    %s = "` + unknownUUID + `"`

var queryCases = []queryCase{
	{resourceType: "buildkite_cluster", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedClusters(t, base)
		return queryRow{
			blocks: []string{"buildkite_cluster", "named", fmt.Sprintf("    name = %q", base+"-A")},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster.all", 2),
				querycheck.ExpectLength("buildkite_cluster.named", 1),
				querycheck.ExpectIdentity("buildkite_cluster.named", identityOf("id", s.a.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster.all", byIdentity("id", s.b.ID), knownvalue.StringExact(base+"-b")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster.all", byIdentity("id", s.a.ID), []querycheck.KnownValueCheck{
					known("name", knownvalue.StringExact(base+"-a")),
					known("emoji", knownvalue.StringExact(":rocket:")),
					known("color", knownvalue.StringExact("#A8D5FF")),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_cluster.all", byIdentity("id", s.b.ID),
					[]querycheck.KnownValueCheck{known("description", knownvalue.Null())}),
			},
			imports: 2,
		}
	}},
	{resourceType: "buildkite_cluster_queue", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedClusters(t, base)
		queue := func(c *buildkite.Cluster, q *buildkite.Queue) queryfilter.QueryFilter {
			return byIdentity("cluster_id", c.ID, "key", q.Key)
		}
		return queryRow{
			blocks: []string{"buildkite_cluster_queue", "a", fmt.Sprintf("    cluster_id = %q", s.a.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster_queue.all", 3),
				querycheck.ExpectLength("buildkite_cluster_queue.a", 2),
				querycheck.ExpectIdentity("buildkite_cluster_queue.a", identityOf("cluster_id", s.a.ID, "key", "mac")),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_queue.all", queue(s.b, s.other), knownvalue.StringExact(base+"-b / other")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_queue.a", queue(s.a, s.mac), []querycheck.KnownValueCheck{
					known("id", knownvalue.StringExact(s.mac.ID)),
					known("dispatch_paused", knownvalue.Bool(true)),
					known("dispatch_paused_note", knownvalue.StringExact("Patching hosts")),
				}),
			},
			refused: []queryRefusal{{fmt.Sprintf(unknownUUIDFilter, "cluster_id"), wrapped(`No cluster matches the ID "` + unknownUUID + `"`)}},
			imports: 3,
		}
	}},
	{resourceType: "buildkite_cluster_agent_token", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedClusters(t, base)
		tokenA := byIdentity("cluster_id", s.a.ID, "id", s.tokenA.ID)
		return queryRow{
			blocks: []string{"buildkite_cluster_agent_token", "b", fmt.Sprintf("    cluster_id = %q", s.b.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster_agent_token.all", 2),
				querycheck.ExpectLength("buildkite_cluster_agent_token.b", 1),
				querycheck.ExpectIdentity("buildkite_cluster_agent_token.b", identityOf("cluster_id", s.b.ID, "id", s.tokenB.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_agent_token.all", tokenA, knownvalue.StringExact(base+"-a / CI agents")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_agent_token.all", tokenA, []querycheck.KnownValueCheck{
					known("allowed_ip_addresses", knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("10.0.0.0/8"), knownvalue.StringExact("192.168.1.0/24"),
					})),
					known("expires_at", knownvalue.StringExact("2030-01-01T00:00:00Z")),
					known("token", knownvalue.Null()),
				}),
			},
			imports: 2,
		}
	}},
	{resourceType: "buildkite_cluster_default_queue", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedClusters(t, base)
		return queryRow{
			blocks: []string{"buildkite_cluster_default_queue", "b", fmt.Sprintf("    cluster_id = %q", s.b.ID)},
			checks: []querycheck.QueryResultCheck{
				// Cluster b has no default queue, so only a's is found.
				querycheck.ExpectLength("buildkite_cluster_default_queue.all", 1),
				querycheck.ExpectLength("buildkite_cluster_default_queue.b", 0),
				querycheck.ExpectIdentity("buildkite_cluster_default_queue.all", identityOf("cluster_id", s.a.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_default_queue.all", byIdentity("cluster_id", s.a.ID),
					knownvalue.StringExact(base+"-a / default queue")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_default_queue.all", byIdentity("cluster_id", s.a.ID),
					[]querycheck.KnownValueCheck{known("queue_id", knownvalue.StringExact(s.linux.ID))}),
			},
			imports: 1,
		}
	}},
	{resourceType: "buildkite_team", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedTeams(t, base)
		return queryRow{
			blocks: []string{"buildkite_team", "named", fmt.Sprintf("    name = %q", base+"-A")},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_team.all", 2),
				querycheck.ExpectLength("buildkite_team.named", 1),
				querycheck.ExpectIdentity("buildkite_team.named", identityOf("id", s.a.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_team.all", byIdentity("id", s.b.ID), knownvalue.StringExact(base+"-b")),
				querycheck.ExpectResourceKnownValues("buildkite_team.all", byIdentity("id", s.a.ID), []querycheck.KnownValueCheck{
					known("slug", knownvalue.StringExact(s.a.Slug)),
					known("description", knownvalue.StringExact("Runs the platform")),
					known("privacy", knownvalue.StringExact("SECRET")),
					known("default_member_role", knownvalue.StringExact("MAINTAINER")),
					known("members_can_create_pipelines", knownvalue.Bool(true)),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_team.all", byIdentity("id", s.b.ID), []querycheck.KnownValueCheck{
					known("description", knownvalue.StringExact("")),
					known("members_can_create_pipelines", knownvalue.Bool(false)),
				}),
			},
			imports: 2,
		}
	}},
	{resourceType: "buildkite_team_member", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedTeams(t, base)
		membership := func(tm *buildkite.Team) queryfilter.QueryFilter {
			return byIdentity("team_id", tm.ID, "user_id", s.member.ID)
		}
		return queryRow{
			blocks: []string{"buildkite_team_member", "b", fmt.Sprintf("    team_id = %q", s.b.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_team_member.all", 2),
				querycheck.ExpectLength("buildkite_team_member.b", 1),
				querycheck.ExpectIdentity("buildkite_team_member.b", identityOf("team_id", s.b.ID, "user_id", s.member.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_team_member.all", membership(s.a), knownvalue.StringExact(base+"-a / "+s.member.Name)),
				querycheck.ExpectResourceKnownValues("buildkite_team_member.all", membership(s.a), []querycheck.KnownValueCheck{
					known("id", knownvalue.StringExact(s.a.ID+"/"+s.member.ID)),
					known("role", knownvalue.StringExact("MAINTAINER")),
					known("user_name", knownvalue.StringExact(s.member.Name)),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_team_member.b", membership(s.b),
					[]querycheck.KnownValueCheck{known("role", knownvalue.StringExact("MEMBER"))}),
			},
			refused: []queryRefusal{
				{fmt.Sprintf(unknownUUIDFilter, "team_id"), wrapped(`No team matches the ID "` + unknownUUID + `"`)},
				// A slug is refused at once rather than matching nothing.
				{fmt.Sprintf("    team_id = %q", s.a.Slug), regexp.MustCompile(`(?s)team_id.*must be a UUID`)},
			},
			imports: 2,
		}
	}},
	{resourceType: "buildkite_pipeline_team", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedTeams(t, base)
		access := func(tm *buildkite.Team, p *buildkite.Pipeline) queryfilter.QueryFilter {
			return byIdentity("team_id", tm.ID, "pipeline_id", p.ID)
		}
		level := func(v string) []querycheck.KnownValueCheck {
			return []querycheck.KnownValueCheck{known("access_level", knownvalue.StringExact(v))}
		}
		return queryRow{
			blocks: []string{"buildkite_pipeline_team", "b", fmt.Sprintf("    team_id = %q", s.b.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_pipeline_team.all", 3),
				querycheck.ExpectLength("buildkite_pipeline_team.b", 2),
				querycheck.ExpectResourceDisplayName("buildkite_pipeline_team.all", access(s.b, s.p2), knownvalue.StringExact(base+"-b / "+s.p2.Slug)),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_team.all", access(s.a, s.p1),
					append(level("BUILD_AND_READ"), known("id", knownvalue.StringExact(s.a.ID+"/"+s.p1.ID)))),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_team.b", access(s.b, s.p1), level("READ_ONLY")),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_team.b", access(s.b, s.p2), level("MANAGE_BUILD_AND_READ")),
			},
			imports: 3,
		}
	}},
	{resourceType: "buildkite_test_suite_team", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedTeams(t, base)
		access := func(tm *buildkite.Team) queryfilter.QueryFilter {
			return byIdentity("team_id", tm.ID, "test_suite_id", s.suite.ID)
		}
		return queryRow{
			blocks: []string{"buildkite_test_suite_team", "a", fmt.Sprintf("    team_id = %q", s.a.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_test_suite_team.all", 2),
				querycheck.ExpectLength("buildkite_test_suite_team.a", 1),
				querycheck.ExpectIdentity("buildkite_test_suite_team.a", identityOf("team_id", s.a.ID, "test_suite_id", s.suite.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_test_suite_team.all", access(s.b), knownvalue.StringExact(base+"-b / "+s.suite.Slug)),
				// The owner's access, which creating the suite gave it, is found like any other.
				querycheck.ExpectResourceKnownValues("buildkite_test_suite_team.a", access(s.a),
					[]querycheck.KnownValueCheck{known("access_level", knownvalue.StringExact("MANAGE_AND_READ"))}),
				querycheck.ExpectResourceKnownValues("buildkite_test_suite_team.all", access(s.b), []querycheck.KnownValueCheck{
					known("id", knownvalue.StringExact(s.b.ID+"/"+s.suite.ID)),
					known("access_level", knownvalue.StringExact("READ_ONLY")),
				}),
			},
			imports: 2,
		}
	}},
	{resourceType: "buildkite_pipeline", run: queryPipelines},
	{resourceType: "buildkite_pipeline_template", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedPipelines(t, base)
		byID := func(tpl *buildkite.PipelineTemplate) queryfilter.QueryFilter { return byIdentity("id", tpl.UUID) }
		return queryRow{
			blocks: []string{
				"buildkite_pipeline_template", "named", fmt.Sprintf("    name = %q", base+"-STANDARD"),
				"buildkite_pipeline_template", "none", `    name = "standard"`,
			},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_pipeline_template.all", 2),
				querycheck.ExpectLength("buildkite_pipeline_template.named", 1),
				querycheck.ExpectLength("buildkite_pipeline_template.none", 0),
				querycheck.ExpectIdentity("buildkite_pipeline_template.named", identityOf("id", s.standard.UUID)),
				querycheck.ExpectResourceDisplayName("buildkite_pipeline_template.all", byID(s.other), knownvalue.StringExact(base+"-other")),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_template.all", byID(s.standard), []querycheck.KnownValueCheck{
					known("configuration", knownvalue.StringExact("steps:\n  - command: make ci\n")),
					known("description", knownvalue.StringExact("The standard build")),
					known("available", knownvalue.Bool(false)),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_template.all", byID(s.other), []querycheck.KnownValueCheck{
					known("description", knownvalue.Null()),
					known("available", knownvalue.Bool(true)),
				}),
			},
			imports: 2,
		}
	}},
	{resourceType: "buildkite_organization_rule", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedPipelines(t, base)
		byID := func(r *buildkite.Rule) queryfilter.QueryFilter { return byIdentity("id", r.UUID) }
		return queryRow{
			blocks: []string{
				"buildkite_organization_rule", "triggers", `    type = "pipeline.trigger_build.pipeline"`,
				"buildkite_organization_rule", "templated", fmt.Sprintf("    pipeline_id = %q", s.templated.ID),
				"buildkite_organization_rule", "api", fmt.Sprintf("    pipeline_id = %q", s.api.ID),
			},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_organization_rule.all", 2),
				querycheck.ExpectLength("buildkite_organization_rule.triggers", 1),
				querycheck.ExpectIdentity("buildkite_organization_rule.triggers", identityOf("id", s.trigger.UUID)),
				querycheck.ExpectLength("buildkite_organization_rule.templated", 1),
				querycheck.ExpectIdentity("buildkite_organization_rule.templated", identityOf("id", s.artifacts.UUID)),
				querycheck.ExpectLength("buildkite_organization_rule.api", 2),
				querycheck.ExpectResourceDisplayName("buildkite_organization_rule.all", byID(s.trigger),
					knownvalue.StringExact("pipeline.trigger_build.pipeline: "+base+"-web -> "+base+"-api")),
				querycheck.ExpectResourceKnownValues("buildkite_organization_rule.all", byID(s.artifacts), []querycheck.KnownValueCheck{
					known("source_uuid", knownvalue.StringExact(s.api.ID)),
					known("target_uuid", knownvalue.StringExact(s.templated.ID)),
					known("action", knownvalue.StringExact("ARTIFACTS_READ")),
				}),
			},
			refused: []queryRefusal{{`    type = "trigger_build"`, wrapped(`must have the form <source>.<action>.<target>`)}},
			imports: 2,
		}
	}},
	{resourceType: "buildkite_test_suite", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedSuites(t, base)
		suite := func(ts *buildkite.TestSuite) queryfilter.QueryFilter { return byIdentity("slug", ts.Slug) }
		return queryRow{
			blocks: []string{"buildkite_test_suite", "named", fmt.Sprintf("    name = %q", base+"-WEB")},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_test_suite.all", 2),
				querycheck.ExpectLength("buildkite_test_suite.named", 1),
				querycheck.ExpectIdentity("buildkite_test_suite.named", identityOf("slug", s.web.Slug)),
				querycheck.ExpectResourceDisplayName("buildkite_test_suite.all", suite(s.api), knownvalue.StringExact(base+"-api")),
				querycheck.ExpectResourceKnownValues("buildkite_test_suite.all", suite(s.web), []querycheck.KnownValueCheck{
					known("id", knownvalue.StringExact(s.web.ID)),
					known("emoji", knownvalue.StringExact(":test_tube:")),
					known("application_name", knownvalue.StringExact("web")),
					// Returned only on creation.
					known("api_token", knownvalue.Null()),
					// What an import reads: the one team that may manage the suite.
					known("team_owner_id", knownvalue.StringExact(s.team)),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_test_suite.all", suite(s.api), []querycheck.KnownValueCheck{
					known("default_branch", knownvalue.StringExact("trunk")),
					known("color", knownvalue.Null()),
				}),
			},
			imports: 2,
		}
	}},
	{resourceType: "buildkite_registry", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedSuites(t, base)
		registry := func(r *buildkite.Registry) queryfilter.QueryFilter { return byIdentity("slug", r.Slug) }
		return queryRow{
			blocks: []string{"buildkite_registry", "named", fmt.Sprintf("    name = %q", base+"-PyPI")},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_registry.all", 2),
				querycheck.ExpectLength("buildkite_registry.named", 1),
				querycheck.ExpectIdentity("buildkite_registry.named", identityOf("slug", s.pypi.Slug)),
				querycheck.ExpectResourceDisplayName("buildkite_registry.all", registry(s.gems), knownvalue.StringExact(base+"-gems")),
				querycheck.ExpectResourceKnownValues("buildkite_registry.all", registry(s.gems), []querycheck.KnownValueCheck{
					known("ecosystem", knownvalue.StringExact("ruby")),
					known("description", knownvalue.StringExact("Internal gems")),
					known("oidc_policy", knownvalue.StringExact(*s.gems.OIDCPolicy)),
					known("team_ids", knownvalue.Null()),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_registry.named", registry(s.pypi), []querycheck.KnownValueCheck{
					known("id", knownvalue.StringExact(s.pypi.ID)),
					known("description", knownvalue.Null()),
				}),
			},
			imports: 2,
		}
	}},
	{resourceType: "buildkite_team_registry", run: func(t *testing.T, e *testEnv, base string) queryRow {
		// Team a owns registry gems (it was created for a); team b is given access to both registries.
		a, b := e.seedTeam(base+"-a"), e.seedTeam(base+"-b")
		gems, pypi := e.seedRegistry(base+"-gems", a.ID), e.seedRegistry(base+"-pypi")
		must := seeding(t)
		_, err := e.client.TeamRegistries.Create(context.Background(), b.ID, gems.ID, "READ_ONLY")
		must(err)
		_, err = e.client.TeamRegistries.Create(context.Background(), b.ID, pypi.ID, "READ_AND_WRITE")
		must(err)
		access := func(tm *buildkite.Team, reg *buildkite.Registry) queryfilter.QueryFilter {
			return byIdentity("team_id", tm.ID, "registry_id", reg.ID)
		}
		level := func(v string) []querycheck.KnownValueCheck {
			return []querycheck.KnownValueCheck{known("access_level", knownvalue.StringExact(v))}
		}
		return queryRow{
			blocks: []string{"buildkite_team_registry", "pypi", fmt.Sprintf("    registry_id = %q", pypi.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_team_registry.all", 3),
				querycheck.ExpectLength("buildkite_team_registry.pypi", 1),
				querycheck.ExpectIdentity("buildkite_team_registry.pypi", identityOf("team_id", b.ID, "registry_id", pypi.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_team_registry.all", access(a, gems), knownvalue.StringExact(base+"-gems / "+base+"-a")),
				querycheck.ExpectResourceKnownValues("buildkite_team_registry.all", access(a, gems),
					append(level("READ_WRITE_AND_ADMIN"), known("id", knownvalue.StringExact(a.ID+"/"+gems.ID)))),
				querycheck.ExpectResourceKnownValues("buildkite_team_registry.all", access(b, gems), level("READ_ONLY")),
				querycheck.ExpectResourceKnownValues("buildkite_team_registry.pypi", access(b, pypi), level("READ_AND_WRITE")),
			},
			refused: []queryRefusal{
				{fmt.Sprintf(unknownUUIDFilter, "registry_id"), wrapped(`No registry matches the ID "` + unknownUUID + `"`)},
			},
			imports: 3,
		}
	}},
	{resourceType: "buildkite_registry_token", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedSuites(t, base)
		token := func(r *buildkite.Registry, tok *buildkite.RegistryToken) queryfilter.QueryFilter {
			return byIdentity("registry_id", r.ID, "id", tok.ID)
		}
		return queryRow{
			blocks: []string{"buildkite_registry_token", "pypi", fmt.Sprintf("    registry_id = %q", s.pypi.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_registry_token.all", 3),
				querycheck.ExpectLength("buildkite_registry_token.pypi", 1),
				querycheck.ExpectIdentity("buildkite_registry_token.pypi", identityOf("registry_id", s.pypi.ID, "id", s.readerOfPypi.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_registry_token.all", token(s.gems, s.deploy), knownvalue.StringExact(base+"-gems / Deploys")),
				querycheck.ExpectResourceKnownValues("buildkite_registry_token.all", token(s.gems, s.ci), []querycheck.KnownValueCheck{
					known("description", knownvalue.StringExact("CI")),
					known("created_at", knownvalue.NotNull()),
					known("token", knownvalue.Null()), // returned only on creation
				}),
			},
			refused: []queryRefusal{
				{fmt.Sprintf(unknownUUIDFilter, "registry_id"), wrapped(`No registry matches the ID "` + unknownUUID + `"`)},
				{fmt.Sprintf("    registry_id = %q", s.pypi.Slug), regexp.MustCompile(`registry_id`)},
			},
			imports: 3,
		}
	}},
	{resourceType: "buildkite_pipeline_schedule", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedBeyondSpec(t, base)
		schedule := func(p *buildkite.Pipeline, sc *buildkite.PipelineSchedule) queryfilter.QueryFilter {
			return byIdentity("pipeline_id", p.ID, "id", sc.ID)
		}
		return queryRow{
			blocks: []string{"buildkite_pipeline_schedule", "p1", fmt.Sprintf("    pipeline_id = %q", s.p1.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_pipeline_schedule.all", 3),
				querycheck.ExpectLength("buildkite_pipeline_schedule.p1", 2),
				querycheck.ExpectResourceDisplayName("buildkite_pipeline_schedule.all", schedule(s.p2, s.other), knownvalue.StringExact(s.p2.Name+" / Weekly")),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_schedule.p1", schedule(s.p1, s.nightly), []querycheck.KnownValueCheck{
					known("cronline", knownvalue.StringExact("0 3 * * 1-5 Europe/Berlin")),
					known("message", knownvalue.StringExact("Nightly build")),
					known("enabled", knownvalue.Bool(false)),
					known("env", knownvalue.MapExact(map[string]knownvalue.Check{"DEPLOY": knownvalue.StringExact("false")})),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_schedule.p1", schedule(s.p1, s.hourly), []querycheck.KnownValueCheck{
					known("message", knownvalue.Null()),
					known("env", knownvalue.MapExact(map[string]knownvalue.Check{})),
					known("commit", knownvalue.StringExact("HEAD")),
				}),
			},
			refused: []queryRefusal{{fmt.Sprintf(unknownUUIDFilter, "pipeline_id"), wrapped(`No pipeline matches the ID "` + unknownUUID + `"`)}},
			imports: 3,
		}
	}},
	{resourceType: "buildkite_cluster_secret", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedBeyondSpec(t, base)
		secret := func(c *buildkite.Cluster, sec *buildkite.ClusterSecret) queryfilter.QueryFilter {
			return byIdentity("cluster_id", c.ID, "id", sec.ID)
		}
		return queryRow{
			blocks: []string{"buildkite_cluster_secret", "b", fmt.Sprintf("    cluster_id = %q", s.b.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster_secret.all", 3),
				querycheck.ExpectLength("buildkite_cluster_secret.b", 1),
				querycheck.ExpectIdentity("buildkite_cluster_secret.b", identityOf("cluster_id", s.b.ID, "id", s.otherSecret.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_secret.all", secret(s.a, s.token), knownvalue.StringExact(base+"-a / TOKEN")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_secret.all", secret(s.a, s.deployKey), []querycheck.KnownValueCheck{
					known("key", knownvalue.StringExact("DEPLOY_KEY")),
					known("description", knownvalue.StringExact("Deploys")),
					known("policy", knownvalue.StringExact("- pipeline_slug: "+s.p1.Slug+"\n")),
					known("value", knownvalue.Null()), // the service never shows it
				}),
			},
			imports: 3,
		}
	}},
	{resourceType: "buildkite_cluster_cache_registry", run: func(t *testing.T, e *testEnv, base string) queryRow {
		ctx := t.Context()
		a, err := e.client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-a"})
		if err != nil {
			t.Fatal(err)
		}
		// A second cluster, which has only its Default registry.
		if _, err := e.client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-b"}); err != nil {
			t.Fatal(err)
		}
		gems, err := e.client.CacheRegistries.Create(ctx, a.ID, buildkite.CacheRegistryWrite{Name: ptrTo("Gems"), Emoji: buildkite.Value(":gem:")})
		if err != nil {
			t.Fatal(err)
		}
		// Each cluster's Default registry is listed too.
		return queryRow{
			blocks: []string{"buildkite_cluster_cache_registry", "a", fmt.Sprintf("    cluster_id = %q", a.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster_cache_registry.all", 3),
				querycheck.ExpectLength("buildkite_cluster_cache_registry.a", 2),
				querycheck.ExpectIdentity("buildkite_cluster_cache_registry.a", identityOf("cluster_id", a.ID, "id", gems.UUID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_cache_registry.all",
					byIdentity("cluster_id", a.ID, "id", gems.UUID), knownvalue.StringExact(base+"-a / Gems")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_cache_registry.a", byIdentity("cluster_id", a.ID, "id", gems.UUID), []querycheck.KnownValueCheck{
					known("slug", knownvalue.StringExact("gems")),
					known("emoji", knownvalue.StringExact(":gem:")),
					known("default", knownvalue.Bool(false)),
				}),
			},
			imports: 3,
		}
	}},
	{resourceType: "buildkite_cluster_maintainer", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedBeyondSpec(t, base)
		assignment := func(c *buildkite.Cluster, m *buildkite.ClusterMaintainer) queryfilter.QueryFilter {
			return byIdentity("cluster_uuid", c.ID, "id", m.ID)
		}
		return queryRow{
			blocks: []string{"buildkite_cluster_maintainer", "a", fmt.Sprintf("    cluster_uuid = %q", s.a.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster_maintainer.all", 3),
				querycheck.ExpectLength("buildkite_cluster_maintainer.a", 2),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_maintainer.all", assignment(s.b, s.teamOfB), knownvalue.StringExact(base+"-b / "+s.team.Name)),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_maintainer.a", assignment(s.a, s.userOfA), []querycheck.KnownValueCheck{
					known("user_uuid", knownvalue.StringExact(s.member.ID)),
					known("team_uuid", knownvalue.Null()),
					known("actor_email", knownvalue.StringExact(s.member.Email)),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_maintainer.a", assignment(s.a, s.teamOfA), []querycheck.KnownValueCheck{
					known("team_uuid", knownvalue.StringExact(s.team.ID)),
					known("actor_slug", knownvalue.StringExact(s.team.Slug)),
				}),
			},
			refused: []queryRefusal{{fmt.Sprintf(unknownUUIDFilter, "cluster_uuid"), wrapped(`No cluster matches the ID "` + unknownUUID + `"`)}},
			imports: 3,
		}
	}},
	{resourceType: "buildkite_portal", run: func(t *testing.T, e *testEnv, base string) queryRow {
		seed := func(name, slug string, desc *string) *buildkite.Portal {
			p, err := e.client.Portals.Create(t.Context(), buildkite.PortalWrite{
				Name: name, Slug: slug, Query: "{ viewer { user { name } } }", Description: desc,
			})
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		desc := "Build numbers"
		stats, other := seed(base+"-Stats", base+"-stats", &desc), seed(base+"-Other", base+"-other", nil)
		return queryRow{
			blocks: []string{"buildkite_portal", "named", fmt.Sprintf("    name = %q", base+"-stats")},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_portal.all", 2),
				querycheck.ExpectLength("buildkite_portal.named", 1),
				querycheck.ExpectIdentity("buildkite_portal.named", identityOf("slug", stats.Slug)),
				querycheck.ExpectResourceDisplayName("buildkite_portal.all", byIdentity("slug", other.Slug), knownvalue.StringExact(base+"-Other")),
				querycheck.ExpectResourceKnownValues("buildkite_portal.all", byIdentity("slug", stats.Slug), []querycheck.KnownValueCheck{
					known("uuid", knownvalue.StringExact(stats.UUID)),
					known("description", knownvalue.StringExact(desc)),
					// Returned only on creation.
					known("token", knownvalue.Null()),
				}),
			},
			imports: 2,
		}
	}},
	{resourceType: "buildkite_notification_service", run: func(t *testing.T, e *testEnv, base string) queryRow {
		seed := func(body buildkite.NotificationServiceCreate) *buildkite.NotificationService {
			s, err := e.client.NotificationServices.Create(t.Context(), body)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		hook := seed(buildkite.NotificationServiceCreate{Provider: "webhook", Description: ptrTo(base + "-hooks"),
			Settings: buildkite.NotificationServiceSettings{URL: buildkite.Value("https://example.com/h")}})
		plain := seed(buildkite.NotificationServiceCreate{Provider: "webhook", Settings: buildkite.NotificationServiceSettings{URL: buildkite.Value("https://example.com/p")}})
		// A Slack incoming webhook is not a type the resource manages: it is not listed.
		e.server.Store().AddNotificationService(e.org, "slack", map[string]any{"url": "https://hooks.slack.com/x"})
		return queryRow{
			blocks: []string{"buildkite_notification_service", "named", fmt.Sprintf("    name = %q", base+"-HOOKS")},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_notification_service.all", 2),
				querycheck.ExpectLength("buildkite_notification_service.named", 1),
				querycheck.ExpectIdentity("buildkite_notification_service.named", identityOf("id", hook.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_notification_service.all", byIdentity("id", plain.ID), knownvalue.StringExact("Webhook")),
				querycheck.ExpectResourceKnownValues("buildkite_notification_service.all", byIdentity("id", hook.ID), []querycheck.KnownValueCheck{
					known("provider_type", knownvalue.StringExact("webhook")),
					known("description", knownvalue.StringExact(base+"-hooks")),
					known("scope_uuids", knownvalue.Null()),
				}),
			},
			imports: 2,
		}
	}},
}

// queryPipelines is the row of buildkite_pipeline, whose list resource has the most filters. The archived
// pipeline and the one on a template (whose generated configuration holds both its steps and its template)
// import and plan empty too.
func queryPipelines(t *testing.T, e *testEnv, base string) queryRow {
	s := e.seedPipelines(t, base)
	bySlug := func(p *buildkite.Pipeline) queryfilter.QueryFilter { return byIdentity("slug", p.Slug) }
	return queryRow{
		blocks: []string{
			"buildkite_pipeline", "named", `    name = "WEB"`,
			"buildkite_pipeline", "repository", `    repository = "acme/API"`,
			"buildkite_pipeline", "cluster", fmt.Sprintf("    cluster_id = %q", s.cluster.ID),
			"buildkite_pipeline", "tagged", `    tag = "legacy"`,
			"buildkite_pipeline", "both", fmt.Sprintf("    tag = \"legacy\"\n    cluster_id = %q", s.cluster.ID),
		},
		checks: []querycheck.QueryResultCheck{
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
			querycheck.ExpectResourceDisplayName("buildkite_pipeline.all", bySlug(s.templated), knownvalue.StringExact(base+"-templated")),
			querycheck.ExpectResourceKnownValues("buildkite_pipeline.all", bySlug(s.web), []querycheck.KnownValueCheck{
				known("id", knownvalue.StringExact(s.web.ID)),
				known("cluster_id", knownvalue.StringExact(s.cluster.ID)),
				known("steps", knownvalue.StringExact("steps:\n  - label: build\n    command: make web\n")),
				known("branch_configuration", knownvalue.StringExact("main release/*")),
				known("default_team_id", knownvalue.Null()),
			}),
			querycheck.ExpectResourceKnownValues("buildkite_pipeline.all", bySlug(s.api), []querycheck.KnownValueCheck{
				known("archived", knownvalue.Bool(true)),
				known("description", knownvalue.StringExact("")), // unset: "", as the official provider stores it
				known("tags", knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("backend"), knownvalue.StringExact("legacy")})),
			}),
			querycheck.ExpectResourceKnownValues("buildkite_pipeline.all", bySlug(s.templated),
				[]querycheck.KnownValueCheck{known("pipeline_template_id", knownvalue.StringExact(s.standard.UUID))}),
		},
		refused: []queryRefusal{{`    cluster_id = "Q2x1c3Rlci0tLWFiYw=="`, regexp.MustCompile(`cluster_id`)}},
		imports: 3,
	}
}

// TestAccResources_query runs every row of queryCases: an unfiltered list block ("all") and the row's own
// blocks, each refused block, and the import of what "all" finds.
func TestAccResources_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	for _, tc := range queryCases {
		t.Run(tc.resourceType, func(t *testing.T) {
			t.Parallel()
			e := newTestEnv(t)
			row := tc.run(t, e, e.name("query"))
			queried := []resource.TestStep{{
				Query:             true,
				Config:            e.queryConfig(append([]string{tc.resourceType, "all", ""}, row.blocks...)...),
				QueryResultChecks: row.checks,
			}}
			for i, r := range row.refused {
				queried = append(queried, resource.TestStep{
					Query:       true,
					Config:      e.queryConfig(tc.resourceType, fmt.Sprintf("refused%d", i), r.body),
					ExpectError: r.message,
				})
			}
			resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: e.factories(), Steps: queried})
			e.queryImport(t, listBlocks(tc.resourceType, "all", ""), row.imports)
		})
	}
}

// areaQuery imports everything an area's list resources find in one query, as the guide does, and counts
// the calls: listings only, never one GET per object.
type areaQuery struct {
	name  string
	seed  func(t *testing.T, e *testEnv, base string)
	types []string // the list resources, each queried unfiltered
	found int      // what they find together
	// listings matches the paths of the listing calls, and lists is how many there must be (why says it).
	listings []*regexp.Regexp
	lists    int
	listsWhy string
}

var areaQueries = []areaQuery{
	{
		name: "clusters", seed: func(t *testing.T, e *testEnv, base string) { e.seedClusters(t, base) },
		types:    []string{"buildkite_cluster", "buildkite_cluster_queue", "buildkite_cluster_agent_token", "buildkite_cluster_default_queue"},
		found:    2 + 3 + 2 + 1,
		listings: []*regexp.Regexp{regexp.MustCompile(`^/v2/organizations/[^/]+/clusters(/[^/]+/(queues|tokens))?$`)},
		lists:    4 + 2*2, listsWhy: "clusters four times, then queues and tokens of two clusters",
	},
	{
		name: "teams", seed: func(t *testing.T, e *testEnv, base string) { e.seedTeams(t, base) },
		types:    []string{"buildkite_team", "buildkite_team_member", "buildkite_pipeline_team", "buildkite_test_suite_team"},
		found:    2 + 2 + 3 + 2,
		listings: []*regexp.Regexp{regexp.MustCompile(`^/v2/organizations/[^/]+/teams(/[^/]+/(members|pipelines|suites))?$`)},
		lists:    4 + 3*2, listsWhy: "teams four times, then members, pipelines and suites of two teams",
	},
	{
		name: "pipelines", seed: func(t *testing.T, e *testEnv, base string) { e.seedPipelines(t, base) },
		types:    []string{"buildkite_pipeline", "buildkite_pipeline_template", "buildkite_organization_rule"},
		found:    3 + 2 + 2,
		listings: []*regexp.Regexp{regexp.MustCompile(`^/v2/organizations/[^/]+/(pipelines|pipeline-templates|rules|clusters)$`)},
		// Each list block lists its kind once; the rules list the pipelines too, to name them, and the
		// pipelines the clusters, for their cluster_name.
		lists: 5, listsWhy: "pipelines twice, clusters, templates and rules once",
	},
	{
		name: "suites", seed: func(t *testing.T, e *testEnv, base string) { e.seedSuites(t, base) },
		types: []string{"buildkite_test_suite", "buildkite_registry", "buildkite_registry_token"},
		found: 2 + 2 + 3,
		listings: []*regexp.Regexp{
			regexp.MustCompile(`^/v2/analytics/organizations/[^/]+/suites$`),
			regexp.MustCompile(`^/v2/organizations/[^/]+/teams(/[^/]+/suites)?$`),
			regexp.MustCompile(`^/v2/packages/organizations/[^/]+/registries(/[^/]+/tokens)?$`),
		},
		lists: 1 + 2 + 2 + 2, listsWhy: "suites once, their owners from the teams and the one team's suites, registries twice, the tokens of two registries",
	},
	{
		name: "beyond-spec", seed: func(t *testing.T, e *testEnv, base string) { e.seedBeyondSpec(t, base) },
		types: []string{"buildkite_pipeline_schedule", "buildkite_cluster_secret", "buildkite_cluster_maintainer"},
		found: 3 + 3 + 3,
		listings: []*regexp.Regexp{
			regexp.MustCompile(`^/v2/organizations/[^/]+/pipelines(/[^/]+/schedules)?$`),
			regexp.MustCompile(`^/v2/organizations/[^/]+/clusters(/[^/]+/(secrets|maintainers))?$`),
		},
		lists:    1 + 2 + 2 + 2 + 2,
		listsWhy: "pipelines once and the schedules of two; clusters twice, the secrets and the maintainers of two",
	},
}

// TestAccAreas_query runs every areaQuery.
func TestAccAreas_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	for _, a := range areaQueries {
		t.Run(a.name, func(t *testing.T) {
			t.Parallel()
			e := newTestEnv(t)
			a.seed(t, e, e.name("query"))
			var blocks []string
			for _, typ := range a.types {
				blocks = append(blocks, typ, "all", "")
			}
			calls := e.queryImport(t, listBlocks(blocks...), a.found)
			if e.live {
				return
			}
			if lists := countListings(t, e, calls, a.listings); lists != a.lists {
				t.Errorf("terraform query made %d listing calls, want %d (%s)", lists, a.lists, a.listsWhy)
			}
		})
	}
}

// countListings counts the calls that match one of listings, and fails the test on any call that is neither
// a listing nor one of the provider's own checks (the token, the organization).
func countListings(t *testing.T, e *testEnv, calls []fakeserver.Request, listings []*regexp.Regexp) int {
	t.Helper()
	lists := 0
	for _, r := range calls {
		switch {
		case r.Method == http.MethodGet && matchesAny(listings, r.Path):
			lists++
		case r.Method == http.MethodGet && (r.Path == "/v2/access-token" || r.Path == "/v2/organizations/"+e.org):
		default:
			t.Errorf("terraform query made %s %s; it should only list", r.Method, r.Path)
		}
	}
	return lists
}

func matchesAny(patterns []*regexp.Regexp, s string) bool {
	for _, p := range patterns {
		if p.MatchString(s) {
			return true
		}
	}
	return false
}
