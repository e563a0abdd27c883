// Command noopprovider is a Terraform provider that does nothing: the yardstick of the wall-time benchmark
// (TestBench_wallTimeAgainstNoop in internal/provider). Its three resource types have the attributes of
// buildkite_cluster, buildkite_cluster_queue and buildkite_cluster_agent_token, so a configuration of
// clusters with queues and tokens that refer to them gives Terraform the same graph and the same state to
// carry, and each answers at once from memory with generated IDs. What Terraform takes with it is the
// floor against which the real provider's plan, apply and destroy are measured.
//
// It is built by the benchmark, for the benchmark only: nothing else imports it, and the provider's binary
// does not hold it.
package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/cpuprofile"
)

// Address is where the benchmark's CLI configuration (dev_overrides) finds the provider.
const Address = "registry.terraform.io/bench/noop"

func main() {
	stopProfile := cpuprofile.Start() // profiled as the real provider is, for the benchmark's comparison
	opts := providerserver.ServeOpts{Address: Address, ProtocolVersion: 6}
	err := providerserver.Serve(context.Background(), func() provider.Provider { return noop{} }, opts)
	stopProfile()
	if err != nil {
		log.Fatal(err.Error())
	}
}

// noop is the provider: no configuration, three resource types.
type noop struct{}

func (noop) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "noop"
}

func (noop) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (noop) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {}

func (noop) DataSources(context.Context) []func() datasource.DataSource { return nil }

func (noop) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		func() resource.Resource { return object{name: "cluster", attrs: clusterAttributes} },
		func() resource.Resource { return object{name: "cluster_queue", attrs: queueAttributes} },
		func() resource.Resource { return object{name: "cluster_agent_token", attrs: tokenAttributes} },
	}
}

// The attributes of the three real types, without their validators: what Terraform stores and diffs.
var (
	clusterAttributes = func() map[string]schema.Attribute {
		return withComputed(map[string]schema.Attribute{
			"name":        schema.StringAttribute{Required: true},
			"description": schema.StringAttribute{Optional: true},
			"emoji":       schema.StringAttribute{Optional: true},
			"color":       schema.StringAttribute{Optional: true},
		}, "id", "uuid", "graphql_id", "url", "web_url")
	}
	queueAttributes = func() map[string]schema.Attribute {
		return withComputed(map[string]schema.Attribute{
			"cluster_id":           parentID(),
			"key":                  schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"description":          schema.StringAttribute{Optional: true},
			"dispatch_paused":      schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false)},
			"dispatch_paused_note": schema.StringAttribute{Optional: true},
		}, "id", "uuid", "graphql_id", "url", "web_url")
	}
	tokenAttributes = func() map[string]schema.Attribute {
		return withComputed(map[string]schema.Attribute{
			"cluster_id":           parentID(),
			"description":          schema.StringAttribute{Required: true},
			"allowed_ip_addresses": schema.ListAttribute{ElementType: types.StringType, Optional: true},
			"expires_at":           schema.StringAttribute{Optional: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"token":                schema.StringAttribute{Computed: true, Sensitive: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		}, "id", "uuid", "graphql_id", "url")
	}
)

// parentID is the reference to the cluster: changing it replaces the object.
func parentID() schema.StringAttribute {
	return schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}}
}

// withComputed adds the server-assigned strings, kept from state once known.
func withComputed(attrs map[string]schema.Attribute, names ...string) map[string]schema.Attribute {
	for _, n := range names {
		attrs[n] = schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	}
	return attrs
}

// object is one resource type: create fills the unknown computed strings with a generated ID, read and
// delete do nothing, update keeps the plan.
type object struct {
	name  string
	attrs func() map[string]schema.Attribute
}

var _ resource.Resource = object{}

func (o object) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + o.name
}

func (o object) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: o.attrs()}
}

func (o object) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	id := rand.Text()
	resp.State.Raw = req.Plan.Raw
	for name, a := range o.attrs() {
		if _, ok := a.(schema.StringAttribute); !ok || !a.IsComputed() {
			continue
		}
		var v types.String
		resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root(name), &v)...)
		if v.IsUnknown() {
			resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(name), fmt.Sprintf("%s-%s", name, id))...)
		}
	}
}

func (object) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (object) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State = tfsdk.State{Schema: req.Plan.Schema, Raw: req.Plan.Raw}
}

func (object) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
