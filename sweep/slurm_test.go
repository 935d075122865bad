package sweep

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warpsim/warpsim/internal/testenv"
)

// needSlurm skips a test where SLURM is not installed, except under CI
// (WARPSIM_REQUIRE_SLURM=1, set by .ci/run after it starts a single-node
// cluster), where a missing sbatch fails it.
func needSlurm(t *testing.T) {
	t.Helper()
	for _, c := range []string{"sbatch", "squeue", "scancel"} {
		if _, err := exec.LookPath(c); err != nil {
			testenv.Missing(t, "slurm", c+" not found: apt-get install slurm-wlm munge")
		}
	}
	slurmUpOnce.Do(func() {
		out, err := exec.Command("sinfo", "-h", "-o", "%T").CombinedOutput()
		if err != nil || !strings.ContainsAny(string(out), "ia") {
			slurmDown = fmt.Sprintf("no SLURM node is up (%v %s): deploy/slurm/start-single-node.sh starts one", err, out)
		}
	})
	if slurmDown != "" {
		testenv.Missing(t, "slurm", slurmDown)
	}
}

// sinfo is asked once per package run: without a controller it answers
// after its 9-second timeout.
var (
	slurmUpOnce sync.Once
	slurmDown   string
)

// TestSlurmMatchesLocal runs the small sweep as a job array through sbatch
// and checks that its database holds the same cells, metrics and errors
// as the local run's; collecting again changes nothing.
func TestSlurmMatchesLocal(t *testing.T) {
	needSlurm(t)
	ref := reference(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "slurm.db")
	start := time.Now()
	out := mustRun(t, sweepCmd("small.yaml", "--backend", "slurm", "--db", db, "--workdir", filepath.Join(dir, "work"), "--tasks", "4", "--throttle", "2",
		"--partition", "debug", "--time", "00:05:00", "--mem", "500M"))
	t.Logf("slurm sweep in %.1f s:\n%s", time.Since(start).Seconds(), out)
	if !strings.Contains(out, "submitted job array") || !strings.Contains(out, "collected 12 of 12 cells") {
		t.Errorf("output:\n%s", out)
	}
	sameRecords(t, "slurm against local", readDB(t, db), ref)
	// The flags reached sbatch: scontrol still knows the finished job.
	if job, err := ReadJob(WorkDir(filepath.Join(dir, "work"))); err == nil && len(job.JobIDs) == 1 {
		sc, _ := exec.Command("scontrol", "show", "job", job.JobIDs[0]).CombinedOutput()
		for _, want := range []string{"ArrayTaskThrottle=2", "Partition=debug", "TimeLimit=00:05:00", "MinMemoryNode=500M"} {
			if !strings.Contains(string(sc), want) {
				t.Errorf("scontrol show job %s lacks %s:\n%s", job.JobIDs[0], want, sc)
			}
		}
	} else {
		t.Errorf("job.json: %+v %v", job, err)
	}
	mustRun(t, sweepCmd("collect", filepath.Join(dir, "work"), "--db", db))
	sameRecords(t, "collected twice", readDB(t, db), ref)
}

// TestSlurmKilledTaskResubmitted: every task stalls after its first cell
// (a hung node) and is killed with scancel half-way; collect lists the
// unfinished tasks; --resume resubmits only them, they skip the cells
// they recorded, and the database ends up the same as the local run's,
// nothing lost or duplicated.
func TestSlurmKilledTaskResubmitted(t *testing.T) {
	needSlurm(t)
	ref := reference(t)
	dir := t.TempDir()
	db, work := filepath.Join(dir, "k.db"), filepath.Join(dir, "work")
	cmd := sweepCmd("small.yaml", "--backend", "slurm", "--db", db, "--workdir", work, "--tasks", "2", "--no-wait")
	cmd.Env = append(cmd.Env, stallEnv+"=1") // sbatch hands the environment to the tasks
	out := mustRun(t, cmd)
	job, err := ReadJob(WorkDir(work))
	if err != nil || len(job.JobIDs) != 1 {
		t.Fatalf("job: %+v %v\n%s", job, err, out)
	}
	id := job.JobIDs[0]
	deadline := time.Now().Add(120 * time.Second)
	for {
		st, err := States(WorkDir(work))
		if err == nil && st[0].Recorded >= 1 && st[1].Recorded >= 1 {
			break
		}
		if time.Now().After(deadline) {
			exec.Command("scancel", id).Run()
			t.Fatalf("tasks did not record their first cells: %+v %v", st, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if out, err := exec.Command("scancel", id).CombinedOutput(); err != nil {
		t.Fatalf("scancel: %v %s", err, out)
	}
	for time.Now().Before(deadline) {
		q, err := QueueStates(id)
		if err == nil && len(q) == 0 {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	st, _ := States(WorkDir(work))
	t.Logf("after scancel: %+v", st)
	for _, s := range st {
		if s.Recorded != 1 || s.Done {
			t.Errorf("task %d: %d cells recorded (done %v), want 1 (it stalled after its first)", s.Task, s.Recorded, s.Done)
		}
	}
	c := sweepCmd("collect", work, "--db", db)
	cout, err := c.CombinedOutput()
	if err == nil || !strings.Contains(string(cout), "tasks 0,1 did not finish") || !strings.Contains(string(cout), "task 0: 1 of 6 cells recorded") {
		t.Errorf("collect of an unfinished sweep: %v\n%s", err, cout)
	}
	if n := len(readDB(t, db)); n != 2 {
		t.Errorf("collected %d cells, want the 2 recorded", n)
	}
	out = mustRun(t, sweepCmd("small.yaml", "--backend", "slurm", "--db", db, "--workdir", work, "--resume"))
	if !strings.Contains(out, "(tasks 0,1)") || !strings.Contains(out, "collected 12 of 12 cells") {
		t.Errorf("resume:\n%s", out)
	}
	sameRecords(t, "killed, resubmitted", readDB(t, db), ref)
	// Each task log shows the resubmitted task skipped its recorded cell:
	// 1 cell before the kill, 5 after.
	for n := range 2 {
		log, _ := os.ReadFile(filepath.Join(work, "logs", "task-"+string(rune('0'+n))+".out"))
		if got := strings.Count(string(log), ": ok in ") + strings.Count(string(log), ": failed in "); got != 5 {
			t.Errorf("task %d log of the resubmission: %d cells run, want 5:\n%s", n, got, log)
		}
	}
}
