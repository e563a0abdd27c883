// Package cpuprofile lets a provider process profile its own CPU for the wall-time benchmark
// (BENCHMARKS.md): set BUILDKITE_PROVIDER_CPUPROFILE to a directory and every provider process Terraform
// starts writes cpu-<pid>.pprof there. Unset, nothing is profiled.
package cpuprofile

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime/pprof"
)

// EnvDir names the directory profiles are written to.
const EnvDir = "BUILDKITE_PROVIDER_CPUPROFILE"

// Start starts a CPU profile of the process when EnvDir is set, and returns what stops it and writes it
// out; call that when the provider has stopped serving. A profile that cannot be started is logged, not
// fatal: the provider still serves.
func Start() (stop func()) {
	dir := os.Getenv(EnvDir)
	if dir == "" {
		return func() {}
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("cpu-%d.pprof", os.Getpid())))
	if err == nil {
		if err = pprof.StartCPUProfile(f); err != nil {
			_ = f.Close()
		}
	}
	if err != nil {
		log.Printf("[WARN] %s: no CPU profile: %v", EnvDir, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}
