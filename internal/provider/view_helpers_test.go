package provider

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// apiCall sends one authenticated request to the service the test runs against (emulator or live) and
// decodes a 2xx answer into out. Tests use it for objects of other areas, such as the teams a suite needs.
func (e *testEnv) apiCall(method, path string, in, out any) {
	e.t.Helper()
	var body bytes.Buffer
	if in != nil {
		if err := json.NewEncoder(&body).Encode(in); err != nil {
			e.t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, e.url+path, &body)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode/100 != 2 {
		e.t.Fatalf("%s %s: %s", method, path, resp.Status)
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			e.t.Fatal(err)
		}
	}
}

// team creates a team for the test, deleted when the test ends, and returns its ID. It goes through the raw
// API so that these tests do not depend on the teams resource.
func (e *testEnv) team(base string) string {
	e.t.Helper()
	var team struct {
		ID string `json:"id"`
	}
	e.apiCall(http.MethodPost, "/v2/organizations/"+e.org+"/teams", map[string]any{"name": e.name(base)}, &team)
	e.t.Cleanup(func() {
		req, _ := http.NewRequest(http.MethodDelete, e.url+"/v2/organizations/"+e.org+"/teams/"+team.ID, nil)
		req.Header.Set("Authorization", "Bearer "+e.token)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			_ = resp.Body.Close()
		}
	})
	return team.ID
}

// disappears is the test of a resource deleted outside Terraform: applied, deleted behind Terraform's back,
// then planned for creation and created again by the next apply.
func (e *testEnv) disappears(address, body string) {
	e.t.Helper()
	cfg := e.config(body)
	resourceType, _, _ := strings.Cut(address, ".")
	resource.Test(e.t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed(resourceType),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              resource.ComposeTestCheckFunc(e.checkExists(address), e.removeOutside(address)),
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionCreate)},
				},
				Check: e.checkExists(address),
			},
		},
	})
}
