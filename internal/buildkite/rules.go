package buildkite

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// RulesService manages organization rules.
type RulesService struct{ client *Client }

// Rule allows an action from a source resource on a target resource
// (https://buildkite.com/docs/apis/rest-api/rules). Rules have no update.
type Rule struct {
	UUID             string     `json:"uuid"`
	GraphQLID        string     `json:"graphql_id"`
	OrganizationUUID string     `json:"organization_uuid"`
	URL              string     `json:"url"`
	Type             string     `json:"type"`
	SourceType       string     `json:"source_type"`
	SourceUUID       string     `json:"source_uuid"`
	TargetType       string     `json:"target_type"`
	TargetUUID       string     `json:"target_uuid"`
	Effect           string     `json:"effect"`
	Action           string     `json:"action"`
	CreatedAt        *time.Time `json:"created_at"`
	CreatedBy        *User      `json:"created_by"`
}

var _ identified = (*Rule)(nil)

func (x *Rule) identity() (string, string) { return "uuid", x.UUID }

// RuleCreate is the body of a create. Value is a JSON object, for the pipeline rules
// {"source_pipeline": <uuid or slug>, "target_pipeline": <uuid or slug>}.
type RuleCreate struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

// List returns every rule of the organization, across all pages.
func (s *RulesService) List(ctx context.Context) ([]Rule, error) {
	p, err := s.client.orgPath("rules")
	if err != nil {
		return nil, err
	}
	return listAll[Rule](ctx, s.client, p, nil)
}

// Get returns one rule by UUID.
func (s *RulesService) Get(ctx context.Context, id string) (*Rule, error) {
	list, err := s.client.orgPath("rules")
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, id)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, id, func(r *Rule) []string { return []string{r.UUID} })
}

// Create creates a rule. A rule is identified by its type, source and target (the service refuses a
// second one), so after an unknown outcome the rule with the same three is adopted; pipelines given by
// slug are resolved to their UUIDs to compare.
func (s *RulesService) Create(ctx context.Context, in RuleCreate) (*Rule, error) {
	p, err := s.client.orgPath("rules")
	if err != nil {
		return nil, err
	}
	var v struct {
		Source string `json:"source_pipeline"`
		Target string `json:"target_pipeline"`
	}
	if err := json.Unmarshal(in.Value, &v); err != nil {
		return nil, err
	}
	return createOrAdopt(ctx, s.client, p, in, lostCreate[Rule]{
		matching: func(ctx context.Context) ([]Rule, error) {
			all, err := s.List(ctx)
			if err != nil {
				return nil, err
			}
			// Each pipeline the rule names is resolved once (a slug costs one read), not once per rule.
			src, err := s.client.Pipelines.uuidOf(ctx, v.Source)
			if err != nil {
				return nil, err
			}
			dst, err := s.client.Pipelines.uuidOf(ctx, v.Target)
			if err != nil {
				return nil, err
			}
			return keep(all, nil, func(r *Rule) bool {
				return r.Type == in.Type && (r.SourceUUID == v.Source || src != "" && r.SourceUUID == src) &&
					(r.TargetUUID == v.Target || dst != "" && r.TargetUUID == dst)
			})
		},
		id: func(r *Rule) string { return r.UUID },
		describe: func(r *Rule) string {
			return fmt.Sprintf("rule %s from %s to %s (UUID %s)", r.Type, r.SourceUUID, r.TargetUUID, r.UUID)
		},
	})
}

// Delete deletes a rule.
func (s *RulesService) Delete(ctx context.Context, id string) error {
	p, err := s.client.orgPath("rules", id)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}
