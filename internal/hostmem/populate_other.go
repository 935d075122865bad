//go:build !linux

package hostmem

// Populate does nothing here: the pages fault in at their first write.
func Populate[T any](s []T) {}

// adviseHuge does nothing here.
func adviseHuge(s []uint64) {}
