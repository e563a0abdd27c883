package buildkite

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
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
