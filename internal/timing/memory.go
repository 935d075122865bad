// The memory system beyond the SM's pipes: global loads through the SM's
// L1 (cache.go) to the device's L2 and DRAM (the L2 misses fetch
// DRAMFetch bytes; dirty sectors evicted are written back), stores written
// through L1 to L2, atomics performed at the L2 (same-address updates
// serialized, all sharing the L2's atomic throughput). Bandwidth is
// queue.go's: the L1's per-SM queue, the L2's and DRAM's device-wide bucket
// queues. The SM's side (load, store, atomic) runs in the SM's quantum and
// logs what reaches the L2; the L2's side (fromL2, storeL2, atomicL2) runs
// when the quantum's requests are replayed (quantum.go).

package timing

import (
	"math"
	"math/bits"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
)

// load times a global load: every sector through L1, L2 and DRAM; the
// data is there (the cycle it returns, a future when a sector missed L1)
// when the last sector arrives.
func (s *gridState) load(sm *smT, rec *engine.StepRecord) uint64 {
	return s.loadTaking(sm, rec, l1DataBytes(s.p, rec.Sectors), s.p.L2AccessBytes)
}

// loadTaking is load with the L1 data path taken for l1 bytes' worth of
// its cycles, each line it asks the L2 for taking at least lookup bytes of
// the L2's bandwidth.
func (s *gridState) loadTaking(sm *smT, rec *engine.StepRecord, l1, lookup float64) uint64 {
	return s.loadTakingAfter(sm, rec, l1, lookup, 0)
}

// loadTakingAfter is loadTaking for requests that leave the SM no sooner
// than after (a cycle or a future: the data of the loads whose consumers
// ptxas puts before them, WmmaGroupRounds); 0 for none.
func (s *gridState) loadTakingAfter(sm *smT, rec *engine.StepRecord, l1, lookup float64, after uint64) uint64 {
	p := s.p
	t0 := sm.fmax(sm.l1q.take(sm.now, l1), after)
	done := sm.fadd(t0, uint64(p.L1HitLatency))
	run := 0 // sectors left in the current line's run
	for i, sec := range rec.Sectors {
		// The L2 looks each line a request touches up once: a line's run
		// of sectors takes at least lookup bytes of its bandwidth.
		extra := 0.0
		if run == 0 {
			run = 1
			for i+run < len(rec.Sectors) && rec.Sectors[i+run]>>2 == sec>>2 {
				run++
			}
			extra = max(lookup-float64(run*32), 0)
		}
		run--
		if sm.l1 != nil {
			if hit, ready := sm.l1.lookup(sec); hit {
				done = sm.fmax(done, ready)
				continue
			}
		}
		at := sm.leaf()
		kind := reqLoad
		if sm.inConst {
			kind = reqConstLoad
		}
		sm.log(memReq{cycle: sm.now, at: t0, kind: kind, sec: sec, leaf: at, cost: 32 + extra}, nil)
		if sm.l1 != nil {
			sm.l1.fill(sec, sm.fmax(sm.l1.readyOf(sec), at), false)
			sm.keep(sm.l1.readyAt(sec))
		}
		done = sm.fmax(done, at)
	}
	return done
}

// l1DataBytes is what a global load of sectors takes of the L1's data
// path (L1BytesPerCycle): its sectors' bytes, or, with L1Wavefronts, at
// least a line's worth (128 bytes, one cycle) per data-stage wavefront.
// The L1's data banks are those of shared memory (32 of 4 bytes, a 128-byte
// line across them): lanes that read different lines at the same place in
// their lines need a wavefront each, as conflicting shared-memory accesses
// do. The record has the sectors, not the words: a sector occupies 8 banks
// (its place in its line, sector & 3), and the wavefronts are taken as the
// most distinct sectors at one place. Measured on the GH100 (mech2.cu's
// l1wave, testdata/timing/mechanisms2): a warp reading 32 lines at the same
// offset takes 32.1 cycles an SM (32 wavefronts), 32 lines at 32 different
// offsets 8.8 (one wavefront; 32 sectors at 4 a cycle), one line 1.1, one
// word for the whole warp 1.1: a request takes at least a cycle.
func l1DataBytes(p *Params, sectors []uint64) float64 {
	n := float64(len(sectors) * 32)
	if !p.L1Wavefronts || len(sectors) == 0 {
		return n
	}
	var at [4]int
	for _, s := range sectors {
		at[s&3]++
	}
	wf := max(at[0], at[1], at[2], at[3], 1)
	return max(n, float64(wf)*float64(p.L1BytesPerCycle))
}

// fromL2 is when sector sec, requested from L2 at cycle t by SM sm (-1:
// no SM's side, as the L2's atomic units and the constant caches ask), arrives back at the SM: an
// L2 hit, or a DRAM fetch of the sector with its neighbours, through the
// far L2 partition when the line's page is homed there (DRAMFarCycles).
func (s *gridState) fromL2(t, sec uint64, cost float64, sm int) uint64 {
	d, p := s.d, s.p
	if hit, ready := d.l2.lookup(sec); hit {
		s.l2Hit++
		return max(d.l2q.take(t, cost)+uint64(p.L2HitLatency), ready)
	}
	s.l2Miss++
	n := uint64(max(p.DRAMFetch/32, 1))
	first := sec / n * n
	q := d.dram.take(t, float64(n*32))
	if p.DRAMBankCycles > 0 {
		q = max(q, t+s.bankWait(t, first))
	}
	if p.DRAMWriteDrainCycles > 0 {
		q = max(q, t+s.drainWait(t, first))
	}
	at := s.dramAnswer(t, first, q, d.dram.behindOthers(t, q, sm))
	if f := p.DRAMFarCycles; f > 0 {
		switch {
		case sm < 0:
			// No side: the mean of near and far.
		case farPage(first>>7) != smSide(sm):
			if d.far != nil {
				at = d.far.take(at, float64(n*32))
			}
			at += uint64(f / 2)
		default:
			at -= uint64(f / 2)
		}
	}
	s.dramRd += n * 32
	for k := first; k < first+n; k++ {
		if hit, _ := d.l2.lookup(k); hit && k != sec {
			continue
		}
		if ev, part := d.l2.fill(k, at, false); ev > 0 {
			s.writeBack(t, ev, part)
		}
	}
	return at
}

// dramAnswer is when a DRAM fetch of the line of sector first, requested
// at cycle t and through the DRAM's queue at cycle q, is back at the L2:
// DRAMLatency after q, moved by two draws, each uniform and keeping the
// mean. The line's own latency moves by up to DRAMLatencySpreadNS either
// way, whatever the load: the H100's requests take different times even
// with the DRAM far from busy (testdata/timing/sbocc's spread.py: eight
// adjacent lines fetched at once from one SM). When other requests were
// ahead of it, its wait q-t (at most DRAMReorderNS of it) is spread by
// DRAMWaitSpread as well (DRAM serves its queue out of order: some
// requests overtake, others wait longer: a place drawn among those of the
// wait's window). Both are drawn from the line's place in its
// allocation's 2 GiB slot, not from the cycle: they are the same on any
// number of workers, a small change of timing elsewhere does not draw
// every request's spread anew, and a kernel's time does not depend on
// which slot the allocator gave its buffers. (The H100's own part of a
// line's latency is not the line's: the same lines read in two recordings
// have theirs uncorrelated, so the address stands in for a draw per
// request.) A warp that waits for several lines waits for the slowest.
// With DRAMLatencySpreadLoaded the own latency is drawn only for a fetch
// that queued behind another source's (behind: behindOthers).
func (s *gridState) dramAnswer(t, first, q uint64, behind bool) uint64 {
	p := s.p
	lat := p.DRAMLatency
	if c := p.DRAMLatencySpreadCycles; c > 0 && (!p.DRAMLatencySpreadLoaded || behind) {
		lat = max(lat+c*(2*uniVariate(first>>2&slotLines^latencyDraw)-1), 0)
	}
	if p.DRAMWaitSpread <= 0 || q <= t {
		return q + uint64(lat)
	}
	w := float64(q - t)
	if p.DRAMReorderCycles > 0 {
		w = min(w, p.DRAMReorderCycles)
	}
	d := w * min(p.DRAMWaitSpread, 1) * (2*uniVariate(first>>2) - 1)
	return uint64(float64(q) + d + lat)
}

// behindOthers reports whether a fetch by source sm (an SM; -1: none's)
// that arrived at cycle t and passed through the DRAM's queue at q waited
// behind another source's fetches, and notes it among the queue's
// sources. The spread DRAMLatencySpreadLoaded draws was measured with 132
// SMs' lines meeting at the DRAM (testdata/timing/sbocc's spread.py); one
// SM's burst on an otherwise idle bus queues only behind its own lines,
// and the H100's TMA boxes of 4 to 512 lines from an idle GPU show no
// draw (testdata/timing/dram/JOURNAL.md, twenty-second round). A queue
// that does not tell its sources apart (not the DRAM's) counts every
// wait.
func (q *bucketQueue) behindOthers(t, at uint64, sm int) bool {
	if q.sources == nil {
		return at > t
	}
	behind := at > t && q.sources.othersUntil(sm) > t
	q.sources.note(sm, at)
	return behind
}

// newDRAMQueue is the DRAM's bus: a bucket queue at DRAMBytesPerCycle that
// keeps its recent use when the model has bank waits (bankWait), and its
// write-backs' apart when writes cost the reads (drainWait, writeBack).
func newDRAMQueue(p *Params) *bucketQueue {
	q := newQueue(p.DRAMBytesPerCycle)
	q.sources = &queueSources{}
	if p.DRAMBankCycles > 0 || p.DRAMWriteDrainCycles > 0 || p.DRAMTurnaround > 0 {
		q.keepPast()
	}
	if p.DRAMWriteDrainCycles > 0 || p.DRAMTurnaround > 0 {
		q.writes = newQueue(p.DRAMBytesPerCycle)
		q.writes.keepPast()
	}
	return q
}

// drainWait is how long the DRAM fetch of the line of sector first,
// requested at cycle t, waits for a write drain (Params.DRAMWriteDrainNS):
// the DRAM's controllers hold the L2's write-backs and write them out in
// drains of DRAMWriteDrainCycles, reads held meanwhile; a read arrives
// during one as often as the bus is taken by writes (f, their share of its
// bandwidth over the dramLoadWindow cycles before t) and then waits for
// the drain's rest, uniform in [0, DRAMWriteDrainCycles): a mean of
// f·DRAMWriteDrainCycles/2, none without writes. The draw is the line's
// (its place in its allocation's 2 GiB slot, independent of the other
// draws), so the wait depends on addresses and simulated time alone.
func (s *gridState) drainWait(t, first uint64) uint64 {
	f := min(s.d.dram.writeLoad(t, dramLoadWindow>>bucketShift)*max(s.p.DRAMWriteModeShare, 1), 1)
	u := uniVariate(first>>2&slotLines ^ drainDraw)
	if f <= 0 || u >= f {
		return 0
	}
	// u/f is uniform in [0, 1) given u < f.
	return uint64(s.p.DRAMWriteDrainCycles * u / f)
}

// bankWait is how long the DRAM fetch of the line of sector first,
// requested at cycle t, waits for its bank (Params.DRAMBankNS): each of
// the DRAM's many banks serves a request in DRAMBankCycles, requests reach
// them by their addresses as if at random, so at a load rho (the bus's use
// over the dramLoadWindow cycles before t) a bank is an M/D/1 queue whose
// mean wait is DRAMBankCycles*rho/(2(1-rho)): no wait with probability
// 1-rho, else an exponential wait of mean DRAMBankCycles/(2(1-rho)).
// rho is at most dramLoadCap (at the bus's bandwidth the bus's own queue
// takes over). The draw is the line's (its place in its allocation's 2 GiB
// slot, independent of dramAnswer's draws), so the wait depends on
// addresses and simulated time alone, never on the number of workers.
func (s *gridState) bankWait(t, first uint64) uint64 {
	rho := min(s.d.dram.load(t, dramLoadWindow>>bucketShift), dramLoadCap)
	u := uniVariate(first>>2&slotLines ^ bankDraw)
	if rho <= 0 || u < 1-rho {
		return 0
	}
	// (1-u)/rho is uniform in (0, 1] given u >= 1-rho.
	mean := s.p.DRAMBankCycles / (2 * (1 - rho))
	return uint64(-mean * math.Log((1-u)/rho))
}

// dramLoadWindow is the span (cycles) over which bankWait measures the
// DRAM's load: many bank service times, short beside a kernel's phases.
// dramLoadCap bounds the load bankWait sees: an M/D/1 queue's wait grows
// without bound as the load nears 1, where the bus's queue is what holds
// a request.
const (
	dramLoadWindow = 1024
	dramLoadCap    = 0.95
	bankDraw       = 0x2f6b7a93 << 24
	drainDraw      = 0x61c88647 << 22
)

// latencyDraw makes a line's latency draw (dramAnswer) independent of its
// wait draw: the variate of the line's index with these bits flipped.
// slotLines keeps of a line's index its place in its allocation's 2 GiB
// slot (as farPage does).
const (
	latencyDraw = 0x5bd1e995 << 20
	slotLines   = 1<<24 - 1
)

// farPage is the L2 partition that is the home of the 4 KiB page page
// (an address over 4096): the parity of its address bits 12, 13, 16, 17,
// 19 and 23 to 30. Fitted on the H100's stamps (testdata/timing/shortocc:
// 4096 blocks of 64 threads each copying its own 4 KiB page of a 16 MiB
// buffer; a block's warps live 11 500 or 15 000 cycles by its page and its
// SM, as this parity and smSide say for 87% of the blocks, all but those
// of one 2 MiB range).
//
// The H100's driver maps memory in 2 MiB pages, so an address's bits
// below 21 are its physical address's and the hash's part from them
// (bits 12, 13, 16, 17, 19) is the hardware's (testdata/timing/shortocc2
// measured it page by page from one SM: TestFarPageAgainstH100); the part
// from the bits
// above is the physical frame's, which no pointer tells (the one 2 MiB
// range the parity missed is a frame whose parity was not its virtual
// address's). The model takes it from the address's offset in its 2 GiB
// slot (bits 23 to 30: every allocation starts a slot, engine.Memory),
// as the H100's frames followed the buffer's offset for 7 of its 8: so a
// page's partition depends on where it lies in its allocation, never on
// which slot the allocator gave it, and every allocation's first page is
// homed on side 0 (SM 0's, where a lone block runs). A footprint of two
// pages or more is half near and half far from any SM.
func farPage(page uint64) int {
	return bits.OnesCount64(page&0x7f8b3) & 1
}

// smSide is the L2 partition an SM is near: SMs go by pairs (a TPC), the
// pairs alternating (the H100's 132 SMs are 66 and 66, in runs of 2 and 6
// pairs by %smid; which SM is which does not matter to the model, as
// blocks are placed on SMs in their own order).
func smSide(sm int) int { return sm >> 1 & 1 }

// uniVariate is a variate uniform in [0, 1) drawn from a line's address
// by a 64-bit mix (splitmix64's finalizer).
func uniVariate(line uint64) float64 {
	x := line * 0x9e3779b97f4a7c15
	x ^= x >> 31
	x *= 0x94d049bb133111eb
	x ^= x >> 29
	return (float64(x>>11) + 0.5) / (1 << 53)
}

// store writes through L1 to L2 (write-back to DRAM on eviction) once
// its data is ready at cycle data; the grid is not done before its stores
// are. It takes the L1's data path as a load does (l1DataBytes: a cycle a
// wavefront; the tensor lesson's C stores, a sector of each of 8 lines at
// one place, 8 cycles each on the H100: TestStoreL1Wavefronts).
//
// A sector the request writes only in part (fewer than 32 of its bytes:
// the lanes' bytes spread evenly over the sectors they touch) is a masked
// write at the L2: unless the L2 holds the whole sector already (fetched by
// a load, as an in-place reduction's are: the write merges into it), it
// occupies the L2 for PartialSectorBytes of its bandwidth instead of 32 (a
// read-modify-write of the sector's ECC word),
// and the L2 keeps it dirty with its byte mask, merging later writes to
// it. A line evicted with partial sectors is written back as a
// read-modify-write at DRAM: the partial sectors are read (DRAM read
// bytes) and the line costs RMWLineBytes of DRAM time beyond its sectors'
// bytes; the store that evicted it completes when that is done (the L2
// holds the line until then), so a stream of partial writes larger than
// the L2 runs at DRAM's read-modify-write rate. It returns when the L2 has
// taken the store (a future: storeL2 answers it; warpExit waits for it)
// and when it left the SM's L1 (storeGate).
func (s *gridState) store(sm *smT, rec *engine.StepRecord, data uint64) (taken, left uint64) {
	p := s.p
	left = sm.l1q.take(sm.now, l1DataBytes(p, rec.Sectors))
	per := 32
	if n := len(rec.Sectors); n > 0 {
		per = min(max(int(rec.Bytes)/n, 1), 32)
	}
	// Every sector written whole: the lanes' bytes cover the sectors.
	full := per == 32
	if p.StoreSectorCycles > 0 && len(rec.Sectors) > 0 && sm.stq.bytesPerCycle > 0 {
		// The SM's store port (stq, a cycle of work a "byte"): its sectors
		// leave one after another.
		c := p.StoreSectorCycles
		if !full {
			c = p.StorePartialCycles
		}
		// A line whose sectors all merge still takes the port a whole
		// sector's time (its request).
		fresh, merged, at := sm.mergeStore(p, rec.Sectors)
		work := c * float64(fresh)
		if !full && p.StorePartialLineCycles > 0 && fresh > 0 {
			// A line written in part holds the port a floor's time.
			work = max(work, p.StorePartialLineCycles*float64(storeLines(rec.Sectors)-merged))
		}
		left = sm.stq.take(left, work+p.StoreSectorCycles*float64(merged))
		if fresh == 0 {
			left = max(left, at)
		} else {
			sm.noteStoreLines(p, rec.Sectors, left)
		}
	}
	t0 := sm.fmax(left, data)
	for _, sec := range rec.Sectors {
		if sm.l1 != nil {
			if p.StoreInvalidatesL1 {
				sm.l1.drop(sec)
			} else {
				sm.l1.update(sec, sm.fmax(sm.l1.readyOf(sec), sm.fadd(t0, uint64(p.StoreToLoad))), full)
				if r := sm.l1.readyAt(sec); r != nil {
					sm.keep(r)
				}
			}
		}
	}
	taken = sm.leaf()
	sm.log(memReq{cycle: sm.now, at: t0, kind: reqStore, per: int32(per), leaf: taken}, rec.Sectors)
	return taken, left
}

// mergeStore counts the sectors of a store that are not among those the
// port's last stores wrote and still holds (StoreMergeLines lines, leaving
// after now): those leave by the port, the others merge into the queued
// writes. It also counts the lines whose sectors all merge (a line's
// sectors are consecutive in the record), and returns when the latest of
// the writes it merges into leaves. The H100 sends a lane's successive
// partial stores to one sector as one write while few other stores come
// between them (testdata/timing/stmerge).
func (sm *smT) mergeStore(p *Params, sectors []uint64) (fresh, merged int, at uint64) {
	n := min(p.StoreMergeLines, len(sm.stLines))
	if n <= 0 {
		return len(sectors), 0, 0
	}
	cur, whole := uint64(0), false // the line being counted, all its sectors merged so far
	for _, sec := range sectors {
		line, bit := sec>>2+1, uint64(1)<<(sec&3) // line 0 marks an empty slot
		if line != cur {
			if whole {
				merged++
			}
			cur, whole = line, true
		}
		hit := false
		for i := 0; i < n; i++ {
			if sm.stLines[i]>>4 == line && sm.stLines[i]&bit != 0 && sm.stLeft[i] > sm.now {
				at, hit = max(at, sm.stLeft[i]), true
				break
			}
		}
		if !hit {
			fresh++
			whole = false
		}
	}
	if whole {
		merged++
	}
	return fresh, merged, at
}

// storeLines counts the distinct 128-byte lines of a store's sectors.
func storeLines(sectors []uint64) int {
	n := 0
	for i, sec := range sectors {
		seen := false
		for _, prev := range sectors[:i] {
			if prev>>2 == sec>>2 {
				seen = true
				break
			}
		}
		if !seen {
			n++
		}
	}
	return n
}

// noteStoreLines records the lines of a store (with the sectors it wrote
// of each) that leaves the port at left.
func (sm *smT) noteStoreLines(p *Params, sectors []uint64, left uint64) {
	n := min(p.StoreMergeLines, len(sm.stLines))
	if n <= 0 {
		return
	}
	for i, sec := range sectors {
		line := sec>>2 + 1
		if i > 0 && sm.stLines[(sm.stNext+n-1)%n]>>4 == line {
			sm.stLines[(sm.stNext+n-1)%n] |= 1 << (sec & 3)
			continue
		}
		sm.stLines[sm.stNext], sm.stLeft[sm.stNext] = line<<4|1<<(sec&3), left
		sm.stNext = (sm.stNext + 1) % n
	}
}

// storeL2 is a store's L2 side: its sectors, per bytes of each written,
// reach the L2 at cycle t0 from SM sm; it returns when the L2 has taken
// the last of them (its bandwidth, the link to the far partition for a
// sector homed there, and the write-back of a partial line it evicted).
func (s *gridState) storeL2(t0 uint64, sectors []uint64, per int, sm int) uint64 {
	d, p := s.d, s.p
	full := per == 32
	taken := t0
	whole := 32.0
	if p.StoreSectorBytes > 0 {
		whole = p.StoreSectorBytes
	}
	l2cost := whole
	if !full && p.PartialSectorBytes > 0 {
		l2cost = p.PartialSectorBytes
	}
	for _, sec := range sectors {
		cost := l2cost
		if !full && d.l2.whole(sec) {
			// The L2 holds the whole sector: the write merges into it.
			cost = whole
		}
		at := d.l2q.take(t0, cost)
		if d.far != nil && farPage(sec>>7) != smSide(sm) {
			at = max(at, d.far.take(t0, float64(per)))
		}
		if ev, part := d.l2.write(sec, at, per); ev > 0 {
			if done := s.writeBack(t0, ev, part); part > 0 {
				at = max(at, done)
			}
		}
		s.drain = max(s.drain, at)
		taken = max(taken, at)
	}
	return taken
}

// atomic times a global atomic, performed at the L2. Lanes that name the
// same address are separate updates, serialized at that address's atomic
// unit (AtomicNS each, AtomicFloatNS for a floating-point add); lanes on
// distinct addresses of one sector are one update. All updates share the
// L2's atomic throughput (AtomicOpsPerNS). An atomic ptxas aggregates
// across the warp (ir.AggElect; ir.AggFullWarp when no lane is inactive)
// is one update: the elected lane's.
func (s *gridState) atomic(sm *smT, in *ir.Inst, rec *engine.StepRecord) uint64 {
	return s.atomicReq(sm, in, rec, reqAtomic)
}

// atomicAck is an atomic whose issuer waits for no value, only for its
// writes to be done at the L2 (tensormap.cp_fenceproxy's exchanges, which
// ptxas gives no destination: testdata/timing/tmcold, tensormap): when
// they are, without the result's way back (AtomicReturnCycles).
func (s *gridState) atomicAck(sm *smT, in *ir.Inst, rec *engine.StepRecord) uint64 {
	return s.atomicReq(sm, in, rec, reqAtomicAck)
}

// atomicReq logs an atomic's request of kind reqAtomic or reqAtomicAck and
// returns its answer's future.
func (s *gridState) atomicReq(sm *smT, in *ir.Inst, rec *engine.StepRecord, kind uint8) uint64 {
	n := max(len(rec.Sectors), 1)
	t0 := sm.l1q.take(sm.now, float64(n*32))
	serial := float64(max(rec.AddrMaxDup, 1))
	ops := float64(n) + float64(popcount(rec.Exec)) - float64(max(rec.AddrDistinct, 1))
	if kind == reqAtomic && warpAggregated(in, rec) {
		serial, ops = 1, 1
	}
	if kind == reqAtomic && in.Mode == ir.AtomAdd && ir.IsFloat(in.Type) && s.p.AtomicFloatNS > 0 {
		serial *= s.p.AtomicFloatNS / s.p.AtomicNS
	}
	r := memReq{cycle: sm.now, at: t0, kind: kind, ops: ops, dup: serial}
	secs := rec.Sectors
	if kind == reqAtomic && casLoop16(in) && len(rec.Words) > 0 {
		r.cost, r.words = casRound(in, s.p), int32(len(rec.Words))
		secs = append(append(sm.casScratch[:0], rec.Sectors...), rec.Words...)
		sm.casScratch = secs
	}
	r.leaf = sm.leaf()
	sm.log(r, secs)
	return r.leaf
}

// atomicL2 is an atomic's L2 side: its sectors' updates, ops in all and
// serial at one address, from cycle t0; it returns when the last one is
// done (its result is back at the SM AtomicReturnCycles later; an
// acknowledgement, atomicAck, at once). A CAS loop (round > 0) succeeds on
// each of its words no sooner than a round after the last CAS loop's
// success there: a warp whose compare-and-swap reached the L2 before then
// had read the word before that success, so its CAS failed and it read
// again (casRound). The successes are kept in atomBusy under the word
// (address >> 2) with bit 63 set.
func (s *gridState) atomicL2(t0 uint64, sectors []uint64, ops, serial, round float64, words []uint64) uint64 {
	d, p := s.d, s.p
	// The pool serves ops at its rate: take them as bytes of a queue.
	pool := d.atomQ.take(t0, ops)
	done := t0
	for _, sec := range sectors {
		at := max(s.fromL2(t0, sec, 32, -1), pool)
		start := max(float64(at), d.atomBusy[sec])
		end := start + serial*p.AtomicCycles
		d.atomBusy[sec] = end
		d.l2.fill(sec, uint64(end), true)
		done = max(done, uint64(end+0.999))
	}
	if round > 0 {
		natural := float64(done)
		for _, w := range words {
			ok := natural
			if last, seen := d.atomBusy[w|casKey]; seen {
				ok = max(ok, last+round)
			}
			d.atomBusy[w|casKey] = ok
			done = max(done, uint64(ok+0.999))
		}
	}
	s.drain = max(s.drain, done)
	return done
}

// writeBack writes an evicted line's dirty sectors to DRAM, partial ones
// by read-modify-write (see store), and returns when DRAM has done so.
// Among reads a write costs the bus its turnarounds (Params.DRAMTurnaround):
// its bytes take the bus DRAMTurnaround times as long again for the reads'
// share of the bus's recent traffic (none in a stream of writes alone).
func (s *gridState) writeBack(t uint64, sectors, partial int) uint64 {
	s.dramWr += uint64(sectors) * 32
	n := float64(sectors * 32)
	if partial > 0 {
		s.dramRd += uint64(partial) * 32
		n += s.p.RMWLineBytes
	}
	if tau := s.p.DRAMTurnaround; tau > 0 {
		w := dramLoadWindow >> bucketShift
		all, wr := s.d.dram.load(t, w), s.d.dram.writeLoad(t, w)
		if all > wr {
			n *= 1 + tau*(all-wr)/all
		}
	}
	return s.d.dram.takeWrite(t, n)
}

// warpAggregated says whether the atomic rec ran is one update for the
// warp, as ptxas compiles it (ir.markWarpAggregated).
func warpAggregated(in *ir.Inst, rec *engine.StepRecord) bool {
	return in.Agg == ir.AggElect || in.Agg == ir.AggFullWarp && rec.Exec == 0xffffffff
}

func popcount(x uint32) int {
	n := 0
	for x != 0 {
		x &= x - 1
		n++
	}
	return n
}

// l1Bytes is the L1 data cache of an SM for a grid: where L1 and shared
// memory share the SM's storage (L1SharedBytes, with shared-memory
// carveouts), what the carveout the driver configures for the grid's
// resident blocks leaves (the H100: 256 KiB less 8 KiB for blocks that use
// no shared memory beyond the 1 KiB each reserves), at most the preset's
// L1Bytes when UnifiedL1 is off; elsewhere the preset's L1Bytes.
func l1Bytes(a *arch.Arch, p *Params, blockThreads, regs, shared int) int {
	if !p.UnifiedL1 || a.L1SharedBytes == 0 || a.SharedCarveoutsKiB == nil {
		return p.L1Bytes
	}
	occ := a.Occupancy(arch.OccupancyInput{BlockSize: blockThreads, RegsPerThread: regs, StaticShared: shared})
	if occ.SharedCapacity <= 0 || occ.SharedCapacity >= a.L1SharedBytes {
		return p.L1Bytes
	}
	return a.L1SharedBytes - occ.SharedCapacity
}

// casKey marks a word's key in atomBusy that holds its last CAS loop's
// success (atomicL2).
const casKey = 1 << 63
