package fakeserver

// The conformance rows of the areas beyond the first REST reference (pipeline schedules, cluster secrets, cluster
// maintainers, meta); confRows appends them.

func (c *confEnv) schedule() {
	c.once("schedule", func() {
		c.pipeline()
		c.keep("schedule", c.post(orgPath+"/pipelines/{pipeline}/schedules", `{"cronline":"@daily","label":"Nightly"}`), "id")
	})
}

func (c *confEnv) secret() {
	c.once("secret", func() {
		c.cluster()
		c.keep("secret", c.post(orgPath+"/clusters/{cluster}/secrets", `{"key":"CONFORMANCE","value":"v"}`), "id")
	})
}

func (c *confEnv) maintainer() {
	c.once("maintainer", func() {
		c.cluster()
		c.user()
		c.keep("maintainer", c.post(orgPath+"/clusters/{cluster}/maintainers", `{"user":"{user}"}`), "id")
	})
}

func beyondSpecConfRows() []confRow {
	const (
		schedules   = orgPath + "/pipelines/{pipeline}/schedules"
		secrets     = orgPath + "/clusters/{cluster}/secrets"
		maintainers = orgPath + "/clusters/{cluster}/maintainers"
	)
	pipeline := func(c *confEnv) { c.pipeline() }
	schedule := func(c *confEnv) { c.schedule() }
	cluster := func(c *confEnv) { c.cluster() }
	secret := func(c *confEnv) { c.secret() }
	maintainer := func(c *confEnv) { c.maintainer() }
	withUser := func(c *confEnv) { c.cluster(); c.user() }
	valueAbsent := secretAbsent("value")
	return []confRow{
		{area: "schedules", method: "GET", path: schedules, scope: scopeReadPipelines, setup: pipeline, status: 200},
		{area: "schedules", method: "POST", path: schedules, scope: scopeWritePipelines, setup: pipeline,
			body: `{"cronline":"0 3 * * 1-5 Europe/Berlin","label":"Weekdays","env":{"A":"b"}}`, invalid: `{"cronline":"sometimes"}`,
			status: 201, check: fieldNotNull("next_build_at")},
		{area: "schedules", method: "GET", path: schedules + "/{schedule}", scope: scopeReadPipelines, setup: schedule, status: 200},
		{area: "schedules", method: "PATCH", path: schedules + "/{schedule}", scope: scopeWritePipelines, setup: schedule,
			body: `{"label":"Renamed","enabled":false}`, invalid: `{"cronline":"61 * * * *"}`, status: 200, check: fieldNull("next_build_at")},
		{area: "schedules", method: "PUT", path: schedules + "/{schedule}", scope: scopeWritePipelines, setup: schedule,
			body: `{"branch":"release"}`, invalid: `{"branch":""}`, status: 200, check: fieldIs("branch", "release")},
		{area: "schedules", method: "DELETE", path: schedules + "/{schedule}", scope: scopeWritePipelines, setup: schedule, status: 204},

		{area: "secrets", method: "GET", path: secrets, scope: scopeReadClusters, setup: cluster, status: 200},
		{area: "secrets", method: "POST", path: secrets, scope: scopeWriteClusters, setup: cluster,
			body: `{"key":"DEPLOY_KEY","value":"v","policy":"- pipeline_slug: app\n"}`, invalid: `{"key":"bk_key","value":"v"}`,
			status: 201, check: valueAbsent},
		{area: "secrets", method: "GET", path: secrets + "/{secret}", scope: scopeReadClusters, setup: secret, status: 200, check: valueAbsent},
		{area: "secrets", method: "PUT", path: secrets + "/{secret}", scope: scopeWriteClusters, setup: secret,
			body: `{"description":"d"}`, invalid: `{"policy":"{"}`, status: 200, check: valueAbsent},
		{area: "secrets", method: "PATCH", path: secrets + "/{secret}", scope: scopeWriteClusters, setup: secret,
			body: `{"description":"d"}`, invalid: `{"description":5}`, status: 200, check: valueAbsent},
		{area: "secrets", method: "PUT", path: secrets + "/{secret}/value", scope: scopeWriteClusters, setup: secret,
			body: `{"value":"rotated"}`, invalid: `{"value":""}`, status: 200, check: valueAbsent},
		{area: "secrets", method: "DELETE", path: secrets + "/{secret}", scope: scopeWriteClusters, setup: secret, status: 204},

		// An assignment has an ID but no GraphQL ID of its own (its actor has one): the rows are bare.
		{area: "maintainers", method: "GET", path: maintainers, scope: scopeReadClusters, setup: cluster, status: 200, bare: true},
		{area: "maintainers", method: "POST", path: maintainers, scope: scopeWriteClusters, setup: withUser,
			body: `{"user":"{user}"}`, invalid: `{}`, status: 201, bare: true, check: fieldNotNull("actor")},
		{area: "maintainers", method: "GET", path: maintainers + "/{maintainer}", scope: scopeReadClusters, setup: maintainer,
			status: 200, bare: true},
		{area: "maintainers", method: "DELETE", path: maintainers + "/{maintainer}", scope: scopeWriteClusters, setup: maintainer, status: 204},

		// Any valid token, no scope, no organization.
		{area: "meta", method: "GET", path: "/v2/meta", setup: none, status: 200, bare: true, check: fieldNotNull("webhook_ips")},
	}
}
