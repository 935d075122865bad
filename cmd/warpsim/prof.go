package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/cudart"
	"github.com/warpsim/warpsim/internal/settings"
	"github.com/warpsim/warpsim/metrics"
)

type profFlags struct {
	jsonOut        string
	custom         customArch
	arch, metrics  string
	events, report string
	export         string
	mode, trace    string
	csv, gpuTrace  bool
	noSampling     bool
}

func newProfCmd(stdout, stderr io.Writer) *cobra.Command {
	var f profFlags
	cmd := &cobra.Command{
		Use:   "prof [--arch NAME] [--mode timing|functional] [--no-sampling] [--metrics LIST|all] [--events LIST|all] [--csv] [--print-gpu-trace] [--trace FILE.json] [--report FILE.html] [--export FILE.json] ./prog [args…]",
		Short: "Run a program built by warpsim cc under the simulator and print an nvprof-style profile",
		Long: `Runs a program built by ` + "`warpsim cc`" + ` with the simulator collecting counters for
every kernel launch, then prints, as nvprof does on stderr, the time summary
per kernel (calls, total/avg/min/max), with --metrics the metric table and
with --events the event table per kernel (invocations, min, max, avg, and
for events the total). The program runs in timing mode by default: kernel
times, the GPU trace's start and duration and the program's own CUDA event
times are the timing model's simulated time on the simulated GPU, and the
timing metrics (duration_ns, achieved_occupancy, ipc, …) have values.
Timing samples: a grid of many waves is timed for its first waves and
extrapolated, and a launch identical to two launches timed in detail
before it (same kernel, configuration, parameters and counts) runs
functionally and takes their time; a note after the report names the
sampled kernels and the sampling's estimated error, and --no-sampling
times everything in detail.
--mode functional skips the timing model (faster); times are then the host
time each simulation took and the timing metrics are n/a. --trace writes
the simulated timeline (kernels, device-launched grids, blocks on each SM)
as a Chrome trace that Perfetto and chrome://tracing open. --report writes
an HTML report (source view with per-line counts, charts, guided advice;
docs/report.md), --export the profile JSON that ` + "`warpsim report`" + ` renders.

Events (nvprof's raw counters): ` + eventNames() + `.

The program's output is unchanged; its exit status is warpsim prof's.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runProf(f, args, stdout, stderr) },
	}
	cmd.Flags().SetInterspersed(false)
	cmd.Flags().StringVar(&f.arch, "arch", "h100", "simulated GPU (see warpsim archs)")
	addCustomArchFlags(cmd.Flags(), &f.custom)
	cmd.Flags().StringVar(&f.metrics, "metrics", "", "comma-separated metric names, or all")
	cmd.Flags().BoolVar(&f.csv, "csv", false, "print the tables as CSV")
	cmd.Flags().BoolVar(&f.gpuTrace, "print-gpu-trace", false, "print every launch in order")
	cmd.Flags().StringVar(&f.events, "events", "", "comma-separated nvprof event names, or all ("+eventNames()+")")
	cmd.Flags().StringVar(&f.mode, "mode", "timing", "timing (simulated time) or functional (no timing model; host times)")
	cmd.Flags().BoolVar(&f.noSampling, "no-sampling", false, "timing mode: time every block of every launch in detail (no sampling of large grids or repeated launches)")
	cmd.Flags().StringVar(&f.jsonOut, "json-out", "", "write every launch's metrics as JSON to FILE (warpsim run --json's layout)")
	cmd.Flags().StringVar(&f.trace, "trace", "", "write the simulated timeline as a Chrome trace (JSON) to this file (timing mode)")
	cmd.Flags().StringVar(&f.report, "report", "", "write an HTML report (source view, charts, advice) to FILE.html")
	cmd.Flags().StringVar(&f.export, "export", "", "write the profile JSON (what `warpsim report` renders) to FILE.json")
	return cmd
}

func runProf(f profFlags, args []string, stdout, stderr io.Writer) error {
	a, err := f.custom.resolve(f.arch)
	if err != nil {
		return badInput(err)
	}
	mode, err := warpsim.ParseMode(f.mode)
	if err != nil || f.mode == "" {
		return badInputf("--mode %q: want timing or functional", f.mode)
	}
	if f.noSampling && mode != warpsim.ModeTiming {
		return badInputf("--no-sampling needs the timing model (drop --mode functional)")
	}
	if f.trace != "" && mode != warpsim.ModeTiming {
		return badInputf("--trace needs the timing model: the timeline is simulated time (drop --mode functional)")
	}
	var evs []profEvent
	if f.events != "" {
		if evs, err = parseEvents(f.events); err != nil {
			return badInput(err)
		}
	}
	var defs []*metrics.Def
	if f.metrics != "" {
		if defs, err = metrics.ParseList(f.metrics); err != nil {
			return badInput(err)
		}
	}
	// The program's runtime would refuse bad WARPSIM_* settings; say so
	// before starting it. WARPSIM_ARCH is --arch's.
	archEnv := f.custom.env(a)
	noteReplacedVars(stderr, "prof", archEnv, os.LookupEnv)
	if _, err := settings.FromEnv(lookupWith(archEnv, os.LookupEnv)); err != nil {
		return badInput(err)
	}
	dir, err := os.MkdirTemp("", "warpsim-prof-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "profile.json")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin = os.Stdin
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Env = append(append(os.Environ(), archEnv...), "WARPSIM_PROFILE="+path, "WARPSIM_MODE="+string(mode), cudart.EnvReportLock+"="+path)
	if f.noSampling {
		cmd.Env = append(cmd.Env, settings.VarSampling+"=0")
	}
	if f.trace != "" {
		cmd.Env = append(cmd.Env, "WARPSIM_PROFILE_BLOCKS=1")
	}
	if f.report != "" || f.export != "" {
		cmd.Env = append(cmd.Env, "WARPSIM_PROFILE_LINES=1")
	}
	if err := cmd.Start(); err != nil {
		return badInputf("%v", err)
	}
	pid := cmd.Process.Pid
	tag := fmt.Sprintf("==%d==", pid)
	command := strings.Join(args, " ")
	fmt.Fprintf(stderr, "%s warpsim prof is profiling process %d, command: %s\n", tag, pid, command)
	runErr := cmd.Wait()
	// A program killed by a signal leaves its simulator writing the profile.
	cudart.WaitReportLock(path, 2*time.Minute)
	fmt.Fprintf(stderr, "%s Profiling application: %s\n", tag, command)
	prof, err := readProfile(path)
	if err != nil {
		fmt.Fprintf(stderr, "%s Warning: no profile data (%v); was the program built by warpsim cc, and did it make a CUDA call?\n", tag, err)
	} else {
		if err := writeProfReport(stderr, tag, prof, a, defs, evs, f); err != nil {
			return err
		}
		if f.jsonOut != "" {
			if err := writeProfJSON(f.jsonOut, prof, a, defs); err != nil {
				return badInputf("--json-out: %v", err)
			}
		}
		if f.report != "" || f.export != "" {
			if err := writeReport(profProfile(prof, a, string(mode), args), f.export, f.report); err != nil {
				return err
			}
		}
		if f.trace != "" {
			if err := writeProfTrace(f.trace, prof); err != nil {
				fmt.Fprintf(stderr, "%s Warning: no trace written: %v\n", tag, err)
				if runErr == nil {
					return &exitError{code: exitFault}
				}
			}
		}
	}
	var ee *exec.ExitError
	if errors.As(runErr, &ee) {
		return &exitError{code: ee.ExitCode()}
	}
	return runErr
}

func readProfile(path string) (*cudart.Profile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var p cudart.Profile
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

type kernelTimes struct {
	name                   string
	hostCalls, deviceCalls int
	total, min, max        int64
}

func (k *kernelTimes) calls() int { return k.hostCalls + k.deviceCalls }

func writeProfReport(w io.Writer, tag string, p *cudart.Profile, a *arch.Arch, defs []*metrics.Def, evs []profEvent, f profFlags) error {
	defer writeCompilerNote(w, tag, p)
	defer writeSamplingNote(w, tag, p)
	defer writeFaultNotes(w, tag, p)
	if f.gpuTrace {
		fmt.Fprintf(w, "%s Profiling result:\n", tag)
		writeGPUTrace(w, p, f.csv)
	}
	if evs != nil {
		if err := writeEventTable(w, tag, p, evs, f.csv); err != nil {
			return err
		}
	}
	if defs != nil {
		var invs []metrics.Invocation
		for _, l := range p.Launches {
			ms := metrics.Compute(l.Counters, a, metrics.Launch{
				BlockThreads:  int(l.Block[0] * l.Block[1] * l.Block[2]),
				RegsPerThread: l.Regs, StaticShared: l.StaticSh, DynamicShared: int(l.Shared),
				Timing: l.Timing,
			})
			inv := metrics.Invocation{Kernel: recordName(&l), Metrics: metrics.Select(ms, defs)}
			for range l.Calls() { // a folded record of device launches stands for several
				invs = append(invs, inv)
			}
		}
		device := p.Device
		if f.csv {
			return metrics.WriteCSV(w, device, metrics.Summarize(invs))
		}
		return metrics.WriteTable(w, device, metrics.Summarize(invs))
	}
	if f.gpuTrace || evs != nil {
		return nil
	}
	fmt.Fprintf(w, "%s Profiling result:\n", tag)
	writeTimeSummary(w, p, f.csv)
	return nil
}

// writeTimeSummary is nvprof's summary mode: one line per kernel, the
// kernel with the most time first. When device code launched grids
// (dynamic parallelism), calls are split into host and device columns, as
// nvprof does then.
func writeTimeSummary(w io.Writer, p *cudart.Profile, csv bool) {
	var ks []*kernelTimes
	index := map[string]*kernelTimes{}
	var all int64
	cdp := false
	for _, l := range p.Launches {
		name := recordName(&l)
		k := index[name]
		if k == nil {
			k = &kernelTimes{name: name, min: math.MaxInt64}
			index[name] = k
			ks = append(ks, k)
		}
		if l.FromDevice {
			k.deviceCalls += l.Calls()
			cdp = true
		} else {
			k.hostCalls += l.Calls()
		}
		lo, hi := l.Range()
		k.total += l.NS
		k.min = min(k.min, lo)
		k.max = max(k.max, hi)
		all += l.NS
	}
	// Stable order: most time first, then first launched.
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j].total > ks[j-1].total; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	if csv {
		calls := `"Calls"`
		if cdp {
			calls = `"Calls (host)","Calls (device)"`
		}
		fmt.Fprintf(w, "\"Type\",\"Time(%%)\",\"Time\",%s,\"Avg\",\"Min\",\"Max\",\"Name\"\n", calls)
		units := ","
		if cdp {
			units = ",,"
		}
		fmt.Fprintf(w, ",%%,ns,%sns,ns,ns,\n", units)
		for _, k := range ks {
			calls := strconv.Itoa(k.calls())
			if cdp {
				calls = fmt.Sprintf("%d,%d", k.hostCalls, k.deviceCalls)
			}
			fmt.Fprintf(w, "\"GPU activities\",%.6f,%d,%s,%d,%d,%d,%q\n", pct(k.total, all), k.total, calls, k.total/int64(k.calls()), k.min, k.max, k.name)
		}
		return
	}
	calls := fmt.Sprintf("%8s", "Calls")
	if cdp {
		calls = fmt.Sprintf("%12s  %14s", "Calls (host)", "Calls (device)")
	}
	fmt.Fprintf(w, "%16s  %7s  %9s  %s  %9s  %9s  %9s  %s\n", "Type", "Time(%)", "Time", calls, "Avg", "Min", "Max", "Name")
	for i, k := range ks {
		typ := ""
		if i == 0 {
			typ = "GPU activities:"
		}
		calls := fmt.Sprintf("%8d", k.calls())
		if cdp {
			calls = fmt.Sprintf("%12d  %14d", k.hostCalls, k.deviceCalls)
		}
		fmt.Fprintf(w, "%16s  %6.2f%%  %9s  %s  %9s  %9s  %9s  %s\n", typ, pct(k.total, all), nvTime(k.total),
			calls, nvTime(k.total/int64(k.calls())), nvTime(k.min), nvTime(k.max), k.name)
	}
	if len(ks) == 0 {
		fmt.Fprintln(w, "No kernels were profiled.")
	}
}

func writeGPUTrace(w io.Writer, p *cudart.Profile, csv bool) {
	if csv {
		fmt.Fprintln(w, `"Start","Duration","Grid X","Grid Y","Grid Z","Block X","Block Y","Block Z","Registers Per Thread","Static SMem","Dynamic SMem","Device","Name"`)
		for _, l := range p.Launches {
			fmt.Fprintf(w, "%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%q,%q\n", l.StartNS, l.NS/int64(l.Calls()), l.Grid[0], l.Grid[1], l.Grid[2],
				l.Block[0], l.Block[1], l.Block[2], l.Regs, l.StaticSh, l.Shared, p.Device+" (0)", traceName(&l))
		}
		return
	}
	fmt.Fprintf(w, "%9s  %9s  %15s  %15s  %6s  %8s  %8s  %s\n", "Start", "Duration", "Grid Size", "Block Size", "Regs*", "SSMem*", "DSMem*", "Name")
	for _, l := range p.Launches {
		fmt.Fprintf(w, "%9s  %9s  %15s  %15s  %6d  %8s  %8s  %s\n", nvTime(l.StartNS), nvTime(l.NS/int64(l.Calls())),
			fmt.Sprintf("(%d %d %d)", l.Grid[0], l.Grid[1], l.Grid[2]), fmt.Sprintf("(%d %d %d)", l.Block[0], l.Block[1], l.Block[2]),
			l.Regs, nvBytes(l.StaticSh), nvBytes(int(l.Shared)), traceName(&l))
	}
	fmt.Fprintln(w, "\nRegs: Number of registers used per CUDA thread. SSMem: Static shared memory allocated per CUDA block. DSMem: Dynamic shared memory allocated per CUDA block.")
}

// traceName is a trace line's Name column: the kernel, and for grids
// launched from the device "[device]", or "[device ×N]" for N identical
// grids (same kernel, shape and counters under one host launch) folded
// into one line whose Duration is their average.
func traceName(l *cudart.Record) string {
	switch {
	case !l.FromDevice:
		return recordName(l)
	case l.Calls() > 1:
		return fmt.Sprintf("%s [device ×%d]", recordName(l), l.Calls())
	}
	return recordName(l) + " [device]"
}

// faultedMark follows the name of a kernel whose launch faulted, in every
// table: its metrics and time cover only what ran before the fault, so
// they are kept apart from the kernel's complete launches.
const faultedMark = " [faulted]"

// recordName is the name a launch is reported under.
func recordName(l *cudart.Record) string {
	if l.Fault != "" {
		return l.Kernel + faultedMark
	}
	return l.Kernel
}

// writeFaultNotes says which launches faulted, after the tables.
func writeFaultNotes(w io.Writer, tag string, p *cudart.Profile) {
	for _, l := range p.Launches {
		if l.Fault != "" {
			first, _, _ := strings.Cut(l.Fault, "\n")
			fmt.Fprintf(w, "%s Warning: %s%s: the launch faulted (%s); its metrics and time cover only what ran before the fault\n",
				tag, l.Kernel, faultedMark, first)
		}
	}
}

func pct(part, all int64) float64 {
	if all == 0 {
		return 0
	}
	return 100 * float64(part) / float64(all)
}

// nvTime prints a duration as nvprof does: five significant digits in the
// largest unit that keeps the value at least 1 (ns as an integer).
func nvTime(ns int64) string {
	v := float64(ns)
	for _, u := range []struct {
		scale float64
		name  string
	}{{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}} {
		if v >= u.scale {
			x := v / u.scale
			digits := 4
			switch {
			case x >= 100:
				digits = 2
			case x >= 10:
				digits = 3
			}
			return fmt.Sprintf("%.*f%s", digits, x, u.name)
		}
	}
	return fmt.Sprintf("%dns", ns)
}

func nvBytes(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%dB", n)
	}
	return fmt.Sprintf("%.4fKB", float64(n)/1024)
}
