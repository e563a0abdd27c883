package organization

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// organizationRuleIdentity names a rule for import blocks and terraform query: its UUID, since a rule has
// no name.
var organizationRuleIdentity = kit.IdentifiedBy(kit.IdentityAttr("id", "The rule's UUID."))

// NewOrganizationRuleResource returns the buildkite_organization_rule resource.
func NewOrganizationRuleResource() resource.Resource { return kit.NewObject(organizationRuleKind) }

// organizationRuleKind declares buildkite_organization_rule: created, read and deleted through REST, which
// cannot change a rule; its value and description are changed in place, and read back, through GraphQL
// (ruleUpdate, the rule's details), which is also the only API that sets a description, right after the
// create. A value names its pipelines by UUID or slug, resolved at plan.
var organizationRuleKind = &kit.ObjectKind[buildkite.Rule, organizationRuleModel]{
	Name:     "organization_rule",
	What:     "rule",
	Scopes:   kit.WriteScopes("write_rules"),
	Identity: organizationRuleIdentity,
	Schema:   organizationRuleSchema,
	// The official provider's states (value as jsonencode wrote it, which the JSON type compares by meaning)
	// and ours of version 0 move to version 1 as they are.
	Moves:        kit.StateMoves{},
	Key:          kit.AttrID,
	GraphQLAttrs: []string{"description"},
	// REST does not return the value a rule was created with: it is kept from the plan or state (fromAPI).
	FromAPI: func(m *organizationRuleModel, _ string, r *buildkite.Rule) { m.fromAPI(r, m.Value) },
	Create: func(ctx context.Context, c *buildkite.Client, _ string, plan *organizationRuleModel) (*buildkite.Rule, error) {
		value, err := kit.CompactJSON(plan.Value.ValueString())
		if err != nil {
			return nil, &ruleValueInvalid{err}
		}
		return c.Rules.Create(ctx, buildkite.RuleCreate{Type: plan.Type.ValueString(), Value: value})
	},
	Get: func(ctx context.Context, c *buildkite.Client, _, id string) (*buildkite.Rule, error) {
		return c.Rules.Get(ctx, id)
	},
	// REST changes nothing of a rule: ruleUpdate, through GraphQL, changes its value and description (WritePart).
	Update: func(context.Context, *buildkite.Client, string, string, *organizationRuleModel, *organizationRuleModel) (*buildkite.Rule, error) {
		return nil, nil
	},
	Remove: func(ctx context.Context, c *buildkite.Client, _, id string) error {
		return c.Rules.Delete(ctx, id)
	},
	// The import ID is the rule's UUID or GraphQL ID; value is rebuilt from the rule's source and target UUIDs.
	ImportParts:   []kit.ImportPart{kit.UuidPart("<rule UUID>", "Rule")},
	Named:         func(plan *organizationRuleModel) string { return plan.Type.ValueString() },
	ExplainCreate: explainRuleCreate,
	Holder: func(c *buildkite.Client, plan *organizationRuleModel) kit.HolderLookup {
		value, _ := kit.CompactJSON(plan.Value.ValueString()) // the create compacted it already
		return holderOfRule(c, plan.Type.ValueString(), value)
	},
	PlanWith:  ruleModifyPlan,
	WritePart: writeRuleDetails,
	ReadPart:  readRuleDetails,
}

// organizationRuleModel is the rule's state; the data sources show the same attributes.
type organizationRuleModel struct {
	ID         types.String       `tfsdk:"id"`
	UUID       types.String       `tfsdk:"uuid"`
	GraphQLID  types.String       `tfsdk:"graphql_id"`
	URL        types.String       `tfsdk:"url"`
	CreatedAt  types.String       `tfsdk:"created_at"`
	Type       types.String       `tfsdk:"type"`
	Value      kit.SemanticString `tfsdk:"value"`
	SourceType types.String       `tfsdk:"source_type"`
	SourceUUID types.String       `tfsdk:"source_uuid"`
	TargetType types.String       `tfsdk:"target_type"`
	TargetUUID types.String       `tfsdk:"target_uuid"`
	Effect     types.String       `tfsdk:"effect"`
	Action     types.String       `tfsdk:"action"`
	// Description only the GraphQL API sets and reads (rules_graphql.go).
	Description types.String `tfsdk:"description"`

	// prior is the model as it stood before fromAPI filled it: in a Read, the prior state, whose value and
	// pipelines the GraphQL read compares with the service's (readRuleDetails). Not an attribute: tfsdk
	// ignores unexported fields.
	prior *organizationRuleModel
}

// fromAPI sets the fields from the service's REST rule. REST does not return the value it was created
// with, so value keeps the prior one (what the user wrote, pipelines by slug included); with none (an
// import or a data source) it is rebuilt from the source and target. fromDetails then adds what GraphQL
// tells.
func (m *organizationRuleModel) fromAPI(r *buildkite.Rule, prior kit.SemanticString) {
	was := *m
	was.prior = nil
	m.prior = &was
	m.ID = types.StringValue(r.UUID)
	m.UUID = types.StringValue(r.UUID)
	m.GraphQLID = types.StringValue(r.GraphQLID)
	m.URL = types.StringValue(r.URL)
	m.CreatedAt = kit.TimeValue(r.CreatedAt)
	m.Type = types.StringValue(r.Type)
	// The official provider's stored forms (GraphQL's enums): PIPELINE, ALLOW, TRIGGER_BUILD.
	m.SourceType = types.StringValue(strings.ToUpper(r.SourceType))
	m.SourceUUID = types.StringValue(r.SourceUUID)
	m.TargetType = types.StringValue(strings.ToUpper(r.TargetType))
	m.TargetUUID = types.StringValue(r.TargetUUID)
	m.Effect = types.StringValue(strings.ToUpper(r.Effect))
	m.Action = types.StringValue(strings.ToUpper(r.Action))
	m.Value = prior
	if !kit.IsKnownValue(prior) {
		m.Value = kit.JsonString(ruleValueFromAPI(r))
	}
}

// fromDetails sets the description and value from what GraphQL tells of the rule (d; nil leaves both as
// they are). The value the service holds names the pipelines by UUID: prior's text is kept while it names
// the same pipelines as before (source and target UUIDs as the prior state had them) with the same
// conditions, so that a value written with slugs does not differ; otherwise (a change made outside
// Terraform, an import) value is the service's.
func (m *organizationRuleModel) fromDetails(d *buildkite.RuleDetails, prior organizationRuleModel) error {
	if d == nil {
		return nil
	}
	m.Description = types.StringPointerValue(d.Description)
	live, err := d.Value()
	if err != nil || live == nil {
		return err
	}
	if kit.IsKnownValue(prior.Value) && ruleValueMeansLive(prior, live) {
		m.Value = prior.Value
		return nil
	}
	// As jsonencode writes it (keys sorted, compact), so that an import matches a configuration's text.
	var doc map[string]any
	if err := json.Unmarshal(live, &doc); err != nil {
		return fmt.Errorf("rule %s: its value is not a JSON object: %w", d.UUID, err)
	}
	text, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	m.Value = kit.JsonString(string(text))
	return nil
}

// ruleValueMeansLive reports whether the prior state's value means the live one: each pipeline key names
// the pipeline the live value does (the same UUID, or the prior state's UUID for that end, which a slug in
// the text resolved to), and every other key (conditions) is equal.
func ruleValueMeansLive(prior organizationRuleModel, live json.RawMessage) bool {
	var was, is map[string]any
	if json.Unmarshal([]byte(kit.NormalizeText(prior.Value.ValueString())), &was) != nil || json.Unmarshal(live, &is) != nil {
		return false
	}
	for key, known := range map[string]string{"source_pipeline": prior.SourceUUID.ValueString(), "target_pipeline": prior.TargetUUID.ValueString()} {
		ref, _ := was[key].(string)
		id, _ := is[key].(string)
		if !strings.EqualFold(ref, id) && !strings.EqualFold(known, id) {
			return false
		}
		delete(was, key)
		delete(is, key)
	}
	if c, ok := was["conditions"].([]any); ok && len(c) == 0 {
		delete(was, "conditions") // no conditions, written as an empty list
	}
	return reflect.DeepEqual(was, is)
}

// ruleValueFromAPI renders the value of a pipeline rule as the service takes it on create.
func ruleValueFromAPI(r *buildkite.Rule) string {
	b, _ := json.Marshal(map[string]string{
		"source_" + strings.ToLower(r.SourceType): r.SourceUUID, "target_" + strings.ToLower(r.TargetType): r.TargetUUID,
	})
	return string(b)
}

// ruleTypePattern is the form rule types take: source.action.target.
var ruleTypePattern = regexp.MustCompile(`^[a-z_]+\.[a-z_]+\.[a-z_]+$`)

// organizationRuleSchema is the schema of buildkite_organization_rule.
func organizationRuleSchema() schema.Schema {
	computed := kit.ComputedString
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "An organization rule: it allows an action from a source resource on a target resource, " +
			"such as one pipeline triggering builds of another (`pipeline.trigger_build.pipeline`) or reading its " +
			"artifacts (`pipeline.artifacts_read.pipeline`). Changing `type` replaces the rule; `value` and " +
			"`description` change in place, through Buildkite's GraphQL API (`ruleUpdate`), which also reads them back.",
		Attributes: kit.WithCommon("rule", map[string]schema.Attribute{
			"type": schema.StringAttribute{
				MarkdownDescription: "The rule type, `<source>.<action>.<target>`, such as `pipeline.trigger_build.pipeline`. " +
					"Changing it replaces the rule.",
				Required: true,
				Validators: []validator.String{stringvalidator.RegexMatches(ruleTypePattern,
					"must have the form <source>.<action>.<target>, such as pipeline.trigger_build.pipeline")},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"value": schema.StringAttribute{
				CustomType: kit.JsonStringType,
				MarkdownDescription: "The rule's value as JSON (use `jsonencode`); for the pipeline rules " +
					"`{\"source_pipeline\": ..., \"target_pipeline\": ...}`, each pipeline by UUID or slug. Compared by " +
					"meaning: formatting never differs, and a pipeline written as a slug does not differ from its UUID. " +
					"It may carry `conditions`, a list of conditional expressions. Changing what it means updates the rule " +
					"in place, through Buildkite's GraphQL API; a change made outside Terraform (other pipelines, other " +
					"conditions) is read back through it and shows as a difference.",
				Required:   true,
				Validators: []validator.String{ruleValueJSON{}},
			},
			"source_type": computed("The type of the source resource (`PIPELINE`)."),
			"source_uuid": computed("The UUID of the source resource."),
			"target_type": computed("The type of the target resource (`PIPELINE`)."),
			"target_uuid": computed("The UUID of the target resource."),
			"effect":      computed("What the rule does to the action (`ALLOW`)."),
			"action":      computed("The action the rule governs, such as `TRIGGER_BUILD` or `ARTIFACTS_READ`."),
			"description": schema.StringAttribute{
				MarkdownDescription: "A description of the rule. Set and read through Buildkite's GraphQL API (the REST API " +
					"carries none), so it needs the API token's `graphql` scope; removing it clears the description.",
				Optional: true,
			},
		}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL, kit.AttrCreatedAt),
	}
}

// ruleModifyPlan compares value by meaning: the state's text is kept when the configuration names the same
// pipelines (a slug where the state has the UUID, or the other way round); any other change is an update
// in place (ruleUpdate), with source_uuid and target_uuid planned as the pipelines the new value names. It
// costs one read per slug, and only when the texts differ.
func ruleModifyPlan(ctx context.Context, b *kit.ResourceBase, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	d := b.Data
	if resp.Diagnostics.HasError() || req.Plan.Raw.IsNull() {
		return
	}
	if req.State.Raw.IsNull() {
		checkRuleValue(ctx, d, req, resp)
		return
	}
	var plan, state organizationRuleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !plan.Description.Equal(state.Description) {
		d.RequireGraphQL(&resp.Diagnostics, "organization_rule", path.Root("description"), "changing a rule's description")
	}
	if plan.Value.IsUnknown() {
		planRuleValueChange(d, resp, &plan)
		return
	}
	if kit.JsonFormat.Equal(plan.Value.ValueString(), state.Value.ValueString()) {
		plan.Value = state.Value
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
		return
	}
	if checkRuleValue(ctx, d, req, resp); resp.Diagnostics.HasError() {
		return
	}
	if d == nil {
		return // not configured yet (a provider setting unknown until apply): the value is compared at the next plan
	}
	same, err := sameRuleValue(ctx, d.Client, plan.Value.ValueString(), state)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "read", "pipeline", "named in value", err)
		return
	}
	if same {
		plan.Value = state.Value
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
		return
	}
	// checkRuleValue planned the pipelines' UUIDs; the rest of the plan is as Terraform made it.
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	planRuleValueChange(d, resp, &plan)
}

// planRuleValueChange plans a change of value in place: it needs GraphQL (ruleUpdate), and the pipelines a value
// not yet known names are known after apply.
func planRuleValueChange(d *kit.ProviderData, resp *resource.ModifyPlanResponse, plan *organizationRuleModel) {
	d.RequireGraphQL(&resp.Diagnostics, "organization_rule", path.Root("value"), "changing a rule's value in place")
	if plan.Value.IsUnknown() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(context.Background(), path.Root("source_uuid"), types.StringUnknown())...)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(context.Background(), path.Root("target_uuid"), types.StringUnknown())...)
	}
}

// checkRuleValue checks a new value at plan time, as the official provider does: it must be a JSON object, and
// each pipeline it names (source_pipeline, target_pipeline) a UUID or the slug of a pipeline of the
// organization, which is looked up now rather than refused at apply. source_uuid and target_uuid are
// planned as the pipelines found.
func checkRuleValue(ctx context.Context, d *kit.ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var value kit.SemanticString
	var typ types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("value"), &value)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("type"), &typ)...)
	if resp.Diagnostics.HasError() || !kit.IsKnownValue(value) {
		return
	}
	var doc map[string]any
	if json.Unmarshal([]byte(value.ValueString()), &doc) != nil || doc == nil {
		return // refused by ruleValueJSON
	}
	if d == nil {
		return // not configured yet: the pipelines are looked up at the next plan
	}
	for _, end := range []string{"source", "target"} {
		key := end + "_pipeline"
		ref, ok := doc[key].(string)
		if !ok || ref == "" {
			raw, present := doc[key]
			missing := !present || raw == nil || raw == ""
			if typ := typ.ValueString(); missing && strings.HasPrefix(typ, "pipeline.") && strings.HasSuffix(typ, ".pipeline") {
				// A pipeline rule names both pipelines: refused now, in the service's words.
				resp.Diagnostics.AddAttributeError(path.Root("value"), "Invalid organization rule value",
					fmt.Sprintf("%s: missing %s\n\nThe value of a %s rule names its source_pipeline and its "+
						"target_pipeline, each by UUID or slug.", typ, key, typ))
			}
			continue
		}
		id, problem, err := resolveRulePipeline(ctx, d.Client, ref)
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "read", "pipeline", fmt.Sprintf("%q (%s)", ref, key), err)
			return
		}
		if problem != "" {
			resp.Diagnostics.AddAttributeError(path.Root("value"), "Unable to resolve pipeline slug",
				fmt.Sprintf("%s\n\n%s: %s %s", fmt.Sprintf(problem, key, ref), typ.ValueString(), key, map[bool]string{
					true: "not found", false: "is an invalid UUID.",
				}[ruleSlugPattern.MatchString(ref)]))
			continue
		}
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(end+"_uuid"), id)...)
	}
}

// ruleValueJSON refuses at plan time a value that is not a JSON object, in the official provider's words.
type ruleValueJSON struct{}

var _ validator.String = ruleValueJSON{}

func (ruleValueJSON) Description(context.Context) string { return "must be a JSON object" }

func (v ruleValueJSON) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (ruleValueJSON) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !kit.IsKnownValue(req.ConfigValue) {
		return
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(req.ConfigValue.ValueString()), &doc); err != nil || doc == nil {
		why := "the value is not a JSON object"
		if err != nil {
			why = err.Error()
		}
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid organization rule value",
			"Unable to parse value as JSON: "+why+". Write the value with jsonencode, such as "+
				`jsonencode({ source_pipeline = "<uuid or slug>", target_pipeline = "<uuid or slug>" }).`)
	}
}

// ruleSlugPattern is the form of a pipeline slug.
var ruleSlugPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// resolveRulePipeline is the UUID of the pipeline ref names (a lower-case UUID as is, else a slug), or a
// problem (a format with the key and ref) when none has that slug.
func resolveRulePipeline(ctx context.Context, c *buildkite.Client, ref string) (id, problem string, err error) {
	if kit.IsUUID(ref) && ref == strings.ToLower(ref) {
		return ref, "", nil
	}
	if !ruleSlugPattern.MatchString(ref) {
		return "", "Failed to resolve %s %q: it is neither a pipeline UUID nor a pipeline slug.", nil
	}
	p, err := c.Pipelines.Get(ctx, ref)
	if buildkite.IsNotFound(err) {
		return "", "Pipeline not found for %s %q: no pipeline of the organization has that slug.", nil
	}
	if err != nil {
		return "", "", err
	}
	return p.ID, "", nil
}

// sameRuleValue reports whether value names the same source and target as the rule in state, with the same
// other keys (conditions, say) as the state's value.
func sameRuleValue(ctx context.Context, c *buildkite.Client, value string, state organizationRuleModel) (bool, error) {
	var next, prior map[string]any
	if json.Unmarshal([]byte(kit.NormalizeText(value)), &next) != nil ||
		json.Unmarshal([]byte(kit.NormalizeText(state.Value.ValueString())), &prior) != nil {
		return false, nil
	}
	for _, end := range []struct {
		key     string
		typ, id types.String
	}{
		{"source_" + strings.ToLower(state.SourceType.ValueString()), state.SourceType, state.SourceUUID},
		{"target_" + strings.ToLower(state.TargetType.ValueString()), state.TargetType, state.TargetUUID},
	} {
		key := end.key
		ref, ok := next[key].(string)
		if !ok {
			return false, nil
		}
		same := ref == end.id.ValueString()
		if !same && strings.EqualFold(end.typ.ValueString(), "pipeline") {
			var err error
			if same, err = c.Pipelines.RefersTo(ctx, ref, end.id.ValueString()); err != nil {
				return false, err
			}
		}
		if !same {
			return false, nil
		}
		delete(next, key)
		delete(prior, key)
	}
	return reflect.DeepEqual(next, prior), nil
}

// ruleValueInvalid is a value a create could not send as JSON, refused on value (explainRuleCreate); the
// plan refuses it wherever it is known then (ruleValueJSON).
type ruleValueInvalid struct{ err error }

func (e *ruleValueInvalid) Error() string { return "value must be valid JSON: " + e.err.Error() }

// addRuleValueInvalid reports a value that is not JSON on the value attribute.
func addRuleValueInvalid(diags *diag.Diagnostics, err error) {
	diags.AddAttributeError(path.Root("value"), "Invalid JSON", fmt.Sprintf("value must be valid JSON: %s", err))
}

// explainRuleCreate reports a value that is not JSON on value, and a create the service refused for its own
// reasons with the service's words first, on a line of their own, as the official provider shows them. A
// rule that exists already is left to the shared report, which names it and how to adopt it (Holder).
func explainRuleCreate(plan *organizationRuleModel, err error, diags *diag.Diagnostics) bool {
	var invalid *ruleValueInvalid
	if errors.As(err, &invalid) {
		addRuleValueInvalid(diags, invalid.err)
		return true
	}
	var refused *buildkite.Error
	if errors.As(err, &refused) && refused.StatusCode == http.StatusUnprocessableEntity && refused.Message != "" && !kit.TakenRefusal(err) {
		diags.AddError("Unable to create organization rule", refused.Message+"\n\n"+
			fmt.Sprintf("The service refused the %s rule (%s); nothing was created.", plan.Type.ValueString(), kit.DescribeError(err)))
		return true
	}
	return false
}

// ruleGraphQLFields maps ruleUpdate's input fields to the attributes their errors go on.
var ruleGraphQLFields = map[string]path.Path{"description": path.Root("description"), "value": path.Root("value")}

// writeRuleDetails sends, through GraphQL's ruleUpdate, what REST cannot; it takes the whole value and the
// description each time (null clears it). After a create (prior nil) that is the description, where the plan
// has one: REST created the rule exactly once (adopted after a lost answer), and a failure keeps it in state
// without its description, which the next apply sets. In an update it is the value (source, target,
// conditions) and the description; a plan that changes neither (a value written in another form that means
// the same) only takes on the plan, and a failure leaves the state as it was. The source and target UUIDs
// were planned from the value (checkRuleValue); the answer's document confirms them. The organization is
// read over REST, whose errors AddGraphQLError reports as AddAPIError does.
func writeRuleDetails(ctx context.Context, c *buildkite.Client, plan, prior, got *organizationRuleModel, diags *diag.Diagnostics) {
	action, ident, id := "set the description of", got.UUID.ValueString(), got.GraphQLID.ValueString()
	failed := func() {}
	if prior == nil {
		got.Description = types.StringNull() // until ruleUpdate sets it
		if plan.Description.IsNull() {
			return
		}
	} else {
		if plan.Value.Equal(prior.Value) && plan.Description.Equal(prior.Description) {
			return
		}
		action, ident, id = "update", prior.ID.ValueString(), prior.GraphQLID.ValueString()
		failed = func() { *got = *prior }
	}
	value, err := kit.CompactJSON(plan.Value.ValueString()) // a create's compacted it already
	if err != nil {
		addRuleValueInvalid(diags, err)
		failed()
		return
	}
	org, err := c.Organizations.Get(ctx)
	var d *buildkite.RuleDetails
	if err == nil {
		d, err = c.Rules.Update(ctx, buildkite.RuleUpdate{
			OrganizationID: org.GraphQLID, ID: id, Description: plan.Description.ValueStringPointer(), Value: value,
		})
	}
	if d != nil && kit.ActedWithErrors(diags, err, action, "rule", ident) {
		err = nil
	}
	if err != nil {
		kit.AddGraphQLError(diags, action, "rule", ident, err, ruleGraphQLFields)
		failed()
		return
	}
	got.Description = types.StringPointerValue(d.Description)
	if prior == nil {
		return
	}
	live, err := d.Value()
	var ends map[string]any
	if err == nil && live != nil {
		err = json.Unmarshal(live, &ends)
	}
	if err != nil {
		kit.AddAPIError(diags, action, "rule", ident, err)
		failed()
		return
	}
	if id, ok := ends["source_pipeline"].(string); ok {
		got.SourceUUID = types.StringValue(id)
	}
	if id, ok := ends["target_pipeline"].(string); ok {
		got.TargetUUID = types.StringValue(id)
	}
}

// readRuleDetails adds to a rule REST has just served its description and value as GraphQL tells them, where
// GraphQL can be reached: whatever it answers for them (null, not found) says nothing of the rule itself,
// which stays in state as it was.
func readRuleDetails(ctx context.Context, d *kit.ProviderData, got *organizationRuleModel, diags *diag.Diagnostics) {
	if !d.GraphQLReachable() {
		return
	}
	prior := *got.prior
	details, err := d.Client.Rules.Details(ctx, got.UUID.ValueString())
	if err == nil {
		err = got.fromDetails(details, prior)
	}
	if err != nil {
		kit.AddPartReadError(diags, "rule", prior.ID.ValueString(), "description and value", err)
	}
}

// holderOfRule finds the rule of the same type, source and target as the one value describes, which the
// service allows once; it is adopted by its UUID.
func holderOfRule(c *buildkite.Client, typ string, value json.RawMessage) kit.HolderLookup {
	return func(ctx context.Context) (*kit.Holder, error) {
		var ends map[string]string
		if err := json.Unmarshal(value, &ends); err != nil {
			return nil, nil
		}
		source, err := ruleEndID(ctx, c, ends, "source_")
		if err != nil {
			return nil, err
		}
		target, err := ruleEndID(ctx, c, ends, "target_")
		if err != nil {
			return nil, err
		}
		rules, err := c.Rules.List(ctx)
		if err != nil {
			return nil, err
		}
		for _, rule := range rules {
			if rule.Type == typ && strings.EqualFold(rule.SourceUUID, source) && strings.EqualFold(rule.TargetUUID, target) {
				return &kit.Holder{
					Description: fmt.Sprintf("rule %s (%s from %s to %s)", rule.UUID, rule.Type, rule.SourceUUID, rule.TargetUUID),
					ImportID:    rule.UUID,
				}, nil
			}
		}
		return nil, nil
	}
}

// ruleEndID is the UUID of the source or target (prefix "source_" or "target_") that a rule's value names:
// a pipeline may be named by its slug.
func ruleEndID(ctx context.Context, c *buildkite.Client, ends map[string]string, prefix string) (string, error) {
	for k, v := range ends {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		if kit.IsUUID(v) || k != prefix+"pipeline" {
			return v, nil
		}
		p, err := c.Pipelines.Get(ctx, v)
		if err != nil {
			return "", err
		}
		return p.ID, nil
	}
	return "", nil
}
