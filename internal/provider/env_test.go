package provider

import (
	"os"
	"strings"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// TestShortLivedChildren: the processes the tests start collect no garbage below 384 MiB and run on one
// core, unless the caller set any of the three variables, which then stand as given.
func TestShortLivedChildren(t *testing.T) {
	var keys []string
	for _, kv := range acctest.ChildRuntime {
		k, _, _ := strings.Cut(kv, "=")
		keys = append(keys, k)
	}
	unsetAll := func() {
		for _, k := range keys {
			t.Setenv(k, "") // restores the variable when the test ends
			_ = os.Unsetenv(k)
		}
	}
	show := func() string {
		var out []string
		for _, k := range keys {
			v, ok := os.LookupEnv(k)
			if !ok {
				v = "(unset)"
			}
			out = append(out, k+"="+v)
		}
		return strings.Join(out, " ")
	}
	unsetAll()
	acctest.ShortLivedChildren()
	if got, want := show(), "GOGC=off GOMEMLIMIT=384MiB GOMAXPROCS=1"; got != want {
		t.Errorf("with none set: %s, want %s", got, want)
	}
	unsetAll()
	t.Setenv("GOMAXPROCS", "2")
	acctest.ShortLivedChildren()
	if got, want := show(), "GOGC=(unset) GOMEMLIMIT=(unset) GOMAXPROCS=2"; got != want {
		t.Errorf("with GOMAXPROCS=2 set: %s, want %s", got, want)
	}
}
