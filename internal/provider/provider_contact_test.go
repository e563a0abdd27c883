package provider

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// closedLoopback returns an http URL on a loopback port nothing listens on.
func closedLoopback(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr
}

// configure calls the provider's Configure as Terraform's ConfigureProvider would, with the provider block's
// attributes set to attrs (strings) and every other attribute null, and returns its answer.
func configure(t *testing.T, attrs map[string]string) *provider.ConfigureResponse {
	t.Helper()
	ctx := context.Background()
	p := New("test")()
	var sr provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
		if v, ok := attrs[name]; ok {
			vals[name] = tftypes.NewValue(tftypes.String, v)
		}
	}
	resp := &provider.ConfigureResponse{}
	p.Configure(ctx, provider.ConfigureRequest{
		TerraformVersion: "1.11.4",
		Config:           tfsdk.Config{Schema: sr.Schema, Raw: tftypes.NewValue(typ, vals)},
	}, resp)
	return resp
}

// onlyDiagnostic fails t unless diags holds exactly one diagnostic, of severity sev, on the provider
// attribute, whose summary is summary and whose detail holds each of details; it returns it.
func onlyDiagnostic(t *testing.T, diags diag.Diagnostics, sev diag.Severity, attribute, summary string, details ...string) diag.Diagnostic {
	t.Helper()
	if len(diags) != 1 {
		t.Fatalf("%d diagnostics, want exactly one:\n%v", len(diags), diags)
	}
	d := diags[0]
	if d.Severity() != sev || d.Summary() != summary {
		t.Fatalf("diagnostic %v %q, want %v %q", d.Severity(), d.Summary(), sev, summary)
	}
	var at path.Path
	if wp, ok := d.(diag.DiagnosticWithPath); ok {
		at = wp.Path()
	}
	if !at.Equal(path.Root(attribute)) {
		t.Errorf("diagnostic on %q, want on %q", at, attribute)
	}
	for _, want := range details {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("the detail does not say %q:\n%s", want, d.Detail())
		}
	}
	return d
}

// TestProviderConfigure_contact: configuring the provider makes first contact, so that a service nothing
// answers for, a refused token and an unknown organization are each one error, on the attribute to change,
// naming it (or the environment variable that set it) and what was tried; and a configuration the service
// accepts configures with no diagnostic and hands the client on.
func TestProviderConfigure_contact(t *testing.T) {
	emu := fakeserver.StartTest(t, fakeserver.Options{Org: "acme", Token: "test-token"})
	closed := closedLoopback(t)
	block := func(rest, org, token string) map[string]string {
		return map[string]string{"rest_url": rest, "organization": org, "api_token": token}
	}

	t.Run("unreachable", func(t *testing.T) {
		start := time.Now()
		resp := configure(t, block(closed, "acme", "test-token"))
		onlyDiagnostic(t, resp.Diagnostics, diag.SeverityError, "rest_url", "Unable to Reach Buildkite",
			"No connection could be made to "+closed, "refused", `Check "rest_url"`)
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("the check took %s: the unreachable address was waited for", took)
		}
		if resp.ResourceData != nil || resp.DataSourceData != nil {
			t.Error("the provider handed its data on after first contact failed")
		}
	})
	t.Run("refused token", func(t *testing.T) {
		resp := configure(t, block(emu.URL(), "acme", "nope"))
		onlyDiagnostic(t, resp.Diagnostics, diag.SeverityError, "api_token", "Invalid Buildkite API Token",
			"The service at "+emu.URL()+" refused the API token", "401", `Check "api_token"`)
	})
	t.Run("unknown organization", func(t *testing.T) {
		resp := configure(t, block(emu.URL(), "acme-typo", "test-token"))
		onlyDiagnostic(t, resp.Diagnostics, diag.SeverityError, "organization", "Unknown Buildkite Organization",
			`The organization "acme-typo" does not exist`, `Check "organization"`)
	})
	t.Run("accepted", func(t *testing.T) {
		emu.ResetRequests()
		resp := configure(t, block(emu.URL(), "acme", "test-token"))
		if len(resp.Diagnostics) != 0 {
			t.Fatalf("diagnostics: %v", resp.Diagnostics)
		}
		data, ok := resp.ResourceData.(*kit.ProviderData)
		if !ok || data.Token == nil || !data.OrgAtContact.Load() {
			t.Fatalf("the provider's data lacks what first contact found: %#v", resp.ResourceData)
		}
		// Configure asked once for each; the first call of a resource asks nothing more.
		if _, err := data.Client.Clusters.List(context.Background()); err != nil {
			t.Fatal(err)
		}
		var asked []string
		for _, r := range emu.Requests() {
			asked = append(asked, r.Method+" "+r.Path)
		}
		if len(asked) == 3 {
			slices.Sort(asked[:2]) // first contact asks for both at once
		}
		want := []string{"GET /v2/access-token", "GET /v2/organizations/acme", "GET /v2/organizations/acme/clusters"}
		if !slices.Equal(asked, want) {
			t.Errorf("requests %q, want %q", asked, want)
		}
	})
}

// TestProviderConfigure_contactNamesTheVariable: where the environment set the value, the error names its
// variable. Not parallel: it sets the environment the provider reads.
func TestProviderConfigure_contactNamesTheVariable(t *testing.T) {
	emu := fakeserver.StartTest(t, fakeserver.Options{Org: "acme", Token: "test-token"})
	t.Setenv(kit.EnvRESTURL, emu.URL())
	t.Setenv(kit.EnvAPIToken, "nope")
	t.Setenv(kit.EnvOrgSlug, "acme")
	resp := configure(t, nil)
	onlyDiagnostic(t, resp.Diagnostics, diag.SeverityError, "api_token", "Invalid Buildkite API Token",
		`Check the BUILDKITE_API_TOKEN environment variable ("api_token" is not set)`)

	t.Setenv(kit.EnvAPIToken, "test-token")
	t.Setenv(kit.EnvOrgSlug, "acme-typo")
	resp = configure(t, nil)
	onlyDiagnostic(t, resp.Diagnostics, diag.SeverityError, "organization", "Unknown Buildkite Organization",
		`Check the BUILDKITE_ORGANIZATION_SLUG environment variable ("organization" is not set)`)

	closed := closedLoopback(t)
	t.Setenv(kit.EnvRESTURL, closed)
	resp = configure(t, nil)
	onlyDiagnostic(t, resp.Diagnostics, diag.SeverityError, "rest_url", "Unable to Reach Buildkite",
		closed, `Check the BUILDKITE_REST_URL environment variable ("rest_url" is not set)`)
}

// TestProviderConfigure_graphqlHost: where the API token would go to a GraphQL origin other than rest_url's,
// configuring says so in one warning naming both; where they are one service (the emulator's <rest_url>/v1,
// Buildkite's own pair) or there is no GraphQL endpoint, it says nothing. Not parallel: one case leaves
// BUILDKITE_GRAPHQL_URL in the environment, as another workspace might.
func TestProviderConfigure_graphqlHost(t *testing.T) {
	emu := fakeserver.StartTest(t, fakeserver.Options{Org: "acme", Token: "test-token"})
	block := func(graphql string) map[string]string {
		m := map[string]string{"rest_url": emu.URL(), "organization": "acme", "api_token": "test-token"}
		if graphql != "" {
			m["graphql_url"] = graphql
		}
		return m
	}
	const other = "https://graphql.example.com/v1"
	resp := configure(t, block(other))
	d := onlyDiagnostic(t, resp.Diagnostics, diag.SeverityWarning, "graphql_url", "API Token Sent to Another GraphQL Host",
		emu.URL(), "https://graphql.example.com", "(from graphql_url)")
	if strings.Contains(d.Detail(), kit.EnvGraphQLURL) {
		t.Errorf("graphql_url is configured, yet the warning talks of %s:\n%s", kit.EnvGraphQLURL, d.Detail())
	}
	if resp.ResourceData == nil {
		t.Error("a warning stopped the provider from configuring")
	}

	for name, graphql := range map[string]string{"the emulator's own": emu.URL() + "/v1", "none": ""} {
		if resp := configure(t, block(graphql)); len(resp.Diagnostics) != 0 {
			t.Errorf("%s: diagnostics %v, want none", name, resp.Diagnostics)
		}
	}

	t.Setenv(kit.EnvGraphQLURL, kit.DefaultGraphQLURL) // left over from a workspace on Buildkite's own service
	resp = configure(t, block(""))
	onlyDiagnostic(t, resp.Diagnostics, diag.SeverityWarning, "graphql_url", "API Token Sent to Another GraphQL Host",
		emu.URL(), "https://graphql.buildkite.com", "(from "+kit.EnvGraphQLURL+")", "unset "+kit.EnvGraphQLURL)
}

// TestGraphQLHostWarning_pairs: which pairs of rest_url and GraphQL endpoint are one service.
func TestGraphQLHostWarning_pairs(t *testing.T) {
	cases := []struct {
		rest, graphql string
		warn          bool
	}{
		{kit.DefaultRESTURL, kit.DefaultGraphQLURL, false},
		{"https://API.buildkite.com:443/", "https://graphql.buildkite.com/v1", false},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/v1", false},
		{"http://localhost:8080", "http://LOCALHOST:8080/v1", false},
		{"http://127.0.0.1:8080", "", false},
		{"http://127.0.0.1:8080", "http://127.0.0.1:9090/v1", true},
		{"http://127.0.0.1:8080", kit.DefaultGraphQLURL, true},
		{kit.DefaultRESTURL, "https://proxy.example.com/graphql", true},
		{"https://proxy.example.com", "http://proxy.example.com/v1", true},
	}
	for _, tc := range cases {
		got := graphqlHostWarning(settings{restURL: tc.rest, graphqlURL: tc.graphql, restFrom: "rest_url", graphqlFrom: "graphql_url"})
		if (len(got) == 1) != tc.warn || len(got) > 1 {
			t.Errorf("rest %q, graphql %q: %d warnings, want warn=%v", tc.rest, tc.graphql, len(got), tc.warn)
		}
	}
}

// TestAccProvider_unreachableFailsPlanOnce: with nothing listening at rest_url and no state, a plan of
// several resources and data sources fails with exactly one error, naming rest_url and the address, within
// seconds, however long the read timeout.
func TestAccProvider_unreachableFailsPlanOnce(t *testing.T) {
	t.Parallel()
	closed := closedLoopback(t)
	block := fmt.Sprintf(`
provider "buildkite" {
  rest_url     = %q
  organization = "acme"
  api_token    = "t"
  timeouts = {
    read = "2m"
  }
}
`, closed)
	e := acctest.NewTestEnv(t)
	start := time.Now()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config:   block + testAccWrongOrgConfig(e.Name("unreachable")),
			PlanOnly: true,
			ExpectError: acctest.OnlyError(`Unable to Reach Buildkite[\s\S]*No\s+connection\s+could\s+be\s+made\s+to\s+` +
				regexp.QuoteMeta(closed) + `[\s\S]*refused[\s\S]*Check\s+"rest_url"`),
		}},
	})
	if took := time.Since(start); took > 15*time.Second {
		t.Errorf("the plan took %s: the unreachable service was waited for", took)
	}
}

// TestAccProvider_refusedTokenFailsPlanOnce: a token the service refuses is one error for a plan of several
// resources and data sources, naming api_token, not one per object.
func TestAccProvider_refusedTokenFailsPlanOnce(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("the emulator's own token is known to be refused; a live run would spend a refused request on the real service")
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config:      e.ProviderBlock(e.Org, "not-the-token") + testAccWrongOrgConfig(e.Name("refused")),
			PlanOnly:    true,
			ExpectError: acctest.OnlyError(`Invalid Buildkite API Token[\s\S]*refused\s+the\s+API\s+token[\s\S]*Check\s+"api_token"`),
		}},
	})
}

// TestAccProvider_validateAsksNothing: `terraform validate` does not configure the provider, so it makes no
// request, not even first contact.
func TestAccProvider_validateAsksNothing(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("counts the emulator's requests")
	}
	w := plainWorkdir(e, t, e.Config(testAccWrongOrgConfig(e.Name("validate"))))
	e.Server.ResetRequests()
	w.MustRun("validate", "-no-color")
	if reqs := e.Server.Requests(); len(reqs) != 0 {
		t.Errorf("terraform validate made %d requests, want none: %v", len(reqs), reqs)
	}
	// The same workspace plans, so the provider is served and the configuration is one that asks.
	w.MustRun("plan", "-no-color", "-input=false")
	if len(e.Server.Requests()) == 0 {
		t.Error("terraform plan made no request: the workspace does not reach the provider")
	}
}

// TestAccProvider_graphqlHostWarnedOnce: Terraform shows the warning of a GraphQL origin other than
// rest_url's once in a plan of several resources and data sources, naming both.
func TestAccProvider_graphqlHostWarnedOnce(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("points graphql_url away from the service under test")
	}
	block := fmt.Sprintf(`
provider "buildkite" {
  rest_url     = %q
  graphql_url  = "https://graphql.example.com/v1"
  organization = %q
  api_token    = %q
}
`, e.URL, e.Org, e.Token)
	w := plainWorkdir(e, t, block+testAccWrongOrgConfig(e.Name("graphql-host")))
	out := w.MustRun("plan", "-no-color", "-input=false")
	if n := strings.Count(out, "Warning: API Token Sent to Another GraphQL Host"); n != 1 {
		t.Errorf("the warning is shown %d times, want once:\n%s", n, out)
	}
	acctest.ExpectOutput(t, out, e.URL, "https://graphql.example.com")

	w = plainWorkdir(e, t, e.Config(testAccWrongOrgConfig(e.Name("graphql-same"))))
	if out := w.MustRun("plan", "-no-color", "-input=false"); strings.Contains(out, "Warning:") {
		t.Errorf("a plan against the emulator's own GraphQL endpoint warns:\n%s", out)
	}
}

// plainWorkdir writes mainTF into a fresh directory, serves the provider in this process under the address
// the test steps use, and runs `terraform init` there with the CLI the acceptance tests use.
func plainWorkdir(e *acctest.TestEnv, t *testing.T, mainTF string) *acctest.CLIWorkdir {
	t.Helper()
	cli := acctest.TerraformCLI(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(mainTF), 0o600); err != nil {
		t.Fatal(err)
	}
	w := acctest.Reattached(t, cli, dir, e.ServeInProcess(t))
	w.MustRun("init", "-no-color", "-input=false")
	return w
}
