package buildkite

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

func TestPortals_Lifecycle(t *testing.T) {
	c := newEmulatorClient(t)
	ctx := context.Background()
	created, err := c.Portals.Create(ctx, PortalWrite{Name: "Stats", Slug: "stats", Query: "{ viewer { user { name } } }",
		Description: ptr("numbers"), AllowedIPAddresses: ptr("10.0.0.0/8")})
	if err != nil {
		t.Fatal(err)
	}
	if created.Token == "" || created.UUID == "" || created.Description == nil || *created.Description != "numbers" ||
		created.CreatedBy == nil || created.CreatedAt == nil {
		t.Fatalf("created %+v", created)
	}
	got, err := c.Portals.Get(ctx, "stats")
	if err != nil || got.Token != "" || got.UUID != created.UUID {
		t.Fatalf("get %+v, %v", got, err)
	}
	// Nil optional fields clear them on an update; the slug may change.
	updated, err := c.Portals.Update(ctx, "stats", PortalWrite{Name: "Stats", Slug: "numbers", Query: "{ viewer { user { email } } }", UserInvokable: true})
	if err != nil {
		t.Fatal(err)
	}
	if updated.Slug != "numbers" || updated.Description != nil || updated.AllowedIPAddresses != nil || !updated.UserInvokable {
		t.Fatalf("updated %+v", updated)
	}
	if err := c.Portals.Delete(ctx, "numbers"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Portals.Get(ctx, "numbers"); !IsNotFound(err) {
		t.Fatalf("after delete: %v", err)
	}
}

// List reads every page, not only the first.
func TestPortals_ListEveryPage(t *testing.T) {
	c := newEmulatorClient(t)
	ctx := context.Background()
	for i := range 105 {
		if _, err := c.Portals.Create(ctx, PortalWrite{Name: fmt.Sprintf("P %d", i), Slug: fmt.Sprintf("p-%d", i), Query: "{ a }"}); err != nil {
			t.Fatal(err)
		}
	}
	all, err := c.Portals.List(ctx)
	if err != nil || len(all) != 105 {
		t.Fatalf("list: %d, %v", len(all), err)
	}
}

// TestPortalCreate_lostAnswers: a portal's token is in its create answer alone. One lost answer: the portal
// it made is deleted and the create sent once more, and the caller has the token. Two: the second portal is
// returned without a token, with a SecretLostError; never a portal without a token and no error.
func TestPortalCreate_lostAnswers(t *testing.T) {
	ctx := context.Background()
	for _, mode := range []string{"drop", "502"} {
		for _, lost := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s×%d", mode, lost), func(t *testing.T) {
				e := newEmulator(t, fakeserver.Options{})
				setup := newTestClient(t, e.url)
				c := newTestClient(t, newEmulatorFront(t, e, loseAnswers(mode, lost)), func(c *Config) { c.MaxRetries = 0 })
				p, err := c.Portals.Create(ctx, PortalWrite{Name: "Stats", Slug: "stats", Query: "{ viewer { user { name } } }"})
				var lostErr *SecretLostError
				switch lost {
				case 1:
					if err != nil || p.Token == "" {
						t.Fatalf("one lost answer: %+v, %v; want the token of the portal made again", p, err)
					}
				case 2:
					if !errors.As(err, &lostErr) || p == nil || p.Token != "" || p.UUID == "" {
						t.Fatalf("two lost answers: %+v, %v; want the portal and a SecretLostError", p, err)
					}
				}
				all, err := setup.Portals.List(ctx)
				if err != nil || len(all) != 1 || all[0].UUID != p.UUID {
					t.Fatalf("the emulator holds %+v (%v), want only %s", all, err, p.UUID)
				}
				deletes := 0
				for _, r := range e.Requests() {
					if r.Method == http.MethodDelete {
						deletes++
					}
				}
				if deletes != 1 {
					t.Errorf("%d deletes, want exactly one re-create", deletes)
				}
			})
		}
	}
}
