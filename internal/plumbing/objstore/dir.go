package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// Dir keeps receipt images in a local directory (OBJSTORE_DIR): the store
// of the demo and of single-machine installations, with nothing to install.
// It implements payments.ObjectStore like Store. The directory is private
// (mode 0700, files 0600) and never served: images reach clients only
// through the API, as from a bucket.
type Dir struct {
	root string
}

// NewDir returns the store rooted at dir, which it creates (mode 0700) when
// missing. Errors: the directory cannot be made, or dir is not a directory.
func NewDir(dir string) (*Dir, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("object store: %w", err)
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("object store: %w", err)
	}
	fi, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("object store: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("object store: %s is not a directory", root)
	}
	return &Dir{root: root}, nil
}

// Root is the absolute path of the directory.
func (d *Dir) Root() string { return d.root }

// errBadKey refuses a key that would leave the directory or name it
// ambiguously; the payments service never makes one.
var errBadKey = errors.New("object store: invalid key")

// file is the path of key under the root. Keys are slash-separated relative
// paths whose parts are neither empty nor begin with a dot, so none reaches
// outside the root ("..") or names a temporary file of Put (".put-*").
func (d *Dir) file(key string) (string, error) {
	if key == "" || strings.ContainsAny(key, "\\\x00") || slices.ContainsFunc(strings.Split(key, "/"), badPart) {
		return "", fmt.Errorf("%w: %q", errBadKey, key)
	}
	return filepath.Join(d.root, filepath.FromSlash(key)), nil
}

func badPart(part string) bool { return part == "" || strings.HasPrefix(part, ".") }

// Put stores size bytes of body under key, streamed through a temporary
// file in the same directory that is renamed into place once complete and
// synced, so a reader never sees part of an image; the directory is synced
// too, so the new name survives a crash once Put returns. The content type
// is not kept: payments record it with the payment. Errors: an invalid key,
// a body shorter or longer than size, or the file system's error.
func (d *Dir) Put(ctx context.Context, key, _ string, body io.Reader, size int64) error {
	name, err := d.file(key)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), ".put-*")
	if err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing left to remove
	n, err := io.Copy(tmp, io.LimitReader(body, size+1))
	if err == nil && n != size {
		err = fmt.Errorf("body has %d bytes, not %d", n, size)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err == nil {
		err = syncDir(filepath.Dir(name))
	}
	if err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	return nil
}

// syncDir flushes the entries of the directory dir to disk.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Get opens the object under key; the caller closes it. A key that names
// no file, such as a directory of other keys, is not found, as in a bucket.
// Errors: fs.ErrNotExist, an invalid key, or the file system's
// error.
func (d *Dir) Get(_ context.Context, key string) (io.ReadCloser, error) {
	name, err := d.file(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if missing(err) {
		return nil, fmt.Errorf("get %s: %w", key, fs.ErrNotExist)
	}
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", key, err)
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fs.ErrNotExist
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("get %s: %w", key, err)
	}
	return f, nil
}

// Delete removes the object under key; a missing object is not an error,
// and a directory of other keys is no object: it stays.
// Errors: an invalid key, or the file system's error.
func (d *Dir) Delete(_ context.Context, key string) error {
	name, err := d.file(key)
	if err != nil {
		return err
	}
	fi, err := os.Lstat(name)
	if err == nil && !fi.IsDir() {
		err = os.Remove(name)
	}
	if err != nil && !missing(err) {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	return nil
}

// missing reports whether err says that a path names nothing: no such file,
// or a part of it is a file rather than a directory.
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// Keys lists the keys under prefix in lexical order, as Store.Keys does.
// Errors: the file system's error.
func (d *Dir) Keys(_ context.Context, prefix string) ([]string, error) {
	keys := []string{}
	err := filepath.WalkDir(d.root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			return err
		}
		rel, err := filepath.Rel(d.root, p)
		if key := filepath.ToSlash(rel); err == nil && strings.HasPrefix(key, prefix) {
			keys = append(keys, key)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", prefix, err)
	}
	return keys, nil
}
