package fakeserver

import (
	"fmt"
	"net/http"
	"time"
)

// Pipeline templates (https://buildkite.com/docs/apis/rest-api/pipeline-templates): enterprise plan only.
// Admins manage them; non-admins see, and may assign to pipelines, only the templates marked available.

// KindPipelineTemplate is a pipeline template, for Store.Exists and Store.Remove. Removing one that
// pipelines use detaches it from them (the API's DELETE would refuse; Remove is for "deleted outside
// Terraform" tests, which need it gone).
const KindPipelineTemplate Kind = "pipeline_template"

func init() {
	registerKind(KindPipelineTemplate, (*Store).templateByID, (*Store).deleteTemplate)
}

// ---- state ----

// templateState is this area's part of the Store.
type templateState struct {
	templates *table[*templateRecord] // listed by org
}

func newTemplateState() templateState {
	return templateState{templates: newTable(func(t *templateRecord) []string { return []string{t.org} }, nil)}
}

func (t *templateRecord) recordID() string { return t.id }
func (t *templateRecord) recordSeq() int64 { return t.seq }

type templateRecord struct {
	seq                              int64
	org, id, graphqlID               string
	name, description, configuration string
	available                        bool
	createdAt, updatedAt             time.Time
	createdBy, updatedBy             string // user ids
}

// templateByID returns the template of org with id, or nil. A lock must be held.
func (st *Store) templateByID(org, id string) *templateRecord {
	if t, ok := st.templates.templates.get(id); ok && t.org == org {
		return t
	}
	return nil
}

// deleteTemplate removes t for Store.Remove: "deleted outside Terraform" leaves its pipelines without a
// template, where the API's DELETE refuses while pipelines use it. The write lock must be held.
func (st *Store) deleteTemplate(t *templateRecord) {
	for _, p := range st.pipelinesOf(t.org) {
		if p.templateID == t.id {
			p.templateID = ""
		}
	}
	st.templates.templates.remove(t)
}

// visibleTemplate returns the template of org with id that the user may see (admins see every template,
// other members only available ones), or nil. A lock must be held.
func (st *Store) visibleTemplate(org, userID, id string) *templateRecord {
	t := st.templateByID(org, id)
	if t == nil || (!t.available && !st.isAdmin(org, userID)) {
		return nil
	}
	return t
}

// templateUsers counts the pipelines that use the template. A lock must be held.
func (st *Store) templateUsers(t *templateRecord) int {
	n := 0
	for _, p := range st.pipelinesOf(t.org) {
		if p.templateID == t.id {
			n++
		}
	}
	return n
}

// ---- views ----

type templateView struct {
	UUID          string    `json:"uuid"`
	GraphQLID     string    `json:"graphql_id"`
	Name          string    `json:"name"`
	Description   string    `json:"description"`
	Configuration string    `json:"configuration"`
	Available     bool      `json:"available"`
	URL           string    `json:"url"`
	WebURL        string    `json:"web_url"`
	CreatedAt     string    `json:"created_at"`
	CreatedBy     *userView `json:"created_by"`
	UpdatedAt     string    `json:"updated_at"`
	UpdatedBy     *userView `json:"updated_by"`
}

func (st *Store) templateView(base string, t *templateRecord) templateView {
	return templateView{
		UUID: t.id, GraphQLID: t.graphqlID, Name: t.name, Description: t.description,
		Configuration: t.configuration, Available: t.available,
		URL:       apiURL(base, "organizations", t.org, "pipeline-templates", t.id),
		WebURL:    webURL(base, "organizations", t.org, "pipeline-templates", t.id),
		CreatedAt: formatTime(t.createdAt), CreatedBy: st.userSummary(t.createdBy),
		UpdatedAt: formatTime(t.updatedAt), UpdatedBy: st.userSummary(t.updatedBy),
	}
}

// ---- routes ----

func (s *Server) routeTemplates(mux *routeMux) {
	const templates = "/v2/organizations/{org}/pipeline-templates"
	const template = templates + "/{template}"
	mux.HandleFunc("GET "+templates, s.listTemplates)
	mux.HandleFunc("POST "+templates, s.createTemplate)
	mux.HandleFunc("GET "+template, s.getTemplate)
	mux.HandleFunc("PATCH "+template, s.updateTemplate)
	mux.HandleFunc("PUT "+template, s.updateTemplate)
	mux.HandleFunc("DELETE "+template, s.deleteTemplate)
}

// errNotEnterprise: the organization's plan has no pipeline templates (403).
func errNotEnterprise() *apiError {
	return newMessageError(http.StatusForbidden, "Pipeline templates are only available on the Enterprise plan")
}

// templatesAllowed is the rule every template endpoint adds to the token's: the organization's plan has
// pipeline templates (403 otherwise), checked before anything else.
func templatesAllowed(org orgRecord, _ userRecord) *apiError {
	if !org.enterprise {
		return errNotEnterprise()
	}
	return nil
}

// checkTemplateConfiguration records a problem unless the configuration is YAML.
func checkTemplateConfiguration(problems *validationErrors, v opt[string]) {
	if v.Value == "" {
		return
	}
	if err := checkYAML(v.Value); err != "" {
		problems.add("configuration", err)
	}
}

// ---- handlers ----

func (s *Server) listTemplates(w http.ResponseWriter, r *http.Request) {
	s.serveReadFor(w, r, scopeReadPipelineTemplates, func(org orgRecord, user userRecord) (any, *apiError) {
		if err := templatesAllowed(org, user); err != nil {
			return nil, err
		}
		var items []*templateRecord
		for _, t := range s.store.templates.templates.list(org.slug) {
			if s.store.visibleTemplate(org.slug, user.id, t.id) != nil {
				items = append(items, t)
			}
		}
		out := []templateView{}
		for _, t := range paginate(w, r, items) {
			out = append(out, s.store.templateView(baseURL(r), t))
		}
		return out, nil
	})
}

func (s *Server) getTemplate(w http.ResponseWriter, r *http.Request) {
	s.serveReadFor(w, r, scopeReadPipelineTemplates, func(org orgRecord, user userRecord) (any, *apiError) {
		if err := templatesAllowed(org, user); err != nil {
			return nil, err
		}
		t := s.store.visibleTemplate(org.slug, user.id, r.PathValue("template"))
		if t == nil {
			return nil, errNotFound("pipeline template")
		}
		return s.store.templateView(baseURL(r), t), nil
	})
}

func (s *Server) createTemplate(w http.ResponseWriter, r *http.Request) {
	s.serveWriteChecked(w, r, scopeWritePipelineTemplates, http.StatusCreated, templatesAllowed,
		func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
			name, desc, config, available := in.String("name"), in.String("description"), in.String("configuration"), in.Bool("available")
			config.Value = normalizeConfiguration(config.Value)
			problems := in.Problems()
			if name.Value == "" {
				problems.addBlank("name")
			}
			if config.Value == "" {
				problems.addBlank("configuration")
			}
			checkTemplateConfiguration(&problems, config)
			if !s.store.isAdmin(org.slug, user.id) {
				return nil, errForbidden()
			}
			if len(problems) > 0 {
				return nil, errValidation(problems)
			}
			id, now := newID(), s.store.timestamp()
			t := &templateRecord{
				seq: s.store.nextSeq(), org: org.slug, id: id, graphqlID: graphQLID("PipelineTemplate", id),
				name: name.Value, description: desc.Value, configuration: config.Value, available: available.Value,
				createdAt: now, updatedAt: now, createdBy: user.id, updatedBy: user.id,
			}
			s.store.templates.templates.insert(t)
			return s.store.templateView(baseURL(r), t), nil
		})
}

func (s *Server) updateTemplate(w http.ResponseWriter, r *http.Request) {
	s.serveWriteChecked(w, r, scopeWritePipelineTemplates, http.StatusOK, templatesAllowed,
		func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
			name, desc, config, available := in.String("name"), in.String("description"), in.String("configuration"), in.Bool("available")
			config.Value = normalizeConfiguration(config.Value)
			problems := in.Problems()
			if name.Set && name.Value == "" {
				problems.addBlank("name")
			}
			if config.Set && config.Value == "" {
				problems.addBlank("configuration")
			}
			checkTemplateConfiguration(&problems, config)
			// A non-admin learns no more than a read would tell: an unavailable template is unknown to them.
			t := s.store.visibleTemplate(org.slug, user.id, r.PathValue("template"))
			if t == nil {
				return nil, errNotFound("pipeline template")
			}
			if !s.store.isAdmin(org.slug, user.id) {
				return nil, errForbidden()
			}
			if len(problems) > 0 {
				return nil, errValidation(problems)
			}
			setString(&t.name, name)
			setString(&t.description, desc)
			if config.Set {
				t.configuration = config.Value
				s.store.propagateTemplate(t)
			}
			if available.Set {
				t.available = available.Value
			}
			t.updatedAt, t.updatedBy = s.store.timestamp(), user.id
			return s.store.templateView(baseURL(r), t), nil
		})
}

func (s *Server) deleteTemplate(w http.ResponseWriter, r *http.Request) {
	s.serveAct(w, r, scopeWritePipelineTemplates, http.StatusNoContent, func(org orgRecord, user userRecord) (any, *apiError) {
		if err := templatesAllowed(org, user); err != nil {
			return nil, err
		}
		t := s.store.visibleTemplate(org.slug, user.id, r.PathValue("template"))
		if t == nil {
			return nil, errNotFound("pipeline template")
		}
		if !s.store.isAdmin(org.slug, user.id) {
			return nil, errForbidden()
		}
		if n := s.store.templateUsers(t); n > 0 {
			return nil, errUnprocessable(templateInUse(n))
		}
		s.store.templates.templates.remove(t)
		return nil, nil
	})
}

// templateInUse is the refusal to delete a template n pipelines use (REST and GraphQL).
func templateInUse(n int) string {
	noun := "pipelines"
	if n == 1 {
		noun = "pipeline"
	}
	return fmt.Sprintf("Pipeline template is assigned to %d %s and cannot be deleted; remove it from them first", n, noun)
}
