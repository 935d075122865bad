package engine

import (
	"fmt"
	"sort"
	"sync"
	"time"
)

// Stopping a launch from outside. A launch stops when its stop flag is set:
// by a fault in one of its blocks, by the watchdog's step budget, by its
// wall-clock limit (Config.Timeout) or by Control.Interrupt (SIGINT). The
// functional driver's workers check the flag between blocks and every 2^16
// warp instructions; a timing driver polls GridRun.Stopped. Either way the
// engine then reports where the launch's warps were (Fault.Warps), the same
// for the watchdog, the timeout and an interrupt.

// Control lets a caller watch and stop a device's launches: one Control per
// device, shared by its launches (Config.Control). Its methods are safe for
// concurrent use.
type Control struct {
	mu  sync.Mutex
	cur *hostLaunch
}

// hostLaunch is one host launch's stop state, shared by its grids.
type hostLaunch struct {
	mu     sync.Mutex
	kind   FaultKind // why it was stopped; 0 while it runs
	detail string
	grid   *launch // the grid running now
	start  time.Time
	kernel string
	ctl    *Control
}

// Interrupt stops the launch running now, if any, with FaultInterrupted;
// it reports whether one was running.
func (c *Control) Interrupt(detail string) bool {
	c.mu.Lock()
	h := c.cur
	c.mu.Unlock()
	if h == nil {
		return false
	}
	h.stop(FaultInterrupted, detail)
	return true
}

// Progress describes the launch running now.
type Progress struct {
	Kernel      string
	Blocks      int   // of the grid running now
	BlocksDone  int   // blocks completed
	Steps       int64 // warp instructions so far (updated every 2^16 per block)
	Elapsed     time.Duration
	DeviceGrids bool // the grid running now was launched from the device
}

// Progress reports the launch running now; ok is false when none is.
func (c *Control) Progress() (p Progress, ok bool) {
	c.mu.Lock()
	h := c.cur
	c.mu.Unlock()
	if h == nil {
		return p, false
	}
	h.mu.Lock()
	l := h.grid
	h.mu.Unlock()
	p = Progress{Kernel: h.kernel, Elapsed: time.Since(h.start)}
	if l != nil {
		p.Blocks, p.BlocksDone, p.Steps = l.nblocks, int(l.done.Load()), l.steps.Load()
		// Under a timing driver: the blocks started less those resident.
		p.BlocksDone += int(max(l.started.Load()-l.slotCount.Load(), 0))
		p.DeviceGrids = l.depth > 0
	}
	return p, true
}

func (h *hostLaunch) stop(kind FaultKind, detail string) {
	h.mu.Lock()
	if h.kind == 0 {
		h.kind, h.detail = kind, detail
	}
	l := h.grid
	h.mu.Unlock()
	if l != nil {
		l.stop.Store(true)
	}
}

// attach makes l the grid running now; it is stopped at once if the host
// launch has been. A new grid is bound to h before its workers start
// (bind); a grid that resumes after a device-side synchronization is only
// re-attached, from its workers, so l.host is never written concurrently.
func (h *hostLaunch) attach(l *launch) {
	h.mu.Lock()
	h.grid = l
	stopped := h.kind != 0
	h.mu.Unlock()
	if stopped {
		l.stop.Store(true)
	}
}

// bind ties a new grid to the host launch and attaches it.
func (h *hostLaunch) bind(l *launch) {
	l.host = h
	h.attach(l)
}

// stopped returns why the host launch was stopped from outside (0: it was not).
func (h *hostLaunch) stopped() (FaultKind, string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.kind, h.detail
}

// beginHost starts a host launch's stop state: it registers with the
// Control and arms the wall-clock limit. end releases both.
func (m *Module) beginHost(cfg *Config) (h *hostLaunch, end func()) {
	h = &hostLaunch{start: time.Now(), kernel: m.Prog.Funcs[cfg.Kernel].Name, ctl: cfg.Control}
	if c := cfg.Control; c != nil {
		c.mu.Lock()
		c.cur = h
		c.mu.Unlock()
	}
	var timer *time.Timer
	if cfg.Timeout > 0 {
		timer = time.AfterFunc(cfg.Timeout, func() {
			h.stop(FaultTimeout, fmt.Sprintf("the launch ran longer than its wall-clock limit of %v", cfg.Timeout))
		})
	}
	return h, func() {
		if timer != nil {
			timer.Stop()
		}
		if c := cfg.Control; c != nil {
			c.mu.Lock()
			if c.cur == h {
				c.cur = nil
			}
			c.mu.Unlock()
		}
	}
}

// maxWarpStates bounds the warps a stopped launch's report lists.
const maxWarpStates = 8

// snapshot records where the block's unfinished warps are, for the report
// of a stopped launch.
func (w *worker) snapshot() {
	b := &w.blk
	var states []WarpState
	for _, wp := range b.warps {
		if wp.state == warpDone || len(wp.stack) == 0 {
			continue
		}
		states = append(states, wp.where())
	}
	if len(states) == 0 {
		return
	}
	l := w.l
	l.faultMu.Lock()
	l.snaps = append(l.snaps, states...)
	l.snapBlocks++
	l.faultMu.Unlock()
}

// where is the warp's position and what it waits on.
func (wp *warp) where() WarpState {
	top := wp.stack[len(wp.stack)-1]
	pc, mask := int(top.pc), top.mask
	wait := "running"
	if wp.state == warpAtBarrier {
		pc, mask = wp.barPC, wp.barMask
		br := &wp.blk.bars[wp.barID]
		need := br.need
		if need == 0 || need > wp.blk.live {
			need = wp.blk.live
		}
		wait = fmt.Sprintf("waiting at barrier %d (%d of %d warps arrived)", wp.barID, br.arrived, need)
	}
	if wp.state == warpAtGridSync {
		pc, mask = wp.barPC, wp.barMask
		wait = wp.w.gridSyncWait()
	}
	live := mask
	if live == 0 {
		live = wp.valid &^ wp.exited
	}
	first, last := 0, 31
	for first < 32 && live>>first&1 == 0 {
		first++
	}
	for last > 0 && live>>last&1 == 0 {
		last--
	}
	if first == 32 {
		first = 0
	}
	s := WarpState{
		Block: wp.blk.idx, Func: wp.fn.Name, PC: pc, Wait: wait,
		First: [3]uint32{wp.tid[0][first], wp.tid[1][first], wp.tid[2][first]},
		Last:  [3]uint32{wp.tid[0][last], wp.tid[1][last], wp.tid[2][last]},
	}
	if pc >= 0 && pc < len(wp.fn.Lines) {
		s.Line, s.Text = wp.fn.Lines[pc], wp.fn.Text[pc]
	}
	return s
}

// stopFault completes the fault of a launch that was stopped while it ran
// (watchdog, timeout, interrupt): the warps recorded by every block that
// was running, a few of them, in block order. It builds the fault when the
// stop came from outside.
func (l *launch) stopFault() *Fault {
	f := l.fault
	if f == nil && l.checked != nil {
		return l.checked
	}
	if f == nil {
		if l.host == nil {
			return nil
		}
		kind, detail := l.host.stopped()
		if kind == 0 {
			return nil
		}
		f = &Fault{Kind: kind, Detail: detail, PC: -1}
	}
	switch {
	case f.Kind == FaultWatchdog, f.Kind == FaultTimeout, f.Kind == FaultInterrupted:
	case f.Kind == FaultBarrierDeadlock && f.PC < 0 && l.coop != nil:
		// A grid barrier that cannot complete (gridsync.go).
	default:
		return f
	}
	states := l.snaps
	// Block order (z, y, x), then thread order: the report does not depend
	// on which worker stopped when.
	sort.SliceStable(states, func(i, j int) bool {
		if c := cmpZYX(states[i].Block, states[j].Block); c != 0 {
			return c < 0
		}
		return cmpZYX(states[i].First, states[j].First) < 0
	})
	f.Warps = states
	f.MoreWarps = 0
	if len(states) > maxWarpStates {
		f.Warps = states[:maxWarpStates]
		f.MoreWarps = len(states) - maxWarpStates
	}
	f.RunningBlocks = l.snapBlocks
	if f.PC < 0 && len(states) > 0 {
		s := states[0]
		f.Func, f.Block, f.Thread, f.PC, f.Line, f.Text = s.Func, s.Block, s.First, s.PC, s.Line, s.Text
	}
	if len(states) == 0 && f.PC < 0 {
		// Stopped between blocks (short blocks finish before they look
		// at the stop flag): the block names the next one to run.
		next := min(int(l.next.Load()), l.nblocks-1)
		if gx, gy := int(l.cfg.Grid[0]), int(l.cfg.Grid[1]); next >= 0 && gx > 0 && gy > 0 {
			f.Block = [3]uint32{uint32(next % gx), uint32(next / gx % gy), uint32(next / (gx * gy))}
		}
	}
	f.Steps = l.steps.Load()
	f.BlocksDone = int(l.done.Load())
	f.Blocks = l.nblocks
	return f
}

// cmpZYX orders 3D indices with z most significant, as blocks and threads
// are linearized.
func cmpZYX(a, b [3]uint32) int {
	for k := 2; k >= 0; k-- {
		if a[k] != b[k] {
			if a[k] < b[k] {
				return -1
			}
			return 1
		}
	}
	return 0
}
