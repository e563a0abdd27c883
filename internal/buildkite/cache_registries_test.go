package buildkite

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
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
	r, err := c.CacheRegistries.Create(ctx, cl.ID, CacheRegistryWrite{Name: ptr("Gems"), Emoji: Value(":gem:"),
		Policy: Value(json.RawMessage(`{"rules":[{"effect":"allow","action":"restore"}]}`))})
	if err != nil || r.Slug != "gems" || r.Emoji == nil {
		t.Fatalf("create %+v, %v", r, err)
	}
	r, err = c.CacheRegistries.Update(ctx, cl.ID, r.UUID, CacheRegistryWrite{Name: ptr("Ruby Gems"), Emoji: Cleared[string](), Policy: Cleared[json.RawMessage]()})
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

// TestCacheRegistryWrite_bytes pins the bytes a create or update sends, key order included: only the fields
// set, a cleared one as null, the policy as compact JSON.
func TestCacheRegistryWrite_bytes(t *testing.T) {
	for _, tc := range []struct {
		in   CacheRegistryWrite
		want string
	}{
		{CacheRegistryWrite{}, `{}`},
		{CacheRegistryWrite{Name: ptr("Gems")}, `{"name":"Gems"}`},
		{CacheRegistryWrite{Name: ptr("n"), Description: Value("<d&>"), Emoji: Value(":gem:"), Color: Value("#000"),
			Policy: Value(json.RawMessage("{ \"rules\": [ ] }"))},
			`{"color":"#000","description":"\u003cd\u0026\u003e","emoji":":gem:","name":"n","policy":{"rules":[]}}`},
		{CacheRegistryWrite{Policy: Value(json.RawMessage(`null`))}, `{"policy":null}`},
		{CacheRegistryWrite{Description: Cleared[string]()}, `{"description":null}`},
		{CacheRegistryWrite{Name: ptr("n"), Policy: Cleared[json.RawMessage](), Color: Cleared[string](),
			Emoji: Cleared[string](), Description: Cleared[string]()},
			`{"color":null,"description":null,"emoji":null,"name":"n","policy":null}`},
	} {
		if tc.in.IsZero() != (tc.want == `{}`) {
			t.Errorf("%+v: IsZero = %t, but it sends %s", tc.in, tc.in.IsZero(), tc.want)
		}
		s := newStub(t, respond(http.StatusOK, `{"uuid":"u"}`))
		c := newTestClient(t, s.srv.URL)
		if _, err := c.CacheRegistries.Update(context.Background(), "c", "u", tc.in); err != nil {
			t.Fatal(err)
		}
		if got := s.only(t).Body; got != tc.want {
			t.Errorf("body = %s\nwant   %s", got, tc.want)
		}
	}
}
