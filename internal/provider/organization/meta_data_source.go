package organization

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource              = (*metaDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*metaDataSource)(nil)
)

// NewMetaDataSource returns the buildkite_meta data source.
func NewMetaDataSource() datasource.DataSource {
	return &metaDataSource{DataSourceBase: kit.NewDataSourceBase("meta")}
}

type metaDataSource struct {
	kit.DataSourceBase
}

type metaModel struct {
	ID         types.String `tfsdk:"id"`
	WebhookIPs types.List   `tfsdk:"webhook_ips"`
}

func (d *metaDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Facts about the service itself (`GET /v2/meta`): the addresses it sends webhooks from, " +
			"to allow through a firewall in front of a source-code host or another webhook receiver.",
		Attributes: map[string]schema.Attribute{
			kit.AttrID: schema.StringAttribute{
				MarkdownDescription: "The URL the facts were read from, such as `https://api.buildkite.com/v2/meta`.",
				Computed:            true,
			},
			"webhook_ips": schema.ListAttribute{
				MarkdownDescription: "The addresses the service sends webhooks from, in CIDR notation, sorted.",
				ElementType:         types.StringType,
				Computed:            true,
			},
		},
	}
}

func (d *metaDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	m, err := d.Client().Meta.Get(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "read", "meta", "", err)
		return
	}
	state := metaModel{
		ID:         types.StringValue(strings.TrimSuffix(d.Client().BaseURL(), "/") + "/v2/meta"),
		WebhookIPs: kit.StringList(m.WebhookIPs),
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}
