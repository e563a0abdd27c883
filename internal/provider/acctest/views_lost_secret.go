package acctest

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

// lostSecretCases is the table of secrets only the create answer carries, a view over the types' rows (typeTests.lostSecret).
func lostSecretCases() []LostSecretCase {
	return TableRows(func(r TypeTests) []LostSecretCase { return One(r.LostSecret) })
}

// RunAccLostCreateAnswers: for each type whose secret is in its create answer alone. With that answer lost
// once, the apply deletes what the create made and creates it once more, exactly once, and records its
// secret; lost twice, the apply fails saying why, with the object
// tainted in state (the next plan replaces it), never a silent null secret. The emulator then holds
// exactly what the state does.
func RunAccLostCreateAnswers(t *testing.T) {
	t.Parallel()
	for _, c := range lostSecretCases() {
		t.Run(strings.ReplaceAll(c.Name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			faults, lose := lostCreates(c.Path)
			e := NewTestEnvWith(t, fakeserver.Options{Faults: faults})
			if e.Live {
				t.Skip("faults are an emulator setting")
			}
			prefix := e.Name("lost")
			once, twice := c.Typ+".once", c.Typ+".twice"
			deletes := func() int {
				n := 0
				for _, r := range e.Server.Requests() {
					if r.Method == http.MethodDelete && c.Item(r.Path) {
						n++
					}
				}
				return n
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.Factories(),
				CheckDestroy:             e.CheckDestroyed(c.Typ),
				Steps: []resource.TestStep{
					{
						PreConfig: func() { lose(1) },
						Config:    e.Config(c.Config(prefix, "once")),
						Check: resource.ComposeAggregateTestCheckFunc(
							resource.TestCheckResourceAttrSet(once, c.Secret),
							e.CheckExists(once),
							func(*terraform.State) error {
								if fc := e.Server.FaultCounts(); fc.ActedCreates() != 1 {
									return fmt.Errorf("faults %+v: one lost create answer expected", fc)
								}
								if n := deletes(); n != 1 {
									return fmt.Errorf("%d deleted, want exactly the one the re-create replaced", n)
								}
								return nil
							},
							e.CheckServiceMatchesState,
						),
						ConfigPlanChecks: ExpectEmpty(),
					},
					{
						PreConfig:   func() { lose(2) },
						Config:      e.Config(c.Config(prefix, "once", "twice")),
						ExpectError: Wrapped("Secret of " + c.Kind + " Lost"),
					},
					{
						// What the second create made is in state, tainted: replaced, and its secret obtained.
						PreConfig: func() { lose(0) },
						Config:    e.Config(c.Config(prefix, "once", "twice")),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(twice, plancheck.ResourceActionDestroyBeforeCreate),
							plancheck.ExpectResourceAction(once, plancheck.ResourceActionNoop),
						}},
						Check: resource.ComposeAggregateTestCheckFunc(
							resource.TestCheckResourceAttrSet(twice, c.Secret),
							e.CheckExists(twice),
							e.CheckServiceMatchesState,
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
