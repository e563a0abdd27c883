package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"
)

var _ function.Function = (*pipelineSlugFunction)(nil)

// pipelineSlugMaxLen is the longest slug the service accepts.
const pipelineSlugMaxLen = 100

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
	slug, err := pipelineSlug(name)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, err.Error())
		return
	}
	resp.Error = resp.Result.Set(ctx, slug)
}

// pipelineSlug derives a pipeline's slug from its name as the service does
// (https://buildkite.com/docs/apis/rest-api/pipelines; the emulator's derivation is the reference its test
// compares against): lower case, each run of characters other than ASCII letters and digits one hyphen, none
// leading or trailing. Lowering comes first, as it does there, so a character whose lower case is ASCII (the
// Kelvin sign) counts as a letter.
func pipelineSlug(name string) (string, error) {
	var b strings.Builder
	pendingHyphen := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if pendingHyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			pendingHyphen = false
			b.WriteRune(r)
			continue
		}
		pendingHyphen = true
	}
	slug := b.String()
	switch {
	case slug == "":
		return "", fmt.Errorf("the name %q has no ASCII letter or digit, so the service cannot derive a slug from it; give the pipeline a name with one, or set its slug", name)
	case len(slug) > pipelineSlugMaxLen:
		return "", fmt.Errorf("the slug derived from the name %q would be %d characters long and the service allows at most %d; give the pipeline a shorter name, or set its slug", name, len(slug), pipelineSlugMaxLen)
	}
	return slug, nil
}
