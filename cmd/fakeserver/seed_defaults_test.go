package main

import (
	"io"
	"testing"
)

// --seed-defaults asks for the organization a new Buildkite organization is; without it the state starts empty.
func TestParseFlagsSeedDefaults(t *testing.T) {
	opts, _, err := parseFlags([]string{"--quiet", "--seed-defaults"}, io.Discard)
	if err != nil || !opts.SeedDefaults {
		t.Fatalf("--seed-defaults: %+v %v", opts, err)
	}
	if opts, _, err = parseFlags([]string{"--quiet"}, io.Discard); err != nil || opts.SeedDefaults {
		t.Fatalf("default: SeedDefaults = %v, %v", opts.SeedDefaults, err)
	}
}
