// Device limits (cudaDeviceSetLimit's): the stack, the heap and the device runtime's depth and pending launches.

package warpsim

import (
	"errors"
	"fmt"

	"github.com/warpsim/warpsim/internal/engine"
)

// Limit is a device limit, as cudaDeviceSetLimit names them.
type Limit int

const (
	LimitStackSize      Limit = 0 // cudaLimitStackSize: bytes of stack per thread
	LimitMallocHeapSize Limit = 2 // cudaLimitMallocHeapSize: bytes of device malloc heap
	// cudaLimitDevRuntimeSyncDepth and cudaLimitDevRuntimePendingLaunchCount:
	// the device runtime's limits, enforced under CDP1 (sm_35 to sm_8x).
	LimitDevRuntimeSyncDepth          Limit = 3
	LimitDevRuntimePendingLaunchCount Limit = 4
)

// ErrLimitFixed is SetLimit of the heap size after a kernel that uses
// malloc or free was launched (CUDA's cudaErrorInvalidValue).
var ErrLimitFixed = errors.New("the malloc heap size cannot change after a kernel that uses malloc or free was launched")

// ErrLimitUnsupported is cudaLimitDevRuntimeSyncDepth on a device without
// device-side synchronization (sm_90 on, or before sm_35): CUDA 13 refuses
// it there with cudaErrorUnsupportedLimit, whatever the program was built
// for (testdata/programs7/diag: sm_90, compute_80 and -rdc=true builds on
// the H100 alike).
var ErrLimitUnsupported = errors.New("the device has no device-side synchronization (CDP1): its sync depth limit is not supported")

// SetLimit sets a device limit for the launches that follow.
func (d *Device) SetLimit(l Limit, v uint64) error {
	switch l {
	case LimitStackSize:
		if v > 1<<31 {
			return fmt.Errorf("stack size %d is too large", v)
		}
		d.stack.Store(int64(v))
	case LimitMallocHeapSize:
		if !d.mem.Heap().SetLimit(v) {
			return ErrLimitFixed
		}
	case LimitDevRuntimeSyncDepth, LimitDevRuntimePendingLaunchCount:
		if l == LimitDevRuntimeSyncDepth && !d.arch.DeviceSideSync() {
			return ErrLimitUnsupported
		}
		return d.setDevRuntimeLimit(l, v)
	default:
		return fmt.Errorf("limit %d is not supported", l)
	}
	return nil
}

// GetLimit reads a device limit.
func (d *Device) GetLimit(l Limit) (uint64, error) {
	switch l {
	case LimitStackSize:
		return uint64(d.stack.Load()), nil
	case LimitMallocHeapSize:
		return d.mem.Heap().Limit(), nil
	case LimitDevRuntimeSyncDepth, LimitDevRuntimePendingLaunchCount:
		if l == LimitDevRuntimeSyncDepth && !d.arch.DeviceSideSync() {
			return 0, ErrLimitUnsupported
		}
		d.devRTMu.Lock()
		v, ok := d.devRT[l]
		d.devRTMu.Unlock()
		switch {
		case ok:
		case l == LimitDevRuntimeSyncDepth:
			v = d.arch.DevRuntimeSyncDepth
		default:
			v = d.arch.DevRuntimePendingLaunches
		}
		return uint64(v), nil
	}
	return 0, fmt.Errorf("limit %d is not supported", l)
}

// minPendingLaunches is the least cudaLimitDevRuntimePendingLaunchCount.
const minPendingLaunches = 32

// setDevRuntimeLimit is SetLimit of the device runtime's limits: later
// launches enforce v instead of the arch's default.
func (d *Device) setDevRuntimeLimit(l Limit, v uint64) error {
	if !d.arch.DynamicParallelism() || v > 1<<31 {
		return fmt.Errorf("limit %d = %d is not valid on %s", l, v, d.arch.Name)
	}
	if l == LimitDevRuntimePendingLaunchCount {
		// The H100 raises 0, 1 and 2 to 32 (they read back as 32:
		// testdata/hostile/h100.txt, cdp_pending); 0 is no "unlimited".
		v = max(v, minPendingLaunches)
	}
	d.devRTMu.Lock()
	defer d.devRTMu.Unlock()
	if d.devRT == nil {
		d.devRT = map[Limit]int{}
	}
	d.devRT[l] = int(v)
	return nil
}

// devRuntimeLimits are the device runtime limits launches enforce: the
// arch's CDP1 figures (or what SetLimit set) on sm_35 to sm_8x. Under CDP2
// (sm_90 on) none is enforced: the H100 ran a chain of 30 nested grids and
// 5000 children of one thread without an error
// (examples/lessons/h100/h100_seed_runs.txt).
func (d *Device) devRuntimeLimits() engine.DevRTLimits {
	a := d.arch
	if !a.DeviceSideSync() {
		return engine.DevRTLimits{MaxThreadsPerBlock: a.MaxThreadsPerBlock, MaxSharedPerBlock: a.SharedPerBlock}
	}
	lim := engine.DevRTLimits{MaxDepth: a.DevRuntimeMaxDepth, SyncDepth: a.DevRuntimeSyncDepth, PendingLaunches: a.DevRuntimePendingLaunches,
		MaxThreadsPerBlock: a.MaxThreadsPerBlock, MaxSharedPerBlock: a.SharedPerBlock}
	d.devRTMu.Lock()
	defer d.devRTMu.Unlock()
	if v, ok := d.devRT[LimitDevRuntimeSyncDepth]; ok {
		lim.SyncDepth = v
	}
	if v, ok := d.devRT[LimitDevRuntimePendingLaunchCount]; ok {
		lim.PendingLaunches = v
	}
	return lim
}
