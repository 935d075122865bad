//go:build linux

package hostmem

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// Populate maps the whole pages of s's memory now, written as zeros, with
// one call (MADV_POPULATE_WRITE, Linux 5.14) instead of a page fault for
// each page at its first write: on a virtual machine a fault costs tens of
// microseconds and populating a page a tenth of that. It is for fresh
// buffers the caller is about to write all of (a block's register files);
// pages already mapped stay as they are, and where the kernel cannot do it
// nothing happens (the pages fault in as before). Their contents never
// change.
func Populate[T any](s []T) {
	n := uintptr(len(s)) * unsafe.Sizeof(*new(T))
	if n < populateMin {
		return
	}
	const page = 4096
	base := unsafe.Pointer(unsafe.SliceData(s))
	start := uintptr(base)
	lo := (start + page - 1) &^ (page - 1)
	hi := (start + n) &^ (page - 1)
	if hi <= lo {
		return
	}
	unix.Madvise(unsafe.Slice((*byte)(unsafe.Add(base, lo-start)), hi-lo), unix.MADV_POPULATE_WRITE)
}

// adviseHuge asks the kernel to back s's memory (whole huge pages, as
// Slab allocates) with transparent huge pages when it is first touched or
// populated; where it cannot, s keeps 4 KiB pages. Its contents never
// change.
func adviseHuge(s []uint64) {
	if len(s) == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*8)
	unix.Madvise(b, unix.MADV_HUGEPAGE)
}
