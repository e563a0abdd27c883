package buildkite

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

func TestNotificationServices_Lifecycle(t *testing.T) {
	c := newEmulatorClient(t)
	ctx := context.Background()
	created, err := c.NotificationServices.Create(ctx, NotificationServiceCreate{
		Provider: "webhook", Description: ptr("hooks"), Settings: NotificationServiceSettings{URL: Value("https://example.com/h")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if created.Provider.ID != "webhook" || !created.Enabled || created.Scope != "all" || created.Settings.Token == nil ||
		deref(created.Settings.URL) != "https://example.com/h" {
		t.Fatalf("created %+v %+v", created, created.Settings)
	}
	disabled, err := c.NotificationServices.SetEnabled(ctx, created.ID, false)
	if err != nil || disabled.Enabled {
		t.Fatalf("disable %+v, %v", disabled, err)
	}
	updated, err := c.NotificationServices.Update(ctx, created.ID, NotificationServiceUpdate{Description: Cleared[string]()})
	if err != nil || updated.Description != nil || updated.Enabled {
		t.Fatalf("update %+v, %v", updated, err)
	}
	if got, err := c.NotificationServices.Get(ctx, created.ID); err != nil || got.ID != created.ID {
		t.Fatalf("get %+v, %v", got, err)
	}
	if err := c.NotificationServices.Delete(ctx, created.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.NotificationServices.Get(ctx, created.ID); !IsNotFound(err) {
		t.Fatalf("after delete: %v", err)
	}
}

// List follows the cursor through every page.
func TestNotificationServices_ListFollowsCursor(t *testing.T) {
	c := newEmulatorClient(t)
	ctx := context.Background()
	var ids []string
	for i := range 205 {
		s, err := c.NotificationServices.Create(ctx, NotificationServiceCreate{
			Provider: "webhook", Settings: NotificationServiceSettings{URL: Value(fmt.Sprintf("https://example.com/%d", i))},
		})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
	}
	all, err := c.NotificationServices.List(ctx)
	if err != nil || len(all) != len(ids) {
		t.Fatalf("list: %d, %v", len(all), err)
	}
	for i := range ids {
		if all[i].ID != ids[i] {
			t.Fatalf("item %d is %s, want %s", i, all[i].ID, ids[i])
		}
	}
}

// A create whose answer is lost adopts the service it made, and only that one: an identical service made
// before stays apart, and nothing is made twice.
func TestNotificationServices_CreateAdoptsAfterLostAnswer(t *testing.T) {
	ctx := context.Background()
	for _, mode := range []string{"drop", "502", "502 unacted"} {
		t.Run(mode, func(t *testing.T) {
			e := newEmulator(t, fakeserver.Options{})
			setup := newTestClient(t, e.url)
			body := NotificationServiceCreate{Provider: "datadog_pipeline_visibility", Description: ptr("dd"),
				Settings: NotificationServiceSettings{APIKey: Value("secret-key"), DatadogSite: Value("datadoghq.eu")}}
			other, err := setup.NotificationServices.Create(ctx, NotificationServiceCreate{Provider: "webhook",
				Settings: NotificationServiceSettings{URL: Value("https://example.com/h")}})
			if err != nil {
				t.Fatal(err)
			}
			f := newEmulatorFront(t, e, loseAnswers(mode, 1))
			got, err := newTestClient(t, f, func(c *Config) { c.MaxRetries = 0 }).NotificationServices.Create(ctx, body)
			if err != nil {
				t.Fatal(err)
			}
			all, err := setup.NotificationServices.List(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(all) != 2 || got.ID == other.ID || (all[1].ID != got.ID) || got.Provider.ID != "datadog_pipeline_visibility" {
				t.Fatalf("adopted %+v; the emulator holds %+v", got, all)
			}
		})
	}
}

func TestNotificationServices_MadeFrom(t *testing.T) {
	svc := &NotificationService{Provider: NotificationServiceProvider{ID: "aws_event_bridge"}, Scope: "all",
		Settings: NotificationServiceShown{AWSRegion: ptr("us-east-1"), AWSAccountID: ptr("XXXXXXXX9012"), EventSourceName: ptr("x")}}
	body := func(account string) NotificationServiceCreate {
		return NotificationServiceCreate{Provider: "aws_event_bridge", Scope: "all",
			Settings: NotificationServiceSettings{AWSRegion: Value("us-east-1"), AWSAccountID: Value(account)}}
	}
	if !madeFrom(svc, body("123456789012")) {
		t.Error("the masked account ID ending as sent is not recognised")
	}
	if madeFrom(svc, body("123456781111")) {
		t.Error("another account ID is recognised")
	}
	if b := body("123456789012"); madeFrom(svc, NotificationServiceCreate{Provider: "webhook", Settings: b.Settings}) {
		t.Error("another provider is recognised")
	}
}

// The bodies say what they set, clear or leave: unset fields are left out, cleared ones are null, and an
// empty list is sent as [].
func TestNotificationServices_Bodies(t *testing.T) {
	for name, c := range map[string]struct {
		body any
		want string
	}{
		"create": {NotificationServiceCreate{Provider: "webhook", Scope: "all",
			Settings: NotificationServiceSettings{URL: Value("https://x"), Events: Value([]string{})}},
			`{"provider":"webhook","scope":"all","settings":{"url":"https://x","events":[]}}`},
		"create without settings": {NotificationServiceCreate{Provider: "linear", Scope: "all"}, `{"provider":"linear","scope":"all"}`},
		"update": {NotificationServiceUpdate{Description: Cleared[string](), ScopeUUIDs: Value([]string{}),
			Settings: NotificationServiceSettings{TLSVerify: Value(false), Token: Cleared[string]()}},
			`{"description":null,"scope_uuids":[],"settings":{"token":null,"tls_verify":false}}`},
		"empty update": {NotificationServiceUpdate{}, `{}`},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := json.Marshal(c.body)
			if err != nil || string(got) != c.want {
				t.Errorf("body = %s (%v), want %s", got, err, c.want)
			}
		})
	}
	if !(NotificationServiceUpdate{}).IsZero() || (NotificationServiceUpdate{Scope: Value("all")}).IsZero() {
		t.Error("IsZero does not tell an empty update")
	}
}
