package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/cudart"
	"github.com/warpsim/warpsim/internal/devhook"
	"github.com/warpsim/warpsim/internal/sanitize"
)

// sanitizeFlags are compute-sanitizer's flags.
type sanitizeFlags struct {
	custom                            customArch
	tool, leakCheck, raceReport, arch string
	printLimit, errorExitcode         int
	checkLocal, globalRaces           bool
	trackUnused                       bool
}

const sanitizeHelp = `Runs a program built by warpsim cc the way compute-sanitizer runs one on a
GPU, and reports in compute-sanitizer's format (lines prefixed "========= "):

  memcheck   out-of-bounds and misaligned global, shared, local and generic
             accesses (exact allocation bounds), accesses to freed memory,
             cudaFree of a bad pointer, failed CUDA calls; with
             --leak-check full, allocations never freed
  racecheck  shared-memory hazards between barriers (RAW, WAR, WAW); between
             warps errors, within a warp warnings; atomics excluded
  initcheck  reads of global memory nothing wrote; with
             --track-unused-memory, freed allocations' bytes never written
  synccheck  barriers reached by part of a warp, bad barrier arguments,
             __syncwarp/shfl/vote/match/redux masks leaving out calling lanes

The first memcheck or synccheck error stops the kernel and the program sees
cudaErrorLaunchFailure at its next synchronizing call. Blocks run in order,
so reports are the same every run. Beyond compute-sanitizer:
--check-local holds each pointer access to the executing function's frame
to its .local arrays, and --check-global-races makes racecheck look at global memory
too. Exit status: the program's, or --error-exitcode when errors were found.`

func newSanitizeCmd(stdout, stderr io.Writer) *cobra.Command {
	var f sanitizeFlags
	cmd := &cobra.Command{
		Use:   "sanitize [--tool memcheck|racecheck|initcheck|synccheck] [flags] ./prog [args…]",
		Short: "Run a program under compute-sanitizer's checks (memcheck, racecheck, initcheck, synccheck), no GPU needed",
		Long:  sanitizeHelp,
		Args:  cobra.MinimumNArgs(1),
		RunE:  func(cmd *cobra.Command, args []string) error { return runSanitize(f, args, stdout, stderr) },
	}
	cmd.Flags().SetInterspersed(false)
	fl := cmd.Flags()
	fl.StringVar(&f.tool, "tool", "memcheck", "memcheck, racecheck, initcheck or synccheck")
	fl.StringVar(&f.leakCheck, "leak-check", "no", "full: report device allocations never freed (memcheck)")
	fl.StringVar(&f.raceReport, "racecheck-report", "analysis", "analysis, hazard or all")
	fl.IntVar(&f.printLimit, "print-limit", 100, "errors to print at most (0: no limit)")
	fl.IntVar(&f.errorExitcode, "error-exitcode", 0, "exit status when errors were found (0: the program's)")
	fl.BoolVar(&f.checkLocal, "check-local", false, "hold pointer accesses to the executing function's frame to its .local arrays")
	fl.BoolVar(&f.globalRaces, "check-global-races", false, "racecheck: look for races on global memory too")
	fl.BoolVar(&f.trackUnused, "track-unused-memory", false, "initcheck: report the bytes of each freed allocation that nothing wrote")
	fl.StringVar(&f.arch, "arch", "h100", "simulated GPU (see warpsim archs)")
	addCustomArchFlags(fl, &f.custom)
	return cmd
}

// sanitizeEnv checks the flags and turns them into the runtime's settings.
func sanitizeEnv(f sanitizeFlags) ([]string, error) {
	if _, err := sanitize.ParseTool(f.tool); err != nil {
		return nil, err
	}
	switch f.leakCheck {
	case "no", "full":
	default:
		return nil, fmt.Errorf("--leak-check %q: use full or no", f.leakCheck)
	}
	switch f.raceReport {
	case sanitize.ReportAnalysis, sanitize.ReportHazard, sanitize.ReportAll:
	default:
		return nil, fmt.Errorf("--racecheck-report %q: use analysis, hazard or all", f.raceReport)
	}
	if f.printLimit < 0 {
		return nil, fmt.Errorf("--print-limit %d: must not be negative", f.printLimit)
	}
	env := []string{
		cudart.EnvSanitize + "=" + f.tool,
		cudart.EnvSanitizeLeaks + "=" + f.leakCheck,
		cudart.EnvSanitizeRace + "=" + f.raceReport,
		cudart.EnvSanitizeLimit + "=" + strconv.Itoa(f.printLimit),
		"WARPSIM_MODE=functional",
	}
	if f.checkLocal {
		env = append(env, cudart.EnvSanitizeLocal+"=1")
	}
	if f.globalRaces {
		env = append(env, cudart.EnvSanitizeRaces+"=1")
	}
	if f.trackUnused {
		env = append(env, cudart.EnvSanitizeUnused+"=1")
	}
	return env, nil
}

func runSanitize(f sanitizeFlags, args []string, stdout, stderr io.Writer) error {
	a, err := f.custom.resolve(f.arch)
	if err != nil {
		return badInput(err)
	}
	env, err := sanitizeEnv(f)
	if err != nil {
		return badInput(err)
	}
	dir, err := os.MkdirTemp("", "warpsim-sanitize-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "report.json")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin = os.Stdin
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Env = append(os.Environ(), env...)
	archEnv := f.custom.env(a)
	noteReplacedVars(stderr, "sanitize", archEnv, os.LookupEnv)
	cmd.Env = append(append(cmd.Env, archEnv...), cudart.EnvSanitizeOut+"="+path, cudart.EnvReportLock+"="+path)
	fmt.Fprintln(stdout, sanitize.Prefix+"COMPUTE-SANITIZER")
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stdout, "%sError: Target application %s could not be started: %v\n", sanitize.Prefix, args[0], err)
		return badInputf("%v", err)
	}
	runErr := cmd.Wait()
	// A program killed by a signal leaves its simulator writing the report.
	cudart.WaitReportLock(path, 2*time.Minute)
	res, err := readSanitizeResult(path)
	if err != nil {
		// The program made no CUDA call (the simulator never started):
		// nothing to report.
		res = &cudart.SanitizeResult{Text: sanitize.New(sanitize.Options{Tool: mustTool(f.tool), LeakCheck: f.leakCheck == "full"}).Summary()}
	}
	io.WriteString(stdout, res.Text)
	var ee *exec.ExitError
	switch {
	case res.Errors > 0 && f.errorExitcode != 0:
		// An exit status is a byte: 256 exits 0 and 300 exits 44, as
		// compute-sanitizer's do (testdata/hostile/h100.txt,
		// sanitize_limits).
		return &exitError{code: f.errorExitcode & 0xff}
	case errors.As(runErr, &ee):
		return &exitError{code: ee.ExitCode()}
	}
	return runErr
}

func mustTool(s string) sanitize.Tool {
	t, _ := sanitize.ParseTool(s)
	return t
}

func readSanitizeResult(path string) (*cudart.SanitizeResult, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r cudart.SanitizeResult
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// startRunSanitizer puts a launch file's device under the tool `warpsim run
// --sanitize` names; nil when none. Buffers of a launch file are written
// by definition (zero-filled or initialized), so initcheck finds only
// reads of memory a kernel allocated.
func startRunSanitizer(tool string, a *arch.Arch, dev *warpsim.Device, stdout io.Writer) (*sanitize.Sanitizer, error) {
	if tool == "" {
		return nil, nil
	}
	t, err := sanitize.ParseTool(tool)
	if err != nil {
		return nil, fmt.Errorf("--sanitize: %v", err)
	}
	san := sanitize.New(sanitize.Options{Tool: t, SharedBase: uint64(a.ReservedSharedPerBlock)})
	devhook.SetChecker(dev, san)
	fmt.Fprintln(stdout, sanitize.Prefix+"COMPUTE-SANITIZER")
	return san, nil
}

// finishRunSanitizer prints the report and its summary. A kernel the
// sanitizer stopped, or any error it found, is a kernel fault (exit 1);
// other errors are what they would be without it.
func finishRunSanitizer(san *sanitize.Sanitizer, stdout io.Writer, err error) error {
	san.EndLaunch()
	stdout.Write(san.Take())
	io.WriteString(stdout, san.Summary())
	var fault *warpsim.Fault
	switch {
	case err != nil && errors.As(err, &fault) && san.Stops() > 0:
		return &exitError{code: exitFault}
	case err != nil && errors.As(err, &fault):
		return kernelFault(err)
	case err != nil:
		return badInput(err)
	case san.Errors() > 0:
		return &exitError{code: exitFault}
	}
	return nil
}
