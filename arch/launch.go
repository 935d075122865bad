package arch

import "fmt"

// CUDA error numbers (cudaError_t) that CheckLaunch returns.
const (
	ErrInvalidValue              = 1   // cudaErrorInvalidValue
	ErrLaunchOutOfResources      = 701 // cudaErrorLaunchOutOfResources
	ErrCooperativeLaunchTooLarge = 720 // cudaErrorCooperativeLaunchTooLarge
	ErrInvalidClusterSize        = 912 // cudaErrorInvalidClusterSize
)

// KernelLimits are what a compiled kernel brings to a launch's checks.
type KernelLimits struct {
	Name          string // for the messages
	RegsPerThread int    // 0: unknown, not checked
	StaticShared  int    // bytes of static shared memory per block
	ParamBytes    int    // the size of its parameter buffer
	// ReqNTID and MaxNTID are .reqntid and .maxntid (__launch_bounds__):
	// zero when the kernel has none.
	ReqNTID, MaxNTID [3]int
	// MaxDynamicShared is cudaFuncAttributeMaxDynamicSharedMemorySize: the
	// most dynamic shared memory a launch may ask for. Negative: the
	// default, SharedPerBlock less the static shared memory.
	MaxDynamicShared int
}

// LaunchShape is one launch's configuration.
type LaunchShape struct {
	Grid, Block   [3]uint32
	DynamicShared int
	ParamBytes    int // the size of the parameter buffer passed
	Cooperative   bool
}

// LaunchError is a launch the CUDA driver refuses before any thread runs:
// Code is the cudaError_t it returns, Msg says why in words.
type LaunchError struct {
	Code int
	Msg  string
	// KernelBounds marks a refusal by the kernel's own .reqntid or
	// .maxntid rather than by the device's limits.
	KernelBounds bool
}

func (e *LaunchError) Error() string { return e.Msg }

// CheckLaunch is the driver's check of a launch before it starts, in the
// order the H100 makes them (CUDA 13, driver 580):
//
//   - a zero dimension, a block or grid dimension over the device's limit,
//     or more threads per block than the device allows:
//     cudaErrorInvalidValue, not the cudaErrorInvalidConfiguration older
//     runtimes returned (testdata/programs/error_config.h100.txt);
//   - a cooperative grid with more blocks than can be resident at once
//     (the occupancy calculator's blocks per SM times the SM count):
//     cudaErrorCooperativeLaunchTooLarge, before shared memory is looked at
//     (testdata/coop/coop_limits.h100.txt);
//   - static plus dynamic shared memory over the kernel's limit (48 KiB
//     unless cudaFuncSetAttribute raised it): cudaErrorInvalidValue;
//   - a block whose warps' registers, allocated in the device's units, do
//     not fit one SM (more threads than cudaFuncGetAttributes'
//     maxThreadsPerBlock, MaxThreadsPerBlockFor):
//     cudaErrorLaunchOutOfResources;
//   - a parameter buffer of the wrong size: cudaErrorInvalidValue;
//   - a block the kernel's .reqntid or .maxntid excludes:
//     cudaErrorInvalidValue (CUDA documents cudaErrorLaunchOutOfResources,
//     the H100 returns cudaErrorInvalidValue: error_config.h100.txt).
//
// It returns nil when the launch may go ahead.
func (a *Arch) CheckLaunch(k KernelLimits, l LaunchShape) *LaunchError {
	bad := func(code int, format string, args ...any) *LaunchError {
		return &LaunchError{Code: code, Msg: fmt.Sprintf(format, args...)}
	}
	b, g := l.Block, l.Grid
	dim := func(d [3]uint32) string { return fmt.Sprintf("(%d,%d,%d)", d[0], d[1], d[2]) }
	if b[0] == 0 || b[1] == 0 || b[2] == 0 || g[0] == 0 || g[1] == 0 || g[2] == 0 {
		return bad(ErrInvalidValue, "grid %s and block %s must have no zero dimension", dim(g), dim(b))
	}
	threads := uint64(b[0]) * uint64(b[1]) * uint64(b[2])
	if threads > uint64(a.MaxThreadsPerBlock) {
		return bad(ErrInvalidValue, "block %s has %d threads; %s allows at most %d", dim(b), threads, a.Name, a.MaxThreadsPerBlock)
	}
	for i, v := range b {
		if a.MaxBlockDim[i] > 0 && int64(v) > int64(a.MaxBlockDim[i]) {
			return bad(ErrInvalidValue, "block dimension %c is %d; %s allows at most %d", "xyz"[i], v, a.Name, a.MaxBlockDim[i])
		}
	}
	for i, v := range g {
		if a.MaxGridDim[i] > 0 && int64(v) > int64(a.MaxGridDim[i]) {
			return bad(ErrInvalidValue, "grid dimension %c is %d; %s allows at most %d", "xyz"[i], v, a.Name, a.MaxGridDim[i])
		}
	}
	if l.Cooperative {
		per := a.Occupancy(OccupancyInput{BlockSize: int(threads), RegsPerThread: k.RegsPerThread,
			StaticShared: k.StaticShared, DynamicShared: l.DynamicShared}).BlocksPerSM
		if blocks := uint64(g[0]) * uint64(g[1]) * uint64(g[2]); blocks > uint64(per)*uint64(a.SMs) {
			return bad(ErrCooperativeLaunchTooLarge, "a cooperative grid of %d blocks cannot be resident at once: at most %d (%d per SM on %d SMs): too many blocks in cooperative launch",
				blocks, per*a.SMs, per, a.SMs)
		}
	}
	maxDyn := k.MaxDynamicShared
	if maxDyn < 0 {
		maxDyn = a.SharedPerBlock - k.StaticShared
	}
	if shared := k.StaticShared + l.DynamicShared; l.DynamicShared > maxDyn {
		return bad(ErrInvalidValue, "%d bytes of shared memory per block (%d static + %d dynamic) exceed the kernel's limit of %d (%d dynamic; cudaFuncSetAttribute raises it up to %s's %d)",
			shared, k.StaticShared, l.DynamicShared, k.StaticShared+maxDyn, maxDyn, a.Name, a.SharedPerBlockOptin)
	}
	if k.RegsPerThread > 0 {
		if most := a.MaxThreadsPerBlockFor(k.RegsPerThread); threads > uint64(most) {
			return bad(ErrLaunchOutOfResources, "block %s has %d threads; at %d registers per thread, %s has registers for at most %d: too many resources requested for launch",
				dim(b), threads, k.RegsPerThread, a.Name, most)
		}
	}
	if l.ParamBytes != k.ParamBytes {
		return bad(ErrInvalidValue, "parameter buffer is %d bytes; the kernel takes %d", l.ParamBytes, k.ParamBytes)
	}
	for i, r := range k.ReqNTID {
		if r > 0 && int64(b[i]) != int64(r) {
			e := bad(ErrInvalidValue, "block %s does not match the kernel's .reqntid", dim(b))
			e.KernelBounds = true
			return e
		}
	}
	if mx := k.MaxNTID; mx[0] > 0 {
		if most := uint64(mx[0]) * uint64(max(mx[1], 1)) * uint64(max(mx[2], 1)); threads > most {
			e := bad(ErrInvalidValue, "block %s has %d threads; the kernel's .maxntid allows %d", dim(b), threads, most)
			e.KernelBounds = true
			return e
		}
	}
	return nil
}
