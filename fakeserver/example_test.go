package fakeserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// Start an emulator on a free port, seed it, call it as any Buildkite client would, inspect its store,
// and put it back to its seeded state. In a test, fakeserver.StartTest(t, opts) does the same and stops
// the emulator when the test ends.
func Example() {
	emu, err := fakeserver.Start(fakeserver.Options{Org: "acme", Token: "secret", SeedDefaults: true})
	if err != nil {
		panic(err)
	}
	defer func() { _ = emu.Close() }()
	emu.Store().AddOrg("second", "Second Org") // seed more than the options do

	req, _ := http.NewRequest(http.MethodGet, emu.URL()+"/v2/organizations/acme/clusters", nil)
	req.Header.Set("Authorization", "Bearer "+emu.Token())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	var clusters []struct{ ID, Name string }
	_ = json.NewDecoder(resp.Body).Decode(&clusters)
	_ = resp.Body.Close()
	fmt.Println(resp.StatusCode, clusters[0].Name)

	// Delete it behind the client's back, as "deleted outside" tests do, then reset.
	fmt.Println(emu.Store().Remove(fakeserver.KindCluster, "acme", clusters[0].ID))
	fmt.Println(emu.Store().Exists(fakeserver.KindCluster, "acme", clusters[0].ID))
	if err := emu.Reset(); err != nil {
		panic(err)
	}
	fmt.Println(emu.Store().Exists(fakeserver.KindCluster, "acme", clusters[0].ID))

	for _, v := range emu.Env() {
		if v.Name == "BUILDKITE_ORGANIZATION_SLUG" {
			fmt.Println(v.Name + "=" + v.Value)
		}
	}
	// Output:
	// 200 Default cluster
	// true
	// false
	// true
	// BUILDKITE_ORGANIZATION_SLUG=acme
}
