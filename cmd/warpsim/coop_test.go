package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// coopDir holds the cooperative-launch and __managed__ programs and what
// an H100 did with them (testdata/coop/record.sh records it).
const coopDir = "../../testdata/coop"

// coopRuns are the settings each program runs under: both drivers, one
// worker and several, so results do not depend on either.
var coopRuns = []struct{ name, mode, workers string }{
	{"functional/workers=1", "functional", "1"},
	{"functional/workers=4", "functional", "4"},
	{"timing/workers=1", "timing", "1"},
	{"timing/workers=4", "timing", "4"},
}

// plainCoopRun says whether the plain run runs a program under one of
// coopRuns: each driver once and each worker count once (the functional
// driver on one worker, the timing driver on four); the long twins
// (TestLongCoopPrograms, TestLongClusterPrograms) run the other two.
func plainCoopRun(mode, workers string) bool {
	return mode == "functional" && workers == "1" || mode == "timing" && workers == "4"
}

// TestCoopPrograms builds each program of testdata/coop with `warpsim cc`
// (and with -rdc=true) and compares what it prints, its stderr where the
// GPU wrote any, and its exit status with the H100's recording, under
// the settings of coopRuns that plainCoopRun picks (TestLongCoopPrograms:
// the others). grid_deadlock hangs a GPU and has its own test.
func TestCoopPrograms(t *testing.T) { checkCoopPrograms(t, plainCoopRun) }

// TestLongCoopPrograms is TestCoopPrograms under the settings of coopRuns
// it leaves out.
func TestLongCoopPrograms(t *testing.T) {
	testenv.Long(t)
	checkCoopPrograms(t, func(mode, workers string) bool { return !plainCoopRun(mode, workers) })
}

func checkCoopPrograms(t *testing.T, keep func(mode, workers string) bool) {
	needClang(t)
	srcs, _ := filepath.Glob(filepath.Join(coopDir, "*.cu"))
	if len(srcs) < 4 {
		t.Fatalf("%d programs in %s", len(srcs), coopDir)
	}
	for _, src := range srcs {
		name := strings.TrimSuffix(filepath.Base(src), ".cu")
		if name == "grid_deadlock" {
			continue
		}
		for _, flags := range [][]string{nil, {"-rdc=true"}} {
			tname := name
			if flags != nil {
				tname += "/rdc"
			}
			t.Run(tname, func(t *testing.T) {
				t.Parallel()
				rec, err := loadRecording(strings.TrimSuffix(src, ".cu"))
				if err != nil || rec == nil {
					t.Fatalf("recording of %s: %v", name, err)
				}
				prog := buildCU(t, src, flags...)
				for _, r := range coopRuns {
					if flags != nil && r.workers != "4" || !keep(r.mode, r.workers) {
						continue
					}
					got, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=" + r.mode, "WARPSIM_WORKERS=" + r.workers})
					code, err := exitCode(err)
					if err != nil {
						t.Fatalf("%s: %v\n%s", r.name, err, stderr)
					}
					if got != rec.stdout {
						t.Errorf("%s: stdout differs from the H100's:\ngot:\n%s\nwant:\n%s\nstderr:\n%s", r.name, got, rec.stdout, stderr)
					}
					if rec.stderr != "" && stderr != rec.stderr {
						t.Errorf("%s: stderr differs from the H100's:\ngot:\n%s\nwant:\n%s", r.name, stderr, rec.stderr)
					}
					if code != rec.exit {
						t.Errorf("%s: exit status %d, the H100's %d\nstderr:\n%s", r.name, code, rec.exit, stderr)
					}
				}
			})
		}
	}
}

// TestCoopDeadlock: a cooperative grid whose block 1 returns before
// grid.sync(). The H100 hung (the recording's exit status 124 is the
// timeout that stopped it, after it had printed the launch line); warpsim
// stops the kernel, reports the waiting warps as the watchdog does, and
// the synchronization returns cudaErrorLaunchTimeout, as for its watchdog.
func TestCoopDeadlock(t *testing.T) {
	needClang(t)
	rec, err := loadRecording(filepath.Join(coopDir, "grid_deadlock"))
	if err != nil || rec == nil {
		t.Fatalf("recording: %v", err)
	}
	if rec.exit != 124 || rec.stdout != "launch: cudaSuccess\n" {
		t.Fatalf("the H100's recording does not show a hang: exit %d, stdout %q", rec.exit, rec.stdout)
	}
	prog := buildCU(t, filepath.Join(coopDir, "grid_deadlock.cu"))
	for _, r := range coopRuns {
		got, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=" + r.mode, "WARPSIM_WORKERS=" + r.workers})
		if err != nil {
			t.Fatalf("%s: %v\n%s", r.name, err, stderr)
		}
		if want := rec.stdout + "synchronize: 702 cudaErrorLaunchTimeout\n"; got != want {
			t.Errorf("%s: stdout %q, want %q", r.name, got, want)
		}
		for _, want := range []string{
			"kernel fault: barrier deadlock in kernel _Z1kPi",
			"grid.sync() can never complete: 3 of 4 blocks arrived, the others have exited",
			"block (0,0,0) threads (0,0,0)-(31,0,0)",
			"block (3,0,0) threads (32,0,0)-(63,0,0)",
			"grid_deadlock.ptx:", "— waiting at grid.sync() (3 of 4 blocks arrived)",
		} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%s: report lacks %q:\n%s", r.name, want, stderr)
			}
		}
		if strings.Contains(stderr, "block (1,0,0)") {
			t.Errorf("%s: the report lists block 1, which exited:\n%s", r.name, stderr)
		}
	}
}

// TestCoopLaunchFile runs nvcc's PTX of grid_sync.cu through `warpsim run`
// with "cooperative": true launches: nvcc's grid.sync() spins on the grid
// workspace, and the phase sum must be the H100's.
func TestCoopLaunchFile(t *testing.T) {
	rec, err := os.ReadFile(filepath.Join(coopDir, "grid_sync.h100.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(rec, []byte("phase sum 960064 (host 960064)")) {
		t.Fatalf("grid_sync.h100.txt has not the phase sum this test expects:\n%s", rec)
	}
	for _, mode := range []string{"functional", "timing"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			var stdout, stderr bytes.Buffer
			if code := run([]string{"run", "--mode", mode, "--save-dir", dir, filepath.Join(coopDir, "nvcc_grid_sync.json")}, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr.String())
			}
			total, err := os.ReadFile(filepath.Join(dir, "total.bin"))
			if err != nil || len(total) != 8 {
				t.Fatalf("total.bin: %v (%d bytes)", err, len(total))
			}
			if got := int64(total[0]) | int64(total[1])<<8 | int64(total[2])<<16 | int64(total[3])<<24; got != 960064 {
				t.Errorf("phase sum %d, the H100's 960064", got)
			}
		})
	}
	// Without the flag, nvcc's grid.sync() finds no workspace and traps,
	// as on the H100 (sync_not_cooperative.h100.txt: cudaErrorLaunchFailure).
	src, err := os.ReadFile(filepath.Join(coopDir, "nvcc_grid_sync.json"))
	if err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(t.TempDir(), "plain.json")
	abs, _ := filepath.Abs(filepath.Join(coopDir, "grid_sync.nvcc.ptx"))
	txt := strings.ReplaceAll(strings.ReplaceAll(string(src), `"cooperative": true,`, ""), `"grid_sync.nvcc.ptx"`, `"`+abs+`"`)
	if err := os.WriteFile(plain, []byte(txt), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"run", plain}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "trap") {
		t.Errorf("ordinary launch of nvcc's grid.sync(): exit %d, want 1 with a trap\n%s", code, stderr.String())
	}
}

// TestGridSyncTime: the timing model's cost of one grid.sync() against
// the H100's (testdata/coop/timing/grid_sync_time.h100.txt, 132 blocks of
// 256 threads). The model's fixed barrier cost was taken from this same
// recording, so this checks that the end-to-end figure (the loop around the
// barrier included) stays within 20% of it.
func TestGridSyncTime(t *testing.T) {
	needClang(t)
	rec, err := os.ReadFile(filepath.Join(coopDir, "timing", "grid_sync_time.h100.txt"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`one grid\.sync\(\) ([0-9.]+) us`)
	m := re.FindSubmatch(rec)
	if m == nil {
		t.Fatalf("no time in the recording:\n%s", rec)
	}
	want, _ := strconv.ParseFloat(string(m[1]), 64)
	prog := buildCU(t, filepath.Join(coopDir, "timing", "grid_sync_time.cu"))
	got, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=timing", "N=100"})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	g := re.FindStringSubmatch(got)
	if g == nil {
		t.Fatalf("no time in the output:\n%s", got)
	}
	sim, _ := strconv.ParseFloat(g[1], 64)
	if sim < 0.8*want || sim > 1.2*want {
		t.Errorf("one grid.sync() takes %.3f us in the model, %.3f us on the H100", sim, want)
	}
}
