package functions

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var _ function.Function = (*pipelineSlugFunction)(nil)

// NewPipelineSlugFunction returns provider::buildkite::pipeline_slug.
func NewPipelineSlugFunction() function.Function { return &pipelineSlugFunction{} }

// pipelineSlugFunction computes the slug the service derives from a pipeline's name, so that a
// configuration can name a pipeline's URLs, or another pipeline's trigger step, before it exists.
type pipelineSlugFunction struct{}

// Metadata implements function.Function.
func (f *pipelineSlugFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "pipeline_slug"
}

// Definition implements function.Function.
func (f *pipelineSlugFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "The slug the service derives from a pipeline name",
		MarkdownDescription: "Returns the slug that Buildkite gives a pipeline created with this name and no `slug`: the name " +
			"in lower case, each run of characters other than ASCII letters and digits (spaces, punctuation, hyphens, " +
			"accented letters) replaced by one `-`, with no `-` at either end. `\"My  Pipeline\"` becomes `my-pipeline` " +
			"and `\"API (v2)\"` becomes `api-v2`. A name with no ASCII letter or digit, or whose slug would be longer " +
			"than 100 characters, is an error, as the service refuses to create such a pipeline without a `slug`.",
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "name",
				MarkdownDescription: "The pipeline's name.",
			},
		},
		Return: function.StringReturn{},
	}
}

// Run implements function.Function.
func (f *pipelineSlugFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var name string
	if resp.Error = req.Arguments.Get(ctx, &name); resp.Error != nil {
		return
	}
	slug, err := kit.PipelineSlug(name)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, err.Error())
		return
	}
	resp.Error = resp.Result.Set(ctx, slug)
}
