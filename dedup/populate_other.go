//go:build unix && !linux

package dedup

// mapPopulate is Linux's alone; elsewhere pages are faulted in on first
// touch.
const mapPopulate = 0
