// Package sanitize is warpsim's compute-sanitizer: memcheck, racecheck,
// initcheck and synccheck over the engine's check hooks (engine.Checker),
// with compute-sanitizer's report format. A Sanitizer is attached to a
// device for a whole program; the CUDA runtime tells it about host-side
// allocations, copies and failed API calls, and prints what it reports.
//
// Launches under a sanitizer run their blocks in order on one worker, so
// findings come in the same order every run.
package sanitize

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"github.com/warpsim/warpsim/internal/engine"
)

// Tool is one of compute-sanitizer's tools.
type Tool uint8

// The tools, under compute-sanitizer's names.
const (
	Memcheck Tool = iota
	Racecheck
	Initcheck
	Synccheck
)

var toolNames = []string{"memcheck", "racecheck", "initcheck", "synccheck"}

func (t Tool) String() string { return toolNames[t] }

// ParseTool reads a --tool value.
func ParseTool(s string) (Tool, error) {
	for i, n := range toolNames {
		if s == n {
			return Tool(i), nil
		}
	}
	return 0, fmt.Errorf("unknown tool %q (memcheck, racecheck, initcheck or synccheck)", s)
}

// Race report modes (--racecheck-report).
const (
	ReportAnalysis = "analysis"
	ReportHazard   = "hazard"
	ReportAll      = "all"
)

// Options are compute-sanitizer's settings.
type Options struct {
	Tool       Tool
	LeakCheck  bool   // --leak-check full
	RaceReport string // analysis (default), hazard or all
	// PrintLimit caps the errors (racecheck: hazards) printed; 0 is
	// compute-sanitizer's default of 100 for hazards and no limit
	// otherwise; negative prints none.
	PrintLimit int
	// CheckLocal checks local accesses against the executing function's
	// own frame rather than the thread's whole live stack.
	CheckLocal bool
	// GlobalRaces makes racecheck look for races on global memory too.
	GlobalRaces bool
	// TrackUnused is initcheck's --track-unused-memory: an allocation
	// freed with bytes nothing wrote is reported.
	TrackUnused bool
	// SharedBase is added to shared-memory offsets in reports: the GPU's
	// reserved shared memory before the block's own (1 KiB on sm_80+),
	// so addresses read as compute-sanitizer prints them.
	SharedBase uint64
}

// Prefix begins every line compute-sanitizer prints.
const Prefix = "========= "

// Sanitizer checks the launches of one program. Its methods are safe for
// concurrent use; launches run one at a time.
type Sanitizer struct {
	opt Options
	mu  sync.Mutex
	out bytes.Buffer // report text not yet taken

	errors   int // for ERROR SUMMARY
	printed  int // errors printed (for --print-limit)
	stops    int // kernels stopped
	launches int

	init  initcheck
	race  racecheck
	race2 racecheck // global memory (--check-global-races)
	sync  synccheck

	leaked      uint64
	leakedCount int
}

// New makes a sanitizer.
func New(opt Options) *Sanitizer {
	if opt.RaceReport == "" {
		opt.RaceReport = ReportAnalysis
	}
	s := &Sanitizer{opt: opt}
	s.init.shadows = map[uint64]*shadow{}
	s.race.global, s.race.s = false, s
	s.race2.global, s.race2.s = true, s
	return s
}

// Options returns the sanitizer's settings.
func (s *Sanitizer) Options() Options { return s.opt }

// Take returns the report text written since the last call.
func (s *Sanitizer) Take() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.out.Len() == 0 {
		return nil
	}
	b := bytes.Clone(s.out.Bytes())
	s.out.Reset()
	return b
}

// Errors is the number of errors found so far (what ERROR SUMMARY counts).
func (s *Sanitizer) Errors() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.errors + s.race.errors + s.race2.errors
}

// limitReached reports whether another error may not be printed.
func (s *Sanitizer) limitReached() bool {
	return s.opt.PrintLimit < 0 || s.opt.PrintLimit > 0 && s.printed >= s.opt.PrintLimit
}

// report adds one error block (lines without the prefix) to the output and
// counts it.
func (s *Sanitizer) report(lines ...string) {
	s.errors++
	if s.limitReached() {
		return
	}
	s.printed++
	for _, l := range lines {
		s.out.WriteString(Prefix)
		s.out.WriteString(l)
		s.out.WriteByte('\n')
	}
	s.out.WriteString(Prefix + "\n")
}

// APIError reports a CUDA API call that returned an error, as memcheck
// does: `Program hit cudaErrorX (error N) due to "text" on CUDA API call
// to NAME.`
func (s *Sanitizer) APIError(call string, code int, name, text string) {
	if s.opt.Tool != Memcheck {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.report(fmt.Sprintf("Program hit %s (error %d) due to %q on CUDA API call to %s.", name, code, text, call))
}

// Leak is a device allocation still live at exit or cudaDeviceReset.
type Leak struct{ Addr, Size uint64 }

// Leaks reports the allocations the program never freed (with --leak-check
// full), in allocation order as given.
func (s *Sanitizer) Leaks(leaks []Leak) {
	if s.opt.Tool != Memcheck || !s.opt.LeakCheck {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range leaks {
		s.report(fmt.Sprintf("Leaked %s bytes at %#x", commas(l.Size), l.Addr))
		s.leaked += l.Size
		s.leakedCount++
	}
}

// Summary is the closing lines: LEAK SUMMARY (memcheck with --leak-check
// full), RACECHECK SUMMARY (racecheck) or ERROR SUMMARY.
func (s *Sanitizer) Summary() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	switch s.opt.Tool {
	case Racecheck:
		d, e, w := s.race.displayed+s.race2.displayed, s.race.shownErrors+s.race2.shownErrors, s.race.shownWarnings+s.race2.shownWarnings
		fmt.Fprintf(&b, "%sRACECHECK SUMMARY: %d %s displayed (%d %s, %d %s)\n", Prefix,
			d, plural(d, "hazard"), e, plural(e, "error"), w, plural(w, "warning"))
		return b.String()
	case Memcheck:
		if s.opt.LeakCheck {
			fmt.Fprintf(&b, "%sLEAK SUMMARY: %d bytes leaked in %d allocations\n", Prefix, s.leaked, s.leakedCount)
		}
	}
	n := s.errors
	fmt.Fprintf(&b, "%sERROR SUMMARY: %d %s\n", Prefix, n, plural(n, "error"))
	if hidden := n - s.printed; hidden > 0 && s.opt.PrintLimit > 0 {
		// As compute-sanitizer says it (testdata/hostile/h100.txt,
		// sanitize_limits), after the count
		// (testdata/sanitize/probe2/recorded/many_errors.*).
		verb := "were"
		if hidden == 1 {
			verb = "was"
		}
		fmt.Fprintf(&b, "%sERROR SUMMARY: %d %s %s not printed. Use --print-limit option to adjust the number of printed errors\n",
			Prefix, hidden, plural(hidden, "error"), verb)
	}
	return b.String()
}

// Access implements engine.Checker.
func (s *Sanitizer) Access(site *engine.CheckSite, a *engine.CheckAccess) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.opt.Tool {
	case Memcheck:
		// The lanes memcheck stops exit; the kernel goes on (a.Stop).
		s.stop(s.memcheck(site, a))
	case Initcheck:
		s.initcheck(site, a)
	case Racecheck:
		s.race.access(s, site, a)
		if s.opt.GlobalRaces {
			s.race2.access(s, site, a)
		}
	}
	return true
}

// Async implements engine.AsyncChecker: racecheck follows asynchronous
// copies' writes into shared memory (racecheck.go).
func (s *Sanitizer) Async(site *engine.CheckSite, a *engine.CheckAsync) {
	if s.opt.Tool != Racecheck {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.race.async(s, site, a)
}

// Barrier implements engine.Checker.
func (s *Sanitizer) Barrier(site *engine.CheckSite, id, count int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.opt.Tool {
	case Racecheck:
		s.race.barrier(site)
		s.race2.barrier(site)
	case Synccheck:
		return s.stop(s.syncBarrier(site, id, count))
	}
	return true
}

// WarpSync implements engine.Checker.
func (s *Sanitizer) WarpSync(site *engine.CheckSite, member *[32]uint32) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.opt.Tool {
	case Racecheck:
		if site.Inst.Op == barWarpOp {
			s.race.warpSync(site)
			s.race2.warpSync(site)
		}
	case Synccheck:
		return s.stop(s.syncWarp(site, member))
	}
	return true
}

// stop counts a kernel the sanitizer stops (ok false).
func (s *Sanitizer) stop(ok bool) bool {
	if !ok {
		s.stops++
	}
	return ok
}

// Stops is how many kernels the sanitizer has stopped: a launch that
// faulted while it rose failed because of a reported error.
func (s *Sanitizer) Stops() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stops
}

// EndLaunch closes a launch: racecheck's analysis reports are printed.
func (s *Sanitizer) EndLaunch() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.launches++
	if s.opt.Tool == Racecheck {
		s.race.flush(s)
		s.race2.flush(s)
	}
}

func plural(n int, w string) string {
	if n == 1 {
		return w
	}
	return w + "s"
}

// commas writes n with thousands separators, as compute-sanitizer does.
func commas(n uint64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// LocalReserve implements engine.LocalReserver: the bytes compute-sanitizer
// left above a kernel's stack beyond the driver's (testdata/sanitize/probe8,
// engine/stack.go): memcheck reserves what every system call needs, as
// though its code made them all (0x550 bytes above every kernel recorded);
// racecheck, initcheck and synccheck add 0x40, 0x90 and 0x30 bytes (each
// measured once, on a kernel that calls printf).
func (s *Sanitizer) LocalReserve() (extra int, allSyscalls bool) {
	switch s.opt.Tool {
	case Memcheck:
		return 0, true
	case Racecheck:
		return 0x40, false
	case Initcheck:
		return 0x90, false
	case Synccheck:
		return 0x30, false
	}
	return 0, false
}
