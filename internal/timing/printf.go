package timing

import (
	"github.com/warpsim/warpsim/internal/engine"
)

// PrintfCost is what one warp's call of the device printf (vprintf) costs:
// testdata/timing/printf measured it on the H100 (README.md there).
//
// vprintf is a routine of some 7,000 SASS instructions the driver links in
// (Nsight Compute: 6,820 warp instructions a call for one lane, 7,300 for
// 32, 15 more a format byte), about 7 cycles each, so one call takes its
// warp ~31 µs. It scans the format string a byte at a time and each %s
// argument's string a byte at a time (every lane at once: the longest
// decides), then writes each lane's record into the printf buffer, which
// lives in host memory (its traffic is Nsight Compute's sysmem aperture:
// ~360 sectors a lane), under one device-wide lock: a warp that finds the
// lock taken waits. The lock changes hands over PCIe (a host-memory
// atomic's round trip and a system fence, sysmem.cu), and its holder
// writes its lanes' records, so warps anywhere on the GPU print one at a
// time at HandoffNS + LockLaneNS a lane: 9.5 µs a warp of 32 lanes.
type PrintfCost struct {
	// CallNS is one lane's call with an empty format string, its
	// FormatByteNS a byte of format more; StringNS a %s argument and
	// StringByteNS a byte of its string; LaneNS each lane past the first
	// (their records).
	CallNS, FormatByteNS, StringNS, StringByteNS, LaneNS float64
	// ColdNS: the first call on an SM in a grid also fetches vprintf's
	// code (Nsight Compute's no_instruction stall of a single call).
	ColdNS float64
	// HandoffNS + LockLaneNS × lanes is how long a call holds the
	// device-wide lock, the last part of its time: no other call takes
	// the lock before it is done.
	HandoffNS, LockLaneNS float64
}

// printfCall holds warp w, which just issued vprintf, until its call is
// done: its own time (PrintfCost), the lock's last part of it taken at the
// device's printf lock no sooner than the lock is free.
func (s *gridState) printfCall(sm *smT, w *warpT, rec *engine.StepRecord) {
	pc := &s.p.Printf
	lanes := popcount(rec.Exec)
	if lanes == 0 {
		return
	}
	sc := rec.Printf
	ns := pc.CallNS + pc.FormatByteNS*float64(sc.FormatBytes) + pc.StringNS*float64(sc.Strings) +
		pc.StringByteNS*float64(sc.StringBytes) + pc.LaneNS*float64(lanes-1)
	if !sm.printfWarm {
		sm.printfWarm = true
		ns += pc.ColdNS
	}
	hold := pc.HandoffNS + pc.LockLaneNS*float64(lanes)
	cyc := func(ns float64) uint64 { return uint64(max(ns, 0)*s.p.ClockHz/1e9 + 0.5) }
	take := max(sm.now+cyc(ns-hold), s.printfFree)
	s.printfFree = take + cyc(hold)
	if s.printfFree > w.ready || isFut(w.ready) {
		w.ready, w.readyWhy = s.printfFree, stallLongScoreboard
	}
}
