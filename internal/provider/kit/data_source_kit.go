package kit

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// What every data source shares: its base (Metadata, Configure, a read timeout) and the pieces of the
// read-only views. Each object's data-source attributes are written once, as computed attributes, and used
// both by the singular data source (with its lookup attributes made optional) and as the items of the plural
// one, so an item of a list carries exactly what the singular data source shows.

// DataSourceBase gives every data source its Metadata, Configure and read timeout.
type DataSourceBase struct {
	name string
	Data *ProviderData
}

func NewDataSourceBase(name string) DataSourceBase { return DataSourceBase{name: name} }

// Metadata implements datasource.DataSource.
func (b *DataSourceBase) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.name
}

// Configure implements datasource.DataSourceWithConfigure.
func (b *DataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	b.Data = ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

// Client returns the shared REST client.
func (b *DataSourceBase) Client() *buildkite.Client { return b.Data.Client }

// Timeout bounds a read by the provider block's read timeout.
func (b *DataSourceBase) Timeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return OperationContext(ctx, b.Data, OpRead)
}

// WithLookup returns attrs with the named attributes made Optional and Computed: the ones a singular data
// source may be asked by. description overrides each one's description, to say how it is used.
func WithLookup(attrs map[string]dschema.Attribute, descriptions map[string]string) map[string]dschema.Attribute {
	for name, description := range descriptions {
		attrs[name] = dschema.StringAttribute{MarkdownDescription: description, Optional: true, Computed: true}
	}
	return attrs
}

// ListOf is the computed list attribute of a plural data source whose items have attrs.
func ListOf(description string, attrs map[string]dschema.Attribute) dschema.ListNestedAttribute {
	return dschema.ListNestedAttribute{
		MarkdownDescription: description,
		Computed:            true,
		NestedObject:        dschema.NestedAttributeObject{Attributes: attrs},
	}
}

// ComputedStrings returns computed string attributes with the given descriptions.
func ComputedStrings(descriptions map[string]string) map[string]dschema.Attribute {
	attrs := make(map[string]dschema.Attribute, len(descriptions))
	for name, description := range descriptions {
		attrs[name] = dschema.StringAttribute{MarkdownDescription: description, Computed: true}
	}
	return attrs
}

// MergeAttrs adds every attribute of more to attrs and returns attrs.
func MergeAttrs(attrs map[string]dschema.Attribute, more map[string]dschema.Attribute) map[string]dschema.Attribute {
	for name, a := range more {
		attrs[name] = a
	}
	return attrs
}

// ListItems lists objects with list and maps each to a data-source item with fill: the Read of a plural data
// source. A failure is reported as "Unable to List <What>", with of ("of cluster <id>", or "") in the
// detail; ok is false then.
func ListItems[T, M any](ctx context.Context, diags *diag.Diagnostics, what, of string,
	list func(context.Context) ([]T, error), fill func(*M, *T)) (items []M, ok bool) {
	all, err := list(ctx)
	if err != nil {
		AddAPIError(diags, "list", what, of, err)
		return nil, false
	}
	items = make([]M, len(all))
	for i := range all {
		fill(&items[i], &all[i])
	}
	return items, true
}

// LookupByID makes a singular data source's `id` lookup (made Optional by WithLookup, or declared so) follow
// the ID rule (ids.go): a UUID or a GraphQL ID of one of graphQLTypes, anything else refused at plan time
// naming the attribute, so that a Pipeline's GraphQL ID never reads a cluster.
func LookupByID(attrs map[string]dschema.Attribute, graphQLTypes ...string) map[string]dschema.Attribute {
	a, ok := attrs[AttrID].(dschema.StringAttribute)
	if !ok {
		panic("provider: lookupByID: no string attribute id")
	}
	a.Validators = append([]validator.String{RefValidator{GraphQLTypes: graphQLTypes}}, a.Validators...)
	attrs[AttrID] = a
	return attrs
}
