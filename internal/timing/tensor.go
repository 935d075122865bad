package timing

import (
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/tensor"
)

// TensorPipe is a sub-partition's tensor pipe (ir.ClassTensor: mma.sync,
// wmma.mma, wgmma.mma_async), per input element type (tensor.Elem). An MMA
// of M multiply-adds per warp is ceil(M / InstMACs) of the hardware's MMA
// instructions (wmma m16n16k16 f16: two HMMA.16816), and keeps the pipe
// busy Overhead per such instruction plus M / MACs cycles (fractional:
// the pipe's free time is kept in 1/TensorFrac cycles, so that 6.25-cycle
// MMAs issue at that average rate); other MMAs wait for it on
// math_pipe_throttle. Its result is ready Latency cycles after that.
type TensorPipe struct {
	// MACs is the multiply-adds the pipe does per cycle for mma.sync and
	// wmma; WgmmaMACs for wgmma (0: MACs).
	MACs, WgmmaMACs [tensor.S32 + 1]uint32
	// InstMACs is the multiply-adds of one hardware MMA instruction (0:
	// one per PTX instruction); Overhead is the pipe cycles, in
	// 1/TensorFrac cycle, each costs beyond its multiply-adds (mma.sync and
	// wmma; wgmma has none).
	InstMACs, Overhead [tensor.S32 + 1]uint32
	// WmmaInstMACs, where not 0, replaces InstMACs for wmma.mma: the
	// compiler builds some wmma shapes from smaller hardware MMAs than
	// mma.sync's (on the H100 wmma tf32 m16n16k8 is four HMMA.1684 of 512
	// multiply-adds, where mma.sync m16n8k8 tf32 is one HMMA.1688 of 1024).
	WmmaInstMACs [tensor.S32 + 1]uint32
	// Latency is the cycles from the end of an MMA's issue interval to
	// its result.
	Latency [tensor.S32 + 1]uint32
	// WgmmaOverhead is the pipe cycles, in 1/TensorFrac cycle, a wgmma
	// costs per sub-partition beyond its multiply-adds, and WgmmaMinCycles
	// the least pipe time a wgmma takes (small N: the H100 issues one
	// wgmma per SM every 18 cycles however few its multiply-adds).
	// WgmmaLatency, when not 0, replaces Latency for wgmma: its result is
	// ready WgmmaLatency cycles plus WgmmaResultPct percent of its
	// multiply-adds' time after it issues (a lone warpgroup's dependent
	// chain takes 31 + 1.18 × that on the H100), whatever its pipe time.
	WgmmaOverhead, WgmmaMinCycles, WgmmaLatency, WgmmaResultPct [tensor.S32 + 1]uint32
	// WgmmaQueue, when not 0, is how many wgmma a sub-partition's tensor
	// pipe queues: a warp issues wgmma.mma_async and goes on while fewer
	// than that are ahead, and the pipe runs them in the order they were
	// issued (0: a wgmma waits for the pipe on math_pipe_throttle, as an
	// mma.sync does). On the H100 four warpgroups' dependent chains run
	// alike at the pipe's rate (testdata/timing/wgmma/h100b, wgs=4, within
	// 2% of four wgmma's pipe time at N = 8 and 64), where a pipe granted
	// to whichever warp the scheduler picks starves one warpgroup to
	// twice the others' time: 4, the least queue that keeps every
	// warpgroup's wgmma in it.
	WgmmaQueue uint32
	// Release, when not 0, is the cycles from the end of an MMA's pipe
	// time until a branch or barrier of its warp may issue: a warp's MMAs
	// do not overlap across the end of a basic block (a loop's iterations
	// of independent MMA chains run one after the other, as measured:
	// ptxas waits for the warp's MMA scoreboard to drain there).
	Release [tensor.S32 + 1]uint32
	// ReleaseMMAs, when not 0, makes the release of an mma.sync or
	// wmma.mma whose type has a Release this many of its hardware MMA's
	// pipe times after its pipe end, less the branch's own latency (the
	// class table's): the wait scales with the MMA's size (the H100's
	// one-warp loops end 3 × 6.25 cycles after their last m16n8k16 f16 MMA
	// and 3 × 4.25 after their last m16n8k8 f16, m16n8k16 s8 or m16n8k4
	// tf32). wgmma keeps Release.
	ReleaseMMAs uint32
	// ChainLatency, when not 0, is the cycles from an mma.sync's or
	// wmma.mma's pipe start until its accumulator is there for the next
	// MMA of the same basic block (the tensor core forwards it: a
	// straight-code chain of one accumulator takes ChainLatency a step,
	// whatever the MMA's pipe time, where Latency after the pipe time is
	// when the registers hold it: what other instructions, and an MMA
	// after a branch, wait for). A wmma.mma's hardware MMAs on the
	// accumulator's halves are independent, so its chain's step is one
	// hardware MMA's. The forwarded time is dropped at a branch or a
	// barrier (chainFwd).
	ChainLatency [tensor.S32 + 1]uint32
	// WmmaReleaseMMAs, when not 0, replaces ReleaseMMAs for wmma.mma: the
	// H100's one-warp wmma loops end later after their last MMA than
	// mma.sync loops of the same hardware MMAs (testdata/programs3/nvcc's
	// mb2.txt: about 31 cycles after the last of 8 or 16 HMMA.16816, 5 ×
	// 6.25, where mma.sync's take 19).
	WmmaReleaseMMAs uint32
}

// TensorFrac is the tensor pipe's time unit: 1/TensorFrac cycle.
const TensorFrac = 64

// tensorCost is a tensor-pipe instruction's pipe time, in 1/TensorFrac
// cycle, the latency from its end to the result and to the scoreboard's
// release (TensorPipe.Release): from the preset's
// TensorPipe, or the class tables where it has no rate for the
// instruction's input type.
func (p *Params) tensorCost(in *ir.Inst) (cost uint64, latency, release uint32) {
	elem, macs := ir.TensorWork(in)
	if int(elem) >= len(p.Tensor.MACs) {
		elem = tensor.ElemNone
	}
	rate := p.Tensor.MACs[elem]
	wgmma := in.Mode == ir.TensorWgmma
	if wgmma && p.Tensor.WgmmaMACs[elem] != 0 {
		rate = p.Tensor.WgmmaMACs[elem]
	}
	if rate == 0 {
		return uint64(p.Interval[ir.ClassTensor]) * TensorFrac, p.Latency[ir.ClassTensor] - min(p.Latency[ir.ClassTensor], p.Interval[ir.ClassTensor]), 0
	}
	cost = (uint64(macs)*TensorFrac + uint64(rate) - 1) / uint64(rate)
	if wgmma {
		macsCost := cost
		cost = max(cost, uint64(p.Tensor.WgmmaMinCycles[elem])*TensorFrac) + uint64(p.Tensor.WgmmaOverhead[elem])
		if l := p.Tensor.WgmmaLatency[elem]; l != 0 {
			pct := uint64(p.Tensor.WgmmaResultPct[elem])
			if pct == 0 {
				pct = 100
			}
			// The result, from the issue: l plus the multiply-adds' time
			// scaled; from the pipe's end, what remains of that.
			res := uint64(l)*TensorFrac + macsCost*pct/100
			lat := uint32(0)
			if res > cost {
				lat = uint32((res - cost + TensorFrac - 1) / TensorFrac)
			}
			return cost, lat, p.Tensor.Release[elem]
		}
	} else {
		n := uint64(1)
		im := p.Tensor.InstMACs[elem]
		if w := p.Tensor.WmmaInstMACs[elem]; w != 0 && in.Mode == ir.TensorWmmaMMA {
			im = w
		}
		if im != 0 {
			n = (uint64(macs) + uint64(im) - 1) / uint64(im)
		}
		cost += n * uint64(p.Tensor.Overhead[elem])
		k := uint64(p.Tensor.ReleaseMMAs)
		if w := p.Tensor.WmmaReleaseMMAs; w != 0 && in.Mode == ir.TensorWmmaMMA {
			k = uint64(w)
		}
		if k != 0 && p.Tensor.Release[elem] != 0 {
			// k hardware MMAs' pipe time, less the branch's latency.
			r := (k*cost/n + TensorFrac - 1) / TensorFrac
			return cost, p.Tensor.Latency[elem], uint32(r - min(r, uint64(p.Latency[ir.ClassBranch])))
		}
	}
	return cost, p.Tensor.Latency[elem], p.Tensor.Release[elem]
}

// tensorIssue charges sub-partition sp's tensor pipe for in, issued at
// now: the pipe takes it when free (its free time kept in fractions of a
// cycle, the next MMA issuing at the cycle it falls in), and it returns
// the cycles until the pipe is free again and until the result is ready.
func (s *gridState) tensorIssue(sm *smT, sp *spT, w *warpT, in *ir.Inst) (interval, latency uint32) {
	cost, lat, rel := s.p.tensorCost(in)
	start := max(sm.now*TensorFrac, sp.tensorFree)
	end := start + cost
	sp.tensorFree = end
	sm.tensorBusy += cost
	free := end / TensorFrac
	end = (end + TensorFrac - 1) / TensorFrac
	done := end + uint64(lat)
	if q := uint64(s.p.Tensor.WgmmaQueue); in.Mode == ir.TensorWgmma && q != 0 {
		// wgmma is queued, not throttled: the warp issues it and goes on
		// while the tensor cores take the queued wgmma of every warpgroup
		// in the order they were issued; the next tensor instruction
		// waits only while WgmmaQueue of this one's pipe time are ahead.
		issue := uint64(1)
		if back := sp.tensorFree - min(sp.tensorFree, (q-1)*cost); back > (sm.now+1)*TensorFrac {
			issue = (back+TensorFrac-1)/TensorFrac - sm.now
		}
		return uint32(issue), uint32(done - sm.now)
	}
	if rel != 0 {
		w.tensorLast = max(w.tensorLast, end+uint64(rel))
	}
	w.chainAt = 0
	if c := s.p.mmaChainLatency(in); c != 0 && in.Mode == ir.TensorWmmaMMA {
		// The accumulator forwarded to the next MMA of the block.
		w.chainAt = min((start+TensorFrac-1)/TensorFrac+uint64(c), done)
	}
	return uint32(free - sm.now), uint32(done - sm.now)
}

// mmaChainLatency is in's TensorPipe.ChainLatency (0: none).
func (p *Params) mmaChainLatency(in *ir.Inst) uint32 {
	elem, _ := ir.TensorWork(in)
	if int(elem) >= len(p.Tensor.ChainLatency) {
		return 0
	}
	return p.Tensor.ChainLatency[elem]
}

// chainFwd holds a warp's accumulators forwarded from its MMAs to the next
// MMA of the same basic block (TensorPipe.ChainLatency): register, when
// forwarded, and its regReady then (an entry counts only while the register
// holds that MMA's result); either may be a future (quantum.go), kept as
// regReady is. A branch or a barrier empties it.
type chainFwd struct {
	reg  [chainFwdRegs]int32
	at   [chainFwdRegs]uint64
	done [chainFwdRegs]uint64
	n    int // entries in use (a ring once full: next the oldest)
	next int
}

// chainFwdRegs is the accumulator registers a warp forwards at most (four
// wmma f32 accumulators).
const chainFwdRegs = 32

// add records register r written by an MMA: there for the next MMA at at,
// in the registers at done (at no later than done).
func (c *chainFwd) add(q *smQuantum, r int32, at, done uint64) {
	i := -1
	for j := range c.n {
		if c.reg[j] == r {
			i = j
			break
		}
	}
	if i < 0 {
		i = c.next
		c.next = (c.next + 1) % chainFwdRegs
		c.n = min(c.n+1, chainFwdRegs)
	}
	c.reg[i], c.at[i], c.done[i] = r, at, done
	q.keep(&c.at[i])
	q.keep(&c.done[i])
}

// ready is when register r, now ready at regAt, is there for an MMA: its
// forwarded time while it holds the forwarding MMA's result, regAt else.
func (c *chainFwd) ready(r int32, regAt uint64) uint64 {
	for i := range c.n {
		if c.reg[i] == r {
			if c.done[i] == regAt {
				return c.at[i]
			}
			return regAt
		}
	}
	return regAt
}

// copyReg forwards register d as register a is forwarded now (a repeat
// of a's MMA: foldMovs), if it is.
func (c *chainFwd) copyReg(q *smQuantum, d, a int32) {
	for i := range c.n {
		if c.reg[i] == a {
			c.add(q, d, c.at[i], c.done[i])
			return
		}
	}
}

// tensorTable builds a per-type table from the types given.
func tensorTable(m map[tensor.Elem]uint32) (t [tensor.S32 + 1]uint32) {
	for e, v := range m {
		t[e] = v
	}
	return t
}

// groupsT are a warp's asynchronous operations in commit groups: those
// issued since the last commit (open: when the last completes) and the
// committed groups' completions, oldest first (done[:n]). A completion may
// be a future (a copy's answer from the L2 side, quantum.go): they are
// combined with fmax and every slot holding one is kept.
type groupsT struct {
	open uint64
	done [8]uint64
	n    int
}

// add joins an operation completing at t to the open group.
func (g *groupsT) add(q *smQuantum, t uint64) {
	g.open = q.fmax(g.open, t)
	q.keep(&g.open)
}

// commit closes the open group.
func (g *groupsT) commit(q *smQuantum) {
	if g.n == len(g.done) {
		// More groups in flight than kept: merge the two oldest.
		g.done[1] = q.fmax(g.done[0], g.done[1])
		copy(g.done[:], g.done[1:])
		g.n--
	}
	g.done[g.n] = g.open
	g.n++
	g.open = 0
	g.keep(q)
}

// keep keeps every slot that holds a future (their values moved).
func (g *groupsT) keep(q *smQuantum) {
	for i := range g.done[:g.n] {
		q.keep(&g.done[i])
	}
}

// last is when every operation of g (open and committed) has completed.
func (g *groupsT) last(q *smQuantum) uint64 {
	t := g.open
	for _, d := range g.done[:g.n] {
		t = q.fmax(t, d)
	}
	return t
}

// wait drops all but the newest keep committed groups (and, with all, the
// open one) and returns when those dropped complete.
func (g *groupsT) wait(q *smQuantum, keep int, all bool) uint64 {
	keep = min(keep, g.n)
	n := g.n - keep
	t := uint64(0)
	for _, d := range g.done[:n] {
		t = q.fmax(t, d)
	}
	copy(g.done[:], g.done[n:g.n])
	g.n = keep
	g.keep(q)
	if all {
		t = q.fmax(t, g.open)
		g.open = 0
	}
	return t
}

// waitUntil holds warp w until t (on the wait stall: a fixed-latency
// dependency, the tensor pipe's result or the copy's arrival).
func waitUntil(sm *smT, w *warpT, t uint64) {
	if isFut(t) || isFut(w.ready) {
		if t != 0 {
			w.ready = sm.fmax(w.ready, t)
			sm.keep(&w.ready)
			w.readyWhy = stallWait
		}
		return
	}
	if t > max(w.ready, sm.now+1) {
		w.ready, w.readyWhy = t, stallWait
	}
}

// wgmmaGroup keeps a warp's wgmma groups: wgmma.mma_async joins the open
// group (done: when its result is ready), commit_group closes it, and
// wait_group N holds the warp until all but the newest N committed groups
// are done.
func wgmmaGroup(sm *smT, w *warpT, in *ir.Inst, done uint64) {
	q := &sm.smQuantum
	switch {
	case in.Mode == ir.TensorWgmma:
		w.wgmma.add(q, done)
	case in.Cmp == ir.WgmmaCommit:
		w.wgmma.commit(q)
	case in.Cmp == ir.WgmmaWait:
		waitUntil(sm, w, w.wgmma.wait(q, int(in.Vec), false))
	}
}

// asyncGroup keeps a warp's cp.async groups the same way: a cp.async
// joins the open group when its global sectors arrive (done: the memory
// system's answer for the load of its source), commit_group closes it,
// wait_group N waits for all but the newest N groups, wait_all for all.
// (cp.async.mbarrier.arrive and mbarrier waits: mbarrier.go.)
func (s *gridState) asyncGroup(sm *smT, w *warpT, in *ir.Inst, fn int32, done uint64) {
	q := &sm.smQuantum
	switch in.Mode {
	case ir.AsyncCopy:
		w.cpAsync.add(q, done)
	case ir.AsyncCommit:
		w.cpAsync.commit(q)
	case ir.AsyncWaitGroup:
		keep := 0
		if funcs := s.g.Funcs(); int(fn) < len(funcs) && int(in.Imm) < len(funcs[fn].TensorOps) {
			keep = int(funcs[fn].TensorOps[in.Imm].Num)
		}
		waitUntil(sm, w, w.cpAsync.wait(q, keep, false))
	case ir.AsyncWaitAll:
		waitUntil(sm, w, w.cpAsync.wait(q, 0, true))
	}
}
