package fakeserver

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// GraphQL for jobs, over the builds area's records (builds.go): node(id:) on JobTypeCommand,
// jobTypeCommandCancel, with which Buildkite's CLI cancels a job (bk job cancel), and jobTypeCommandRetry,
// with which it retries one (bk job retry). A retry is REST's (job_actions.go): the same jobs, refused in the
// same words; the payload's jobTypeCommand is the job retried, now retried: true, and
// retriedInJobTypeCommand the new job.
//
// GraphQL's JobStates are REST's job states in capitals, except that a job that ran to the end, passed or
// failed, is FINISHED (with passed telling which). exitStatus is a string, as in Buildkite's schema.
//
// Choices where the facts are silent (I): a job is canceled at once (the service passes through
// CANCELING while an agent stops it), as cancelling a build does here; the build's own state is left
// alone; a job that has finished cannot be canceled, in these words: "Job can't be canceled because it is
// <state>". Needs write access to builds, as over REST: the graphql scope is all GraphQL asks.

func init() {
	gqlNodes["JobTypeCommand"] = func(x *gqlExec, uuid string) any {
		b, j := x.visibleJob(uuid)
		return x.jobObject(b, j)
	}
	gqlMutations["jobTypeCommandCancel"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		b, j := x.visibleJob(uuidOf(in.str("id"), "JobTypeCommand"))
		if j == nil {
			return nil, gqlError("No job found")
		}
		if slices.Contains(jobFinishedStates, j.state) {
			return nil, gqlError("Job can't be canceled because it is " + j.state)
		}
		x.st.setJobState(b, j, jobCanceled, nil)
		return withClientMutationID(in, "JobTypeCommandCancelPayload", map[string]any{"jobTypeCommand": x.jobObject(b, j)}), nil
	}
	gqlMutations["jobTypeCommandRetry"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		b, j := x.visibleJob(uuidOf(in.str("id"), "JobTypeCommand"))
		if j == nil || j.step.block {
			return nil, gqlError("No job found")
		}
		if refusal := jobRetryRefusal(j); refusal != "" {
			return nil, gqlError(refusal)
		}
		x.st.retryJob(b, j)
		_, n := x.st.jobByID(b.org, j.retriedInJobID)
		return withClientMutationID(in, "JobTypeCommandRetryPayload", map[string]any{
			"jobTypeCommand": x.jobObject(b, j), "retriedInJobTypeCommand": x.jobObject(b, n),
		}), nil
	}
}

// visibleJob finds the job with this UUID in an organization the token sees.
func (x *gqlExec) visibleJob(uuid string) (*buildRecord, *jobRecord) {
	for slug := range x.tok.orgs {
		if b, j := x.st.jobByID(slug, strings.ToLower(uuid)); j != nil {
			return b, j
		}
	}
	return nil, nil
}

// gqlJobState is a REST job state as GraphQL's JobStates says it.
func gqlJobState(state string) string {
	if state == jobPassed || state == jobFailed {
		return "FINISHED"
	}
	return strings.ToUpper(state)
}

// jobObject is the JobTypeCommand of j, or nil.
func (x *gqlExec) jobObject(b *buildRecord, j *jobRecord) any {
	if j == nil || j.step.block { // a block job is a JobTypeBlock, which the emulator does not serve
		return nil
	}
	p := x.st.pipelineByID(b.org, b.pipelineID)
	if p == nil {
		return nil
	}
	var exit any
	if j.exitStatus != nil {
		exit = strconv.Itoa(*j.exitStatus)
	}
	fields := map[string]any{
		"id": j.graphqlID, "uuid": j.id, "label": nilIfEmpty(j.step.label), "command": j.step.command,
		"state": gqlJobState(j.state), "passed": j.state == jobPassed, "exitStatus": exit,
		"url":       webURL(x.base, b.org, p.slug, "builds", strconv.Itoa(b.number)) + "#" + j.id,
		"createdAt": formatTime(j.createdAt), "startedAt": gqlTime(j.startedAt), "finishedAt": gqlTime(j.finishedAt),
		"retried": j.retried, "retriesCount": j.retriesCount,
	}
	x.jobPlacement(b, j, fields)
	return gqlObject{typ: "JobTypeCommand", fields: fields}
}

// gqlTime is a DateTime, or nil for the zero time.
func gqlTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return formatTime(t)
}

// nilIfEmpty is s, or nil for "".
func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
