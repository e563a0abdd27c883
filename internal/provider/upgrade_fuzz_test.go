package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// FuzzUpgradeOfficialState: random official-shape states, each one of upgradeCases' states of the official
// provider with one attribute replaced, dropped, or given another JSON type, go through the provider
// server's UpgradeResourceState as Terraform sends them. Whatever they hold, the upgrade never panics and
// either fails with an error that names the resource type, or yields a state of the current schema whose
// IDs are the ones the input held: its `id` the UUID the input's `id` encodes (or, for an association, its
// two sides), its `uuid` equal to it, each reference the UUID its input encodes or the key it held. An
// input `id` that is not a UUID or a GraphQL ID of the type the case's own `id` has must fail.

// fuzzUpgradeServer is the provider server the fuzz target upgrades through, and its schemas, built once.
var fuzzUpgradeServer = sync.OnceValues(func() (tfprotov6.ProviderServer, *tfprotov6.GetProviderSchemaResponse) {
	server := providerserver.NewProtocol6(New("test")())()
	schemas, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		panic(err)
	}
	return server, schemas
})

// officialUpgradeCases are the upgradeCases of the official provider's states (without graphql_id).
func officialUpgradeCases() []upgradeCase {
	var out []upgradeCase
	for _, tc := range upgradeCases {
		if _, ours := tc.state[attrGraphQLID]; !ours {
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

func FuzzUpgradeOfficialState(f *testing.F) {
	cases := officialUpgradeCases()
	hostile := []string{
		"", "12345", "Q2x1c3Rlci0tLT%%%", b64("Cluster---not-a-uuid"), b64("cluster---" + testUUID), b64("Widget---" + testUUID),
		graphQLID("Pipeline", testUUID), graphQLID("Cluster", otherUUID), otherUUID, strings.ToUpper(testUUID), "platform",
		strings.TrimRight(graphQLID("Team", otherUUID), "="), testUUID + "/" + otherUUID, "\u00a0" + testUUID,
	}
	// Seeds: every hostile form once as an id, and each case's ID attributes spoiled each way; few enough
	// that `make fuzz` gets past its baseline quickly.
	for k, v := range hostile {
		f.Add(uint8(k), uint8(0), uint8(fuzzString), v)
	}
	for i, tc := range cases {
		for j, name := range fuzzAttrNames(tc) {
			if name != attrID && name != attrUUID && !strings.HasSuffix(name, "_id") && !strings.HasSuffix(name, "_uuid") &&
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
		state := make(map[string]any, len(tc.state))
		for k, v := range tc.state {
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
			TypeName: tc.typeName, Version: tc.version, RawState: &tfprotov6.RawState{JSON: raw},
		})
		if err != nil {
			t.Fatalf("%s: UpgradeResourceState: %v", tc.name, err)
		}
		if len(resp.Diagnostics) > 0 {
			for _, d := range resp.Diagnostics {
				if d.Severity == tfprotov6.DiagnosticSeverityError && !strings.Contains(d.Detail, tc.typeName) &&
					!strings.Contains(d.Detail, "schema version") {
					t.Fatalf("%s, %s = %#v: the error does not name the resource: %s: %s", tc.name, name, state[name], d.Summary, d.Detail)
				}
			}
			return
		}
		v, err := resp.UpgradedState.Unmarshal(schemas.ResourceSchemas[tc.typeName].ValueType())
		if err != nil {
			t.Fatalf("%s: the upgraded state does not fit the schema: %v", tc.name, err)
		}
		got, ok := goValue(v).(map[string]any)
		if !ok {
			t.Fatalf("%s: the upgraded state %v is not an object", tc.name, v)
		}
		expectSameIDs(t, tc, state, got)
	})
}

// fuzzAttrNames are the attributes a case's state holds, and id and uuid, in a stable order.
func fuzzAttrNames(tc upgradeCase) []string {
	names := []string{attrID, attrUUID}
	for k := range tc.state {
		if k != attrID && k != attrUUID {
			names = append(names, k)
		}
	}
	slices.Sort(names[2:])
	return names
}

// expectSameIDs fails the test unless the upgraded state got names the objects the input state in did.
func expectSameIDs(t *testing.T, tc upgradeCase, in, got map[string]any) {
	t.Helper()
	id, _ := got[attrID].(string)
	inID, _ := in[attrID].(string)
	wantType, _, _ := decodeGraphQLID(tc.state[attrID].(string))
	switch {
	case strings.Contains(id, "/"): // an association: named by its two sides, as the input's references hold them
		for _, side := range strings.Split(id, "/") {
			if !isUUID(side) {
				t.Fatalf("%s: the upgraded id %q is not made of UUIDs (input %v)", tc.name, id, in)
			}
		}
	case inID == "": // no id: the uuid beside it names the object
		if u, _ := in[attrUUID].(string); !isUUID(u) || id != strings.ToLower(u) {
			t.Fatalf("%s: input without an id (uuid %#v) was upgraded to id %q", tc.name, in[attrUUID], id)
		}
	case isUUID(inID):
		if id != strings.ToLower(inID) {
			t.Fatalf("%s: input id %q became %q", tc.name, inID, id)
		}
	default:
		typ, uuid, ok := decodeGraphQLID(inID)
		switch {
		case !ok:
			t.Fatalf("%s: input id %#v, which names nothing, was upgraded to %q", tc.name, in[attrID], id)
		case wantType != "" && typ != wantType:
			t.Fatalf("%s: input id %q, a %s's GraphQL ID, was taken for a %s's (%q)", tc.name, inID, typ, wantType, id)
		case id != strings.ToLower(uuid):
			t.Fatalf("%s: input id %q (%s) became %q", tc.name, inID, uuid, id)
		}
	}
	if u, ok := in[attrUUID].(string); ok && u != "" && !strings.Contains(id, "/") && !strings.EqualFold(u, id) {
		t.Fatalf("%s: input uuid %q beside id %q was upgraded to id %q", tc.name, u, inID, id)
	}
	for name, v := range in {
		inRef, isString := v.(string)
		isRef := strings.HasSuffix(name, "_id") || strings.HasSuffix(name, "_uuid")
		if name == attrID || name == attrUUID || !isString || !isRef {
			continue
		}
		out, _ := got[name].(string)
		if out == "" || out == inRef {
			continue
		}
		if _, uuid, ok := decodeGraphQLID(inRef); ok && strings.EqualFold(out, uuid) {
			continue
		}
		if isUUID(inRef) && strings.EqualFold(out, inRef) {
			continue
		}
		t.Fatalf("%s: reference %s %q was upgraded to %q, another object", tc.name, name, inRef, out)
	}
}
