//go:build !unix

package acctest

import "time"

// ProcessCPU is not measured here: the benchmark prints 0 for the emulator's CPU.
func ProcessCPU() time.Duration { return 0 }
