package main

import (
	"path/filepath"
	"strings"
	"testing"
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
// driver, and a read of an exited block's shared memory.
func TestClusterPrograms(t *testing.T) {
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
