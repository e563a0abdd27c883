package functions

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var _ function.Function = (*uuidFunction)(nil)

// NewUUIDFunction returns provider::buildkite::uuid.
func NewUUIDFunction() function.Function { return &uuidFunction{} }

// uuidFunction takes the UUID out of a GraphQL ID, for configurations moving from the official provider,
// whose IDs and references are GraphQL IDs, to this one, which takes UUIDs.
type uuidFunction struct{}

// Metadata implements function.Function.
func (f *uuidFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "uuid"
}

// Definition implements function.Function.
func (f *uuidFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "The UUID inside a GraphQL ID",
		MarkdownDescription: "Returns the UUID (the REST ID, which this provider's `id` attributes and references take) that a " +
			"GraphQL ID encodes. A GraphQL ID is standard base64 of `<type>---<uuid>`; any type is accepted, so the " +
			"official provider's IDs of every kind convert. `provider::buildkite::graphql_id` converts back.",
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "graphql_id",
				MarkdownDescription: "A GraphQL ID, such as the official provider's `id` of a cluster.",
			},
		},
		Return: function.StringReturn{},
	}
}

// Run implements function.Function.
func (f *uuidFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var id string
	if resp.Error = req.Arguments.Get(ctx, &id); resp.Error != nil {
		return
	}
	_, uuid, ok := kit.DecodeGraphQLID(id)
	if !ok {
		why := "it is not base64 of \"<type>---<uuid>\""
		if kit.IsUUID(id) {
			why = "it is already a UUID"
		}
		resp.Error = function.NewArgumentFuncError(0, fmt.Sprintf("%q is not a GraphQL ID: %s.", id, why))
		return
	}
	resp.Error = resp.Result.Set(ctx, uuid)
}
