package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// parseProviderFiles parses the package's Go files (tests included when tests is set), keyed by file name.
func parseProviderFiles(t *testing.T, tests bool) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	if tests {
		// The test harness, package acctest, is the tests' too.
		harness, err := filepath.Glob("acctest/*.go")
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, harness...)
	}
	if tests {
		// The areas' tests, each area a package of its own.
		for _, area := range areaNames() {
			more, err := filepath.Glob(filepath.Join(area, "*_test.go"))
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, more...)
		}
	}
	files := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") && !tests {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	return fset, files
}

// Every test that starts Terraform is an acceptance test, run only with TF_ACC set, so that `go test ./...`
// is a unit run: through resource.Test (which skips without TF_ACC), never resource.UnitTest (which runs
// Terraform regardless), and a CLI it drives itself comes from terraformCLI or requireCLI (which skip), not
// from a lookup of its own.
func TestHouse_terraformOnlyBehindTFAcc(t *testing.T) {
	fset, files := parseProviderFiles(t, true)
	for name, f := range files {
		if !strings.HasSuffix(name, "_test.go") && !strings.HasPrefix(name, "acctest/") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			switch {
			case pkg.Name == "resource" && sel.Sel.Name == "UnitTest":
				t.Errorf("%s: resource.UnitTest starts Terraform without TF_ACC: use resource.Test", fset.Position(sel.Pos()))
			case pkg.Name == "exec" && sel.Sel.Name == "LookPath" && name != "acctest/newcli.go":
				t.Errorf("%s: exec.LookPath: a test finds its Terraform CLI through TerraformCLI (acctest/newcli.go), which skips without TF_ACC", fset.Position(sel.Pos()))
			}
			return true
		})
	}
}

// topLevelNames are the package-level names a declaration introduces (methods introduce none).
func topLevelNames(d ast.Decl) []string {
	var out []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			out = append(out, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				out = append(out, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.Name != "_" {
						out = append(out, n.Name)
					}
				}
			}
		}
	}
	return out
}

// compositeKeys are the identifiers that name fields in composite literals, which the parser cannot tell
// from references.
func compositeKeys(f *ast.File) map[*ast.Ident]bool {
	keys := map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if cl, ok := n.(*ast.CompositeLit); ok {
			for _, e := range cl.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						keys[id] = true
					}
				}
			}
		}
		return true
	})
	return keys
}

// testKitFile is how a test kit file is named: <role>_kit_test.go, one per role of the test harness (doc.go,
// "The test harness").
var testKitFile = regexp.MustCompile(`^[a-z0-9]+(_[a-z0-9]+)*_kit_test\.go$`)

// typeConfig is a type's configuration builder, the type's own vocabulary: it stays in the type's test file,
// and the tests of the types that depend on it call it there.
var typeConfig = regexp.MustCompile(`^testAcc[A-Z]\w*Config$`)

// A test helper two test files share lives in a test kit file (<role>_kit_test.go), so that a newcomer finds
// the harness in one place: a function, type, variable or constant declared in any other _test.go file is
// used by that file alone. Exceptions: a type's configuration builders (testAcc<Type>Config), and methods
// declared beside their receiver's type. A method declared away from its receiver's type, outside a kit
// file, is likewise used by its own file alone (known by its name, as no types are checked here). A kit file
// holds no test (TestMain aside).
func TestHouse_sharedTestHelpersLiveInKitFiles(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{}
	declaredIn := map[string]string{} // a non-kit test file's top-level names -> the file
	typeIn := map[string]string{}     // every test file's type names -> the file
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, nil, 0) // with object resolution: Unresolved is what other files declare
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					typeIn[s.(*ast.TypeSpec).Name.Name] = name
				}
			}
			if testKitFile.MatchString(name) {
				if fn, ok := d.(*ast.FuncDecl); ok && isTestEntry(fn) && fn.Name.Name != "TestMain" {
					t.Errorf("%s: kit file %s declares %s: a test lives in a file named for what it tests", fset.Position(fn.Pos()), name, fn.Name.Name)
				}
				continue
			}
			for _, n := range topLevelNames(d) {
				if fn, ok := d.(*ast.FuncDecl); ok && isTestEntry(fn) || typeConfig.MatchString(n) {
					continue
				}
				declaredIn[n] = name
			}
		}
	}
	if len(declaredIn) == 0 {
		t.Fatal("no test file declares a helper: the files are not being read")
	}
	strayMethods := map[string]string{} // method name -> the non-kit file declaring it away from its type
	for name, f := range files {
		if testKitFile.MatchString(name) {
			continue
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) == 0 {
				continue
			}
			if recv := receiverType(fn.Recv.List[0].Type); typeIn[recv] != name {
				strayMethods[fn.Name.Name] = name
			}
		}
	}
	for name, f := range files {
		keys := compositeKeys(f)
		for _, id := range f.Unresolved {
			from, ok := declaredIn[id.Name]
			if !ok || from == name || keys[id] {
				continue
			}
			t.Errorf("%s: %s is declared in %s and used here, in %s: a helper two test files share moves into the test kit file of its role (<role>_kit_test.go)", fset.Position(id.Pos()), id.Name, from, name)
		}
		if len(strayMethods) == 0 {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if from, ok := strayMethods[sel.Sel.Name]; ok && from != name {
				t.Errorf("%s: method %s is declared in %s, away from its type, and used here, in %s: move it beside its type or into the test kit file of its role (<role>_kit_test.go)", fset.Position(sel.Pos()), sel.Sel.Name, from, name)
			}
			return true
		})
	}
}

// isTestEntry is a function go test calls itself: Test…, Fuzz…, Benchmark…, Example….
func isTestEntry(fn *ast.FuncDecl) bool {
	if fn.Recv != nil {
		return false
	}
	for _, p := range []string{"Test", "Fuzz", "Benchmark", "Example"} {
		if strings.HasPrefix(fn.Name.Name, p) {
			return true
		}
	}
	return false
}

// receiverType is the name of a method receiver's type (T for T, *T, T[A] and *T[A]).
func receiverType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// nextTests is GNUmakefile's NEXT_TESTS: the tests make testacc leaves to make testacc-next, which runs them
// under Terraform 1.16.
var nextTests = regexp.MustCompile(`^TestAcc.*_(identity|query|action)`)

// In make test-all, where TF_ACC is set, no test skips for want of a newer CLI: every test that asks for one
// (requireCLI, directly or through a helper) is named so that make testacc leaves it out and make
// testacc-next runs it under Terraform 1.16.
func TestHouse_newCLITestsRunInTestaccNext(t *testing.T) {
	_, files := parseProviderFiles(t, true)
	calls := map[string]map[string]bool{} // function or method name -> names it calls
	var tests []string
	for name, f := range files {
		if !strings.HasSuffix(name, "_test.go") && !strings.HasPrefix(name, "acctest/") {
			continue
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			called := map[string]bool{}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					switch f := c.Fun.(type) {
					case *ast.Ident:
						called[f.Name] = true
					case *ast.SelectorExpr:
						called[f.Sel.Name] = true
					}
				}
				return true
			})
			calls[fn.Name.Name] = called
			if fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") {
				tests = append(tests, fn.Name.Name)
			}
		}
	}
	reaches := map[string]bool{"RequireCLI": true}
	for changed := true; changed; {
		changed = false
		for fn, called := range calls {
			if reaches[fn] {
				continue
			}
			for c := range called {
				if reaches[c] {
					reaches[fn], changed = true, true
					break
				}
			}
		}
	}
	found := 0
	for _, name := range tests {
		if !reaches[name] {
			continue
		}
		found++
		if !nextTests.MatchString(name) {
			t.Errorf("%s needs a newer CLI (requireCLI) but is not named TestAcc…_identity…, _query… or _action…: make testacc would skip it, and make testacc-next would not run it", name)
		}
	}
	if found == 0 {
		t.Error("no test reaches requireCLI: the call graph is not being read")
	}
}

// areas name, by the start of its file's name, the area each file of a type belongs to: the packages the
// provider is to be split into (DESIGN.md, "The kit and the areas"). A file that starts with none of them is
// one of the provider's own (providerFiles); what types share is in the kit, package internal/provider/kit,
// which cannot import this package and so cannot refer to a type.
var areas = []struct{ prefix, area string }{
	{"cluster_", "clusters"}, {"clusters_", "clusters"}, {"hosted_agent_", "clusters"},
	{"pipeline_", "pipelines"}, {"pipelines_", "pipelines"}, {"signed_pipeline_", "pipelines"}, {"builds_", "pipelines"},
	{"team_", "teams"}, {"teams_", "teams"},
	{"test_suite_", "suites"}, {"test_suites_", "suites"}, {"flaky_tests_", "suites"},
	{"registry_", "registries"}, {"registries_", "registries"},
	{"organization_", "organization"}, {"portal_", "organization"}, {"portals_", "organization"},
	{"notification_service_", "organization"}, {"agent_", "organization"}, {"meta_", "organization"},
	{"action_", "actions"}, {"function_", "functions"},
}

// providerFiles are the provider's own files: its schema, configuration and server, which name every type.
var providerFiles = []string{"provider.go", "provider_configure.go", "provider_server.go", "action_stop.go", "doc.go"}

// areaOf is the area of a file of the package, "" for the provider's own files.
func areaOf(t *testing.T, name string) string {
	if slices.Contains(providerFiles, name) {
		return ""
	}
	base := strings.TrimSuffix(name, "_test.go")
	for _, a := range areas {
		if strings.HasPrefix(base+"_", a.prefix) || strings.HasPrefix(base, a.prefix) {
			return a.area
		}
	}
	t.Errorf("%s belongs to no area: add its prefix to areas, or move a shared piece into the kit (internal/provider/kit)", name)
	return ""
}

// areaNames are the areas of the areas table, each a package internal/provider/<area> once it has moved.
func areaNames() []string {
	var out []string
	for _, a := range areas {
		if len(out) == 0 || out[len(out)-1] != a.area {
			out = append(out, a.area)
		}
	}
	return out
}

// An area is a package of its own that imports no other area, nor the provider: what two areas share is in
// the kit (internal/provider/kit), and only the provider, which serves them all, imports the areas. Its
// tests, in the external package <area>_test, may import the provider.
func TestHouse_areasImportNoOtherArea(t *testing.T) {
	const base = "github.com/ci-rest/terraform-provider-buildkite/internal/provider"
	moved := 0
	for _, area := range areaNames() {
		names, err := filepath.Glob(filepath.Join(area, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(names) > 0 {
			moved++
		}
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				rest, ok := strings.CutPrefix(path, base)
				if !ok || rest == "/kit" || rest == "/"+area {
					continue
				}
				t.Errorf("%s imports %s: an area imports no other area nor the provider; move what they share into the kit", name, path)
			}
		}
	}
	if moved == 0 {
		t.Error("no area has moved into its package: the areas are not being read")
	}
}

// No area holds over about 60 source files (tests aside), so that a newcomer finds a type and what it uses in
// one look; an area that grows past it is split.
func TestHouse_areasStaySmall(t *testing.T) {
	for _, area := range areaNames() {
		names, err := filepath.Glob(filepath.Join(area, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, name := range names {
			if !strings.HasSuffix(name, "_test.go") {
				n++
			}
		}
		if n > 60 {
			t.Errorf("%s holds %d source files, over about 60: split it", area, n)
		}
	}
	if _, err := os.Stat("kit"); err != nil {
		t.Fatal(err)
	}
}
