package provider

import (
	"context"
	"fmt"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// The objects tests create through the client rather than through Terraform: teams, pipelines and suites
// that a test needs to exist (an association's other side, a data source's results). Each is deleted when
// the test ends, which matters on the real service; the emulator goes away with the test anyway.

// seedTeam creates a team named name.
func (e *testEnv) seedTeam(name string) *buildkite.Team {
	e.t.Helper()
	t, err := e.client.Teams.Create(context.Background(), buildkite.TeamWrite{Name: name, Privacy: "visible", DefaultMemberRole: "member"})
	if err != nil {
		e.t.Fatalf("seeding team %q: %v", name, err)
	}
	e.t.Cleanup(func() { _ = e.client.Teams.Delete(context.Background(), t.ID) })
	return t
}

// team creates a team named after base and returns its ID.
func (e *testEnv) team(base string) string { return e.seedTeam(e.name(base)).ID }

// seedPipeline creates a pipeline; without a configuration or a template it runs one command.
func (e *testEnv) seedPipeline(in buildkite.PipelineCreate) *buildkite.Pipeline {
	e.t.Helper()
	if in.Configuration == nil && in.PipelineTemplateUUID == nil {
		in.Configuration = ptrTo("steps:\n  - command: make\n")
	}
	if in.Repository == "" {
		in.Repository = "https://github.com/acme/app.git"
	}
	p, err := e.client.Pipelines.Create(context.Background(), in)
	if err != nil {
		e.t.Fatalf("seeding pipeline %q: %v", in.Name, err)
	}
	e.t.Cleanup(func() { _ = e.client.Pipelines.Delete(context.Background(), p.Slug) })
	return p
}

// pipelineNamed creates a pipeline named name.
func (e *testEnv) pipelineNamed(name string) *buildkite.Pipeline {
	return e.seedPipeline(buildkite.PipelineCreate{Name: name})
}

// seedSuite creates a test suite named name owned by the team owner (organizations with teams enabled
// need one); extra adjusts the request.
func (e *testEnv) seedSuite(name, owner string, extra ...func(*buildkite.TestSuiteCreate)) *buildkite.TestSuite {
	e.t.Helper()
	in := buildkite.TestSuiteCreate{Name: name, DefaultBranch: "main", TeamIDs: []string{owner}}
	for _, f := range extra {
		f(&in)
	}
	s, err := e.client.TestSuites.Create(context.Background(), in)
	if err != nil {
		e.t.Fatalf("seeding suite %q: %v", name, err)
	}
	e.t.Cleanup(func() { _ = e.client.TestSuites.Delete(context.Background(), s.Slug) })
	return s
}

// secondMemberEmail is the emulator's non-administrator member; live runs use liveMemberEmail.
func (e *testEnv) secondMemberEmail() string {
	if e.live {
		return e.liveMemberEmail()
	}
	return "second-member@example.com"
}

// twoClusters declares clusters "a" and "b", named after base.
func twoClusters(e *testEnv, base string) string {
	return fmt.Sprintf(`
resource "buildkite_cluster" "a" {
  name = %q
}

resource "buildkite_cluster" "b" {
  name = %q
}
`, e.name(base+"-a"), e.name(base+"-b"))
}

// seedRegistry creates a ruby registry named name, created for the teams teamIDs.
func (e *testEnv) seedRegistry(name string, teamIDs ...string) *buildkite.Registry {
	e.t.Helper()
	reg, err := e.client.Registries.Create(context.Background(), buildkite.RegistryCreate{Name: name, Ecosystem: "ruby", TeamIDs: teamIDs})
	if err != nil {
		e.t.Fatalf("seeding registry %q: %v", name, err)
	}
	e.t.Cleanup(func() { _ = e.client.Registries.Delete(context.Background(), reg.Slug) })
	return reg
}
