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
	created, err := c.NotificationServices().Create(ctx, map[string]any{
		"provider": "webhook", "description": "hooks", "settings": map[string]any{"url": "https://example.com/h"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var settings map[string]any
	if err := json.Unmarshal(created.Settings, &settings); err != nil {
		t.Fatal(err)
	}
	if created.Provider.ID != "webhook" || !created.Enabled || created.Scope != "all" || settings["token"] == nil {
		t.Fatalf("created %+v %v", created, settings)
	}
	disabled, err := c.NotificationServices().SetEnabled(ctx, created.ID, false)
	if err != nil || disabled.Enabled {
		t.Fatalf("disable %+v, %v", disabled, err)
	}
	updated, err := c.NotificationServices().Update(ctx, created.ID, map[string]any{"description": nil})
	if err != nil || updated.Description != nil || updated.Enabled {
		t.Fatalf("update %+v, %v", updated, err)
	}
	if got, err := c.NotificationServices().Get(ctx, created.ID); err != nil || got.ID != created.ID {
		t.Fatalf("get %+v, %v", got, err)
	}
	if err := c.NotificationServices().Delete(ctx, created.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.NotificationServices().Get(ctx, created.ID); !IsNotFound(err) {
		t.Fatalf("after delete: %v", err)
	}
}

// List follows the cursor through every page.
func TestNotificationServices_ListFollowsCursor(t *testing.T) {
	c := newEmulatorClient(t)
	ctx := context.Background()
	var ids []string
	for i := range 205 {
		s, err := c.NotificationServices().Create(ctx, map[string]any{
			"provider": "webhook", "settings": map[string]any{"url": fmt.Sprintf("https://example.com/%d", i)},
		})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
	}
	all, err := c.NotificationServices().List(ctx)
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
			body := map[string]any{"provider": "datadog_pipeline_visibility", "description": "dd",
				"settings": map[string]any{"api_key": "secret-key", "datadog_site": "datadoghq.eu"}}
			other, err := setup.NotificationServices().Create(ctx, map[string]any{"provider": "webhook",
				"settings": map[string]any{"url": "https://example.com/h"}})
			if err != nil {
				t.Fatal(err)
			}
			f := newEmulatorFront(t, e, loseAnswers(mode, 1))
			got, err := newTestClient(t, f, func(c *Config) { c.MaxRetries = 0 }).NotificationServices().Create(ctx, body)
			if err != nil {
				t.Fatal(err)
			}
			all, err := setup.NotificationServices().List(ctx)
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
		Settings: []byte(`{"aws_region":"us-east-1","aws_account_id":"XXXXXXXX9012","event_source_name":"x"}`)}
	body := func(account string) map[string]any {
		return map[string]any{"provider": "aws_event_bridge", "scope": "all",
			"settings": map[string]any{"aws_region": "us-east-1", "aws_account_id": account}}
	}
	if !madeFrom(svc, body("123456789012")) {
		t.Error("the masked account ID ending as sent is not recognised")
	}
	if madeFrom(svc, body("123456781111")) {
		t.Error("another account ID is recognised")
	}
	if b := body("123456789012"); madeFrom(svc, map[string]any{"provider": "webhook", "settings": b["settings"]}) {
		t.Error("another provider is recognised")
	}
}
