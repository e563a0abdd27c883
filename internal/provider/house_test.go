package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
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
		if !strings.HasSuffix(name, "_test.go") {
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
			case pkg.Name == "exec" && sel.Sel.Name == "LookPath" && name != "newcli_kit_test.go":
				t.Errorf("%s: exec.LookPath: a test finds its Terraform CLI through terraformCLI (newcli_kit_test.go), which skips without TF_ACC", fset.Position(sel.Pos()))
			}
			return true
		})
	}
}
