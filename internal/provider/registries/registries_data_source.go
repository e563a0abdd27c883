package registries

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource              = (*registriesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*registriesDataSource)(nil)
)

// NewRegistriesDataSource returns the buildkite_registries data source.
func NewRegistriesDataSource() datasource.DataSource {
	return &registriesDataSource{DataSourceBase: kit.NewDataSourceBase("registries")}
}

type registriesDataSource struct {
	kit.DataSourceBase
}

type registriesDataModel struct {
	Registries []registryDataModel `tfsdk:"registries"`
}

func (d *registriesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{
		MarkdownDescription: "Every package registry of the organization.",
		Attributes: map[string]dschema.Attribute{
			"registries": kit.ListOf("The registries, each with the attributes of the `buildkite_registry` data source.", registryDataAttributes()),
		},
	}
}

func (d *registriesDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	items, ok := kit.ListItems(ctx, &resp.Diagnostics, "registries", "", d.Client().Registries.List, (*registryDataModel).fromAPI)
	if ok {
		resp.Diagnostics.Append(resp.State.Set(ctx, &registriesDataModel{Registries: items})...)
	}
}
