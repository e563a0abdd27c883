package buildkite

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

func TestFlakyTests_ListFilters(t *testing.T) {
	c, fs := emulatorWithStore(t)
	resolved := time.Date(2024, 5, 3, 9, 0, 0, 0, time.UTC)
	if err := fs.Store().SeedSuite("acme", fakeserver.SuiteFixture{Slug: "rspec", FlakyTests: []fakeserver.FlakyTestFixture{
		{Name: "creates a user", Scope: "User#create", Location: "./spec/user_spec.rb:12", Branch: "main", Instances: 3},
		{Name: "sends mail", Scope: "Mailer", Branch: "feature", LastResolvedAt: &resolved},
	}}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	all, err := c.FlakyTests.List(ctx, "rspec", FlakyTestFilter{})
	if err != nil || len(all) != 2 {
		t.Fatalf("all: %v, %v", all, err)
	}
	user := all[0]
	if user.Name != "creates a user" || user.FileName != "./spec/user_spec.rb" || user.Instances != 3 ||
		user.LatestOccurrenceAt == nil || user.LastResolvedAt != nil || user.ID == "" || user.WebURL == "" {
		t.Errorf("decoded %+v", user)
	}
	if all[1].LastResolvedAt == nil || !all[1].LastResolvedAt.Equal(resolved) {
		t.Errorf("last resolved = %v", all[1].LastResolvedAt)
	}
	for _, tc := range []struct {
		filter FlakyTestFilter
		want   string
	}{
		{FlakyTestFilter{Branch: "feature"}, "sends mail"},
		{FlakyTestFilter{Search: "user#"}, "creates a user"},
	} {
		got, err := c.FlakyTests.List(ctx, "rspec", tc.filter)
		if err != nil || len(got) != 1 || got[0].Name != tc.want {
			t.Errorf("%+v: %v, %v", tc.filter, got, err)
		}
	}
	if _, err := c.FlakyTests.List(ctx, "nope", FlakyTestFilter{}); !IsNotFound(err) {
		t.Errorf("unknown suite: %v", err)
	}
}

func TestFlakyTests_Query(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `[]`))
	c := newTestClient(t, s.srv.URL)
	if _, err := c.FlakyTests.List(context.Background(), "my suite", FlakyTestFilter{Search: "a b", Branch: "main"}); err != nil {
		t.Fatal(err)
	}
	r := s.only(t)
	assertRequest(t, r, "GET", "/v2/analytics/organizations/acme/suites/my%20suite/flaky-tests", "")
	if r.Query != "branch=main&per_page=100&search=a+b" {
		t.Errorf("query = %q", r.Query)
	}
}
