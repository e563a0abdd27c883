package acctest

import (
	"context"
	"fmt"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// The objects tests create through the client rather than through Terraform: teams, pipelines and suites
// that a test needs to exist (an association's other side, a data source's results). Each is deleted when
// the test ends, which matters on the real service; the emulator goes away with the test anyway.

// seedTeam creates a team named name.
func (e *TestEnv) SeedTeam(name string) *buildkite.Team {
	e.T.Helper()
	t, err := e.Client.Teams.Create(context.Background(), buildkite.TeamWrite{Name: name, Privacy: "visible", DefaultMemberRole: "member"})
	if err != nil {
		e.T.Fatalf("seeding team %q: %v", name, err)
	}
	e.T.Cleanup(func() { _ = e.Client.Teams.Delete(context.Background(), t.ID) })
	return t
}

// team creates a team named after base and returns its ID.
func (e *TestEnv) Team(base string) string { return e.SeedTeam(e.Name(base)).ID }

// seedPipeline creates a pipeline; without a configuration or a template it runs one command.
func (e *TestEnv) SeedPipeline(in buildkite.PipelineCreate) *buildkite.Pipeline {
	e.T.Helper()
	if in.Configuration == nil && in.PipelineTemplateUUID == nil {
		in.Configuration = PtrTo("steps:\n  - command: make\n")
	}
	if in.Repository == "" {
		in.Repository = "https://github.com/acme/app.git"
	}
	p, err := e.Client.Pipelines.Create(context.Background(), in)
	if err != nil {
		e.T.Fatalf("seeding pipeline %q: %v", in.Name, err)
	}
	e.T.Cleanup(func() { _ = e.Client.Pipelines.Delete(context.Background(), p.Slug) })
	return p
}

// pipelineNamed creates a pipeline named name.
func (e *TestEnv) PipelineNamed(name string) *buildkite.Pipeline {
	return e.SeedPipeline(buildkite.PipelineCreate{Name: name})
}

// seedSuite creates a test suite named name owned by the team owner (organizations with teams enabled
// need one); extra adjusts the request.
func (e *TestEnv) SeedSuite(name, owner string, extra ...func(*buildkite.TestSuiteCreate)) *buildkite.TestSuite {
	e.T.Helper()
	in := buildkite.TestSuiteCreate{Name: name, DefaultBranch: "main", TeamIDs: []string{owner}}
	for _, f := range extra {
		f(&in)
	}
	s, err := e.Client.TestSuites.Create(context.Background(), in)
	if err != nil {
		e.T.Fatalf("seeding suite %q: %v", name, err)
	}
	e.T.Cleanup(func() { _ = e.Client.TestSuites.Delete(context.Background(), s.Slug) })
	return s
}

// secondMemberEmail is the emulator's non-administrator member; live runs use liveMemberEmail.
func (e *TestEnv) SecondMemberEmail() string {
	if e.Live {
		return e.liveMemberEmail()
	}
	return "second-member@example.com"
}

// twoClusters declares clusters "a" and "b", named after base.
func TwoClusters(e *TestEnv, base string) string {
	return fmt.Sprintf(`
resource "buildkite_cluster" "a" {
  name = %q
}

resource "buildkite_cluster" "b" {
  name = %q
}
`, e.Name(base+"-a"), e.Name(base+"-b"))
}

// seedRegistry creates a ruby registry named name, created for the teams teamIDs.
func (e *TestEnv) SeedRegistry(name string, teamIDs ...string) *buildkite.Registry {
	e.T.Helper()
	reg, err := e.Client.Registries.Create(context.Background(), buildkite.RegistryCreate{Name: name, Ecosystem: "ruby", TeamIDs: teamIDs})
	if err != nil {
		e.T.Fatalf("seeding registry %q: %v", name, err)
	}
	e.T.Cleanup(func() { _ = e.Client.Registries.Delete(context.Background(), reg.Slug) })
	return reg
}
