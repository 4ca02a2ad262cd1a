//go:build unix

package stream

import "syscall"

// processUmask is read once, at start-up, before any goroutine could race
// with the two calls that reading it takes.
var processUmask = func() int {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return m
}()

func umask() uint32 { return uint32(processUmask) }
