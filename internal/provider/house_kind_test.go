package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// Every resource type is declared on the object kind (kit/object.go) and served by its one objectResource:
// no file of the provider or of an area implements a resource's Create, Read, Update, Delete or ImportState
// itself, so that the timeouts, the identity and the shared failure paths, and their tests, hold for every
// type. What a type does beyond the kind is a hook's function in its own file. The kit (which holds the one
// implementation) and the harness are not read.
func TestHouse_everyResourceIsOnTheKind(t *testing.T) {
	requests := map[string]bool{ // resource's request types, by the method that takes them
		"CreateRequest": true, "ReadRequest": true, "UpdateRequest": true, "DeleteRequest": true, "ImportStateRequest": true,
	}
	fset := token.NewFileSet()
	read := 0
	err := filepath.WalkDir(".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name == "kit" || name == "acctest" || name == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		read++
		resourcePkg := "" // the name this file imports the framework's resource package as
		for _, imp := range f.Imports {
			if strings.Trim(imp.Path.Value, `"`) == "github.com/hashicorp/terraform-plugin-framework/resource" {
				resourcePkg = "resource"
				if imp.Name != nil {
					resourcePkg = imp.Name.Name
				}
			}
		}
		if resourcePkg == "" {
			return nil
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv == nil {
				continue
			}
			for _, p := range fn.Type.Params.List {
				sel, ok := p.Type.(*ast.SelectorExpr)
				if !ok {
					continue
				}
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == resourcePkg && requests[sel.Sel.Name] {
					t.Errorf("%s: %s implements a resource's %s itself: declare the type as a kit.ObjectKind and give what it does beyond the kind as a hook (CONTRIBUTING.md, \"Declaring a resource type\")",
						fset.Position(fn.Pos()), fn.Name.Name, sel.Sel.Name)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if read < 50 {
		t.Fatalf("read %d source files: the provider's files are not being read", read)
	}
}
