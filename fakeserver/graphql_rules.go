package fakeserver

import (
	"encoding/json"
	"strings"
)

// GraphQL for rules (https://buildkite.com/docs/apis/graphql/schemas/object/rule) over the REST area's records
// (rules.go): rule(uuid:), node(id:) on Rule, ruleCreate, ruleUpdate (source, target, conditions and
// description in place; the type never changes) and ruleDelete. The value is checked by the REST checks
// (readRuleValue, ruleEnds): it may be a JSON-encoded string, as the service documents, or a JSON object.
// Rule.document is {"rule": "<type>", "value": {"source_pipeline": <uuid>, "target_pipeline": <uuid>,
// "conditions": […]}}, the pipelines as UUIDs whatever the input named them, conditions only when there are
// some.
//
// Choices where the facts are silent (I): the mutations need an organization administrator; an unknown
// type is "Rule type is unknown" (V: the official's live tests, after the client's "input: "); a rule
// updated moves to the end of the organization's list; ruleUpdate's description left out keeps it, null
// clears it; deletedRuleId is the rule's GraphQL ID.

func init() {
	gqlQueries["rule"] = func(x *gqlExec, args map[string]any) (any, error) {
		return x.ruleObject(x.visibleRule(strings.ToLower(argString(args, "uuid")))), nil
	}
	gqlNodes["Rule"] = func(x *gqlExec, uuid string) any { return x.ruleObject(x.visibleRule(uuid)) }
	gqlMutations["ruleCreate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		org, err := x.adminOrg(in.str("organizationId"))
		if err != nil {
			return nil, err
		}
		typ := in.str("type")
		if _, known := ruleTypes[typ]; !known {
			return nil, gqlError("Rule type is unknown")
		}
		value, err := gqlRuleValue(typ, in["value"])
		if err != nil {
			return nil, err
		}
		source, target, problem := x.st.ruleEnds(org.slug, typ, value, nil)
		if problem != "" {
			return nil, gqlError(problem)
		}
		description, _ := in.optStr("description")
		rule := x.st.insertRule(org.slug, typ, source, target, value.Conditions, description, x.user.id)
		return withClientMutationID(in, "RuleCreatePayload", map[string]any{"rule": x.ruleObject(rule)}), nil
	}
	gqlMutations["ruleUpdate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		rule, err := x.adminRule(in)
		if err != nil {
			return nil, err
		}
		value, err := gqlRuleValue(rule.typ, in["value"])
		if err != nil {
			return nil, err
		}
		source, target, problem := x.st.ruleEnds(rule.org, rule.typ, value, rule)
		if problem != "" {
			return nil, gqlError(problem)
		}
		// The source and target are what the table lists and names the rule by: reinsert it.
		x.st.rules.rules.remove(rule)
		rule.sourceID, rule.targetID, rule.conditions = source.id, target.id, value.Conditions
		if in.has("description") {
			rule.description, _ = in.optStr("description")
		}
		rule.seq = x.st.nextSeq()
		x.st.rules.rules.insert(rule)
		return withClientMutationID(in, "RuleUpdatePayload", map[string]any{"rule": x.ruleObject(rule)}), nil
	}
	gqlMutations["ruleDelete"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		rule, err := x.adminRule(in)
		if err != nil {
			return nil, err
		}
		x.st.rules.rules.remove(rule)
		return withClientMutationID(in, "RuleDeletePayload", map[string]any{"deletedRuleId": rule.graphqlID}), nil
	}
}

// visibleRule returns the rule with this UUID when the token sees its organization, or nil.
func (x *gqlExec) visibleRule(uuid string) *ruleRecord {
	if rule, ok := x.st.rules.rules.get(uuid); ok && x.tok.orgs[rule.org] {
		return rule
	}
	return nil
}

// adminRule returns the rule a mutation's input names by id in its organizationId.
func (x *gqlExec) adminRule(in gqlInput) (*ruleRecord, error) {
	org, err := x.adminOrg(in.str("organizationId"))
	if err != nil {
		return nil, err
	}
	rule := x.st.ruleByID(org.slug, uuidOf(in.str("id"), "Rule"))
	if rule == nil {
		return nil, gqlError("No rule found")
	}
	return rule, nil
}

// gqlRuleValue checks a rule value given as the JSON scalar: a JSON-encoded string or an object.
func gqlRuleValue(typ string, v any) (ruleValue, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return ruleValue{}, gqlError(typ + ": value is not JSON")
	}
	value, problem := readRuleValue(typ, raw)
	if problem != "" {
		return value, gqlError(problem)
	}
	return value, nil
}

// ruleDocument is Rule.document.
func ruleDocument(rule *ruleRecord) string {
	value := map[string]any{"source_pipeline": rule.sourceID, "target_pipeline": rule.targetID}
	if len(rule.conditions) > 0 {
		value["conditions"] = rule.conditions
	}
	out, _ := json.MarshalIndent(map[string]any{"rule": rule.typ, "value": value}, "", "  ")
	return string(out)
}

// ruleObject is a Rule, or nil for nil.
func (x *gqlExec) ruleObject(rule *ruleRecord) any {
	if rule == nil {
		return nil
	}
	t := ruleTypes[rule.typ]
	var description any
	if rule.description != nil {
		description = *rule.description
	}
	return gqlObject{typ: "Rule", fields: map[string]any{
		"id": rule.graphqlID, "uuid": rule.id, "type": rule.typ, "description": description, "document": ruleDocument(rule),
		"sourceType": strings.ToUpper(t.source), "targetType": strings.ToUpper(t.target), "effect": "ALLOW",
		"action":    strings.ToUpper(t.action),
		"source":    x.pipelineObject(x.st.pipelineByID(rule.org, rule.sourceID)),
		"target":    x.pipelineObject(x.st.pipelineByID(rule.org, rule.targetID)),
		"createdBy": x.userObject(rule.createdBy), "organization": x.orgObject(x.st.orgs[rule.org]),
	}}
}

// RuleDescription returns the description of org's rule id (nil for none), and whether there is such a
// rule. REST never shows it; tests read it here.
func (st *Store) RuleDescription(org, id string) (description *string, ok bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	rule := st.ruleByID(org, id)
	if rule == nil {
		return nil, false
	}
	return clonePtr(rule.description), true
}

// SetRuleDescription sets (nil clears) the description of org's rule id, as a change made in the web
// interface would, and reports whether there is such a rule.
func (st *Store) SetRuleDescription(org, id string, description *string) bool {
	defer st.edit()()
	rule := st.ruleByID(org, id)
	if rule != nil {
		rule.description = clonePtr(description)
	}
	return rule != nil
}
