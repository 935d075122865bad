package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"

	"github.com/spf13/cobra"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/timing"
	"github.com/warpsim/warpsim/launchfile"
	"github.com/warpsim/warpsim/metrics"
)

// The --clock range accepted (MHz).
const (
	minClockMHz = 1
	maxClockMHz = 100000
)

type runFlags struct {
	arch       string
	mode       string
	scheduler  string
	noSampling bool
	clockMHz   float64
	trace      string
	saveDir    string
	metrics    string
	json       bool
	jsonOut    string
	csv        bool
	maxSteps   int64
	timeout    string
	stderr     io.Writer
	sanitize   string
	report     string // --report FILE.html
	export     string // --export FILE.json
	custom     customArch
}

func newRunCmd(stdout, stderr io.Writer) *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run [flags] LAUNCH.json",
		Short: "Run the kernel launches of a launch file and report their metrics",
		Long: `run loads the PTX module a launch file names, initializes its buffers and
globals, runs its launches in order and prints the kernels' printf output.
With --metrics it then prints an nvprof-style table (or --csv, or --json).

Grids that kernels launch from the device (dynamic parallelism) are
reported as nvprof does: each kernel's invocations in the table count host
and device launches, and every metric is of one grid alone (a parent's
counts exclude its children's). In the JSON document each launch is
followed by the grids launched under it, marked "device": true, with
"count" folding the grids of one kernel, shape and counters.

Metrics: nvprof names or Nsight Compute names, comma-separated, or all.

A kernel that runs long: on a terminal a progress line shows after 2 s
(blocks done, warp instructions per second). It is stopped by Ctrl-C (exit
status 130), by --timeout (wall clock, default none) or by the watchdog
(--max-steps, default 2^36 warp instructions), each with a report of where
its unfinished warps are.
Exit status: 0 success, 1 kernel fault (report on stderr), 2 bad input, 130 interrupted.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.stderr = stderr
			return runLaunchFile(stdout, args[0], &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.arch, "arch", "", "GPU preset (default: the launch file's arch, else h100)")
	fl.StringVar(&f.mode, "mode", "functional", "functional, or timing: the cycle-level model (cycles, time, achieved occupancy, stall reasons)")
	fl.StringVar(&f.scheduler, "scheduler", "", "timing mode's warp scheduler: gto (greedy-then-oldest, the default) or lrr (loose round-robin); an arch file's scheduler: is the default")
	fl.StringVar(&f.trace, "trace", "", "timing mode: write the simulated timeline (kernels, blocks on each SM, device-launched grids) as a Chrome trace to FILE.json (chrome://tracing, Perfetto)")
	fl.Float64Var(&f.clockMHz, "clock", 0, "timing mode: the SM clock in MHz (default: the preset's; Nsight Compute locks the base clock, 1589 on an H100)")
	fl.BoolVar(&f.noSampling, "no-sampling", false, "timing mode: time every block of every launch in detail (no sampling of large grids or of repeated launches)")
	fl.StringVar(&f.saveDir, "save-dir", "", "write each buffer's final bytes to DIR/<buffer>.bin")
	fl.StringVar(&f.metrics, "metrics", "", "metrics to report: a comma-separated list of nvprof or ncu names, or all")
	fl.BoolVar(&f.json, "json", false, "print one JSON document with each launch's metrics (after the kernels' printf output)")
	fl.StringVar(&f.jsonOut, "json-out", "", "write the JSON document to FILE")
	fl.BoolVar(&f.csv, "csv", false, "print the metrics table as CSV (nvprof --csv layout)")
	fl.Int64Var(&f.maxSteps, "max-steps", 0, "watchdog: warp instructions per launch before it is stopped (0 = the default, 2^36)")
	fl.StringVar(&f.timeout, "timeout", "", "wall-clock limit per launch, e.g. 30s or 10m (default: $WARPSIM_TIMEOUT, else none)")
	fl.StringVar(&f.report, "report", "", "write an HTML report (source view, charts, advice) to FILE.html")
	fl.StringVar(&f.export, "export", "", "write the profile JSON (what `warpsim report` renders) to FILE.json")
	addCustomArchFlags(fl, &f.custom)
	fl.StringVar(&f.sanitize, "sanitize", "", "check the launches with a compute-sanitizer tool: memcheck, racecheck, initcheck or synccheck")
	return cmd
}

// runJSON is the document --json prints.
type runJSON struct {
	Arch string `json:"arch"`
	// Compiler names the compiler of a "source" module's PTX ("clang").
	Compiler string       `json:"compiler,omitempty"`
	Launches []launchJSON `json:"launches"`
}

type launchJSON struct {
	Kernel string    `json:"kernel"`
	Grid   [3]uint32 `json:"grid"`
	Block  [3]uint32 `json:"block"`
	// Device marks grids launched by device code under the host launch
	// before them; Count is how many identical ones (same kernel, shape
	// and counters, hence metrics) the entry stands for.
	Device      bool              `json:"device,omitempty"`
	Count       int               `json:"count,omitempty"`
	Metrics     map[string]any    `json:"metrics"`
	Unavailable map[string]string `json:"unavailable,omitempty"`
	// Sampling, SampledBlocks and ErrorPct say, for a launch whose time
	// was sampled (timing mode), how (metrics.Timing.Sampling), how many
	// blocks were timed in detail, and by how much, in percent, its time
	// may be off by the sampling's own estimate
	// (docs/timing-model.md#sampling); absent when it was timed in full.
	Sampling      string  `json:"sampling,omitempty"`
	SampledBlocks int     `json:"sampled_blocks,omitempty"`
	ErrorPct      float64 `json:"error_pct,omitempty"`
}

// setSampling fills e's sampling fields from a launch's timing account
// (nil or timed in full: none).
func (e *launchJSON) setSampling(t *metrics.Timing) {
	if t == nil || !t.Sampled {
		return
	}
	e.Sampling, e.SampledBlocks, e.ErrorPct = t.Sampling, t.SampledBlocks, math.Round(t.ErrorPct*100)/100
}

func runLaunchFile(stdout io.Writer, path string, f *runFlags) error {
	mode, err := warpsim.ParseMode(f.mode)
	if err != nil {
		return badInputf("--mode: %v", err)
	}
	if f.maxSteps < 0 {
		return badInputf("--max-steps must not be negative")
	}
	if f.trace != "" && mode != warpsim.ModeTiming {
		return badInputf("--trace needs --mode timing (the timeline is the timing model's)")
	}
	if f.scheduler != "" && f.scheduler != timing.GTO && f.scheduler != timing.LRR {
		return badInputf("--scheduler %q: want %s or %s", f.scheduler, timing.GTO, timing.LRR)
	}
	// A clock outside 1 MHz to 100 GHz (or not a number) made nonsense
	// times and throughputs.
	if f.clockMHz != 0 && !(f.clockMHz >= minClockMHz && f.clockMHz <= maxClockMHz) {
		return badInputf("--clock %g: want an SM clock in MHz from %d to %d (0: the preset's)", f.clockMHz, minClockMHz, maxClockMHz)
	}
	// The timing model's flags mean nothing in functional mode: refused, as
	// --trace is, rather than ignored.
	if mode != warpsim.ModeTiming {
		switch {
		case f.clockMHz != 0:
			return badInputf("--clock needs --mode timing (functional mode keeps no time)")
		case f.scheduler != "":
			return badInputf("--scheduler needs --mode timing (functional mode schedules no warps)")
		case f.noSampling:
			return badInputf("--no-sampling needs --mode timing (functional mode runs every block)")
		}
	}
	// A sanitized run checks accesses and reports errors; it measures
	// nothing, so metrics, JSON and the timeline are refused by name (they
	// were silently dropped). --save-dir is honoured.
	if f.sanitize != "" {
		for _, c := range []struct {
			set  bool
			name string
		}{{f.metrics != "", "--metrics"}, {f.json, "--json"}, {f.jsonOut != "", "--json-out"}, {f.csv, "--csv"}, {f.trace != "", "--trace"}} {
			if c.set {
				return badInputf("%s cannot be used with --sanitize (a sanitized run reports errors, not metrics); run without --sanitize for them", c.name)
			}
		}
	}
	var defs []*metrics.Def
	if f.metrics != "" {
		var err error
		if defs, err = metrics.ParseList(f.metrics); err != nil {
			return badInputf("--metrics: %v", err)
		}
	}
	lf, err := launchfile.Load(path, launchfile.WithCompiler(compileSource))
	if err != nil {
		return badInput(err)
	}
	compiler := sourceCompiler(f.stderr, lf, mode)
	archName := f.arch
	if archName == "" && f.custom.file == "" {
		archName = lf.Arch
	}
	a, err := f.custom.resolve(archName)
	if err != nil {
		return badInputf("--arch: %v", err)
	}

	timeout, err := launchTimeout(f.timeout)
	if err != nil {
		return badInput(err)
	}
	if _, err := progressWanted(); err != nil {
		return badInput(err)
	}
	dev := warpsim.NewDevice(a, warpsim.Options{Stdout: stdout, StepLimit: f.maxSteps, Timeout: timeout, Mode: mode,
		Timing: warpsim.TimingOptions{Scheduler: f.scheduler, NoSampling: f.noSampling, ClockMHz: f.clockMHz,
			PCStalls: f.report != "" || f.export != ""},
		Lines: f.report != "" || f.export != ""})
	san, err := startRunSanitizer(f.sanitize, a, dev, stdout)
	if err != nil {
		return badInput(err)
	}
	stopWatch := watchLaunches(f.stderr, dev.Interrupt, dev.Progress)
	// Every metric goes into the JSON document unless --metrics chose some;
	// the table shows only what --metrics asked for. Each launch's entry is
	// made as it completes, and its result dropped unless the report or the
	// trace needs every launch (issue 16 #21: a file of many launches kept
	// tens of kilobytes a launch).
	jsonDefs := defs
	if jsonDefs == nil {
		jsonDefs = metrics.Defs()
	}
	wantJSON := f.json || f.jsonOut != ""
	doc := runJSON{Arch: a.Name, Compiler: compiler}
	var invs []metrics.Invocation
	collect := func(_ int, res *warpsim.LaunchResult) {
		if res == nil || (!wantJSON && defs == nil) {
			return
		}
		for _, g := range foldGrids(res) {
			k := g.Kernel
			all := metrics.Compute(g.Counters, a, metrics.Launch{
				BlockThreads:  int(g.Config.Block.X * g.Config.Block.Y * g.Config.Block.Z),
				RegsPerThread: k.RegsPerThread(),
				StaticShared:  k.StaticSharedBytes(),
				DynamicShared: int(g.Config.SharedBytes),
				Timing:        g.Timing,
			})
			name := kernelDisplayName(k)
			if defs != nil {
				inv := metrics.Invocation{Kernel: name, Metrics: metrics.Select(all, defs)}
				for range g.count {
					invs = append(invs, inv)
				}
			}
			if !wantJSON {
				continue
			}
			chosen := metrics.Select(all, jsonDefs)
			entry := launchJSON{
				Kernel:      name,
				Grid:        [3]uint32{g.Config.Grid.X, g.Config.Grid.Y, g.Config.Grid.Z},
				Block:       [3]uint32{g.Config.Block.X, g.Config.Block.Y, g.Config.Block.Z},
				Metrics:     metrics.JSONValues(chosen),
				Unavailable: metrics.Unavailable(chosen),
			}
			if g.FromDevice {
				entry.Device, entry.Count = true, g.count
			}
			entry.setSampling(g.Timing)
			doc.Launches = append(doc.Launches, entry)
		}
	}
	keep := f.report != "" || f.export != "" || f.trace != ""
	out, err := lf.Execute(dev, launchfile.ExecOptions{AfterLaunch: collect, Discard: !keep})
	stopWatch()
	var saveErr error
	if out != nil && f.saveDir != "" {
		saveErr = saveBuffers(f.saveDir, out)
	}
	if san != nil {
		ferr := finishRunSanitizer(san, stdout, err)
		if saveErr != nil {
			if ferr == nil {
				return badInput(saveErr)
			}
			fmt.Fprintf(f.stderr, "warpsim: %v\n", saveErr)
		}
		return ferr
	}
	if err != nil {
		// A fault and a --save-dir failure are both reported.
		var fault *warpsim.Fault
		if errors.As(err, &fault) {
			if fault.Kind == warpsim.FaultInterrupted {
				code := exitInterrupted
				if terminated.Load() {
					code = exitTerminated
				}
				return &exitError{code: code, err: errors.Join(err, saveErr)}
			}
			return kernelFault(errors.Join(err, saveErr))
		}
		return badInput(errors.Join(err, saveErr))
	}
	if saveErr != nil {
		return badInput(saveErr)
	}

	if f.report != "" || f.export != "" {
		if err := writeRunReport(f, path, a, string(mode), out); err != nil {
			return err
		}
	}
	if f.trace != "" {
		if err := writeRunTrace(f.trace, a, out); err != nil {
			return badInputf("--trace: %v", err)
		}
	}

	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	// grid and block on one line each: [256, 1, 1]
	b = dim3JSON.ReplaceAll(b, []byte("[$1, $2, $3]"))
	b = append(b, '\n')
	if f.jsonOut != "" {
		if err := os.WriteFile(f.jsonOut, b, 0o644); err != nil {
			return badInputf("--json-out: %v", err)
		}
	}
	switch {
	case f.json:
		_, err := stdout.Write(b)
		return err
	case defs == nil:
		return nil
	case f.csv:
		return metrics.WriteCSV(stdout, a.FullName, metrics.Summarize(invs))
	default:
		return metrics.WriteTable(stdout, a.FullName, metrics.Summarize(invs))
	}
}

// foldedGrid is a grid of a launch, or several identical grids launched
// from the device under it.
type foldedGrid struct {
	warpsim.GridResult
	count int
}

// foldGrids lists a launch's grids for the report: the host's first, then
// those launched from the device in first-run order, folding grids of one
// kernel, shape and counters (a fan-out of thousands of identical
// children is one entry).
func foldGrids(res *warpsim.LaunchResult) []foldedGrid {
	if len(res.Grids) == 0 { // a result made without the engine's grid list
		return []foldedGrid{{GridResult: warpsim.GridResult{Kernel: res.Kernel, Config: res.Config, Counters: res.Counters}, count: 1}}
	}
	type key struct {
		k        *warpsim.Kernel
		cfg      warpsim.LaunchConfig
		counters metrics.Counters
	}
	out := []foldedGrid{{GridResult: res.Grids[0], count: 1}}
	index := map[key]int{}
	for _, g := range res.Grids[1:] {
		k := key{g.Kernel, g.Config, g.Counters}
		if i, ok := index[k]; ok {
			out[i].count++
			continue
		}
		index[k] = len(out)
		out = append(out, foldedGrid{GridResult: g, count: 1})
	}
	return out
}

// kernelDisplayName is the name reports show: the demangled C++ name when
// there is one, as nvprof shows kernels.
func kernelDisplayName(k *warpsim.Kernel) string {
	if d := k.DemangledName(); d != "" {
		return d
	}
	return k.Name()
}

// dim3JSON matches an indented three-number list.
var dim3JSON = regexp.MustCompile(`\[\s*(\d+),\s*(\d+),\s*(\d+)\s*\]`)

// saveBuffers writes each buffer's final bytes to DIR/<name>.bin. Every
// buffer is first written in full to a temporary file in DIR; only when all
// of them are written are they renamed into place, so a failure part-way
// leaves the old files as they were. Every failure is reported.
func saveBuffers(dir string, out *launchfile.Outcome) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--save-dir: %v", err)
	}
	var errs []error
	tmps := make([]string, len(out.BufferOrder))
	for i, name := range out.BufferOrder {
		tmp, err := writeTemp(dir, name, out)
		if err != nil {
			errs = append(errs, fmt.Errorf("--save-dir: buffer %s: %v", name, err))
			continue
		}
		tmps[i] = tmp
	}
	if len(errs) > 0 {
		for _, tmp := range tmps {
			if tmp != "" {
				os.Remove(tmp)
			}
		}
		return errors.Join(append(errs, fmt.Errorf("--save-dir: nothing in %s was replaced", dir))...)
	}
	for i, name := range out.BufferOrder {
		if err := os.Rename(tmps[i], filepath.Join(dir, name+".bin")); err != nil {
			os.Remove(tmps[i])
			errs = append(errs, fmt.Errorf("--save-dir: buffer %s: %v", name, err))
		}
	}
	return errors.Join(errs...)
}

// writeTemp writes one buffer to a new temporary file in dir and returns
// its name.
func writeTemp(dir, name string, out *launchfile.Outcome) (string, error) {
	fh, err := os.CreateTemp(dir, "."+name+".bin.*.tmp")
	if err != nil {
		return "", err
	}
	bw := bufio.NewWriterSize(fh, 1<<20)
	err = out.WriteBuffer(name, bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = fh.Chmod(0o644)
	}
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(fh.Name())
		return "", err
	}
	return fh.Name(), nil
}

// writeRunTrace writes the launches' simulated timeline as a Chrome trace.
func writeRunTrace(path string, a *arch.Arch, out *launchfile.Outcome) error {
	var grids []metrics.TraceGrid
	for _, res := range out.Launches {
		base := len(grids)
		for _, g := range res.Grids {
			parent := -1
			if g.Parent >= 0 {
				parent = base + g.Parent
			}
			grids = append(grids, metrics.TraceGrid{Name: kernelDisplayName(g.Kernel),
				Grid: [3]uint32{g.Config.Grid.X, g.Config.Grid.Y, g.Config.Grid.Z}, Block: [3]uint32{g.Config.Block.X, g.Config.Block.Y, g.Config.Block.Z},
				FromDevice: g.FromDevice, Parent: parent, Timing: g.Timing})
		}
	}
	var b bytes.Buffer
	if err := metrics.WriteChromeTrace(&b, a.FullName, grids); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
