//go:build unix

package acctest

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) this process has used: the in-process emulator's share of
// a benchmark phase, since the test itself only waits meanwhile.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
