package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func TestRefUUID(t *testing.T) {
	t.Parallel()
	upper := strings.ToUpper(acctest.TestUUID)
	cases := []struct {
		id, want, err string
	}{
		{acctest.TestUUID, acctest.TestUUID, ""},
		{upper, acctest.TestUUID, ""},
		{acctest.ClusterGraphQLID, acctest.TestUUID, ""},
		{strings.TrimRight(acctest.ClusterGraphQLID, "="), acctest.TestUUID, ""},
		{kit.GraphQLID("Team", acctest.TestUUID), "", `must name a Cluster or a Pipeline, got "` + kit.GraphQLID("Team", acctest.TestUUID) + `", the GraphQL ID of a Team`},
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
		{acctest.TestUUID, acctest.ClusterGraphQLID, true},
		{acctest.ClusterGraphQLID, acctest.TestUUID, true},
		{strings.ToUpper(acctest.TestUUID), acctest.ClusterGraphQLID, true},
		{acctest.TestUUID, other, false},
		{acctest.ClusterGraphQLID, kit.GraphQLID("Cluster", other), false},
		{"slug", "slug", true},
	} {
		eq, diags := kit.NewRef(tc.a).StringSemanticEquals(ctx, kit.NewRef(tc.b))
		if diags.HasError() || eq != tc.want {
			t.Errorf("%q semantically equal to %q = %v (%v), want %v", tc.a, tc.b, eq, diags, tc.want)
		}
	}
	if got := kit.NewRef(acctest.ClusterGraphQLID).UUID(); got != acctest.TestUUID {
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
		{"graphql id in config, uuid in state", acctest.TestUUID, acctest.ClusterGraphQLID, acctest.TestUUID},
		{"uuid in config, graphql id in state", acctest.ClusterGraphQLID, acctest.TestUUID, acctest.ClusterGraphQLID},
		{"another object", acctest.TestUUID, kit.GraphQLID("Cluster", other), kit.GraphQLID("Cluster", other)},
		{"same form", acctest.TestUUID, acctest.TestUUID, acctest.TestUUID},
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
	lreq := planmodifier.ListRequest{StateValue: list(acctest.TestUUID), PlanValue: list(kit.GraphQLID("Team", acctest.TestUUID))}
	lresp := &planmodifier.ListResponse{PlanValue: lreq.PlanValue}
	kit.RefListKeepStateForm{}.PlanModifyList(ctx, lreq, lresp)
	if !lresp.PlanValue.Equal(lreq.StateValue) {
		t.Errorf("a list naming the same teams by GraphQL ID planned %v, want the state's %v", lresp.PlanValue, lreq.StateValue)
	}
	if got := kit.ListUUIDs(list(kit.GraphQLID("Team", acctest.TestUUID), other)); strings.Join(got, ",") != acctest.TestUUID+","+other {
		t.Errorf("listUUIDs = %v", got)
	}
}

func TestRefValidator(t *testing.T) {
	t.Parallel()
	v := kit.RefValidator{GraphQLTypes: []string{"Cluster"}}
	for id, wantErr := range map[string]bool{acctest.TestUUID: false, acctest.ClusterGraphQLID: false, kit.GraphQLID("Team", acctest.TestUUID): true, "x": true} {
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
		{acctest.ClusterGraphQLID, acctest.TestUUID, true},
		{acctest.ClusterGraphQLID, strings.ToUpper(acctest.TestUUID), true},
		{kit.GraphQLID("Pipeline", acctest.TestUUID), acctest.ClusterGraphQLID, false},
		{acctest.B64("Widget---" + acctest.TestUUID), acctest.TestUUID, false},
		{"website", "website", true},
		{"website", acctest.TestUUID, false},
	} {
		if got := kit.SameObject(tc.a, tc.b); got != tc.want {
			t.Errorf("sameObject(%q, %q) = %t, want %t", tc.a, tc.b, got, tc.want)
		}
	}
}
