package organization_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/organization"
)

func TestAccOrganizationDataSource(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.KeepAPISettings()
	o, err := e.Client.Organizations.Get(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	found, err := e.Client.OrgSettings.GetAPISettings(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !e.Live && len(found.AllowedIPs()) > 0 {
		t.Fatalf("the emulator starts with the allowlist %v, want none", found.AllowedIPs())
	}
	// setAllowlist is a PreConfig: the allowlist set outside Terraform, as the web interface would.
	setAllowlist := func(ips ...string) func() {
		return func() {
			if _, err := e.Client.OrgSettings.UpdateAPISettings(t.Context(), buildkite.APISettingsUpdate{AllowedIPAddresses: organization.AllowlistUpdate(ips)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	const addr = "data.buildkite_organization.o"
	cfg := e.Config(`data "buildkite_organization" "o" {}`)
	allowlist := func(ips ...string) statecheck.StateCheck {
		want := make([]knownvalue.Check, len(ips))
		for i, ip := range ips {
			want[i] = knownvalue.StringExact(ip)
		}
		// [""], not null or [], where there is none: the official provider's reading, which its tests index.
		if len(ips) == 0 {
			want = []knownvalue.Check{knownvalue.StringExact("")}
		}
		return statecheck.ExpectKnownValue(addr, tfjsonpath.New("allowed_api_ip_addresses"), knownvalue.ListExact(want))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(o.ID)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("uuid"), knownvalue.StringExact(o.ID)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("graphql_id"), knownvalue.StringExact(o.GraphQLID)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("slug"), knownvalue.StringExact(e.Org)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(o.Name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("url"), knownvalue.StringExact(o.URL)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("web_url"), knownvalue.StringExact(o.WebURL)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("created_at"), knownvalue.NotNull()),
					allowlist(found.AllowedIPs()...),
				},
			},
			{
				// Every address, in two networks: the allowlist is enforced, and must not lock the test out.
				PreConfig:         setAllowlist("0.0.0.0/1", "128.0.0.0/1"),
				Config:            cfg,
				ConfigStateChecks: []statecheck.StateCheck{allowlist("0.0.0.0/1", "128.0.0.0/1")},
			},
			{
				PreConfig:         setAllowlist(),
				Config:            cfg,
				ConfigStateChecks: []statecheck.StateCheck{allowlist()},
			},
		},
	})
}

// TestAccOrganizationDataSource_notAdministrator: a token that may not read the organization's settings still
// reads its IDs; the allowlist is null, with a warning that says why.
func TestAccOrganizationDataSource_notAdministrator(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("seeds a member's token in the emulator")
	}
	ips := []string{"192.0.2.0/24"}
	if _, err := e.Client.OrgSettings.UpdateAPISettings(t.Context(), buildkite.APISettingsUpdate{AllowedIPAddresses: organization.AllowlistUpdate(ips)}); err != nil {
		t.Fatal(err)
	}
	e.Server.SetCallerAddress("192.0.2.7") // inside the allowlist, which the emulator enforces
	member := e.Server.Store().AddUser(e.Org, "Member", "member@example.com", false)
	if err := e.Server.Store().AddTokenForUser("member-token", member, []string{e.Org}, fakeserver.AllScopes()); err != nil {
		t.Fatal(err)
	}
	o, err := e.Client.Organizations.Get(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	const addr = "data.buildkite_organization.o"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf("provider \"buildkite\" {\n  rest_url = %q\n  organization = %q\n  api_token = \"member-token\"\n}\n", e.URL, e.Org) +
				`data "buildkite_organization" "o" {}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(o.ID)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("allowed_api_ip_addresses"), knownvalue.Null()),
			},
		}},
	})

	// The warning, read from the data source itself.
	memberClient, err := buildkite.NewClient(buildkite.Config{BaseURL: e.URL, Organization: e.Org, Token: "member-token"})
	if err != nil {
		t.Fatal(err)
	}
	ds := organization.NewOrganizationDataSource().(*organization.OrganizationDataSourceForTest)
	ds.Configure(t.Context(), datasource.ConfigureRequest{ProviderData: &kit.ProviderData{Client: memberClient, Org: e.Org}}, &datasource.ConfigureResponse{})
	var sresp datasource.SchemaResponse
	ds.Schema(t.Context(), datasource.SchemaRequest{}, &sresp)
	resp := datasource.ReadResponse{State: tfsdk.State{Schema: sresp.Schema, Raw: tftypes.NewValue(sresp.Schema.Type().TerraformType(t.Context()), nil)}}
	ds.Read(t.Context(), datasource.ReadRequest{}, &resp)
	if resp.Diagnostics.HasError() || resp.Diagnostics.WarningsCount() != 1 {
		t.Fatalf("diagnostics = %v, want one warning and no error", resp.Diagnostics)
	}
	w := resp.Diagnostics.Warnings()[0]
	if w.Summary() != "Unable to Read Organization API Settings" || !strings.Contains(w.Detail(), "read_organization_settings") ||
		!strings.Contains(w.Detail(), "administrator") || !strings.Contains(w.Detail(), "allowed_api_ip_addresses") {
		t.Errorf("the warning does not say why: %s: %s", w.Summary(), w.Detail())
	}
	var m organization.OrganizationModelForTest
	if d := resp.State.Get(t.Context(), &m); d.HasError() {
		t.Fatal(d)
	}
	if m.ID.ValueString() != o.ID || !m.AllowedAPIIPAddresses.IsNull() {
		t.Errorf("id %s, allowlist %s; want %s and null", m.ID, m.AllowedAPIIPAddresses, o.ID)
	}
}

func TestAccOrganizationMemberDataSource(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	email := e.SecondMemberEmail()
	members, err := e.Client.Organizations.ListMembers(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var id, name string
	for _, m := range members {
		if m.Email == email {
			id, name = m.ID, m.Name
		}
	}
	checks := func(addr string) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(id)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("uuid"), knownvalue.StringExact(id)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("email"), knownvalue.StringExact(email)),
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.Config(`data "buildkite_organization_member" "x" { email = "nobody@example.com" }`),
				ExpectError: regexp.MustCompile(`No organization member found(?s).*Organization member not found: nobody@example.com`),
			},
			{
				Config:      e.Config(`data "buildkite_organization_member" "x" { id = "00000000-0000-4000-8000-000000000000" }`),
				ExpectError: regexp.MustCompile(`No Organization Member Found`),
			},
			{
				Config:      e.Config(`data "buildkite_organization_member" "x" {}`),
				ExpectError: regexp.MustCompile(`Exactly one of these attributes must be configured`),
			},
			{
				// By e-mail address in another case, and by ID.
				Config: e.Config(fmt.Sprintf(`
data "buildkite_organization_member" "by_email" {
  email = %q
}
data "buildkite_organization_member" "by_id" {
  id = %q
}
`, strings.ToUpper(email), id)),
				ConfigStateChecks: append(checks("data.buildkite_organization_member.by_email"), checks("data.buildkite_organization_member.by_id")...),
			},
		},
	})
}

func TestAccOrganizationMemberDataSource_moreThanOne(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnvWith(t, fakeserver.Options{}, acctest.DuplicateFirstListed("/members", func(m map[string]any) {
		m["id"] = "00000000-0000-4000-8000-000000000001"
		m["email"] = strings.ToUpper(m["email"].(string))
	}))
	members, err := e.Client.Organizations.ListMembers(t.Context())
	if err != nil || len(members) == 0 {
		t.Fatalf("members = %v, %v", members, err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config:      e.Config(fmt.Sprintf(`data "buildkite_organization_member" "x" { email = %q }`, members[0].Email)),
			ExpectError: regexp.MustCompile(`More Than One Organization Member Found`),
		}},
	})
}

func TestAccOrganizationMembersDataSource(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if !e.Live {
		e.Server.Store().AddUser(e.Org, "Third Member", "third@example.com", false)
	}
	members, err := e.Client.Organizations.ListMembers(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := make([]knownvalue.Check, len(members))
	for i, m := range members {
		want[i] = knownvalue.ObjectExact(map[string]knownvalue.Check{
			"id": knownvalue.StringExact(m.ID), "uuid": knownvalue.StringExact(m.ID),
			"name": knownvalue.StringExact(m.Name), "email": knownvalue.StringExact(m.Email),
		})
	}
	if !e.Live && len(want) != 3 {
		t.Fatalf("the emulator has %d members, want 3", len(want))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config: e.Config(`data "buildkite_organization_members" "all" {}`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.buildkite_organization_members.all", tfjsonpath.New("members"), knownvalue.ListExact(want)),
			},
		}},
	})
}

// An organization whose members the token cannot see is an error, with the official provider's summary.
func TestAccOrganizationMembersDataSource_none(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnvWith(t, fakeserver.Options{}, answerEmptyList("/members"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config:      e.Config(`data "buildkite_organization_members" "all" {}`),
			ExpectError: regexp.MustCompile(`No organization members found`),
		}},
	})
}

// answerEmptyList makes the emulator answer an empty page to a listing at a path ending in suffix.
func answerEmptyList(suffix string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, suffix) {
				next.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte("[]"))
		})
	}
}

// Filtered by a team (by slug, as newer official releases take it), the list holds the team's members only.
func TestAccOrganizationMembersDataSource_team(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	members, err := e.Client.Organizations.ListMembers(t.Context())
	if err != nil || len(members) < 2 {
		t.Fatalf("members = %v, %v; want at least 2", members, err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_team_member"),
		Steps: []resource.TestStep{{
			Config:      e.Config(`data "buildkite_organization_members" "x" { team = "no-such-team" }`),
			ExpectError: regexp.MustCompile(`(?s)Unable to List Organization Members.*no-such-team`),
		}, {
			Config: e.Config(fmt.Sprintf(`
data "buildkite_organization_members" "all" {}

resource "buildkite_team" "t" {
  name                = %q
  privacy             = "VISIBLE"
  default_team        = false
  default_member_role = "MEMBER"
}

resource "buildkite_team_member" "m" {
  team_id = buildkite_team.t.id
  user_id = data.buildkite_organization_members.all.members[1].id
  role    = "MEMBER"
}

data "buildkite_organization_members" "team" {
  team       = buildkite_team.t.slug
  depends_on = [buildkite_team_member.m]
}
`, e.Name("members-filter"))),
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("data.buildkite_organization_members.team", "members.#", "1"),
				resource.TestCheckResourceAttrPair("data.buildkite_organization_members.team", "members.0.id", "buildkite_team_member.m", "user_id"),
				resource.TestCheckResourceAttr("data.buildkite_organization_members.team", "members.0.email", members[1].Email),
			),
		}},
	})
}
