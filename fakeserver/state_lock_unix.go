//go:build unix

package fakeserver

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// lockStateFile takes an exclusive lock on the state file at path, so that two emulators never share
// one: the second would answer writes that the first's next save erases. The lock is an flock(2) on
// path+".lock" rather than on the state file itself, which every save replaces by a rename (the lock would
// stay on the replaced file). The kernel releases it when the process ends, however it ends, so a lock
// file left behind blocks nobody.
func lockStateFile(path string) (io.Closer, error) {
	lockPath := path + ".lock"
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("locking the state file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s is in use by another emulator (it holds %s): stop that one, or give this one "+
				"another state file", path, lockPath)
		}
		return nil, fmt.Errorf("locking the state file %s: %w", lockPath, err)
	}
	return f, nil
}
