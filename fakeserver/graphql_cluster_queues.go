package fakeserver

// GraphQL for a queue's removal and its dispatch: clusterQueueDelete, clusterQueuePauseDispatch (with an
// optional note) and clusterQueueResumeDispatch, over the REST records and rules of cluster_queues.go (a
// paused queue cannot be paused again, nor a running one resumed, in REST's words).
//
// Choices where the facts are silent (I): the three need an administrator of the queue's organization;
// clusterQueueDelete answers the deleted queue's node ID and, as over REST, leaves a cluster whose default
// queue it was without one; the pause and resume inputs name no organization, so an unknown queue and a
// queue of an organization the token does not see are both "No cluster queue found".

func init() {
	gqlMutations["clusterQueueDelete"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		q, err := x.adminClusterQueue(in)
		if err != nil {
			return nil, err
		}
		x.st.deleteQueue(q)
		return withClientMutationID(in, "ClusterQueueDeletePayload", map[string]any{"deletedClusterQueueId": q.graphqlID}), nil
	}
	gqlMutations["clusterQueuePauseDispatch"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		q, err := x.adminQueue(in)
		if err != nil {
			return nil, err
		}
		body := gqlBody(in, "note")
		note := body.String("note")
		if problems := body.Problems(); len(problems) > 0 {
			return nil, gqlValidation(problems)
		}
		if err := x.st.pauseDispatch(q, x.user.id, note.Value); err != nil {
			return nil, gqlFromREST(err)
		}
		return withClientMutationID(in, "ClusterQueuePauseDispatchPayload", map[string]any{"queue": x.queueObject(q)}), nil
	}
	gqlMutations["clusterQueueResumeDispatch"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		q, err := x.adminQueue(in)
		if err != nil {
			return nil, err
		}
		if err := resumeDispatch(q); err != nil {
			return nil, gqlFromREST(err)
		}
		return withClientMutationID(in, "ClusterQueueResumeDispatchPayload", map[string]any{"queue": x.queueObject(q)}), nil
	}
}

// adminQueue returns the queue a mutation's id names when the token sees its organization and the user
// administers it.
func (x *gqlExec) adminQueue(in gqlInput) (*queueRecord, error) {
	q, ok := x.st.clusters.queues.get(uuidOf(in.str("id"), "ClusterQueue"))
	if !ok || !x.tok.orgs[q.org] {
		return nil, gqlError("No cluster queue found")
	}
	if !x.st.isAdmin(q.org, x.user.id) {
		return nil, gqlError("Forbidden: only an administrator of the organization may do this")
	}
	return q, nil
}

// gqlFromREST is a REST refusal as a GraphQL error, in the same words.
func gqlFromREST(err *apiError) error { return gqlError(err.body.(messageBody).Message) }
