package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The provider's protocol 6 server, as main.go serves it: the framework's, wrapped so that a stop waits for
// running actions (action_stop.go).

// NewProtocol6Server returns the factory of the provider's protocol 6 server, as providerserver.NewProtocol6
// does, with the stop of a running action reported to Terraform (stopAwaitingServer). main.go serves it.
func NewProtocol6Server(version string) func() tfprotov6.ProviderServer {
	framework := providerserver.NewProtocol6(New(version)())
	return func() tfprotov6.ProviderServer { return awaitStops(framework()) }
}

// fullServer is a protocol 6 server with every optional part that terraform-plugin-go looks for, so a
// wrapper that embeds it hides none of them.
// (terraform-plugin-go looks for them through interfaces it has deprecated, whose methods these are.)
type fullServer interface {
	tfprotov6.ProviderServer
	tfprotov6.ActionServer
	tfprotov6.ListResourceServer
	tfprotov6.StateStoreServer
}
