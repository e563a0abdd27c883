package provider

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// lostSecretCase is a type whose secret only the create answer carries, created through REST with a 201
// (what the emulator's DropCreates loses). Not here: an unclustered agent token is created through GraphQL,
// and a registry token's create answers 200 (the client's tests lose those answers).
type lostSecretCase struct {
	name, typ, kind, secret string
	// path tells the type's create POST from every other request; item the path of one of its objects.
	path func(*http.Request) bool
	item func(path string) bool
	// config is the configuration with the instances listed (each the block's label), prefix naming them.
	config func(prefix string, instances ...string) string
}

var lostSecretCases = []lostSecretCase{
	{
		name: "portal", typ: "buildkite_portal", kind: "Portal", secret: "token",
		path: func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/portals") },
		item: func(p string) bool { return strings.Contains(p, "/portals/") },
		config: func(prefix string, instances ...string) string {
			out := ""
			for _, in := range instances {
				out += fmt.Sprintf("\nresource \"buildkite_portal\" %q {\n  slug  = %q\n  name  = %q\n  query = \"{ viewer { user { name } } }\"\n}\n", in, prefix+"-"+in, in)
			}
			return out
		},
	},
	{
		name: "cluster agent token", typ: "buildkite_cluster_agent_token", kind: "Cluster Agent Token", secret: "token",
		path: func(r *http.Request) bool {
			return strings.Contains(r.URL.Path, "/clusters/") && strings.HasSuffix(r.URL.Path, "/tokens")
		},
		item: func(p string) bool { return strings.Contains(p, "/clusters/") && strings.Contains(p, "/tokens/") },
		config: func(prefix string, instances ...string) string {
			out := fmt.Sprintf("resource \"buildkite_cluster\" \"a\" {\n  name = %q\n}\n", prefix)
			for _, in := range instances {
				out += fmt.Sprintf("\nresource \"buildkite_cluster_agent_token\" %q {\n  cluster_id  = buildkite_cluster.a.id\n  description = %q\n}\n", in, prefix+"-"+in)
			}
			return out
		},
	},
	{
		name: "test suite", typ: "buildkite_test_suite", kind: "Test Suite", secret: "api_token",
		path: func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/suites") },
		item: func(p string) bool { return strings.Contains(p, "/suites/") },
		config: func(prefix string, instances ...string) string {
			out := fmt.Sprintf("resource \"buildkite_team\" \"owners\" {\n  name                = %q\n  privacy             = \"VISIBLE\"\n  default_member_role = \"MEMBER\"\n  default_team        = false\n}\n", prefix)
			for _, in := range instances {
				out += fmt.Sprintf("\nresource \"buildkite_test_suite\" %q {\n  name           = %q\n  default_branch = \"main\"\n  team_owner_id  = buildkite_team.owners.id\n}\n", in, prefix+"-"+in)
			}
			return out
		},
	},
}

// TestAccLostCreateAnswers: for each type whose secret is in its create answer alone. With that answer lost
// once, the apply deletes what the create made and creates it once more, exactly once, and records its
// secret; lost twice, the apply fails saying why, with the object
// tainted in state (the next plan replaces it), never a silent null secret. The emulator then holds
// exactly what the state does.
func TestAccLostCreateAnswers(t *testing.T) {
	t.Parallel()
	for _, c := range lostSecretCases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			faults, lose := lostCreates(c.path)
			e := newTestEnvWith(t, fakeserver.Options{Faults: faults})
			if e.live {
				t.Skip("faults are an emulator setting")
			}
			prefix := e.name("lost")
			once, twice := c.typ+".once", c.typ+".twice"
			deletes := func() int {
				n := 0
				for _, r := range e.server.Requests() {
					if r.Method == http.MethodDelete && c.item(r.Path) {
						n++
					}
				}
				return n
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.factories(),
				CheckDestroy:             e.checkDestroyed(c.typ),
				Steps: []resource.TestStep{
					{
						PreConfig: func() { lose(1) },
						Config:    e.config(c.config(prefix, "once")),
						Check: resource.ComposeAggregateTestCheckFunc(
							resource.TestCheckResourceAttrSet(once, c.secret),
							e.checkExists(once),
							func(*terraform.State) error {
								if fc := e.server.FaultCounts(); fc.ActedCreates() != 1 {
									return fmt.Errorf("faults %+v: one lost create answer expected", fc)
								}
								if n := deletes(); n != 1 {
									return fmt.Errorf("%d deleted, want exactly the one the re-create replaced", n)
								}
								return nil
							},
							e.checkServiceMatchesState,
						),
						ConfigPlanChecks: expectEmpty(),
					},
					{
						PreConfig:   func() { lose(2) },
						Config:      e.config(c.config(prefix, "once", "twice")),
						ExpectError: wrapped("Secret of " + c.kind + " Lost"),
					},
					{
						// What the second create made is in state, tainted: replaced, and its secret obtained.
						PreConfig: func() { lose(0) },
						Config:    e.config(c.config(prefix, "once", "twice")),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(twice, plancheck.ResourceActionDestroyBeforeCreate),
							plancheck.ExpectResourceAction(once, plancheck.ResourceActionNoop),
						}},
						Check: resource.ComposeAggregateTestCheckFunc(
							resource.TestCheckResourceAttrSet(twice, c.secret),
							e.checkExists(twice),
							e.checkServiceMatchesState,
						),
					},
				},
			})
		})
	}
}

// lostCreates is emulator faults that lose the answers of the next n creates (POSTs) that match, after the
// emulator acted on them (DropCreates, sparing every other request), n set by the returned function.
func lostCreates(match func(*http.Request) bool) (fakeserver.Faults, func(n int32)) {
	var budget atomic.Int32
	return fakeserver.Faults{DropCreates: 1.0, Seed: 3, Except: func(r *http.Request) bool {
		if r.Method != http.MethodPost || !match(r) {
			return true
		}
		return budget.Add(-1) < 0
	}}, budget.Store
}
