//go:build !unix

package fakeserver

import (
	"io"
	"os"
)

// lockStateFile opens path+".lock" without locking it where flock(2) does not exist: two emulators on
// one state file are not detected there.
func lockStateFile(path string) (io.Closer, error) {
	return os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
}
