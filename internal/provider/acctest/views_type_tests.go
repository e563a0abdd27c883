package acctest

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// typeTable is one of the tables a resource type registers its rows in (acctest/type_tests.go).
type typeTable struct {
	name string
	// requires tells whether the table applies to a type, from what the provider or the official provider's
	// schema says of it.
	requires func(f typeFacts) bool
	// rows are the resource types the type's rows in the table name, one per row; none when it has no row.
	rows func(typ string, r TypeTests) []string
}

// typeFacts is what the provider and the official provider's schema say of one resource type.
type typeFacts struct {
	identity    bool // the type has a resource identity
	official    bool // the official provider has the type (testdata/official-schema.json)
	list        bool // the provider registers a list resource of the type
	secret      bool // an attribute is sensitive and computed only: the service shows it once, on create
	association bool // the type is an association (NewAssociation)
}

// typeTables are the tables that require rows; the other fields of typeTests are rows where a type has them.
var typeTables = []typeTable{
	{name: TableIdentity, requires: func(f typeFacts) bool { return f.identity },
		rows: func(_ string, r TypeTests) []string {
			return rowTypes(One(r.Identity), func(c IdentityCase) string { return c.ResourceType })
		}},
	{name: TableMigration, requires: func(f typeFacts) bool { return f.official },
		rows: func(typ string, r TypeTests) []string {
			return rowTypes(r.Migration, func(MigrationCase) string { return typ }) // a move is the type's by its file
		}},
	{name: TableSweeper, requires: func(typeFacts) bool { return true },
		rows: func(typ string, _ TypeTests) []string {
			return rowTypes(SweeperRows(typ), func(s Sweeper) string { return s.ResourceType })
		}},
	{name: TableQuery, requires: func(f typeFacts) bool { return f.list },
		rows: func(_ string, r TypeTests) []string {
			return rowTypes(One(r.Query), func(c QueryCase) string { return c.ResourceType })
		}},
	{name: TableLostSecret, requires: func(f typeFacts) bool { return f.secret },
		rows: func(_ string, r TypeTests) []string {
			return rowTypes(One(r.LostSecret), func(c LostSecretCase) string { return c.Typ })
		}},
	{name: TableAssociation, requires: func(f typeFacts) bool { return f.association },
		rows: func(_ string, r TypeTests) []string {
			return rowTypes(One(r.Association), func(c AssociationCase) string { return c.ResourceType })
		}},
}

// rowTypes is the resource type each of rows names.
func rowTypes[R any](rows []R, typ func(R) string) []string {
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		out = append(out, typ(r))
	}
	return out
}

// RunHouseEveryTypeHasItsTestRows: every resource type the provider registers has, in its test file, a row
// in each table that applies to it, or an exemption saying why it has none; no row names another type, no
// type is registered that the provider does not have, and no exemption stands beside a row or for a table
// that does not apply. A type added without its rows fails here, not silently in the tables' tests.
//
// It checks the types whose constructors pkgPath declares: their rows are registered in the test binary of
// that package.
func RunHouseEveryTypeHasItsTestRows(t *testing.T, pkgPath string) {
	facts := resourceTypeFacts(t, pkgPath)
	if len(facts) == 0 {
		t.Fatal("the provider registers no resource type: the schema was not read")
	}
	known := map[string]bool{}
	for _, tbl := range typeTables {
		known[tbl.name] = true
	}
	for _, typ := range sortedKeys(facts) {
		r, ok := RegisteredTypeTests[typ]
		if !ok {
			t.Errorf("%s has no test rows: register them in %s with var _ = registerTypeTests(%q, typeTests{...})",
				typ, typeTestFile(typ), typ)
			continue
		}
		for table, why := range r.Exempt {
			if !known[table] {
				t.Errorf("%s is exempt from %q, which is not a table that requires rows (%v)", typ, table, sortedKeys(known))
			} else if strings.TrimSpace(why) == "" {
				t.Errorf("%s is exempt from the %s table without a reason", typ, table)
			}
		}
		for _, tbl := range typeTables {
			rows, why := tbl.rows(typ, r), r.Exempt[tbl.name]
			for _, named := range rows {
				if named != typ {
					t.Errorf("%s's %s row names %s: a type registers its own rows", typ, tbl.name, named)
				}
			}
			switch applies := tbl.requires(facts[typ]); {
			case applies && len(rows) == 0 && why == "":
				t.Errorf("%s has no row in the %s table: add it to the registerTypeTests in %s, or say in its exempt why none applies",
					typ, tbl.name, typeTestFile(typ))
			case len(rows) > 0 && why != "":
				t.Errorf("%s has a row in the %s table and is exempt from it (%q): drop the exemption", typ, tbl.name, why)
			case !applies && why != "":
				t.Errorf("%s is exempt from the %s table, which does not apply to it: drop the exemption", typ, tbl.name)
			}
		}
	}
	for _, typ := range TypesWithTests() {
		if _, ok := facts[typ]; !ok {
			t.Errorf("test rows are registered for %s, a resource type the provider does not register", typ)
		}
	}
}

// typeTestFile is the test file that registers a type's rows.
func typeTestFile(typ string) string {
	return strings.TrimPrefix(typ, "buildkite_") + "_resource_test.go"
}

// resourceTypeFacts reads, through the protocol the CLI speaks, the resource types the provider registers
// and what it says of each, and which of them the official provider has.
func resourceTypeFacts(t *testing.T, pkgPath string) map[string]typeFacts {
	t.Helper()
	ctx := context.Background()
	server := providerserver.NewProtocol6(NewProvider("test")())()
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	identities, err := server.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range append(schemas.Diagnostics, identities.Diagnostics...) {
		t.Fatalf("reading the provider's schemas: %s: %s", d.Summary, d.Detail)
	}
	raw, err := os.ReadFile(ProviderTestdata("official-schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var official struct {
		ResourceSchemas map[string]json.RawMessage `json:"resource_schemas"`
	}
	if err := json.Unmarshal(raw, &official); err != nil {
		t.Fatal(err)
	}
	if len(official.ResourceSchemas) == 0 {
		t.Fatal("testdata/official-schema.json holds no resource schema")
	}
	associations := map[string]bool{}
	own := map[string]bool{} // the types pkgPath declares
	for _, newResource := range NewProvider("test")().Resources(ctx) {
		r := newResource()
		var m resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "buildkite"}, &m)
		associations[m.TypeName] = servedAsAssociation(t, r)
		own[m.TypeName] = declaredIn(newResource, pkgPath)
	}
	out := map[string]typeFacts{}
	for typ, schema := range schemas.ResourceSchemas {
		if !own[typ] {
			continue
		}
		_, identity := identities.IdentitySchemas[typ]
		_, theirs := official.ResourceSchemas[typ]
		_, list := schemas.ListResourceSchemas[typ]
		out[typ] = typeFacts{identity: identity, official: theirs, list: list, secret: hasShownOnceSecret(schema),
			association: associations[typ]}
	}
	return out
}

// servedAsAssociation tells whether r is served by the association kind: an objectResource addressed by its
// two sides (NewAssociation), itself or embedded in the type's own struct.
func servedAsAssociation(t *testing.T, r resource.Resource) bool {
	t.Helper()
	v := reflect.ValueOf(r).Elem()
	if !strings.HasPrefix(v.Type().Name(), "objectResource[") {
		embedded := false
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.Anonymous && f.Type.Kind() == reflect.Pointer &&
				strings.HasPrefix(f.Type.Elem().Name(), "objectResource[") && !v.Field(i).IsNil() {
				v, embedded = v.Field(i).Elem(), true
				break
			}
		}
		if !embedded {
			return false
		}
	}
	sides := v.FieldByName("sides")
	if !sides.IsValid() || sides.Kind() != reflect.Bool {
		t.Fatalf("%s has no field sides: say here how an association is told apart from an object", v.Type())
	}
	return sides.Bool()
}

// hasShownOnceSecret tells whether a schema has a sensitive attribute only the service sets.
func hasShownOnceSecret(s *tfprotov6.Schema) bool {
	for _, a := range s.Block.Attributes {
		if a.Sensitive && a.Computed && !a.Optional {
			return true
		}
	}
	return false
}

// sortedKeys is a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// declaredIn says whether the function f is declared in the package pkgPath.
func declaredIn(f func() resource.Resource, pkgPath string) bool {
	return strings.HasPrefix(runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name(), pkgPath+".")
}
