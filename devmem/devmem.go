// Package devmem declares where a device's global memory may live other
// than in Go's heap. The public API takes a Backing (warpsim.Options, whose
// Backing is this interface) and the engine allocates from it; the engine
// cannot import the root package and the root may name no internal type, so
// the one declaration lives in this leaf, as metrics holds the counts both
// sides use.
package devmem

// Backing supplies the bytes of global-memory allocations: the CUDA runtime
// keeps them in memory shared with the program, mapped there at the device
// addresses.
type Backing interface {
	// Bytes returns size zeroed bytes for the allocation at base (8-byte
	// aligned, for atomics), or an error when the host cannot back them.
	Bytes(base, size uint64) ([]byte, error)
	// Release is told that the allocation at base is freed.
	Release(base, size uint64)
}
