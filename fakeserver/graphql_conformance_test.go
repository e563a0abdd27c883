package fakeserver

import (
	"os"
	"slices"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// newerEnumValues are the enum values the emulator serves that are newer than the copy of Buildkite's
// schema in testdata (last changed 2026-07-31), each with where it comes from: all five are in the schema
// Buildkite's documentation is generated from, data/graphql/schema.graphql in the public repository
// buildkite/docs (commit 0477a23, 2026-08-20), whose GraphQL reference pages list them.
var newerEnumValues = map[string]string{
	// The 64-vCPU Linux shapes, also in the hosted agents documentation's shape table (size 3XL).
	"HostedAgentInstanceShapeName.LINUX_AMD64_64X256": "buildkite/docs 0477a23: enum HostedAgentInstanceShapeName",
	"HostedAgentInstanceShapeName.LINUX_ARM64_64X256": "buildkite/docs 0477a23: enum HostedAgentInstanceShapeName",
	"HostedAgentSize.THREE_XL":                        "buildkite/docs 0477a23: enum HostedAgentSize (the 64X256 shapes' size)",
	// macOS versions of hosted macOS agents.
	"HostedAgentMacOSVersion.GOLDEN_GATE": "buildkite/docs 0477a23: enum HostedAgentMacOSVersion (macOS 27.0)",
	"HostedAgentMacOSVersion.TAHOE_26_6":  "buildkite/docs 0477a23: enum HostedAgentMacOSVersion (macOS 26.6)",
}

// TestGraphQLSubsetConformsToBuildkiteSchema: the subset the emulator serves is part of Buildkite's own
// schema (the repository's testdata/buildkite-schema.graphql, see testdata/README.md there): every type has Buildkite's kind, every
// field, argument and input field is Buildkite's with the same type, every interface and union member is
// Buildkite's, every enum value is Buildkite's or listed in newerEnumValues, and nothing Buildkite requires
// (a non-null argument or input field without a default) is missing, so a document the emulator takes is
// one the service takes.
func TestGraphQLSubsetConformsToBuildkiteSchema(t *testing.T) {
	theirs := buildkiteSchemaTypes(t)
	used := map[string]bool{}
	for name, ours := range graphqlSchema().Types {
		if ours.BuiltIn {
			continue
		}
		def := theirs[name]
		if def == nil {
			t.Errorf("type %s: not in Buildkite's schema", name)
			continue
		}
		if def.Kind != ours.Kind {
			t.Errorf("type %s: %s here, %s in Buildkite's schema", name, ours.Kind, def.Kind)
		}
		for _, i := range ours.Interfaces {
			if !slices.Contains(def.Interfaces, i) {
				t.Errorf("type %s implements %s here, not in Buildkite's schema", name, i)
			}
		}
		for _, m := range ours.Types {
			if !slices.Contains(def.Types, m) {
				t.Errorf("union %s has member %s here, not in Buildkite's schema", name, m)
			}
		}
		conformFields(t, name, ours, def)
		for _, v := range ours.EnumValues {
			key := name + "." + v.Name
			if def.EnumValues.ForName(v.Name) == nil {
				if newerEnumValues[key] == "" {
					t.Errorf("enum value %s: not in Buildkite's schema, nor in newerEnumValues with its source", key)
				}
				used[key] = true
			}
		}
	}
	for key := range newerEnumValues {
		if !used[key] {
			t.Errorf("newerEnumValues lists %s, which the subset does not serve or Buildkite's schema now has: drop it", key)
		}
	}
}

// conformFields checks the fields (or input fields) of one type and their arguments against Buildkite's.
func conformFields(t *testing.T, name string, ours, theirs *ast.Definition) {
	t.Helper()
	for _, f := range ours.Fields {
		if f.Name == "__typename" || f.Name == "__schema" || f.Name == "__type" {
			continue
		}
		tf := theirs.Fields.ForName(f.Name)
		if tf == nil {
			t.Errorf("%s.%s: not in Buildkite's schema", name, f.Name)
			continue
		}
		if got, want := f.Type.String(), tf.Type.String(); got != want {
			t.Errorf("%s.%s: %s here, %s in Buildkite's schema", name, f.Name, got, want)
		}
		for _, a := range f.Arguments {
			ta := tf.Arguments.ForName(a.Name)
			switch {
			case ta == nil:
				t.Errorf("%s.%s(%s:): not in Buildkite's schema", name, f.Name, a.Name)
			case a.Type.String() != ta.Type.String():
				t.Errorf("%s.%s(%s:): %s here, %s in Buildkite's schema", name, f.Name, a.Name, a.Type, ta.Type)
			}
		}
		for _, ta := range tf.Arguments {
			if required(ta.Type, ta.DefaultValue) && f.Arguments.ForName(ta.Name) == nil {
				t.Errorf("%s.%s(%s:): Buildkite requires it, the subset leaves it out", name, f.Name, ta.Name)
			}
		}
	}
	if theirs.Kind != ast.InputObject {
		return
	}
	for _, tf := range theirs.Fields {
		if required(tf.Type, tf.DefaultValue) && ours.Fields.ForName(tf.Name) == nil {
			t.Errorf("%s.%s: Buildkite requires it, the subset leaves it out", name, tf.Name)
		}
	}
}

// required reports whether an argument or input field must be given.
func required(typ *ast.Type, def *ast.Value) bool { return typ.NonNull && def == nil }

// buildkiteSchemaTypes reads Buildkite's schema from testdata, its extensions merged into its types. It is
// parsed, not loaded: it declares the built-in scalars and directives that gqlparser's prelude also does.
func buildkiteSchemaTypes(t *testing.T) map[string]*ast.Definition {
	t.Helper()
	sdl, err := os.ReadFile("../testdata/buildkite-schema.graphql")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := parser.ParseSchema(&ast.Source{Name: "buildkite-schema.graphql", Input: string(sdl)})
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]*ast.Definition{}
	for _, d := range doc.Definitions {
		types[d.Name] = d
	}
	for _, x := range doc.Extensions {
		if d := types[x.Name]; d != nil {
			d.Fields = append(d.Fields, x.Fields...)
			d.EnumValues = append(d.EnumValues, x.EnumValues...)
			d.Interfaces = append(d.Interfaces, x.Interfaces...)
			d.Types = append(d.Types, x.Types...)
		}
	}
	return types
}
