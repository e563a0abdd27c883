package pipelines

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// The pipeline's plan-time checks that its users' tests match on: the summaries and details are the official
// provider's (https://registry.terraform.io/providers/buildkite/buildkite/latest/docs/resources/pipeline).

// pipelineColorPattern and pipelineSlugRule are the official provider's rules for color and slug.
var (
	pipelineColorPattern = regexp.MustCompile(`^#[a-zA-Z0-9]{6}$`)
	pipelineSlugRule     = regexp.MustCompile(`^[a-z0-9\-]+$`)
)

// branchFilterValidator refuses a conditional expression where the service takes only branch patterns
// (`main`, `!main`, `feature/*`): the service would store it and then match no branch.
type branchFilterValidator struct{}

var _ validator.String = branchFilterValidator{}

// branchFilterConditionals are what marks a conditional expression rather than a branch pattern.
var branchFilterConditionals = []string{"build.", "pipeline.", "organization.", "env(", "==", "!=", "=~", "!~", "&&", "||"}

func (branchFilterValidator) Description(context.Context) string {
	return "a branch filter pattern (such as `main`, `!main` or `feature/*`), not a conditional expression"
}

func (v branchFilterValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (branchFilterValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !kit.IsKnownValue(req.ConfigValue) {
		return
	}
	got := req.ConfigValue.ValueString()
	for _, c := range branchFilterConditionals {
		if strings.Contains(got, c) {
			resp.Diagnostics.AddAttributeError(req.Path, "Invalid branch filter pattern",
				fmt.Sprintf("%s takes branch patterns separated by spaces (such as `main`, `!main` or `feature/*`), not a "+
					"conditional expression; %q holds %q. Conditions belong in provider_settings.filter_condition.", req.Path, got, c))
			return
		}
	}
}

// filterConditionValidator refuses a regular-expression match (=~ or !~) whose pattern is not written
// between slashes, which the service cannot evaluate.
type filterConditionValidator struct{}

var _ validator.String = filterConditionValidator{}

func (filterConditionValidator) Description(context.Context) string {
	return "the pattern after `=~` or `!~` is written between slashes (`build.branch =~ /^feature\\//`)"
}

func (v filterConditionValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (filterConditionValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !kit.IsKnownValue(req.ConfigValue) {
		return
	}
	if bad, ok := unclosedRegex(req.ConfigValue.ValueString()); !ok {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid regex pattern syntax",
			fmt.Sprintf("%s: the pattern after a regular-expression operator must be written between slashes, as in "+
				"`build.branch =~ /^feature\\//`; got %q.", req.Path, bad))
	}
}

// unclosedRegex checks every =~ and !~ of a condition: what follows must open with "/" and be closed by an
// unescaped "/". It returns the first offending rest of the condition.
func unclosedRegex(cond string) (string, bool) {
	for rest := cond; ; {
		i := strings.Index(rest, "=~")
		if j := strings.Index(rest, "!~"); j >= 0 && (i < 0 || j < i) {
			i = j
		}
		if i < 0 {
			return "", true
		}
		rest = strings.TrimLeft(rest[i+2:], " \t")
		if !strings.HasPrefix(rest, "/") {
			return rest, false
		}
		closed := -1
		for k := 1; k < len(rest); k++ {
			if rest[k] == '\\' {
				k++
				continue
			}
			if rest[k] == '/' {
				closed = k
				break
			}
		}
		if closed < 0 {
			return rest, false
		}
		rest = rest[closed+1:]
	}
}

// visibilityOneOf checks visibility with the official provider's words (`Invalid Attribute Value Match`,
// `... must be one of: ["PUBLIC" "PRIVATE"]`), which its users' tests match, while accepting the REST API's
// lower-case spelling too.
type visibilityOneOf struct{}

var _ validator.String = visibilityOneOf{}

func (visibilityOneOf) Description(context.Context) string {
	return `value must be one of: ["PUBLIC" "PRIVATE"] (lower case accepted)`
}

func (v visibilityOneOf) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (visibilityOneOf) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !kit.IsKnownValue(req.ConfigValue) {
		return
	}
	got := req.ConfigValue.ValueString()
	if strings.EqualFold(got, "public") || strings.EqualFold(got, "private") {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Value Match",
		fmt.Sprintf(`Attribute %s value must be one of: ["PUBLIC" "PRIVATE"], got: %q. The REST API's lower case, "public" `+
			`or "private", is accepted too.`, req.Path, got))
}

// pipelineVisibilityAttribute is visibility: Optional+Computed, kept when removed (the service's value), the
// official upper-case form in state for what the service or an import fills in, either spelling accepted.
func pipelineVisibilityAttribute() schema.StringAttribute {
	a := kit.CaseInsensitiveEnum(schema.StringAttribute{
		MarkdownDescription: "Who can see the pipeline and its builds: `PRIVATE` or `PUBLIC`. Unset, the service's " +
			"default (`PRIVATE`); removed from the configuration, the service's value is kept. Changing it needs " +
			"more rights than other attributes, so it is only sent when it changes.",
		Optional: true, Computed: true,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}, "private", "public")
	for i, v := range a.Validators {
		if _, ok := v.(kit.EnumOneOf); ok {
			a.Validators[i] = visibilityOneOf{}
		}
	}
	return a
}

// pipelineColorAttribute is color, checked as the official provider does.
func pipelineColorAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: "A color shown with the pipeline, such as `#ebd8f0`. " + pipelineLooksNote,
		Optional:            true,
		Validators:          []validator.String{stringvalidator.RegexMatches(pipelineColorPattern, "must be a valid color hex code (#000000)")},
	}
}
