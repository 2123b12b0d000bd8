package mailtest

import "syscall"

// sysProcAttr makes the kernel kill Mailpit when the test binary dies
// without running its cleanups (a panic in another goroutine, a timeout).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
