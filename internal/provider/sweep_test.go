package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

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
	steps := acctest.PtrTo("steps:\n  - command: make\n")
	cl, err := c.Clusters.Create(ctx, buildkite.ClusterCreate{Name: name})
	must(err)
	_, err = c.Queues.Create(ctx, cl.ID, buildkite.QueueCreate{Key: "linux"})
	must(err)
	_, err = c.CacheRegistries.Create(ctx, cl.ID, buildkite.CacheRegistryWrite{Name: &name})
	must(err)
	_, err = c.Queues.Create(ctx, cl.ID, buildkite.QueueCreate{Key: "hosted", HostedAgents: &buildkite.HostedAgentsWrite{InstanceShape: "LINUX_AMD64_2X4"}})
	must(err)
	_, err = c.AgentImages.Create(ctx, cl.ID, buildkite.AgentImageCreate{Name: name, Dockerfile: "RUN true\n"})
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
	_, err = c.Portals.Create(ctx, buildkite.PortalWrite{Name: name, Slug: name, Query: "{ viewer { user { name } } }"})
	must(err)
	_, err = c.NotificationServices.Create(ctx, buildkite.NotificationServiceCreate{Provider: "webhook", Description: &name,
		Scope: "some_teams", ScopeUUIDs: []string{team.ID}, Settings: buildkite.NotificationServiceSettings{URL: buildkite.Value("https://example.com/hooks")}})
	must(err)
	// Without a description: nothing names it, and only recordCreates finds it.
	_, err = c.NotificationServices.Create(ctx, buildkite.NotificationServiceCreate{Provider: "webhook",
		Settings: buildkite.NotificationServiceSettings{URL: buildkite.Value("https://example.com/" + name)}})
	must(err)
	_, err = c.AgentTokens.Create(ctx, &name)
	must(err)
	return map[string][]string{
		"buildkite_cluster": {name}, "buildkite_team": {name}, "buildkite_pipeline": {name, after},
		"buildkite_organization_rule": {"1 rule"}, "buildkite_pipeline_template": {name},
		"buildkite_test_suite": {name}, "buildkite_registry": {name}, "buildkite_portal": {name},
		"buildkite_notification_service": {name}, "buildkite_cluster_cache_registry": {name}, "buildkite_agent_token": {name},
		"buildkite_hosted_agent_image": {name},
	}
}

// countSweepable counts, by type, the objects whose names include one starting with prefix.
func countSweepable(t *testing.T, c *buildkite.Client, prefix string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, s := range acctest.Sweepers() {
		all, err := s.List(context.Background(), c)
		if err != nil {
			t.Fatalf("listing %s: %v", s.ResourceType, err)
		}
		for _, x := range all {
			for _, n := range x.Names {
				if strings.HasPrefix(n, prefix) {
					out[s.ResourceType]++
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
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: this test seeds objects without the tests' prefix, which the sweepers must keep")
	}
	ours := seedSweepable(t, e.Client, acctest.TestPrefix+"sweep")
	seedSweepable(t, e.Client, "kept")
	decoys := seedDecoys(t, e.Client)
	// The decoy rule's source is a test's pipeline: swept as one. The rule sweeper keeps the rule (it names
	// tf_acc_underscore too: removed counts only the seed's rule); it goes with its pipeline.
	ours["buildkite_pipeline"] = append(ours["buildkite_pipeline"], acctest.TestPrefix+"rule-source")
	removed := map[string]int{}
	total := 0
	for _, s := range acctest.SweepOrder() {
		n, err := s.Sweep(context.Background(), e.Client, true, io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", s.ResourceType, err)
		}
		removed[s.ResourceType] = n
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
	if left := countSwept(t, e.Client); len(left) > 0 {
		t.Errorf("left after sweeping: %v", left)
	}
	decoys.check(t)
	kept := countSweepable(t, e.Client, "kept")
	if kept["buildkite_cluster"] != 1 || kept["buildkite_pipeline"] != 2 || kept["buildkite_organization_rule"] != 1 || kept["buildkite_team"] != 1 ||
		kept["buildkite_portal"] != 1 || kept["buildkite_notification_service"] != 1 || kept["buildkite_agent_token"] != 1 {
		t.Errorf("objects without the prefix are gone: %v", kept)
	}
	// The two services without a description, ours and the kept one's, are not the sweepers' to find.
	if services, err := e.Client.NotificationServices.List(context.Background()); err != nil || len(services) != 3 {
		t.Errorf("after sweeping, %d notification services (%v), want 3: the kept one and the two without a description", len(services), err)
	}
}

// TestSweepOrder: every row's after names rows, and each row comes after those it names.
func TestSweepOrder(t *testing.T) {
	pos := map[string]int{}
	for i, s := range acctest.SweepOrder() {
		pos[s.ResourceType] = i
	}
	if len(pos) != len(acctest.Sweepers()) {
		t.Fatalf("sweepOrder has %d rows, sweepers %d", len(pos), len(acctest.Sweepers()))
	}
	for _, s := range acctest.Sweepers() {
		for _, dep := range s.After {
			p, ok := pos[dep]
			if !ok {
				t.Errorf("%s comes after %s, which has no row", s.ResourceType, dep)
			} else if p > pos[s.ResourceType] {
				t.Errorf("%s is swept before %s, which must go first", s.ResourceType, dep)
			}
		}
	}
}

// TestLeftovers: what a live test's client creates, archived or renamed since, and what it names, is
// deleted when it ends; what others made is kept.
func TestLeftovers(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: this test checks the clean-up against the emulator's store")
	}
	seedSweepable(t, e.Client, "others") // made by someone else: kept
	var l acctest.Leftovers
	c, err := buildkite.NewClient(buildkite.Config{BaseURL: e.URL, GraphQLURL: e.GraphQLURL, Organization: e.Org, Token: e.Token, HTTPClient: l.RecordCreates()})
	if err != nil {
		t.Fatal(err)
	}
	seedSweepable(t, c, "mine")
	// Made by Terraform (not recorded), left on purpose, named.
	if _, err := e.Client.Pipelines.Create(context.Background(), buildkite.PipelineCreate{
		Name: "left-on-purpose", Repository: "https://github.com/acme/app.git", Configuration: acctest.PtrTo("steps: []\n"),
	}); err != nil {
		t.Fatal(err)
	}
	sub := &acctest.TestEnv{T: t, Client: c, Leftovers: &l}
	sub.LeaveNoneNamed("buildkite_pipeline", "left-on-purpose")
	sub.RemoveLeftovers()
	if left := countSweepable(t, e.Client, "mine"); len(left) > 0 {
		t.Errorf("left after the test: %v", left)
	}
	if left := countSweepable(t, e.Client, "left-on-purpose"); len(left) > 0 {
		t.Errorf("the pipeline named to leaveNoneNamed is still there: %v", left)
	}
	others := countSweepable(t, e.Client, "others")
	if others["buildkite_cluster"] != 1 || others["buildkite_pipeline"] != 2 || others["buildkite_team"] != 1 || others["buildkite_registry"] != 1 ||
		others["buildkite_portal"] != 1 || others["buildkite_notification_service"] != 1 || others["buildkite_agent_token"] != 1 {
		t.Errorf("objects others made are gone: %v", others)
	}
	// Mine without a description went by its recorded ID; the others' stays.
	if services, err := e.Client.NotificationServices.List(context.Background()); err != nil || len(services) != 2 {
		t.Errorf("after the clean-up, %d notification services (%v), want the 2 others made", len(services), err)
	}
}

// countSwept counts, by type, what the sweepers would still remove.
func countSwept(t *testing.T, c *buildkite.Client) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, s := range acctest.Sweepers() {
		all, err := s.List(context.Background(), c)
		if err != nil {
			t.Fatalf("listing %s: %v", s.ResourceType, err)
		}
		for _, x := range all {
			if x.Tests() {
				out[s.ResourceType]++
			}
		}
	}
	return out
}

// decoys are objects whose names look like the tests' without being theirs, which a sweep must keep.
type decoys struct {
	c         *buildkite.Client
	clusters  []string // names
	teams     []string // slugs
	pipelines []string // slugs
	portals   []string // slugs
	rules     int
}

// seedDecoys makes a cluster "TF-ACC-upper", a team "Tf Acc Production" (slug tf-acc-production), a
// pipeline "tf_acc_underscore", a portal "Team stats" whose slug alone starts with the prefix, and a rule
// between a test's pipeline and the underscore one (it names an object that is not the tests').
func seedDecoys(t *testing.T, c *buildkite.Client) *decoys {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("seeding decoys: %v", err)
		}
	}
	d := &decoys{c: c}
	cl, err := c.Clusters.Create(ctx, buildkite.ClusterCreate{Name: "TF-ACC-upper"})
	must(err)
	d.clusters = append(d.clusters, cl.Name)
	team, err := c.Teams.Create(ctx, buildkite.TeamWrite{Name: "Tf Acc Production", Privacy: "visible", DefaultMemberRole: "member"})
	must(err)
	if team.Slug != "tf-acc-production" {
		t.Fatalf("the team's slug is %q; the decoy needs tf-acc-production", team.Slug)
	}
	d.teams = append(d.teams, team.Slug)
	steps := acctest.PtrTo("steps: []\n")
	under, err := c.Pipelines.Create(ctx, buildkite.PipelineCreate{Name: "tf_acc_underscore", Repository: "https://github.com/acme/app.git", Configuration: steps})
	must(err)
	d.pipelines = append(d.pipelines, under.Slug)
	ours, err := c.Pipelines.Create(ctx, buildkite.PipelineCreate{Name: acctest.TestPrefix + "rule-source", Repository: "https://github.com/acme/app.git", Configuration: steps})
	must(err)
	value, _ := json.Marshal(map[string]string{"source_pipeline": ours.ID, "target_pipeline": under.ID})
	_, err = c.Rules.Create(ctx, buildkite.RuleCreate{Type: "pipeline.trigger_build.pipeline", Value: value})
	must(err)
	d.rules = 0 // it goes with its source pipeline, a test's, once the rule sweeper has kept it
	p, err := c.Portals.Create(ctx, buildkite.PortalWrite{Name: "Team stats", Slug: acctest.TestPrefix + "team-stats", Query: "{ viewer { user { name } } }"})
	must(err)
	d.portals = append(d.portals, p.Slug)
	return d
}

// check fails the test unless every decoy is still there (the rule too: it names a pipeline no test made).
func (d *decoys) check(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	clusters, err := d.c.Clusters.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range d.clusters {
		if !slices.ContainsFunc(clusters, func(c buildkite.Cluster) bool { return c.Name == name }) {
			t.Errorf("cluster %q was swept", name)
		}
	}
	for _, slug := range d.teams {
		teams, err := d.c.Teams.List(ctx, buildkite.TeamListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(teams, func(x buildkite.Team) bool { return x.Slug == slug }) {
			t.Errorf("team %q was swept", slug)
		}
	}
	for _, slug := range d.pipelines {
		if _, err := d.c.Pipelines.Get(ctx, slug); err != nil {
			t.Errorf("pipeline %q was swept: %v", slug, err)
		}
	}
	for _, slug := range d.portals {
		if _, err := d.c.Portals.Get(ctx, slug); err != nil {
			t.Errorf("portal %q was swept: %v", slug, err)
		}
	}
	rules, err := d.c.Rules.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The kept seed's rule and the decoy rule stay.
	if len(rules) != 1+d.rules {
		t.Errorf("%d rules left, want %d: a rule naming a pipeline no test made was swept", len(rules), 1+d.rules)
	}
}

// TestSweepMatch: the name alone, case-sensitive, with the prefix exactly; a rule only when every object it
// names is the tests'.
func TestSweepMatch(t *testing.T) {
	for _, tc := range []struct {
		x    acctest.Sweepable
		want bool
	}{
		{acctest.Sweepable{Names: []string{"tf-acc-cluster-abc"}}, true},
		{acctest.Sweepable{Names: []string{"TF-ACC-upper"}}, false},
		{acctest.Sweepable{Names: []string{"Tf Acc Production", "tf-acc-production"}}, false},
		{acctest.Sweepable{Names: []string{"tf_acc_underscore"}}, false},
		{acctest.Sweepable{Names: []string{"Build stats", "tf-acc-portal"}}, false},
		{acctest.Sweepable{Names: []string{" tf-acc-space"}}, false},
		{acctest.Sweepable{}, false},
		{acctest.Sweepable{Refs: []string{"tf-acc-a", "tf-acc-b"}}, true},
		{acctest.Sweepable{Refs: []string{"tf-acc-a", "kept"}}, false},
		{acctest.Sweepable{Refs: []string{"tf-acc-a", ""}}, false},
		{acctest.Sweepable{Refs: []string{}}, false},
	} {
		if got := tc.x.Tests(); got != tc.want {
			t.Errorf("%v refs %v: tests() = %v, want %v", tc.x.Names, tc.x.Refs, got, tc.want)
		}
	}
}

// TestSweepConfirm: without SWEEP_CONFIRM a sweep lists, per type, what it would remove and deletes
// nothing; with it, it removes them.
func TestSweepConfirm(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("seeds objects to sweep")
	}
	seedSweepable(t, e.Client, acctest.TestPrefix+"confirm")
	before := countSwept(t, e.Client)
	var out bytes.Buffer
	listedN := 0
	for _, s := range acctest.SweepOrder() {
		n, err := s.Sweep(context.Background(), e.Client, false, &out)
		if err != nil {
			t.Fatal(err)
		}
		listedN += n
	}
	if after := countSwept(t, e.Client); !maps.Equal(before, after) {
		t.Fatalf("a sweep without confirmation deleted: before %v, after %v", before, after)
	}
	if listedN == 0 || !strings.Contains(out.String(), "sweep: buildkite_cluster: would remove 1 object(s):\n  tf-acc-confirm") {
		t.Errorf("the unconfirmed sweep did not list what it would remove (%d):\n%s", listedN, out.String())
	}
	if strings.Contains(out.String(), "removed ") {
		t.Errorf("the unconfirmed sweep says it removed something:\n%s", out.String())
	}
	removedN := 0
	for _, s := range acctest.SweepOrder() {
		n, err := s.Sweep(context.Background(), e.Client, true, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		removedN += n
	}
	if removedN != listedN {
		t.Errorf("the confirmed sweep removed %d, the listing said %d", removedN, listedN)
	}
	if left := countSwept(t, e.Client); len(left) > 0 {
		t.Errorf("left after the confirmed sweep: %v", left)
	}
}

// TestSweepListingShape: a server that answers listings it cannot have made (objects without IDs, an empty
// page that links to more, a body that is no array of objects) or another organization fails the sweep
// instead of reporting "removed 0".
func TestSweepListingShape(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		body, link string
	}{
		"items without ids":          {`[{"name":"tf-acc-x"}]`, ""},
		"empty page linking to more": {`[]`, `<https://api.buildkite.com/v2/organizations/acme/clusters?page=2>; rel="next"`},
		"array of strings":           {`["tf-acc-x"]`, ""},
	} {
		h := http.Header{}
		if tc.link != "" {
			h.Set("Link", tc.link)
		}
		if err := acctest.ListingShape([]byte(tc.body), h); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := acctest.ListingShape([]byte(`[]`), http.Header{}); err != nil {
		t.Errorf("an empty last page is refused: %v", err)
	}
	if err := acctest.ListingShape([]byte(`[{"id":"1"},{"uuid":"2"}]`), http.Header{}); err != nil {
		t.Errorf("a listing is refused: %v", err)
	}
	// A server that answers [] to everything: the organization's GET does not hold an organization.
	e := acctest.NewTestEnvWith(t, fakeserver.Options{}, func(http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`[]`))
		})
	})
	if err := acctest.ConfirmSweptOrganization(context.Background(), e.Client, e.Org); err == nil {
		t.Error("a server answering [] everywhere passed as the organization")
	}
	// Through the sweepers' transport, items without IDs fail the listing.
	e2 := acctest.NewTestEnvWith(t, fakeserver.Options{}, func(http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`[{"name":"tf-acc-x"}]`))
		})
	})
	c, err := buildkite.NewClient(buildkite.Config{BaseURL: e2.URL, Organization: e2.Org, Token: e2.Token, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: acctest.SweepTransport{Next: http.DefaultTransport}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := acctest.ListClusters(context.Background(), c); err == nil {
		t.Error("a listing of objects without IDs was taken")
	}
}
