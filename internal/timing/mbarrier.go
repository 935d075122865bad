package timing

import (
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
)

// mbarsT are an SM's mbarriers' completion times, by the address the
// instructions name them with (engine.StepRecord.Mbar): the latest cycle
// (or future) at which data a copy completes on the barrier arrives. The
// functional engine moves a copy's bytes, and completes its transactions,
// when the copy issues; the timing model holds a warp's mbarrier
// test_wait / try_wait until the copies recorded on that barrier have
// arrived. A fixed table: the least recently set entry makes room.
type mbarsT struct {
	addr, at [16]uint64
	next     int
	// tmaFree is when the SM's TMA unit has written the bytes of the
	// copies it took into shared memory (tmaCopy).
	tmaFree uint64
}

// tmaCopy times a TMA or bulk copy into shared memory whose global
// sectors have all arrived at mem (the memory system's answer): the SM's
// copy unit receives its first bytes an L2 hit's latency after the issue
// at the earliest and writes them into shared memory at its rate
// (CopyBytesPerCycle, else the L1 data path's: the H100 96 bytes a cycle,
// testdata/timing/wgmma/h100b's bulk and tile rows), one copy after the
// other, so a copy completes no earlier than that, nor before its last
// sector arrived.
func (s *gridState) tmaCopy(sm *smT, rec *engine.StepRecord, mem uint64) uint64 {
	rate := uint64(max(s.p.L1BytesPerCycle, 1))
	if s.p.CopyBytesPerCycle != 0 {
		rate = uint64(s.p.CopyBytesPerCycle)
	}
	m := &sm.mbars
	first := sm.now + uint64(s.p.L2HitLatency)
	m.tmaFree = max(m.tmaFree, first) + (uint64(len(rec.Sectors))*32+rate-1)/rate
	return sm.fmax(mem, m.tmaFree)
}

func (m *mbarsT) find(addr uint64) int {
	for i, a := range m.addr {
		if a == addr {
			return i
		}
	}
	return -1
}

// complete notes data arriving at t on mbarrier addr.
func (m *mbarsT) complete(q *smQuantum, addr, t uint64) {
	i := m.find(addr)
	if i < 0 {
		i = m.next
		m.next = (m.next + 1) % len(m.addr)
		m.addr[i], m.at[i] = addr, 0
	}
	m.at[i] = q.fmax(m.at[i], t)
	q.keep(&m.at[i])
}

// reset forgets mbarrier addr (mbarrier.init, mbarrier.inval).
func (m *mbarsT) reset(addr uint64) {
	if i := m.find(addr); i >= 0 {
		m.addr[i], m.at[i] = 0, 0
	}
}

// mbarrierTiming times the mbarrier side of an asynchronous instruction
// issued now, done being when its own memory access (a TMA or bulk copy's
// global sectors, through L1/L2/DRAM: s.load) has completed: such a copy
// and cp.async.mbarrier.arrive (when the warp's cp.async copies have
// arrived) complete data on their mbarrier; test_wait / try_wait hold the
// warp (on the wait stall) until it is there.
func (s *gridState) mbarrierTiming(sm *smT, w *warpT, in *ir.Inst, rec *engine.StepRecord, done uint64) {
	if rec.Mbar == 0 {
		return
	}
	q := &sm.smQuantum
	switch in.Mode {
	case ir.AsyncBulkG2S, ir.AsyncTensorG2S:
		sm.mbars.complete(q, rec.Mbar, done)
	case ir.AsyncMbarArrive:
		sm.mbars.complete(q, rec.Mbar, w.cpAsync.last(q))
	case ir.MbarInit, ir.MbarInval:
		sm.mbars.reset(rec.Mbar)
	case ir.MbarTestWait, ir.MbarTryWait:
		if i := sm.mbars.find(rec.Mbar); i >= 0 {
			waitUntil(sm, w, sm.mbars.at[i])
		}
	}
}

// holdsTensorMap reports whether the SM's TMA unit holds tensor map m, and
// takes it in (in place of the oldest) when it does not.
func (sm *smT) holdsTensorMap(m uint64) bool {
	for _, h := range sm.tmaps {
		if h == m {
			return true
		}
	}
	sm.tmaps[sm.tmapNext] = m
	sm.tmapNext = (sm.tmapNext + 1) % len(sm.tmaps)
	return false
}

// bulkGroup keeps a warp's bulk-async groups (testdata/timing/bulkwait): a
// bulk or tensor copy (or reduction) out of shared memory joins the open
// group when it has read its source (bulkRead), cp.async.bulk.commit_group
// closes the group, and cp.async.bulk.wait_group N holds the warp until all
// but the newest N groups have. The H100 completes a store's writes (the
// wait without .read) about when its reads (44 cycles later at most for a
// 4 KiB box): both waits wait for the reads.
func (s *gridState) bulkGroup(sm *smT, w *warpT, in *ir.Inst, rec *engine.StepRecord) {
	q := &sm.smQuantum
	switch in.Mode {
	case ir.AsyncTensorS2G, ir.AsyncBulkS2G, ir.AsyncTensorRed, ir.AsyncBulkRed:
		if rec.Exec != 0 {
			w.bulk.add(q, s.bulkRead(sm, rec))
		}
	case ir.AsyncBulkSync:
		switch in.Cmp {
		case ir.BulkCommit:
			w.bulk.commit(q)
		case ir.BulkWait:
			waitUntil(sm, w, sm.now+uint64(s.p.BulkWaitCycles))
			waitUntil(sm, w, w.bulk.wait(q, int(in.Vec), false))
		}
	}
}

// bulkRead is when a bulk or tensor copy out of shared memory has read its
// source: BulkReadCycles after its issue, or once its tensor map is
// fetched when the SM's TMA unit lacks it (the fetch overlaps that
// latency), then its bytes at the copy unit's rate.
func (s *gridState) bulkRead(sm *smT, rec *engine.StepRecord) uint64 {
	p := s.p
	lat := float64(p.BulkReadCycles)
	if rec.TensorMap != 0 && !sm.holdsTensorMap(rec.TensorMap) {
		lat = max(lat, p.TensorMapFetchCycles)
	}
	rate := float64(max(p.L1BytesPerCycle, 1))
	if p.CopyBytesPerCycle != 0 {
		rate = float64(p.CopyBytesPerCycle)
	}
	return sm.now + uint64(lat+float64(rec.Bytes)/rate)
}
