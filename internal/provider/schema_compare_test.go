package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// The official provider's configurations load here unchanged only if every attribute of its schemas, on the
// provider block and on every resource and data source type both providers have, exists here with the
// same name, type and nesting (attribute or block), can be set here wherever it can be set there, and is
// never required here where it is not required there. testdata/official-schema.json is its schema as
// `terraform providers schema -json` reports it for buildkite/buildkite.
// Shared resource types must also have a higher schema version here, so that its states reach the
// upgraders (kit/upgrade.go).

var nestingModes = map[tfprotov6.SchemaObjectNestingMode]string{
	tfprotov6.SchemaObjectNestingModeSingle: "single", tfprotov6.SchemaObjectNestingModeList: "list",
	tfprotov6.SchemaObjectNestingModeSet: "set", tfprotov6.SchemaObjectNestingModeMap: "map",
}

var blockNestingModes = map[tfprotov6.SchemaNestedBlockNestingMode]string{
	tfprotov6.SchemaNestedBlockNestingModeSingle: "single", tfprotov6.SchemaNestedBlockNestingModeList: "list",
	tfprotov6.SchemaNestedBlockNestingModeSet: "set", tfprotov6.SchemaNestedBlockNestingModeMap: "map",
	tfprotov6.SchemaNestedBlockNestingModeGroup: "group",
}

func flattenOurs(t *testing.T, b *tfprotov6.SchemaBlock, prefix string, out map[string]acctest.SchemaNode) {
	for _, a := range b.Attributes {
		flattenOurAttribute(t, a, prefix+a.Name, out)
	}
	for _, nb := range b.BlockTypes {
		out[prefix+nb.TypeName] = acctest.SchemaNode{Kind: "block", Typ: blockNestingModes[nb.Nesting], Settable: true}
		flattenOurs(t, nb.Block, prefix+nb.TypeName+".", out)
	}
}

func flattenOurAttribute(t *testing.T, a *tfprotov6.SchemaAttribute, name string, out map[string]acctest.SchemaNode) {
	n := acctest.SchemaNode{Kind: "attribute", Settable: a.Required || a.Optional, Required: a.Required}
	if a.NestedType != nil {
		n.Typ = "nested:" + nestingModes[a.NestedType.Nesting]
		for _, c := range a.NestedType.Attributes {
			flattenOurAttribute(t, c, name+"."+c.Name, out)
		}
	} else {
		typ, err := json.Marshal(a.Type)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		n.Typ = string(typ)
	}
	out[name] = n
}

// compareSchemas lists every way ours falls short of theirs for one type.
func compareSchemas(what string, theirs, ours map[string]acctest.SchemaNode) []string {
	var problems []string
	for name, o := range theirs {
		u, ok := ours[name]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s: %s is missing (theirs: %s %s)", what, name, o.Kind, o.Typ))
		case u.Kind != o.Kind || u.Typ != o.Typ:
			problems = append(problems, fmt.Sprintf("%s: %s is %s %s here, %s %s there", what, name, u.Kind, u.Typ, o.Kind, o.Typ))
		case o.Settable && !u.Settable:
			problems = append(problems, fmt.Sprintf("%s: %s can be set there but not here", what, name))
		case u.Required && !o.Required:
			problems = append(problems, fmt.Sprintf("%s: %s is required here but not there", what, name))
		}
	}
	return problems
}

func TestSchemaCoversOfficialProvider(t *testing.T) {
	raw, err := os.ReadFile("testdata/official-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var theirs acctest.OfficialSchemaJSON
	if err := json.Unmarshal(raw, &theirs); err != nil {
		t.Fatal(err)
	}
	server := providerserver.NewProtocol6(New("test")())()
	resp, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Fatalf("GetProviderSchema: %s: %s", d.Summary, d.Detail)
	}

	var problems []string
	flat := func(b acctest.OfficialBlock) map[string]acctest.SchemaNode {
		out := map[string]acctest.SchemaNode{}
		b.Flatten("", out)
		return out
	}
	ours := func(s *tfprotov6.Schema) map[string]acctest.SchemaNode {
		out := map[string]acctest.SchemaNode{}
		flattenOurs(t, s.Block, "", out)
		return out
	}
	problems = append(problems, compareSchemas("provider", flat(theirs.Provider), ours(resp.Provider))...)
	shared := 0
	for name, entry := range theirs.ResourceSchemas {
		s, ok := resp.ResourceSchemas[name]
		if !ok {
			continue
		}
		shared++
		problems = append(problems, compareSchemas("resource "+name, flat(entry.Block), ours(s))...)
		if s.Version <= entry.Version {
			problems = append(problems, fmt.Sprintf("resource %s: schema version %d here, %d there: its states would "+
				"not reach this provider's upgraders", name, s.Version, entry.Version))
		}
	}
	for name, entry := range theirs.DataSchemas {
		if s, ok := resp.DataSourceSchemas[name]; ok {
			shared++
			problems = append(problems, compareSchemas("data source "+name, flat(entry.Block), ours(s))...)
		}
	}
	// 13 resources and 12 data sources were shared when this test was written; fewer means a type was lost.
	if shared < 25 {
		t.Errorf("only %d types are shared with the official provider, expected at least 25", shared)
	}
	sort.Strings(problems)
	if len(problems) > 0 {
		t.Errorf("%d differences from the official provider's schema:\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
}
