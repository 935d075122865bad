package warpsim

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"github.com/warpsim/warpsim/internal/devhook"
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/sanitize"
)

// Package warpsim's own packages (the CUDA runtime, `warpsim sanitize` and
// `warpsim run --sanitize`) install the engine's check hook through
// internal/devhook; this is the one place that reaches the device for them.
// installCheckHook gives internal/devhook the setter of a device's check
// hook, once: NewDevice calls it, so it is in place before anyone holds a
// *Device to pass to devhook.SetChecker (no package initializer needed).
var installCheckHook = sync.OnceFunc(func() {
	devhook.Install(func(dev any, c engine.Checker) bool {
		d, ok := dev.(*Device)
		if ok {
			d.check = c
		}
		return ok
	})
})

// SanitizeOptions choose one of compute-sanitizer's tools and its settings
// for Device.Sanitize; the zero value is memcheck with its defaults.
type SanitizeOptions struct {
	// Tool is "memcheck" (also when empty), "racecheck", "initcheck" or
	// "synccheck", as compute-sanitizer --tool names them.
	Tool string
	// RaceReport is racecheck's --racecheck-report: "analysis" (also when
	// empty: one line per pair of racing instructions), "hazard" (every
	// hazard) or "all".
	RaceReport string
	// PrintLimit caps the findings kept and printed (racecheck: hazards),
	// as --print-limit: 0 is compute-sanitizer's default (100 hazards, no
	// limit otherwise), negative keeps none. Errors counts all of them.
	PrintLimit int
	// CheckLocal holds each local access to the executing function's own
	// frame rather than the thread's whole stack (`--check-local`).
	CheckLocal bool
	// GlobalRaces makes racecheck look for races on global memory too.
	GlobalRaces bool
}

// SanitizerFinding is one thing a sanitizer reported, as compute-sanitizer
// prints it without its "========= " prefixes.
type SanitizerFinding struct {
	// Message is its first line, e.g. "Invalid __global__ write of size 4
	// bytes" or "Error: Race reported between Write access at ...".
	Message string
	// Details are the lines after it, indented as printed: where (kernel,
	// offset, source line), by which thread in which block, the address.
	Details []string
}

func (f SanitizerFinding) String() string {
	return strings.Join(append([]string{f.Message}, f.Details...), "\n")
}

// Sanitizer is a device put under one of compute-sanitizer's tools by
// Device.Sanitize. It gathers what each launch reports; its methods are safe
// for concurrent use.
type Sanitizer struct {
	dev *Device
	s   *sanitize.Sanitizer

	mu       sync.Mutex
	text     bytes.Buffer // every report block so far, prefixes and all
	findings []SanitizerFinding
}

// Sanitize puts the device under a compute-sanitizer tool until the
// returned Sanitizer is closed: every launch's accesses and synchronizations
// are checked, its blocks run in order on one worker (so reports are the
// same every run), and the timing model is not used. memcheck and synccheck
// stop a kernel at its first error: Launch returns a *Fault of kind
// FaultSanitizer. initcheck knows what the host wrote (Write, Memset) into
// allocations made (Malloc) after this call; memory allocated before counts
// as written. A device has one sanitizer at a time.
func (d *Device) Sanitize(opt SanitizeOptions) (*Sanitizer, error) {
	tool := sanitize.Memcheck
	if opt.Tool != "" {
		t, err := sanitize.ParseTool(opt.Tool)
		if err != nil {
			return nil, fmt.Errorf("sanitize: %v", err)
		}
		tool = t
	}
	switch opt.RaceReport {
	case "", sanitize.ReportAnalysis, sanitize.ReportHazard, sanitize.ReportAll:
	default:
		return nil, fmt.Errorf("sanitize: race report %q: want analysis, hazard or all", opt.RaceReport)
	}
	d.launchMu.Lock()
	defer d.launchMu.Unlock()
	if d.san.Load() != nil || d.check != nil {
		return nil, fmt.Errorf("sanitize: the device is under a sanitizer already")
	}
	s := &Sanitizer{dev: d, s: sanitize.New(sanitize.Options{
		Tool:        tool,
		RaceReport:  opt.RaceReport,
		PrintLimit:  opt.PrintLimit,
		CheckLocal:  opt.CheckLocal,
		GlobalRaces: opt.GlobalRaces,
		SharedBase:  uint64(d.arch.ReservedSharedPerBlock),
	})}
	d.check = s.s
	d.san.Store(s)
	return s, nil
}

// Close takes the sanitizer off its device: later launches run unchecked
// (and timed, on a ModeTiming device). What it found stays readable.
func (s *Sanitizer) Close() {
	d := s.dev
	d.launchMu.Lock()
	defer d.launchMu.Unlock()
	if d.san.Load() == s {
		d.san.Store(nil)
		d.check = nil
	}
}

// Tool is the compute-sanitizer tool the sanitizer runs.
func (s *Sanitizer) Tool() string { return s.s.Options().Tool.String() }

// Findings are what the launches so far reported, in order, up to
// SanitizeOptions.PrintLimit.
func (s *Sanitizer) Findings() []SanitizerFinding {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]SanitizerFinding(nil), s.findings...)
}

// Errors counts the errors found so far, past the print limit too: what
// compute-sanitizer's ERROR SUMMARY counts (racecheck: racing pairs that
// are errors, not warnings).
func (s *Sanitizer) Errors() int { return s.s.Errors() }

// Stopped counts the kernels the sanitizer stopped (memcheck, synccheck).
func (s *Sanitizer) Stopped() int { return s.s.Stops() }

// Report is the report so far in compute-sanitizer's format: every finding,
// then the summary (ERROR SUMMARY; racecheck: RACECHECK SUMMARY), each line
// prefixed "========= ".
func (s *Sanitizer) Report() string {
	s.mu.Lock()
	text := s.text.String()
	s.mu.Unlock()
	return text + s.s.Summary()
}

// endLaunch closes a launch (racecheck reports its analysis then) and
// gathers what it reported; the device holds launchMu.
func (s *Sanitizer) endLaunch() {
	s.s.EndLaunch()
	out := s.s.Take()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.text.Write(out)
	s.findings = append(s.findings, parseFindings(out)...)
}

// parseFindings splits report text into its blocks: lines after the prefix,
// each block ended by a line of the prefix alone.
func parseFindings(out []byte) []SanitizerFinding {
	var fs []SanitizerFinding
	var cur []string
	for _, line := range strings.Split(string(out), "\n") {
		line, ok := strings.CutPrefix(line, sanitize.Prefix)
		if !ok {
			continue
		}
		if line == "" {
			if len(cur) > 0 {
				fs = append(fs, SanitizerFinding{Message: cur[0], Details: cur[1:]})
			}
			cur = nil
			continue
		}
		cur = append(cur, line)
	}
	if len(cur) > 0 {
		fs = append(fs, SanitizerFinding{Message: cur[0], Details: cur[1:]})
	}
	return fs
}

// hostAlloc, hostFree and hostWrite tell initcheck what the host did.
func (s *Sanitizer) hostAlloc(addr, size uint64) { s.s.HostAlloc(addr, size) }
func (s *Sanitizer) hostFree(addr uint64)        { s.s.HostFree(addr) }
func (s *Sanitizer) hostWrite(mem *engine.Memory, addr, n uint64) {
	if a, ok := mem.Find(addr, n); ok {
		s.s.HostWrite(a.Base, addr, n)
	}
}
