package fakeserver

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// GraphQL for pipeline schedules over the REST area's records (schedules.go): node(id:) on
// PipelineSchedule, pipelineSchedule(slug: "<org>/<pipeline>/<uuid>"), pipelineScheduleCreate,
// pipelineScheduleUpdate and pipelineScheduleDelete, read through REST's own reader and checks
// (readScheduleInput), so a cronline that does not parse is refused with the same reason. The input's env
// is one string of KEY=VALUE lines and the field's a list of KEY=VALUE strings, as Buildkite's schema
// has them; a line without "=" is a variable with an empty value, and a value in double quotes is the
// quoted string (I: dotenv's way; the official provider sends its values quoted, and reads them back bare).

func init() {
	gqlNodes["PipelineSchedule"] = func(x *gqlExec, uuid string) any {
		p, sc := x.visibleSchedule(uuid)
		return x.scheduleObject(p, sc)
	}
	gqlQueries["pipelineSchedule"] = func(x *gqlExec, args map[string]any) (any, error) {
		parts := strings.Split(argString(args, "slug"), "/")
		if len(parts) != 3 || x.visibleOrg(parts[0]) == nil {
			return nil, nil
		}
		p := x.st.pipelineBySlug(parts[0], parts[1])
		if p == nil {
			return nil, nil
		}
		return x.scheduleObject(p, x.st.scheduleOf(p.org, p.id, strings.ToLower(parts[2]))), nil
	}
	gqlMutations["pipelineScheduleCreate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		p := x.visiblePipeline(uuidOf(in.str("pipelineID"), "Pipeline"))
		if p == nil {
			return nil, gqlError("No pipeline found")
		}
		v := readScheduleInput(scheduleBody(in), true)
		if len(v.problems) > 0 {
			return nil, gqlValidation(v.problems)
		}
		id := newID()
		sc := &scheduleRecord{
			seq: x.st.nextSeq(), org: p.org, pipelineID: p.id, id: id, graphqlID: graphQLID("PipelineSchedule", id),
			commit: "HEAD", branch: p.defaultBranch, enabled: true, env: map[string]string{},
			createdAt: x.st.timestamp(), createdBy: x.user.id,
		}
		v.apply(sc)
		x.st.schedules.schedules.insert(sc)
		edge := gqlObject{typ: "PipelineScheduleEdge", fields: map[string]any{"cursor": cursorFor(0), "node": x.scheduleObject(p, sc)}}
		return withClientMutationID(in, "PipelineScheduleCreatePayload", map[string]any{"pipeline": x.pipelineObject(p), "pipelineScheduleEdge": edge}), nil
	}
	gqlMutations["pipelineScheduleUpdate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		p, sc := x.visibleSchedule(uuidOf(in.str("id"), "PipelineSchedule"))
		if sc == nil {
			return nil, gqlError("No pipeline schedule found")
		}
		v := readScheduleInput(scheduleBody(in), false)
		if len(v.problems) > 0 {
			return nil, gqlValidation(v.problems)
		}
		v.apply(sc)
		return withClientMutationID(in, "PipelineScheduleUpdatePayload", map[string]any{"pipelineSchedule": x.scheduleObject(p, sc)}), nil
	}
	gqlMutations["pipelineScheduleDelete"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		p, sc := x.visibleSchedule(uuidOf(in.str("id"), "PipelineSchedule"))
		if sc == nil {
			return nil, gqlError("No pipeline schedule found")
		}
		x.st.deleteSchedule(sc)
		return withClientMutationID(in, "PipelineScheduleDeletePayload", map[string]any{
			"deletedPipelineScheduleID": sc.graphqlID, "pipeline": x.pipelineObject(p),
		}), nil
	}
}

// scheduleBody is the REST body a schedule input stands for: its env lines become an object.
func scheduleBody(in gqlInput) *jsonObject {
	body := restBody(in, "label", "cronline", "message", "commit", "branch", "enabled")
	if v, ok := in["env"]; ok {
		env := map[string]string{}
		s, _ := v.(string)
		for line := range strings.SplitSeq(s, "\n") {
			if line = strings.TrimRight(line, "\r"); strings.TrimSpace(line) != "" {
				k, val, _ := strings.Cut(line, "=")
				if q, err := strconv.Unquote(val); err == nil && strings.HasPrefix(val, `"`) {
					val = q
				}
				env[k] = val
			}
		}
		b, _ := json.Marshal(env)
		body.raw["env"] = b
	}
	return body
}

// visibleSchedule returns the schedule with this UUID and its pipeline when the token sees its
// organization, or nils.
func (x *gqlExec) visibleSchedule(uuid string) (*pipelineRecord, *scheduleRecord) {
	sc, ok := x.st.schedules.schedules.get(uuid)
	if !ok || !x.tok.orgs[sc.org] {
		return nil, nil
	}
	p := x.st.pipelineByID(sc.org, sc.pipelineID)
	if p == nil {
		return nil, nil
	}
	return p, sc
}

// scheduleObject is a PipelineSchedule, or nil for nil.
func (x *gqlExec) scheduleObject(p *pipelineRecord, sc *scheduleRecord) any {
	if p == nil || sc == nil {
		return nil
	}
	env := make([]any, 0, len(sc.env))
	for _, k := range slices.Sorted(maps.Keys(sc.env)) {
		env = append(env, k+"="+sc.env[k])
	}
	view := x.st.scheduleView(x.base, p, sc)
	var nextBuildAt any
	if view.NextBuildAt != nil {
		nextBuildAt = *view.NextBuildAt
	}
	return gqlObject{typ: "PipelineSchedule", fields: map[string]any{
		"id": sc.graphqlID, "uuid": sc.id, "label": sc.label, "cronline": sc.cronline, "message": nonEmpty(sc.message),
		"commit": nonEmpty(sc.commit), "branch": nonEmpty(sc.branch), "env": env, "enabled": sc.enabled,
		"createdAt": formatTime(sc.createdAt), "createdBy": x.userObject(sc.createdBy),
		"failedAt": nil, "failedMessage": nil, "nextBuildAt": nextBuildAt, "pipeline": x.pipelineObject(p),
	}}
}

// nonEmpty is s, or nil for "".
func nonEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
