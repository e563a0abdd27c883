package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// envPrefix starts the environment variable of every flag: --state-file is BUILDKITE_EMULATOR_STATE_FILE.
const envPrefix = "BUILDKITE_EMULATOR_"

// envName is the environment variable that sets flag name.
func envName(name string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// setFromEnv gives each of fs's flags the value of its environment variable, when set, and names that
// variable in the flag's usage. Called before fs.Parse, so a flag on the command line wins.
func setFromEnv(fs *flag.FlagSet) error {
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		name := envName(f.Name)
		f.Usage += " (env " + name + ")"
		if v, ok := os.LookupEnv(name); ok {
			if err := fs.Set(f.Name, v); err != nil {
				errs = append(errs, fmt.Errorf("%s=%q: %w", name, v, err))
			}
		}
	})
	return errors.Join(errs...)
}

// printEnv is the env command: it prints the environment a client needs to reach the server that the
// same flags would start, at --listen, without starting it.
func printEnv(args []string, stdout, stderr io.Writer) error {
	var format string
	opts, listen, err := parseFlagsWith(args, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&format, "format", "shell", "env only: `shell` (export NAME='value') or dotenv (NAME=value, for $GITHUB_ENV and\ncompose env files)")
	})
	if err != nil {
		return err
	}
	if format != "shell" && format != "dotenv" {
		return fmt.Errorf("--format %q: want shell or dotenv", format)
	}
	base, err := reachURL(listen)
	if err != nil {
		return err
	}
	// The state file belongs to the server that runs; only Org and Token (and the routes) are wanted here.
	opts.StateFile, opts.Logf, opts.AdminToken = "", nil, ""
	srv, err := fakeserver.Open(opts)
	if err != nil {
		return err
	}
	for _, v := range srv.ClientEnv(base) {
		if format == "dotenv" {
			_, err = fmt.Fprintf(stdout, "%s=%s\n", v.Name, v.Value)
		} else {
			_, err = fmt.Fprintf(stdout, "export %s=%s\n", v.Name, shellQuote(v.Value))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// reachURL is the URL a client on this host reaches a server listening on listen at.
func reachURL(listen string) (string, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "", fmt.Errorf("--listen %q: %w", listen, err)
	}
	if port == "0" {
		return "", errors.New("--listen has port 0: give the port the server printed it listens on")
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1" // the server listens everywhere; a client on this host reaches it here
	}
	return "http://" + net.JoinHostPort(host, port), nil
}

// checkHealth is the health command, for a container's health check (the image holds no curl): it asks
// GET /_emulator/health of the server the same flags start, at --listen, and fails unless it answers 200.
func checkHealth(args []string, stdout, stderr io.Writer) error {
	_, listen, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	base, err := reachURL(listen)
	if err != nil {
		return err
	}
	client := &http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get(base + fakeserver.ControlPrefix + "health")
	if err != nil {
		return err
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s%shealth answered %s", base, fakeserver.ControlPrefix, resp.Status)
	}
	_, err = fmt.Fprintln(stdout, "ok")
	return err
}
