package fakeserver

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
)

// GraphQL for pipeline templates over the REST area's records (templates.go): node(id:) on
// PipelineTemplate, Organization.pipelineTemplates(order:), pipelineTemplateCreate, pipelineTemplateUpdate
// and pipelineTemplateDelete. They keep REST's rules: only on the enterprise plan (the REST 403's words);
// administrators manage templates, other members see only the available ones; the configuration must be
// YAML; a template pipelines use cannot be deleted; a changed configuration reaches the pipelines using it.

func init() {
	gqlNodes["PipelineTemplate"] = func(x *gqlExec, uuid string) any {
		t, ok := x.st.templates.templates.get(uuid)
		if !ok || !x.tok.orgs[t.org] {
			return nil
		}
		return x.templateObject(x.st.visibleTemplate(t.org, x.user.id, uuid))
	}
	gqlOrgFields["pipelineTemplates"] = func(x *gqlExec, o *orgRecord, args map[string]any) (any, error) {
		var items []*templateRecord
		for _, t := range x.st.templates.templates.list(o.slug) {
			if x.st.visibleTemplate(o.slug, x.user.id, t.id) != nil {
				items = append(items, t)
			}
		}
		if argString(args, "order") == "RECENTLY_CREATED" {
			slices.Reverse(items)
		} else { // NAME, the service's default
			slices.SortStableFunc(items, func(a, b *templateRecord) int { return cmp.Compare(strings.ToLower(a.name), strings.ToLower(b.name)) })
		}
		return gqlConnection("PipelineTemplateConnection", defaultFirst(args), items, func(t *templateRecord) any { return x.templateObject(t) })
	}
	gqlMutations["pipelineTemplateCreate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		org, err := x.templateOrg(in)
		if err != nil {
			return nil, err
		}
		body := restBody(in, "name", "description", "configuration", "available")
		name, desc, config, available := body.String("name"), body.String("description"), body.String("configuration"), body.Bool("available")
		config.Value = normalizeConfiguration(config.Value)
		problems := body.Problems()
		if strings.TrimSpace(name.Value) == "" {
			problems.addBlank("name")
		}
		if config.Value == "" {
			problems.addBlank("configuration")
		}
		checkTemplateConfiguration(&problems, config)
		if len(problems) > 0 {
			return nil, gqlValidation(problems)
		}
		id, now := newID(), x.st.timestamp()
		t := &templateRecord{
			seq: x.st.nextSeq(), org: org.slug, id: id, graphqlID: graphQLID("PipelineTemplate", id),
			name: name.Value, description: desc.Value, configuration: config.Value, available: available.Value,
			createdAt: now, updatedAt: now, createdBy: x.user.id, updatedBy: x.user.id,
		}
		x.st.templates.templates.insert(t)
		return withClientMutationID(in, "PipelineTemplateCreatePayload", map[string]any{"pipelineTemplate": x.templateObject(t)}), nil
	}
	gqlMutations["pipelineTemplateUpdate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		org, err := x.templateOrg(in)
		if err != nil {
			return nil, err
		}
		t := x.st.templateByID(org.slug, uuidOf(in.str("id"), "PipelineTemplate"))
		if t == nil {
			return nil, gqlError("No pipeline template found")
		}
		body := restBody(in, "name", "description", "configuration", "available")
		name, desc, config, available := body.String("name"), body.String("description"), body.String("configuration"), body.Bool("available")
		config.Value = normalizeConfiguration(config.Value)
		problems := body.Problems()
		if name.Set && strings.TrimSpace(name.Value) == "" {
			problems.addBlank("name")
		}
		if config.Set && config.Value == "" {
			problems.addBlank("configuration")
		}
		checkTemplateConfiguration(&problems, config)
		if len(problems) > 0 {
			return nil, gqlValidation(problems)
		}
		setString(&t.name, name)
		setString(&t.description, desc)
		if config.Set {
			t.configuration = config.Value
			x.st.propagateTemplate(t)
		}
		if available.Given() {
			t.available = available.Value
		}
		t.updatedAt, t.updatedBy = x.st.timestamp(), x.user.id
		return withClientMutationID(in, "PipelineTemplateUpdatePayload", map[string]any{"pipelineTemplate": x.templateObject(t)}), nil
	}
	gqlMutations["pipelineTemplateDelete"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		org, err := x.templateOrg(in)
		if err != nil {
			return nil, err
		}
		t := x.st.templateByID(org.slug, uuidOf(in.str("id"), "PipelineTemplate"))
		if t == nil {
			return nil, gqlError("No pipeline template found")
		}
		if n := x.st.templateUsers(t); n > 0 {
			return nil, gqlError(templateInUse(n))
		}
		x.st.templates.templates.remove(t)
		return withClientMutationID(in, "PipelineTemplateDeletePayload", map[string]any{"deletedPipelineTemplateId": t.graphqlID}), nil
	}
}

// templateOrg returns the organization a template mutation's organizationId names, when its plan has
// templates and the user administers it.
func (x *gqlExec) templateOrg(in gqlInput) (*orgRecord, error) {
	org, err := x.adminOrg(in.str("organizationId"))
	if err != nil {
		return nil, err
	}
	if e := templatesAllowed(*org, x.user); e != nil {
		return nil, gqlError(e.body.(messageBody).Message)
	}
	return org, nil
}

// templateObject is a PipelineTemplate, or nil for nil.
func (x *gqlExec) templateObject(t *templateRecord) any {
	if t == nil {
		return nil
	}
	var description any
	if t.description != "" {
		description = t.description
	}
	return gqlObject{typ: "PipelineTemplate", fields: map[string]any{
		"id": t.graphqlID, "uuid": t.id, "name": t.name, "description": description,
		"configuration": t.configuration, "available": t.available,
		"createdAt": formatTime(t.createdAt), "updatedAt": formatTime(t.updatedAt),
		"createdBy": x.userObject(t.createdBy), "updatedBy": x.userObject(t.updatedBy),
	}}
}

// restBody is the REST body of the given input fields, as they were given (null included), for the REST
// area's readers.
func restBody(in gqlInput, keys ...string) *jsonObject {
	obj := &jsonObject{raw: map[string]json.RawMessage{}}
	for _, k := range keys {
		if v, ok := in[k]; ok {
			b, _ := json.Marshal(v)
			obj.raw[k] = b
		}
	}
	return obj
}
