// Instruction fetch: each SM fetches its kernel's code into its
// instruction cache a 128-byte line at a time, and a warp whose next
// instruction's line is not there yet cannot issue (Nsight Compute's
// no_instruction stall). The H100's figures come from
// testdata/timing/icache (straight-line code, loops and forward jumps of
// growing size, timed with %clock64 under ncu with its caches flushed):
//
//   - a stream: from a line it misses on, a sub-partition fetches the
//     following lines in order, one every FetchLineCycles (17.4 cycles a
//     128-byte line: straight-line code runs at 2.17 cycles a 16-byte
//     instruction cold against 1.04 warm), at most FetchAhead lines past
//     the furthest line its warps asked for; the four sub-partitions
//     stream side by side into the SM's one cache (testdata/triton3/
//     study/fetch: four warps on four pieces of far code take as long as
//     one warp on one);
//   - a branch does not stop the stream, taken or not (the same
//     recordings: a branch every two lines costs nothing); a jump to a
//     line the stream would bring later than a new request restarts it
//     there, the line arriving FetchMiss cycles later (a jump over 1 KB
//     of near code or 8 lines of far code), one to a line it brings
//     sooner waits for it (over 1, 2 or 4 lines of far code);
//   - the cache holds IcacheBytes (a loop of 33 KB runs warm, one of 50 KB
//     misses on every line); lines are replaced oldest first, so a loop
//     larger than the cache misses on every line, as measured;
//   - the first FetchNearBytes of the kernel's code come at that rate;
//     lines beyond (code over 64 KB) come from DRAM, FetchFarLineCycles a
//     line and FetchFarMiss a restart;
//   - the kernel's launch takes FetchLaunchLineNS longer a line of its
//     first FetchLaunchBytes (16 KB) of code.
//
// The kernel's entry line is there when the block's warps first issue:
// its fetch overlaps the block's launch, whose calibrated latency
// (BlockLaunch, KernelNS) includes it. The cache is cold at every grid's
// start, as under Nsight Compute's --cache-control all, which the held-out
// recordings use.
//
// The model runs PTX, not SASS: a function's PTX instructions are laid out
// one after another, each taking the SASS bytes ptxas makes of it
// (codeBytes): InstBytes for most, the sequence issueSlots counts for one
// that ptxas expands (an IEEE division or square root, an integer
// division, an aggregated atomic), and MovBytes for a mov, which ptxas
// mostly folds away (an immediate becomes its users' operand, a copy
// vanishes in register allocation), and twice InstBytes for a 64-bit
// integer add, logic op, shift, compare or select (two SASS instructions
// of the 32-bit integer units). With MovBytes 0, every instruction takes
// InstBytes (the layout before the third Triton batch).

package timing

import (
	"math"
	"unsafe"

	"github.com/warpsim/warpsim/internal/ir"
)

// fetchLineBytes is the instruction cache's line.
const fetchLineBytes = 128

// codeMap places a grid's functions one after another in code memory,
// each from a line boundary.
type codeMap struct {
	funcs []codeRange
	lines int
	// kernelLines are the kernel's own lines (the first).
	kernelLines int
}

// codeRange is one function's instructions: the addresses of Code[0] and
// past its end, and the line each instruction is on.
type codeRange struct {
	first, end uintptr
	lineOf     []int32
}

// instSize is a constant, so that lineOf divides by a multiply.
const instSize = unsafe.Sizeof(ir.Inst{})

// newCodeMap lays out kernel and then the other functions of fns, each
// instruction taking codeBytes of p.
func newCodeMap(kernel *ir.Func, fns []*ir.Func, p *Params) *codeMap {
	c := &codeMap{}
	for i, f := range append([]*ir.Func{kernel}, fns...) {
		if f == nil || len(f.Code) == 0 || i > 0 && f == kernel {
			continue
		}
		first := uintptr(unsafe.Pointer(&f.Code[0]))
		r := codeRange{first: first, end: first + uintptr(len(f.Code))*instSize, lineOf: make([]int32, len(f.Code))}
		at := 0.0
		for j := range f.Code {
			r.lineOf[j] = int32(c.lines + int(at/fetchLineBytes))
			at += codeBytes(&f.Code[j], p)
		}
		c.funcs = append(c.funcs, r)
		c.lines += int(math.Ceil(at / fetchLineBytes))
		if i == 0 {
			c.kernelLines = c.lines
		}
	}
	return c
}

// codeBytes is the SASS bytes PTX instruction in takes in code memory.
// Measured with ptxas 13 (sm_90) on the third Triton batch's study half
// (testdata/triton3/study: ptxops.py, h100/sass_counts.txt): its libdevice
// kernels have fewer SASS than PTX instructions (ld_special_f32: 10,901
// PTX, 8,976 SASS), their 2,628 movs becoming 958 MOV, HFMA2 and UMOV
// (MovBytes 0.36 × 16), where a division's or square root's inline
// sequence is its issue slots (clamp_nan_f32: 15 SASS a div.rn.f32 and a
// sqrt.rn.f32 call site, their slow paths a subroutine after the EXIT that
// a normal operand never fetches); 64-bit integer adds, logic, shifts,
// compares and selects two SASS instructions each. Over the 72 kernels of
// the first corpus and the study half, this layout's code is a median 0.95
// of cuobjdump's (padding and the slow paths' subroutines after the EXIT
// included), 0.98–1.07 on the libdevice kernels; the old one's 1.24 a PTX
// instruction made them 1.26–1.51. printf's call is one instruction here.
func codeBytes(in *ir.Inst, p *Params) float64 {
	if p.MovBytes <= 0 {
		return p.InstBytes
	}
	if in.Op == ir.OpMov {
		return p.MovBytes
	}
	if in.Op == ir.OpVprintf {
		return p.InstBytes
	}
	if roundedCall(roundedKind(in)) {
		// A directed rounding form ptxas calls (rounded.go): BSSY, MOV,
		// CALL, BSYNC at the call site; the subroutine after the EXIT,
		// one copy for every call site.
		return 4 * p.InstBytes
	}
	if wide64(in) {
		return 2 * p.InstBytes
	}
	return float64(issueSlots(in)) * p.InstBytes
}

// wide64 says whether in is a 64-bit integer operation the SM's 32-bit
// integer units do in two SASS instructions (IADD3 and IADD3.X, ISETP and
// ISETP.EX, two LOP3, SHF pairs, two SEL): add, sub, neg, logic, shifts,
// compares, selects, min and max of 64-bit integers. (Multiplies are one
// IMAD.WIDE or a few IMADs; their issueSlots stand.)
func wide64(in *ir.Inst) bool {
	switch in.Op {
	case ir.OpAdd, ir.OpSub, ir.OpNeg, ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpNot, ir.OpShl, ir.OpShr,
		ir.OpSetp, ir.OpSelp, ir.OpMin, ir.OpMax:
		return ir.TypeSize(in.Type) == 8 && !ir.IsFloat(in.Type)
	}
	return false
}

// launchCycles is what fetching the kernel's first FetchLaunchBytes of
// code adds to its launch: Nsight Compute's durations less the first
// pass's cycles grow by 300 ns from 3 to 17 KB of code and no further
// (icache_N, one warp): 2.7 ns a line.
func (c *codeMap) launchCycles(p *Params) float64 {
	lines := min(c.kernelLines, p.FetchLaunchBytes/fetchLineBytes)
	return float64(lines) * p.FetchLaunchLineNS * p.ClockHz / 1e9
}

// lineOf is the code line of instruction in (-1: not in the grid's code).
func (c *codeMap) lineOf(in *ir.Inst) int {
	p := uintptr(unsafe.Pointer(in))
	for i := range c.funcs {
		f := &c.funcs[i]
		if p >= f.first && p < f.end {
			return int(f.lineOf[(p-f.first)/instSize])
		}
	}
	return -1
}

// fetchT is one SM's instruction cache and its sub-partitions' fetch
// streams.
type fetchT struct {
	// at is, per code line, the cycle it arrives (or arrived) in the
	// cache; absent lines are notHere.
	at []uint64
	// fifo is the resident lines in arrival order (a ring of the cache's
	// capacity, head the oldest); n of them.
	fifo    []int32
	head, n int
	// streams are the sub-partitions' fetch streams; started: the SM has
	// fetched anything.
	streams []streamT
	started bool
	// Made as its SM gets its first block, the SMs in turn: cacheLinePad
	// (its streams, allocated with it, have room to spare: streamPad).
	_ cacheLinePad
}

// streamPad is the streamT a fetchT's streams have room for beyond its
// sub-partitions': a cache line that no other SM's stream shares.
const streamPad = 3

// streamT is one sub-partition's fetch stream: it brings line next at
// cycle nextAt (no stream: next < 0) and the lines after it one
// lineCycles apart, but no further than FetchAhead lines past demand, the
// furthest line its warps have asked for since it started.
type streamT struct {
	next   int
	nextAt float64
	demand int
}

const notHere = math.MaxUint64

func newFetch(lines int, p *Params) *fetchT {
	n := max(p.SubPartitions, 1)
	f := &fetchT{at: lineSlice[uint64](lines), streams: make([]streamT, n, n+streamPad)}
	for i := range f.at {
		f.at[i] = notHere
	}
	for i := range f.streams {
		f.streams[i].next = -1
	}
	capLines := max(1, p.IcacheBytes/fetchLineBytes)
	f.fifo = lineSlice[int32](min(capLines, max(lines, 1)))
	return f
}

// lineCycles is the stream's time for line l, and miss a new request's at
// l.
func (p *Params) lineCycles(l int) float64 {
	if p.FetchNearBytes > 0 && l*fetchLineBytes >= p.FetchNearBytes {
		return p.FetchFarLineCycles
	}
	return p.FetchLineCycles
}

func (p *Params) missCycles(l int) float64 {
	if p.FetchNearBytes > 0 && l*fetchLineBytes >= p.FetchNearBytes {
		return p.FetchFarMiss
	}
	return p.FetchMiss
}

// put makes line l resident from cycle t, the oldest line leaving when the
// cache is full.
func (f *fetchT) put(l int, t uint64) {
	if len(f.fifo) == 0 {
		return
	}
	if f.n == len(f.fifo) {
		f.at[f.fifo[f.head]] = notHere
		f.head = (f.head + 1) % len(f.fifo)
		f.n--
	}
	f.fifo[(f.head+f.n)%len(f.fifo)] = int32(l)
	f.n++
	f.at[l] = t
}

// bound is the last line stream s may bring: FetchAhead past its demand.
func (s *streamT) bound(p *Params) int { return s.demand + max(p.FetchAhead, 1) }

// advance brings stream s's lines that have arrived by cycle now into the
// cache. A stream that reached its bound waits there: its next line is
// asked for only when its warps move on (follow), a new request's time
// after that.
func (f *fetchT) advance(s *streamT, now uint64, p *Params) {
	for s.next >= 0 && s.next < len(f.at) && s.next <= s.bound(p) && s.nextAt <= float64(now) {
		if f.at[s.next] == notHere {
			f.put(s.next, uint64(math.Ceil(s.nextAt)))
		}
		s.next++
		s.nextAt += p.lineCycles(s.next)
	}
}

// follow moves stream s's demand to line l, which a warp of its
// sub-partition asks for at cycle now, when l is ahead of the demand and
// within the stream's reach (its warps going on in order; a jump
// elsewhere, to a line the cache holds, leaves the stream where it is).
func (s *streamT) follow(l int, now uint64, p *Params) {
	if s.next < 0 || l <= s.demand || l > s.bound(p)+1 {
		return
	}
	if s.next > s.bound(p) {
		// Waiting at its bound: the next line is asked for now.
		s.nextAt = max(s.nextAt, float64(now)+p.missCycles(s.next))
	}
	s.demand = l
}

// streamTime is when stream s brings line l (l at or after its next line,
// within its bound), with the lines before it.
func (s *streamT) streamTime(l int, p *Params) float64 {
	t := s.nextAt
	for k := s.next + 1; k <= l; k++ {
		t += p.lineCycles(k)
	}
	return t
}

// ready is the cycle line l is in the cache for a warp of sub-partition sp
// asking at cycle now: at once when it is there (or on its way), else the
// soonest of a stream that brings it (the warp's own sub-partition's or
// another's, each within its bound) and a new request, which points the
// warp's stream at l.
//
// Measured on the H100 (testdata/triton3/study/fetch, eleventh round): a
// branch does not stop the stream, taken or not (straight code with a
// branch not taken every two lines fetches as fast as without; a taken
// branch over 1, 2 or 4 lines of far code waits for the stream to bring
// its target, one over 8 lines is a new request), and the four
// sub-partitions fetch side by side (four warps on four pieces of far code
// take as long as one warp on one).
func (f *fetchT) ready(l int, now uint64, sp int, p *Params) uint64 {
	if l < 0 || l >= len(f.at) {
		return now
	}
	s := &f.streams[sp%len(f.streams)]
	f.advance(s, now, p)
	s.follow(l, now, p)
	if t := f.at[l]; t != notHere {
		return t
	}
	if !f.started {
		// The entry line: fetched during the block's launch.
		f.started = true
		return f.restart(s, l, float64(now), p)
	}
	best, from := float64(now)+p.missCycles(l), (*streamT)(nil)
	for i := range f.streams {
		q := &f.streams[i]
		if q.next < 0 || l < q.next || l > q.bound(p) {
			continue
		}
		if t := q.streamTime(l, p); t < best || t == best && q == s || l == q.next {
			// (A new request does not overtake a stream's next line.)
			best, from = t, q
		}
	}
	if from == nil {
		return f.restart(s, l, best, p)
	}
	for k := from.next; k <= l; k++ {
		if f.at[k] == notHere {
			f.put(k, uint64(math.Ceil(from.nextAt)))
		}
		if k < l {
			from.nextAt += p.lineCycles(k + 1)
		}
	}
	from.next = l + 1
	from.nextAt += p.lineCycles(l + 1)
	return f.at[l]
}

// restart points stream s at line l, which arrives at cycle t.
func (f *fetchT) restart(s *streamT, l int, t float64, p *Params) uint64 {
	t = math.Ceil(t)
	f.put(l, uint64(t))
	s.next, s.nextAt, s.demand = l+1, t+p.lineCycles(l+1), l
	return uint64(t)
}
