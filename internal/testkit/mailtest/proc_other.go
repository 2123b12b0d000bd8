//go:build !linux

package mailtest

import "syscall"

// sysProcAttr has nothing to add outside Linux: Mailpit is stopped by the
// test's cleanup.
func sysProcAttr() *syscall.SysProcAttr { return nil }
