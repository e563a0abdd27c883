package fakeserver

import "slices"

// GraphQL for what Buildkite's CLI lists an organization's jobs by (bk job list --queue, and its
// FindClusters and FindQueuesForCluster queries): Organization.clusters, Cluster.queues and
// Organization.jobs(state:, clusterQueue:, agentQueryRules:), over the records of clusters.go,
// cluster_queues.go and builds.go, with a job's cluster, queue and agent.
//
// Choices where the facts are silent (I): block jobs (JobTypeBlock) are left out; jobs come newest build first, each build's jobs in step order,
// retried executions included; clusterQueue takes queues' GraphQL IDs or UUIDs; a job matches
// agentQueryRules when its step has every rule given. A job's agent is the connected agent that took it
// (agents.go) or the emulator's stand-in for one (builds.go), whose hostname is <name>.emulator.local as
// over REST.

func init() {
	gqlOrgFields["clusters"] = func(x *gqlExec, o *orgRecord, args map[string]any) (any, error) {
		clusters := ordered(x.st.clustersOf(o.slug), argString(args, "order"), func(c *clusterRecord) string { return c.name })
		return gqlConnection("ClusterConnection", args, clusters, func(c *clusterRecord) any { return x.clusterObject(c) })
	}
	gqlClusterFields["queues"] = func(x *gqlExec, c *clusterRecord, args map[string]any) (any, error) {
		queues := ordered(x.st.queuesOf(c.id), argString(args, "order"), func(q *queueRecord) string { return q.key })
		return gqlConnection("ClusterQueueConnection", args, queues, func(q *queueRecord) any { return x.queueObject(q) })
	}
	gqlOrgFields["jobs"] = func(x *gqlExec, o *orgRecord, args map[string]any) (any, error) {
		states, queues, rules := argStrings(args, "state"), argStrings(args, "clusterQueue"), argStrings(args, "agentQueryRules")
		for i, q := range queues {
			queues[i] = uuidOf(q, "ClusterQueue")
		}
		var jobs []heldJob
		builds := x.st.builds.builds.list("org:" + o.slug)
		for i := len(builds) - 1; i >= 0; i-- {
			b := builds[i]
			if x.st.pipelineByID(b.org, b.pipelineID) == nil {
				continue
			}
			for _, j := range b.jobs {
				if j.step.block || (len(states) > 0 && !slices.Contains(states, gqlJobState(j.state))) ||
					(len(queues) > 0 && (j.queueID == "" || !slices.Contains(queues, j.queueID))) ||
					slices.ContainsFunc(rules, func(r string) bool { return !slices.Contains(j.step.agentQueryRules, r) }) {
					continue
				}
				jobs = append(jobs, heldJob{b, j})
			}
		}
		return gqlConnection("JobConnection", args, jobs, func(h heldJob) any { return x.jobObject(h.b, h.j) })
	}
}

// argStrings is a list argument of strings (nil when not given).
func argStrings(args map[string]any, key string) []string {
	list, _ := args[key].([]any)
	var out []string
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// jobPlacement adds a job's cluster, queue, agent and agent query rules to its JobTypeCommand fields.
func (x *gqlExec) jobPlacement(b *buildRecord, j *jobRecord, fields map[string]any) {
	fields["cluster"], fields["clusterQueue"], fields["agent"] = nil, nil, nil
	fields["agentQueryRules"] = nonNil(slices.Clone(j.step.agentQueryRules))
	if j.clusterID != "" {
		fields["cluster"] = x.clusterObject(x.st.cluster(b.org, j.clusterID))
		if q := x.st.queue(b.org, j.clusterID, j.queueID); q != nil {
			fields["clusterQueue"] = x.queueObject(q)
		}
	}
	a := j.agent
	if a == nil {
		return
	}
	agent := map[string]any{
		"id": graphQLID("Agent", a.id), "uuid": a.id, "name": a.name, "hostname": a.name + ".emulator.local",
		"version": "3.0.0", "metaData": []string{},
	}
	if r := x.st.agentByID(b.org, a.id); a.seeded && r != nil {
		agent["hostname"], agent["version"] = r.hostname, r.version
		agent["metaData"] = nonNil(slices.Clone(r.metaData))
	}
	fields["agent"] = gqlObject{typ: "Agent", fields: agent}
}
