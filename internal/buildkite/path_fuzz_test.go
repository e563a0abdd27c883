package buildkite

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

// FuzzJoinPath: whatever an ID holds, joinPath either refuses it (empty, "." or "..", which would name
// another object) or appends it as exactly one escaped segment that unescapes to the ID: no slash, "?",
// "#" or "%" in it leaves its segment or the path. (Go's ServeMux, the emulator's router, does not route a
// segment that is exactly "%2F"; that is the router's, and such an ID names nothing anyway, so the check
// is on the path, not on one router.)
func FuzzJoinPath(f *testing.F) {
	for _, seed := range [][2]string{
		{"app", "1"}, {"a/b", "c"}, {"..", "x"}, {".", "x"}, {"", "x"}, {"a?b=c#d", "%2F"}, {"%2e%2e", "..."},
		{"my pipeline", "ü"}, {"a;b", "+"}, {"\x00", "\n"}, {"./", "/."}, {"%", "%%"}, {"/", "0"},
	} {
		f.Add(seed[0], seed[1])
	}
	const prefix = "/v2/organizations/acme/pipelines"
	f.Fuzz(func(t *testing.T, a, b string) {
		p, err := joinPath(prefix, a, b)
		refused := func(s string) bool { return s == "" || s == "." || s == ".." }
		if refused(a) || refused(b) {
			if err == nil || !errors.Is(err, ErrInvalidID) {
				t.Fatalf("joinPath(%q, %q) = %q, %v; want ErrInvalidID", a, b, p, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("joinPath(%q, %q): %v", a, b, err)
		}
		u, err := url.Parse("https://api.example" + p)
		if err != nil || u.RawQuery != "" || u.Fragment != "" || u.EscapedPath() != p || !strings.HasPrefix(p, prefix+"/") {
			t.Fatalf("joinPath(%q, %q) = %q: not one path under the prefix (%v, query %q, fragment %q)", a, b, p, err, u.RawQuery, u.Fragment)
		}
		segs := strings.Split(strings.TrimPrefix(p, prefix+"/"), "/")
		if len(segs) != 2 {
			t.Fatalf("joinPath(%q, %q) = %q: %d segments, want 2", a, b, p, len(segs))
		}
		for i, want := range []string{a, b} {
			if got, err := url.PathUnescape(segs[i]); err != nil || got != want || refused(segs[i]) {
				t.Fatalf("joinPath(%q, %q) = %q: segment %q reads back as %q (%v)", a, b, p, segs[i], got, err)
			}
		}
	})
}
