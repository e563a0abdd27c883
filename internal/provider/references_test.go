package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func TestRefUUID(t *testing.T) {
	t.Parallel()
	upper := strings.ToUpper(testUUID)
	cases := []struct {
		id, want, err string
	}{
		{testUUID, testUUID, ""},
		{upper, testUUID, ""},
		{clusterGraphQLID, testUUID, ""},
		{strings.TrimRight(clusterGraphQLID, "="), testUUID, ""},
		{kit.GraphQLID("Team", testUUID), "", `must name a Cluster or a Pipeline, got "` + kit.GraphQLID("Team", testUUID) + `", the GraphQL ID of a Team`},
		{"platform", "", `must be a UUID (the REST ID, as in the ` + "`id`" + ` or ` + "`uuid`" + ` attribute) or the GraphQL ID of a Cluster or a Pipeline, got "platform"`},
	}
	for _, tc := range cases {
		got, err := kit.RefUUID(tc.id, []string{"Cluster", "Pipeline"})
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("refUUID(%q) error = %v, want one containing %q", tc.id, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("refUUID(%q) = %q, %v; want %q", tc.id, got, err, tc.want)
		}
	}
}

func TestRefSemanticEquality(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	other := "11111111-2222-3333-4444-555555555555"
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{testUUID, clusterGraphQLID, true},
		{clusterGraphQLID, testUUID, true},
		{strings.ToUpper(testUUID), clusterGraphQLID, true},
		{testUUID, other, false},
		{clusterGraphQLID, kit.GraphQLID("Cluster", other), false},
		{"slug", "slug", true},
	} {
		eq, diags := kit.NewRef(tc.a).StringSemanticEquals(ctx, kit.NewRef(tc.b))
		if diags.HasError() || eq != tc.want {
			t.Errorf("%q semantically equal to %q = %v (%v), want %v", tc.a, tc.b, eq, diags, tc.want)
		}
	}
	if got := kit.NewRef(clusterGraphQLID).UUID(); got != testUUID {
		t.Errorf("UUID() = %q", got)
	}
	if kit.NewRef("").UUIDPtr() != nil || !kit.NewRef("").IsNull() {
		t.Error(`newRef("") is not null`)
	}
}

func TestRefKeepStateForm(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	other := "11111111-2222-3333-4444-555555555555"
	for _, tc := range []struct {
		name, state, config, want string
	}{
		{"graphql id in config, uuid in state", testUUID, clusterGraphQLID, testUUID},
		{"uuid in config, graphql id in state", clusterGraphQLID, testUUID, clusterGraphQLID},
		{"another object", testUUID, kit.GraphQLID("Cluster", other), kit.GraphQLID("Cluster", other)},
		{"same form", testUUID, testUUID, testUUID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := planmodifier.StringRequest{
				Path: path.Root("cluster_id"), StateValue: types.StringValue(tc.state),
				ConfigValue: types.StringValue(tc.config), PlanValue: types.StringValue(tc.config),
			}
			resp := &planmodifier.StringResponse{PlanValue: req.PlanValue}
			kit.RefKeepStateForm{}.PlanModifyString(ctx, req, resp)
			if resp.PlanValue.ValueString() != tc.want {
				t.Errorf("planned %q, want %q", resp.PlanValue.ValueString(), tc.want)
			}
		})
	}

	list := func(ids ...string) types.List { return kit.StringList(ids) }
	lreq := planmodifier.ListRequest{StateValue: list(testUUID), PlanValue: list(kit.GraphQLID("Team", testUUID))}
	lresp := &planmodifier.ListResponse{PlanValue: lreq.PlanValue}
	kit.RefListKeepStateForm{}.PlanModifyList(ctx, lreq, lresp)
	if !lresp.PlanValue.Equal(lreq.StateValue) {
		t.Errorf("a list naming the same teams by GraphQL ID planned %v, want the state's %v", lresp.PlanValue, lreq.StateValue)
	}
	if got := kit.ListUUIDs(list(kit.GraphQLID("Team", testUUID), other)); strings.Join(got, ",") != testUUID+","+other {
		t.Errorf("listUUIDs = %v", got)
	}
}

func TestRefValidator(t *testing.T) {
	t.Parallel()
	v := kit.RefValidator{GraphQLTypes: []string{"Cluster"}}
	for id, wantErr := range map[string]bool{testUUID: false, clusterGraphQLID: false, kit.GraphQLID("Team", testUUID): true, "x": true} {
		resp := &validator.StringResponse{}
		v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("cluster_id"), ConfigValue: types.StringValue(id)}, resp)
		if resp.Diagnostics.HasError() != wantErr {
			t.Errorf("%q: errors %v, want error %v", id, resp.Diagnostics, wantErr)
		}
		if wantErr && !strings.Contains(resp.Diagnostics[0].Detail(), "Attribute cluster_id ") {
			t.Errorf("%q: the error does not name the attribute: %s", id, resp.Diagnostics[0].Detail())
		}
	}
}

// Two forms of one ID are the same object; GraphQL IDs of two types are not, even over one UUID, and an ID
// the rule refuses is decoded into nothing.
func TestSameObject(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{clusterGraphQLID, testUUID, true},
		{clusterGraphQLID, strings.ToUpper(testUUID), true},
		{kit.GraphQLID("Pipeline", testUUID), clusterGraphQLID, false},
		{b64("Widget---" + testUUID), testUUID, false},
		{"website", "website", true},
		{"website", testUUID, false},
	} {
		if got := kit.SameObject(tc.a, tc.b); got != tc.want {
			t.Errorf("sameObject(%q, %q) = %t, want %t", tc.a, tc.b, got, tc.want)
		}
	}
}
