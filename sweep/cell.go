package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/warpsim/warpsim/arch"
)

// Runner runs cells as plain `warpsim run` commands of one binary.
type Runner struct {
	Exe     string   // the warpsim binary (os.Executable() of the sweep's own)
	Metrics []string // metrics to record; empty: all
	// Threads, when > 0, is each cell's GOMAXPROCS: a pool of N cells on
	// N cores runs each on one (results never depend on it).
	Threads int
}

// maxErrorText bounds the error text kept per cell (the end of stderr).
const maxErrorText = 4096

// Args is the warpsim command line of a cell (after the binary), with the
// launch file and --json-out path given.
//
// A launch file runs under warpsim run; a program under warpsim prof,
// which has no --clock or --scheduler: they reach its runtime as the
// overrides --set clock=…MHz and --set scheduler=….
func (r *Runner) Args(c *Cell, launch, jsonOut string) []string {
	cmd := "run"
	if c.Program != "" {
		cmd = "prof"
	}
	args := []string{cmd, "--mode", c.Mode, "--json-out", jsonOut}
	if c.ArchFile != "" {
		args = append(args, "--arch-file", c.ArchFile)
	} else {
		args = append(args, "--arch", c.Arch)
	}
	for _, s := range arch.SplitSets(c.Set) {
		args = append(args, "--set", s)
	}
	clock := strconv.FormatFloat(c.Clock, 'f', -1, 64)
	switch {
	case c.Clock > 0 && c.Program != "":
		args = append(args, "--set", "clock="+clock+"MHz")
	case c.Clock > 0 && c.Mode == "timing":
		args = append(args, "--clock", clock)
	}
	switch {
	case c.Scheduler != "" && c.Program != "":
		args = append(args, "--set", "scheduler="+c.Scheduler)
	case c.Scheduler != "" && c.Mode == "timing":
		args = append(args, "--scheduler", c.Scheduler)
	}
	if len(r.Metrics) > 0 {
		args = append(args, "--metrics", strings.Join(r.Metrics, ","))
	}
	if c.Program != "" {
		return append(append(args, c.Program), c.args()...)
	}
	return append(args, launch)
}

// ErrInterrupted is a cell stopped by the sweep's cancellation: it is not
// recorded, and --resume runs it again.
var ErrInterrupted = errors.New("interrupted")

// Run runs one cell. Its result is an error only when ctx was cancelled
// (ErrInterrupted) or the cell could not be started; a cell that fails is
// a Result with status "failed", its exit status and error text.
func (r *Runner) Run(ctx context.Context, c Cell) (*Result, error) {
	launch, cleanup, err := c.render()
	if err != nil {
		return nil, fmt.Errorf("cell %d: %v", c.Index, err)
	}
	defer cleanup()
	dir, err := os.MkdirTemp("", "warpsim-cell-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "out.json")
	cmd := exec.CommandContext(ctx, r.Exe, r.Args(&c, launch, out)...)
	if c.Program != "" {
		cmd.Dir = filepath.Dir(c.Program)
	}
	cmd.Stdout = io.Discard
	var stderr tailBuffer
	cmd.Stderr = &stderr
	cmd.Env = append(os.Environ(), "WARPSIM_PROGRESS=0")
	if r.Threads > 0 {
		cmd.Env = append(cmd.Env, "GOMAXPROCS="+strconv.Itoa(r.Threads))
	}
	// The cell runs in its own process group: a terminal's Ctrl-C reaches
	// the sweep, which stops its cells (SIGINT) and records none of them.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGINT) }
	cmd.WaitDelay = 5 * time.Second
	host, _ := os.Hostname()
	start := time.Now()
	runErr := cmd.Run()
	res := &Result{Cell: c, Wall: time.Since(start), Host: host, Status: "ok"}
	if ps := cmd.ProcessState; ps != nil {
		res.CPU = ps.UserTime() + ps.SystemTime()
	}
	if ctx.Err() != nil {
		return nil, ErrInterrupted
	}
	if runErr != nil {
		var ee *exec.ExitError
		if !errors.As(runErr, &ee) {
			return nil, fmt.Errorf("cell %d: %v", c.Index, runErr)
		}
		res.Status, res.ExitCode = "failed", ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() || res.ExitCode == 130 {
			// Killed (a signal, or warpsim's interrupted status 130) is
			// not a result of the cell: it is not recorded, and runs
			// again on --resume.
			return nil, fmt.Errorf("cell %d: %w (%v)", c.Index, ErrInterrupted, runErr)
		}
		// Errors name the launch file as the spec does, not its
		// rendered copy.
		res.Error = stderr.String()
		if launch != "" && launch != c.Launch {
			res.Error = strings.ReplaceAll(res.Error, launch, c.Launch)
		}
		res.Error = strings.TrimSpace(res.Error)
		if res.Error == "" {
			res.Error = runErr.Error()
		}
		return res, nil
	}
	b, err := os.ReadFile(out)
	if err != nil {
		res.Status, res.ExitCode, res.Error = "failed", -1, "no results: "+err.Error()
		return res, nil
	}
	var doc struct {
		Launches []Launch `json:"launches"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		res.Status, res.ExitCode, res.Error = "failed", -1, "results not readable: "+err.Error()
		return res, nil
	}
	for i := range doc.Launches {
		for k, v := range doc.Launches[i].Metrics {
			if f, ok := number(v); ok {
				doc.Launches[i].Metrics[k] = f
			}
		}
	}
	res.Launches = doc.Launches
	return res, nil
}

// tailBuffer keeps the last maxErrorText bytes written to it.
type tailBuffer struct{ b []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 2*maxErrorText {
		t.b = append(t.b[:0], t.b[len(t.b)-maxErrorText:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	if len(t.b) > maxErrorText {
		return "…" + string(t.b[len(t.b)-maxErrorText:])
	}
	return string(t.b)
}
