package fakeserver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// authorizeByHand lists the handlers that open with s.authorize(w, r, …) themselves rather than through
// the serve helpers of handlers.go, each with the reason no helper fits. A new entry needs as good a
// reason; most new handlers fit serveRead, serveReadFor, serveWrite, serveWriteChecked, serveAct or
// serveDelete.
var authorizeByHand = map[string]string{
	"getJobLogText":  "answers plain text, not JSON",
	"putBanner":      "answers 201 or 200, which it knows only under the lock",
	"removeTeamLink": "reads a body only when the path names no other end (DELETE .../pipelines/)",
}

// Every handler has one shape: the serve helpers of handlers.go check the token, read the body and take
// the store's lock in the same order for all. A handler outside handlers.go that calls s.authorize(w, r, …)
// itself must be one of authorizeByHand, and every entry there must still need to.
func TestHandlersOpenThroughServeHelpers(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	seen := map[string]bool{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") || name == "handlers.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && isAuthorizeCall(call) {
					seen[fn.Name.Name] = true
					if _, allowed := authorizeByHand[fn.Name.Name]; !allowed {
						t.Errorf("%s: %s calls s.authorize(w, r, …) itself: build it on a serve helper of handlers.go "+
							"(or, if none fits, add it to authorizeByHand with the reason)", fset.Position(call.Pos()), fn.Name.Name)
					}
				}
				return true
			})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(authorizeByHand)) {
		if !seen[name] {
			t.Errorf("authorizeByHand lists %s, which no longer calls s.authorize(w, r, …): remove it from the list", name)
		}
	}
}

// isAuthorizeCall reports whether call is <x>.authorize(…), whatever its arguments are named.
func isAuthorizeCall(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "authorize"
}

// A write answering 204 goes through respond like any other: no body and no Content-Type on success, the
// error as usual on failure.
func TestRespondNoContent(t *testing.T) {
	rec := httptest.NewRecorder()
	respond(rec, http.StatusNoContent, map[string]string{"ignored": "yes"}, nil)
	if rec.Code != http.StatusNoContent || rec.Body.Len() != 0 || rec.Header().Get("Content-Type") != "" {
		t.Errorf("204: got %d, body %q, Content-Type %q; want 204, no body, no Content-Type",
			rec.Code, rec.Body.String(), rec.Header().Get("Content-Type"))
	}
	rec = httptest.NewRecorder()
	respond(rec, http.StatusNoContent, nil, errNotFound("agent"))
	if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "No agent found") {
		t.Errorf("204 with an error: got %d %q, want 404 No agent found", rec.Code, rec.Body.String())
	}
}

// The token is checked before the body is read, on the endpoints whose area helpers read the body
// themselves (the conformance rows check the others): a caller without a token gets 401, never word of
// its body.
func TestTokenCheckedBeforeBody(t *testing.T) {
	srv := New(Options{})
	for _, route := range []string{
		"POST /v2/organizations/acme/clusters/c1/cache-registries",
		"PATCH /v2/organizations/acme/clusters/c1/cache-registries/r1",
		"PATCH /v2/organizations/acme/members/u1",
		"POST /v2/organizations/acme/invitations",
		"PATCH /v2/organizations/acme/pipeline-settings",
		"PUT /v2/organizations/acme/pipeline-settings/build-export",
	} {
		method, path, _ := strings.Cut(route, " ")
		req := httptest.NewRequest(method, path, strings.NewReader(`{"name": "unterminated`))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusUnauthorized {
			t.Errorf("%s without a token, malformed body: %d %s, want 401", route, rec.Code, rec.Body.String())
		}
	}
}
