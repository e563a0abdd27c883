package provider

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

var (
	_ resource.Resource                 = (*organizationRuleResource)(nil)
	_ resource.ResourceWithConfigure    = (*organizationRuleResource)(nil)
	_ resource.ResourceWithImportState  = (*organizationRuleResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*organizationRuleResource)(nil)
	_ resource.ResourceWithIdentity     = (*organizationRuleResource)(nil)
	_ resource.ResourceWithUpgradeState = (*organizationRuleResource)(nil)
)

// organizationRuleIdentity names a rule for import blocks and terraform query: its UUID, since a rule has
// no name.
var organizationRuleIdentity = kit.IdentifiedBy(kit.IdentityAttr("id", "The rule's UUID."))

// NewOrganizationRuleResource returns the buildkite_organization_rule resource.
func NewOrganizationRuleResource() resource.Resource {
	return &organizationRuleResource{
		ResourceBase: kit.NewResourceBase("organization_rule", kit.WriteScopes("write_rules"), organizationRuleIdentity).WithGraphQLAttrs("description"),
	}
}

type organizationRuleResource struct {
	kit.ResourceBase
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
}

// fromAPI sets the fields from the service's REST rule. REST does not return the value it was created
// with, so value keeps the prior one (what the user wrote, pipelines by slug included); with none (an
// import or a data source) it is rebuilt from the source and target. fromDetails then adds what GraphQL
// tells.
func (m *organizationRuleModel) fromAPI(r *buildkite.Rule, prior kit.SemanticString) {
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

func (r *organizationRuleResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	computed := kit.ComputedString
	resp.Schema = schema.Schema{
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

// UpgradeState moves the official provider's states (value as jsonencode wrote it, which the JSON type
// compares by meaning) and ours of version 0 to version 1.
func (r *organizationRuleResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return kit.Upgraders(ctx, r, kit.StateMoves{})
}

// ModifyPlan compares value by meaning: the state's text is kept when the configuration names the same
// pipelines (a slug where the state has the UUID, or the other way round); any other change is an update
// in place (ruleUpdate), with source_uuid and target_uuid planned as the pipelines the new value names. It
// costs one read per slug, and only when the texts differ.
func (r *organizationRuleResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.ResourceBase.ModifyPlan(ctx, req, resp)
	if resp.Diagnostics.HasError() || req.Plan.Raw.IsNull() {
		return
	}
	if req.State.Raw.IsNull() {
		r.checkValue(ctx, req, resp)
		return
	}
	var plan, state organizationRuleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !plan.Description.Equal(state.Description) {
		r.Data.RequireGraphQL(&resp.Diagnostics, r.Name, path.Root("description"), "changing a rule's description")
	}
	if plan.Value.IsUnknown() {
		r.planValueChange(resp, &plan)
		return
	}
	if kit.JsonFormat.Equal(plan.Value.ValueString(), state.Value.ValueString()) {
		plan.Value = state.Value
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
		return
	}
	if r.checkValue(ctx, req, resp); resp.Diagnostics.HasError() {
		return
	}
	same, err := r.sameRuleValue(ctx, plan.Value.ValueString(), state)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "read", "pipeline", "named in value", err)
		return
	}
	if same {
		plan.Value = state.Value
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
		return
	}
	// checkValue planned the pipelines' UUIDs; the rest of the plan is as Terraform made it.
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	r.planValueChange(resp, &plan)
}

// planValueChange plans a change of value in place: it needs GraphQL (ruleUpdate), and the pipelines a value
// not yet known names are known after apply.
func (r *organizationRuleResource) planValueChange(resp *resource.ModifyPlanResponse, plan *organizationRuleModel) {
	r.Data.RequireGraphQL(&resp.Diagnostics, r.Name, path.Root("value"), "changing a rule's value in place")
	if plan.Value.IsUnknown() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(context.Background(), path.Root("source_uuid"), types.StringUnknown())...)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(context.Background(), path.Root("target_uuid"), types.StringUnknown())...)
	}
}

// checkValue checks a new value at plan time, as the official provider does: it must be a JSON object, and
// each pipeline it names (source_pipeline, target_pipeline) a UUID or the slug of a pipeline of the
// organization, which is looked up now rather than refused at apply. source_uuid and target_uuid are
// planned as the pipelines found.
func (r *organizationRuleResource) checkValue(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
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
	if r.Data == nil {
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
		id, problem, err := r.resolvePipeline(ctx, ref)
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

// resolvePipeline is the UUID of the pipeline ref names (a lower-case UUID as is, else a slug), or a
// problem (a format with the key and ref) when none has that slug.
func (r *organizationRuleResource) resolvePipeline(ctx context.Context, ref string) (id, problem string, err error) {
	if kit.IsUUID(ref) && ref == strings.ToLower(ref) {
		return ref, "", nil
	}
	if !ruleSlugPattern.MatchString(ref) {
		return "", "Failed to resolve %s %q: it is neither a pipeline UUID nor a pipeline slug.", nil
	}
	p, err := r.Client().Pipelines.Get(ctx, ref)
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
func (r *organizationRuleResource) sameRuleValue(ctx context.Context, value string, state organizationRuleModel) (bool, error) {
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
			if same, err = r.Client().Pipelines.RefersTo(ctx, ref, end.id.ValueString()); err != nil {
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

func (r *organizationRuleResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.FinishCreate(ctx, resp)
	var plan organizationRuleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpCreate)
	defer cancel()
	value, err := kit.CompactJSON(plan.Value.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("value"), "Invalid JSON", fmt.Sprintf("value must be valid JSON: %s", err))
		return
	}
	rule, err := r.Client().Rules.Create(ctx, buildkite.RuleCreate{Type: plan.Type.ValueString(), Value: value})
	var refused *buildkite.Error
	if errors.As(err, &refused) && refused.StatusCode == http.StatusUnprocessableEntity && refused.Message != "" && !kit.TakenRefusal(err) {
		// The service's words first, on a line of their own, as the official provider shows them (a rule
		// that exists already goes through CreateFailed, which names it and how to adopt it).
		resp.Diagnostics.AddError("Unable to create organization rule", refused.Message+"\n\n"+
			fmt.Sprintf("The service refused the %s rule (%s); nothing was created.", plan.Type.ValueString(), kit.DescribeError(err)))
		return
	}
	if err != nil {
		r.CreateFailed(ctx, &resp.Diagnostics, err, "rule", plan.Type.ValueString(), r.holderOfRule(plan.Type.ValueString(), value))
		return
	}
	var state organizationRuleModel
	state.fromAPI(rule, plan.Value)
	if !plan.Description.IsNull() {
		// REST creates the rule (exactly once, adopted after a lost answer); only GraphQL sets a description.
		org, err := r.Client().Organizations.Get(ctx)
		var d *buildkite.RuleDetails
		if err == nil {
			d, err = r.Client().Rules.Update(ctx, buildkite.RuleUpdate{
				OrganizationID: org.GraphQLID, ID: rule.GraphQLID, Description: plan.Description.ValueStringPointer(), Value: value,
			})
		}
		if d != nil && kit.ActedWithErrors(&resp.Diagnostics, err, "set the description of", "rule", rule.UUID) {
			err = nil
		}
		if err != nil {
			// The rule exists: it is kept in state without its description, which the next apply sets.
			resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
			kit.AddGraphQLError(&resp.Diagnostics, "set the description of", "rule", rule.UUID, err, ruleGraphQLFields)
			return
		}
		state.Description = types.StringPointerValue(d.Description)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// ruleGraphQLFields maps ruleUpdate's input fields to the attributes their errors go on.
var ruleGraphQLFields = map[string]path.Path{"description": path.Root("description"), "value": path.Root("value")}

func (r *organizationRuleResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.FinishRead(ctx, req, resp)
	var prior organizationRuleModel
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpRead)
	defer cancel()
	rule, err := r.Client().Rules.Get(ctx, kit.RestID(prior.ID))
	if err != nil {
		r.ReadFailed(ctx, resp, err, "rule", prior.ID.ValueString())
		return
	}
	state := organizationRuleModel{Description: prior.Description}
	state.fromAPI(rule, prior.Value)
	if r.Data.GraphQLReachable() {
		// REST has just served the rule: whatever GraphQL answers for its description and value (null, not
		// found) says nothing of the rule itself, which stays in state.
		d, err := r.Client().Rules.Details(ctx, rule.UUID)
		if err == nil {
			err = state.fromDetails(d, prior)
		}
		if err != nil {
			kit.AddPartReadError(&resp.Diagnostics, "rule", prior.ID.ValueString(), "description and value", err)
			return
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update changes the value (source, target, conditions) and the description in place with ruleUpdate, which
// takes the whole value and the description each time (null clears it). A plan that changes neither (value
// written in another form that means the same) only takes on the plan. The source and target UUIDs were
// planned from the value (checkValue); the answer's document confirms them.
func (r *organizationRuleResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.FinishUpdate(ctx, req, resp)
	var plan, state organizationRuleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if plan.Value.Equal(state.Value) && plan.Description.Equal(state.Description) {
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpUpdate)
	defer cancel()
	value, err := kit.CompactJSON(plan.Value.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("value"), "Invalid JSON", fmt.Sprintf("value must be valid JSON: %s", err))
		return
	}
	org, err := r.Client().Organizations.Get(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "update", "rule", state.ID.ValueString(), err)
		return
	}
	d, err := r.Client().Rules.Update(ctx, buildkite.RuleUpdate{
		OrganizationID: org.GraphQLID, ID: state.GraphQLID.ValueString(),
		Description: plan.Description.ValueStringPointer(), Value: value,
	})
	if d != nil && kit.ActedWithErrors(&resp.Diagnostics, err, "update", "rule", state.ID.ValueString()) {
		err = nil
	}
	if err != nil {
		kit.AddGraphQLError(&resp.Diagnostics, "update", "rule", state.ID.ValueString(), err, ruleGraphQLFields)
		return
	}
	live, err := d.Value()
	var ends map[string]any
	if err == nil && live != nil {
		err = json.Unmarshal(live, &ends)
	}
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "update", "rule", state.ID.ValueString(), err)
		return
	}
	if id, ok := ends["source_pipeline"].(string); ok {
		plan.SourceUUID = types.StringValue(id)
	}
	if id, ok := ends["target_pipeline"].(string); ok {
		plan.TargetUUID = types.StringValue(id)
	}
	plan.Description = types.StringPointerValue(d.Description)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *organizationRuleResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state organizationRuleModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpDelete)
	defer cancel()
	err := r.Client().Rules.Delete(ctx, kit.RestID(state.ID))
	r.DeleteFailed(ctx, &resp.Diagnostics, err, "rule", state.ID.ValueString())
}

// ImportState takes the rule's UUID or GraphQL ID; value is rebuilt from the rule's source and target UUIDs.
func (r *organizationRuleResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	values, ok := r.ImportParts(ctx, req, resp, kit.UuidPart("<rule UUID>", "Rule"))
	if !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), values[0])...)
}

// holderOfRule finds the rule of the same type, source and target as the one value describes, which the
// service allows once; it is adopted by its UUID.
func (r *organizationRuleResource) holderOfRule(typ string, value json.RawMessage) kit.HolderLookup {
	return func(ctx context.Context) (*kit.Holder, error) {
		var ends map[string]string
		if err := json.Unmarshal(value, &ends); err != nil {
			return nil, nil
		}
		source, err := r.ruleEndID(ctx, ends, "source_")
		if err != nil {
			return nil, err
		}
		target, err := r.ruleEndID(ctx, ends, "target_")
		if err != nil {
			return nil, err
		}
		rules, err := r.Client().Rules.List(ctx)
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
func (r *organizationRuleResource) ruleEndID(ctx context.Context, ends map[string]string, prefix string) (string, error) {
	for k, v := range ends {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		if kit.IsUUID(v) || k != prefix+"pipeline" {
			return v, nil
		}
		p, err := r.Client().Pipelines.Get(ctx, v)
		if err != nil {
			return "", err
		}
		return p.ID, nil
	}
	return "", nil
}
