package fakeserver

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

// Rules (https://buildkite.com/docs/apis/rest-api/rules): a rule allows an action from a source resource on a
// target resource. The types accepted are pipeline.trigger_build.pipeline, the one the REST documentation
// (and go-buildkite) names, and pipeline.artifacts_read.pipeline, which the official Terraform provider
// documents; both take a source and a target pipeline. value may be an object (go-buildkite's form) or a JSON
// string holding one (a client that keeps the value as a JSON document); each pipeline in it is a UUID or a
// slug. Creating a rule that exists (same type, source and target) is a 422.

// KindRule is a rule, for Store.Exists and Store.Remove.
const KindRule Kind = "rule"

func init() {
	registerKind(KindRule, (*Store).ruleByID, func(st *Store, rule *ruleRecord) { st.rules.rules.remove(rule) })
}

// ruleTypes are the accepted rule types, each split into source type, action and target type.
var ruleTypes = map[string]struct{ source, action, target string }{
	"pipeline.trigger_build.pipeline":  {"pipeline", "trigger_build", "pipeline"},
	"pipeline.artifacts_read.pipeline": {"pipeline", "artifacts_read", "pipeline"},
}

// ruleTypeNames lists the accepted rule types for error messages, sorted.
func ruleTypeNames() string {
	names := make([]string, 0, len(ruleTypes))
	for name := range ruleTypes {
		names = append(names, name)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// ---- state ----

// ruleState is this area's part of the Store.
type ruleState struct {
	// rules are listed by org and by each pipeline they name ("pipeline:<id>"), and named by what makes
	// one unique: type, source and target.
	rules *table[*ruleRecord]
}

func newRuleState() ruleState {
	return ruleState{rules: newTable(
		func(r *ruleRecord) []string {
			return distinct(r.org, "pipeline:"+r.sourceID, "pipeline:"+r.targetID)
		},
		func(r *ruleRecord) []string { return []string{ruleKey(r.org, r.typ, r.sourceID, r.targetID)} })}
}

// ruleKey names the one rule of org with this type, source and target.
func ruleKey(org, typ, sourceID, targetID string) string {
	return nameKey(org, typ, sourceID, targetID)
}

func (r *ruleRecord) recordID() string { return r.id }
func (r *ruleRecord) recordSeq() int64 { return r.seq }

type ruleRecord struct {
	seq                     int64
	org, id, graphqlID, typ string
	sourceID, targetID      string // pipeline UUIDs
	conditions              []string
	description             *string // GraphQL's Rule.description (nil is null); REST neither takes nor shows it
	createdAt               time.Time
	createdBy               string
}

// ruleByID returns the rule of org with id, or nil. A lock must be held.
func (st *Store) ruleByID(org, id string) *ruleRecord {
	if rule, ok := st.rules.rules.get(id); ok && rule.org == org {
		return rule
	}
	return nil
}

func (st *Store) rulesOf(org string) []*ruleRecord { return st.rules.rules.list(org) }

// deleteRulesNaming removes org's rules whose source or target is id (a pipeline being deleted). The
// write lock must be held.
func (st *Store) deleteRulesNaming(org, id string) {
	for _, rule := range slices.Clone(st.rules.rules.list("pipeline:" + id)) {
		if rule.org == org {
			st.rules.rules.remove(rule)
		}
	}
}

// pipelineByIDOrSlug finds a pipeline of org by UUID or slug. A lock must be held.
func (st *Store) pipelineByIDOrSlug(org, ref string) *pipelineRecord {
	if p := st.pipelineByID(org, ref); p != nil {
		return p
	}
	return st.pipelineBySlug(org, ref)
}

// ---- views ----

type ruleView struct {
	UUID             string    `json:"uuid"`
	GraphQLID        string    `json:"graphql_id"`
	OrganizationUUID string    `json:"organization_uuid"`
	URL              string    `json:"url"`
	Type             string    `json:"type"`
	SourceType       string    `json:"source_type"`
	SourceUUID       string    `json:"source_uuid"`
	TargetType       string    `json:"target_type"`
	TargetUUID       string    `json:"target_uuid"`
	Effect           string    `json:"effect"`
	Action           string    `json:"action"`
	CreatedAt        string    `json:"created_at"`
	CreatedBy        *userView `json:"created_by"`
}

func (st *Store) ruleView(base string, rule *ruleRecord) ruleView {
	t := ruleTypes[rule.typ]
	v := ruleView{
		UUID: rule.id, GraphQLID: rule.graphqlID, URL: apiURL(base, "organizations", rule.org, "rules", rule.id),
		Type: rule.typ, SourceType: t.source, SourceUUID: rule.sourceID, TargetType: t.target, TargetUUID: rule.targetID,
		Effect: "allow", Action: t.action, CreatedAt: formatTime(rule.createdAt), CreatedBy: st.userSummary(rule.createdBy),
	}
	if o, ok := st.orgs[rule.org]; ok {
		v.OrganizationUUID = o.id
	}
	return v
}

// ---- routes ----

func (s *Server) routeRules(mux *routeMux) {
	const rules = "/v2/organizations/{org}/rules"
	const rule = rules + "/{rule}"
	mux.HandleFunc("GET "+rules, s.listRules)
	mux.HandleFunc("POST "+rules, s.createRule)
	mux.HandleFunc("GET "+rule, s.getRule)
	mux.HandleFunc("DELETE "+rule, s.deleteRule)
}

// ---- handlers ----

func (s *Server) listRules(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadRules, func(org string) (any, *apiError) {
		out := []ruleView{}
		for _, rule := range paginate(w, r, s.store.rulesOf(org)) {
			out = append(out, s.store.ruleView(baseURL(r), rule))
		}
		return out, nil
	})
}

func (s *Server) getRule(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadRules, func(org string) (any, *apiError) {
		rule := s.store.ruleByID(org, r.PathValue("rule"))
		if rule == nil {
			return nil, errNotFound("rule")
		}
		return s.store.ruleView(baseURL(r), rule), nil
	})
}

// ruleValue is the value of a pipeline rule.
type ruleValue struct {
	SourcePipeline string   `json:"source_pipeline"`
	TargetPipeline string   `json:"target_pipeline"`
	Conditions     []string `json:"conditions"`
}

// readRuleValue decodes value, an object or a JSON string holding one, and says what is wrong with it in
// the service's words: "<type>: missing source_pipeline", "<type>: conditional is invalid: ...".
func readRuleValue(typ string, raw json.RawMessage) (ruleValue, string) {
	var v ruleValue
	if raw == nil || string(raw) == "null" {
		return v, typ + ": value can't be blank"
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = json.RawMessage(s)
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		return v, typ + ": value must be an object (or a JSON string holding one) with source_pipeline and target_pipeline"
	}
	if json.Unmarshal(raw, &v) != nil {
		return v, typ + ": source_pipeline and target_pipeline must be strings, conditions an array of strings"
	}
	for _, end := range []struct{ name, value string }{{"source_pipeline", v.SourcePipeline}, {"target_pipeline", v.TargetPipeline}} {
		if end.value == "" {
			return v, typ + ": missing " + end.name
		}
		if !pipelineRefPattern.MatchString(end.value) {
			return v, typ + ": " + end.name + " is an invalid UUID."
		}
	}
	for _, c := range v.Conditions {
		if problem := checkConditional(typ, c); problem != "" {
			return v, typ + ": conditional is invalid:\n" + problem
		}
	}
	return v, ""
}

// pipelineRefPattern is what may name a pipeline in a rule: a UUID, or a slug (lower-case letters, digits
// and hyphens). Anything else (an underscore, a space) can be neither.
var pipelineRefPattern = regexp.MustCompile(`^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[a-z0-9][a-z0-9-]*)$`)

// ruleConditionVariables are the variables a rule's conditions may use (the rules documentation): the
// source build and pipeline, and what the target is asked to do (trigger_build) or whose artifacts are
// read (artifacts_read).
var ruleConditionVariables = map[string][]string{
	"pipeline.trigger_build.pipeline": {
		"source.build.id", "source.build.number", "source.build.branch", "source.build.commit", "source.build.message",
		"source.build.source", "source.build.tag", "source.build.creator.id", "source.build.creator.email",
		"source.build.creator.name", "source.build.creator.teams", "source.build.pull_request.id",
		"source.build.pull_request.base_branch", "source.build.pull_request.repository",
		"source.pipeline.id", "source.pipeline.slug", "source.pipeline.repository", "source.pipeline.default_branch",
		"source.job.id", "source.step.key", "source.step.label",
		"target.trigger.branch", "target.trigger.commit", "target.trigger.message",
		"target.pipeline.id", "target.pipeline.slug", "target.pipeline.repository", "target.pipeline.default_branch",
	},
	"pipeline.artifacts_read.pipeline": {
		"source.build.id", "source.build.number", "source.build.branch", "source.build.commit", "source.build.message",
		"source.build.source", "source.build.tag", "source.build.creator.id", "source.build.creator.email",
		"source.build.creator.name", "source.build.creator.teams",
		"source.pipeline.id", "source.pipeline.slug", "source.pipeline.repository", "source.pipeline.default_branch",
		"source.job.id", "source.step.key", "source.step.label",
		"target.build.id", "target.build.number", "target.build.branch", "target.build.commit", "target.build.message",
		"target.build.source", "target.build.tag", "target.build.creator.teams",
		"target.pipeline.id", "target.pipeline.slug", "target.pipeline.repository", "target.pipeline.default_branch",
	},
}

// conditionToken finds, outside quoted strings, the dotted names a conditional refers to.
var (
	conditionQuoted = regexp.MustCompile(`'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|/(?:[^/\\]|\\.)*/`)
	conditionName   = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+`)
	conditionOps    = regexp.MustCompile(`==|!=|=~|!~|&&|\|\||\bincludes\b`)
)

// checkConditional says what is wrong with one condition, or "": every dotted name must be a variable of
// the rule type, and the condition must compare something.
func checkConditional(typ, c string) string {
	bare := conditionQuoted.ReplaceAllString(c, "''")
	if strings.TrimSpace(c) == "" {
		return "the conditional is empty"
	}
	known := ruleConditionVariables[typ]
	for _, name := range conditionName.FindAllString(bare, -1) {
		if !slices.Contains(known, name) {
			return "`" + name + "` is not a variable"
		}
	}
	if !conditionOps.MatchString(bare) {
		return "`" + strings.TrimSpace(c) + "` is not a comparison"
	}
	return ""
}

func (s *Server) createRule(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteRules, http.StatusCreated, func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
		typ := in.String("type")
		if problems := in.Problems(); len(problems) > 0 {
			return nil, errUnprocessable(strings.Join(problems.sentences(), ", "))
		}
		if typ.Value == "" {
			return nil, errUnprocessable("Type can't be blank")
		}
		if _, known := ruleTypes[typ.Value]; !known {
			return nil, errUnprocessable("input: Rule type is unknown: " + typ.Value + " (the available types are " + ruleTypeNames() + ")")
		}
		value, problem := readRuleValue(typ.Value, in.raw["value"])
		if problem != "" {
			return nil, errUnprocessable(problem)
		}
		source, target, problem := s.store.ruleEnds(org.slug, typ.Value, value, nil)
		if problem != "" {
			return nil, errUnprocessable(problem)
		}
		rule := s.store.insertRule(org.slug, typ.Value, source, target, value.Conditions, nil, user.id)
		return s.store.ruleView(baseURL(r), rule), nil
	})
}

// ruleEnds finds the source and target pipelines of a rule value of org, and says what is wrong in the
// service's words: a pipeline not found, or another rule (not self) of the same type, source and target.
// A lock must be held. REST and GraphQL (graphql_rules.go) share it.
func (st *Store) ruleEnds(org, typ string, value ruleValue, self *ruleRecord) (source, target *pipelineRecord, problem string) {
	source = st.pipelineByIDOrSlug(org, value.SourcePipeline)
	if source == nil {
		return nil, nil, typ + ": source_pipeline not found"
	}
	target = st.pipelineByIDOrSlug(org, value.TargetPipeline)
	if target == nil {
		return nil, nil, typ + ": target_pipeline not found"
	}
	if other, taken := st.rules.rules.lookup(ruleKey(org, typ, source.id, target.id)); taken && other != self {
		return nil, nil, "A " + typ + " rule from " + source.slug + " to " + target.slug + " already exists"
	}
	return source, target, ""
}

// insertRule stores a new rule. The write lock must be held.
func (st *Store) insertRule(org, typ string, source, target *pipelineRecord, conditions []string, description *string, userID string) *ruleRecord {
	id := newID()
	rule := &ruleRecord{
		seq: st.nextSeq(), org: org, id: id, graphqlID: graphQLID("Rule", id), typ: typ,
		sourceID: source.id, targetID: target.id, conditions: conditions, description: description,
		createdAt: st.timestamp(), createdBy: userID,
	}
	st.rules.rules.insert(rule)
	return rule
}

func (s *Server) deleteRule(w http.ResponseWriter, r *http.Request) {
	s.serveDelete(w, r, scopeWriteRules, func(org string) *apiError {
		rule := s.store.ruleByID(org, r.PathValue("rule"))
		if rule == nil {
			return errNotFound("rule")
		}
		s.store.rules.rules.remove(rule)
		return nil
	})
}
