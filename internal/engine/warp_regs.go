// Register files: where a block's warps' files lie (one buffer, staggered by cache lines) and the launch's slab.

package engine

import (
	"runtime"
	"unsafe"

	"github.com/warpsim/warpsim/internal/hostmem"
	"github.com/warpsim/warpsim/internal/ir"
)

// zeroedRegs marks a pooled register file that is all zeros and belongs to
// no function yet (regPoolFn): pushFrame need not clear it.
var zeroedRegs = new(ir.Func)

// callArenaBytes is the most a block's warps' register files for a called
// function take in one buffer (placeRegs at a call depth): beyond it the
// calling warp gets a file of its own, since its block's other warps may
// never make the call.
const callArenaBytes = 256 << 10

// placeRegs gives the warps of ws (the block's, from its warp from on, in
// index order) that lack it room at call depth d (0: the kernel) for a
// register file of need uint64s, in one buffer for all of them. Until the
// thirteenth round every warp's file was an allocation of its own with a
// 4 KiB pad (the cuda::barrier grid of testdata/timing/parallel3: 8,448
// resident warps of 32,000 bytes in buffers of 36 KiB, 341 of its
// process's 448 MB), which the SMs' threads made and first touched at
// once, their page faults contending in the kernel (testdata/timing/parallel/JOURNAL.md);
// a block's warps now take one allocation with no pad between them.
//
// Each warp's file starts at its index times an odd number of cache lines
// (regLines) from the buffer's first, so the same slot of 64 consecutive
// warps falls on 64 distinct lines modulo 4 KiB: in distinct sets of a
// 4 KiB-periodic L1 data cache. Go's allocator gives buffers of 4 KiB and
// more 4 KiB-aligned, so files of a multiple of 4 KiB, or a warp each at
// the same place in its own buffer, would put the same slot of every warp
// in the same sets, and a block's warps taking turns (a barrier every few
// instructions) would evict each other's registers: 8 warps of
// sharedReducePTX on 8 ways, about four L1 misses per warp instruction in
// cachegrind. The buffer's first file starts where the worker's place in
// the order workers were made (seq) continues that count, so the blocks
// resident on an SM do not line their warps up either: at most 63 lines
// of pad per buffer. Only where data lies changes.
func (w *worker) placeRegs(ws []*warp, from, d, need int) {
	lo, hi := -1, -1
	for i, wp := range ws {
		for len(wp.regPool) <= d {
			wp.regPool = append(wp.regPool, nil)
			wp.regPoolFn = append(wp.regPoolFn, nil)
			wp.regPoolOff = append(wp.regPoolOff, 0)
		}
		if cap(wp.regPool[d])-wp.regPoolOff[d] < need {
			if lo < 0 {
				lo = i
			}
			hi = i
		}
	}
	if lo < 0 {
		return
	}
	if d == 0 {
		// A kernel's: every warp of the block anew, in the worker's
		// buffer for them (regBuf) when it has room: kept from grid to
		// grid, as the worker is (keepSlots). The pool's other warps
		// lose theirs, which may lie where these now do.
		lo, hi = 0, len(ws)-1
		for _, wp := range w.pool[len(ws):] {
			if len(wp.regPool) > 0 {
				wp.regPool[0], wp.regPoolFn[0] = nil, nil
			}
		}
	}
	lines := regLines(need)
	stride := lines * 8
	size := (hi-lo+1)*stride + 63*8 + 7
	var buf []uint64
	mark := zeroedRegs
	if d == 0 && cap(w.regBuf) >= size {
		buf, mark = w.regBuf[:size], nil // (pushFrame clears a file it takes)
	} else {
		// An eighth more room than this kernel needs, for a later one
		// with a few more slots (the stream copy's init_f32 and copy_k:
		// 26 and 27); pages never written cost no memory.
		buf = w.l.regBuffer(size, size+size/8) // zeroed
		hostmem.Populate(buf)
		if d == 0 {
			w.regBuf = buf
		}
	}
	first := (8 - int(uintptr(unsafe.Pointer(unsafe.SliceData(buf)))%64/8)) % 8
	first += (w.seq%64*len(w.blk.warps) + from + lo) * lines % 64 * 8
	for i, wp := range ws[lo : hi+1] {
		if d == 0 || cap(wp.regPool[d])-wp.regPoolOff[d] < need {
			o := first + i*stride
			wp.regPool[d], wp.regPoolOff[d], wp.regPoolFn[d] = buf[o:o+stride:o+stride], 0, mark
		}
	}
}

// regSlab is where a launch on several threads allocates register files:
// huge pages, where the host gives them (hostmem.Slab).
var regSlab hostmem.Slab

// hugeRegsThreads is the fewest threads (workers, and the host's CPUs) a
// launch runs on for its register files to come from regSlab. Threads that
// first touch their blocks' files at once fault in 4 KiB pages contending
// in the kernel: on 8 workers of the 16-core device machine huge pages cut
// a process's faults by a quarter to two thirds and, on three grids of
// four, its system time by about a third (testdata/timing/parallel10). On
// one thread they brought nothing measured there, and on the 2-core VM
// the same first touch takes more system time in huge pages than in small
// ones (docs/testing.md).
const hugeRegsThreads = 4

// regBuffer allocates a zeroed buffer of n words, capacity c, for register
// files: from regSlab when the launch runs on hugeRegsThreads or more.
func (l *launch) regBuffer(n, c int) []uint64 {
	wk := l.cfg.Workers
	if wk <= 0 {
		wk = runtime.GOMAXPROCS(0)
	}
	if wk >= hugeRegsThreads && runtime.NumCPU() >= hugeRegsThreads {
		return regSlab.Words(n, c)
	}
	return make([]uint64, n, c)
}

// regLines is the cache lines (of 64 bytes) a register file of need
// uint64s takes in its buffer (placeRegs): rounded up to an odd number, so
// that the files of 64 consecutive warps start at 64 distinct lines
// modulo 4 KiB.
func regLines(need int) int {
	return (need+7)/8 | 1
}
