package acctest

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// Comparing what the service holds with what the state records: after faults or an interrupted apply, every
// object the service lists must be in state (no orphan, no duplicate) and every one in state on the
// service. Objects are compared by ID, kind by kind.

// objectsByType are IDs by resource type.
type ObjectsByType map[string][]string

func (o ObjectsByType) Add(typ, id string) { o[typ] = append(o[typ], id) }

// stateObjects are the managed resources of a state, by type.
func stateObjects(s *terraform.State) ObjectsByType {
	inState := ObjectsByType{}
	for addr, rs := range s.RootModule().Resources {
		if strings.HasPrefix(addr, "data.") || !strings.HasPrefix(rs.Type, "buildkite_") {
			continue
		}
		id := rs.Primary.Attributes["id"]
		if _, hasID := rs.Primary.Attributes["id"]; !hasID {
			id = rs.Primary.Attributes["uuid"] // a type without id, such as a portal
		}
		inState.Add(rs.Type, id)
	}
	return inState
}

// ServiceObjects lists what the service holds of the kinds whose IDs the comparison knows (serviceStates).
func ServiceObjects(ctx context.Context, c *buildkite.Client) (ObjectsByType, error) {
	listed := ObjectsByType{}
	for typ, list := range serviceStates {
		ids, err := list(ctx, c)
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", typ, err)
		}
		for _, id := range ids {
			listed.Add(typ, id)
		}
	}
	return listed, nil
}

// serviceIDs are the IDs of a listing, as the state records them, or its error.
func ServiceIDs[T any](all []T, err error, id func(T) string) ([]string, error) {
	if err != nil {
		return nil, err
	}
	out := make([]string, len(all))
	for i, x := range all {
		out[i] = id(x)
	}
	return out, nil
}

// childIDs are the IDs of the children of every parent, as the state records them.
func ChildIDs[P, T any](parents []P, err error, list func(P) ([]T, error), id func(T) string) ([]string, error) {
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range parents {
		all, err := list(p)
		ids, err := ServiceIDs(all, err, id)
		if err != nil {
			return nil, err
		}
		out = append(out, ids...)
	}
	return out, nil
}

// compareObjects fails, naming each kind, where the service and the state do not hold the same IDs. Only
// the kinds serviceObjects lists are compared.
func CompareObjects(listed, inState ObjectsByType) error {
	var problems []string
	for typ := range serviceListed() {
		got, want := listed[typ], inState[typ]
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			problems = append(problems, fmt.Sprintf("%s: the service has %d (%v), the state %d (%v)", typ, len(got), got, len(want), want))
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return fmt.Errorf("the service and the state disagree:\n%s", strings.Join(problems, "\n"))
	}
	return nil
}

// serviceListed are the kinds serviceObjects lists.
func serviceListed() map[string]bool {
	out := map[string]bool{}
	for typ := range serviceStates {
		out[typ] = true
	}
	return out
}

// checkServiceMatchesState compares, kind by kind, the objects the service lists with those in state.
func (e *TestEnv) CheckServiceMatchesState(s *terraform.State) error {
	listed, err := ServiceObjects(context.Background(), e.Client)
	if err != nil {
		return err
	}
	return CompareObjects(listed, stateObjects(s))
}
