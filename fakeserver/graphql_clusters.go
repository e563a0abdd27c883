package fakeserver

import (
	"encoding/json"
	"slices"
	"strings"
)

// GraphQL for clusters and queues (https://buildkite.com/docs/apis/graphql/cookbooks/clusters,
// https://buildkite.com/docs/apis/graphql/cookbooks/hosted-agents) over the REST area's records (clusters.go,
// cluster_queues.go, queues_hosted.go): node(id:) on Cluster and ClusterQueue, and clusterQueueCreate and
// clusterQueueUpdate with hostedAgents, whose platformSettings.macos { xcodeVersion macosVersion } only
// GraphQL sets and reads. The REST checks apply: the key's rules and uniqueness, retryAgentAffinity, the
// shape's machine type and architecture fixed after create (applyHostedUpdate), no image on a macOS queue.
// The instance shape's details come from the REST shape table; its size from the table's size column.
//
// Choices where the facts are silent (I): errors are the REST "Validation failed: …" sentences; create
// takes platformSettings.linux.agentImageRef in the same call (the service's GraphQL does; REST drops it);
// macos settings on a Linux shape are refused; an update's macos object changes the fields it names (null
// clears); the mutations need an organization administrator.

// hostedShapeSizes is HostedAgentInstanceShape.size by shape (the sizes of
// https://buildkite.com/docs/apis/graphql/schemas/enum/hostedagentsize).
var hostedShapeSizes = map[string]string{
	"LINUX_AMD64_2X4": "SMALL", "LINUX_AMD64_4X16": "MEDIUM", "LINUX_AMD64_8X32": "LARGE",
	"LINUX_AMD64_16X64": "EXTRA_LARGE", "LINUX_AMD64_32X128": "EXTRA_EXTRA_LARGE", "LINUX_AMD64_64X256": "THREE_XL",
	"LINUX_ARM64_2X4": "SMALL", "LINUX_ARM64_4X16": "MEDIUM", "LINUX_ARM64_8X32": "LARGE",
	"LINUX_ARM64_16X64": "EXTRA_LARGE", "LINUX_ARM64_32X128": "EXTRA_EXTRA_LARGE", "LINUX_ARM64_64X256": "THREE_XL",
	"MACOS_ARM64_M4_6X28": "MEDIUM", "MACOS_ARM64_M4_12X56": "LARGE",
}

func init() {
	gqlNodes["ClusterQueue"] = func(x *gqlExec, uuid string) any {
		if q, ok := x.st.clusters.queues.get(uuid); ok && x.tok.orgs[q.org] {
			return x.queueObject(q)
		}
		return nil
	}
	gqlMutations["clusterQueueCreate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		org, err := x.adminOrg(in.str("organizationId"))
		if err != nil {
			return nil, err
		}
		c := x.st.cluster(org.slug, uuidOf(in.str("clusterId"), "Cluster"))
		if c == nil {
			return nil, gqlError("No cluster found")
		}
		var problems validationErrors
		key := in.str("key")
		switch {
		case key == "":
			problems.addBlank("key")
		case len(key) > queueKeyMaxLen:
			problems.add("key", tooLong(queueKeyMaxLen, "characters"))
		case !queueKeyPattern.MatchString(key):
			problems.add("key", "must start with a letter or digit and contain only letters, digits, hyphens and underscores")
		case x.st.queueByKey(c.id, key) != nil:
			problems.add("key", "has already been taken")
		}
		affinity := gqlOpt(in, "retryAgentAffinity")
		checkEnum(&problems, "retry_agent_affinity", affinity, retryAgentAffinities)
		var hosted *hostedQueue
		if h := in.object("hostedAgents"); h != nil {
			hosted = &hostedQueue{shape: h.str("instanceShape")}
			applyPlatformSettings(hosted, h.object("platformSettings"), &problems)
		}
		if len(problems) > 0 {
			return nil, gqlValidation(problems)
		}
		id := newID()
		q := &queueRecord{
			seq: x.st.nextSeq(), org: org.slug, clusterID: c.id, id: id, graphqlID: graphQLID("ClusterQueue", id),
			key: key, desc: in.str("description"), retryAgentAffinity: orDefault(affinity.Value, retryAgentAffinities[0]),
			hosted: hosted, createdAt: x.st.timestamp(), createdBy: x.user.id,
		}
		x.st.addQueue(q)
		return withClientMutationID(in, "ClusterQueueCreatePayload", map[string]any{"clusterQueue": x.queueObject(q)}), nil
	}
	gqlMutations["clusterQueueUpdate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		q, err := x.adminClusterQueue(in)
		if err != nil {
			return nil, err
		}
		var problems validationErrors
		affinity := gqlOpt(in, "retryAgentAffinity")
		checkEnum(&problems, "retry_agent_affinity", affinity, retryAgentAffinities)
		if len(problems) > 0 {
			return nil, gqlValidation(problems)
		}
		if h := in.object("hostedAgents"); h != nil {
			if err := x.updateHosted(q, h); err != nil {
				return nil, err
			}
		}
		if in.has("description") {
			q.desc = in.str("description")
		}
		if affinity.Given() {
			q.retryAgentAffinity = affinity.Value
		}
		return withClientMutationID(in, "ClusterQueueUpdatePayload", map[string]any{"clusterQueue": x.queueObject(q)}), nil
	}
}

// Clusters over GraphQL: clusterCreate, clusterUpdate (its defaultQueueId sets the default queue, null
// clears it; its agentTracingServiceUuid selects the OpenTelemetry tracing service, null or "" clears it) and clusterDelete, Organization.cluster(id:) and Organization.clusters(order:), with the REST
// checks (addCluster, changeCluster) and the REST "Validation failed: …" sentences.
//
// Choices where the facts are silent (I): Organization.cluster takes the cluster's UUID (what the
// official sends) or its node ID; clusterDelete answers the deleted cluster's node ID, and removes its
// queues and tokens as REST's delete does; order NAME sorts by name ignoring case, RECENTLY_CREATED puts
// the newest first, and no order keeps creation order.
func init() {
	gqlNodes["Cluster"] = func(x *gqlExec, uuid string) any {
		if c, ok := x.st.clusters.clusters.get(uuid); ok && x.tok.orgs[c.org] {
			return x.clusterObject(c)
		}
		return nil
	}
	gqlOrgFields["cluster"] = func(x *gqlExec, o *orgRecord, args map[string]any) (any, error) {
		id := argString(args, "id")
		if uuid := uuidOf(id, "Cluster"); uuid != "" {
			id = uuid
		}
		return x.clusterObject(x.st.cluster(o.slug, strings.ToLower(id))), nil
	}
	gqlMutations["clusterCreate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		org, err := x.adminOrg(in.str("organizationId"))
		if err != nil {
			return nil, err
		}
		c, problems := x.st.addCluster(org.slug, x.user.id, gqlBody(in, "name", "description", "emoji", "color"))
		if len(problems) > 0 {
			return nil, gqlValidation(problems)
		}
		return withClientMutationID(in, "ClusterCreatePayload", map[string]any{"cluster": x.clusterObject(c)}), nil
	}
	gqlMutations["clusterUpdate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		c, err := x.adminCluster(in)
		if err != nil {
			return nil, err
		}
		body := gqlBody(in, "name", "description", "emoji", "color")
		if in.has("defaultQueueId") {
			// A node ID names the queue; anything else is kept as sent, so that it names no queue.
			queue := in.str("defaultQueueId")
			if uuid := uuidOf(queue, "ClusterQueue"); uuid != "" {
				queue = uuid
			}
			body.raw["default_queue_id"] = jsonValue(queue, in["defaultQueueId"] == nil)
		}
		tracing, err := x.agentTracingService(c, in)
		if err != nil {
			return nil, err
		}
		if problems := x.st.changeCluster(c, body); len(problems) > 0 {
			return nil, gqlValidation(problems)
		}
		if in.has("agentTracingServiceUuid") {
			c.agentTracingServiceID = tracing
		}
		return withClientMutationID(in, "ClusterUpdatePayload", map[string]any{"cluster": x.clusterObject(c)}), nil
	}
	gqlMutations["clusterDelete"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		c, err := x.adminCluster(in)
		if err != nil {
			return nil, err
		}
		x.st.deleteCluster(c)
		return withClientMutationID(in, "ClusterDeletePayload", map[string]any{"deletedClusterId": c.graphqlID}), nil
	}
}

// agentTracingService checks clusterUpdate's agentTracingServiceUuid: null or "" clears the selection; any
// other value must be the UUID of an enabled open_telemetry_tracing notification service of the cluster's
// organization that covers every pipeline and has no branch filter (the input's description: "an enabled,
// unrestricted OpenTelemetry notification service"). The service's wording is not documented: (I).
func (x *gqlExec) agentTracingService(c *clusterRecord, in gqlInput) (string, error) {
	id := in.str("agentTracingServiceUuid")
	if id == "" {
		return "", nil
	}
	n := x.st.notificationService(c.org, id)
	switch {
	case n == nil || n.id != id:
		return "", gqlError("Agent tracing service " + id + " is not a notification service of this organization")
	case n.provider != "open_telemetry_tracing":
		return "", gqlError("Agent tracing service " + id + " is a " + n.provider + " notification service, not an OpenTelemetry tracing one")
	case !n.enabled || n.scope != "all" || n.branchConfiguration != "":
		return "", gqlError("Agent tracing service " + id + " must be enabled, cover all pipelines and have no branch filter")
	}
	return id, nil
}

// adminClusterQueue returns the queue a mutation's id names in the organization its organizationId names,
// which the token's user must administer.
func (x *gqlExec) adminClusterQueue(in gqlInput) (*queueRecord, error) {
	org, err := x.adminOrg(in.str("organizationId"))
	if err != nil {
		return nil, err
	}
	q, ok := x.st.clusters.queues.get(uuidOf(in.str("id"), "ClusterQueue"))
	if !ok || q.org != org.slug {
		return nil, gqlError("No cluster queue found")
	}
	return q, nil
}

// adminCluster returns the cluster a mutation's id names in the organization its organizationId names,
// which the token's user must administer.
func (x *gqlExec) adminCluster(in gqlInput) (*clusterRecord, error) {
	org, err := x.adminOrg(in.str("organizationId"))
	if err != nil {
		return nil, err
	}
	c := x.st.cluster(org.slug, uuidOf(in.str("id"), "Cluster"))
	if c == nil {
		return nil, gqlError("No cluster found")
	}
	return c, nil
}

// gqlBody is a mutation's input as the REST body it stands for, so that one set of checks serves both
// APIs: each named input field that was given (null included) becomes the REST property of the same name
// in snake case ("allowedIpAddresses" is "allowed_ip_addresses").
func gqlBody(in gqlInput, names ...string) *jsonObject {
	body := &jsonObject{raw: map[string]json.RawMessage{}}
	for _, name := range names {
		if v, ok := in[name]; ok {
			raw, _ := json.Marshal(v) // input values are strings, numbers, booleans, lists and objects
			body.raw[snakeCase(name)] = raw
		}
	}
	return body
}

// jsonValue is s as a JSON string, or null.
func jsonValue(s string, null bool) json.RawMessage {
	if null {
		return json.RawMessage("null")
	}
	raw, _ := json.Marshal(s)
	return raw
}

// snakeCase turns a GraphQL input field's name into the REST property's: "allowedIpAddresses" becomes
// "allowed_ip_addresses".
func snakeCase(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// gqlValidation is the error of a refused change: the REST message, "Validation failed: <reason>, …".
func gqlValidation(problems validationErrors) error {
	return gqlError("Validation failed: " + strings.Join(problems.sentences(), ", "))
}

// ordered returns items in the order a connection's order argument names: byName (NAME or KEY) sorts by
// the name ignoring case, RECENTLY_CREATED puts the newest first; no order keeps creation order. items
// is not changed.
func ordered[T any](items []T, order string, name func(T) string) []T {
	switch order {
	case "NAME", "KEY":
		out := slices.Clone(items)
		slices.SortStableFunc(out, func(a, b T) int { return strings.Compare(strings.ToLower(name(a)), strings.ToLower(name(b))) })
		return out
	case "RECENTLY_CREATED":
		out := slices.Clone(items)
		slices.Reverse(out)
		return out
	}
	return items
}

// gqlOpt reads a String input field as the REST checks take it.
func gqlOpt(in gqlInput, key string) opt[string] {
	v, set := in.optStr(key)
	o := opt[string]{Set: set, Null: set && v == nil}
	if v != nil {
		o.Value = *v
	}
	return o
}

// applyPlatformSettings applies a create's platformSettings to h: the Linux image on a Linux shape, the
// macOS settings on a macOS shape; the other pairing is a problem.
func applyPlatformSettings(h *hostedQueue, ps gqlInput, problems *validationErrors) {
	if ps == nil {
		return
	}
	mac := instanceShapes[h.shape].machineType == "macos"
	if linux := ps.object("linux"); linux != nil {
		ref, _ := linux.optStr("agentImageRef")
		switch {
		case ref != nil && mac:
			problems.add("agent_image_ref", "cannot be configured for hosted mac queues")
		case ref != nil && strings.TrimSpace(*ref) != "":
			h.agentImageRef = ref
		}
	}
	if macos := ps.object("macos"); macos != nil {
		if !mac && (macos.str("xcodeVersion") != "" || macos.str("macosVersion") != "") {
			problems.add("xcode_version", "cannot be configured for hosted Linux queues")
			return
		}
		if macos.has("xcodeVersion") {
			h.xcodeVersion = macos.str("xcodeVersion")
		}
		if macos.has("macosVersion") {
			h.macosVersion = macos.str("macosVersion")
		}
	}
}

// updateHosted applies an update's hostedAgents to q: the shape and Linux image through the REST rules
// (applyHostedUpdate), then the macOS settings. Nothing changes on a refusal.
func (x *gqlExec) updateHosted(q *queueRecord, h gqlInput) error {
	ps := h.object("platformSettings")
	linux := ps.object("linux")
	if h.has("agentImageRef") && linux.has("agentImageRef") {
		return gqlError("Validation failed: agentImageRef and platformSettings.linux.agentImageRef cannot both be given")
	}
	in := hostedAgentsInput{given: true, shape: h.str("instanceShape")}
	image, imageSet := h.optStr("agentImageRef")
	if linux.has("agentImageRef") {
		image, imageSet = linux.optStr("agentImageRef")
	}
	if imageSet {
		in.imageSet = true
		if image != nil && strings.TrimSpace(*image) != "" {
			in.imageRef = image
		}
	}
	if q.hosted != nil {
		// Check the macOS settings against the new shape before anything changes.
		probe := *q.hosted
		probe.shape = in.shape
		var problems validationErrors
		if _, known := instanceShapes[in.shape]; known {
			applyPlatformSettings(&probe, gqlInput{"macos": map[string]any(ps.object("macos"))}, &problems)
		}
		if len(problems) > 0 {
			return gqlValidation(problems)
		}
		if err := applyHostedUpdate(q, in); err != nil {
			return gqlFromREST(err)
		}
		q.hosted.xcodeVersion, q.hosted.macosVersion = probe.xcodeVersion, probe.macosVersion
		return nil
	}
	if err := applyHostedUpdate(q, in); err != nil {
		return gqlFromREST(err)
	}
	return nil
}

// defaultMacOSVersion is the macOS version a macOS queue runs while none is chosen (none sent, or cleared
// with null): the service then selects its current default and reads it back, which the official
// provider's docs say ("Buildkite selects the current default when this is omitted") and its tests rely on
// (a mac block without macos_version reads a version back). Which version is the default is not documented;
// the emulator's choice is the newest of the official provider's list.
const defaultMacOSVersion = "TAHOE"

// clusterObject is a Cluster. Its default queue is resolved when selected (a queue names its cluster).
func (x *gqlExec) clusterObject(c *clusterRecord) any {
	if c == nil {
		return nil
	}
	fields := map[string]any{
		"id": c.graphqlID, "uuid": c.id, "name": c.name, "description": optionalText(c.description),
		"emoji": optionalText(c.emoji), "color": optionalText(c.color),
		"createdBy": x.userObject(c.createdBy), "organization": x.orgObject(x.st.orgs[c.org]),
		"agentTracingServiceUuid": optionalText(c.agentTracingServiceID),
		"defaultQueue": gqlResolver(func(map[string]any) (any, error) {
			if q := x.st.queue(c.org, c.id, c.defaultQueueID); q != nil {
				return x.queueObject(q), nil
			}
			return nil, nil
		}),
	}
	for name, fn := range gqlClusterFields {
		fields[name] = gqlResolver(func(args map[string]any) (any, error) { return fn(x, c, args) })
	}
	return gqlObject{typ: "Cluster", fields: fields}
}

// optionalText is a nullable String field over a record's text, "" when unset: null then.
func optionalText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// gqlClusterFields are Cluster's fields with arguments (its connections), added by other files.
var gqlClusterFields = map[string]func(x *gqlExec, c *clusterRecord, args map[string]any) (any, error){}

// queueObject is a ClusterQueue.
func (x *gqlExec) queueObject(q *queueRecord) any {
	var pausedAt, pausedBy, note any
	description := optionalText(q.desc)
	if q.paused {
		pausedAt, pausedBy, note = formatTime(q.pausedAt), x.userObject(q.pausedBy), optional(q.pausedNote)
	}
	return gqlObject{typ: "ClusterQueue", fields: map[string]any{
		"id": q.graphqlID, "uuid": q.id, "key": q.key, "description": description,
		"cluster": x.clusterObject(x.st.cluster(q.org, q.clusterID)),
		"hosted":  q.hosted != nil, "hostedAgents": x.hostedObject(q.hosted),
		"retryAgentAffinity": q.retryAgentAffinity,
		"dispatchPaused":     q.paused, "dispatchPausedAt": pausedAt, "dispatchPausedBy": pausedBy, "dispatchPausedNote": note,
		"createdBy": x.userObject(q.createdBy),
	}}
}

// hostedObject is a queue's HostedAgentQueueSettings, or nil for a self-hosted queue.
func (x *gqlExec) hostedObject(h *hostedQueue) any {
	if h == nil {
		return nil
	}
	s := instanceShapes[h.shape]
	platform := map[string]any{"linux": nil, "macos": nil}
	if h.isMac() {
		var xcode, macos any
		if h.xcodeVersion != "" {
			xcode = h.xcodeVersion
		}
		macos = defaultMacOSVersion
		if h.macosVersion != "" {
			macos = h.macosVersion
		}
		platform["macos"] = gqlObject{typ: "HostedAgentMacOSSettingsType", fields: map[string]any{"xcodeVersion": xcode, "macosVersion": macos}}
	} else {
		platform["linux"] = gqlObject{typ: "HostedAgentLinuxSettings", fields: map[string]any{"agentImageRef": optional(h.agentImageRef)}}
	}
	return gqlObject{typ: "HostedAgentQueueSettings", fields: map[string]any{
		"instanceShape": gqlObject{typ: "HostedAgentInstanceShape", fields: map[string]any{
			"architecture": strings.ToUpper(s.architecture), "machineType": strings.ToUpper(s.machineType),
			"memory": s.memory, "vcpu": s.cpu, "name": h.shape, "size": hostedShapeSizes[h.shape],
		}},
		"platformSettings": gqlObject{typ: "HostedAgentPlatformSettings", fields: platform},
	}}
}
