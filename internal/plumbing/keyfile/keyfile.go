// Package keyfile writes a new key file that several processes starting
// at once may race to create: exactly one key wins, and no process ever
// reads a file being written.
package keyfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Create writes data to a new file at path with mode 0600, unless path
// exists. It writes a file of its own in path's directory, then links it
// at path, which fails when path exists: a process starting at the same
// moment finds either no file or the whole key. On a filesystem without
// hard links it falls back to creating path exclusively (O_EXCL), where a
// reader may, for an instant, see the file before its bytes. exists is
// true when path was there already (another process won): read it.
func Create(path string, data []byte) (exists bool, err error) {
	f, err := os.CreateTemp(filepath.Dir(path), ".key-*.pem")
	if err != nil {
		return false, fmt.Errorf("write key file: %w", err)
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return false, fmt.Errorf("write key file: %w", err)
	}
	if err := f.Close(); err != nil {
		return false, fmt.Errorf("write key file: %w", err)
	}
	err = os.Link(f.Name(), path)
	switch {
	case errors.Is(err, fs.ErrExist):
		return true, nil
	case errors.Is(err, syscall.EPERM), errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.ENOSYS):
		return createExclusive(path, data)
	case err != nil:
		return false, fmt.Errorf("write key file: %w", err)
	}
	return false, nil
}

// createExclusive writes data to path, created with O_EXCL and mode 0600.
func createExclusive(path string, data []byte) (bool, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("write key file: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return false, fmt.Errorf("write key file: %w", err)
	}
	return false, f.Close()
}
