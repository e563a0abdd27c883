package provider

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// count429 counts the requests the emulator answered 429.
func count429(srv *fakeserver.Server) int64 { return srv.RequestCounts()[http.StatusTooManyRequests] }

// TestAccProvider_pacingDrawsNo429: an apply and a destroy of 60 objects under 20 requests per 5 s: the
// provider paces itself from the RateLimit-* headers, so the emulator never has to refuse a request.
func TestAccProvider_pacingDrawsNo429(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnvWith(t, fakeserver.Options{RateLimit: 20, RateLimitWindow: 5 * time.Second})
	if e.Live {
		t.Skip("the rate limit is an emulator setting")
	}
	cfg := fmt.Sprintf(`
resource "buildkite_cluster" "test" {
  name = %q
}

resource "buildkite_cluster_queue" "q" {
  count      = 59
  cluster_id = buildkite_cluster.test.id
  key        = "q${count.index}"
}
`, e.Name("paced"))
	var served int64
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy: func(s *terraform.State) error {
			if n := count429(e.Server); n != 0 {
				return fmt.Errorf("the apply and destroy drew %d × 429", n)
			}
			return e.CheckDestroyed("buildkite_cluster_queue")(s)
		},
		Steps: []resource.TestStep{{
			Config: e.Config(cfg),
			Check: func(*terraform.State) error {
				for _, n := range e.Server.RequestCounts() {
					served += n
				}
				if served < 60 {
					return fmt.Errorf("only %d requests: the test no longer exceeds the limit", served)
				}
				if n := count429(e.Server); n != 0 {
					return fmt.Errorf("the apply drew %d × 429 in %d requests", n, served)
				}
				return nil
			},
		}},
	})
	t.Logf("%d requests for the apply under a limit of 20 per 5s, none refused", served)
}
