//go:build unix && !linux

package source

// mapPopulate is Linux's alone; elsewhere pages are faulted in as they are read.
const mapPopulate = 0
