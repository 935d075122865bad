package sanitize

import (
	"fmt"
	"sort"

	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
)

// Racecheck keeps, for every byte of the block's shared memory (with
// --check-global-races, of global memory too), the last write and the last
// read: which thread, at which instruction, in which barrier interval of
// its warp. An access conflicts with a recorded one of another thread in
// the same interval (no barrier between them; for two lanes of one warp,
// no __syncwarp either): RAW, WAR or WAW. Between warps that is an error,
// within a warp a warning (compute-sanitizer's "Warp Level Programming").
// Atomics are never hazards. Lanes of one instruction writing the same
// byte are not a hazard (the hardware serializes them). Nor is a write of
// what is there already (engine.CheckAccess.Same), as the H100's
// racecheck sees it: two writes race only on the bytes the second changes
// (race_waw_mixed.cu: 7 then 9 in an int, one hazard, at its low byte), a
// write and a later read on every byte of the write's access if it changes
// any (race_raw_same.cu: 1 then 6, four hazards; 5 then 5, none), and a
// store that changes nothing raises no RAW or WAW, though it is the last
// write a later one races with (testdata/sanitize/race_waw_same.cu and the
// two above). A write after an unordered read is a WAR on every byte even
// when it changes nothing (probe2/reduce_war.cu: 0 over 0).
//
// A warp's barrier interval is the number of barriers it has passed: two
// warps in the same interval have no barrier between their accesses, as
// every warp must arrive at a barrier before any leaves it.
//
// An asynchronous copy's write into shared memory (engine.AsyncChecker) is
// recorded when the copy is issued, by the issuing thread at the copy's
// instruction, and stays pending until something orders it: a cp.async's
// bytes land at its thread's cp.async.wait_group/wait_all (from there on
// they are that thread's write in the barrier interval of the wait), or,
// after a cp.async.mbarrier.arrive, like a bulk copy's, for the threads
// that have since seen the mbarrier's phase complete (a successful
// test_wait/try_wait) and for those past a barrier after any such wait.
// Any other access of a pending byte, by the issuing thread too, races
// with the copy: compute-sanitizer's "Potential RAW hazard detected
// (invalid memcpy_async synchronization)" for cp.async and "(invalid async
// operation synchronization)" for a bulk copy (testdata/sanitize/mbar).

// hazard kinds
const (
	hazRAW uint8 = iota
	hazWAR
	hazWAW
)

var hazNames = []string{"RAW", "WAR", "WAW"}

// rcEntry is one recorded access of a byte.
type rcEntry struct {
	epoch uint32 // block serial (shared) or grid serial (global); 0 = none
	gen   uint32 // the warp's barrier interval
	wgen  uint32 // the warp's __syncwarp interval
	tid   uint32 // linear thread index in the block
	block uint32 // block linear index
	site  int32  // index in racecheck.sites
	inst  uint64 // dynamic instruction instance (lanes of one instruction share it)
	// async: the write of an asynchronous copy (engine.AsyncKindCopy or
	// AsyncKindBulk); pending: not yet ordered for other threads, by
	// its thread's cp.async wait (mbar 0) or by a completed wait on the
	// mbarrier at shared offset mbar-1 after inst.
	async   uint8
	pending bool
	mbar    uint32
	// silent: a write of the bytes that were there already, which raises
	// no hazard (but is the last write for the accesses after it).
	silent bool
}

// rcWaits are a block's successful waits on one mbarrier: each thread's
// last, and the last in each barrier interval (by the waiting warp's).
type rcWaits struct {
	tid   []uint64
	byGen []uint64
}

type rcSite struct {
	fn   *ir.Func
	pc   int
	line ir.LineInfo
	file string
}

type rcGroup struct {
	a, b       int32 // sites: the write first
	aOp, bOp   uint8
	count      int
	err        bool
	firstFound int
}

type rcHazard struct {
	kind     uint8
	err      bool
	addr     uint64
	block    [3]uint32
	bdim     [3]uint32
	w, o     rcEntry // the write, and the other access
	oIsWrite bool
}

type racecheck struct {
	global bool // global memory (--check-global-races) instead of shared
	s      *Sanitizer

	grid     any
	block    int
	bdim     [3]uint32
	bidx     [3]uint32
	epoch    uint32
	gen      []uint32
	wgen     []uint32
	inst     uint64
	w, r     []rcEntry           // shared: by offset
	gw, gr   map[uint64]*rcEntry // global: by address
	sites    []rcSite
	siteIdx  map[rcSiteKey]int32
	groups   map[[4]int32]*rcGroup
	nGroups  int
	hazards  []rcHazard
	nHazards int
	errHaz   int                 // error hazards of the launch
	waits    map[uint32]*rcWaits // by mbarrier shared offset + 1

	errors, displayed, shownErrors, shownWarnings int
}

type rcSiteKey struct {
	fn *ir.Func
	pc int
}

// enter switches the state to the site's block (and grid).
func (rc *racecheck) enter(site *engine.CheckSite) {
	if site.Grid == rc.grid && site.BlockLinear == rc.block && rc.epoch != 0 {
		return
	}
	newGrid := site.Grid != rc.grid
	if newGrid && rc.grid != nil && (len(rc.groups) > 0 || len(rc.hazards) > 0) {
		// A launch ended without EndLaunch (several launches of a launch
		// file): report its hazards before the next one's.
		rc.flush(rc.s)
	}
	rc.grid, rc.block, rc.bdim, rc.bidx = site.Grid, site.BlockLinear, site.BlockDim, site.Block
	nw := (int(site.BlockDim[0]*site.BlockDim[1]*site.BlockDim[2]) + 31) / 32
	rc.gen = append(rc.gen[:0], make([]uint32, nw)...)
	rc.wgen = append(rc.wgen[:0], make([]uint32, nw)...)
	if rc.global {
		if newGrid || rc.gw == nil {
			rc.epoch++
			rc.gw, rc.gr = map[uint64]*rcEntry{}, map[uint64]*rcEntry{}
		}
		return
	}
	rc.epoch++
	rc.waits = nil
	if n := site.SharedBytes; len(rc.w) < n {
		rc.w = make([]rcEntry, n)
		rc.r = make([]rcEntry, n)
	}
}

func (rc *racecheck) barrier(site *engine.CheckSite) {
	rc.enter(site)
	rc.gen[site.Warp]++
}

func (rc *racecheck) warpSync(site *engine.CheckSite) {
	rc.enter(site)
	rc.wgen[site.Warp]++
}

func (rc *racecheck) siteOf(site *engine.CheckSite) int32 {
	k := rcSiteKey{site.Func, site.PC}
	if i, ok := rc.siteIdx[k]; ok {
		return i
	}
	if rc.siteIdx == nil {
		rc.siteIdx = map[rcSiteKey]int32{}
		rc.groups = map[[4]int32]*rcGroup{}
	}
	i := int32(len(rc.sites))
	rc.sites = append(rc.sites, rcSite{site.Func, site.PC, site.Line, site.Prog.Filename})
	rc.siteIdx[k] = i
	return i
}

// access records a load or store's bytes and reports its conflicts.
func (rc *racecheck) access(s *Sanitizer, site *engine.CheckSite, a *engine.CheckAccess) {
	if a.Op == engine.CheckAtomic || a.Async || a.Bounds {
		return // an asynchronous copy's bytes landing or to land: see async
	}
	want := uint8(engine.SpaceShared)
	if rc.global {
		want = engine.SpaceGlobal
	}
	rc.enter(site)
	rc.inst++
	siteI := int32(-1)
	n := uint64(a.Size)
	for m := site.Exec; m != 0; m &= m - 1 {
		l := trailing(m)
		if a.Space[l] != want {
			continue
		}
		if siteI < 0 {
			siteI = rc.siteOf(site)
		}
		cur := rcEntry{epoch: rc.epoch, gen: rc.gen[site.Warp] + 1, wgen: rc.wgen[site.Warp], tid: uint32(site.Warp*32 + l),
			block: uint32(site.BlockLinear), site: siteI, inst: rc.inst}
		// A store that changes none of its bytes raises no hazard; one
		// that changes any races with reads on all of them, and with
		// writes on those it changes. A byte the block has not written
		// counts as changed (the GPU's shared memory starts with whatever
		// was there; warpsim's with zeros).
		same := uint16(0)
		if a.Op == engine.CheckStore && n <= 16 && a.Same[l] != 0 {
			same = a.Same[l]
			for b := a.Addr[l]; b < a.Addr[l]+n; b++ {
				if w, _ := rc.slot(b); w == nil || w.epoch != rc.epoch {
					same &^= 1 << (b - a.Addr[l])
				}
			}
		}
		silent := n <= 16 && same == uint16(1<<n-1)
		for b := a.Addr[l]; b < a.Addr[l]+n; b++ {
			w, r := rc.slot(b)
			if w == nil {
				break
			}
			// Lanes of one instruction that access the same byte raise
			// its hazard once: on the H100 a warp's 32 lanes loading 8
			// bins another warp had stored were 32 RAW hazards, one per
			// byte, and their stores 32 WAR warnings (probe6/hist_order,
			// --racecheck-report hazard).
			if a.Op == engine.CheckLoad {
				if rc.unordered(w, &cur) && !w.silent && !(r.epoch == cur.epoch && r.inst == cur.inst) {
					rc.hazard(s, hazRAW, b, *w, cur, false)
				}
				*r = cur
				continue
			}
			wr := cur
			wr.silent = silent
			// A write races with the last write only when no read of the
			// byte came between them: on the H100 a warp's load and store
			// of bins another warp had loaded and stored before (a barrier
			// interval apart from nothing) were a RAW and a WAR, never a
			// WAW, whichever warp went first (probe6/hist_order).
			readSince := r.epoch == w.epoch && r.inst > w.inst
			if same>>(b-a.Addr[l])&1 == 0 && !readSince && rc.unordered(w, &cur) && w.inst != cur.inst {
				rc.hazard(s, hazWAW, b, cur, *w, true)
			}
			// A write after an unordered read is a hazard even when it
			// changes nothing (reduce_war.cu: "Current Value : 0,
			// Incoming Value : 0", every byte).
			if rc.conflict(r, &cur) && !(w.epoch == cur.epoch && w.inst == cur.inst) {
				rc.hazard(s, hazWAR, b, cur, *r, false)
			}
			*w = wr
		}
	}
}

// async follows an asynchronous copy's write into shared memory (see the
// comment at the top).
func (rc *racecheck) async(s *Sanitizer, site *engine.CheckSite, a *engine.CheckAsync) {
	if rc.global {
		return
	}
	rc.enter(site)
	rc.inst++
	tid := uint32(site.Warp*32 + a.Lane)
	switch a.Event {
	case engine.AsyncWaited:
		rc.waited(site, tid, a.Mbar)
		return
	case engine.AsyncIssue:
		cur := rcEntry{epoch: rc.epoch, gen: rc.gen[site.Warp] + 1, wgen: rc.wgen[site.Warp], tid: tid,
			block: uint32(site.BlockLinear), site: rc.siteOf(site), inst: rc.inst, async: a.Kind, pending: true}
		if a.Kind == engine.AsyncKindBulk {
			cur.mbar = uint32(a.Mbar) + 1
		}
		for b := a.Addr; b < a.Addr+a.Size; b++ {
			w, r := rc.slot(b)
			if w == nil {
				break
			}
			if a.Kind == engine.AsyncKindCopy && !w.pending {
				// a cp.async is a store at its issue to what came
				// before it (a bulk copy's overwrite is ordered by
				// mbarriers, which this checker does not follow)
				if rc.conflict(w, &cur) {
					rc.hazard(s, hazWAW, b, cur, *w, true)
				}
				if rc.conflict(r, &cur) {
					rc.hazard(s, hazWAR, b, cur, *r, false)
				}
			}
			*w = cur
		}
	case engine.AsyncDone, engine.AsyncArrive:
		for b := a.Addr; b < a.Addr+a.Size; b++ {
			w, _ := rc.slot(b)
			if w == nil {
				break
			}
			if !w.pending || w.epoch != rc.epoch || w.tid != tid || w.mbar != 0 {
				continue // another write replaced it, or it is ordered already
			}
			if a.Event == engine.AsyncDone {
				w.pending, w.gen, w.wgen = false, rc.gen[site.Warp]+1, rc.wgen[site.Warp]
			} else {
				w.mbar, w.inst = uint32(a.Mbar)+1, rc.inst
			}
		}
	}
}

// waited records thread tid's successful wait on the mbarrier at shared
// offset mbar.
func (rc *racecheck) waited(site *engine.CheckSite, tid uint32, mbar uint64) {
	if rc.waits == nil {
		rc.waits = map[uint32]*rcWaits{}
	}
	k := uint32(mbar) + 1
	wt := rc.waits[k]
	if wt == nil {
		wt = &rcWaits{tid: make([]uint64, site.BlockDim[0]*site.BlockDim[1]*site.BlockDim[2])}
		rc.waits[k] = wt
	}
	if int(tid) < len(wt.tid) {
		wt.tid[tid] = rc.inst
	}
	g := int(rc.gen[site.Warp])
	for len(wt.byGen) <= g {
		wt.byGen = append(wt.byGen, 0)
	}
	wt.byGen[g] = rc.inst
}

// unordered reports whether recorded write e and the access cur may race:
// a pending asynchronous write races with any access it is not ordered
// before (asyncOrdered), the issuing thread's included.
func (rc *racecheck) unordered(e, cur *rcEntry) bool {
	if !e.pending {
		return rc.conflict(e, cur)
	}
	return e.epoch == cur.epoch && !rc.asyncOrdered(e, cur)
}

// asyncOrdered reports whether the pending write e, ordered by an
// mbarrier, is ordered before cur: cur's thread has seen the phase
// complete since, or cur's warp has passed a barrier after a thread that
// had.
func (rc *racecheck) asyncOrdered(e, cur *rcEntry) bool {
	if e.mbar == 0 {
		return false // a cp.async before its thread's wait
	}
	wt := rc.waits[e.mbar]
	if wt == nil {
		return false
	}
	if int(cur.tid) < len(wt.tid) && wt.tid[cur.tid] > e.inst {
		return true
	}
	// a wait in an earlier barrier interval than cur's; warps are at most
	// one interval apart, so a wait in interval i came before every wait
	// in i+2 and later: the search stops two intervals below one that came
	// too early
	stop := -1
	for i := min(int(cur.gen)-1, len(wt.byGen)) - 1; i > stop; i-- {
		if wt.byGen[i] > e.inst {
			return true
		}
		if wt.byGen[i] != 0 && stop < 0 {
			stop = i - 2
		}
	}
	return false
}

// slot returns the write and read records of byte b.
func (rc *racecheck) slot(b uint64) (w, r *rcEntry) {
	if !rc.global {
		if b >= uint64(len(rc.w)) {
			return nil, nil
		}
		return &rc.w[b], &rc.r[b]
	}
	w, r = rc.gw[b], rc.gr[b]
	if w == nil {
		w, r = new(rcEntry), new(rcEntry)
		rc.gw[b], rc.gr[b] = w, r
	}
	return w, r
}

// conflict reports whether recorded access e and cur are unordered.
func (rc *racecheck) conflict(e, cur *rcEntry) bool {
	if e.epoch != cur.epoch || e.tid == cur.tid && e.block == cur.block {
		return false
	}
	if e.block != cur.block {
		return true // global memory: nothing orders two blocks
	}
	if e.gen != cur.gen {
		return false
	}
	if e.tid/32 == cur.tid/32 && e.wgen != cur.wgen {
		return false
	}
	return true
}

// hazard records one hazard between the write w and the other access o.
func (rc *racecheck) hazard(s *Sanitizer, kind uint8, addr uint64, w, o rcEntry, oIsWrite bool) {
	err := w.tid/32 != o.tid/32 || w.block != o.block
	oOp := uint8(engine.CheckLoad)
	if oIsWrite {
		oOp = engine.CheckStore
	}
	key := [4]int32{w.site, o.site, int32(oOp), 0}
	g := rc.groups[key]
	if g == nil {
		g = &rcGroup{a: w.site, b: o.site, aOp: engine.CheckStore, bOp: oOp, firstFound: rc.nGroups}
		rc.nGroups++
		rc.groups[key] = g
	}
	g.count++
	g.err = g.err || err
	rc.nHazards++
	if err {
		rc.errHaz++
	}
	if len(rc.hazards) < 100 || s.opt.PrintLimit > len(rc.hazards) {
		rc.hazards = append(rc.hazards, rcHazard{kind: kind, err: err, addr: addr, block: rc.bidx, bdim: rc.bdim, w: w, o: o, oIsWrite: oIsWrite})
	}
}

// flush prints the launch's hazards (hazard mode) and groups (analysis
// mode) and starts afresh.
func (rc *racecheck) flush(s *Sanitizer) {
	mode := s.opt.RaceReport
	limit := s.opt.PrintLimit
	if limit == 0 {
		limit = 100
	}
	if mode == ReportHazard || mode == ReportAll {
		// As compute-sanitizer counts them: hazards printed, and of all
		// the launch's hazards the errors and the warnings.
		for i, h := range rc.hazards {
			if i >= limit {
				break
			}
			rc.printHazard(s, h)
			rc.displayed++
		}
		rc.shownErrors += rc.errHaz
		rc.shownWarnings += rc.nHazards - rc.errHaz
	}
	if mode == ReportAnalysis || mode == ReportAll {
		for i, f := range rc.findings() {
			if f.err {
				rc.errors++
			}
			if i >= limit {
				continue
			}
			word := "Warning"
			if f.err {
				word = "Error"
			}
			rc.count(f.err)
			lines := []string{fmt.Sprintf("%s: Race reported between %s access %s", word, accessWord(f.headOp), rc.whereSite(f.head))}
			for _, g := range f.pairs {
				site, op := g.b, g.bOp
				if g.b == f.head {
					site, op = g.a, g.aOp
				}
				lines = append(lines, fmt.Sprintf("    and %s access %s [%d %s]", accessWord(op), rc.whereSite(site), g.count, plural(g.count, "hazard")))
			}
			s.lines(lines...)
		}
	} else {
		rc.errors += rc.errHaz
	}
	rc.groups = map[[4]int32]*rcGroup{}
	rc.hazards = rc.hazards[:0]
	rc.nGroups, rc.nHazards, rc.errHaz = 0, 0, 0
	rc.grid = nil
	rc.epoch++
}

// rcFinding is one finding of the analysis report: an access (its site)
// and the pairs it heads, each printed as an "and … access" line.
type rcFinding struct {
	head   int32
	headOp uint8
	pairs  []*rcGroup
	err    bool
}

// findings groups the launch's pairs of accesses as the H100's analysis
// report does: the access in the most hazards (over the pairs not yet
// printed; a tie goes to the lower code offset) heads a finding with all
// its pairs, one "and" line each in code order, and so on until every
// pair is printed. One rule gives both the grouping and the order of
// every recording: probe2's transpose_nosync (4 stores, each heading its
// 4 loads), reduce_war (each store heads the loads before and after it;
// the last pair is headed by its read, at the lower offset), race_bytes
// and probe3's race_order (the pair with the most hazards first), and
// race_raw_same (a read heading the write after it).
func (rc *racecheck) findings() []rcFinding {
	left := make([]*rcGroup, 0, len(rc.groups))
	for _, g := range rc.groups {
		left = append(left, g)
	}
	sort.Slice(left, func(i, j int) bool { return left[i].firstFound < left[j].firstFound })
	before := func(i, j int32) bool {
		if pi, pj := rc.sites[i].pc, rc.sites[j].pc; pi != pj {
			return pi < pj
		}
		return i < j
	}
	var out []rcFinding
	weight := map[int32]int{}
	for len(left) > 0 {
		clear(weight)
		for _, g := range left {
			weight[g.a] += g.count
			if g.b != g.a {
				weight[g.b] += g.count
			}
		}
		head := int32(-1)
		for site, w := range weight {
			if head < 0 || w > weight[head] || w == weight[head] && before(site, head) {
				head = site
			}
		}
		f := rcFinding{head: head}
		var rest []*rcGroup
		for _, g := range left {
			if g.a != head && g.b != head {
				rest = append(rest, g)
				continue
			}
			if len(f.pairs) == 0 {
				f.headOp = g.aOp
				if g.a != head {
					f.headOp = g.bOp
				}
			}
			f.pairs = append(f.pairs, g)
			f.err = f.err || g.err
		}
		other := func(g *rcGroup) int32 {
			if g.a == head {
				return g.b
			}
			return g.a
		}
		sort.SliceStable(f.pairs, func(i, j int) bool { return before(other(f.pairs[i]), other(f.pairs[j])) })
		out = append(out, f)
		left = rest
	}
	return out
}

func (rc *racecheck) count(err bool) {
	rc.displayed++
	if err {
		rc.shownErrors++
	} else {
		rc.shownWarnings++
	}
}

func (rc *racecheck) printHazard(s *Sanitizer, h rcHazard) {
	head := "Error: "
	if !h.err {
		head = "Warning: (Warp Level Programming) "
	}
	space, addr := "__shared__", h.addr+s.opt.SharedBase
	if rc.global {
		space, addr = "__global__", h.addr
	}
	first, second := h.w, h.o
	firstWord, secondWord := "Write", "Read"
	switch h.kind {
	case hazRAW:
	case hazWAR:
		first, second = h.o, h.w
		firstWord, secondWord = "Read", "Write"
	case hazWAW:
		first, second = h.o, h.w
		firstWord, secondWord = "Write", "Write"
	}
	why := ""
	switch max(h.w.async, h.o.async) {
	case engine.AsyncKindCopy:
		why = " (invalid memcpy_async synchronization)"
	case engine.AsyncKindBulk:
		why = " (invalid async operation synchronization)"
	}
	s.lines(
		fmt.Sprintf("%sPotential %s hazard detected%s at %s %#x in block %s :", head, hazNames[h.kind], why, space, addr, dim(h.block)),
		fmt.Sprintf("    %s Thread %s %s", firstWord, threadOf(first.tid, h.bdim), rc.whereSite(first.site)),
		fmt.Sprintf("    %s Thread %s %s", secondWord, threadOf(second.tid, h.bdim), rc.whereSite(second.site)))
}

func (rc *racecheck) whereSite(i int32) string {
	st := rc.sites[i]
	return whereAt(st.fn, st.pc, st.line, st.file)
}

func threadOf(tid uint32, bdim [3]uint32) string {
	bx, by := max(bdim[0], 1), max(bdim[1], 1)
	return fmt.Sprintf("(%d,%d,%d)", tid%bx, tid/bx%by, tid/(bx*by))
}

func accessWord(op uint8) string {
	if op == engine.CheckStore {
		return "Write"
	}
	return "Read"
}

// lines prints one report block without counting it as an error.
func (s *Sanitizer) lines(lines ...string) {
	for _, l := range lines {
		s.out.WriteString(Prefix)
		s.out.WriteString(l)
		s.out.WriteByte('\n')
	}
	s.out.WriteString(Prefix + "\n")
}
