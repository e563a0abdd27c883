//go:build !unix

package provider

import "time"

// processCPU is not measured here: the benchmark prints 0 for the emulator's CPU.
func processCPU() time.Duration { return 0 }
