package source

import "syscall"

// mapPopulate has Linux fill the whole mapping in one call, not a page fault
// per 4 KiB page as the index is read.
const mapPopulate = syscall.MAP_POPULATE
