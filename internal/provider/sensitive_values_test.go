package provider

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	acc "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// sensitiveAttributes walks every resource schema of the provider and returns "<type>.<path>" of each
// attribute marked sensitive or write-only, nested ones included, with whether a configuration can set it.
func sensitiveAttributes(t *testing.T) map[string]bool {
	t.Helper()
	ctx := context.Background()
	out := map[string]bool{}
	for _, f := range New("test")().Resources(ctx) {
		r := f()
		var m resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "buildkite"}, &m)
		var s resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &s)
		var walk func(prefix string, attrs map[string]schema.Attribute)
		walk = func(prefix string, attrs map[string]schema.Attribute) {
			for name, a := range attrs {
				if a.IsSensitive() || a.IsWriteOnly() {
					out[m.TypeName+"."+prefix+name] = a.IsOptional() || a.IsRequired()
				}
				switch n := a.(type) {
				case schema.SingleNestedAttribute:
					walk(prefix+name+".", n.Attributes)
				case schema.ListNestedAttribute:
					walk(prefix+name+"[].", n.NestedObject.Attributes)
				case schema.SetNestedAttribute:
					walk(prefix+name+"[].", n.NestedObject.Attributes)
				case schema.MapNestedAttribute:
					walk(prefix+name+"{}.", n.NestedObject.Attributes)
				}
			}
		}
		walk("", s.Schema.Attributes)
	}
	return out
}

// sensitiveMarker is the value the configuration gives a sensitive attribute: unique, and found nowhere
// else in a log.
func sensitiveMarker(attr string) string {
	return "sens-" + strings.NewReplacer(".", "-", "_", "-", "[]", "", "{}", "").Replace(attr) + "-7f3a9c"
}

// sensitiveExempt are sensitive attributes the test cannot reach, each with the reason.
var sensitiveExempt = map[string]string{}

// TestAccSensitiveValues_neverLogged walks every sensitive or write-only attribute of every resource
// schema, applies a configuration that sets each one that a configuration can set (and creates the objects
// whose secrets the service gives), updates them, and finds none of their values in the TRACE log of the
// provider, requests and answers alike.
func TestAccSensitiveValues_neverLogged(t *testing.T) {
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("reads the provider's TRACE log of a run against the emulator")
	}
	logPath := filepath.Join(t.TempDir(), "trace.log")
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_ACC_LOG_PATH", logPath)

	attrs := sensitiveAttributes(t)
	m := sensitiveMarker
	config := func(v string) string {
		return fmt.Sprintf(`
resource "buildkite_cluster" "c" {
  name = %[1]q
}
resource "buildkite_cluster_agent_token" "t" {
  cluster_id  = buildkite_cluster.c.id
  description = "agents"
}
resource "buildkite_agent_token" "a" {
  description = %[1]q
}
resource "buildkite_cluster_secret" "value" {
  cluster_id = buildkite_cluster.c.id
  key        = "SENS_VALUE"
  value      = %[2]q
}
resource "buildkite_cluster_secret" "wo" {
  cluster_id       = buildkite_cluster.c.id
  key              = "SENS_WO"
  value_wo         = %[3]q
  value_wo_version = %[11]q
}
resource "buildkite_team" "t" {
  name                = %[1]q
  privacy             = "VISIBLE"
  default_member_role = "MEMBER"
  default_team        = false
}
resource "buildkite_test_suite" "s" {
  name           = %[1]q
  default_branch = "main"
  team_owner_id  = buildkite_team.t.id
}
resource "buildkite_registry" "r" {
  name      = %[1]q
  ecosystem = "ruby"
}
resource "buildkite_registry_token" "t" {
  registry_id = buildkite_registry.r.id
  description = "readers"
}
resource "buildkite_portal" "p" {
  slug  = %[1]q
  name  = %[1]q
  query = "{ viewer { user { name } } }"
}
resource "buildkite_notification_service" "datadog" {
  provider_type = "datadog_pipeline_visibility"
  description   = "datadog"
  datadog_pipeline_visibility = {
    api_key = %[4]q
  }
}
resource "buildkite_notification_service" "otel" {
  provider_type = "open_telemetry_tracing"
  description   = "otel"
  open_telemetry_tracing = {
    endpoint = "https://otel.example.com"
    headers  = { authorization = %[5]q, "x-other" = %[6]q }
  }
}
resource "buildkite_notification_service" "webhook" {
  provider_type = "webhook"
  description   = "webhook"
  webhook = {
    url    = "https://example.com/buildkite"
    events = ["build.finished"]
    token  = %[7]q
  }
}
resource "buildkite_notification_service" "webhook_wo" {
  provider_type = "webhook"
  description   = "webhook write-only"
  webhook = {
    url              = "https://example.com/buildkite"
    token_wo         = %[12]q
    token_wo_version = %[11]q
  }
}
resource "buildkite_notification_service" "datadog_wo" {
  provider_type = "datadog_pipeline_visibility"
  description   = "datadog write-only"
  datadog_pipeline_visibility = {
    api_key_wo         = %[13]q
    api_key_wo_version = %[11]q
  }
}
resource "buildkite_notification_service" "otel_wo" {
  provider_type = "open_telemetry_tracing"
  description   = "otel write-only"
  open_telemetry_tracing = {
    endpoint           = "https://otel.example.com"
    headers_wo         = { authorization = %[14]q }
    headers_wo_version = %[11]q
  }
}
resource "buildkite_notification_service" "eventbridge" {
  provider_type = "aws_event_bridge"
  description   = "eventbridge"
  aws_event_bridge = {
    aws_region     = "us-east-1"
    aws_account_id = %[8]q
  }
}
`, e.Name("sens"), m("buildkite_cluster_secret.value")+v, m("buildkite_cluster_secret.value_wo")+v,
			m("buildkite_notification_service.datadog_pipeline_visibility.api_key")+v,
			"Bearer "+m("buildkite_notification_service.open_telemetry_tracing.headers")+v,
			m("buildkite_notification_service.open_telemetry_tracing.headers")+"-other"+v,
			m("buildkite_notification_service.webhook.token")+v,
			accountID(v), "", "", "v"+v, // the version changes with the value
			m("buildkite_notification_service.webhook.token_wo")+v,
			m("buildkite_notification_service.datadog_pipeline_visibility.api_key_wo")+v,
			m("buildkite_notification_service.open_telemetry_tracing.headers_wo")+v)
	}
	// Which configuration line sets which attribute; the computed ones come from state after apply.
	configured := map[string][]string{
		"buildkite_cluster_secret.value":                                     {m("buildkite_cluster_secret.value")},
		"buildkite_cluster_secret.value_wo":                                  {m("buildkite_cluster_secret.value_wo")},
		"buildkite_notification_service.datadog_pipeline_visibility.api_key": {m("buildkite_notification_service.datadog_pipeline_visibility.api_key")},
		"buildkite_notification_service.open_telemetry_tracing.headers": {
			m("buildkite_notification_service.open_telemetry_tracing.headers"), m("buildkite_notification_service.open_telemetry_tracing.headers") + "-other"},
		"buildkite_notification_service.webhook.token":                   {m("buildkite_notification_service.webhook.token")},
		"buildkite_notification_service.aws_event_bridge.aws_account_id": nil, // accountID(round)
		"buildkite_notification_service.webhook.token_wo":                {m("buildkite_notification_service.webhook.token_wo")},
		"buildkite_notification_service.datadog_pipeline_visibility.api_key_wo": {
			m("buildkite_notification_service.datadog_pipeline_visibility.api_key_wo")},
		"buildkite_notification_service.open_telemetry_tracing.headers_wo": {m("buildkite_notification_service.open_telemetry_tracing.headers_wo")},
	}
	fromState := map[string]string{
		"buildkite_cluster_agent_token.token": "buildkite_cluster_agent_token.t",
		"buildkite_agent_token.token":         "buildkite_agent_token.a",
		"buildkite_test_suite.api_token":      "buildkite_test_suite.s",
		"buildkite_registry_token.token":      "buildkite_registry_token.t",
		"buildkite_portal.token":              "buildkite_portal.p",
	}
	var missing []string
	for a := range attrs {
		_, c := configured[a]
		_, s := fromState[a]
		if !c && !s && sensitiveExempt[a] == "" {
			missing = append(missing, a)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		t.Fatalf("sensitive attributes this test does not set or read: %v; add each to the configuration", missing)
	}

	var stateSecrets []string
	keep := func(s *terraform.State) error {
		for attr, addr := range fromState {
			rs, ok := s.RootModule().Resources[addr]
			if !ok {
				return fmt.Errorf("%s not in state", addr)
			}
			name := attr[strings.LastIndex(attr, ".")+1:]
			v := rs.Primary.Attributes[name]
			if v == "" {
				return fmt.Errorf("%s.%s is empty: the test would find nothing", addr, name)
			}
			stateSecrets = append(stateSecrets, v)
		}
		return nil
	}
	acc.Test(t, acc.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []acc.TestStep{
			{Config: e.Config(config("1")), Check: keep},
			{Config: e.Config(config("2")), Check: keep}, // every configured secret changed: updates
		},
	})

	secrets := stateSecrets
	for _, v := range []string{"1", "2"} {
		for _, list := range configured {
			for _, s := range list {
				secrets = append(secrets, s+v)
			}
		}
		secrets = append(secrets, accountID(v))
	}
	f, err := os.Open(logPath)
	if err != nil {
		t.Fatalf("the TRACE log: %v", err)
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	bodies := 0
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, "] buildkite: ") && !strings.Contains(line, "] sdk.") {
			continue // the test harness's and Terraform's own lines (the harness logs the configuration)
		}
		if strings.Contains(line, "buildkite API request body") {
			bodies++
		}
		for _, s := range secrets {
			if strings.Contains(line, s) {
				t.Errorf("the TRACE log holds the secret %q: %.400s", s, line)
			}
		}
	}
	if bodies < 10 {
		t.Fatalf("%d request bodies in the TRACE log: the test would pass without a log", bodies)
	}
}

// accountID is a 12-digit AWS account ID that differs per round.
func accountID(round string) string {
	return "9876543210" + fmt.Sprintf("%02s", round)
}
