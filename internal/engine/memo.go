package engine

// This file is launch replay: a launch that repeats an earlier one (the
// same kernel, configuration and parameter bytes) on the same device memory
// is not executed again when what that earlier launch did to the memory
// was recorded; the recorded change is applied instead.
//
// Why that is exact. A launch is a function of the device memory before it
// and of its configuration: warps read memory and parameters and write
// memory, and nothing else reaches them once the kernels that read the
// clock, the SM or warp id or the grid id, that use global atomics, printf,
// malloc/free or the device runtime are excluded (replayable). For such a
// kernel, the same memory before gives the same memory after. A launch
// whose memory before matches a recorded one (every allocation's address,
// size and bytes) therefore ends with the recorded memory after: replay
// writes the recorded bytes that differ (the delta) and returns the
// recorded counters. The memory is compared by content, not by tracking
// writes, so copies, memsets, the program's own writes to pinned, managed
// or mapped memory and texture or surface arrays all count, however they
// were made; the comparison is a 128-bit keyed hash (two 64-bit maphash
// seeds, random per process) of the whole device memory, so a wrong match
// has a chance of about 2^-128 per comparison. A data race between a
// kernel's own threads (two blocks writing one word) makes its outcome
// depend on the schedule even on the GPU; replay gives the recorded one,
// which an execution could also have given.
//
// What it costs. Hashing reads every allocated byte; recording a launch
// also copies them before it and compares after. So a launch is considered
// only when an earlier launch of the same configuration took long enough
// that this is small beside it (memoWorth), or when the last launch left
// the memory's hash (a replay then reads nothing), and only while the device
// memory stays under memoMaxBytes; device heap blocks (malloc) or written
// allocation padding turn it off for as long as they exist.

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// Memo remembers what launches did to device memory, so that a repeated
// launch on the same memory can be replayed instead of executed
// (Config.Memo). One Memo serves the launches of one Memory, one at a time
// (a warpsim.Device runs one launch at a time); Touch and Stats may be
// called at any time.
type Memo struct {
	mu           sync.Mutex
	seed1, seed2 maphash.Seed
	keys         map[memoKey]*memoRuns
	held         int // bytes of deltas held
	// scratch holds the memory before a launch being recorded (launches
	// run one at a time on a device, so one buffer serves them all).
	scratch []byte
	stats   MemoStats
	// gen counts Touch calls. cur is the memory's hash as the last launch
	// left it (a replayed launch's recorded after-hash, a recorded one's
	// computed), valid while curOK and gen is still curGen.
	gen    atomic.Uint64
	cur    [2]uint64
	curGen uint64
	curOK  bool
	// worthNs is memoWorth·memoNsPerByte: an earlier launch of a
	// configuration must have taken worthNs per byte of device memory
	// (tests set 0).
	worthNs time.Duration
	// heldMax bounds held (memoHeld; tests set less).
	heldMax int
}

// MemoStats count what a Memo did.
type MemoStats struct {
	Replayed uint64 // launches replayed, not executed
	Recorded uint64 // launches executed and recorded
	Hashed   uint64 // passes over the whole device memory
}

// memoKeys bounds the configurations remembered, memoEntries the memory
// states remembered per configuration, memoHeld the bytes of deltas held
// in all, memoMaxBytes the device memory past which nothing is recorded.
const (
	memoKeys     = 256
	memoEntries  = 4
	memoHeld     = 256 << 20
	memoMaxBytes = 512 << 20
	memoGiveUp   = 8
	// memoShortRecords bounds the records of a configuration too short
	// for the hashing (considered only on a carried hash) that has not
	// replayed yet.
	memoShortRecords = 2
)

type memoKey struct {
	mod    *Module
	kernel int
	cfg    string // grid, block, cluster, shared bytes, stack limit, cooperative, parameter bytes
}

type memoRuns struct {
	last    time.Duration // host time of the last execution
	entries []*memoEntry  // most recent last
	// recorded and replayed count this configuration's records (kept
	// or not) and replays: after memoGiveUp records and no replay (a
	// kernel that reads what it writes, an input that changes every
	// time, deltas too large to keep) it is executed without hashing or
	// recording.
	recorded, replayed int
}

type memoEntry struct {
	before [2]uint64 // memory hash before the launch
	after  [2]uint64 // and after it
	delta  []memoRun
	size   int
	grid   Grid // what the launch returned (counters; Elapsed is replaced)
}

// memoRun is bytes the launch changed: data at off in the allocation at base.
type memoRun struct {
	base, off uint64
	data      []byte
}

// NewMemo returns an empty launch memo.
func NewMemo() *Memo {
	return &Memo{seed1: maphash.MakeSeed(), seed2: maphash.MakeSeed(), keys: map[memoKey]*memoRuns{},
		worthNs: memoWorth * memoNsPerByte, heldMax: memoHeld}
}

// Touch says that device memory may have changed other than by a launch
// that went through the memo (a copy, a memset, the host writing it): the
// next launch hashes it again.
func (mm *Memo) Touch() { mm.gen.Add(1) }

// dirty forgets the memory's hash: a launch executed without a record of
// its effect. mm.mu held.
func (mm *Memo) dirty() { mm.curOK = false }

// Stats returns what the memo did so far.
func (mm *Memo) Stats() MemoStats {
	mm.mu.Lock()
	defer mm.mu.Unlock()
	return mm.stats
}

// memoWorth is how many times the cost of hashing and copying the device
// memory (at about memoNsPerByte: a record copies it, hashes it twice and
// compares it, 0.3–0.5 ns a byte here) an earlier launch of a
// configuration must have taken for the next to be recorded or replayed.
// A replay on the hash the last launch left costs nothing of the kind; a
// configuration that never replays is given up after memoGiveUp records.
const (
	memoWorth     = 1
	memoNsPerByte = 1
)

func memoKeyOf(m *Module, cfg *Config) memoKey {
	b := make([]byte, 0, 4*11+1+len(cfg.Params))
	for _, d := range [][3]uint32{cfg.Grid, cfg.Block, cfg.Cluster} {
		for _, v := range d {
			b = binary.LittleEndian.AppendUint32(b, v)
		}
	}
	b = binary.LittleEndian.AppendUint32(b, cfg.DynShared)
	// The stack limit decides whether a deep call chain faults.
	b = binary.LittleEndian.AppendUint32(b, uint32(cfg.StackBytes))
	if cfg.Cooperative {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	return memoKey{mod: m, kernel: cfg.Kernel, cfg: string(append(b, cfg.Params...))}
}

// replayable reports whether kernel's launches are a function of memory
// and configuration alone (see the file comment): neither it nor anything
// it may call reads %clock, %clock64, %globaltimer, %smid, %warpid, %gridid
// or the performance monitors, or uses global atomics or reductions,
// printf, malloc/free or the device runtime. Atomics on the block's own
// shared memory are allowed where the launch has no clusters (no block
// reaches another's shared memory): a block runs on one worker, its warps
// in an order that depends on nothing else. mm.mu held.
func (mm *Memo) replayable(m *Module, cfg *Config) bool {
	kernel := cfg.Kernel
	if m.usesHeap[kernel] || m.unsupported[kernel] != "" {
		return false
	}
	cd, _ := clusterDims(cfg, m.Prog.Funcs[kernel])
	clusters := cd != ([3]uint32{}) || m.clusterBarrier[kernel]
	v := m.replay[kernel] // the kernel and all it calls (Load)
	return v != memoNo && !(v == memoSharedAtomics && clusters)
}

// What memoFunc found in a function.
const (
	memoNo            int8 = -1 // not replayable
	memoYes           int8 = 1  // replayable
	memoSharedAtomics int8 = 2  // replayable where no block reaches another's shared memory
)

// memoJoin is the verdict of code made of parts with verdicts a and b.
func memoJoin(a, b int8) int8 {
	switch {
	case a == memoNo || b == memoNo:
		return memoNo
	case a == memoSharedAtomics || b == memoSharedAtomics:
		return memoSharedAtomics
	}
	return memoYes
}

// memoFunc is replayable for function i alone.
func memoFunc(m *Module, i int) int8 {
	f := m.Prog.Funcs[i]
	v := memoYes
	for j := range f.Code {
		in := &f.Code[j]
		switch in.Op {
		case ir.OpAtom, ir.OpRed:
			if in.Space != ptxtype.SpaceShared {
				return memoNo
			}
			v = memoSharedAtomics
		case ir.OpVprintf, ir.OpDevRT:
			return memoNo
		case ir.OpLibcall:
			if k := m.builtins[i][in.Imm]; k == builtinMalloc || k == builtinFree {
				return memoNo
			}
		case ir.OpMovSreg:
			switch ir.Sreg(in.Imm) {
			case ir.SregClock, ir.SregClock64, ir.SregGlobaltimer, ir.SregGlobaltimerLo, ir.SregGlobaltimerHi,
				ir.SregSmid, ir.SregWarpid, ir.SregGridid, ir.SregPm:
				return memoNo
			}
		}
	}
	return v
}

// memState is the device memory as the memo sees it: the live
// allocations, or nil when something the memo cannot see is in use
// (device heap blocks, written padding) or the memory is too large.
func memState(mem *Memory) ([]*Alloc, int) {
	if mem.heap.Used() > 0 {
		return nil, 0
	}
	mem.padMu.Lock()
	pad := len(mem.pad)
	mem.padMu.Unlock()
	if pad > 0 {
		return nil, 0
	}
	allocs := mem.snapshot()
	n := 0
	for _, a := range allocs {
		n += len(a.Data)
	}
	if n > memoMaxBytes {
		return nil, 0
	}
	return allocs, n
}

// hash is the 128-bit hash of allocs: every allocation's base, size and
// bytes, in address order.
func (mm *Memo) hash(allocs []*Alloc) [2]uint64 {
	var h1, h2 maphash.Hash
	h1.SetSeed(mm.seed1)
	h2.SetSeed(mm.seed2)
	var hdr [16]byte
	for _, a := range allocs {
		binary.LittleEndian.PutUint64(hdr[:], a.Base)
		binary.LittleEndian.PutUint64(hdr[8:], a.Size)
		h1.Write(hdr[:])
		h2.Write(hdr[:])
		h1.Write(a.Data)
		h2.Write(a.Data)
	}
	return [2]uint64{h1.Sum64(), h2.Sum64()}
}

// memoRecord is a launch being recorded: the memory before it.
type memoRecord struct {
	key    memoKey
	gen    uint64 // Memo.gen when it began
	before [2]uint64
	allocs []*Alloc
	copies [][]byte
}

// begin decides, before a launch, whether to replay it (the result, true;
// only when replay is set) or to execute it, recording it when rec is not
// nil.
func (mm *Memo) begin(m *Module, cfg *Config, replay bool) (r *Result, rec *memoRecord, replayed bool) {
	mm.mu.Lock()
	defer mm.mu.Unlock()
	gen := mm.gen.Load()
	if !mm.replayable(m, cfg) {
		mm.dirty()
		return nil, nil, false
	}
	key := memoKeyOf(m, cfg)
	runs := mm.keys[key]
	if runs == nil {
		// The first launch of a configuration runs as it is: its time
		// says whether later ones are worth the hashing.
		if len(mm.keys) >= memoKeys {
			clear(mm.keys)
			mm.held = 0
		}
		mm.keys[key] = &memoRuns{}
		mm.dirty()
		return nil, nil, false
	}
	allocs, n := memState(m.Mem)
	// A launch too short for the hashing (its configuration's last
	// execution under worthNs a byte) is still considered when the last
	// launch left the memory's hash: replaying on it costs nothing, and
	// executing it unrecorded would lose the hash, so that the next
	// launch hashed all of device memory again (NVIDIA's scan: its
	// 26-block scanExclusiveShared2 between two replayed launches).
	// Recording such a launch still copies, hashes and compares all of
	// device memory, which may cost more than executing it: one that has
	// not replayed after memoShortRecords records is executed as it is
	// (a launch that reads what it writes never replays, and was recorded
	// memoGiveUp times).
	carried := mm.curOK && mm.curGen == gen
	short := runs.last < mm.worthNs*time.Duration(n)
	if short && runs.replayed == 0 && runs.recorded >= memoShortRecords {
		carried = false
	}
	if allocs == nil || (short && !carried) || (runs.replayed == 0 && runs.recorded >= memoGiveUp) {
		mm.dirty()
		return nil, nil, false
	}
	t0 := time.Now()
	before := mm.cur
	if !mm.curOK || mm.curGen != gen {
		before = mm.hash(allocs)
		mm.stats.Hashed++
	}
	for i, e := range runs.entries {
		if e.before != before {
			continue
		}
		if !replay {
			mm.dirty()
			return nil, nil, false // (recorded already)
		}
		for _, d := range e.delta {
			a, ok := findAlloc(allocs, d.base, 1)
			if !ok || a.Base != d.base {
				return nil, nil, false // cannot happen: the hash covers the bases
			}
			copy(a.Data[d.off:], d.data)
		}
		// Most recent last.
		runs.entries = append(append(runs.entries[:i:i], runs.entries[i+1:]...), e)
		g := e.grid
		g.Elapsed, g.Replayed = time.Since(t0), true
		mm.stats.Replayed++
		runs.replayed++
		mm.cur, mm.curGen, mm.curOK = e.after, gen, true
		return &Result{Grids: []Grid{g}}, nil, true
	}
	mm.dirty()
	rec = &memoRecord{key: key, gen: gen, before: before, allocs: allocs, copies: make([][]byte, len(allocs))}
	if cap(mm.scratch) < n {
		mm.scratch = make([]byte, n)
	}
	off := 0
	for i, a := range allocs {
		rec.copies[i] = mm.scratch[off : off+len(a.Data)]
		copy(rec.copies[i], a.Data)
		off += len(a.Data)
	}
	return nil, rec, false
}

// end records what an executed launch did: its time, and, when rec is not
// nil and the launch ran one grid without a fault, its delta and counters.
func (mm *Memo) end(m *Module, cfg *Config, rec *memoRecord, r *Result, err error) {
	if len(r.Grids) == 0 {
		mm.mu.Lock()
		mm.dirty()
		mm.mu.Unlock()
		return
	}
	var delta []memoRun
	var after [2]uint64
	size := 0
	ok := rec != nil && err == nil && len(r.Grids) == 1
	if ok {
		allocs, _ := memState(m.Mem)
		after = mm.hash(allocs)
		ok = len(allocs) == len(rec.allocs)
		for i := 0; ok && i < len(allocs); i++ {
			a := allocs[i]
			if a != rec.allocs[i] {
				ok = false
				break
			}
			delta = diffRuns(delta, a.Base, rec.copies[i], a.Data)
		}
		for _, d := range delta {
			size += len(d.data)
		}
		ok = ok && size <= mm.heldMax/4
	}
	mm.mu.Lock()
	defer mm.mu.Unlock()
	if ok {
		mm.stats.Hashed++
		mm.cur, mm.curGen, mm.curOK = after, rec.gen, true
	} else {
		mm.dirty()
	}
	key := memoKeyOf(m, cfg)
	runs := mm.keys[key]
	if runs == nil {
		return // forgotten meanwhile (too many configurations)
	}
	runs.last = r.Grids[0].Elapsed
	if rec != nil {
		// A record counts towards giving up whether or not it can be
		// kept: one that cannot (its delta too large, or the deltas held
		// for other configurations leave no room) is as useless as one
		// that never replays, and without counting it the configuration
		// would be hashed, copied and compared at every launch. A
		// configuration given up frees what it held.
		runs.recorded++
		if runs.replayed == 0 && runs.recorded >= memoGiveUp {
			for _, e := range runs.entries {
				mm.held -= e.size
			}
			runs.entries = nil
			ok = false
		}
	}
	if !ok {
		return
	}
	for len(runs.entries) > 0 && (len(runs.entries) >= memoEntries || mm.held+size > mm.heldMax) {
		mm.held -= runs.entries[0].size
		runs.entries = runs.entries[1:]
	}
	if mm.held+size > mm.heldMax {
		return
	}
	g := r.Grids[0]
	g.Lines, g.Timing = nil, nil
	runs.entries = append(runs.entries, &memoEntry{before: rec.before, after: after, delta: delta, size: size, grid: g})
	mm.held += size
	mm.stats.Recorded++
}

// memoChunk is the granule in which deltas are found.
const memoChunk = 256

// diffRuns appends to d the runs of chunks in which now differs from was.
func diffRuns(d []memoRun, base uint64, was, now []byte) []memoRun {
	const page = 16 * memoChunk
	start := -1
	flush := func(end int) {
		if start >= 0 {
			d = append(d, memoRun{base: base, off: uint64(start), data: bytes.Clone(now[start:end])})
			start = -1
		}
	}
	for p := 0; p < len(now); p += page {
		pe := min(p+page, len(now))
		if bytes.Equal(was[p:pe], now[p:pe]) {
			flush(p)
			continue
		}
		for c := p; c < pe; c += memoChunk {
			ce := min(c+memoChunk, pe)
			if bytes.Equal(was[c:ce], now[c:ce]) {
				flush(c)
			} else if start < 0 {
				start = c
			}
		}
	}
	flush(len(now))
	return d
}
