package buildkite

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

func TestCacheRegistries_Lifecycle(t *testing.T) {
	c := newEmulatorClient(t)
	ctx := context.Background()
	cl, err := c.Clusters.Create(ctx, ClusterCreate{Name: "ci"})
	if err != nil {
		t.Fatal(err)
	}
	// More than one page of 100, to follow the cursor.
	for i := range 101 {
		if _, err := c.CacheRegistries.Create(ctx, cl.ID, CacheRegistryWrite{Name: ptr(fmt.Sprintf("r%03d", i))}); err != nil {
			t.Fatal(err)
		}
	}
	all, err := c.CacheRegistries.List(ctx, cl.ID)
	if err != nil || len(all) != 102 || all[0].Name != "Default" || !all[0].Default {
		t.Fatalf("list: %d, %v", len(all), err)
	}
	r, err := c.CacheRegistries.Create(ctx, cl.ID, CacheRegistryWrite{Name: ptr("Gems"), Emoji: ptr(":gem:"),
		Policy: json.RawMessage(`{"rules":[{"effect":"allow","action":"restore"}]}`)})
	if err != nil || r.Slug != "gems" || r.Emoji == nil {
		t.Fatalf("create %+v, %v", r, err)
	}
	r, err = c.CacheRegistries.Update(ctx, cl.ID, r.UUID, CacheRegistryWrite{Name: ptr("Ruby Gems"), Clear: []string{"emoji", "policy"}})
	if err != nil || r.Slug != "ruby-gems" || r.Emoji != nil || string(r.Policy) != "null" {
		t.Fatalf("update %+v, %v", r, err)
	}
	if err := c.CacheRegistries.Delete(ctx, cl.ID, r.UUID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CacheRegistries.Get(ctx, cl.ID, r.UUID); !IsNotFound(err) {
		t.Fatalf("after delete: %v", err)
	}
	if err := c.CacheRegistries.Delete(ctx, cl.ID, all[0].UUID); !IsValidation(err) {
		t.Fatalf("deleting the Default registry: %v", err)
	}
}
