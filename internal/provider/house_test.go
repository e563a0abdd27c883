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

// typeConfig is a type's configuration builder, the type's own vocabulary: it stays in the type's test file,
// and the tests of its area that depend on it call it there (another area's call it from the harness,
// acctest/shared.go).
var typeConfig = regexp.MustCompile(`^testAcc[A-Z]\w*Config$`)

// A package's own test files that are not tests: its TestMain and the provider's hooks (acctest_test.go), the views
// it runs over its rows (views_test.go), and what its external tests need of the package (export_test.go).
var packageTestFiles = []string{"acctest_test.go", "views_test.go", "export_test.go"}

// A test helper two test files share lives in the harness, package internal/provider/acctest, so that a
// newcomer finds it in one place: in the provider's and in each area's tests, a function, type, variable or
// constant declared in a _test.go file is used by that file alone. Exceptions: a type's configuration
// builders (testAcc<Type>Config), methods declared beside their receiver's type, and the package's own test
// files (packageTestFiles). A method declared away from its receiver's type is likewise used by its own file
// alone (known by its name, as no types are checked here).
func TestHouse_sharedTestHelpersLiveInTheHarness(t *testing.T) {
	read := 0
	for _, dir := range append([]string{"."}, areaNames()...) {
		read += sharedTestHelpersIn(t, dir)
	}
	if read == 0 {
		t.Fatal("no test file declares a helper: the files are not being read")
	}
}

// sharedTestHelpersIn checks the test files of one directory, returning how many helpers they declare.
func sharedTestHelpersIn(t *testing.T, dir string) int {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{}
	declaredIn := map[string]string{} // a test file's top-level names -> the file
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
			if slices.Contains(packageTestFiles, filepath.Base(name)) {
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
	strayMethods := map[string]string{} // method name -> the file declaring it away from its type
	for name, f := range files {
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
			t.Errorf("%s: %s is declared in %s and used here, in %s: a helper two test files share moves into the harness (internal/provider/acctest)", fset.Position(id.Pos()), id.Name, from, name)
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
				t.Errorf("%s: method %s is declared in %s, away from its type, and used here, in %s: move it beside its type or into the harness (internal/provider/acctest)", fset.Position(sel.Pos()), sel.Sel.Name, from, name)
			}
			return true
		})
	}
	return len(declaredIn)
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

// areas are the packages the types live in, internal/provider/<area> (DESIGN.md, "The provider, its kit and
// its areas"); what types share is in the kit, package internal/provider/kit, and the acceptance tests'
// harness is package internal/provider/acctest.
var areas = []string{"clusters", "pipelines", "teams", "suites", "registries", "organization", "actions", "functions"}

// providerFiles are the provider's own files: its schema, configuration and server, which name every type.
var providerFiles = []string{"provider.go", "provider_configure.go", "provider_server.go", "action_stop.go", "doc.go"}

// areaNames are the areas, each a package internal/provider/<area>.
func areaNames() []string { return areas }

// The provider's package holds only its own files, and every package below it is an area, the kit or the
// harness: a type lands in its area, and a new area is named in areas, so that the house tests read it.
func TestHouse_typesLiveInTheirAreas(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if !strings.HasSuffix(name, "_test.go") && !slices.Contains(providerFiles, name) {
			t.Errorf("%s is not one of the provider's own files (providerFiles): a type's file goes in its area, internal/provider/<area>", name)
		}
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	dirs := 0
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "testdata" {
			continue
		}
		dirs++
		if e.Name() != "kit" && e.Name() != "acctest" && !slices.Contains(areas, e.Name()) {
			t.Errorf("internal/provider/%s is not an area the house tests read: add it to areas", e.Name())
		}
	}
	if dirs < len(areas)+2 {
		t.Errorf("found %d packages below internal/provider, want the %d areas, the kit and the harness", dirs, len(areas))
	}
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
