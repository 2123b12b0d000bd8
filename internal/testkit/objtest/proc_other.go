//go:build !linux

package objtest

import "syscall"

// sysProcAttr has nothing to add outside Linux: versitygw is stopped by the
// test's cleanup.
func sysProcAttr() *syscall.SysProcAttr { return nil }
