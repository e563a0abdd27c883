package functions

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var _ function.Function = (*graphQLIDFunction)(nil)

// NewGraphQLIDFunction returns provider::buildkite::graphql_id.
func NewGraphQLIDFunction() function.Function { return &graphQLIDFunction{} }

// graphQLIDFunction builds the GraphQL ID of an object from its type and UUID, for configurations that
// feed tools or modules written against the GraphQL API (or the official provider's IDs).
type graphQLIDFunction struct{}

// Metadata implements function.Function.
func (f *graphQLIDFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "graphql_id"
}

// Definition implements function.Function.
func (f *graphQLIDFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "The GraphQL ID of an object, from its type and UUID",
		MarkdownDescription: "Returns the GraphQL ID that Buildkite's GraphQL API (and the official provider) use for the object " +
			"of the given type and UUID: standard, padded base64 of `<type>---<uuid>`. This provider's `id` and `uuid` " +
			"attributes hold the UUID; most of its objects also show `graphql_id`. The UUID is written in lower case, as " +
			"the service writes it. `provider::buildkite::uuid` converts back.",
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "type",
				MarkdownDescription: "The GraphQL type, case-sensitive: one of `" + strings.Join(kit.GraphQLTypes, "`, `") + "`.",
			},
			function.StringParameter{
				Name:                "uuid",
				MarkdownDescription: "The object's UUID (its REST ID), such as a resource's `id`.",
			},
		},
		Return: function.StringReturn{},
	}
}

// Run implements function.Function.
func (f *graphQLIDFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var typ, uuid string
	if resp.Error = req.Arguments.Get(ctx, &typ, &uuid); resp.Error != nil {
		return
	}
	if err := kit.CheckGraphQLType(typ); err != nil {
		resp.Error = function.NewArgumentFuncError(0, kit.Capitalize(err.Error())+".")
		return
	}
	if !kit.IsUUID(uuid) {
		why := ""
		if gotType, id, ok := kit.DecodeGraphQLID(uuid); ok {
			why = fmt.Sprintf(": it is already a GraphQL ID (of %s %s)", gotType, id)
		}
		resp.Error = function.NewArgumentFuncError(1, fmt.Sprintf("%q is not a UUID%s. Pass the object's REST ID, such as a resource's id or uuid attribute.", uuid, why))
		return
	}
	resp.Error = resp.Result.Set(ctx, kit.GraphQLID(typ, uuid))
}
