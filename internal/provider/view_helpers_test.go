package provider

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

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
