// Command terraform-provider-buildkite is the Terraform provider for Buildkite: its REST API v2, and its
// GraphQL API for the few things only GraphQL serves.
package main

import (
	"flag"
	"log"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/ci-rest/terraform-provider-buildkite/internal/cpuprofile"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// version is set by goreleaser at build time.
var version = "dev"

// parentCheckInterval is how often the provider looks for its parent.
const parentCheckInterval = 250 * time.Millisecond

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	stopProfile := cpuprofile.Start() // off unless BUILDKITE_PROVIDER_CPUPROFILE is set
	go exitWithParent(os.Getppid(), parentCheckInterval)
	if !debug {
		kit.SilenceUnreadLogs()
	}
	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	// Served as providerserver.Serve would, with the server that reports an interrupted action
	// (internal/provider/provider_server.go).
	err := tf6server.Serve("registry.terraform.io/ci-rest/buildkite", provider.NewProtocol6Server(version), opts...)
	stopProfile()
	if err != nil {
		log.Fatal(err.Error())
	}
}

// exitWithParent ends the process once its parent, the Terraform that started it, is gone: the plugin
// server runs until Terraform tells it to stop, which a Terraform killed with SIGKILL never does, and the
// provider would linger. A process whose parent dies is adopted by another, so its parent's ID changes.
// A provider started by init (parent 1) has nothing to watch.
func exitWithParent(parent int, interval time.Duration) {
	if parent <= 1 {
		return
	}
	for range time.Tick(interval) {
		if os.Getppid() != parent {
			log.Printf("[ERROR] the process that started the provider (%d) is gone; exiting", parent)
			os.Exit(1)
		}
	}
}
