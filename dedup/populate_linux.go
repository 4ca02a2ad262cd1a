package dedup

import "syscall"

// mapPopulate has the kernel fill a new mapping at once: in a virtual
// machine, taking each page's fault on first touch cost more than the
// rehashing itself.
const mapPopulate = syscall.MAP_POPULATE
