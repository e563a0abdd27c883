package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// Sweepers delete what acceptance runs leave in an organization: every object whose name starts with
// testPrefix, the prefix testEnv.name gives. `make sweep` runs them (go test -sweep=<anything>; the region
// is ignored) against the organization BUILDKITE_API_TOKEN, BUILDKITE_ORGANIZATION_SLUG and
// BUILDKITE_REST_URL name, the same variables `make testacc-live` reads.
//
// A type is one row of sweepers: its resource type, the types whose objects must go first (they refer to
// this type's, and the service may refuse the delete while they do), and a function that deletes this
// type's prefixed objects and returns how many it removed. Objects nested in another (queues, tokens,
// secrets, members, schedules) go with their parent and need no row.

// testPrefix starts the name of every object the acceptance tests create.
const testPrefix = "tf-acc-"

// sweeper is one row: how to remove one type's leftovers.
type sweeper struct {
	resourceType string
	after        []string
	sweep        func(ctx context.Context, c *buildkite.Client) (int, error)
}

// sweepers, in no particular order: after gives the order.
var sweepers = []sweeper{
	// Rules name pipelines by UUID; they go before the pipelines they name.
	{"buildkite_organization_rule", nil, sweepRules},
	{"buildkite_pipeline", []string{"buildkite_organization_rule"}, sweepPipelines},
	{"buildkite_pipeline_template", []string{"buildkite_pipeline"}, sweepTemplates},
	{"buildkite_cluster", []string{"buildkite_pipeline"}, sweepClusters},
	{"buildkite_test_suite", nil, sweepSuites},
	{"buildkite_registry", nil, sweepRegistries},
	// Teams own suites, maintain clusters and have access to pipelines: they go last.
	{"buildkite_team", []string{"buildkite_pipeline", "buildkite_cluster", "buildkite_test_suite", "buildkite_registry"}, sweepTeams},
}

// swept counts what every sweeper of this run removed, for the summary printed at the end.
var swept atomic.Int64

func init() {
	for _, s := range sweepers {
		resource.AddTestSweepers(s.resourceType, &resource.Sweeper{
			Name:         s.resourceType,
			Dependencies: s.after,
			F: func(string) error {
				c, err := sweepClient()
				if err != nil {
					return err
				}
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
				defer cancel()
				n, err := s.sweep(ctx, c)
				swept.Add(int64(n))
				fmt.Printf("sweep: %s: removed %d %s… object(s)\n", s.resourceType, n, testPrefix)
				if err != nil {
					return fmt.Errorf("%s: %w", s.resourceType, err)
				}
				return nil
			},
		})
	}
}

// sweepClient is a client for the organization the environment names, as `make testacc-live` uses it.
func sweepClient() (*buildkite.Client, error) {
	token, org, url := os.Getenv(envAPIToken), os.Getenv(envOrgSlug), os.Getenv(envRESTURL)
	if token == "" || org == "" {
		return nil, fmt.Errorf("sweepers delete objects in a real organization: set %s and %s", envAPIToken, envOrgSlug)
	}
	if url == "" {
		url = defaultRESTURL
	}
	return buildkite.NewClient(buildkite.Config{BaseURL: url, Organization: org, Token: token, UserAgent: "terraform-provider-buildkite/sweep"})
}

// prefixed tells whether a name is one the tests gave.
func prefixed(names ...string) bool {
	for _, n := range names {
		if strings.HasPrefix(strings.ToLower(n), testPrefix) {
			return true
		}
	}
	return false
}

// sweepEach deletes every listed object that keep selects, counting those removed; an object already gone
// (404) counts as removed by someone else, not as an error. Every failure is reported, not only the first.
func sweepEach[T any](ctx context.Context, list func(context.Context) ([]T, error), keep func(T) bool, del func(context.Context, T) error) (int, error) {
	all, err := list(ctx)
	if err != nil {
		return 0, fmt.Errorf("listing: %w", err)
	}
	n := 0
	var errs []error
	for _, x := range all {
		if !keep(x) {
			continue
		}
		switch err := del(ctx, x); {
		case err == nil:
			n++
		case !buildkite.IsNotFound(err):
			errs = append(errs, err)
		}
	}
	return n, errors.Join(errs...)
}

func sweepPipelines(ctx context.Context, c *buildkite.Client) (int, error) {
	return sweepEach(ctx,
		func(ctx context.Context) ([]buildkite.Pipeline, error) { return c.Pipelines.List(ctx, nil) },
		func(p buildkite.Pipeline) bool { return prefixed(p.Name, p.Slug) },
		func(ctx context.Context, p buildkite.Pipeline) error { return deletePipeline(ctx, c, p.Slug) })
}

// deletePipeline deletes a pipeline, archived or not: where the service refuses to delete an archived
// pipeline, it is unarchived first.
func deletePipeline(ctx context.Context, c *buildkite.Client, slug string) error {
	err := c.Pipelines.Delete(ctx, slug)
	if err == nil || buildkite.IsNotFound(err) {
		return err
	}
	if _, uerr := c.Pipelines.Unarchive(ctx, slug); uerr != nil {
		return err
	}
	return c.Pipelines.Delete(ctx, slug)
}

func sweepTemplates(ctx context.Context, c *buildkite.Client) (int, error) {
	return sweepEach(ctx, c.PipelineTemplates.List,
		func(t buildkite.PipelineTemplate) bool { return prefixed(t.Name) },
		func(ctx context.Context, t buildkite.PipelineTemplate) error { return c.PipelineTemplates.Delete(ctx, t.UUID) })
}

func sweepClusters(ctx context.Context, c *buildkite.Client) (int, error) {
	return sweepEach(ctx, c.Clusters.List,
		func(cl buildkite.Cluster) bool { return prefixed(cl.Name) },
		func(ctx context.Context, cl buildkite.Cluster) error { return deleteCluster(ctx, c, cl.ID) })
}

// deleteCluster deletes a cluster; where the service refuses while the cluster has queues, the default
// queue is cleared and the queues deleted first.
func deleteCluster(ctx context.Context, c *buildkite.Client, id string) error {
	err := c.Clusters.Delete(ctx, id)
	if err == nil || buildkite.IsNotFound(err) {
		return err
	}
	_, _ = c.Clusters.ClearDefaultQueue(ctx, id)
	queues, qerr := c.Queues.List(ctx, id)
	if qerr != nil {
		return err
	}
	for _, q := range queues {
		_ = c.Queues.Delete(ctx, id, q.ID)
	}
	return c.Clusters.Delete(ctx, id)
}

func sweepTeams(ctx context.Context, c *buildkite.Client) (int, error) {
	return sweepEach(ctx,
		func(ctx context.Context) ([]buildkite.Team, error) { return c.Teams.List(ctx, buildkite.TeamListOptions{}) },
		func(t buildkite.Team) bool { return prefixed(t.Name, t.Slug) },
		func(ctx context.Context, t buildkite.Team) error { return c.Teams.Delete(ctx, t.ID) })
}

func sweepSuites(ctx context.Context, c *buildkite.Client) (int, error) {
	return sweepEach(ctx, c.TestSuites.List,
		func(s buildkite.TestSuite) bool { return prefixed(s.Name, s.Slug) },
		func(ctx context.Context, s buildkite.TestSuite) error { return c.TestSuites.Delete(ctx, s.Slug) })
}

func sweepRegistries(ctx context.Context, c *buildkite.Client) (int, error) {
	return sweepEach(ctx, c.Registries.List,
		func(r buildkite.Registry) bool { return prefixed(r.Name, r.Slug) },
		func(ctx context.Context, r buildkite.Registry) error { return c.Registries.Delete(ctx, r.Slug) })
}

// sweepRules deletes the rules that name a prefixed pipeline (rules have no name of their own).
func sweepRules(ctx context.Context, c *buildkite.Client) (int, error) {
	pipelines, err := c.Pipelines.List(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("listing pipelines: %w", err)
	}
	ours := map[string]bool{}
	for _, p := range pipelines {
		if prefixed(p.Name, p.Slug) {
			ours[p.ID] = true
		}
	}
	return sweepEach(ctx, c.Rules.List,
		func(r buildkite.Rule) bool { return ours[r.SourceUUID] || ours[r.TargetUUID] },
		func(ctx context.Context, r buildkite.Rule) error { return c.Rules.Delete(ctx, r.UUID) })
}

// sweepSummary prints how many objects the sweepers removed, after a sweep that did not fail.
func sweepSummary() {
	fmt.Printf("sweep: removed %d object(s) in total\n", swept.Load())
}
