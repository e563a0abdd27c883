package acctest

import (
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// Faults aimed at one request (issue 39): the emulator's AimedFault, armed in a step's PreConfig, makes it
// lose or half-answer one chosen REST route or GraphQL operation; these helpers arm them, check that a test
// met its fault, and run the refresh that must keep an object whose GraphQL part failed.

// aim arms, from the step on, the one aimed fault given (and disarms any other).
func (e *TestEnv) Aim(faults ...fakeserver.AimedFault) func() {
	return func() {
		e.Server.ClearAimedFaults()
		for _, f := range faults {
			e.Server.AimFault(f)
		}
	}
}

// checkFaultsMet fails unless the emulator injected at least n faults of kind so far: a test of a fault
// that never met it proves nothing.
func (e *TestEnv) CheckFaultsMet(kind string, n int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		c := e.Server.FaultCounts()
		got := map[string]int64{
			fakeserver.FaultErrorsWithData: c.ErrorsWithData, fakeserver.FaultNullData: c.NullData, fakeserver.FaultNotFound: c.NotFound,
		}[kind]
		if got < int64(n) {
			return fmt.Errorf("the emulator injected %d %s faults, want at least %d: the test did not meet its fault", got, kind, n)
		}
		return nil
	}
}

// partKept is the refresh of an object REST serves while GraphQL answers op with kind: the refresh fails
// naming the object and what failed, and the resource stays in state (the step after shows it).
func (e *TestEnv) PartKept(op, kind string, title string) resource.TestStep {
	return resource.TestStep{
		PreConfig:    e.Aim(fakeserver.AimedFault{Operation: op, Kind: kind}),
		RefreshState: true,
		ExpectError:  regexp.MustCompile(`(?s)` + title + `.*GraphQL.*stays in state`),
	}
}
