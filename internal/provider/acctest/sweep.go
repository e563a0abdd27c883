package acctest

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
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// What acceptance runs leave in a real organization, and how it is removed.
//
// Sweepers delete every object whose name starts with testPrefix, the prefix testEnv.name gives, exactly:
// case-sensitive, on the name alone (never the slug: "Tf Acc Production" has the slug tf-acc-production and
// is no test's). A rule, which has no name, is swept only when every object it names is. Nothing is deleted
// unless SWEEP_CONFIRM equals the organization's slug: without it a sweep lists what it would remove, type by
// type. Every listing's answer is checked for its shape (sweepTransport): a server that answers an empty
// list, or objects without IDs, where it could not have listed the organization is an error, never "removed
// 0". `make
// sweep` runs them (go test -sweep=<anything>; the region is ignored) against the organization
// BUILDKITE_API_TOKEN, BUILDKITE_ORGANIZATION_SLUG and BUILDKITE_REST_URL name, the variables `make
// testacc-live` reads. In live mode each test also deletes, when it ends, every top-level object its client
// created (recordCreates), and the objects Terraform leaves on purpose that it names (leaveNoneNamed).
//
// A type is one row of sweepers (typeTests.sweeper, registered in its test file): its resource type, the
// REST collection it is created in, the types whose objects must go first (they refer to this type's, and
// the service may refuse the delete while they do), and a listing of its objects, each with its names and
// its delete. Objects nested in another (queues, tokens, secrets, members, schedules, access) go with their
// parent and need no row: their exempt says so. An object without a name is named by what stands for one:
// a rule by its pipelines', a notification service by its description. The organization's singletons (its
// API settings and banner) have no row: the tests that change them put them back (singleton.go).

// testPrefix starts the name of every object the acceptance tests create.
const TestPrefix = "tf-acc-"

// sweepSummary prints how many objects the sweepers removed, after a sweep that did not fail; without
// SWEEP_CONFIRM, how many they would have removed, and how to remove them.
func sweepSummary() {
	if !sweepRan.Load() {
		return // a test run, not a sweep
	}
	if n := wouldSweep.Load(); os.Getenv(sweepConfirmEnv) != os.Getenv(kit.EnvOrgSlug) {
		fmt.Printf("sweep: nothing deleted: %s is not the organization's slug; %d object(s) would be removed "+
			"(set %s=%s to remove them)\n", sweepConfirmEnv, n, sweepConfirmEnv, os.Getenv(kit.EnvOrgSlug))
		return
	}
	fmt.Printf("sweep: removed %d object(s) in total\n", swept.Load())
}

// leftovers is what one live test must delete when it ends: the top-level objects its client created
// (their IDs, by collection) and the names of objects Terraform leaves behind on purpose.
type Leftovers struct {
	mu    sync.Mutex
	ids   map[string]map[string]bool // collection -> IDs
	names map[string]map[string]bool // resource type -> names
}

// recordCreates returns an HTTP client that notes in l the ID of every object created in a top-level
// collection.
func (l *Leftovers) RecordCreates() *http.Client {
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
func (l *Leftovers) addGraphQLCreate(body []byte) {
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
func (l *Leftovers) add(set *map[string]map[string]bool, group string, keys ...string) {
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
func (e *TestEnv) LeaveNoneNamed(resourceType, name string) {
	if e.Leftovers != nil {
		e.Leftovers.add(&e.Leftovers.names, resourceType, name)
	}
}

// removeLeftovers deletes what the test left, type by type in dependency order, after the test's own
// clean-up and destroy; what it cannot delete fails the test, as it stays in the organization.
func (e *TestEnv) RemoveLeftovers() {
	l := e.Leftovers
	l.mu.Lock()
	defer l.mu.Unlock()
	ctx := context.Background()
	for _, s := range SweepOrder() {
		ids, names := l.ids[s.Collection], l.names[s.ResourceType]
		if len(ids) == 0 && len(names) == 0 {
			continue
		}
		_, err := s.remove(ctx, e.Client, func(x Sweepable) bool {
			if ids[x.ID] {
				return true
			}
			for _, n := range x.Names {
				if names[n] {
					return true
				}
			}
			return false
		})
		if err != nil {
			e.T.Errorf("left in the organization (make sweep removes it): %s: %v", s.ResourceType, err)
		}
	}
}

// sweeper is one row: how to find and remove one type's objects.
type Sweeper struct {
	ResourceType string
	Collection   string // the last segment of the collection's path, under the organization
	After        []string
	List         func(ctx context.Context, c *buildkite.Client) ([]Sweepable, error)
}

// sweepable is one object a sweeper can remove.
type Sweepable struct {
	ID    string   // UUID, as the create answer gives it in "id" or "uuid"
	Names []string // name, then slug: the sweepers match the name (names[0]); a test's clean-up matches either
	// refs, for an object without a name of its own (a rule), are the names of the objects it names: it is
	// the tests' when every one of them is.
	Refs []string
	Del  func(ctx context.Context) error
}

// tests reports whether x is an object the tests made: its name starts with testPrefix, or, for a rule,
// every object it names is the tests'.
func (x Sweepable) Tests() bool {
	if x.Refs != nil {
		if len(x.Refs) == 0 {
			return false
		}
		for _, r := range x.Refs {
			if !prefixed(r) {
				return false
			}
		}
		return true
	}
	return len(x.Names) > 0 && prefixed(x.Names[0])
}

// sweepers, in no particular order: after gives the order.
// sweepers is the table of sweepers, a view over the types' rows (typeTests.sweeper), in no particular
// order: after gives the order.
func Sweepers() []Sweeper {
	return append([]Sweeper(nil), sweeperTable...)
}

// sweepOrder is sweepers with every row after the rows its after names.
func SweepOrder() []Sweeper {
	byType := map[string]Sweeper{}
	for _, s := range Sweepers() {
		byType[s.ResourceType] = s
	}
	var out []Sweeper
	done := map[string]bool{}
	var visit func(s Sweeper)
	visit = func(s Sweeper) {
		if done[s.ResourceType] {
			return
		}
		done[s.ResourceType] = true
		for _, dep := range s.After {
			visit(byType[dep])
		}
		out = append(out, s)
	}
	for _, s := range Sweepers() {
		visit(s)
	}
	return out
}

// swept counts what every sweeper of this run removed, for the summary printed at the end.
var swept atomic.Int64

// sweepConfirmEnv must equal the organization's slug for a sweep to delete anything.
const sweepConfirmEnv = "SWEEP_CONFIRM"

// wouldSweep counts what a sweep without SWEEP_CONFIRM would have removed; sweepRan is set by any sweeper.
var (
	wouldSweep atomic.Int64
	sweepRan   atomic.Bool
)

// registerSweepers gives terraform-plugin-testing a sweeper for each type's row; Main calls it once the test
// package has registered its rows.
func registerSweepers() {
	for _, s := range Sweepers() {
		resource.AddTestSweepers(s.ResourceType, &resource.Sweeper{
			Name:         s.ResourceType,
			Dependencies: s.After,
			F: func(string) error {
				sweepRan.Store(true)
				c, err := sweepClient()
				if err != nil {
					return err
				}
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
				defer cancel()
				confirmed := os.Getenv(sweepConfirmEnv) == os.Getenv(kit.EnvOrgSlug)
				n, err := s.Sweep(ctx, c, confirmed, os.Stdout)
				if confirmed {
					swept.Add(int64(n))
				} else {
					wouldSweep.Add(int64(n))
				}
				if err != nil {
					return fmt.Errorf("%s: %w", s.ResourceType, err)
				}
				return nil
			},
		})
	}
}

// sweep removes (confirmed) or lists the row's objects the tests made, printing one line for the type,
// and returns how many it removed or would remove.
func (s Sweeper) Sweep(ctx context.Context, c *buildkite.Client, confirmed bool, out io.Writer) (int, error) {
	if !confirmed {
		all, err := s.List(ctx, c)
		if err != nil {
			return 0, fmt.Errorf("listing: %w", err)
		}
		var names []string
		for _, x := range all {
			if x.Tests() {
				names = append(names, kit.DisplayOr(strings.Join(x.Names, " / "), strings.Join(x.Refs, " -> "))+" ("+x.ID+")")
			}
		}
		_, _ = fmt.Fprintf(out, "sweep: %s: would remove %d object(s)%s\n", s.ResourceType, len(names), listed(names))
		return len(names), nil
	}
	n, err := s.remove(ctx, c, Sweepable.Tests)
	_, _ = fmt.Fprintf(out, "sweep: %s: removed %d %s… object(s)\n", s.ResourceType, n, TestPrefix)
	return n, err
}

// listed renders names after a colon, one per line, or nothing.
func listed(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return ":\n  " + strings.Join(names, "\n  ")
}

// sweepClient is a client for the organization the environment names, as `make testacc-live` uses it.
func sweepClient() (*buildkite.Client, error) {
	token, org, url := os.Getenv(kit.EnvAPIToken), os.Getenv(kit.EnvOrgSlug), os.Getenv(kit.EnvRESTURL)
	if token == "" || org == "" {
		return nil, fmt.Errorf("sweepers delete objects in a real organization: set %s and %s", kit.EnvAPIToken, kit.EnvOrgSlug)
	}
	if url == "" {
		url = kit.DefaultRESTURL
	}
	c, err := buildkite.NewClient(buildkite.Config{BaseURL: url, GraphQLURL: GraphQLEndpoint(os.Getenv(kit.EnvGraphQLURL), os.Getenv(kit.EnvRESTURL)),
		Organization: org, Token: token,
		UserAgent: "terraform-provider-buildkite/sweep", HTTPClient: &http.Client{Transport: SweepTransport{http.DefaultTransport}}})
	if err != nil {
		return nil, err
	}
	if err := ConfirmSweptOrganization(context.Background(), c, org); err != nil {
		return nil, err
	}
	return c, nil
}

// confirmSweptOrganization fails unless the server answers the organization as itself: a server that
// answers every path with an empty list (a proxy, a wrong URL) is not swept as "removed 0".
func ConfirmSweptOrganization(ctx context.Context, c *buildkite.Client, org string) error {
	o, err := c.Organizations.Get(ctx)
	if err != nil {
		return fmt.Errorf("sweep: reading organization %s before listing it: %w", org, err)
	}
	if o.Slug != org {
		return fmt.Errorf("sweep: the server answered organization %q for %q: it is not the organization to sweep", o.Slug, org)
	}
	return nil
}

// sweepTransport checks every listing the sweepers read for the shape of one: a JSON array of objects each
// with its "id" or "uuid", and, when empty, no link to another page (an empty page of a longer listing is an
// incomplete one). A listing that fails is an error: the sweep cannot say it removed everything.
type SweepTransport struct{ Next http.RoundTripper }

func (t SweepTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.Next.RoundTrip(r)
	if err != nil || r.Method != http.MethodGet || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '[' {
		return resp, nil // an object (one organization, one pipeline): the client checks it
	}
	if err := ListingShape(trimmed, resp.Header); err != nil {
		return nil, fmt.Errorf("GET %s: the answer is not a complete listing: %w", r.URL.Path, err)
	}
	return resp, nil
}

// listingShape checks one page of a listing.
func ListingShape(body []byte, h http.Header) error {
	var items []map[string]any
	if err := json.Unmarshal(body, &items); err != nil {
		return fmt.Errorf("not an array of objects: %w", err)
	}
	for i, it := range items {
		id, _ := it["id"].(string)
		uuid, _ := it["uuid"].(string)
		if id == "" && uuid == "" {
			return fmt.Errorf("item %d has neither an id nor a uuid", i)
		}
	}
	if len(items) == 0 {
		for _, l := range h.Values("Link") {
			if strings.Contains(l, `rel="next"`) || strings.Contains(l, `rel="last"`) {
				return errors.New("an empty page that links to more pages")
			}
		}
	}
	return nil
}

// prefixed tells whether a name is one the tests gave: it starts with testPrefix, in that case.
func prefixed(name string) bool {
	return strings.HasPrefix(name, TestPrefix)
}

// remove deletes every object of the row's type that pick selects and returns how many it removed; one
// already gone (404) was removed by someone else and is no error. Every failure is reported, not only the
// first.
func (s Sweeper) remove(ctx context.Context, c *buildkite.Client, pick func(Sweepable) bool) (int, error) {
	all, err := s.List(ctx, c)
	if err != nil {
		return 0, fmt.Errorf("listing: %w", err)
	}
	n := 0
	var errs []error
	for _, x := range all {
		if !pick(x) {
			continue
		}
		switch err := x.Del(ctx); {
		case err == nil:
			n++
		case !buildkite.IsNotFound(err):
			errs = append(errs, fmt.Errorf("deleting %s (%s): %w", strings.Join(x.Names, ", "), x.ID, err))
		}
	}
	return n, errors.Join(errs...)
}

// listAgentTokens lists the live unclustered agent tokens, named by their descriptions; where the client
// has no GraphQL endpoint (rest_url set without graphql_url) it says so and lists none.
func ListAgentTokens(ctx context.Context, c *buildkite.Client) ([]Sweepable, error) {
	if !c.HasGraphQL() {
		fmt.Printf("sweep: buildkite_agent_token: not swept: no GraphQL endpoint (set %s with %s)\n", kit.EnvGraphQLURL, kit.EnvRESTURL)
		return nil, nil
	}
	all, err := c.AgentTokens.List(ctx)
	return sweepables(all, err, func(t buildkite.AgentToken) Sweepable {
		var names []string
		if t.Description != nil {
			names = []string{*t.Description}
		}
		return Sweepable{ID: t.UUID, Names: names, Del: func(ctx context.Context) error {
			return c.AgentTokens.Revoke(ctx, t.ID, buildkite.AgentTokenRevokeReason)
		}}
	})
}

func ListPipelines(ctx context.Context, c *buildkite.Client) ([]Sweepable, error) {
	all, err := c.Pipelines.List(ctx, nil)
	return sweepables(all, err, func(p buildkite.Pipeline) Sweepable {
		return Sweepable{ID: p.ID, Names: []string{p.Name, p.Slug}, Del: func(ctx context.Context) error { return deletePipeline(ctx, c, p.Slug) }}
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

func ListTemplates(ctx context.Context, c *buildkite.Client) ([]Sweepable, error) {
	all, err := c.PipelineTemplates.List(ctx)
	return sweepables(all, err, func(t buildkite.PipelineTemplate) Sweepable {
		return Sweepable{ID: t.UUID, Names: []string{t.Name}, Del: func(ctx context.Context) error { return c.PipelineTemplates.Delete(ctx, t.UUID) }}
	})
}

func ListClusters(ctx context.Context, c *buildkite.Client) ([]Sweepable, error) {
	all, err := c.Clusters.List(ctx)
	return sweepables(all, err, func(cl buildkite.Cluster) Sweepable {
		return Sweepable{ID: cl.ID, Names: []string{cl.Name}, Del: func(ctx context.Context) error { return deleteCluster(ctx, c, cl.ID) }}
	})
}

// listCacheRegistries lists the registries of every cluster (the Default ones are never the tests').
func ListCacheRegistries(ctx context.Context, c *buildkite.Client) ([]Sweepable, error) {
	clusters, err := c.Clusters.List(ctx)
	if err != nil {
		return nil, err
	}
	var out []Sweepable
	for _, cl := range clusters {
		all, err := c.CacheRegistries.List(ctx, cl.ID)
		if err != nil {
			return nil, err
		}
		for _, r := range all {
			if r.Default {
				continue
			}
			out = append(out, Sweepable{ID: r.UUID, Names: []string{r.Name, r.Slug}, Del: func(ctx context.Context) error {
				return c.CacheRegistries.Delete(ctx, cl.ID, r.UUID)
			}})
		}
	}
	return out, nil
}

// deleteCluster deletes a cluster; where the service refuses while the cluster has queues, the default
// queue is cleared and the queues deleted first.
func deleteCluster(ctx context.Context, c *buildkite.Client, id string) error {
	err := c.Clusters.Delete(ctx, id)
	if err == nil || buildkite.IsNotFound(err) {
		return err
	}
	_, _ = c.Clusters.Update(ctx, id, buildkite.ClusterUpdate{DefaultQueueID: buildkite.Cleared[string]()})
	queues, qerr := c.Queues.List(ctx, id)
	if qerr != nil {
		return err
	}
	for _, q := range queues {
		_ = c.Queues.Delete(ctx, id, q.ID)
	}
	return c.Clusters.Delete(ctx, id)
}

func ListTeams(ctx context.Context, c *buildkite.Client) ([]Sweepable, error) {
	all, err := c.Teams.List(ctx, buildkite.TeamListOptions{})
	return sweepables(all, err, func(t buildkite.Team) Sweepable {
		return Sweepable{ID: t.ID, Names: []string{t.Name, t.Slug}, Del: func(ctx context.Context) error { return c.Teams.Delete(ctx, t.ID) }}
	})
}

func ListSuites(ctx context.Context, c *buildkite.Client) ([]Sweepable, error) {
	all, err := c.TestSuites.List(ctx)
	return sweepables(all, err, func(s buildkite.TestSuite) Sweepable {
		return Sweepable{ID: s.ID, Names: []string{s.Name, s.Slug}, Del: func(ctx context.Context) error { return c.TestSuites.Delete(ctx, s.Slug) }}
	})
}

func ListRegistries(ctx context.Context, c *buildkite.Client) ([]Sweepable, error) {
	all, err := c.Registries.List(ctx)
	return sweepables(all, err, func(r buildkite.Registry) Sweepable {
		return Sweepable{ID: r.ID, Names: []string{r.Name, r.Slug}, Del: func(ctx context.Context) error { return c.Registries.Delete(ctx, r.Slug) }}
	})
}

func ListPortals(ctx context.Context, c *buildkite.Client) ([]Sweepable, error) {
	all, err := c.Portals.List(ctx)
	return sweepables(all, err, func(p buildkite.Portal) Sweepable {
		return Sweepable{ID: p.UUID, Names: []string{p.Name, p.Slug}, Del: func(ctx context.Context) error { return c.Portals.Delete(ctx, p.Slug) }}
	})
}

// listNotificationServices names each service by its description, the one name it has (none: nothing to
// match, and the service is never swept by name).
func ListNotificationServices(ctx context.Context, c *buildkite.Client) ([]Sweepable, error) {
	all, err := c.NotificationServices.List(ctx)
	return sweepables(all, err, func(n buildkite.NotificationService) Sweepable {
		var names []string
		if n.Description != nil && *n.Description != "" {
			names = []string{*n.Description}
		}
		return Sweepable{ID: n.ID, Names: names, Del: func(ctx context.Context) error { return c.NotificationServices.Delete(ctx, n.ID) }}
	})
}

// listRules gives each rule the names of the pipelines it names.
func ListRules(ctx context.Context, c *buildkite.Client) ([]Sweepable, error) {
	pipelines, err := c.Pipelines.List(ctx, nil)
	if err != nil {
		return nil, err
	}
	names := map[string][]string{}
	for _, p := range pipelines {
		names[p.ID] = []string{p.Name, p.Slug}
	}
	all, err := c.Rules.List(ctx)
	return sweepables(all, err, func(r buildkite.Rule) Sweepable {
		// refs: the names of both pipelines ("" for one not found, which is no test's).
		refs := []string{}
		for _, id := range []string{r.SourceUUID, r.TargetUUID} {
			refs = append(refs, append(names[id], "")[0])
		}
		return Sweepable{ID: r.UUID, Names: append(append([]string{}, names[r.SourceUUID]...), names[r.TargetUUID]...), Refs: refs,
			Del: func(ctx context.Context) error { return c.Rules.Delete(ctx, r.UUID) }}
	})
}

// sweepables maps a listing to sweepables.
func sweepables[T any](all []T, err error, f func(T) Sweepable) ([]Sweepable, error) {
	if err != nil {
		return nil, err
	}
	out := make([]Sweepable, len(all))
	for i, x := range all {
		out[i] = f(x)
	}
	return out, nil
}

// topLevelCreate matches the path of a create in a collection directly under the organization.
var topLevelCreate = regexp.MustCompile(`^/v2/(?:analytics/|packages/)?organizations/[^/]+/([a-z-]+)$`)

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
