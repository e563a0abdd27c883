package provider

import (
	"context"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/clusters"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/pipelines"
)

// enumAttributes are the attributes whose values come from a fixed list, by "<kind> <type>.<attribute path>",
// with the spellings each accepts. TestEnumErrors_listAccepted finds every one in the schemas.
var enumAttributes = map[string][]string{
	"resource buildkite_pipeline.visibility":                                  {"private", "PRIVATE", "public", "PUBLIC"},
	"resource buildkite_pipeline.provider_settings.trigger_mode":              {"code", "deployment", "fork", "none"},
	"resource buildkite_pipeline.provider_settings.issue_comment_match_mode":  {"exact", "contains"},
	"resource buildkite_pipeline.provider_settings.review_comment_match_mode": {"exact", "contains"},
	"resource buildkite_cluster_queue.retry_agent_affinity":                   {"prefer-warmest", "prefer-different"},
	"resource buildkite_cluster_queue.hosted_agents.instance_shape":           clusters.HostedInstanceShapes,
	"resource buildkite_pipeline_team.access_level":                           {"read_only", "READ_ONLY", "build_and_read", "BUILD_AND_READ", "manage_build_and_read", "MANAGE_BUILD_AND_READ"},
	"resource buildkite_team.privacy":                                         {"visible", "VISIBLE", "secret", "SECRET"},
	"resource buildkite_team.default_member_role":                             {"member", "MEMBER", "maintainer", "MAINTAINER"},
	"resource buildkite_team_member.role":                                     {"member", "MEMBER", "maintainer", "MAINTAINER"},
	"resource buildkite_organization_membership.role":                         {"member", "MEMBER", "admin", "ADMIN"},
	"resource buildkite_organization_membership.sso_mode":                     {"required", "REQUIRED", "optional", "OPTIONAL"},
	"list resource buildkite_organization_membership.role":                    {"member", "admin"},
	"list resource buildkite_organization_membership.state":                   {"active", "pending"},
	"resource buildkite_test_suite_team.access_level":                         {"read_only", "READ_ONLY", "manage_and_read", "MANAGE_AND_READ"},
	"resource buildkite_team_registry.access_level":                           {"read_only", "READ_ONLY", "read_and_write", "READ_AND_WRITE", "read_write_and_admin", "READ_WRITE_AND_ADMIN"},
	"data source buildkite_builds.state":                                      pipelines.BuildFilterStates,
	"action buildkite_create_build.wait_until":                                {`""`, "started", "finished"},
	"resource buildkite_organization.revoke_inactive_tokens_after":            {"NEVER", "DAYS_30", "DAYS_60", "DAYS_90", "DAYS_180", "DAYS_365"},

	"resource buildkite_notification_service.provider_type":                {"webhook", "aws_event_bridge", "datadog_pipeline_visibility", "open_telemetry_tracing", "linear", "slack_workspace"},
	"resource buildkite_notification_service.scope":                        {"all", "some_projects", "some_teams", "some_clusters"},
	"resource buildkite_notification_service.webhook.token_mode":           {"token", "signature"},
	"resource buildkite_organization_pipeline_settings.default_cluster_id": {"must be a UUID", `[""]`},
}

// TestEnumErrors_listAccepted: every attribute of a resource, data source, list resource or action whose
// validator takes values from a fixed list refuses an unknown value with an error that names the attribute
// and lists every spelling it accepts. An enum that is not in enumAttributes fails the test, so a new one
// is checked too.
func TestEnumErrors_listAccepted(t *testing.T) {
	ctx := context.Background()
	found := map[string]bool{}
	for name, attrs := range providerSchemas(ctx, t) {
		for attrPath, attr := range attrs {
			key := name + "." + attrPath
			detail, isEnum := refuseUnknownValue(ctx, attr, attrPath)
			if !isEnum {
				continue
			}
			found[key] = true
			t.Logf("%s: %s", key, detail)
			accepted, ok := enumAttributes[key]
			if !ok {
				t.Errorf("%s is an enum that enumAttributes does not list; its error: %s", key, detail)
				continue
			}
			for _, s := range accepted {
				if !strings.Contains(detail, s) {
					t.Errorf("%s: the error does not list %s: %s", key, s, detail)
				}
			}
			if leaf := attrPath[strings.LastIndex(attrPath, ".")+1:]; !strings.Contains(detail, leaf) {
				t.Errorf("%s: the error does not name the attribute: %s", key, detail)
			}
		}
	}
	for key := range enumAttributes {
		if !found[key] {
			t.Errorf("%s is in enumAttributes, but no such enum is in the schemas", key)
		}
	}
}

// providerSchemas returns the attributes, by dotted path, of every resource, data source, list resource and
// action, keyed by "<kind> <type name>".
func providerSchemas(ctx context.Context, t *testing.T) map[string]map[string]any {
	t.Helper()
	p := New("test")()
	out := map[string]map[string]any{}
	add := func(kind, typeName string, attributes any) {
		attrs := map[string]any{}
		collectAttributes(reflect.ValueOf(attributes), "", attrs)
		out[kind+" "+typeName] = attrs
	}
	for _, f := range p.Resources(ctx) {
		r := f()
		var m resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "buildkite"}, &m)
		var s resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &s)
		add("resource", m.TypeName, s.Schema.Attributes)
	}
	for _, f := range p.DataSources(ctx) {
		d := f()
		var m datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "buildkite"}, &m)
		var s datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &s)
		add("data source", m.TypeName, s.Schema.Attributes)
	}
	if lp, ok := p.(fwprovider.ProviderWithListResources); ok {
		for _, f := range lp.ListResources(ctx) {
			l := f()
			var m resource.MetadataResponse
			l.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "buildkite"}, &m)
			var s list.ListResourceSchemaResponse
			l.ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &s)
			add("list resource", m.TypeName, s.Schema.Attributes)
		}
	}
	if ap, ok := p.(fwprovider.ProviderWithActions); ok {
		for _, f := range ap.Actions(ctx) {
			a := f()
			var m action.MetadataResponse
			a.Metadata(ctx, action.MetadataRequest{ProviderTypeName: "buildkite"}, &m)
			var s action.SchemaResponse
			a.Schema(ctx, action.SchemaRequest{}, &s)
			add("action", m.TypeName, s.Schema.Attributes)
		}
	}
	if len(out) == 0 {
		t.Fatal("the provider has no schemas")
	}
	return out
}

// collectAttributes walks a map of attributes (of any of the framework's schema packages) into out by
// dotted path, descending into nested attributes (their Attributes, or NestedObject.Attributes).
func collectAttributes(attributes reflect.Value, prefix string, out map[string]any) {
	if attributes.Kind() != reflect.Map {
		return
	}
	keys := attributes.MapKeys()
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	for _, k := range keys {
		v := attributes.MapIndex(k)
		p := prefix + k.String()
		out[p] = v.Interface()
		for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			continue
		}
		collectAttributes(v.FieldByName("Attributes"), p+".", out)
		if nested := v.FieldByName("NestedObject"); nested.IsValid() {
			collectAttributes(nested.FieldByName("Attributes"), p+".", out)
		}
	}
}

// refuseUnknownValue runs an attribute's enum-like validators ("one of" in their description) on a value
// none accepts, and returns the errors' details; isEnum is false when the attribute has none.
func refuseUnknownValue(ctx context.Context, attr any, attrPath string) (detail string, isEnum bool) {
	const bogus = "no-such-value"
	var details []string
	parts := strings.Split(attrPath, ".")
	p := path.Root(parts[0])
	for _, name := range parts[1:] {
		p = p.AtName(name)
	}
	if a, ok := attr.(interface{ StringValidators() []validator.String }); ok {
		for _, v := range a.StringValidators() {
			if !strings.Contains(v.Description(ctx), "one of") {
				continue
			}
			isEnum = true
			resp := &validator.StringResponse{}
			v.ValidateString(ctx, validator.StringRequest{Path: p, ConfigValue: types.StringValue(bogus)}, resp)
			for _, d := range resp.Diagnostics.Errors() {
				details = append(details, d.Detail())
			}
		}
	}
	if a, ok := attr.(interface{ ListValidators() []validator.List }); ok {
		for _, v := range a.ListValidators() {
			if !strings.Contains(v.Description(ctx), "one of") {
				continue
			}
			isEnum = true
			resp := &validator.ListResponse{}
			value, _ := types.ListValueFrom(ctx, types.StringType, []string{bogus})
			v.ValidateList(ctx, validator.ListRequest{Path: p, ConfigValue: value}, resp)
			for _, d := range resp.Diagnostics.Errors() {
				details = append(details, d.Detail())
			}
		}
	}
	if isEnum && len(details) == 0 {
		details = append(details, "(no error: the value "+bogus+" was accepted)")
	}
	return strings.Join(details, "\n"), isEnum
}
