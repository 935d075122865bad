package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// clustersDir holds the thread-block-cluster programs and what an H100
// did with them (testdata/clusters/record.sh records it).
const clustersDir = "../../testdata/clusters"

// TestClusterPrograms builds each program of testdata/clusters with
// `warpsim cc` and compares its stdout, stderr and exit status with the
// H100's recording under both drivers, with one worker and four:
// cluster special registers for 2D and 3D cluster shapes, distributed
// shared memory (a histogram over the cluster's shared memory, a
// reduction, the PTX forms mapa, ld/st/atom/red.shared::cluster,
// barrier.cluster), the launch errors and occupancy answers of the
// driver, and a read of an exited block's shared memory. The plain run
// uses the settings plainCoopRun picks (the functional driver on one
// worker, the timing driver on four); TestLongClusterPrograms the others.
func TestClusterPrograms(t *testing.T) { checkClusterPrograms(t, plainCoopRun) }

// TestLongClusterPrograms is TestClusterPrograms under the settings of
// coopRuns it leaves out.
func TestLongClusterPrograms(t *testing.T) {
	testenv.Long(t)
	checkClusterPrograms(t, func(mode, workers string) bool { return !plainCoopRun(mode, workers) })
}

func checkClusterPrograms(t *testing.T, keep func(mode, workers string) bool) {
	needClang(t)
	srcs, _ := filepath.Glob(filepath.Join(clustersDir, "*.cu"))
	if len(srcs) < 4 {
		t.Fatalf("%d programs in %s", len(srcs), clustersDir)
	}
	for _, src := range srcs {
		name := strings.TrimSuffix(filepath.Base(src), ".cu")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rec, err := loadRecording(strings.TrimSuffix(src, ".cu"))
			if err != nil || rec == nil {
				t.Fatalf("recording of %s: %v", name, err)
			}
			prog := buildCU(t, src)
			for _, r := range coopRuns {
				if !keep(r.mode, r.workers) {
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

// TestClusterExitedReport: the read of an exited block's shared memory is
// reported, as a fault of the reading block naming the exited one.
func TestClusterExitedReport(t *testing.T) {
	needClang(t)
	prog := buildCU(t, filepath.Join(clustersDir, "cluster_exited.cu"))
	_, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"})
	if _, err := exitCode(err); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"block (0,0,0)", "shared memory of block (1,0,0) (cluster rank 1), which has exited", "cluster_exited.cu:19"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("report lacks %q:\n%s", want, stderr)
		}
	}
}

// TestClusterLaunchFile runs nvcc's histogram kernel of cluster_dsmem.cu
// from a launch file with "cluster": [4, 1, 1] on the program's input
// (its generator, in the file as a u32 list) under both drivers: the 256
// bins must be those the H100 printed for clusters of 4. A cluster shape
// the grid is not a multiple of is bad input (exit 2) naming it.
func TestClusterLaunchFile(t *testing.T) {
	rec, err := os.ReadFile(filepath.Join(clustersDir, "cluster_dsmem.h100.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var want []uint32
	for _, l := range strings.Split(string(rec), "\n") {
		if strings.HasPrefix(l, " ") {
			for _, f := range strings.Fields(l) {
				v, _ := strconv.Atoi(f)
				want = append(want, uint32(v))
			}
		}
	}
	if len(want) != 256 {
		t.Fatalf("%d bins in the recording, want 256", len(want))
	}
	ptx, err := os.ReadFile(filepath.Join(clustersDir, "cluster_dsmem.nvcc.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	const n = 50000
	in := make([]string, n)
	x := uint32(12345)
	for i := range in {
		x = x*1664525 + 1013904223
		in[i] = strconv.FormatUint(uint64((x>>8)^(x>>20)), 10)
	}
	launch := func(cluster string) string {
		return `{"module": "k.ptx", "arch": "h100",
  "buffers": {"in": {"u32": [` + strings.Join(in, ",") + `]}, "hist": {"bytes": 1024}},
  "launches": [{"kernel": "_Z9histogramPKjiPj", "grid": [16], "block": [128], "shared_bytes": 256,
    "cluster": ` + cluster + `, "args": [{"buffer": "in"}, {"s32": 50000}, {"buffer": "hist"}]}]}`
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "k.ptx"), ptx, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"functional", "timing"} {
		t.Run(mode, func(t *testing.T) {
			f := filepath.Join(dir, "launch.json")
			if err := os.WriteFile(f, []byte(launch("[4, 1, 1]")), 0o644); err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			var stdout, stderr bytes.Buffer
			if code := run([]string{"run", "--mode", mode, "--save-dir", out, f}, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr.String())
			}
			hist, err := os.ReadFile(filepath.Join(out, "hist.bin"))
			if err != nil || len(hist) != 1024 {
				t.Fatalf("hist.bin: %v (%d bytes)", err, len(hist))
			}
			for i, w := range want {
				if got := binary.LittleEndian.Uint32(hist[4*i:]); got != w {
					t.Errorf("bin %d: %d, the H100's %d", i, got, w)
				}
			}
		})
	}
	f := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(f, []byte(launch("[3]")), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"run", "--mode", "functional", f}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "not a whole number of (3,1,1) clusters") {
		t.Errorf("grid 16 in clusters of 3: exit %d, want 2 naming the cluster\n%s", code, stderr.String())
	}
}

// TestClusterSanitize: distributed shared memory and the cluster barrier
// under every tool of `warpsim sanitize`: a correct cluster program (the
// barrier.cluster that orders a warp's write before another's read counts
// as the block's barrier) reports nothing and prints what the H100 did.
func TestClusterSanitize(t *testing.T) {
	needClang(t)
	rec, err := loadRecording(filepath.Join(clustersDir, "cluster_dsmem"))
	if err != nil || rec == nil {
		t.Fatalf("recording: %v", err)
	}
	prog := buildCU(t, filepath.Join(clustersDir, "cluster_dsmem.cu"))
	programsCallThisBinary(t)
	for _, tool := range []string{"memcheck", "racecheck", "initcheck", "synccheck"} {
		var out, errb bytes.Buffer
		code := run([]string{"sanitize", "--tool", tool, prog}, &out, &errb)
		summary := "ERROR SUMMARY: 0 errors"
		if tool == "racecheck" {
			summary = "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"
		}
		if code != 0 || !strings.Contains(out.String(), summary) || !strings.Contains(out.String(), rec.stdout) {
			t.Errorf("%s: exit %d, want 0, %q and the H100's output:\n%s%s", tool, code, summary, out.String(), errb.String())
		}
	}
}
