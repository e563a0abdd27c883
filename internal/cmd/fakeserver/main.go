// Command fakeserver serves the Buildkite REST API emulator (internal/fakeserver) on a TCP address, for
// trying the provider by hand or from another process:
//
//	go run ./internal/cmd/fakeserver --listen 127.0.0.1:8080 --org demo --token demo-token
//	go run ./internal/cmd/fakeserver --fixtures examples/fakeserver/fixtures.yaml
//
// --fixtures loads the organizations, users, tokens, agents and suites the server starts with (see
// examples/fakeserver/fixtures.yaml) in place of --org and --token; a file that does not load is an error.
//
// It prints one line on stdout holding the base URL ("fakeserver listening on http://127.0.0.1:8080"),
// logs requests on stderr unless --quiet, and shuts down cleanly on SIGINT or SIGTERM. With
// --listen 127.0.0.1:0 it picks a free port and prints the real one.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/internal/fakeserver"
)

func main() { os.Exit(exitCode()) }

// exitCode runs the server until SIGINT or SIGTERM and returns the process's exit status.
func exitCode() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	default:
		fmt.Fprintln(os.Stderr, "fakeserver:", err)
		return 1
	}
}

// shutdownTimeout bounds how long in-flight requests may take once a signal arrives.
const shutdownTimeout = 5 * time.Second

// run serves until ctx is done, then shuts the server down. It writes the listening line to stdout.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("fakeserver", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	listen := fs.String("listen", "127.0.0.1:8080", "TCP address to listen on; port 0 picks a free port")
	org := fs.String("org", "demo", "slug of the organization to serve")
	token := fs.String("token", "demo-token", "API access token holding every scope for the organization")
	rateLimit := fs.Int("rate-limit", 0, "requests allowed per window per token before 429; 0 disables")
	rateWindow := fs.Duration("rate-limit-window", time.Minute, "rate-limit window")
	quiet := fs.Bool("quiet", false, "do not log requests on stderr")
	fixtures := fs.String("fixtures", "", "YAML or JSON file of the state to start with, in place of --org and --token")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if *org == "" || *token == "" {
		return errors.New("--org and --token must not be empty")
	}

	opts := fakeserver.Options{Org: *org, Token: *token, RateLimit: *rateLimit, RateLimitWindow: *rateWindow}
	if *fixtures != "" {
		// Refuse rather than ignore --org/--token: the user would expect them to take effect.
		explicit := false
		fs.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "org" || f.Name == "token" })
		if explicit {
			return errors.New("--fixtures declares the organizations and tokens: drop --org and --token")
		}
		f, err := fakeserver.LoadFixtures(*fixtures)
		if err != nil {
			return err
		}
		opts.Fixtures = f
	}
	if !*quiet {
		opts.Logf = log.New(os.Stderr, "fakeserver: ", log.LstdFlags).Printf
	}

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: fakeserver.New(opts), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	if _, err := fmt.Fprintf(stdout, "fakeserver listening on %s\n", baseURL(ln.Addr())); err != nil {
		_ = srv.Close()
		return err
	}
	if f, ok := stdout.(interface{ Flush() error }); ok {
		_ = f.Flush()
	}

	select {
	case err := <-served: // Serve failed before any shutdown was asked for
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// baseURL is the URL clients use for addr; an unspecified host (0.0.0.0, ::) is shown as 127.0.0.1.
func baseURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}
