package acctest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// Unit tests of the state upgrades (kit/upgrade.go), through the provider server as Terraform calls it: a state
// of an earlier version, ours or the official provider's, must come out in the current schema's shape.
// The acceptance tests of migration_test.go move whole workspaces; these pin the shapes of our own earlier
// states, which no other test writes.

// upgradeCases is the table of earlier states, a view over the types' rows (typeTests.upgrade).
func upgradeCases() []UpgradeCase {
	return TableRows(func(r TypeTests) []UpgradeCase { return r.Upgrade })
}

func RunUpgradeResourceState(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	server := providerserver.NewProtocol6(NewProvider("test")())()
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range upgradeCases() {
		t.Run(tc.Name, func(t *testing.T) {
			raw, err := json.Marshal(tc.State)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
				TypeName: tc.TypeName, Version: tc.Version, RawState: &tfprotov6.RawState{JSON: raw},
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range resp.Diagnostics {
				t.Fatalf("%s: %s", d.Summary, d.Detail)
			}
			typ := schemas.ResourceSchemas[tc.TypeName].ValueType()
			v, err := resp.UpgradedState.Unmarshal(typ)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := goValue(v).(map[string]any)
			if !ok {
				t.Fatalf("upgraded state %v is not an object", v)
			}
			for name, want := range tc.Want {
				if !reflect.DeepEqual(got[name], want) {
					t.Errorf("%s = %#v, want %#v", name, got[name], want)
				}
			}
		})
	}
}

// goValue converts a Terraform value to Go: objects and maps to map[string]any, lists and sets to []any,
// numbers to float64, null to nil.
func goValue(v tftypes.Value) any {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	switch {
	case v.Type().Is(tftypes.String):
		var s string
		_ = v.As(&s)
		return s
	case v.Type().Is(tftypes.Bool):
		var b bool
		_ = v.As(&b)
		return b
	case v.Type().Is(tftypes.Number):
		var n big.Float
		_ = v.As(&n)
		f, _ := n.Float64()
		return f
	case v.Type().Is(tftypes.Object{}), v.Type().Is(tftypes.Map{}):
		var m map[string]tftypes.Value
		_ = v.As(&m)
		out := make(map[string]any, len(m))
		for k, e := range m {
			out[k] = goValue(e)
		}
		return out
	default:
		var l []tftypes.Value
		if err := v.As(&l); err != nil {
			return fmt.Sprintf("unconvertible %s", v.Type())
		}
		out := make([]any, len(l))
		for i, e := range l {
			out[i] = goValue(e)
		}
		return out
	}
}

// refusedUpgradeCases are official states the upgrade refuses (issue 27): what the error must say.
var refusedUpgradeCases = []struct {
	name     string
	typeName string
	version  int64
	state    map[string]any
	wants    []string
}{
	{
		name: "cluster id unreadable, no uuid", typeName: "buildkite_cluster",
		state: map[string]any{"id": B64("Cluster---not-a-uuid"), "name": "c"},
		wants: []string{`name "c"`, "id must be a UUID", "terraform state rm"},
	},
	{
		name: "cluster id a number", typeName: "buildkite_cluster",
		state: map[string]any{"id": json.Number("7"), "uuid": TestUUID, "name": "c"},
		wants: []string{"id must be a string ID, got 7"},
	},
	{
		name: "cluster id of another type", typeName: "buildkite_cluster",
		state: map[string]any{"id": kit.GraphQLID("Pipeline", TestUUID), "uuid": TestUUID, "name": "c"},
		wants: []string{"id must name a Cluster", "the GraphQL ID of a Pipeline"},
	},
	{
		name: "cluster id and uuid disagree", typeName: "buildkite_cluster",
		state: map[string]any{"id": ClusterGraphQLID, "uuid": OtherUUID, "name": "c"},
		wants: []string{"names the object " + TestUUID + ", and uuid names another, " + OtherUUID},
	},
	{
		name: "cluster uuid unreadable", typeName: "buildkite_cluster",
		state: map[string]any{"id": ClusterGraphQLID, "uuid": "c-1", "name": "c"},
		wants: []string{`uuid must be a UUID, got "c-1"`},
	},
	{
		name: "cluster without id", typeName: "buildkite_cluster",
		state: map[string]any{"name": "c"},
		wants: []string{"id is missing"},
	},
	{
		name: "cluster name of another JSON type", typeName: "buildkite_cluster",
		state: map[string]any{"id": ClusterGraphQLID, "name": []any{"c"}},
		wants: []string{"does not fit this resource's schema"},
	},
	{
		name: "queue without key or cluster_id", typeName: "buildkite_cluster_queue",
		state: map[string]any{"id": kit.GraphQLID("ClusterQueue", OtherUUID), "uuid": OtherUUID},
		wants: []string{"cluster_id is missing", "key is missing"},
	},
	{
		name: "queue cluster_id of a pipeline", typeName: "buildkite_cluster_queue",
		state: map[string]any{"id": kit.GraphQLID("ClusterQueue", OtherUUID), "cluster_id": kit.GraphQLID("Pipeline", TestUUID), "key": "k"},
		wants: []string{"cluster_id must name a Cluster"},
	},
	{
		name: "queue cluster_id and cluster_uuid disagree", typeName: "buildkite_cluster_queue",
		state: map[string]any{"id": kit.GraphQLID("ClusterQueue", OtherUUID), "cluster_id": ClusterGraphQLID, "cluster_uuid": OtherUUID, "key": "k"},
		wants: []string{"cluster_id names the object " + TestUUID + ", and cluster_uuid names another, " + OtherUUID},
	},
	{
		name: "token cluster_uuid unreadable", typeName: "buildkite_cluster_agent_token",
		state: map[string]any{"id": kit.GraphQLID("ClusterToken", OtherUUID), "cluster_id": ClusterGraphQLID, "cluster_uuid": "\x95", "description": "d"},
		wants: []string{"cluster_uuid must be a UUID"},
	},
	{
		name: "pipeline id and uuid disagree", typeName: "buildkite_pipeline", version: 1,
		state: map[string]any{"id": kit.GraphQLID("Pipeline", TestUUID), "uuid": OtherUUID, "name": "app", "repository": "r"},
		wants: []string{"and uuid names another"},
	},
	{
		name: "registry team_ids element of another type", typeName: "buildkite_registry",
		state: map[string]any{"id": kit.GraphQLID("Registry", TestUUID), "name": "g", "ecosystem": "ruby",
			"team_ids": []any{OtherUUID, kit.GraphQLID("Pipeline", TestUUID)}},
		wants: []string{"team_ids[1] must name a Team"},
	},
	{
		name: "team member side unreadable", typeName: "buildkite_team_member",
		state: map[string]any{"id": kit.GraphQLID("TeamMember", TestUUID), "team_id": "platform", "user_id": kit.GraphQLID("User", TestUUID), "role": "MEMBER"},
		wants: []string{`team_id must be a UUID`, `"platform"`},
	},
	{
		name: "team member without its user", typeName: "buildkite_team_member",
		state: map[string]any{"id": kit.GraphQLID("TeamMember", TestUUID), "team_id": kit.GraphQLID("Team", OtherUUID), "role": "MEMBER"},
		wants: []string{"do not name the association's two sides"},
	},
	{
		name: "schedule pipeline_id of a cluster", typeName: "buildkite_pipeline_schedule",
		state: map[string]any{"id": kit.GraphQLID("PipelineSchedule", OtherUUID), "pipeline_id": ClusterGraphQLID, "label": "l",
			"cronline": "@daily", "branch": "main"},
		wants: []string{"pipeline_id must name a Pipeline"},
	},
}

func RunUpgradeResourceStateRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	server := providerserver.NewProtocol6(NewProvider("test")())()
	for _, tc := range refusedUpgradeCases {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := json.Marshal(tc.state)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
				TypeName: tc.typeName, Version: tc.version, RawState: &tfprotov6.RawState{JSON: raw},
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Summary != "Unreadable Resource State" {
				t.Fatalf("diagnostics = %+v, want one Unreadable Resource State", resp.Diagnostics)
			}
			if resp.UpgradedState != nil {
				t.Errorf("an upgraded state came with the error: %v", resp.UpgradedState)
			}
			detail := resp.Diagnostics[0].Detail
			for _, want := range append([]string{tc.typeName}, tc.wants...) {
				if !strings.Contains(detail, want) {
					t.Errorf("the error does not say %q:\n%s", want, detail)
				}
			}
		})
	}
}

// The official provider's "" for an attribute that is Optional and Computed (or has a default, which makes
// it computed) is kept: the defaults of the shared types are "" (issue 24), and null would plan a change.
// An optional attribute that is not computed becomes null, as this provider writes it.
func RunMoveStateKeepsEmptyOfComputed(t *testing.T) {
	t.Parallel()
	current := schema.Schema{Version: 1, Attributes: map[string]schema.Attribute{
		"id":       schema.StringAttribute{Computed: true},
		"defaults": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("")},
		"computed": schema.StringAttribute{Optional: true, Computed: true},
		"optional": schema.StringAttribute{Optional: true},
		"list":     schema.ListAttribute{Optional: true, ElementType: types.StringType},
	}}
	raw, _ := json.Marshal(map[string]any{"id": TestUUID, "defaults": "", "computed": "", "optional": "", "list": []any{}})
	out, err := kit.MoveState(context.Background(), "buildkite_thing", current, kit.StateMoves{}, 0, &tfprotov6.RawState{JSON: raw})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"id": TestUUID, "defaults": "", "computed": "", "optional": nil, "list": nil}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("moved state = %v, want %v", got, want)
	}
}

// RunFuzzUpgradeOfficialState: random official-shape states, each one of upgradeCases' states of the official
// provider with one attribute replaced, dropped, or given another JSON type, go through the provider
// server's UpgradeResourceState as Terraform sends them. Whatever they hold, the upgrade never panics and
// either fails with an error that names the resource type, or yields a state of the current schema whose
// IDs are the ones the input held: its `id` the UUID the input's `id` encodes (or, for an association, its
// two sides), its `uuid` equal to it, each reference the UUID its input encodes or the key it held. An
// input `id` that is not a UUID or a GraphQL ID of the type the case's own `id` has must fail.

// fuzzUpgradeServer is the provider server the fuzz target upgrades through, and its schemas, built once.
var fuzzUpgradeServer = sync.OnceValues(func() (tfprotov6.ProviderServer, *tfprotov6.GetProviderSchemaResponse) {
	server := providerserver.NewProtocol6(NewProvider("test")())()
	schemas, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		panic(err)
	}
	return server, schemas
})

// officialUpgradeCases are the upgradeCases of the official provider's states (without graphql_id).
func officialUpgradeCases() []UpgradeCase {
	var out []UpgradeCase
	for _, tc := range upgradeCases() {
		if _, ours := tc.State[kit.AttrGraphQLID]; !ours {
			out = append(out, tc)
		}
	}
	return out
}

// fuzzValueKinds are how the fuzzed value is put into the state.
const (
	fuzzString = iota // the value as a string
	fuzzDrop          // the attribute left out
	fuzzNull          // null
	fuzzNumber        // a JSON number (the value's length)
	fuzzList          // a list holding the value
	fuzzKinds
)

func RunFuzzUpgradeOfficialState(f *testing.F) {
	cases := officialUpgradeCases()
	hostile := []string{
		"", "12345", "Q2x1c3Rlci0tLT%%%", B64("Cluster---not-a-uuid"), B64("cluster---" + TestUUID), B64("Widget---" + TestUUID),
		kit.GraphQLID("Pipeline", TestUUID), kit.GraphQLID("Cluster", OtherUUID), OtherUUID, strings.ToUpper(TestUUID), "platform",
		strings.TrimRight(kit.GraphQLID("Team", OtherUUID), "="), TestUUID + "/" + OtherUUID, "\u00a0" + TestUUID,
	}
	// Seeds: every hostile form once as an id, and each case's ID attributes spoiled each way; few enough
	// that `make fuzz` gets past its baseline quickly.
	for k, v := range hostile {
		f.Add(uint8(k), uint8(0), uint8(fuzzString), v)
	}
	for i, tc := range cases {
		for j, name := range fuzzAttrNames(tc) {
			if name != kit.AttrID && name != kit.AttrUUID && !strings.HasSuffix(name, "_id") && !strings.HasSuffix(name, "_uuid") &&
				!strings.HasSuffix(name, "_ids") {
				continue
			}
			for kind := range fuzzKinds {
				f.Add(uint8(i), uint8(j), uint8(kind), hostile[(i+j+kind)%len(hostile)])
			}
		}
	}
	f.Fuzz(func(t *testing.T, caseIndex, attrIndex, kind uint8, value string) {
		tc := cases[int(caseIndex)%len(cases)]
		names := fuzzAttrNames(tc)
		name := names[int(attrIndex)%len(names)]
		state := make(map[string]any, len(tc.State))
		for k, v := range tc.State {
			state[k] = v
		}
		switch kind % fuzzKinds {
		case fuzzString:
			state[name] = value
		case fuzzDrop:
			delete(state, name)
		case fuzzNull:
			state[name] = nil
		case fuzzNumber:
			state[name] = len(value)
		case fuzzList:
			state[name] = []any{value}
		}
		raw, err := json.Marshal(state)
		if err != nil {
			t.Fatal(err)
		}
		// What Terraform sends is what the JSON holds (invalid UTF-8 replaced): compare with that.
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		state = nil
		if err := dec.Decode(&state); err != nil {
			t.Fatal(err)
		}
		server, schemas := fuzzUpgradeServer()
		resp, err := server.UpgradeResourceState(context.Background(), &tfprotov6.UpgradeResourceStateRequest{
			TypeName: tc.TypeName, Version: tc.Version, RawState: &tfprotov6.RawState{JSON: raw},
		})
		if err != nil {
			t.Fatalf("%s: UpgradeResourceState: %v", tc.Name, err)
		}
		if len(resp.Diagnostics) > 0 {
			for _, d := range resp.Diagnostics {
				if d.Severity == tfprotov6.DiagnosticSeverityError && !strings.Contains(d.Detail, tc.TypeName) &&
					!strings.Contains(d.Detail, "schema version") {
					t.Fatalf("%s, %s = %#v: the error does not name the resource: %s: %s", tc.Name, name, state[name], d.Summary, d.Detail)
				}
			}
			return
		}
		v, err := resp.UpgradedState.Unmarshal(schemas.ResourceSchemas[tc.TypeName].ValueType())
		if err != nil {
			t.Fatalf("%s: the upgraded state does not fit the schema: %v", tc.Name, err)
		}
		got, ok := goValue(v).(map[string]any)
		if !ok {
			t.Fatalf("%s: the upgraded state %v is not an object", tc.Name, v)
		}
		expectSameIDs(t, tc, state, got)
	})
}

// fuzzAttrNames are the attributes a case's state holds, and id and uuid, in a stable order.
func fuzzAttrNames(tc UpgradeCase) []string {
	names := []string{kit.AttrID, kit.AttrUUID}
	for k := range tc.State {
		if k != kit.AttrID && k != kit.AttrUUID {
			names = append(names, k)
		}
	}
	slices.Sort(names[2:])
	return names
}

// expectSameIDs fails the test unless the upgraded state got names the objects the input state in did.
func expectSameIDs(t *testing.T, tc UpgradeCase, in, got map[string]any) {
	t.Helper()
	id, _ := got[kit.AttrID].(string)
	inID, _ := in[kit.AttrID].(string)
	wantType, _, _ := kit.DecodeGraphQLID(tc.State[kit.AttrID].(string))
	switch {
	case strings.Contains(id, "/"): // an association: named by its two sides, as the input's references hold them
		for _, side := range strings.Split(id, "/") {
			if !kit.IsUUID(side) {
				t.Fatalf("%s: the upgraded id %q is not made of UUIDs (input %v)", tc.Name, id, in)
			}
		}
	case inID == "": // no id: the uuid beside it names the object
		if u, _ := in[kit.AttrUUID].(string); !kit.IsUUID(u) || id != strings.ToLower(u) {
			t.Fatalf("%s: input without an id (uuid %#v) was upgraded to id %q", tc.Name, in[kit.AttrUUID], id)
		}
	case kit.IsUUID(inID):
		if id != strings.ToLower(inID) {
			t.Fatalf("%s: input id %q became %q", tc.Name, inID, id)
		}
	default:
		typ, uuid, ok := kit.DecodeGraphQLID(inID)
		switch {
		case !ok:
			t.Fatalf("%s: input id %#v, which names nothing, was upgraded to %q", tc.Name, in[kit.AttrID], id)
		case wantType != "" && typ != wantType:
			t.Fatalf("%s: input id %q, a %s's GraphQL ID, was taken for a %s's (%q)", tc.Name, inID, typ, wantType, id)
		case id != strings.ToLower(uuid):
			t.Fatalf("%s: input id %q (%s) became %q", tc.Name, inID, uuid, id)
		}
	}
	if u, ok := in[kit.AttrUUID].(string); ok && u != "" && !strings.Contains(id, "/") && !strings.EqualFold(u, id) {
		t.Fatalf("%s: input uuid %q beside id %q was upgraded to id %q", tc.Name, u, inID, id)
	}
	for name, v := range in {
		inRef, isString := v.(string)
		isRef := strings.HasSuffix(name, "_id") || strings.HasSuffix(name, "_uuid")
		if name == kit.AttrID || name == kit.AttrUUID || !isString || !isRef {
			continue
		}
		out, _ := got[name].(string)
		if out == "" || out == inRef {
			continue
		}
		if _, uuid, ok := kit.DecodeGraphQLID(inRef); ok && strings.EqualFold(out, uuid) {
			continue
		}
		if kit.IsUUID(inRef) && strings.EqualFold(out, inRef) {
			continue
		}
		t.Fatalf("%s: reference %s %q was upgraded to %q, another object", tc.Name, name, inRef, out)
	}
}
