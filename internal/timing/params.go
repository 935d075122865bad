package timing

import (
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
)

// Params are one GPU's timing figures: latencies and throughputs in SM
// cycles, sizes in bytes. Figures that live outside the SM's clock domain
// (the L2's and DRAM's latencies, DRAM bandwidth, launch overheads) are
// given in nanoseconds and converted at the SM clock, so that the same
// preset answers for any clock. Each preset cites where its figures come
// from.
type Params struct {
	ClockHz float64 // the SM clock the cycles are counted in

	// Latency is the cycles from issue until a dependent instruction can
	// issue, per class (fixed-latency pipes; memory classes use the memory
	// figures below instead).
	Latency [ir.NumClasses]uint32
	// Interval is the cycles a sub-partition's pipe is busy per warp
	// instruction of the class: 32 lanes / the pipe's lanes per cycle.
	Interval [ir.NumClasses]uint32
	// Tensor is the tensor pipe, per shape and type (tensor.go); the
	// class tables above answer for a type it gives no rate.
	Tensor TensorPipe

	SharedLatency  uint32 // shared-memory load to use
	SharedConflict uint32 // extra latency per extra wavefront of a bank-conflicted access
	SregLatency    uint32 // S2R: reading %tid, %ctaid, %clock …
	// IssueStarveCycles bounds how long greedy-then-oldest passes over a
	// ready warp: one ready this many cycles since its operands were ready
	// or it last issued, whichever is later, issues before the greedy warp
	// and older ones (pick, starved). 0: no bound (every preset;
	// testdata/timing/warplaunch/README.md says what it does to a full
	// SM spinning on clock64, where the H200 starves no warp).
	IssueStarveCycles uint32
	// SharedWarpCycles, when not 0: a warp's shared accesses go to the
	// SM's shared-memory pipe in order, each one's wavefronts this many
	// cycles apart (the pipe takes one wavefront a cycle from all warps):
	// a warp's next shared access starts after its last one's wavefronts
	// (testdata/timing/stsconf2: one warp's 32-way conflicted stores take
	// 63.4 cycles a store, four warps' 127.7 for four).
	SharedWarpCycles uint32
	// ShflImmLatency, when not 0, is a shuffle's latency when its lane
	// (or butterfly mask) operand is an immediate: SHFL with an immediate
	// operand returns sooner than with a register one, whatever the
	// register holds (Latency[ClassWarp] stays the register form's).
	ShflImmLatency uint32
	// MovFold: a mov ptxas removes (ir.MovFolded: copy-propagated,
	// coalesced, dead, or a constant its readers encode) takes no issue
	// slot and no latency: the warp steps it as it reaches it, its
	// register ready when its source is (foldMovs).
	MovFold bool
	// HoistShfl: ptxas list-schedules the shuffles of independent chains
	// of a basic block (a reduction of several rows, written row after
	// row) together, so a shuffle and its consumers issue ahead of the
	// results they wait for as arithmetic does under HoistLoads (the
	// block's end waits for them).
	HoistShfl bool
	// HoistFixed: ptxas list-schedules a basic block's independent chains
	// of these classes' fixed-latency instructions together (PTX writes
	// each chain's unrolled steps one after another), so an instruction of
	// such a class whose operand another one of them computes issues
	// ahead of that result, as arithmetic does under HoistLoads: it starts
	// when its operands are there, its consumers wait for it, and the
	// block's end waits for all of them (testdata/timing/fp64pipe: four
	// DFMA chains of one warp take the H200 8.8 cycles a step, the PTX
	// order in turn 17.4).
	HoistFixed     [ir.NumClasses]bool
	L1HitLatency   uint32 // global load hitting L1
	L2HitCycles    uint32 // global load hitting L2: SM-clock part …
	L2HitNS        float64
	DRAMCycles     uint32 // … and missing L2 (unloaded)
	DRAMNS         float64
	AtomicNS       float64 // a global atomic's service time at its L2 slice (same-address atomics serialize)
	AtomicOpsPerNS float64 // device-wide atomic updates the L2 performs per ns
	AtomicFloatNS  float64 // AtomicNS of a floating-point add (0: AtomicNS)
	BarrierLatency uint32  // from the last warp's arrival to the first warp's issue
	// Thread-block clusters (cluster.go): from the last thread's
	// barrier.cluster.arrive until the cluster's waiting warps issue,
	// ClusterBarrier + ClusterBarrierPerBlock cycles per block of the
	// cluster (0: BarrierLatency); an access to another block's shared
	// memory (ld/st/atom/red.shared::cluster) returns after DSMEMLatency
	// (0: SharedLatency). A remote atomic holds the SM's path to its
	// cluster DSMEMAtomSectorCycles for each distinct 32-byte sector of
	// other blocks' shared memory its lanes name and DSMEMAtomCycles for
	// each remote lane on an address another of its lanes named first
	// (cluster.go, remoteShared); with DSMEMAtomSectorCycles 0, every
	// remote lane holds it DSMEMAtomCycles.
	ClusterBarrier, ClusterBarrierPerBlock, DSMEMLatency uint32
	DSMEMAtomCycles, DSMEMAtomSectorCycles               float64
	// Memory ordering (scoreboard_memory.go, ordering): a fence, and the release
	// half of an atomic's order, holds the warp FenceCTA cycles at .cta
	// scope, FenceGPU at .cluster and .gpu, FenceSys at .sys; an acquire
	// makes the warp wait for the atomic's result. AtomicReturnNS is what an
	// atomic's result takes beyond an L2 hit's round trip.
	FenceCTA, FenceGPU, FenceSys uint32
	AtomicReturnNS               float64
	// AtomicLaneCycles: an SM sends a global atomic's updates to the L2 one
	// address at a time, this many cycles each; the SM's next global atomic
	// issues when they have gone (0: as fast as its sectors' bytes).
	AtomicLaneCycles float64
	// AtomicInstCycles: the least an SM's global atomic that ptxas
	// aggregated across the warp holds it (atomicLanes), an atom of 32
	// bits, of 64 bits, and a red; zeros: none.
	AtomicInstCycles [3]float64
	// RedInstCycles: a red.global that ptxas did not aggregate holds the
	// SM's atomics AtomicLaneCycles for each 128-byte line it updates (not
	// each address, as an atom does), at least RedInstCycles. RedWindow: a
	// warp keeps at most this many global reds waiting for the L2 (its
	// next red waits for the oldest's update: back-pressure; at most
	// maxRedWindow; 0: no limit). testdata/timing/syncmem (red_mb.cu).
	RedInstCycles float64
	RedWindow     int
	// ConstBlockBytes: an ld.const that misses the constant caches brings
	// a block of this many bytes (constLoad; 0 or 32: its sectors only).
	ConstBlockBytes int
	// A block's reads of the kernel's constant bank 0 (its parameters,
	// at ParamBankOffset in the bank, and %ntid and %nctaid, at 0) go
	// through a constant cache of ParamChunkBytes lines that is cold at
	// the block's start: a line the block has not read yet comes
	// ParamMissCycles after the first read asks for it, and every read
	// of it waits for that (constbank.go). 0: a parameter read takes its
	// class latency.
	ParamChunkBytes int
	ParamMissCycles uint32
	ParamBankOffset uint32
	// A global variable's address (PTX's mov of its symbol, or an access
	// through it) is read from the module's bank of addresses (c[0x4]),
	// which comes from memory: a block's first read of a symbol's address
	// waits SymFirstMissCycles in the grid's first wave (Nsight Compute
	// flushes the L2 before each kernel: from DRAM) and SymMissCycles in
	// later blocks (from the L2). 0: free.
	SymFirstMissCycles, SymMissCycles uint32
	// cp.async (LDGSTS) holds the SM's L1 data path at least CpAsyncCycles
	// a warp instruction, CpAsyncWavefrontCycles a wavefront of its
	// shared-memory writes plus CpAsyncIssueCycles, and with .ca its bytes
	// at CpAsyncBytesPerCycle and CpAsyncLineCycles a line it allocates in
	// the L1 (scoreboard_memory.go, cpAsyncL1Bytes).
	CpAsyncCycles, CpAsyncLineCycles                                 float64
	CpAsyncWavefrontCycles, CpAsyncIssueCycles, CpAsyncBytesPerCycle float64
	// A warp issues its next cp.async no sooner than CpAsyncWarpCycles a
	// wavefront of its last one's shared-memory writes (at most 8), and
	// one more, after it, and a cp.async issues only when the SM's L1 data
	// path has at most CpAsyncQueueCycles of work queued ahead of it: the
	// rest wait in the warp, lg_throttle (scoreboard.go, cpAsyncGate; 0: no
	// limit).
	CpAsyncWarpCycles, CpAsyncQueueCycles float64
	// An SM's global stores leave it for the L2 through one port, a whole
	// sector every StoreSectorCycles and a partial one every
	// StorePartialCycles; a store issues only while the port has at most
	// StoreQueueCycles of work queued ahead of it (lg_throttle; memory.go,
	// store; scoreboard.go, storePortGate; 0: no port).
	StoreSectorCycles, StorePartialCycles, StoreQueueCycles float64
	// StorePartialLineCycles: a line a store writes in part holds the
	// port at least this long, however few of its sectors it writes (a
	// 4-byte store a line takes 2 cycles a line where 4-byte stores to
	// four sectors of one line take 1.25 a sector: testdata/timing/l2store;
	// 0: no floor).
	StorePartialLineCycles float64
	// StoreMergeLines: a store's sectors that the SM's last stores wrote
	// (their last StoreMergeLines 128-byte lines), while those are still
	// queued at the port, merge into them and take no port time but a
	// sector's for each line all merged (testdata/timing/stmerge;
	// memory.go, store; 0: no merging).
	StoreMergeLines int
	// TensorMapFetchNS: a TMA copy through a tensor map its SM has not used
	// yet starts after the map is fetched.
	TensorMapFetchNS float64
	// Instruction fetch (fetch.go): an SM's fetch stream brings a 128-byte
	// code line every FetchLineCycles; a jump to a line it would bring
	// later than a new request restarts it, the line arriving FetchMiss
	// cycles later; beyond the first FetchNearBytes of code, lines take
	// FetchFarLineCycles and restarts FetchFarMiss (0: no such limit).
	// The SM's instruction cache holds IcacheBytes; a PTX instruction
	// stands for InstBytes of SASS (a mov for MovBytes, an instruction
	// ptxas expands for its issue slots' InstBytes; MovBytes 0: every
	// instruction InstBytes: fetch.go, codeBytes). FetchLineCycles 0: no
	// fetch stage.
	FetchLineCycles, FetchMiss, FetchFarLineCycles, FetchFarMiss float64
	FetchNearBytes, IcacheBytes                                  int
	// FetchAhead: a sub-partition's fetch stream brings lines at most
	// this many past the furthest line its warps asked for (fetch.go).
	FetchAhead          int
	InstBytes, MovBytes float64
	// A kernel's launch takes FetchLaunchLineNS longer per 128-byte line
	// of its first FetchLaunchBytes of code (fetch.go, launchCycles).
	FetchLaunchBytes  int
	FetchLaunchLineNS float64
	// Printf is what a device printf (vprintf) costs (printf.go); a zero
	// CallNS: the call is its issue slots alone.
	Printf PrintfCost
	// BulkReadCycles: a bulk or tensor copy out of shared memory has read
	// its source this long after its issue, plus its bytes at the copy
	// unit's rate (mbarrier.go, bulkRead); its bulk group's wait waits
	// for that, and holds its warp BulkWaitCycles at least.
	BulkReadCycles, BulkWaitCycles uint32
	// A device-side tensor map: each tensormap.replace holds its warp
	// TensormapReplaceCycles, a tensormap.cp_fenceproxy TensormapCopyCycles;
	// a fence.proxy.tensormap acquire TensormapAcquireCycles, and until the
	// warp's last tensormap.cp_fenceproxy is done at the L2 (its line's
	// atomic exchanges, through the L2 model: a DRAM fetch when the line is
	// not in the L2). A tensormap.replace under a guard predicate that some
	// of its lanes pass holds its warp TensormapGuardCycles more: ptxas
	// makes it a branch region (BSSY, BRA, BSYNC) around its
	// read-modify-write of the map's word.
	TensormapReplaceCycles, TensormapCopyCycles, TensormapAcquireCycles uint32
	TensormapGuardCycles                                                uint32
	// SlowPathCycles are what an IEEE f32 division's or square root's
	// out-of-line path adds to its warp, per kind of operand
	// (engine.SlowDivNaN …; slowpath.go): the warp runs ptxas's
	// subroutine, a few dozen dependent instructions and branches, one
	// after another. SlowPathAllDiv and SlowPathAllSqrt are what it saves
	// when no lane stayed inline (the inline sequence's tail is skipped);
	// SlowPathSharedDiv and SlowPathSharedSqrt what lanes on different
	// paths share (the call, the first checks, the return).
	SlowPathCycles                        [engine.SlowPaths]uint32
	SlowPathAllDiv, SlowPathAllSqrt       uint32
	SlowPathSharedDiv, SlowPathSharedSqrt uint32
	// RoundedCycles are the cycles from the first instruction of ptxas's
	// code for a directed rounding division, reciprocal or square root
	// (.rz, .rm, .rp; RoundedDivF32 …, rounded.go) until its result is
	// there; for the kinds ptxas makes a subroutine call the warp issues
	// nothing else meanwhile. 0: the .rn form's chain, no hold.
	RoundedCycles [RoundedKinds]uint32
	// IEEECycles are the cycles of ptxas's inline .rn division,
	// reciprocal and square root (IEEEDivF32 …, rounded.go) from their
	// first instruction to their result, the warp issuing nothing else
	// meanwhile. 0: the class latencies' chain, overlapping what follows.
	IEEECycles [IEEEKinds]uint32
	// Libcall is what a call of a libdevice function warpsim runs natively
	// costs (clang's code calls them; ptxas's CALL of libdevice's routine),
	// per kind (ir.LibcallKind): a function measured on its own, the rule
	// for the other math functions, and LibcallOther (zero: 24 issue slots
	// and the class latency).
	Libcall         [ir.LibcallKinds]LibcallCost
	L1BytesPerCycle uint32 // per SM: the L1 data path
	// LoadMissBytesPerCycle is the rate at which a global load into
	// registers takes the L1 data path for its sectors that miss the L1
	// (scoreboard_memory.go, loadL1Bytes; 0: its bytes, as a hit).
	LoadMissBytesPerCycle float64
	// LoadMissLineCycles: a global load into registers takes the L1 data
	// path at least this many cycles for each line it misses in the L1
	// (scoreboard_memory.go, loadL1Bytes; 0: its missing sectors' bytes alone).
	LoadMissLineCycles float64
	// LoadWarpCycles: a warp's next global load waits this many cycles
	// for each line of its last one, and one more (scoreboard.go; 0: none).
	LoadWarpCycles float64
	// LoadWindow: a warp has at most this many global loads waiting for
	// their data, its next load waiting for the oldest (scoreboard.go,
	// loadGate; at most maxLoadWindow; 0: no limit).
	LoadWindow     int
	L2BytesPerNS   float64 // device-wide L2 bandwidth
	DRAMBytesPerNS float64 // achievable device-wide DRAM bandwidth (0: 80% of the preset's theoretical)
	DRAMFetch      int     // bytes DRAM delivers per L2 miss (a 32-byte sector is fetched with its pair)
	L1Bytes        int     // L1 data cache per SM available to global loads

	// CopyBytesPerCycle is the rate at which an SM's TMA / bulk-copy unit
	// writes a copy's bytes into shared memory (0: L1BytesPerCycle).
	CopyBytesPerCycle uint32

	// UnifiedL1: the L1 is what the grid's shared-memory carveout leaves
	// of the SM's unified L1/shared storage (memory.go, l1Bytes), not
	// L1Bytes.
	UnifiedL1 bool
	// PartialSectorBytes is the L2 bandwidth (bytes of L2BytesPerNS) a
	// store takes for a sector it writes only in part (a masked write);
	// 0: 32, as a whole sector. RMWLineBytes is the DRAM time (bytes of
	// DRAMBytesPerNS) writing back a line with partial sectors costs
	// beyond its sectors' bytes: reading them first, and the read/write
	// turnaround (memory.go, store).
	PartialSectorBytes float64
	RMWLineBytes       float64
	// StoreSectorBytes is the L2 bandwidth (bytes of L2BytesPerNS) a store
	// takes for a sector it writes whole (0: 32, as a load's sector): a
	// write costs the L2 more than a read (testdata/timing/l2store: 132
	// SMs store whole sectors into the L2 at half the rate they read
	// sectors from it; memory.go, storeL2).
	StoreSectorBytes float64
	// StoreInvalidatesL1: a global store invalidates the sectors it writes
	// in the SM's L1 (write-through, no write-allocate), so data a block
	// rewrites is read again from L2. Without it (Volta and later) the L1
	// is write-through with the written sectors kept: a store updates a
	// present sector (and allocates one it writes whole), and a load of it
	// returns the stored data no earlier than StoreToLoad cycles after the
	// store left the SM with its data.
	StoreInvalidatesL1 bool
	StoreToLoad        uint32
	// DivChain: a 32-bit integer division or remainder (ptxas's sequence:
	// I2F, MUFU.RCP, F2I and a dozen dependent integer steps) has its
	// result this many cycles after the sequence starts (0, every preset:
	// the class latencies' chain, chainLatency; latency.int_div sets it). DivXU: the sequence's two
	// conversions and its MUFU go through the sub-partition's XU pipe (the
	// conversion and MUFU pipes, Interval each, one after another), and the
	// sequence starts when that pipe takes them (slots.go, intDivXU).
	DivChain uint32
	DivXU    bool
	// StoreDrain: a warp that exited stays resident, and its block's place
	// taken, until the L2 has taken its global stores (ncu's drain stall;
	// scheduler.go, drainEnd).
	StoreDrain bool
	// StoreWindow: a warp keeps at most this many global stores waiting
	// for the L2, its next store waiting for the oldest (scoreboard.go,
	// storeGate; at most maxStoreWindow; 0: no limit).
	StoreWindow int
	// LoadAfterStore: a global load waits for the data of the warp's
	// global stores before it (scoreboard.go, depReady).
	LoadAfterStore bool
	// DRAMWaitSpread: DRAM serves its queued requests out of arrival
	// order (banks and rows), so a request's wait behind the others is
	// spread around the queue's wait, the mean kept: a fetch answered at
	// its place in the queue plus DRAMLatency moves by
	// DRAMWaitSpread*min(w, DRAMReorderNS)*(2U-1), w its wait and U
	// uniform in [0, 1) drawn from the line's address (memory.go,
	// dramAnswer); at most 1. 0: every request waits its place.
	DRAMWaitSpread float64
	// DRAMReorderNS bounds the wait DRAMWaitSpread spreads: DRAM reorders
	// what its controllers hold; a longer wait is a line in the L2's miss
	// queue, served in order (0: no bound).
	DRAMReorderNS float64
	// DRAMLatencySpreadNS: what DRAM takes for a line varies from one
	// request to the next beyond its queue's wait (the controller's
	// scheduling, the channel and slice the line maps to): a fetch's
	// DRAMLatency moves by DRAMLatencySpreadNS*(2U-1), U uniform in
	// [0, 1) drawn from the line's address independently of
	// DRAMWaitSpread's draw, the mean kept (memory.go, dramAnswer). 0:
	// every line takes DRAMLatency.
	DRAMLatencySpreadNS float64
	// DRAMLatencySpreadLoaded draws DRAMLatencySpreadNS only for a fetch
	// that found the DRAM's bus busy with another SM's fetches (its
	// queue's answer past its request, and another source's still queued:
	// behindOthers): a lone request, or one SM's burst on an idle bus,
	// take DRAMLatency.
	DRAMLatencySpreadLoaded bool
	// DRAMBankNS: below the bus's bandwidth a line still waits for its
	// bank: the DRAM's requests go to many banks by their addresses, each
	// busy DRAMBankNS a request, and a request finds its bank busy more
	// often the busier the bus, so its wait grows with the DRAM's load well
	// before the bus is full (an M/D/1 queue at each bank). The load is the
	// DRAM queue's use over the DRAMLoadWindow cycles before the request
	// (reads and write-backs alike); the mean wait is
	// DRAMBankNS*rho/(2(1-rho)), rho at most dramLoadCap, drawn per line
	// from its address (none with probability 1-rho, else exponential),
	// and a line waits for its bank or for the bus, whichever is later
	// (memory.go, bankWait). 0: no bank wait (the bus's queue alone).
	DRAMBankNS float64
	// DRAMWriteDrainNS: the DRAM's controllers hold the L2's write-backs
	// and write them out in drains this long, the reads held meanwhile
	// (the bus turned around for the writes): a read arrives during a drain
	// as often as writes take the bus (their share of it over the
	// dramLoadWindow cycles before the read) and waits for the drain's
	// rest, uniform, drawn per line from its address (memory.go,
	// drainWait). A read among a copy's writes so waits far longer than
	// among reads at the same traffic, well below the bus's bandwidth.
	// 0: reads never wait for writes.
	DRAMWriteDrainNS float64
	// DRAMWriteModeShare is the share of the time the DRAM spends draining
	// writes for each share of its bandwidth the write-backs take (at
	// least 1: a drain also holds the reads for its turnarounds); a read
	// meets a drain with that probability.
	DRAMWriteModeShare float64
	// DRAMTurnaround: a written-back byte takes the bus 1+DRAMTurnaround·r
	// times a read byte's time, r the reads' share of the bus's recent
	// traffic: the bus's turnarounds between reads and writes, paid only
	// when both share it (memory.go, writeBack). 0: one cost for both.
	DRAMTurnaround float64
	// L2DirtyWays: the L2 keeps dirty lines in up to this many of a set's
	// ways (of 16) in preference to clean ones: a new line evicts the least
	// recently used clean line while the set holds fewer dirty lines, the
	// least recently used dirty line (a write-back) once it holds this
	// many (cache.alloc). So a kernel's stores stay in the L2 up to that
	// share of it whatever the kernel reads. 0: plain LRU.
	L2DirtyWays int
	// DRAMFarNS: the L2 is two partitions, each the home of half the
	// memory's 4 KiB pages (farPage: a hash of the page's address bits);
	// an L2 miss of an SM on a line homed in the partition far from the
	// SM's side (smSide) crosses to that partition and back, this much
	// later than a near one (memory.go, fromL2; 0: one partition). The
	// DRAM latency (DRAMCycles, DRAMNS) is the mean over both, as a chase
	// over many pages measures it: a near miss takes half of DRAMFarNS
	// less, a far one half more.
	DRAMFarNS float64
	// FarBytesPerNS is the bandwidth of the link between the partitions
	// that a far miss's line takes on its way back (0: not limited).
	FarBytesPerNS float64
	// HoistLoads: ptxas schedules a basic block's global and local loads
	// above the arithmetic that consumes earlier loads, so a warp has all
	// of a block's loads in flight at once; the model issues the PTX in
	// order, and reproduces that by letting such arithmetic issue before
	// its loads returned (it completes once they have; scoreboard_complete.go),
	// the warp waiting for it at the block's end. As far as the kernel's
	// registers allow: where they cannot hold every load hoisted
	// (ir.Func.HoistRegs), a load issues above such arithmetic only while
	// the registers live at it in the PTX's order (ir.Func.LiveWords) and
	// those the arithmetic issued ahead still waits for fit (registerGate;
	// wmma_f64's SASS: ten of sixteen fragment loads above the first
	// DMMA). wmma.mma issues ahead as arithmetic does.
	HoistLoads bool
	// LoopUnroll: ptxas unrolls an innermost loop of one block with a
	// global load again (ir.BraUnrolled: ir.UnrollFactor times, its
	// rule), and schedules the unrolled body as one block, the loads of
	// later PTX iterations in flight above the arithmetic of earlier ones
	// as far as the registers allow (registerGate); the model ends a
	// scheduling region (HoistLoads) at such a loop's back edge only every
	// LoopUnroll-th time a warp reaches it. 0 or 1: every time.
	LoopUnroll int
	// UnrollFree: LoopUnroll takes the counted loops with no global load
	// that ptxas unrolls again too (ir.BraUnrolledFree: register
	// arithmetic of at most 32 instructions, testdata/timing/fp64pipe's
	// and rowwalk's SASS). Off: only those with a global load.
	UnrollFree bool
	// UnrollOverhead: a loop ptxas unrolls again (LoopUnroll) steps its
	// counter, compares it and branches once for LoopUnroll PTX bodies
	// (fp64pipe's mix_f: 64 FFMA, one IADD3, one ISETP, one BRA), so the
	// PTX body's counter step, compare (ir.UnrollStep) and back edge issue
	// only where ptxas's body ends, the warp's LoopUnroll-th arrival in a
	// row; elsewhere they take no issue slot, no latency and no branch
	// resolution (foldMovs). Off: every PTX body pays them.
	UnrollOverhead bool
	// UnrolledHoistBound: with LoopUnroll, a kernel is held to the
	// hoisting bound (registerGate) when its registers cannot hold every
	// load of ptxas's unrolled body hoisted — ir.Func.HoistRegs, the
	// PTX's body scheduled, plus LoopUnroll-1 more bodies' loaded values
	// (ir.Func.UnrolledLoadWords) — not only the PTX's body's. ptxas
	// hoists 8 of rowreuse's 32 loads above its first FFMA within 30
	// registers, 5 where the loop keeps two clock stamps live, 12 with
	// one load an iteration (testdata/timing/hoist). Off: the PTX's body
	// alone decides (rowreuse then hoists all 32).
	UnrolledHoistBound bool
	// ConstBankLive: the registers the hoisting bound counts live
	// (registerGate, hoistWords) leave out the values ptxas reads from the
	// constant bank where it uses them (ir.Func.LiveWordsConst: a kernel
	// parameter, a __constant__ at a fixed address, their cvta.to.global),
	// as mm3_kernel's SASS does. Off: the PTX's order (ir.Func.LiveWords).
	ConstBankLive bool
	// WmmaRounds: a wmma.load's fragment reaches its MMA
	// ir.WmmaAccess.Rounds round trips after the load issues: ptxas puts
	// the loaded values' consumers (byte packs, tf32 conversions and the
	// MMA of each k-slice) between the step's loads, and each later
	// group of loads goes out when the data of the one before is back —
	// an L2 hit's latency more each (a shared-memory load's for shared
	// memory). Off: the PTX's order, one round trip.
	WmmaRounds bool
	// WmmaReuse: a wmma.load of an A or B fragment inside a loop
	// (ir.WmmaAccess.Reuse) issues no sooner than the warp's last MMA
	// starts — ptxas loads each k step's fragment into the registers the
	// step before's MMAs read (testdata/programs3/wmmagemm, wg.sass: no
	// load of a k step above the previous step's MMAs in any gg or gs
	// loop). Off: the hoisting bound alone (registerGate).
	WmmaReuse bool
	// WmmaGroupRounds: with WmmaRounds, a fragment whose own loads ptxas
	// sends in groups one after another (ir.WmmaAccess.Groups: an 8-bit
	// operand read a byte an element in eight or sixteen loads, half its
	// LDG.E.U8 packed before the other half goes out; four are one group,
	// ir.wmmaByteRounds) sends each later group's requests to the L1 and
	// the L2 when the group before's data is back, so that a group
	// reading lines no earlier group touched pays their DRAM fetch, not
	// an L2 hit (testdata/programs3/wmmagemm, wg.sass: the gg s8 step's
	// second half reads 8 rows of B the first half did not). Off: every
	// round after the first an L2 hit's latency.
	WmmaGroupRounds bool
	// WmmaSliceGroups: with WmmaGroupRounds, an A fragment of tf32 the
	// code converts sends its HMMA.1684 k-slices' requests as groups
	// (ir.WmmaAccess.Slices): ptxas converts a slice and issues its MMAs
	// before it loads the next (testdata/timing/wmmatf32, wt.sass), so A
	// column-major's second slice (four other storage rows) pays their
	// fetch and A row-major's (the same sectors) an L1 hit. Off: the
	// later slice an L2 hit (WmmaRounds).
	WmmaSliceGroups bool
	// WmmaRoundsLoopOnly: WmmaRounds and WmmaGroupRounds apply to a
	// loop's fragment loads only (ir.WmmaAccess.Reuse): in straight code
	// ptxas has registers for every load and sends them all before the
	// first consumer (testdata/programs3/wmmagemm, wg.sass's ch kernels:
	// the eight LDG.E.U8 of an s8 B read a byte an element and A's two
	// LDG.E above the first IMMA; tf32's eight LD.E above the first
	// conversion and HMMA.1684). Off: in any code.
	WmmaRoundsLoopOnly bool
	// WmmaRepeats: a wmma.mma that computes again the value an earlier one
	// of its straight code computed (ir.TensorOperands.RepeatOf: the same
	// operands' values, in a basic block or a counted loop ptxas unrolls
	// fully) takes no issue slot and no pipe: ptxas computes the value
	// once (testdata/timing/wmmacse: four chains on the same A and B are
	// one in the SASS wherever it is straight code). Its registers are
	// ready when the earlier one's are (foldMovs).
	WmmaRepeats bool
	// L1Wavefronts: a global load takes a cycle of the L1's data path
	// per data-stage wavefront when that is more than its bytes take:
	// lanes reading different lines at the same offset in them conflict
	// on the L1's banks as shared-memory accesses do (memory.go,
	// l1DataBytes).
	L1Wavefronts bool
	// L2AccessBytes: each line a load request touches takes at least this
	// much of the L2's bandwidth (L2BytesPerNS), its sectors' bytes when
	// more: the L2's lookups per ns bound random 4-byte loads.
	L2AccessBytes float64
	L2Bytes       int
	// Address translation (tlb.go), with TLBCold (Nsight Compute's
	// conditions; off: no translation cost): requests leaving an SM are
	// translated in regions of TLBRegionBytes; an SM's first request to a
	// region in a grid asks the shared translation, TLBMissNS; a host
	// launch's first request to a region the launch before did not touch
	// walks, TLBWalkNS.
	TLBRegionBytes       uint64
	TLBWalkNS, TLBMissNS float64
	TLBCold              bool
	// TLBPrograms: translation is timed (as with TLBCold) in whole
	// programs (Options.Program: warpsim cc's programs), whose launches
	// the device sees from the process's first: a program's own history
	// says which regions the launch before touched, where a launch file's
	// kernel ran on the GPU after launches the model never saw
	// (testdata/timing/firstlaunch: a program's first launches pay the
	// walk under Nsight Compute and in plain runs alike).
	TLBPrograms bool

	KernelNS        float64 // a kernel's fixed duration beyond its blocks' work (launch, drain)
	BlockDispatchNS float64 // the block scheduler hands out one block per this many ns, GPU-wide
	// FirstDispatchNS: the grid's first wave (every SM's first blocks up
	// to its limit) is handed out at one block per this many ns (0:
	// BlockDispatchNS, as later blocks).
	FirstDispatchNS float64
	BlockRateFloor  bool    // the block scheduler takes retired blocks back one per BlockDispatchNS; a grid ends when it has taken its last (grid.go, retirementDrain)
	BlockLaunch     uint32  // cycles from a block's dispatch until its warps issue
	BlockRetireNS   float64 // from a block's last warp's exit until its SM takes the next block (placement.go)
	LaunchGapNS     float64 // host-side cost of a launch, seen between back-to-back launches (event timing)
	DeviceLaunch    uint32  // cycles a device-side launch costs the launching warp
	ChildStartNS    float64 // from a device-side launch to the child grid's start, when nothing holds it back
	DeviceSyncNS    float64 // a device-side cudaDeviceSynchronize's cost beyond its children
	// ChildLaunchNS: the grid management unit starts a device-launched
	// grid at most once per this many ns; ConcurrentKernels grids at most
	// run at once (the compute capability's resident-grid limit).
	ChildLaunchNS     float64
	ConcurrentKernels int
	Source            string // where the figures come from
	SubPartitions     int

	// Derived at the clock (ForArch): cycles of the ns figures.
	L2HitLatency, DRAMLatency, AtomicCycles, KernelLaunch, DispatchCycles float64
	DRAMReorderCycles, DRAMFarCycles                                      float64
	DRAMLatencySpreadCycles, DRAMBankCycles, DRAMWriteDrainCycles         float64
	AtomicReturnCycles, TensorMapFetchCycles, FirstDispatchCycles         float64
	BlockRetireCycles                                                     float64
	TLBWalkCycles, TLBMissCycles                                          float64
	L2BytesPerCycle, DRAMBytesPerCycle, FarBytesPerCycle                  float64
}

// ForArch returns the timing parameters of a preset at its clock (or at
// clockMHz when not 0): measured figures for the presets the table has,
// and for the others the figures of the nearest measured generation with
// the preset's own clock, SM count, cache sizes and DRAM bandwidth.
func ForArch(a *arch.Arch, clockMHz float64) *Params {
	base, ok := measured[a.PresetBase()]
	if !ok {
		base = nearest(a)
	}
	p := *base
	p.ClockHz = float64(a.ClockKHz) * 1000
	if clockMHz > 0 {
		p.ClockHz = clockMHz * 1e6
	}
	if p.ClockHz == 0 {
		p.ClockHz = 1e9
	}
	p.SubPartitions = max(a.SubPartitions, 1)
	if p.L2Bytes == 0 {
		p.L2Bytes = a.L2Bytes
	}
	if p.DRAMBytesPerNS == 0 {
		p.DRAMBytesPerNS = 0.8 * a.MemBandwidth() / 1e9
	}
	if p.DRAMFetch == 0 {
		p.DRAMFetch = 32
	}
	applyCustom(&p, a) // an arch file's or --set's figures (custom.go)
	if p.InstBytes == 0 {
		p.InstBytes = 16
	}
	if p.IcacheBytes == 0 {
		p.IcacheBytes = 32 << 10
	}
	ghz := p.ClockHz / 1e9
	p.L2HitLatency = float64(p.L2HitCycles) + p.L2HitNS*ghz
	p.DRAMLatency = float64(p.DRAMCycles) + p.DRAMNS*ghz
	p.DRAMReorderCycles = p.DRAMReorderNS * ghz
	p.DRAMFarCycles = p.DRAMFarNS * ghz
	p.DRAMLatencySpreadCycles = p.DRAMLatencySpreadNS * ghz
	p.DRAMBankCycles = p.DRAMBankNS * ghz
	p.DRAMWriteDrainCycles = p.DRAMWriteDrainNS * ghz
	p.FarBytesPerCycle = p.FarBytesPerNS / ghz
	p.AtomicCycles = p.AtomicNS * ghz
	p.AtomicReturnCycles = p.AtomicReturnNS * ghz
	p.TensorMapFetchCycles = p.TensorMapFetchNS * ghz
	p.KernelLaunch = p.KernelNS * ghz
	p.DispatchCycles = p.BlockDispatchNS * ghz
	p.FirstDispatchCycles = p.FirstDispatchNS * ghz
	p.BlockRetireCycles = p.BlockRetireNS * ghz
	p.TLBWalkCycles = p.TLBWalkNS * ghz
	p.TLBMissCycles = p.TLBMissNS * ghz
	p.L2BytesPerCycle = p.L2BytesPerNS / ghz
	p.DRAMBytesPerCycle = p.DRAMBytesPerNS / ghz
	return &p
}

func nearest(a *arch.Arch) *Params {
	switch {
	case a.Major >= 9:
		return measured["h100"]
	case a.Major == 8:
		return measured["a100"]
	case a.Major == 7:
		return measured["v100"]
	}
	return measured["k40"]
}

// classTable builds a per-class table from a map of the classes that
// differ from def.
func classTable(def uint32, m map[ir.Class]uint32) (t [ir.NumClasses]uint32) {
	for i := range t {
		t[i] = def
	}
	for c, v := range m {
		t[c] = v
	}
	return t
}

// LibcallCost is what a call of a libdevice function in clang's code costs
// a warp: ptxas makes it a CALL of libdevice's routine (the SASS nvcc
// inlines, with the call's moves, CALL and RET), which the warp runs before
// its next instruction. Slots take the sub-partition's issue, XU and FP64
// operations its pipes, so that many warps calling at once are bound by
// them; Cycles hold the warp, so that one warp's chain of calls takes the
// routine's latency.
type LibcallCost struct {
	Slots  uint32 // SASS instructions executed a call (0: 24)
	Cycles uint32 // from the call until the caller's next instruction issues (0: no hold)
	XU     uint32 // of the Slots, MUFU operations (the XU pipe)
	FP64   uint32 // of the Slots, double-precision operations (the FP64 pipe)
}

// libcallCosts is a preset's Libcall table: the rule for libdevice's math
// functions not measured on their own (f32, f64) and the measured ones by
// name (arch.LibcallFuncs, without __nv_).
func libcallCosts(f32, f64 LibcallCost, byName map[string]LibcallCost) [ir.LibcallKinds]LibcallCost {
	var t [ir.LibcallKinds]LibcallCost
	t[ir.LibcallMathF32], t[ir.LibcallMathF64] = f32, f64
	for name, c := range byName {
		k, ok := ir.LibcallNames["__nv_"+name]
		if !ok {
			panic("warpsim internal error: libcallCosts: " + name + " is not in arch.LibcallFuncs")
		}
		t[k] = c
	}
	return t
}

// hoistClasses is a Params.HoistFixed with the classes given.
func hoistClasses(cs ...ir.Class) (t [ir.NumClasses]bool) {
	for _, c := range cs {
		t[c] = true
	}
	return t
}
