package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// What acceptance runs leave in a real organization, and how it is removed.
//
// Sweepers delete every object whose name starts with testPrefix, the prefix testEnv.name gives: `make
// sweep` runs them (go test -sweep=<anything>; the region is ignored) against the organization
// BUILDKITE_API_TOKEN, BUILDKITE_ORGANIZATION_SLUG and BUILDKITE_REST_URL name, the variables `make
// testacc-live` reads. In live mode each test also deletes, when it ends, every top-level object its client
// created (recordCreates), and the objects Terraform leaves on purpose that it names (leaveNoneNamed).
//
// A type is one row of sweepers: its resource type, the REST collection it is created in, the types whose
// objects must go first (they refer to this type's, and the service may refuse the delete while they do),
// and a listing of its objects, each with its names and its delete. Objects nested in another (queues,
// tokens, secrets, members, schedules, access) go with their parent and need no row. An object without a
// name is named by what stands for one: a rule by its pipelines', a notification service by its
// description. The organization's singletons (its API settings and banner) have no row: the tests that
// change them put them back (singleton_test.go).

// testPrefix starts the name of every object the acceptance tests create.
const testPrefix = "tf-acc-"

// sweeper is one row: how to find and remove one type's objects.
type sweeper struct {
	resourceType string
	collection   string // the last segment of the collection's path, under the organization
	after        []string
	list         func(ctx context.Context, c *buildkite.Client) ([]sweepable, error)
}

// sweepable is one object a sweeper can remove.
type sweepable struct {
	id    string   // UUID, as the create answer gives it in "id" or "uuid"
	names []string // name and slug: the object is the tests' when one starts with testPrefix
	del   func(ctx context.Context) error
}

// sweepers, in no particular order: after gives the order.
var sweepers = []sweeper{
	// Rules name pipelines by UUID and have no name: theirs are the names of those pipelines. They go first.
	{"buildkite_organization_rule", "rules", nil, listRules},
	// Notification services name the pipelines, teams or clusters they are scoped to by UUID: they go
	// before those. Their name is their description.
	{"buildkite_notification_service", "services", nil, listNotificationServices},
	{"buildkite_pipeline", "pipelines", []string{"buildkite_organization_rule", "buildkite_notification_service"}, listPipelines},
	{"buildkite_pipeline_template", "pipeline-templates", []string{"buildkite_pipeline"}, listTemplates},
	{"buildkite_cluster", "clusters", []string{"buildkite_pipeline", "buildkite_notification_service"}, listClusters},
	{"buildkite_test_suite", "suites", nil, listSuites},
	{"buildkite_registry", "registries", nil, listRegistries},
	// Portals are found by name and slug, and deleted by slug.
	{"buildkite_portal", "portals", nil, listPortals},
	// Unclustered agent tokens (GraphQL; no REST collection): their name is their description, and removing
	// one revokes it (the service keeps revoked tokens, which the listing leaves out).
	{"buildkite_agent_token", "graphql:agentTokens", nil, listAgentTokens},
	// Teams own suites, maintain clusters and have access to pipelines and registries: they go last.
	{"buildkite_team", "teams", []string{"buildkite_pipeline", "buildkite_cluster", "buildkite_test_suite", "buildkite_registry",
		"buildkite_notification_service"}, listTeams},
}

// sweepOrder is sweepers with every row after the rows its after names.
func sweepOrder() []sweeper {
	byType := map[string]sweeper{}
	for _, s := range sweepers {
		byType[s.resourceType] = s
	}
	var out []sweeper
	done := map[string]bool{}
	var visit func(s sweeper)
	visit = func(s sweeper) {
		if done[s.resourceType] {
			return
		}
		done[s.resourceType] = true
		for _, dep := range s.after {
			visit(byType[dep])
		}
		out = append(out, s)
	}
	for _, s := range sweepers {
		visit(s)
	}
	return out
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
				n, err := s.remove(ctx, c, func(x sweepable) bool { return prefixed(x.names...) })
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

// sweepSummary prints how many objects the sweepers removed, after a sweep that did not fail.
func sweepSummary() {
	fmt.Printf("sweep: removed %d object(s) in total\n", swept.Load())
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
	return buildkite.NewClient(buildkite.Config{BaseURL: url, GraphQLURL: graphqlEndpoint(os.Getenv(envGraphQLURL), os.Getenv(envRESTURL)),
		Organization: org, Token: token, UserAgent: "terraform-provider-buildkite/sweep"})
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

// remove deletes every object of the row's type that pick selects and returns how many it removed; one
// already gone (404) was removed by someone else and is no error. Every failure is reported, not only the
// first.
func (s sweeper) remove(ctx context.Context, c *buildkite.Client, pick func(sweepable) bool) (int, error) {
	all, err := s.list(ctx, c)
	if err != nil {
		return 0, fmt.Errorf("listing: %w", err)
	}
	n := 0
	var errs []error
	for _, x := range all {
		if !pick(x) {
			continue
		}
		switch err := x.del(ctx); {
		case err == nil:
			n++
		case !buildkite.IsNotFound(err):
			errs = append(errs, fmt.Errorf("deleting %s (%s): %w", strings.Join(x.names, ", "), x.id, err))
		}
	}
	return n, errors.Join(errs...)
}

// listAgentTokens lists the live unclustered agent tokens, named by their descriptions; where the client
// has no GraphQL endpoint (rest_url set without graphql_url) it says so and lists none.
func listAgentTokens(ctx context.Context, c *buildkite.Client) ([]sweepable, error) {
	if !c.HasGraphQL() {
		fmt.Printf("sweep: buildkite_agent_token: not swept: no GraphQL endpoint (set %s with %s)\n", envGraphQLURL, envRESTURL)
		return nil, nil
	}
	all, err := c.AgentTokens.List(ctx)
	return sweepables(all, err, func(t buildkite.AgentToken) sweepable {
		var names []string
		if t.Description != nil {
			names = []string{*t.Description}
		}
		return sweepable{t.UUID, names, func(ctx context.Context) error {
			return c.AgentTokens.Revoke(ctx, t.ID, buildkite.AgentTokenRevokeReason)
		}}
	})
}

func listPipelines(ctx context.Context, c *buildkite.Client) ([]sweepable, error) {
	all, err := c.Pipelines.List(ctx, nil)
	return sweepables(all, err, func(p buildkite.Pipeline) sweepable {
		return sweepable{p.ID, []string{p.Name, p.Slug}, func(ctx context.Context) error { return deletePipeline(ctx, c, p.Slug) }}
	})
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

func listTemplates(ctx context.Context, c *buildkite.Client) ([]sweepable, error) {
	all, err := c.PipelineTemplates.List(ctx)
	return sweepables(all, err, func(t buildkite.PipelineTemplate) sweepable {
		return sweepable{t.UUID, []string{t.Name}, func(ctx context.Context) error { return c.PipelineTemplates.Delete(ctx, t.UUID) }}
	})
}

func listClusters(ctx context.Context, c *buildkite.Client) ([]sweepable, error) {
	all, err := c.Clusters.List(ctx)
	return sweepables(all, err, func(cl buildkite.Cluster) sweepable {
		return sweepable{cl.ID, []string{cl.Name}, func(ctx context.Context) error { return deleteCluster(ctx, c, cl.ID) }}
	})
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

func listTeams(ctx context.Context, c *buildkite.Client) ([]sweepable, error) {
	all, err := c.Teams.List(ctx, buildkite.TeamListOptions{})
	return sweepables(all, err, func(t buildkite.Team) sweepable {
		return sweepable{t.ID, []string{t.Name, t.Slug}, func(ctx context.Context) error { return c.Teams.Delete(ctx, t.ID) }}
	})
}

func listSuites(ctx context.Context, c *buildkite.Client) ([]sweepable, error) {
	all, err := c.TestSuites.List(ctx)
	return sweepables(all, err, func(s buildkite.TestSuite) sweepable {
		return sweepable{s.ID, []string{s.Name, s.Slug}, func(ctx context.Context) error { return c.TestSuites.Delete(ctx, s.Slug) }}
	})
}

func listRegistries(ctx context.Context, c *buildkite.Client) ([]sweepable, error) {
	all, err := c.Registries.List(ctx)
	return sweepables(all, err, func(r buildkite.Registry) sweepable {
		return sweepable{r.ID, []string{r.Name, r.Slug}, func(ctx context.Context) error { return c.Registries.Delete(ctx, r.Slug) }}
	})
}

func listPortals(ctx context.Context, c *buildkite.Client) ([]sweepable, error) {
	all, err := c.Portals().List(ctx)
	return sweepables(all, err, func(p buildkite.Portal) sweepable {
		return sweepable{p.UUID, []string{p.Name, p.Slug}, func(ctx context.Context) error { return c.Portals().Delete(ctx, p.Slug) }}
	})
}

// listNotificationServices names each service by its description, the one name it has (none: nothing to
// match, and the service is never swept by name).
func listNotificationServices(ctx context.Context, c *buildkite.Client) ([]sweepable, error) {
	all, err := c.NotificationServices().List(ctx)
	return sweepables(all, err, func(n buildkite.NotificationService) sweepable {
		var names []string
		if n.Description != nil && *n.Description != "" {
			names = []string{*n.Description}
		}
		return sweepable{n.ID, names, func(ctx context.Context) error { return c.NotificationServices().Delete(ctx, n.ID) }}
	})
}

// listRules gives each rule the names of the pipelines it names.
func listRules(ctx context.Context, c *buildkite.Client) ([]sweepable, error) {
	pipelines, err := c.Pipelines.List(ctx, nil)
	if err != nil {
		return nil, err
	}
	names := map[string][]string{}
	for _, p := range pipelines {
		names[p.ID] = []string{p.Name, p.Slug}
	}
	all, err := c.Rules.List(ctx)
	return sweepables(all, err, func(r buildkite.Rule) sweepable {
		return sweepable{r.UUID, append(append([]string{}, names[r.SourceUUID]...), names[r.TargetUUID]...),
			func(ctx context.Context) error { return c.Rules.Delete(ctx, r.UUID) }}
	})
}

// sweepables maps a listing to sweepables.
func sweepables[T any](all []T, err error, f func(T) sweepable) ([]sweepable, error) {
	if err != nil {
		return nil, err
	}
	out := make([]sweepable, len(all))
	for i, x := range all {
		out[i] = f(x)
	}
	return out, nil
}

// leftovers is what one live test must delete when it ends: the top-level objects its client created
// (their IDs, by collection) and the names of objects Terraform leaves behind on purpose.
type leftovers struct {
	mu    sync.Mutex
	ids   map[string]map[string]bool // collection -> IDs
	names map[string]map[string]bool // resource type -> names
}

// topLevelCreate matches the path of a create in a collection directly under the organization.
var topLevelCreate = regexp.MustCompile(`^/v2/(?:analytics/|packages/)?organizations/[^/]+/([a-z-]+)$`)

// recordCreates returns an HTTP client that notes in l the ID of every object created in a top-level
// collection.
func (l *leftovers) recordCreates() *http.Client {
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := http.DefaultTransport.RoundTrip(r)
		// A POST to the collection itself is a create: 201, or 200 where the service answers so (registries).
		if err != nil || r.Method != http.MethodPost || (resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK) {
			return resp, err
		}
		m := topLevelCreate.FindStringSubmatch(r.URL.Path)
		if m == nil && r.Header.Get("Content-Type") != "application/json" {
			return resp, nil
		}
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if err != nil {
			return resp, nil // the client sees the short body and fails as it would have
		}
		if m == nil {
			l.addGraphQLCreate(body)
			return resp, nil
		}
		var created struct {
			ID   string `json:"id"`
			UUID string `json:"uuid"`
		}
		if json.Unmarshal(body, &created) == nil {
			l.add(&l.ids, m[1], created.ID, created.UUID)
		}
		return resp, nil
	})}
}

// addGraphQLCreate notes the token a GraphQL agentTokenCreate answer holds, under the agent token row's
// collection; any other answer is not a create of a type with a row.
func (l *leftovers) addGraphQLCreate(body []byte) {
	var created struct {
		Data struct {
			AgentTokenCreate *struct {
				AgentTokenEdge struct {
					Node struct {
						UUID string `json:"uuid"`
					} `json:"node"`
				} `json:"agentTokenEdge"`
			} `json:"agentTokenCreate"`
		} `json:"data"`
	}
	if json.Unmarshal(body, &created) == nil && created.Data.AgentTokenCreate != nil {
		l.add(&l.ids, "graphql:agentTokens", created.Data.AgentTokenCreate.AgentTokenEdge.Node.UUID)
	}
}

// add notes keys under group in one of l's sets.
func (l *leftovers) add(set *map[string]map[string]bool, group string, keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if *set == nil {
		*set = map[string]map[string]bool{}
	}
	if (*set)[group] == nil {
		(*set)[group] = map[string]bool{}
	}
	for _, k := range keys {
		if k != "" {
			(*set)[group][k] = true
		}
	}
}

// leaveNoneNamed makes a live test delete, when it ends, the objects of resourceType named name: those
// Terraform leaves on purpose (archived on delete, removed from state without destroying).
func (e *testEnv) leaveNoneNamed(resourceType, name string) {
	if e.leftovers != nil {
		e.leftovers.add(&e.leftovers.names, resourceType, name)
	}
}

// removeLeftovers deletes what the test left, type by type in dependency order, after the test's own
// clean-up and destroy; what it cannot delete fails the test, as it stays in the organization.
func (e *testEnv) removeLeftovers() {
	l := e.leftovers
	l.mu.Lock()
	defer l.mu.Unlock()
	ctx := context.Background()
	for _, s := range sweepOrder() {
		ids, names := l.ids[s.collection], l.names[s.resourceType]
		if len(ids) == 0 && len(names) == 0 {
			continue
		}
		_, err := s.remove(ctx, e.client, func(x sweepable) bool {
			if ids[x.id] {
				return true
			}
			for _, n := range x.names {
				if names[n] {
					return true
				}
			}
			return false
		})
		if err != nil {
			e.t.Errorf("left in the organization (make sweep removes it): %s: %v", s.resourceType, err)
		}
	}
}

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// seedSweepable makes, through c, one object of every swept type named name (a pipeline archived, another
// renamed after its creation, a rule between the two, a portal whose slug alone carries the name, a
// notification service scoped to the team and described by the name, and one without a description) and
// returns the names of what it made, by type.
func seedSweepable(t *testing.T, c *buildkite.Client, name string) map[string][]string {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("seeding %s: %v", name, err)
		}
	}
	steps := ptrTo("steps:\n  - command: make\n")
	cl, err := c.Clusters.Create(ctx, buildkite.ClusterCreate{Name: name})
	must(err)
	_, err = c.Queues.Create(ctx, cl.ID, buildkite.QueueCreate{Key: "linux"})
	must(err)
	team, err := c.Teams.Create(ctx, buildkite.TeamWrite{Name: name, Privacy: "visible", DefaultMemberRole: "member"})
	must(err)
	archived, err := c.Pipelines.Create(ctx, buildkite.PipelineCreate{Name: name, Repository: "https://github.com/acme/app.git", Configuration: steps, ClusterID: &cl.ID})
	must(err)
	_, err = c.Pipelines.Archive(ctx, archived.Slug)
	must(err)
	renamed, err := c.Pipelines.Create(ctx, buildkite.PipelineCreate{Name: name + "-before", Repository: "https://github.com/acme/app.git", Configuration: steps})
	must(err)
	after := name + "-after"
	_, err = c.Pipelines.Update(ctx, renamed.Slug, buildkite.PipelineUpdate{Name: &after})
	must(err)
	value, _ := json.Marshal(map[string]string{"source_pipeline": renamed.ID, "target_pipeline": archived.ID})
	_, err = c.Rules.Create(ctx, buildkite.RuleCreate{Type: "pipeline.trigger_build.pipeline", Value: value})
	must(err)
	_, err = c.PipelineTemplates.Create(ctx, buildkite.PipelineTemplateCreate{Name: name, Configuration: "steps: []\n"})
	must(err)
	_, err = c.TestSuites.Create(ctx, buildkite.TestSuiteCreate{Name: name, DefaultBranch: "main", TeamIDs: []string{team.ID}})
	must(err)
	_, err = c.Registries.Create(ctx, buildkite.RegistryCreate{Name: name, Ecosystem: "ruby"})
	must(err)
	_, err = c.Portals().Create(ctx, buildkite.PortalWrite{Name: "Build stats", Slug: name, Query: "{ viewer { user { name } } }"})
	must(err)
	_, err = c.NotificationServices().Create(ctx, map[string]any{"provider": "webhook", "description": name,
		"scope": "some_teams", "scope_uuids": []string{team.ID}, "settings": map[string]any{"url": "https://example.com/hooks"}})
	must(err)
	// Without a description: nothing names it, and only recordCreates finds it.
	_, err = c.NotificationServices().Create(ctx, map[string]any{"provider": "webhook", "settings": map[string]any{"url": "https://example.com/" + name}})
	must(err)
	_, err = c.AgentTokens.Create(ctx, &name)
	must(err)
	return map[string][]string{
		"buildkite_cluster": {name}, "buildkite_team": {name}, "buildkite_pipeline": {name, after},
		"buildkite_organization_rule": {"1 rule"}, "buildkite_pipeline_template": {name},
		"buildkite_test_suite": {name}, "buildkite_registry": {name}, "buildkite_portal": {name},
		"buildkite_notification_service": {name}, "buildkite_agent_token": {name},
	}
}

// countSweepable counts, by type, the objects whose names include one starting with prefix.
func countSweepable(t *testing.T, c *buildkite.Client, prefix string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, s := range sweepers {
		all, err := s.list(context.Background(), c)
		if err != nil {
			t.Fatalf("listing %s: %v", s.resourceType, err)
		}
		for _, x := range all {
			for _, n := range x.names {
				if strings.HasPrefix(n, prefix) {
					out[s.resourceType]++
					break
				}
			}
		}
	}
	return out
}

// TestSweepers: the sweepers, in their order, delete every type's objects named with the tests' prefix,
// archived and renamed pipelines and the rules between them included, each counted once, and nothing else.
func TestSweepers(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("live mode: this test seeds objects without the tests' prefix, which the sweepers must keep")
	}
	ours := seedSweepable(t, e.client, testPrefix+"sweep")
	seedSweepable(t, e.client, "kept")
	removed := map[string]int{}
	total := 0
	for _, s := range sweepOrder() {
		n, err := s.remove(context.Background(), e.client, func(x sweepable) bool { return prefixed(x.names...) })
		if err != nil {
			t.Fatalf("%s: %v", s.resourceType, err)
		}
		removed[s.resourceType] = n
		total += n
	}
	want := 0
	for typ, names := range ours {
		want += len(names)
		if removed[typ] != len(names) {
			t.Errorf("%s: removed %d, want %d (%v)", typ, removed[typ], len(names), names)
		}
	}
	if total != want {
		t.Errorf("removed %d in all, want %d", total, want)
	}
	if left := countSweepable(t, e.client, testPrefix); len(left) > 0 {
		t.Errorf("left after sweeping: %v", left)
	}
	kept := countSweepable(t, e.client, "kept")
	if kept["buildkite_cluster"] != 1 || kept["buildkite_pipeline"] != 2 || kept["buildkite_organization_rule"] != 1 || kept["buildkite_team"] != 1 ||
		kept["buildkite_portal"] != 1 || kept["buildkite_notification_service"] != 1 || kept["buildkite_agent_token"] != 1 {
		t.Errorf("objects without the prefix are gone: %v", kept)
	}
	// The two services without a description, ours and the kept one's, are not the sweepers' to find.
	if services, err := e.client.NotificationServices().List(context.Background()); err != nil || len(services) != 3 {
		t.Errorf("after sweeping, %d notification services (%v), want 3: the kept one and the two without a description", len(services), err)
	}
}

// TestSweepOrder: every row's after names rows, and each row comes after those it names.
func TestSweepOrder(t *testing.T) {
	pos := map[string]int{}
	for i, s := range sweepOrder() {
		pos[s.resourceType] = i
	}
	if len(pos) != len(sweepers) {
		t.Fatalf("sweepOrder has %d rows, sweepers %d", len(pos), len(sweepers))
	}
	for _, s := range sweepers {
		for _, dep := range s.after {
			p, ok := pos[dep]
			if !ok {
				t.Errorf("%s comes after %s, which has no row", s.resourceType, dep)
			} else if p > pos[s.resourceType] {
				t.Errorf("%s is swept before %s, which must go first", s.resourceType, dep)
			}
		}
	}
}

// TestLeftovers: what a live test's client creates, archived or renamed since, and what it names, is
// deleted when it ends; what others made is kept.
func TestLeftovers(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("live mode: this test checks the clean-up against the emulator's store")
	}
	seedSweepable(t, e.client, "others") // made by someone else: kept
	var l leftovers
	c, err := buildkite.NewClient(buildkite.Config{BaseURL: e.url, GraphQLURL: e.graphqlURL, Organization: e.org, Token: e.token, HTTPClient: l.recordCreates()})
	if err != nil {
		t.Fatal(err)
	}
	seedSweepable(t, c, "mine")
	// Made by Terraform (not recorded), left on purpose, named.
	if _, err := e.client.Pipelines.Create(context.Background(), buildkite.PipelineCreate{
		Name: "left-on-purpose", Repository: "https://github.com/acme/app.git", Configuration: ptrTo("steps: []\n"),
	}); err != nil {
		t.Fatal(err)
	}
	sub := &testEnv{t: t, client: c, leftovers: &l}
	sub.leaveNoneNamed("buildkite_pipeline", "left-on-purpose")
	sub.removeLeftovers()
	if left := countSweepable(t, e.client, "mine"); len(left) > 0 {
		t.Errorf("left after the test: %v", left)
	}
	if left := countSweepable(t, e.client, "left-on-purpose"); len(left) > 0 {
		t.Errorf("the pipeline named to leaveNoneNamed is still there: %v", left)
	}
	others := countSweepable(t, e.client, "others")
	if others["buildkite_cluster"] != 1 || others["buildkite_pipeline"] != 2 || others["buildkite_team"] != 1 || others["buildkite_registry"] != 1 ||
		others["buildkite_portal"] != 1 || others["buildkite_notification_service"] != 1 || others["buildkite_agent_token"] != 1 {
		t.Errorf("objects others made are gone: %v", others)
	}
	// Mine without a description went by its recorded ID; the others' stays.
	if services, err := e.client.NotificationServices().List(context.Background()); err != nil || len(services) != 2 {
		t.Errorf("after the clean-up, %d notification services (%v), want the 2 others made", len(services), err)
	}
}
