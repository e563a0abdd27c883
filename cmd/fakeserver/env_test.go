package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestEveryFlagHasAnEnvVar: each flag is set by BUILDKITE_EMULATOR_<NAME>, named in --help, and a flag on
// the command line wins over its variable.
func TestEveryFlagHasAnEnvVar(t *testing.T) {
	var usage strings.Builder
	if _, _, err := parseFlags([]string{"--help"}, &usage); err == nil {
		t.Fatal("--help did not stop")
	}
	var fs *flag.FlagSet // the flag set parseFlags fills, to list every flag
	n := 0
	_, _, _ = parseFlagsWith([]string{"--help"}, io.Discard, func(set *flag.FlagSet) { fs = set })
	fs.VisitAll(func(f *flag.Flag) {
		n++
		if !strings.Contains(usage.String(), "(env "+envName(f.Name)+")") {
			t.Errorf("--help does not name %s for --%s", envName(f.Name), f.Name)
		}
	})
	if n < 12 {
		t.Fatalf("only %d flags seen", n)
	}
	for flagName, want := range map[string]string{"listen": "BUILDKITE_EMULATOR_LISTEN", "org": "BUILDKITE_EMULATOR_ORG",
		"token": "BUILDKITE_EMULATOR_TOKEN", "state-file": "BUILDKITE_EMULATOR_STATE_FILE", "admin-token": "BUILDKITE_EMULATOR_ADMIN_TOKEN"} {
		if got := envName(flagName); got != want {
			t.Errorf("envName(%q) = %q, want %q", flagName, got, want)
		}
	}

	t.Setenv("BUILDKITE_EMULATOR_LISTEN", "0.0.0.0:9999")
	t.Setenv("BUILDKITE_EMULATOR_ORG", "from-env")
	t.Setenv("BUILDKITE_EMULATOR_TOKEN", "env-token")
	t.Setenv("BUILDKITE_EMULATOR_ADMIN_TOKEN", "env-admin")
	t.Setenv("BUILDKITE_EMULATOR_TEST_ROUTES", "true")
	t.Setenv("BUILDKITE_EMULATOR_RATE_LIMIT", "7")
	t.Setenv("BUILDKITE_EMULATOR_QUIET", "1")
	opts, listen, err := parseFlags([]string{"--org", "from-flag"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if listen != "0.0.0.0:9999" || opts.Org != "from-flag" || opts.Token != "env-token" || opts.AdminToken != "env-admin" ||
		opts.DisableTestRoutes || opts.RateLimit != 7 || opts.Logf != nil {
		t.Fatalf("from the environment: %+v listen %q", opts, listen)
	}

	t.Setenv("BUILDKITE_EMULATOR_RATE_LIMIT", "many")
	_, _, err = parseFlags(nil, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "BUILDKITE_EMULATOR_RATE_LIMIT") {
		t.Fatalf("a bad variable: %v, want an error naming it", err)
	}
}

// TestEnvCommand: "fakeserver env" prints the client's environment for the flags' server.
func TestEnvCommand(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"env", "--listen", "0.0.0.0:8080", "--org", "demo", "--token", "it's"}, &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"export BUILDKITE_REST_URL='http://127.0.0.1:8080'\n",
		// Buildkite's CLI (bk) reads these two names for the same URLs.
		"export BUILDKITE_REST_API_ENDPOINT='http://127.0.0.1:8080'\n",
		"export BUILDKITE_GRAPHQL_ENDPOINT='http://127.0.0.1:8080/v1'\n",
		"export BUILDKITE_ORGANIZATION_SLUG='demo'\n",
		`export BUILDKITE_API_TOKEN='it'\''s'` + "\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("env output lacks %q:\n%s", want, got)
		}
	}

	out.Reset()
	t.Setenv("BUILDKITE_EMULATOR_LISTEN", "emulator:8080")
	if err := run(context.Background(), []string{"env", "--format", "dotenv", "--fixtures", exampleFixtures}, &out); err != nil {
		t.Fatal(err)
	}
	got = out.String()
	for _, want := range []string{"BUILDKITE_REST_URL=http://emulator:8080\n", "BUILDKITE_ORGANIZATION_SLUG=demo\n", "BUILDKITE_API_TOKEN=demo-token\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("dotenv output lacks %q:\n%s", want, got)
		}
	}
	for _, args := range [][]string{{"env", "--listen", "127.0.0.1:0"}, {"env", "--format", "yaml"}, {"env", "extra"}} {
		if err := run(context.Background(), args, io.Discard); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}

// TestAdminTokenFlag: the command's controls are off without --admin-token and on with it.
func TestAdminTokenFlag(t *testing.T) {
	status := func(base, method, path, token string) int {
		req, _ := http.NewRequest(method, base+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	off := startRun(t)
	if got := status(off, "GET", "/_emulator/state", "admin"); got != http.StatusNotFound {
		t.Errorf("state without --admin-token: %d, want 404", got)
	}
	if got := status(off, "GET", "/_emulator/health", ""); got != http.StatusOK {
		t.Errorf("health: %d", got)
	}
	on := startRun(t, "--admin-token", "admin")
	for token, want := range map[string]int{"admin": http.StatusOK, "demo-token": http.StatusUnauthorized, "": http.StatusUnauthorized} {
		if got := status(on, "GET", "/_emulator/state", token); got != want {
			t.Errorf("state with token %q: %d, want %d", token, got, want)
		}
	}
	if got := status(on, "POST", "/_emulator/reset", "admin"); got != http.StatusNoContent {
		t.Errorf("reset: %d", got)
	}
	if err := run(context.Background(), []string{"--admin-token", "demo-token"}, io.Discard); err == nil {
		t.Error("an admin token equal to --token was taken")
	}
}

// TestHealthCommand: "fakeserver health" succeeds against a running server and fails where none listens.
func TestHealthCommand(t *testing.T) {
	base := startRun(t)
	listen := strings.TrimPrefix(base, "http://")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"health", "--listen", listen}, &out); err != nil || out.String() != "ok\n" {
		t.Fatalf("health of a running server: %v %q", err, out.String())
	}
	t.Setenv("BUILDKITE_EMULATOR_LISTEN", "127.0.0.1:1")
	if err := run(context.Background(), []string{"health"}, io.Discard); err == nil {
		t.Fatal("health succeeded where nothing listens")
	}
}
