package main

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// The release's own configuration: the provider is stamped with the version, stripped, built without cgo.
func TestBuildLines_release(t *testing.T) {
	raw, err := os.ReadFile("../../../.goreleaser.yml")
	if err != nil {
		t.Fatal(err)
	}
	args, err := buildLines(raw, "provider", "1.2.3", false)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"-trimpath", "-ldflags=-s -w -X main.version=1.2.3", "."}
	if !slices.Equal(args, want) {
		t.Errorf("provider arguments = %q, want %q", args, want)
	}
	env, err := buildLines(raw, "provider", "1.2.3", true)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(env, []string{"CGO_ENABLED=0"}) {
		t.Errorf("provider environment = %q", env)
	}
	args, err = buildLines(raw, "emulator", "1.2.3", false)
	if err != nil {
		t.Fatal(err)
	}
	if args[len(args)-1] != "./cmd/fakeserver" {
		t.Errorf("emulator arguments = %q, want ./cmd/fakeserver last", args)
	}
}

func TestBuildLines_refuses(t *testing.T) {
	for name, c := range map[string]struct{ yml, id, want string }{
		"unknown id":    {"builds: [{id: provider}]", "other", `no build with id "other"`},
		"unknown field": {"builds: [{id: provider, ldflags: ['-X main.commit={{ .Commit }}']}]", "provider", "only goreleaser knows"},
		"bad yaml":      {"builds: [", "provider", "yaml"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := buildLines([]byte(c.yml), c.id, "1.0.0", false)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want one containing %q", err, c.want)
			}
		})
	}
}
