package cudart

import (
	"slices"

	"github.com/warpsim/warpsim/arch"
)

// This file is the one place where the runtime's simulated clock gets its
// durations: every operation a stream runs (kernel, copy, memset) takes
// the time these functions give it on that stream's timeline, and events
// read the timeline. A timing model plugs in at kernelNanos (and, should it
// model the copy engines, at copyNanos).

// kernelNanos is a launch's duration: the timing model's simulated time
// when it ran (Launched.Nanos), otherwise the host time its simulation
// took, as the only figure there is (simulated is then false).
func kernelNanos(l *Launched, wallNS int64) (ns int64, simulated bool) {
	if l != nil && l.Nanos > 0 {
		return l.Nanos, true
	}
	return max(wallNS, 1), false
}

// copyDir says which link a copy crosses.
type copyDir int

const (
	hostToDevice   copyDir = iota // over the host link (PCIe/NVLink-C2C)
	deviceToHost                  // over the host link
	deviceToDevice                // within device memory
	hostToHost                    // the host's own memory (managed or pinned on both sides)
)

// Fixed costs of a copy or memset as a GPU's events see them (the driver
// starting the copy engine, the first bytes' latency), from events around
// 4-byte to 16 KiB operations on an H100 with CUDA 13
// (testdata/programs/calibration/copy_timing.h100.csv): a pinned copy 5 µs,
// a pageable one 5 µs (host to device) to 12 µs (device to host, which the
// driver stages and then copies on the host), a device-to-device copy
// 8 µs, a memset 4 µs. One set of figures serves every preset: the driver
// path costs the same order on every generation.
const (
	copyLatencyNS       = 5000
	pageableExtraNS     = 3000 // staging through the driver's pinned buffer
	deviceCopyLatencyNS = 8000
	memsetLatencyNS     = 4000
)

// hostLinkBytesPerSec is the sustained host↔device copy rate from pinned
// memory, by compute capability: the host link each generation shipped
// with (PCIe 1.1 x16 for G80, 2.0 for GT200 and Fermi, 3.0 for Kepler to
// Turing, 4.0 for Ampere, 5.0 for Hopper) at the fraction of its peak that
// copies reach. The H100 figure is measured: 48 to 55 GB/s for 4 MiB to
// 1 GiB pinned copies (calibration/copy_timing.h100.csv).
func hostLinkBytesPerSec(a *arch.Arch) float64 {
	switch cc := a.ComputeCapability(); {
	case cc < 13:
		return 3.2e9
	case cc < 30:
		return 6.4e9
	case cc < 80:
		return 12.5e9
	case cc < 90:
		return 25e9
	default:
		return 52e9
	}
}

// pageableFactor slows copies from or to pageable (not pinned) host memory,
// which the driver stages through a pinned buffer: the H100 moved 5.4 to
// 7.9 GB/s pageable against 48 to 55 GB/s pinned for 4 MiB to 1 GiB, about
// 0.14 of the pinned rate.
const pageableFactor = 0.14

// copyNanos is the duration of an n-byte copy; pageable says the host side
// is ordinary (not pinned) memory.
func copyNanos(a *arch.Arch, dir copyDir, n uint64, pageable bool) int64 {
	latency := int64(copyLatencyNS)
	var rate float64
	switch dir {
	case hostToDevice, deviceToHost:
		rate = hostLinkBytesPerSec(a)
		if pageable {
			rate *= pageableFactor
			latency += pageableExtraNS
		}
	case deviceToDevice:
		// Each byte is read and written: the H100 copied 1 GiB in 0.745 ms,
		// 1.44 TB/s of its 3.35 TB/s DRAM bandwidth counted once.
		rate = a.MemBandwidth() * 0.43
		latency = deviceCopyLatencyNS
	default:
		rate = hostLinkBytesPerSec(a)
	}
	if rate <= 0 {
		rate = 1e9
	}
	return latency + int64(float64(n)/rate*1e9)
}

// memsetNanos is the duration of an n-byte memset: a write at about the
// DRAM bandwidth (the H100 set 1 GiB in 0.345 ms, 3.1 TB/s).
func memsetNanos(a *arch.Arch, n uint64) int64 {
	rate := a.MemBandwidth() * 0.93
	if rate <= 0 {
		rate = 1e11
	}
	return memsetLatencyNS + int64(float64(n)/rate*1e9)
}

// engine is a part of the GPU that runs one operation at a time: each copy
// direction has its own copy engine, so a copy in each direction and a
// kernel can overlap when they are on different streams. (The H100 reports
// asyncEngineCount = 3; two copies in one direction share one link, so the
// model queues them on one engine.) The SMs (engineCompute) are not such an engine: kernels share
// them (timeline.runGrid).
type engine int

const (
	engineCompute engine = iota
	engineH2D
	engineD2H
	numEngines
)

func (d copyDir) engine() engine {
	switch d {
	case hostToDevice:
		return engineH2D
	case deviceToHost:
		return engineD2H
	}
	return engineCompute
}

// Concurrent kernels, as the H100 runs them (calibration/kernel_overlap.cu,
// recorded in kernel_overlap.h100.csv): kernels on different streams run
// at once while their blocks fit on the SMs together — S kernels of B
// blocks of 128 threads that each spin for 1 ms took 1.02 to 1.19 ms while
// S×B blocks fit in one resident wave (16 blocks per SM × 132 SMs) and 2.1
// to 2.2 ms when they needed two, whatever B was (1 to 264) — and while at
// most 128 grids are resident (160 one-block kernels took two rounds). The
// host issues launches one at a time: back-to-back launches into different
// streams started about 5.5 µs apart (0.84 ms for 160 of them), which
// bounds how many short kernels overlap.
const launchIssueNS = 5500

// queryNS is the least simulated time a host's cudaStreamQuery or
// cudaEventQuery that finds work not done takes (Server.queryReady); a
// choice, not measured: the call is a round trip to the driver.
const queryNS = 1000

// minHostTimedNS is the least time a kernel whose duration is the host time
// its simulation took (functional mode: kernelNanos) lasts on the clock:
// two launch issues, so a query the host makes right after the launch
// finds it not done whatever the host's speed (its start is not before
// its issue, and the host's next call comes launchIssueNS after it).
const minHostTimedNS = 2 * launchIssueNS

// residentGrids is the most kernels a device runs at once ("maximum number
// of resident grids per device" in the CUDA programming guide's table of
// compute capabilities): 128 from compute capability 6.0 on except the
// small parts (6.1 32, 6.2, 7.2, 8.7 16), 32 on Kepler and Maxwell, 16 on
// Fermi, 1 before it.
func residentGrids(a *arch.Arch) int {
	switch cc := a.ComputeCapability(); {
	case cc < 20:
		return 1
	case cc < 30:
		return 16
	case cc == 62 || cc == 72 || cc == 87:
		return 16
	case cc < 60 || cc == 61:
		return 32
	default:
		return 128
	}
}

// gridShare is the fraction of the device's resident capacity a kernel's
// blocks take while it runs: its blocks over the blocks per SM the
// occupancy calculator allows times the SM count, at most 1 (a kernel of
// more than one wave fills the device until its last wave).
func gridShare(blocks uint64, blocksPerSM, sms int) float64 {
	capacity := uint64(max(blocksPerSM, 1)) * uint64(max(sms, 1))
	if blocks >= capacity {
		return 1
	}
	return float64(blocks) / float64(capacity)
}

// timeline is the simulated clock of each stream and engine, in ns. The
// legacy default stream (id 0) waits for the work issued before it on
// every blocking stream, and work issued after it on a blocking stream
// waits for it, as CUDA's legacy default stream does; streams created with
// cudaStreamNonBlocking are independent of it.
type timeline struct {
	stream      map[uint32]int64
	nonBlocking map[uint32]bool
	engines     [numEngines]int64
	// grids are the kernels (and memsets and device copies, which run as
	// kernels that fill the device) placed on the SMs, the recent ones.
	grids    []gridSpan
	maxGrids int // resident grids at once
	// host is when the host can issue its next launch.
	host int64
}

// gridSpan is a kernel on the SMs: when, and the share of the device.
type gridSpan struct {
	start, end int64
	share      float64
}

// keptGrids bounds the kernels a timeline remembers for placing later ones
// beside them (the oldest are dropped: work issued much later does not
// start before them).
const keptGrids = 1024

func newTimeline(maxGrids int) *timeline {
	return &timeline{stream: map[uint32]int64{}, nonBlocking: map[uint32]bool{}, maxGrids: max(maxGrids, 1)}
}

// ready is when the next operation on stream s may start.
func (t *timeline) ready(s uint32) int64 {
	r := t.stream[s]
	switch {
	case s == 0:
		for id, v := range t.stream {
			if !t.nonBlocking[id] {
				r = max(r, v)
			}
		}
	case !t.nonBlocking[s]:
		r = max(r, t.stream[0])
	}
	return r
}

// run places an operation of duration ns on stream s and engine e and
// returns its start and end. On engineCompute it takes the whole device.
func (t *timeline) run(s uint32, e engine, ns int64) (start, end int64) {
	if e == engineCompute {
		return t.runGrid(s, ns, 1, 0)
	}
	start = max(t.ready(s), t.engines[e])
	end = start + ns
	t.engines[e] = end
	t.finish(s, end)
	return start, end
}

// finish moves stream s to end, and the blocking streams with the legacy
// stream.
func (t *timeline) finish(s uint32, end int64) {
	t.stream[s] = end
	if s == 0 {
		for id, v := range t.stream {
			if !t.nonBlocking[id] && v < end {
				t.stream[id] = end
			}
		}
	}
}

// issue is a kernel launch made by the host: the earliest the kernel can
// start, as the host issues launches one after another.
func (t *timeline) issue() int64 {
	at := t.host
	t.host += launchIssueNS
	return at
}

// hostWaits says the host waited until at (a synchronization): it issues
// nothing before.
func (t *timeline) hostWaits(at int64) { t.host = max(t.host, at) }

// runGrid places a kernel of duration ns taking share of the device on
// stream s, not before notBefore: at the first time from the stream's
// ready time on when, for its whole duration, it fits beside the kernels
// already placed (their shares sum to at most 1 and fewer than maxGrids
// run). It returns its start and end.
func (t *timeline) runGrid(s uint32, ns int64, share float64, notBefore int64) (start, end int64) {
	ns = max(ns, 1)
	r := max(t.ready(s), notBefore)
	start = r
	if !t.fits(r, r+ns, share) {
		// The kernel can start only when one ends: try each end after r,
		// earliest first.
		ends := make([]int64, 0, len(t.grids))
		for _, g := range t.grids {
			if g.end > r {
				ends = append(ends, g.end)
			}
		}
		slices.Sort(ends)
		for _, e := range ends {
			if start = e; t.fits(e, e+ns, share) {
				break
			}
		}
	}
	end = start + ns
	t.grids = append(t.grids, gridSpan{start, end, share})
	if len(t.grids) > keptGrids {
		t.grids = slices.Delete(t.grids, 0, len(t.grids)-keptGrids)
	}
	t.finish(s, end)
	return start, end
}

// fits reports whether a kernel of the given share can run over [from, to)
// beside the placed ones: the load only rises where one starts, so the
// points to check are from and the starts inside the span.
func (t *timeline) fits(from, to int64, share float64) bool {
	const slack = 1e-9
	check := func(at int64) bool {
		load, n := share, 1
		for _, g := range t.grids {
			if g.start <= at && at < g.end {
				load += g.share
				n++
			}
		}
		return load <= 1+slack && n <= t.maxGrids
	}
	if !check(from) {
		return false
	}
	for _, g := range t.grids {
		if g.start > from && g.start < to && !check(g.start) {
			return false
		}
	}
	return true
}

// wait makes stream s wait until time at (cudaStreamWaitEvent).
func (t *timeline) wait(s uint32, at int64) { t.stream[s] = max(t.stream[s], at) }

// mark is the time an event recorded on stream s now reads.
func (t *timeline) mark(s uint32) int64 {
	at := t.ready(s)
	t.stream[s] = at
	return at
}
