//go:build !unix

package stream

func umask() uint32 { return 0o022 }
