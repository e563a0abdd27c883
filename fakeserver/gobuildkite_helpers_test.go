package fakeserver

import (
	gbk "github.com/buildkite/go-buildkite/v4"
)

// goBuildkite returns the official Go client, unchanged, talking to this environment's emulator with
// the default token.
func (e *testEnv) goBuildkite() *gbk.Client {
	e.t.Helper()
	c, err := gbk.NewOpts(gbk.WithBaseURL(e.ts.URL+"/"), gbk.WithTokenAuth("test-token"), gbk.WithHTTPClient(e.ts.Client()))
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}
