package organization_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// testAccWebhookServiceConfig is a webhook service described by testPrefix+description: a service has no
// name, and its description is what the sweepers know it by.
func testAccWebhookServiceConfig(description string, enabled bool, extra, settings string) string {
	return fmt.Sprintf(`
resource "buildkite_notification_service" "test" {
  provider_type = "webhook"
  description   = %q
  enabled       = %t
%s
  webhook = {
    url    = "https://example.com/buildkite"
    events = ["build.finished"]
%s
  }
}
`, acctest.TestPrefix+description, enabled, extra, settings)
}

// serviceOnService checks what the service holds for the notification service in state.
func serviceOnService(e *acctest.TestEnv, check func(*buildkite.NotificationService) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		const address = "buildkite_notification_service.test"
		rs, ok := s.RootModule().Resources[address]
		if !ok {
			return fmt.Errorf("%s is not in state", address)
		}
		got, err := e.Client.NotificationServices.Get(context.Background(), rs.Primary.Attributes["id"])
		if err != nil {
			return err
		}
		return check(got)
	}
}

func TestAccNotificationServiceResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_notification_service.test"
	team, err := e.Client.Teams.Create(context.Background(), buildkite.TeamWrite{Name: e.Name("notified"), Privacy: "visible", DefaultMemberRole: "member"})
	if err != nil {
		t.Fatal(err)
	}
	upperTeam := strings.ToUpper(team.ID)

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_notification_service"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				// Created disabled: a create, then a disable.
				Config: e.Config(testAccWebhookServiceConfig("first", false, "", "")),
				Check: resource.ComposeTestCheckFunc(e.CheckExists(addr), serviceOnService(e, func(s *buildkite.NotificationService) error {
					if s.Enabled {
						return fmt.Errorf("the service is enabled")
					}
					return nil
				})),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(kit.UuidPattern)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("graphql_id"), knownvalue.StringRegexp(regexp.MustCompile(`.`))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("enabled"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("scope"), knownvalue.StringExact("all")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("scope_uuids"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("branch_configuration"), knownvalue.Null()),
					// The service generates a token when none is configured, and shows it.
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("webhook").AtMapKey("token"), knownvalue.StringRegexp(regexp.MustCompile(`.{20}`))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("webhook").AtMapKey("token_mode"), knownvalue.StringExact("token")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("webhook").AtMapKey("version"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("webhook").AtMapKey("tls_verify"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("aws_event_bridge"), knownvalue.Null()),
				},
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			acctest.Step(resource.TestStep{
				Config:           e.Config(testAccWebhookServiceConfig("second", true, "", "")),
				ConfigPlanChecks: acctest.InPlace(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact(acctest.TestPrefix+"second")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("enabled"), knownvalue.Bool(true)),
				},
			}),
			acctest.ImportSteps(addr, acctest.ImportID(addr, "id")),
			acctest.Step(resource.TestStep{
				// By GraphQL ID, and by the UUID in capitals.
				ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: acctest.ImportID(addr, "graphql_id"),
			}),
			acctest.Step(resource.TestStep{
				ResourceName: addr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					id, err := acctest.ImportID(addr, "id")(s)
					return strings.ToUpper(id), err
				},
			}),
			acctest.Step(resource.TestStep{
				// Scoped to a team named in capitals: the service stores it lower-case, the state keeps the
				// configured spelling. A changed setting is patched alone.
				Config: e.Config(testAccWebhookServiceConfig("second", true, fmt.Sprintf(`  scope       = "some_teams"
  scope_uuids = [%q]
  branch_configuration = "main"`, upperTeam), `    tls_verify = false`)),
				ConfigPlanChecks: acctest.InPlace(addr),
				Check: serviceOnService(e, func(s *buildkite.NotificationService) error {
					if s.Scope != "some_teams" || len(s.ScopeUUIDs) != 1 || s.ScopeUUIDs[0] != team.ID || kit.Deref(s.BranchConfiguration) != "main" {
						return fmt.Errorf("service holds %+v", s)
					}
					return nil
				}),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("scope_uuids"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(upperTeam)})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("webhook").AtMapKey("tls_verify"), knownvalue.Bool(false)),
				},
			}),
			acctest.Step(resource.TestStep{
				// Back to every build: the scope UUIDs and the branch filter are cleared.
				Config:           e.Config(testAccWebhookServiceConfig("second", true, "", `    tls_verify = false`)),
				ConfigPlanChecks: acctest.InPlace(addr),
				Check: serviceOnService(e, func(s *buildkite.NotificationService) error {
					if s.Scope != "all" || len(s.ScopeUUIDs) != 0 || kit.Deref(s.BranchConfiguration) != "" {
						return fmt.Errorf("service holds %+v", s)
					}
					return nil
				}),
			}),
			acctest.Step(resource.TestStep{
				// Another provider replaces the service.
				Config: e.Config(`
resource "buildkite_notification_service" "test" {
  provider_type = "open_telemetry_tracing"
  open_telemetry_tracing = {
    endpoint = "https://otel.example.com"
    headers  = { authorization = "Bearer secret" }
  }
}
`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("open_telemetry_tracing").AtMapKey("service_name"), knownvalue.StringExact("buildkite")),
					// Never shown by the service: kept from the configuration.
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("open_telemetry_tracing").AtMapKey("headers"),
						knownvalue.MapExact(map[string]knownvalue.Check{"authorization": knownvalue.StringExact("Bearer secret")})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("webhook"), knownvalue.Null()),
				},
			}),
		),
	})
}

func TestAccNotificationServiceResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.Disappears("buildkite_notification_service.test", testAccWebhookServiceConfig("gone", true, "", ""))
}

// A masked secret is kept from the configuration while the mask agrees with it; one changed outside
// Terraform shows as a change, which the next apply puts back.
func TestAccNotificationServiceResource_maskedSecrets(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_notification_service.test"
	cfg := e.Config(`
resource "buildkite_notification_service" "test" {
  provider_type = "datadog_pipeline_visibility"
  datadog_pipeline_visibility = {
    api_key      = "supersecret"
    datadog_tags = "team:platform"
  }
}
`)
	changeOutside := func(s *terraform.State) error {
		_, err := e.Client.NotificationServices.Update(context.Background(), s.RootModule().Resources[addr].Primary.Attributes["id"],
			buildkite.NotificationServiceUpdate{Settings: buildkite.NotificationServiceSettings{APIKey: buildkite.Value("rotated-elsewhere")}})
		return err
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_notification_service"),
		Steps: []resource.TestStep{
			{
				Config:           cfg,
				ConfigPlanChecks: acctest.ExpectEmpty(),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("datadog_pipeline_visibility").AtMapKey("api_key"), knownvalue.StringExact("supersecret")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("datadog_pipeline_visibility").AtMapKey("datadog_site"), knownvalue.StringExact("datadoghq.com")),
				},
			},
			{
				Config:             cfg,
				Check:              changeOutside,
				ExpectNonEmptyPlan: true,
			},
			{
				Config:           cfg,
				ConfigPlanChecks: acctest.InPlace(addr),
				Check: serviceOnService(e, func(s *buildkite.NotificationService) error {
					if k := s.Settings.APIKey; k == nil || *k != "XXXXXXXXcret" {
						return fmt.Errorf("settings %+v", s.Settings)
					}
					return nil
				}),
			},
		},
	})
}

// EventBridge: the account ID is masked and fixed at create. Importing and then configuring it adopts the
// service's; changing it or the region replaces the service.
func TestAccNotificationServiceResource_eventBridge(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_notification_service.test"
	cfg := func(region, account, extra string) string {
		return e.Config(fmt.Sprintf(`
resource "buildkite_notification_service" "test" {
  provider_type = "aws_event_bridge"
  aws_event_bridge = {
    aws_region     = %q
    aws_account_id = %q
%s
  }
}
`, region, account, extra))
	}
	seeded, err := e.Client.NotificationServices.Create(context.Background(), buildkite.NotificationServiceCreate{
		Provider: "aws_event_bridge", Settings: buildkite.NotificationServiceSettings{AWSRegion: buildkite.Value("us-east-1"), AWSAccountID: buildkite.Value("123456789012")},
	})
	if err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_notification_service"),
		Steps: []resource.TestStep{
			{
				Config: cfg("us-east-1", "123456789012", ""), ResourceName: addr, ImportState: true, ImportStateId: seeded.ID,
				ImportStatePersist: true, ExpectNonEmptyPlan: true,
			},
			{
				Config:           cfg("us-east-1", "123456789012", `    include_build_meta_data = "deploy:*"`),
				ConfigPlanChecks: acctest.InPlace(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(seeded.ID)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("aws_event_bridge").AtMapKey("aws_account_id"), knownvalue.StringExact("123456789012")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("aws_event_bridge").AtMapKey("event_source_name"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("aws_event_bridge").AtMapKey("include_build_meta_data"), knownvalue.StringExact("deploy:*")),
				},
			},
			{
				Config:           cfg("us-east-1", "123456789012", ""),
				ConfigPlanChecks: acctest.InPlace(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("aws_event_bridge").AtMapKey("include_build_meta_data"), knownvalue.Null()),
				},
			},
			{
				Config: cfg("us-east-1", "123456789013", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config: cfg("us-west-2", "123456789013", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
			},
		},
	})
}

// The official provider's plan-time checks, with its summaries.
func TestAccNotificationServiceResource_planChecks(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	uuid := "123e4567-e89b-42d3-a456-426614174000"
	cases := map[string]struct{ body, want string }{
		"settings of another provider": {`provider_type = "webhook"
  datadog_pipeline_visibility = { api_key = "k" }`, "Notification service settings do not match provider_type"},
		"two settings objects": {`provider_type = "webhook"
  webhook = { url = "https://example.com/h" }
  datadog_pipeline_visibility = { api_key = "k" }`, "Multiple notification service settings configured"},
		"no settings": {`provider_type = "webhook"`, "Notification service settings are required"},
		"missing url": {`provider_type = "webhook"
  webhook = {}`, "webhook.url is required when creating this notification service"},
		"missing account": {`provider_type = "aws_event_bridge"
  aws_event_bridge = { aws_region = "us-east-1" }`, "aws_event_bridge.aws_account_id is required"},
		"uuids with all": {fmt.Sprintf(`provider_type = "webhook"
  scope_uuids = [%q]
  webhook = { url = "https://example.com/h" }`, uuid), "Notification service scope UUIDs require a scoped service"},
		"same uuid twice": {fmt.Sprintf(`provider_type = "webhook"
  scope = "some_projects"
  scope_uuids = [%q, %q]
  webhook = { url = "https://example.com/h" }`, uuid, strings.ToUpper(uuid)), "Duplicate notification service scope UUID"},
		"not a uuid": {`provider_type = "webhook"
  scope = "some_projects"
  scope_uuids = ["my-pipeline"]
  webhook = { url = "https://example.com/h" }`, "must be a UUID"},
		"OAuth create": {`provider_type = "linear"`, "OAuth-managed notification service cannot be created"},
		"legacy Slack": {`provider_type = "slack"
  webhook = { url = "https://example.com/h" }`, "Attribute provider_type value must be one of"},
		"build states": {`provider_type = "webhook"
  build_states = { build_failed = true }
  webhook = { url = "https://example.com/h" }`, "Unsupported argument"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.Factories(),
				Steps: []resource.TestStep{{
					Config:      e.Config(fmt.Sprintf("resource \"buildkite_notification_service\" \"test\" {\n  %s\n}\n", tc.body)),
					PlanOnly:    true,
					ExpectError: acctest.Wrapped(tc.want),
				}},
			})
		})
	}
	// A scoped service without UUIDs plans.
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config: e.Config(`resource "buildkite_notification_service" "test" {
  provider_type = "webhook"
  scope         = "some_projects"
  scope_uuids   = []
  webhook       = { url = "https://example.com/h" }
}`),
			PlanOnly: true, ExpectNonEmptyPlan: true,
		}},
	})
}

// The official provider's checks that the configuration alone shows are made before the provider is
// configured, so they hold with a service that cannot be reached (its tests configure an unreachable
// rest_url) and never wait for a request.
func TestAccNotificationServiceResource_checksWithoutTheService(t *testing.T) {
	t.Parallel()
	uuid := "123e4567-e89b-42d3-a456-426614174000"
	unreachable := `
provider "buildkite" {
  rest_url     = "http://127.0.0.1:1"
  organization = "acme"
  api_token    = "token"
}
`
	cases := map[string]struct{ body, want string }{
		"settings of another provider": {`provider_type = "webhook"
  datadog_pipeline_visibility = { api_key = "k" }`, "Notification service settings do not match provider_type"},
		"two settings objects": {`provider_type = "webhook"
  webhook = { url = "https://example.com/h" }
  datadog_pipeline_visibility = { api_key = "k" }`, "Multiple notification service settings configured"},
		"no settings": {`provider_type = "webhook"`, "Notification service settings are required"},
		"missing url": {`provider_type = "webhook"
  webhook = {}`, "webhook.url is required when creating this notification service"},
		"missing endpoint": {`provider_type = "open_telemetry_tracing"
  open_telemetry_tracing = { service_name = "ci" }`, "open_telemetry_tracing.endpoint is required"},
		"uuids with all": {fmt.Sprintf(`provider_type = "webhook"
  scope_uuids = [%q]
  webhook = { url = "https://example.com/h" }`, uuid), "Notification service scope UUIDs require a scoped service"},
		"same uuid twice": {fmt.Sprintf(`provider_type = "webhook"
  scope = "some_projects"
  scope_uuids = [%q, %q]
  webhook = { url = "https://example.com/h" }`, uuid, strings.ToUpper(uuid)), "Duplicate notification service scope UUID"},
		"filters on OAuth": {`provider_type = "linear"
  branch_configuration = "main"`, "Notification filters are not supported"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.NewTestEnv(t).Factories(),
				Steps: []resource.TestStep{{
					Config:      unreachable + fmt.Sprintf("resource \"buildkite_notification_service\" \"test\" {\n  %s\n}\n", tc.body),
					PlanOnly:    true,
					ExpectError: acctest.Wrapped(tc.want),
				}},
			})
			if d := time.Since(start); d > time.Minute {
				t.Errorf("the check took %s: it waited for the service", d)
			}
		})
	}
}

// Services connected in the web interface are imported, and then only their common fields are managed;
// a provider the resource does not manage is refused at import.
func TestAccNotificationServiceResource_connectedInWebInterface(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("seeds services connected in the web interface in the emulator's store, which the API cannot create")
	}
	const addr = "buildkite_notification_service.test"
	id := e.Server.Store().AddNotificationService(e.Org, "slack_workspace", nil)
	slack := e.Server.Store().AddNotificationService(e.Org, "slack", map[string]any{"url": "https://hooks.slack.com/x"})
	cfg := func(extra string) string {
		return e.Config(fmt.Sprintf(`
resource "buildkite_notification_service" "test" {
  provider_type = "slack_workspace"
%s
}
`, extra))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg(""), ResourceName: addr, ImportState: true, ImportStateId: id, ImportStatePersist: true},
			{
				Config:           cfg(`  description = "managed after import"`),
				ConfigPlanChecks: acctest.InPlace(addr),
				Check: serviceOnService(e, func(s *buildkite.NotificationService) error {
					if kit.Deref(s.Description) != "managed after import" {
						return fmt.Errorf("service holds %+v", s)
					}
					return nil
				}),
			},
			{Config: cfg(`  branch_configuration = "main"`), PlanOnly: true, ExpectError: acctest.Wrapped("Notification filters are not supported")},
			{
				Config: e.Config(`
resource "buildkite_notification_service" "slack" {
  provider_type = "webhook"
  webhook = { url = "https://example.com/h" }
}
resource "buildkite_notification_service" "test" {
  provider_type = "slack_workspace"
  description   = "managed after import"
}
`),
				ResourceName: "buildkite_notification_service.slack", ImportState: true, ImportStateId: slack,
				ExpectError: regexp.MustCompile(`provider_type "slack".*not supported`),
			},
			// A valid configuration last, which the destroy at the end validates (ValidateConfig refuses the
			// filters above also there).
			{Config: cfg(`  description = "managed after import"`), PlanOnly: true},
		},
	})
}

// A service scoped to a team created in the same apply: its UUID is unknown at plan time, and the checks
// wait for it.
func TestAccNotificationServiceResource_scopedToNewTeam(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_notification_service"),
		Steps: []resource.TestStep{{
			Config: e.Config(fmt.Sprintf(`
resource "buildkite_team" "notified" {
  name                = %q
  privacy             = "VISIBLE"
  default_member_role = "MEMBER"
  default_team        = false
}
`, e.Name("notified")) + testAccWebhookServiceConfig("team builds", true, `  scope       = "some_teams"
  scope_uuids = [buildkite_team.notified.uuid]`, "")),
			ConfigPlanChecks: acctest.ExpectEmpty(),
			Check: serviceOnService(e, func(s *buildkite.NotificationService) error {
				if s.Scope != "some_teams" || len(s.ScopeUUIDs) != 1 {
					return fmt.Errorf("service holds %+v", s)
				}
				return nil
			}),
		}},
	})
}

// refuseDisable answers PUT …/disable with a 422 while refuse is set, as the service may.
func refuseDisable(refuse *atomic.Bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if refuse.Load() && r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/disable") {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusUnprocessableEntity)
				_, _ = w.Write([]byte(`{"message":"unable to disable"}`))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// A create whose disable fails leaves the service in state (enabled), so it is neither lost nor made twice:
// the destroy that follows deletes it.
func TestAccNotificationServiceResource_disableFailsAfterCreate(t *testing.T) {
	t.Parallel()
	var refuse atomic.Bool
	refuse.Store(true)
	e := acctest.NewTestEnvWith(t, fakeserver.Options{}, refuseDisable(&refuse))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_notification_service"),
		Steps: []resource.TestStep{{
			Config:      e.Config(testAccWebhookServiceConfig("half made", false, "", "")),
			ExpectError: acctest.Wrapped("Unable to disable notification service"),
		}},
	})
}

// An update whose disable fails keeps what its PATCH changed in state; the next apply only disables.
func TestAccNotificationServiceResource_disableFailsAfterPatch(t *testing.T) {
	t.Parallel()
	var refuse atomic.Bool
	e := acctest.NewTestEnvWith(t, fakeserver.Options{}, refuseDisable(&refuse))
	const addr = "buildkite_notification_service.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_notification_service"),
		Steps: []resource.TestStep{
			{Config: e.Config(testAccWebhookServiceConfig("first", true, "", ""))},
			{
				PreConfig:   func() { refuse.Store(true) },
				Config:      e.Config(testAccWebhookServiceConfig("second", false, "", "")),
				ExpectError: acctest.Wrapped("Unable to change notification service enabled state"),
			},
			{
				PreConfig: func() { refuse.Store(false) },
				Config:    e.Config(testAccWebhookServiceConfig("second", false, "", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact(acctest.TestPrefix+"second")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: serviceOnService(e, func(s *buildkite.NotificationService) error {
					if s.Enabled || kit.Deref(s.Description) != acctest.TestPrefix+"second" {
						return fmt.Errorf("service holds %+v", s)
					}
					return nil
				}),
			},
		},
	})
}

// writeOnlyServicesConfig is three services whose secrets are all write-only: a webhook's token, a Datadog
// API key and OpenTelemetry headers, described by description, with the secrets' suffix and the versions
// given.
func writeOnlyServicesConfig(description, secret, version string) string {
	return fmt.Sprintf(`
resource "buildkite_notification_service" "webhook" {
  provider_type = "webhook"
  description   = %[1]q
  webhook = {
    url              = "https://example.com/buildkite"
    token_wo         = "hook-token-%[2]s"
    token_wo_version = %[3]q
  }
}
resource "buildkite_notification_service" "datadog" {
  provider_type = "datadog_pipeline_visibility"
  description   = %[1]q
  datadog_pipeline_visibility = {
    api_key_wo         = "dd-api-key-%[2]s"
    api_key_wo_version = %[3]q
  }
}
resource "buildkite_notification_service" "otel" {
  provider_type = "open_telemetry_tracing"
  description   = %[1]q
  open_telemetry_tracing = {
    endpoint           = "https://otel.example.com"
    headers_wo         = { authorization = "Bearer otel-%[2]s" }
    headers_wo_version = %[3]q
  }
}
`, description, secret, version)
}

// writeOnlySecrets are the secrets writeOnlyServicesConfig sends, by resource name, as the service holds them.
func writeOnlySecrets(secret string) map[string][2]string {
	return map[string][2]string{
		"webhook": {"token", "hook-token-" + secret},
		"datadog": {"api_key", "dd-api-key-" + secret},
		"otel":    {"headers", fmt.Sprint(map[string]any{"authorization": "Bearer otel-" + secret})},
	}
}

// (e *testEnv) servicesHold checks that each service in state holds the secret of writeOnlySecrets(secret).
func servicesHold(e *acctest.TestEnv, secret string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		if e.Live {
			return nil // the real service shows no secret in full
		}
		for name, want := range writeOnlySecrets(secret) {
			rs, ok := s.RootModule().Resources["buildkite_notification_service."+name]
			if !ok {
				return fmt.Errorf("buildkite_notification_service.%s is not in state", name)
			}
			got, ok := e.Server.Store().NotificationServiceSetting(e.Org, rs.Primary.Attributes["id"], want[0])
			if !ok || fmt.Sprint(got) != want[1] {
				return fmt.Errorf("service %s holds %s = %v, want %s", name, want[0], got, want[1])
			}
		}
		return nil
	}
}

// stateHoldsNone is a state check that the state, as JSON, holds none of the strings.
type stateHoldsNone []string

func (c stateHoldsNone) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	raw, err := json.Marshal(req.State)
	if err != nil {
		resp.Error = err
		return
	}
	if len(raw) < 500 {
		resp.Error = fmt.Errorf("the state JSON is %d bytes: the check would find nothing", len(raw))
		return
	}
	for _, s := range c {
		if strings.Contains(string(raw), s) {
			resp.Error = fmt.Errorf("the state holds the secret %q", s)
			return
		}
	}
}

// TestAccNotificationServiceResource_writeOnlySecrets: a configuration whose secrets are all write-only
// keeps every one out of state, and creates the services with them (a Datadog service needs no api_key
// beside api_key_wo). Changing a secret without its version sends nothing and plans nothing; bumping the
// versions sends the new secrets, in place; an update of something else under the same version does not
// send the secret.
func TestAccNotificationServiceResource_writeOnlySecrets(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	desc := e.Name("write-only")
	secrets := func(v string) stateHoldsNone {
		var out stateHoldsNone
		for _, s := range []string{"hook-token-", "dd-api-key-", "otel-"} {
			out = append(out, s+v)
		}
		return out
	}
	all := append(secrets("one"), append(secrets("two"), "XXXXXXXX")...) // nor the masked key
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_notification_service"),
		Steps: []resource.TestStep{
			{
				Config:            e.Config(writeOnlyServicesConfig(desc, "one", "1")),
				Check:             servicesHold(e, "one"),
				ConfigStateChecks: []statecheck.StateCheck{all},
			},
			{
				// A new value under the same version: nothing to do, and the service keeps the first.
				Config:            e.Config(writeOnlyServicesConfig(desc, "two", "1")),
				ConfigPlanChecks:  acctest.ExpectEmpty(),
				Check:             servicesHold(e, "one"),
				ConfigStateChecks: []statecheck.StateCheck{all},
			},
			{
				Config: e.Config(writeOnlyServicesConfig(desc, "two", "2")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("buildkite_notification_service.webhook", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("buildkite_notification_service.datadog", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("buildkite_notification_service.otel", plancheck.ResourceActionUpdate),
				}},
				Check:             servicesHold(e, "two"),
				ConfigStateChecks: []statecheck.StateCheck{all},
			},
			{
				// Another change under the same version sends the other change only.
				Config:            e.Config(writeOnlyServicesConfig(desc+"-renamed", "three", "2")),
				Check:             servicesHold(e, "two"),
				ConfigStateChecks: []statecheck.StateCheck{append(all, "-three")},
			},
			{Config: e.Config(writeOnlyServicesConfig(desc+"-renamed", "three", "2")), PlanOnly: true},
		},
	})
}

// TestAccNotificationServiceResource_writeOnlyMigration: moving each secret from its plain attribute to its
// write-only form plans an update in place that clears the secret from state, sends the write-only value
// (its version is new), and replaces nothing.
func TestAccNotificationServiceResource_writeOnlyMigration(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	desc := e.Name("write-only")
	plain := fmt.Sprintf(`
resource "buildkite_notification_service" "webhook" {
  provider_type = "webhook"
  description   = %[1]q
  webhook = {
    url   = "https://example.com/buildkite"
    token = "hook-token-plain"
  }
}
resource "buildkite_notification_service" "datadog" {
  provider_type = "datadog_pipeline_visibility"
  description   = %[1]q
  datadog_pipeline_visibility = {
    api_key = "dd-api-key-plain"
  }
}
resource "buildkite_notification_service" "otel" {
  provider_type = "open_telemetry_tracing"
  description   = %[1]q
  open_telemetry_tracing = {
    endpoint = "https://otel.example.com"
    headers  = { authorization = "Bearer otel-plain" }
  }
}
`, desc)
	var planChecks []plancheck.PlanCheck
	for name, key := range map[string]tfjsonpath.Path{
		"webhook": tfjsonpath.New("webhook").AtMapKey("token"),
		"datadog": tfjsonpath.New("datadog_pipeline_visibility").AtMapKey("api_key"),
		"otel":    tfjsonpath.New("open_telemetry_tracing").AtMapKey("headers"),
	} {
		addr := "buildkite_notification_service." + name
		planChecks = append(planChecks, plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
			plancheck.ExpectKnownValue(addr, key, knownvalue.Null()))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_notification_service"),
		Steps: []resource.TestStep{
			{
				Config: e.Config(plain),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("buildkite_notification_service.webhook", "webhook.token", "hook-token-plain"),
					resource.TestCheckResourceAttr("buildkite_notification_service.datadog", "datadog_pipeline_visibility.api_key", "dd-api-key-plain"),
					resource.TestCheckResourceAttr("buildkite_notification_service.otel", "open_telemetry_tracing.headers.authorization", "Bearer otel-plain"),
				),
			},
			{
				Config:            e.Config(writeOnlyServicesConfig(desc, "one", "1")),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: planChecks},
				Check:             servicesHold(e, "one"),
				ConfigStateChecks: []statecheck.StateCheck{stateHoldsNone{"-plain", "-one"}},
			},
			{Config: e.Config(writeOnlyServicesConfig(desc, "one", "1")), PlanOnly: true},
		},
	})
}

// TestAccNotificationServiceResource_writeOnlyConflicts: a secret given both plain and write-only, or
// write-only without its version, is refused at plan, naming the attributes.
func TestAccNotificationServiceResource_writeOnlyConflicts(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config: e.Config(testAccWebhookServiceConfig("wo", true, "", `    token = "a"
    token_wo = "b"
    token_wo_version = "1"`)),
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*webhook\.token.*webhook\.token_wo`),
			},
			{
				Config:      e.Config(testAccWebhookServiceConfig("wo", true, "", `    token_wo = "b"`)),
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*webhook\.token_wo_version`),
			},
			{
				Config: e.Config(`
resource "buildkite_notification_service" "test" {
  provider_type = "datadog_pipeline_visibility"
  datadog_pipeline_visibility = {
    api_key            = "a"
    api_key_wo         = "b"
    api_key_wo_version = "1"
  }
}`),
				ExpectError: regexp.MustCompile(`(?s)datadog_pipeline_visibility\.api_key.*datadog_pipeline_visibility\.api_key_wo`),
			},
			{
				Config: e.Config(`
resource "buildkite_notification_service" "test" {
  provider_type = "datadog_pipeline_visibility"
  datadog_pipeline_visibility = {}
}`),
				ExpectError: regexp.MustCompile(`(?s)api_key is required.*or api_key_wo`),
			},
		},
	})
}

// The rows of buildkite_notification_service in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_notification_service", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		ResourceType: "buildkite_notification_service", Attrs: []string{"id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			return acctest.IdentityConfigs{
				Create: testAccWebhookServiceConfig("identity", true, "", ""),
				Update: testAccWebhookServiceConfig("identity", false, "", ""),
			}
		},
	},
	InvalidIdentity: &acctest.InvalidIdentityCase{
		ResourceType: "buildkite_notification_service",
		Setup: func(e *acctest.TestEnv) []acctest.InvalidIdentity {
			service := func(id string) string {
				return acctest.ImportByIdentity("buildkite_notification_service", `  provider_type = "webhook"
  webhook       = { url = "https://example.com/h" }`, "id", id)
			}
			return []acctest.InvalidIdentity{
				{Config: service("hooks"), Message: `id (<notification service UUID>) "hooks" is not a UUID`},
				{Config: service(acctest.UnknownUUID), Message: `Cannot import non-existent remote object`},
			}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "notification_service", Add: (*acctest.OfficialWorkspace).AddNotificationServices, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_notification_service.hooks", map[string]any{"enabled": false, "provider_type": "webhook"})
			a := w.StateAttributes("buildkite_notification_service.datadog")
			if dd, _ := a["datadog_pipeline_visibility"].(map[string]any); dd == nil || dd["api_key"] != "moved-datadog-key" {
				t.Errorf("after the move datadog_pipeline_visibility = %v, want the API key kept", a["datadog_pipeline_visibility"])
			}
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_notification_service", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		seed := func(body buildkite.NotificationServiceCreate) *buildkite.NotificationService {
			s, err := e.Client.NotificationServices.Create(t.Context(), body)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		hook := seed(buildkite.NotificationServiceCreate{Provider: "webhook", Description: acctest.PtrTo(base + "-hooks"),
			Settings: buildkite.NotificationServiceSettings{URL: buildkite.Value("https://example.com/h")}})
		plain := seed(buildkite.NotificationServiceCreate{Provider: "webhook", Settings: buildkite.NotificationServiceSettings{URL: buildkite.Value("https://example.com/p")}})
		// A Slack incoming webhook is not a type the resource manages: it is not listed.
		e.Server.Store().AddNotificationService(e.Org, "slack", map[string]any{"url": "https://hooks.slack.com/x"})
		return acctest.QueryRow{
			Blocks: []string{"buildkite_notification_service", "named", fmt.Sprintf("    name = %q", base+"-HOOKS")},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_notification_service.all", 2),
				querycheck.ExpectLength("buildkite_notification_service.named", 1),
				querycheck.ExpectIdentity("buildkite_notification_service.named", acctest.IdentityOf("id", hook.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_notification_service.all", acctest.ByIdentity("id", plain.ID), knownvalue.StringExact("Webhook")),
				querycheck.ExpectResourceKnownValues("buildkite_notification_service.all", acctest.ByIdentity("id", hook.ID), []querycheck.KnownValueCheck{
					acctest.Known("provider_type", knownvalue.StringExact("webhook")),
					acctest.Known("description", knownvalue.StringExact(base+"-hooks")),
					acctest.Known("scope_uuids", knownvalue.Null()),
				}),
			},
			Imports: 2,
		}
	}},
})
