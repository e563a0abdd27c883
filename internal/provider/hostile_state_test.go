package provider

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// Hostile states (issue 27): official workspaces whose states were edited by hand, or written by a provider
// version that stored something else, moved here with replace-provider. Where an ID cannot be read, names
// an object of another type, or disagrees with the uuid beside it, and where a required attribute is
// missing, every plan (with and without refresh) and every apply must fail with an error that names the
// instance and the attribute, plan nothing, send no write and never send the unreadable value.

// hostileCase is one workspace and how its state is spoiled.
type hostileCase struct {
	name string
	// add puts the objects in the workspace, as migrationCases' add functions do.
	add func(w *acctest.OfficialWorkspace)
	// spoil edits the instances of the state, once built.
	spoil func(w *acctest.OfficialWorkspace)
	// wants are what the errors must say: the address and attribute of each spoiled instance.
	wants []string
	// unsent is a value that must appear in no request's path.
	unsent string
	// intact checks, after the refused runs, that the objects are as they were.
	intact func(t *testing.T, w *acctest.OfficialWorkspace)
}

// clusterWithChildren is the cluster of finding 1 with its queue, agent token and secret.
func clusterWithChildren(w *acctest.OfficialWorkspace) {
	w.AddQueue()
	w.AddAgentToken()
	w.AddSecret()
}

// clusterChildrenIntact checks that the cluster keeps its queue, token and secret.
func clusterChildrenIntact(t *testing.T, w *acctest.OfficialWorkspace) {
	t.Helper()
	ctx := context.Background()
	if _, err := w.E.Client.Clusters.Get(ctx, w.Cluster.ID); err != nil {
		t.Errorf("the cluster is gone: %v", err)
	}
	if _, err := w.E.Client.Queues.Get(ctx, w.Cluster.ID, w.Queue.ID); err != nil {
		t.Errorf("the cluster's queue is gone: %v", err)
	}
	tokens, err := w.E.Client.ClusterTokens.List(ctx, w.Cluster.ID)
	if err != nil || len(tokens) != 1 {
		t.Errorf("the cluster's agent tokens = %d, %v; want its one token kept", len(tokens), err)
	}
	secrets, err := w.E.Client.ClusterSecrets.List(ctx, w.Cluster.ID)
	if err != nil || len(secrets) != 1 {
		t.Errorf("the cluster's secrets = %d, %v; want its one secret kept", len(secrets), err)
	}
}

// spoilAttrs returns a spoil function that sets (or, for a deleteAttr value, removes) attributes of the
// instance at address.
func spoilAttrs(address string, set map[string]any) func(w *acctest.OfficialWorkspace) {
	return func(w *acctest.OfficialWorkspace) {
		in := instance(w, address)
		for k, v := range set {
			if v == deleteAttr {
				in.Without = append(in.Without, k)
				continue
			}
			in.Attrs[k] = v
		}
	}
}

// deleteAttr, as a value for spoilAttrs, leaves the attribute out of the state.
const deleteAttr = "\x00delete"

// instance returns the workspace's instance at address, to spoil.
func instance(w *acctest.OfficialWorkspace, address string) *acctest.OfficialInstance {
	w.T.Helper()
	for i := range w.Instances {
		if w.Instances[i].Address == address {
			return &w.Instances[i]
		}
	}
	w.T.Fatalf("the workspace has no %s", address)
	return nil
}

// unreadableClusterIDs are the forms of finding 1: a number, bad base64, a GraphQL ID whose UUID is not
// one, a type name in lower case, and a type no object has.
var unreadableClusterIDs = map[string]func(clusterID string) any{
	"number":           func(string) any { return json.Number("12345") },
	"bad base64":       func(string) any { return "Q2x1c3Rlci0tLT%%%not-base64" },
	"not a uuid":       func(string) any { return acctest.B64("Cluster---not-a-uuid") },
	"lower-case type":  func(id string) any { return acctest.B64("cluster---" + id) },
	"made-up type":     func(id string) any { return acctest.B64("Widget---" + id) },
	"a pipeline's id":  func(id string) any { return kit.GraphQLID("Pipeline", id) },
	"a 100k character": func(string) any { return strings.Repeat("A", 100_000) },
}

func hostileCases() []hostileCase {
	var cases []hostileCase
	for form, id := range unreadableClusterIDs {
		cases = append(cases, hostileCase{
			name: "cluster id, " + form, add: clusterWithChildren,
			spoil: func(w *acctest.OfficialWorkspace) {
				spoilAttrs("buildkite_cluster.main", map[string]any{"id": id(w.Cluster.ID), "uuid": deleteAttr})(w)
			},
			wants:  []string{"buildkite_cluster.main", "Unreadable Resource State", "id "},
			intact: clusterChildrenIntact,
		})
	}
	cases = append(cases,
		hostileCase{
			name: "queue cluster_id unreadable", add: clusterWithChildren,
			spoil: func(w *acctest.OfficialWorkspace) {
				spoilAttrs("buildkite_cluster_queue.linux", map[string]any{"cluster_id": "Q2x1c3Rlci0tLTAx!!", "cluster_uuid": nil})(w)
			},
			wants: []string{"buildkite_cluster_queue.linux", "cluster_id", `"Q2x1c3Rlci0tLTAx!!"`}, unsent: "Q2x1c3Rlci0tLTAx",
			intact: clusterChildrenIntact,
		},
		hostileCase{
			name: "queue cluster_id of a pipeline", add: clusterWithChildren,
			spoil: func(w *acctest.OfficialWorkspace) {
				spoilAttrs("buildkite_cluster_queue.linux", map[string]any{"cluster_id": kit.GraphQLID("Pipeline", w.Cluster.ID)})(w)
			},
			wants:  []string{"buildkite_cluster_queue.linux", "cluster_id", "must name a Cluster", "the GraphQL ID of a Pipeline"},
			intact: clusterChildrenIntact,
		},
		hostileCase{
			name: "queue without key", add: clusterWithChildren,
			spoil: spoilAttrs("buildkite_cluster_queue.linux", map[string]any{"key": deleteAttr}),
			wants: []string{"buildkite_cluster_queue.linux", "key is missing"}, intact: clusterChildrenIntact,
		},
		hostileCase{
			name: "queue without cluster_id", add: clusterWithChildren,
			spoil: spoilAttrs("buildkite_cluster_queue.linux", map[string]any{"cluster_id": nil, "cluster_uuid": nil}),
			wants: []string{"buildkite_cluster_queue.linux", "cluster_id is missing"}, intact: clusterChildrenIntact,
		},
		hostileCase{
			name: "token and secret cluster_id unreadable", add: clusterWithChildren,
			spoil: func(w *acctest.OfficialWorkspace) {
				spoilAttrs("buildkite_cluster_agent_token.agents", map[string]any{"cluster_id": "42"})(w)
				spoilAttrs("buildkite_cluster_secret.deploy", map[string]any{"cluster_id": acctest.B64("Cluster---" + w.Cluster.ID + "x")})(w)
			},
			wants:  []string{"buildkite_cluster_agent_token.agents", "buildkite_cluster_secret.deploy", "cluster_id"},
			intact: clusterChildrenIntact,
		},
		hostileCase{
			name: "pipeline id unreadable", add: (*acctest.OfficialWorkspace).AddPipeline,
			spoil: spoilAttrs("buildkite_pipeline.app", map[string]any{"id": acctest.B64("Pipeline---not-a-uuid"), "uuid": deleteAttr}),
			wants: []string{"buildkite_pipeline.app", "id "}, intact: pipelineIntact,
		},
		hostileCase{
			name: "team id unreadable", add: (*acctest.OfficialWorkspace).AddTeam,
			spoil: spoilAttrs("buildkite_team.platform", map[string]any{"id": "platform", "uuid": nil}),
			wants: []string{"buildkite_team.platform", "id "}, unsent: "/teams/platform",
			intact: func(t *testing.T, w *acctest.OfficialWorkspace) {
				if _, err := w.E.Client.Teams.Get(context.Background(), w.Team.ID); err != nil {
					t.Errorf("the team is gone: %v", err)
				}
			},
		},
		// Finding 2: uuid names another pipeline, which the upgrade used to take, planning to rename it.
		hostileCase{
			name: "pipeline id and uuid disagree", add: (*acctest.OfficialWorkspace).AddPipeline,
			spoil: func(w *acctest.OfficialWorkspace) {
				other := w.E.PipelineNamed(w.E.Name("deploy"))
				spoilAttrs("buildkite_pipeline.app", map[string]any{"uuid": other.ID})(w)
			},
			wants: []string{"buildkite_pipeline.app", "and uuid names another"}, intact: pipelineIntact,
		},
		hostileCase{
			name: "cluster id and uuid disagree", add: clusterWithChildren,
			spoil: spoilAttrs("buildkite_cluster.main", map[string]any{"uuid": "0b0e2a8c-1d2e-4f3a-8b4c-5d6e7f8a9b0c"}),
			wants: []string{"buildkite_cluster.main", "and uuid names another"}, intact: clusterChildrenIntact,
		},
		hostileCase{
			name: "default queue queue_id of a cluster", add: (*acctest.OfficialWorkspace).AddDefaultQueue,
			spoil: func(w *acctest.OfficialWorkspace) {
				spoilAttrs("buildkite_cluster_default_queue.main", map[string]any{"queue_id": kit.GraphQLID("Cluster", w.Queue.ID)})(w)
			},
			wants: []string{"buildkite_cluster_default_queue.main", "queue_id", "must name a ClusterQueue"},
			intact: func(t *testing.T, w *acctest.OfficialWorkspace) {
				c, err := w.E.Client.Clusters.Get(context.Background(), w.Cluster.ID)
				if err != nil || c.DefaultQueueID == nil || *c.DefaultQueueID != w.Queue.ID {
					t.Errorf("the cluster's default queue changed: %v", err)
				}
			},
		},
	)
	return cases
}

// pipelineIntact checks that no pipeline was renamed, archived or deleted.
func pipelineIntact(t *testing.T, w *acctest.OfficialWorkspace) {
	t.Helper()
	pipelines, err := w.E.Client.Pipelines.List(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pipelines {
		if p.ID == w.Pipeline.ID && p.Name != w.Pipeline.Name {
			t.Errorf("pipeline %s is now named %q, was %q", p.ID, p.Name, w.Pipeline.Name)
		}
		if p.ArchivedAt != nil {
			t.Errorf("pipeline %s (%s) was archived", p.Slug, p.ID)
		}
	}
	if _, err := w.E.Client.Pipelines.Get(context.Background(), w.Pipeline.Slug); err != nil {
		t.Errorf("pipeline %s is gone: %v", w.Pipeline.Slug, err)
	}
}

func TestAccHostileState_refused(t *testing.T) {
	for _, tc := range hostileCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := acctest.NewTestEnv(t)
			ws := acctest.NewOfficialWorkspace(t, e)
			tc.add(ws)
			tc.spoil(ws)
			w := e.ReplaceProvider(t, e.OfficialProviderBlock()+ws.Config.String(), ws.State())
			before := e.RequestCount()
			w.ExpectRefused([]string{"plan", "-refresh=false"}, tc.wants...)
			w.ExpectRefused([]string{"plan"}, tc.wants...)
			out := w.ExpectRefused([]string{"apply", "-auto-approve"}, tc.wants...)
			if n := strings.Count(out, "Error: "); n != strings.Count(out, "Error: Unreadable Resource State") {
				t.Errorf("the apply failed with %d errors, not all of them about the state:\n%s", n, out)
			}
			expectNoWrites(t, e, before, tc.unsent)
			tc.intact(t, ws)
		})
	}
}

// expectNoWrites fails the test when the emulator was sent a write since the before'th request, or a
// request whose path holds unsent.
func expectNoWrites(t *testing.T, e *acctest.TestEnv, before int, unsent string) {
	t.Helper()
	if e.Live {
		return
	}
	requests := e.Server.Requests()
	if before > len(requests) {
		before = 0
	}
	for _, r := range requests[before:] {
		if r.Method != http.MethodGet {
			t.Errorf("a refused state sent %s %s", r.Method, r.Path)
		}
		if unsent != "" && strings.Contains(r.Path, unsent) {
			t.Errorf("an unreadable ID was sent: %s %s", r.Method, r.Path)
		}
	}
}

// One error per instance: a workspace whose every instance is spoiled fails naming each of them once.
func TestAccHostileState_oneErrorPerInstance(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	ws := acctest.NewOfficialWorkspace(t, e)
	ws.AddTeam()
	ws.AddCluster()
	ws.AddTemplate()
	spoilAttrs("buildkite_team.platform", map[string]any{"id": "7", "uuid": nil})(ws)
	spoilAttrs("buildkite_cluster.main", map[string]any{"id": acctest.B64("Cluster---7"), "uuid": nil})(ws)
	spoilAttrs("buildkite_pipeline_template.standard", map[string]any{"id": kit.GraphQLID("Pipeline", acctest.TestUUID), "uuid": nil})(ws)
	w := e.ReplaceProvider(t, e.OfficialProviderBlock()+ws.Config.String(), ws.State())
	for _, args := range [][]string{{"plan", "-refresh=false"}, {"plan"}} {
		out := w.ExpectRefused(args)
		for _, address := range []string{"buildkite_team.platform", "buildkite_cluster.main", "buildkite_pipeline_template.standard"} {
			if n := strings.Count(out, "with "+address+","); n != 1 {
				t.Errorf("terraform %s: %d errors name %s, want 1", strings.Join(args, " "), n, address)
			}
		}
		if n := strings.Count(out, "Error: "); n != 3 {
			t.Errorf("terraform %s: %d errors, want 3", strings.Join(args, " "), n)
		}
	}
}

// A state of this provider's current version, edited by hand: the upgraders never see it, so Read meets
// the unreadable ID. It is never sent, and the instance stays in state (finding 1 for states already
// moved): the cluster's own id, and a queue's reference to its cluster.
func TestAccHostileState_currentVersionKept(t *testing.T) {
	unreadable := acctest.B64("Cluster---not-a-uuid")
	for _, tc := range []struct {
		name    string
		attr    string // the attribute spoiled, wherever it holds the cluster's UUID
		address string // the instance whose Read meets it
		spoiled string
		want    string // what the error says of it
		sent    bool   // the value reaches the service (decoded), whose 404 then removes nothing
	}{
		{"cluster id", "id", "buildkite_cluster.main", unreadable, "id must be a UUID", false},
		{"queue cluster_id", "cluster_id", "buildkite_cluster_queue.linux", unreadable, "cluster_id must be a UUID", false},
		// A GraphQL ID of another type decodes to a UUID the service does not know: its 404 removes nothing.
		{"cluster id of a pipeline", "id", "buildkite_cluster.main", kit.GraphQLID("Pipeline", acctest.OtherUUID), "id must name a Cluster", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := acctest.NewTestEnv(t)
			ws := acctest.NewOfficialWorkspace(t, e)
			clusterWithChildren(ws)
			w := e.Migrate(t, e.OfficialProviderBlock()+ws.Config.String(), ws.State())
			statePath := filepath.Join(w.Dir, "terraform.tfstate")
			raw, err := os.ReadFile(statePath)
			if err != nil {
				t.Fatal(err)
			}
			spoiled := tc.spoiled
			edited := regexp.MustCompile(`"`+tc.attr+`": "`+regexp.QuoteMeta(ws.Cluster.ID)+`"`).ReplaceAll(raw, []byte(`"`+tc.attr+`": "`+spoiled+`"`))
			if string(edited) == string(raw) {
				t.Fatalf("the moved state holds no %s of the cluster's UUID", tc.attr)
			}
			if err := os.WriteFile(statePath, edited, 0o600); err != nil {
				t.Fatal(err)
			}
			before := e.RequestCount()
			wants := []string{"Unreadable ID in State", "with " + tc.address + ",", tc.want, strconvQuote(spoiled)}
			unsent := strings.TrimRight(spoiled, "=")
			if tc.sent {
				wants, unsent = append(wants, "says nothing about the object"), ""
			} else {
				wants = append(wants, "nothing was sent to the service")
			}
			for _, args := range [][]string{{"plan"}, {"apply", "-auto-approve"}} {
				w.ExpectRefused(args, wants...)
			}
			expectNoWrites(t, e, before, unsent)
			if a := w.StateAttributes(tc.address); a[tc.attr] != spoiled {
				t.Errorf("%s's %s in state = %v, want it kept as %q", tc.address, tc.attr, a[tc.attr], spoiled)
			}
			clusterChildrenIntact(t, ws)
		})
	}
}

func strconvQuote(s string) string { return `"` + s + `"` }

// Configurations and data sources: a GraphQL ID of the wrong type is refused at plan time.
func TestAccHostileState_wrongTypeInConfiguration(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	c, err := e.Client.Clusters.Create(context.Background(), buildkite.ClusterCreate{Name: e.Name("typed")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Client.Clusters.Delete(context.Background(), c.ID) })
	pipelineID, clusterID := kit.GraphQLID("Pipeline", c.ID), kit.GraphQLID("Cluster", c.ID)
	w := e.ReplaceProvider(t, e.OfficialProviderBlock(), acctest.OfficialState(t))
	for _, tc := range []struct{ name, body, want string }{
		{"cluster data source", `
data "buildkite_cluster" "x" {
  id = "` + pipelineID + `"
}
`, "must name a Cluster"},
		{"pipeline data source", `
data "buildkite_pipeline" "x" {
  id = "` + clusterID + `"
}
`, "must name a Pipeline"},
		{"test suite data source", `
data "buildkite_test_suite" "x" {
  id = "` + acctest.B64("Widget---"+c.ID) + `"
}
`, "must name a Suite"},
		{"resource reference", `
resource "buildkite_cluster_queue" "x" {
  cluster_id = "` + pipelineID + `"
  key        = "linux"
}
`, "must name a Cluster"},
		{"resource reference, unreadable", `
resource "buildkite_cluster_queue" "x" {
  cluster_id = "Cluster---` + c.ID + `"
  key        = "linux"
}
`, "or the GraphQL ID of a Cluster"},
	} {
		if err := os.WriteFile(filepath.Join(w.Dir, "main.tf"), []byte(e.OfficialProviderBlock()+tc.body), 0o600); err != nil {
			t.Fatal(err)
		}
		out := w.ExpectRefused([]string{"plan"}, tc.want)
		if strings.Contains(out, "Read complete") {
			t.Errorf("%s: an object was read through an ID of another type:\n%s", tc.name, out)
		}
	}
}
