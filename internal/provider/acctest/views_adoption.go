package acctest

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// An apply killed before it wrote its state (SIGKILL) leaves objects on the service that no state records.
// The next apply's create of such an object is refused because its name or key is taken; the error must
// name the object that holds it and give the import block that adopts it, and that block must work. The
// killed apply is simulated: the object is created through the API first, then a configuration creates it.

// takenCases is the table of types whose names or keys are unique, a view over the types' rows
// (typeTests.taken).
func takenCases() []TakenCase {
	return TableRows(func(r TypeTests) []TakenCase { return One(r.Taken) })
}

// RunAccResourcesCreateTakenNamesHolder applies each row's configuration, which the service refuses: the
// error names the holder and the import block, and applying that block adopts the object with nothing left
// to change.
func RunAccResourcesCreateTakenNamesHolder(t *testing.T) {
	t.Parallel()
	for _, tc := range takenCases() {
		t.Run(tc.ResourceType, func(t *testing.T) {
			t.Parallel()
			e := NewTestEnv(t)
			config, importID := tc.Setup(t, e)
			adopt := fmt.Sprintf("\nimport {\n  to = %s.test\n  id = %q\n}\n", tc.ResourceType, importID)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.Factories(),
				CheckDestroy:             e.CheckDestroyed(tc.ResourceType),
				Steps: []resource.TestStep{
					{
						Config: e.Config(config),
						ExpectError: Wrapped(fmt.Sprintf(`which Terraform does not track here: most likely an earlier apply created it and was stopped before it could record it. To manage that object with this configuration, adopt it: add this block, with `+"`to`"+` set to the address in the "with" line above, and apply again: import { to = %s.<name> id = %q }`,
							tc.ResourceType, importID)),
					},
					{Config: e.Config(config + adopt), ConfigPlanChecks: ExpectEmpty()},
				},
			})
		})
	}
}
