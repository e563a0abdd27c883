package provider

import (
	"context"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// notListable are the resource types without a list resource, each with why no listing finds it: the
// objects an organization holds one of, and what the service has no listing of. Everything else an
// organization has, one `terraform query` finds (docs/guides/import-existing-organization.md).
var notListable = map[string]string{
	"buildkite_organization":                   "the organization's own settings: one per organization, imported by its slug",
	"buildkite_organization_banner":            "at most one per organization, imported by its slug",
	"buildkite_organization_pipeline_settings": "the organization's pipeline settings: one per organization",
	"buildkite_pipeline_webhook":               "at most one per pipeline, and the REST API lists no webhooks: imported by the pipeline's slug",
}

// guideTemplate is the guide whose one query adopts a whole organization.
const guideTemplate = "../../templates/guides/import-existing-organization.md.tmpl"

// TestHouse_everyListableTypeHasAListResource: every resource type the provider registers has a list
// resource of the same name, or is in notListable with the reason, and the guide's query has an unfiltered
// list block of every list resource, so that it finds everything an organization has that can be listed. A
// type added without its list resource fails here.
func TestHouse_everyListableTypeHasAListResource(t *testing.T) {
	ctx := context.Background()
	p := New("test")()
	resources := map[string]bool{}
	for _, f := range p.Resources(ctx) {
		var m resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "buildkite"}, &m)
		resources[m.TypeName] = true
	}
	lists := map[string]bool{}
	for _, f := range p.(interface {
		ListResources(context.Context) []func() list.ListResource
	}).ListResources(ctx) {
		var m resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "buildkite"}, &m)
		lists[m.TypeName] = true
	}
	for _, typ := range slices.Sorted(maps.Keys(resources)) {
		why, exempt := notListable[typ]
		switch {
		case !lists[typ] && !exempt:
			t.Errorf("%s has no list resource: add one (%s_list_resource.go, registered in provider.go's "+
				"ListResources), or say in notListable why no listing finds it", typ, strings.TrimPrefix(typ, "buildkite_"))
		case lists[typ] && exempt:
			t.Errorf("%s has a list resource and is in notListable (%q): drop it from notListable", typ, why)
		}
	}
	for typ := range notListable {
		if !resources[typ] {
			t.Errorf("notListable names %s, which the provider does not register", typ)
		}
	}
	guide, err := os.ReadFile(guideTemplate)
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range slices.Sorted(maps.Keys(lists)) {
		if !resources[typ] {
			t.Errorf("the list resource %s finds no resource type the provider registers", typ)
		}
		if !strings.Contains(string(guide), `list "`+typ+`" "all" {`) {
			t.Errorf("the guide's query (%s) has no list block of %s: add `list %q \"all\"` beside the others",
				guideTemplate, typ, typ)
		}
	}
}
