package buildkite

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Rules through GraphQL (https://buildkite.com/docs/apis/graphql/cookbooks/rules). REST creates, lists and
// deletes a rule, but never returns its value (conditions included) or its description, and has no update:
// GraphQL reads both (Rule.document and Rule.description) and changes them in place (ruleUpdate).

var (
	opGetRule    = queryFile("getOrganizationRule")
	opUpdateRule = mutationFile("updateOrganizationRule", true) // sending it again sets the same
	// opGetRules reads one rule as written; rulesDetailsOp repeats its aliased field for a batch.
	opGetRules = queryFile("getOrganizationRules")
)

// getOrganizationRuleAnswer is the data of getOrganizationRule's answer.
type getOrganizationRuleAnswer struct {
	Rule *RuleDetails `json:"rule"`
}

// getOrganizationRulesAnswer is the data of getOrganizationRules's answer: each rule by its alias (r0, r1, …).
type getOrganizationRulesAnswer map[string]*RuleDetails

// updateOrganizationRuleAnswer is the data of updateOrganizationRule's answer.
type updateOrganizationRuleAnswer struct {
	RuleUpdate struct {
		Rule *RuleDetails `json:"rule"`
	} `json:"ruleUpdate"`
}

// RuleDetails is what only GraphQL tells of a rule: its description and its value.
type RuleDetails struct {
	ID          string  `json:"id"`
	UUID        string  `json:"uuid"`
	Type        string  `json:"type"`
	Description *string `json:"description"`
	// Document is {"rule": "<type>", "value": {…}}, the pipelines by UUID.
	Document *string `json:"document"`
}

// Value is the rule's value as the service holds it ({"source_pipeline": <uuid>, "target_pipeline": <uuid>,
// "conditions": […]}), or nil when the answer had no document.
func (d *RuleDetails) Value() (json.RawMessage, error) {
	if d.Document == nil || *d.Document == "" {
		return nil, nil
	}
	var doc struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal([]byte(*d.Document), &doc); err != nil {
		return nil, fmt.Errorf("rule %s: its document is not JSON: %w", d.UUID, err)
	}
	return doc.Value, nil
}

// RuleUpdate is a change of a rule in place. Value is required (the whole value, conditions included);
// Description is always sent, so nil clears it.
type RuleUpdate struct {
	OrganizationID string          `json:"organizationId"`
	ID             string          `json:"id"`
	Description    *string         `json:"description"`
	Value          json.RawMessage `json:"value"`
}

// Details returns the description and value of the rule with this UUID; a rule the service does not know
// (it answers null) is an error IsNotFound recognises.
func (s *RulesService) Details(ctx context.Context, uuid string) (*RuleDetails, error) {
	out, err := gqlQuery[getOrganizationRuleAnswer](ctx, s.client, opGetRule, map[string]string{"uuid": uuid})
	if err != nil {
		return nil, err
	}
	if out.Rule == nil {
		return nil, s.client.graphQLNotFound(opGetRule.name, "rule "+uuid)
	}
	return out.Rule, nil
}

// rulesPerRequest is how many rules DetailsOf asks for in one GraphQL request: a REST page's worth.
const rulesPerRequest = 100

// DetailsOf returns the description and value of each rule in uuids, keyed by UUID, asking for up to a
// REST page's worth of rules in one request (one aliased rule(uuid:) field each). A rule the service no
// longer knows is left out.
func (s *RulesService) DetailsOf(ctx context.Context, uuids []string) (map[string]*RuleDetails, error) {
	out := make(map[string]*RuleDetails, len(uuids))
	for start := 0; start < len(uuids); start += rulesPerRequest {
		op, vars := rulesDetailsOp(uuids[start:min(start+rulesPerRequest, len(uuids))])
		got, err := gqlQuery[getOrganizationRulesAnswer](ctx, s.client, op, vars)
		if err != nil {
			return nil, err
		}
		for _, d := range *got {
			if d != nil {
				out[d.UUID] = d
			}
		}
	}
	return out, nil
}

// The batch's two lines in getOrganizationRules.graphql: the variable of rule 0 and its aliased field, each
// written once there and repeated for every rule of a batch, numbered.
const (
	batchVariable = "$u0: ID!"
	batchField    = "r0: rule(uuid: $u0)"
)

// rulesDetailsOp is the query of DetailsOf for a batch of rules: getOrganizationRules with its variable and
// aliased field repeated once per rule ($u0 and r0, $u1 and r1, …), and its variables.
func rulesDetailsOp(batch []string) (operation, map[string]string) {
	doc := opGetRules.document
	lines := strings.Split(doc, "\n")
	vars := make(map[string]string, len(batch))
	params := make([]string, len(batch))
	for i, uuid := range batch {
		params[i] = fmt.Sprintf("$u%d: ID!", i)
		vars[fmt.Sprintf("u%d", i)] = uuid
	}
	var out []string
	for _, line := range lines {
		switch {
		case strings.Contains(line, batchVariable):
			out = append(out, strings.Replace(line, batchVariable, strings.Join(params, ", "), 1))
		case strings.Contains(line, batchField):
			for i := range batch {
				out = append(out, strings.NewReplacer("r0:", fmt.Sprintf("r%d:", i), "$u0", fmt.Sprintf("$u%d", i)).Replace(line))
			}
		default:
			out = append(out, line)
		}
	}
	op := opGetRules
	op.document = strings.Join(out, "\n")
	return op, vars
}

// Update changes a rule's value and description in place (ruleUpdate). Sending it again sets the same. An
// answer with errors that still carries the rule returns it with the error marked Acted (ActedWithErrors).
func (s *RulesService) Update(ctx context.Context, in RuleUpdate) (*RuleDetails, error) {
	// The service documents value as a JSON-encoded string.
	vars := struct {
		RuleUpdate
		Value string `json:"value"`
	}{RuleUpdate: in, Value: string(in.Value)}
	out, err := gqlMutate[updateOrganizationRuleAnswer](ctx, s.client, opUpdateRule, vars)
	if err != nil {
		// The rule in the answer is what the service now holds, whatever else the answer says.
		if out != nil {
			return actedWith(out.RuleUpdate.Rule, err)
		}
		return nil, err
	}
	if out.RuleUpdate.Rule == nil {
		return nil, s.client.graphQLNotFound(opUpdateRule.name, "rule "+in.ID)
	}
	return out.RuleUpdate.Rule, nil
}
