package acctest

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	tfacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// testKind tells the acceptance tests how to find and delete the object behind one resource type, in the
// emulator's store and on the real service. Each resource's test file registers its kind in init.
type TestKind struct {
	// fake is the emulator's kind, and storeKey builds its key from the resource's state attributes
	// ("<parent>/<child>" for nested objects, so that a child of another parent does not count).
	Fake     fakeserver.Kind
	StoreKey func(attrs map[string]string) string
	// get and del reach the object through the API in live mode; get returns a 404 *buildkite.Error once
	// it is gone.
	Get func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error
	Del func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error
}

var testKinds = map[string]TestKind{}

// registerTestKind makes a resource type known to checkDestroyed, checkExists and removeOutside.
func RegisterTestKind(resourceType string, k TestKind) {
	if _, dup := testKinds[resourceType]; dup {
		panic("test kind registered twice: " + resourceType)
	}
	testKinds[resourceType] = k
}

// byID is the store key of a top-level object: its ID.
func ByID(attrs map[string]string) string { return attrs["id"] }

// byParent returns the store key of a nested object: "<parent attribute>/<id>", the parent by UUID even
// where the state names it by GraphQL ID.
func ByParent(parentAttr string) func(map[string]string) string {
	return func(attrs map[string]string) string { return kit.CanonicalID(attrs[parentAttr]) + "/" + attrs["id"] }
}

func kindOf(resourceType string) (TestKind, error) {
	k, ok := testKinds[resourceType]
	if !ok {
		known := make([]string, 0, len(testKinds))
		for name := range testKinds {
			known = append(known, name)
		}
		sort.Strings(known)
		return k, fmt.Errorf("no test kind registered for %s (known: %s)", resourceType, strings.Join(known, ", "))
	}
	return k, nil
}

// exists tells whether the object behind a resource's state attributes is still there.
func (e *TestEnv) Exists(resourceType string, attrs map[string]string) (bool, error) {
	k, err := kindOf(resourceType)
	if err != nil {
		return false, err
	}
	if !e.Live {
		return e.Server.Store().Exists(k.Fake, e.Org, k.StoreKey(attrs)), nil
	}
	err = k.Get(context.Background(), e.Client, attrs)
	if buildkite.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

// remove deletes the object behind a resource, as someone outside Terraform would.
func (e *TestEnv) remove(resourceType string, attrs map[string]string) error {
	k, err := kindOf(resourceType)
	if err != nil {
		return err
	}
	if !e.Live {
		if key := k.StoreKey(attrs); !e.Server.Store().Remove(k.Fake, e.Org, key) {
			return fmt.Errorf("%s %s was not in the emulator's store", resourceType, key)
		}
		return nil
	}
	return k.Del(context.Background(), e.Client, attrs)
}

// checkDestroyed returns a CheckDestroy that fails while any resource of the type is still there.
func (e *TestEnv) CheckDestroyed(resourceType string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		for _, rs := range s.RootModule().Resources {
			if rs.Type != resourceType {
				continue
			}
			found, err := e.Exists(resourceType, rs.Primary.Attributes)
			if err != nil {
				return err
			}
			if found {
				return fmt.Errorf("%s %s still exists after destroy", resourceType, rs.Primary.ID)
			}
		}
		return nil
	}
}

// checkExists fails unless the object behind a resource in state exists.
func (e *TestEnv) CheckExists(address string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[address]
		if !ok {
			return fmt.Errorf("%s is not in state", address)
		}
		found, err := e.Exists(rs.Type, rs.Primary.Attributes)
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("%s (%s) is in state but not on the service", address, rs.Primary.ID)
		}
		return nil
	}
}

// removeOutside returns a check that deletes the object behind a resource, as someone outside Terraform would.
func (e *TestEnv) RemoveOutside(address string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[address]
		if !ok {
			return fmt.Errorf("%s is not in state", address)
		}
		return e.remove(rs.Type, rs.Primary.Attributes)
	}
}

// name returns base with a random suffix, so that tests running at once against one real organization
// (or one emulator) never collide.
func (e *TestEnv) Name(base string) string {
	if e.StableNames {
		return base
	}
	return fmt.Sprintf("tf-acc-%s-%s", base, tfacctest.RandString(6))
}

// importSteps imports the resource at address twice after the steps before have applied it: with the
// import command and ImportStateVerify (ignoring what the service cannot return, such as secrets), and with
// an import block and -generate-config-out, whose generated configuration must plan empty.
func ImportSteps(address string, id resource.ImportStateIdFunc, ignore ...string) []resource.TestStep {
	return []resource.TestStep{
		{
			ResourceName:            address,
			ImportState:             true,
			ImportStateIdFunc:       id,
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: ignore,
		},
		GenerateConfigStep(address, id),
	}
}

// generateConfigStep imports the resource at address with an import block and -generate-config-out; the
// step fails unless the plan with the generated configuration is empty.
func GenerateConfigStep(address string, id resource.ImportStateIdFunc) resource.TestStep {
	return resource.TestStep{
		ResourceName:      address,
		ImportState:       true,
		ImportStateKind:   resource.ImportBlockWithID,
		ImportStateIdFunc: id,
		GenerateConfig:    true,
	}
}

// steps joins groups of steps, so that importSteps can stand among the others.
func Steps(groups ...[]resource.TestStep) []resource.TestStep {
	var all []resource.TestStep
	for _, g := range groups {
		all = append(all, g...)
	}
	return all
}

// step wraps one step for steps.
func Step(s resource.TestStep) []resource.TestStep { return []resource.TestStep{s} }

// importID builds an import ID from attributes of a resource in state, joined by "/".
func ImportID(address string, attrs ...string) resource.ImportStateIdFunc {
	return func(s *terraform.State) (string, error) {
		rs, ok := s.RootModule().Resources[address]
		if !ok {
			return "", fmt.Errorf("%s is not in state", address)
		}
		parts := make([]string, len(attrs))
		for i, a := range attrs {
			v, ok := rs.Primary.Attributes[a]
			if !ok {
				return "", fmt.Errorf("%s has no attribute %q", address, a)
			}
			parts[i] = v
		}
		return strings.Join(parts, "/"), nil
	}
}

// wrapped matches text as Terraform prints it in a diagnostic, where any space may have become a line break.
func Wrapped(text string) *regexp.Regexp {
	return regexp.MustCompile(strings.ReplaceAll(regexp.QuoteMeta(text), " ", `\s+`))
}

// onlyError matches Terraform's output when it holds exactly one error, whose text matches text: the
// output must not hold "Error:" anywhere else, not even within a gap ([\s\S]*) of text.
func OnlyError(text string) *regexp.Regexp {
	const noError = `(?:[^E]|E[^r]|Er[^r]|Err[^o]|Erro[^r]|Error[^:])*`
	return regexp.MustCompile(`\A` + noError + `Error: ` + strings.ReplaceAll(text, `[\s\S]*`, noError) + noError + `\z`)
}

// disappears is the test of a resource deleted outside Terraform: applied, deleted behind Terraform's back,
// then planned for creation and created again by the next apply.
func (e *TestEnv) Disappears(address, body string) {
	e.T.Helper()
	cfg := e.Config(body)
	resourceType, _, _ := strings.Cut(address, ".")
	resource.Test(e.T, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed(resourceType),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              resource.ComposeTestCheckFunc(e.CheckExists(address), e.RemoveOutside(address)),
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionCreate)},
				},
				Check: e.CheckExists(address),
			},
		},
	})
}

// expectEmpty checks that the plan after the step's apply and refresh is empty.
func ExpectEmpty() resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
}

// inPlace checks that the step updates the resource at address in place, and that the plan after the
// apply is empty.
func InPlace(address string) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{
		PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate)},
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
	}
}

// envMemberEmail names, in live mode, the member tests add to teams.
const EnvMemberEmail = "BUILDKITE_ACC_MEMBER_EMAIL"

// liveMemberEmail is the email of a member the live tests may add to teams: BUILDKITE_ACC_MEMBER_EMAIL,
// or else the token's own user (GET /v2/access-token gives its name and email; where it gives an ID
// instead of the email, the members listing has the email).
func (e *TestEnv) liveMemberEmail() string {
	e.T.Helper()
	if v := os.Getenv(EnvMemberEmail); v != "" {
		return v
	}
	ctx := context.Background()
	tok, err := e.Client.AccessToken.Get(ctx)
	if err != nil {
		e.T.Fatalf("%s is unset and the token's own user is unknown: %v", EnvMemberEmail, err)
	}
	switch {
	case tok.User == nil:
		e.T.Fatalf("%s is unset and GET /v2/access-token names no user", EnvMemberEmail)
	case tok.User.Email != "":
		return tok.User.Email
	}
	members, err := e.Client.Organizations.ListMembers(ctx)
	if err != nil {
		e.T.Fatalf("%s is unset and the members listing failed: %v", EnvMemberEmail, err)
	}
	for _, m := range members {
		if m.ID == tok.User.ID && m.ID != "" && m.Email != "" {
			return m.Email
		}
	}
	e.T.Fatalf("%s is unset and the token's user (%q, %s) is not in the members listing", EnvMemberEmail, tok.User.Name, tok.User.ID)
	return ""
}

// ours checks a list data source's result: exactly n elements in the emulator, which holds only this
// test's objects, and on the real service, whose organization holds others too, at least an element whose
// key attribute is each of names (as many times as it is given).
func (e *TestEnv) Ours(n int, key string, names ...string) knownvalue.Check {
	if !e.Live {
		return knownvalue.ListSizeExact(n)
	}
	return holdsNamed{key, names}
}

// total checks a count a data source reports for a filter this test's objects alone match in the emulator:
// exactly n there, at least n on the real service, whose organization may hold other matches.
func (e *TestEnv) Total(n int64) knownvalue.Check {
	if !e.Live {
		return knownvalue.Int64Exact(n)
	}
	return knownvalue.Int64Func(func(v int64) error {
		if v < n {
			return fmt.Errorf("expected at least %d, got %d", n, v)
		}
		return nil
	})
}

// holdsNamed is the live form of ours.
type holdsNamed struct {
	key   string
	names []string
}

func (h holdsNamed) CheckValue(v any) error {
	list, ok := v.([]any)
	if !ok {
		return fmt.Errorf("expected a list, got %T", v)
	}
	want := map[string]int{}
	for _, n := range h.names {
		want[n]++
	}
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			if s, ok := m[h.key].(string); ok {
				want[s]--
			}
		}
	}
	for n, missing := range want {
		if missing > 0 {
			return fmt.Errorf("%d element(s) with %s %q missing from the list of %d", missing, h.key, n, len(list))
		}
	}
	return nil
}

func (h holdsNamed) String() string { return fmt.Sprintf("elements with %s %q", h.key, h.names) }

// listed checks a list data source's result: exactly the elements checks pass, in order, in the emulator;
// on the real service, whose organization holds other objects too, an element passing each check.
func (e *TestEnv) Listed(checks ...knownvalue.Check) knownvalue.Check {
	if !e.Live {
		return knownvalue.ListExact(checks)
	}
	return holdsEach(checks)
}

// holdsEach is the live form of listed.
type holdsEach []knownvalue.Check

func (h holdsEach) CheckValue(v any) error {
	list, ok := v.([]any)
	if !ok {
		return fmt.Errorf("expected a list, got %T", v)
	}
next:
	for _, c := range h {
		for _, x := range list {
			if c.CheckValue(x) == nil {
				continue next
			}
		}
		return fmt.Errorf("no element of the list of %d passes %s", len(list), c)
	}
	return nil
}

func (h holdsEach) String() string { return fmt.Sprintf("elements passing %d checks", len(h)) }
