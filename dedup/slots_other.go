//go:build !unix

package dedup

func allocSlots(n int) [][2]uint64 { return make([][2]uint64, n) }

func freeSlots([][2]uint64) {}
