package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// TestGraphqlEndpoint: graphql_url wins; without it, the default only where rest_url is unset or the
// default, so that a token meant for another origin never reaches Buildkite's GraphQL origin.
func TestGraphqlEndpoint(t *testing.T) {
	cases := []struct{ graphql, rest, want string }{
		{"", "", kit.DefaultGraphQLURL},
		{"", kit.DefaultRESTURL, kit.DefaultGraphQLURL},
		{"", kit.DefaultRESTURL + "/", kit.DefaultGraphQLURL},
		{"", "http://127.0.0.1:8080", ""},
		{"http://127.0.0.1:8080/v1", "http://127.0.0.1:8080", "http://127.0.0.1:8080/v1"},
		{"https://gql.example/v1", "", "https://gql.example/v1"},
	}
	for _, tc := range cases {
		if got := GraphQLEndpoint(tc.graphql, tc.rest); got != tc.want {
			t.Errorf("graphqlEndpoint(%q, %q) = %q, want %q", tc.graphql, tc.rest, got, tc.want)
		}
	}
}

// TestGraphQLErrorAttribute: an error lands on the attribute its path names, else the one its message
// begins with, else on none.
func TestGraphQLErrorAttribute(t *testing.T) {
	fields := map[string]path.Path{"description": path.Root("description"), "membersRequireTwoFactorAuthentication": path.Root("enforce_2fa")}
	cases := []struct {
		item buildkite.GraphQLErrorItem
		want string
	}{
		{buildkite.GraphQLErrorItem{Message: "is too long", Path: []any{"agentTokenCreate", "input", "description"}}, "description"},
		{buildkite.GraphQLErrorItem{Message: "Description is too long"}, "description"},
		{buildkite.GraphQLErrorItem{Message: "input: membersRequireTwoFactorAuthentication must be set"}, "enforce_2fa"},
		{buildkite.GraphQLErrorItem{Message: "Only administrators may do that"}, ""},
	}
	for _, tc := range cases {
		p, ok := kit.GraphQLErrorAttribute(tc.item, fields)
		got := ""
		if ok {
			got = p.String()
		}
		if got != tc.want {
			t.Errorf("%+v: attribute %q, want %q", tc.item, got, tc.want)
		}
	}
}

// TestActedWithErrors_warning: a mutation's error marked Acted is a warning naming the object, the
// operation and the service's words, not an error; a refusal adds nothing here.
func TestActedWithErrors_warning(t *testing.T) {
	var diags diag.Diagnostics
	acted := &buildkite.GraphQLError{Operation: "createAgentToken", Acted: true,
		Errors: []buildkite.GraphQLErrorItem{{Message: "Audit log could not be written"}}}
	if !kit.ActedWithErrors(&diags, fmt.Errorf("wrapped: %w", acted), "create", "agent token", "ci") {
		t.Fatal("an Acted error was not taken as done")
	}
	if diags.HasError() || len(diags) != 1 {
		t.Fatalf("diagnostics = %v: want one warning", diags)
	}
	w := diags[0]
	if w.Summary() != "Buildkite Answered With Errors" || !strings.Contains(w.Detail(), "Creating agent token ci") ||
		!strings.Contains(w.Detail(), "Audit log could not be written") || !strings.Contains(w.Detail(), "GraphQL createAgentToken") ||
		strings.Contains(w.Detail(), "refused") {
		t.Errorf("warning = %q: %q", w.Summary(), w.Detail())
	}
	refused := &buildkite.GraphQLError{Operation: "createAgentToken", Errors: acted.Errors}
	if kit.ActedWithErrors(&diags, refused, "create", "agent token", "ci") || len(diags) != 1 {
		t.Errorf("a refusal was taken as done: %v", diags)
	}
}
