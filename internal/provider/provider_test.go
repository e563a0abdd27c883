package provider

import (
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

func TestProvider_configurationErrors(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	body := `resource "buildkite_cluster" "c" { name = "x" }`
	cases := map[string]struct {
		provider string
		want     string
	}{
		"empty token":     {`api_token = "" ` + "\n" + `organization = "acme"` + "\n" + `rest_url = "` + e.URL + `"`, `Missing Buildkite API Token`},
		"empty org":       {`api_token = "t"` + "\n" + `organization = ""` + "\n" + `rest_url = "` + e.URL + `"`, `Missing Buildkite Organization`},
		"bad rest_url":    {`api_token = "t"` + "\n" + `organization = "acme"` + "\n" + `rest_url = "not a url"`, `Invalid Buildkite rest_url`},
		"retries too big": {`api_token = "t"` + "\n" + `organization = "acme"` + "\n" + `max_retries = 500`, `max_retries`},
		"wrong token": {`api_token = "nope"` + "\n" + `organization = "acme"` + "\n" + `rest_url = "` + e.URL + `"` + "\n" + `max_retries = 0`,
			`Invalid Buildkite API Token[\s\S]*401`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.Factories(),
				Steps: []resource.TestStep{{
					Config:      "provider \"buildkite\" {\n" + tc.provider + "\n}\n" + body,
					ExpectError: regexp.MustCompile(tc.want),
				}},
			})
		})
	}
}

// TestAccProvider_rateLimited applies a configuration that needs more requests than the emulator's rate
// limit allows in one window: the client must wait for the window to reset rather than fail.
func TestAccProvider_rateLimited(t *testing.T) {
	t.Parallel()
	const limit = 4
	e := acctest.NewTestEnvWith(t, fakeserver.Options{RateLimit: limit, RateLimitWindow: 2 * time.Second})
	cfg := `
resource "buildkite_cluster" "test" {
  name = "` + e.Name("rate-limited") + `"
}

resource "buildkite_cluster_queue" "q" {
  count      = 6
  cluster_id = buildkite_cluster.test.id
  key        = "q${count.index}"
}
`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{{
			Config: e.Config(cfg),
			Check: func(*terraform.State) error {
				if e.Live {
					return nil
				}
				reqs := e.Server.Requests()
				if len(reqs) <= limit {
					return fmt.Errorf("only %d requests: the test no longer exceeds the limit of %d", len(reqs), limit)
				}
				refused := 0
				for _, r := range reqs {
					if r.Status == http.StatusTooManyRequests {
						refused++
					}
				}
				t.Logf("%d requests under a limit of %d per window, %d answered 429 and retried", len(reqs), limit, refused)
				return nil
			},
		}},
	})
}
