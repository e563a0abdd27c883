package pipelines

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/buildkite/go-pipeline"
	"github.com/buildkite/go-pipeline/signature"
	"github.com/buildkite/interpolate"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"gopkg.in/yaml.v3"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var _ datasource.DataSource = (*signedPipelineStepsDataSource)(nil)

// NewSignedPipelineStepsDataSource returns the buildkite_signed_pipeline_steps data source.
func NewSignedPipelineStepsDataSource() datasource.DataSource {
	return &signedPipelineStepsDataSource{DataSourceBase: kit.NewDataSourceBase("signed_pipeline_steps")}
}

// signedPipelineStepsDataSource signs a pipeline's command steps inside the provider, with no API call, as
// buildkite-agent's `tool sign` does, so that agents with the matching verification key run them: go-pipeline
// parses and signs, jwx reads the key, and the result is written back as YAML.
type signedPipelineStepsDataSource struct {
	kit.DataSourceBase
}

type signedPipelineStepsModel struct {
	UnsignedSteps types.String `tfsdk:"unsigned_steps"`
	Repository    types.String `tfsdk:"repository"`
	JWKS          types.String `tfsdk:"jwks"`
	JWKSFile      types.String `tfsdk:"jwks_file"`
	JWKSKeyID     types.String `tfsdk:"jwks_key_id"`
	Steps         types.String `tfsdk:"steps"`
}

// jwksValidator checks at validation that jwks holds a JSON Web Key Set or a single key.
type jwksValidator struct{}

func (jwksValidator) Description(context.Context) string {
	return "must be a JSON Web Key Set (RFC 7517) or a single JSON Web Key"
}

func (v jwksValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (jwksValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !kit.IsKnownValue(req.ConfigValue) {
		return
	}
	if _, err := jwk.Parse([]byte(req.ConfigValue.ValueString())); err != nil {
		// The key is secret: the error names the attribute, never its value.
		resp.Diagnostics.AddAttributeError(req.Path, "Unable to parse JWKS",
			fmt.Sprintf("Please provide a valid JSON Web Key Set per RFC 7517 (or a single JSON Web Key) in %s: %s.", req.Path, err))
	}
}

func (d *signedPipelineStepsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Signs a pipeline's command steps with a JSON Web Key, inside the provider (no API call), so " +
			"that agents holding the verification key run them ([signed pipelines](https://buildkite.com/docs/agent/v3/signed_pipelines)). " +
			"Use the result as a `buildkite_pipeline`'s `steps`. EdDSA keys sign the same input the same way every time; " +
			"PS512 and ES512 signatures change on every read, and so would the pipeline. Environment references (`$NAME`) " +
			"are refused: they are resolved when a pipeline is uploaded, after signing; Terraform's own `${...}` is fine.",
		Attributes: map[string]schema.Attribute{
			"unsigned_steps": schema.StringAttribute{
				MarkdownDescription: "The pipeline to sign, in YAML: a mapping with `steps` (and `env`, `secrets`, `checkout`, ...) or a list of steps.",
				Required:            true,
			},
			"repository": schema.StringAttribute{
				MarkdownDescription: "The repository URL the agent will see as `BUILDKITE_REPO`, character for character (for example `buildkite_pipeline.example.repository`).",
				Required:            true,
			},
			"jwks": schema.StringAttribute{
				MarkdownDescription: "The signing key: a JSON Web Key Set or a single key, as JSON, with `alg` (and `kid`). " +
					"Exactly one of `jwks` and `jwks_file` is set. The key is kept in state unencrypted (use `jwks_file` to avoid that).",
				Optional:   true,
				Sensitive:  true,
				Validators: []validator.String{jwksValidator{}},
			},
			"jwks_file": schema.StringAttribute{
				MarkdownDescription: "The path of a file holding the signing key set, on the machine that runs Terraform.",
				Optional:            true,
				Validators: []validator.String{
					stringvalidator.ExactlyOneOf(path.MatchRoot("jwks"), path.MatchRoot("jwks_file")),
					stringvalidator.LengthAtLeast(1),
				},
			},
			"jwks_key_id": schema.StringAttribute{
				MarkdownDescription: "The `kid` of the key to sign with; without it the set must hold exactly one key.",
				Optional:            true,
			},
			"steps": schema.StringAttribute{MarkdownDescription: "The signed pipeline, in YAML.", Computed: true},
		},
	}
}

// signPipeline signs the command steps of the pipeline in yamlText with key for repository and returns the
// pipeline as YAML. Pipeline-level checkout settings are copied into each command step first, and its env
// becomes part of each step's signature, as the agent checks them.
func signPipeline(ctx context.Context, yamlText, repository string, key jwk.Key) (string, error) {
	p, err := pipeline.Parse(strings.NewReader(yamlText))
	if err != nil {
		return "", fmt.Errorf("parsing the pipeline: %w", err)
	}
	mergeCheckout(p.Steps, p.Checkout)
	var env map[string]string
	if p.Env != nil {
		env = p.Env.ToMap()
	}
	if err := signature.SignSteps(ctx, p.Steps, key, repository, signature.WithEnv(env)); err != nil {
		return "", fmt.Errorf("signing: %w", err)
	}
	out, err := yaml.Marshal(p)
	if err != nil {
		return "", fmt.Errorf("writing the signed pipeline: %w", err)
	}
	return string(out), nil
}

// mergeCheckout copies the pipeline's checkout settings into every command step, groups included; a
// step's own values win.
func mergeCheckout(steps pipeline.Steps, checkout *pipeline.Checkout) {
	for _, s := range steps {
		switch s := s.(type) {
		case *pipeline.CommandStep:
			s.MergeCheckoutFromPipeline(checkout)
		case *pipeline.GroupStep:
			mergeCheckout(s.Steps, checkout)
		}
	}
}

// environmentReferences returns the environment references in text ("$NAME", "${NAME}", escaped ones
// too), each with its "$".
func environmentReferences(text string) ([]string, error) {
	ids, err := interpolate.Identifiers(text)
	for i, id := range ids {
		ids[i] = "$" + id
	}
	return ids, err
}

// signingKey picks the key: by kid when keyID is set, else the set's only key.
func signingKey(set jwk.Set, keyID string) (jwk.Key, error) {
	if keyID != "" {
		if k, ok := set.LookupKeyID(keyID); ok {
			return k, nil
		}
		return nil, fmt.Errorf("the key set holds no key with ID %q", keyID)
	}
	if set.Len() != 1 {
		return nil, fmt.Errorf("the key set holds %d keys and jwks_key_id is not set: name the key to sign with", set.Len())
	}
	k, _ := set.Key(0)
	return k, nil
}

func (d *signedPipelineStepsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m signedPipelineStepsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	refs, err := environmentReferences(m.UnsignedSteps.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("unsigned_steps"), "Unable to Parse Pipeline Steps",
			fmt.Sprintf("Looking for environment references in unsigned_steps: %s.", err))
		return
	}
	if len(refs) > 0 {
		resp.Diagnostics.AddAttributeError(path.Root("unsigned_steps"), "Environment Interpolations Not Allowed", fmt.Sprintf(
			"Environment interpolations are not allowed in unsigned_steps: %s. The agent resolves them when a pipeline "+
				"is uploaded, after signing, so a signed step holding one would not verify. Terraform's own "+
				"interpolations (${var.name}) are resolved before signing and are fine; write `$$` in place of `$` only "+
				"where the shell should see a literal `$`, and note that an escaped `$$NAME` is refused too.",
			strings.Join(refs, ", ")))
		return
	}
	raw := []byte(m.JWKS.ValueString())
	if m.JWKS.IsNull() {
		if raw, err = os.ReadFile(m.JWKSFile.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("jwks_file"), "Unable to Read JWKS File", err.Error())
			return
		}
	}
	set, err := jwk.Parse(raw)
	if err != nil {
		resp.Diagnostics.AddError("Unable to parse JWKS", fmt.Sprintf("Please provide a valid JSON Web Key Set per RFC 7517: %s.", err))
		return
	}
	key, err := signingKey(set, m.JWKSKeyID.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("jwks_key_id"), "Cannot Find Key", kit.Capitalize(err.Error())+".")
		return
	}
	steps, err := signPipeline(ctx, m.UnsignedSteps.ValueString(), m.Repository.ValueString(), key)
	if err != nil {
		resp.Diagnostics.AddError("Failed to Sign Pipeline", kit.Capitalize(err.Error())+".")
		return
	}
	m.Steps = types.StringValue(steps)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
