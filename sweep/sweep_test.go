package sweep

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/warpsim/warpsim/internal/testenv"
)

// warpsim is the binary the tests run sweeps with, built once by TestMain;
// tmpDir outlives single tests.
var warpsim, tmpDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "warpsim-sweep-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	tmpDir = dir
	warpsim = filepath.Join(dir, "warpsim")
	// `go run` keeps the executables it links in Go's build cache (`go
	// build -o` links afresh each time: about 2 CPU seconds); -exec cp
	// copies the one it made or found there instead of running it.
	out, err := exec.Command("go", "run", "-exec", "cp", "github.com/warpsim/warpsim/cmd/warpsim", warpsim).CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building warpsim: %v\n%s", err, out)
		os.Exit(1)
	}
	// Programs from the program cache (testenv.CachedBuild) start this
	// run's warpsim, not the one that built them.
	os.Setenv("WARPSIM_BIN", warpsim)
	code := m.Run()
	testenv.CleanPrograms()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sweepCmd runs `warpsim sweep ARGS…` in testdata.
func sweepCmd(args ...string) *exec.Cmd {
	cmd := exec.Command(warpsim, append([]string{"sweep"}, args...)...)
	cmd.Dir = "testdata"
	cmd.Env = append(os.Environ(), "WARPSIM_PROGRESS=0")
	return cmd
}

func mustRun(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	return string(out)
}

// cellRecord is what a database holds of a cell, less the wall time and
// host: what must be identical however the sweep ran.
type cellRecord struct {
	Status   string
	ExitCode int
	Error    string
	Launches []Launch
}

func readDB(t *testing.T, path string) map[string]cellRecord {
	t.Helper()
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rs, err := db.Results()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]cellRecord{}
	for _, r := range rs {
		if _, dup := out[r.Cell.ID]; dup {
			t.Fatalf("%s: cell %s recorded twice", path, r.Cell.ID)
		}
		out[r.Cell.ID] = cellRecord{r.Status, r.ExitCode, r.Error, r.Launches}
	}
	// No result row without its cell, and no duplicate (cell, launch).
	var orphans, rows, distinct int
	db.SQL().QueryRow(`SELECT count(*) FROM results WHERE cell_id NOT IN (SELECT cell_id FROM cells)`).Scan(&orphans)
	db.SQL().QueryRow(`SELECT count(*), count(DISTINCT cell_id || '/' || launch) FROM results`).Scan(&rows, &distinct)
	if orphans != 0 || rows != distinct {
		t.Fatalf("%s: %d result rows without a cell, %d rows for %d (cell, launch) pairs", path, orphans, rows, distinct)
	}
	return out
}

func sameRecords(t *testing.T, what string, got, want map[string]cellRecord) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d cells, want %d", what, len(got), len(want))
	}
	for id, w := range want {
		g, ok := got[id]
		if !ok {
			t.Errorf("%s: cell %s missing", what, id)
			continue
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: cell %s differs:\n got %+v\nwant %+v", what, id, g, w)
		}
	}
}

// reference runs the small sweep locally once per test binary.
var referenceDB string

func reference(t *testing.T) map[string]cellRecord {
	t.Helper()
	if referenceDB == "" {
		path := filepath.Join(tmpDir, "ref.db")
		mustRun(t, sweepCmd("small.yaml", "--db", path, "-j", "2"))
		referenceDB = path
	}
	return readDB(t, referenceDB)
}

// TestLocalSweep: the small sweep's 12 cells are recorded with their 3
// launches each, failures with their exit status and error text, the spec
// and version in meta; one worker or two give the same database.
func TestLocalSweep(t *testing.T) {
	ref := reference(t)
	if len(ref) != 12 {
		t.Fatalf("%d cells, want 12", len(ref))
	}
	failed := 0
	for id, r := range ref {
		switch r.Status {
		case "ok":
			if len(r.Launches) != 3 {
				t.Errorf("cell %s: %d launches, want 3", id, len(r.Launches))
			}
			for _, l := range r.Launches {
				if d, ok := number(l.Metrics["duration_ns"]); !ok || d <= 0 {
					t.Errorf("cell %s %s: duration_ns %v", id, l.Kernel, l.Metrics["duration_ns"])
				}
			}
		default:
			failed++
			if r.ExitCode != 2 || !strings.Contains(r.Error, "allows at most 256") || len(r.Launches) != 0 {
				t.Errorf("cell %s: failed with %d %q, %d launches; want the launch error (exit 2)", id, r.ExitCode, r.Error, len(r.Launches))
			}
		}
	}
	if failed != 2 {
		t.Errorf("%d cells failed, want 2 (block 512 under limits.threads_per_sm=256)", failed)
	}
	db, err := Open(referenceDB)
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := os.ReadFile("testdata/small.yaml")
	if db.Meta("spec") != string(spec) || db.Meta("warpsim_version") == "" || db.Meta("name") != "small" {
		t.Errorf("meta: spec %d bytes, version %q, name %q", len(db.Meta("spec")), db.Meta("warpsim_version"), db.Meta("name"))
	}
	// A metric column holds the same value as the JSON.
	var col float64
	if err := db.SQL().QueryRow(`SELECT "duration_ns" FROM results r JOIN cells c USING (cell_id)
		WHERE c.label = 'h100' AND r.kernel = 'reduceInterleaved' AND c.vars LIKE '%"block":"128"%'`).Scan(&col); err != nil || col <= 0 {
		t.Errorf("duration_ns column: %v %v", col, err)
	}
	db.Close()

	one := filepath.Join(t.TempDir(), "one.db")
	mustRun(t, sweepCmd("small.yaml", "--db", one, "-j", "1"))
	sameRecords(t, "-j 1 against -j 2", readDB(t, one), ref)

	// The arch file and the override reach the timing model: a slower
	// DRAM makes every kernel slower.
	var base, slow float64
	db2, _ := Open(referenceDB)
	defer db2.Close()
	db2.SQL().QueryRow(`SELECT sum(duration_ns) FROM results JOIN cells USING (cell_id) WHERE label = 'h100'`).Scan(&base)
	db2.SQL().QueryRow(`SELECT sum(duration_ns) FROM results JOIN cells USING (cell_id) WHERE label = 'h100[latency.dram_ns=600]'`).Scan(&slow)
	if !(slow > base && base > 0) {
		t.Errorf("latency.dram_ns=600: %v ns in all, h100 %v ns", slow, base)
	}

	// Without --resume an existing database is not overwritten.
	out, err := sweepCmd("small.yaml", "--db", one).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--resume") {
		t.Errorf("second run without --resume: %v %s", err, out)
	}
	// --resume on a complete database runs nothing.
	out2 := mustRun(t, sweepCmd("small.yaml", "--db", one, "--resume"))
	if !strings.Contains(out2, "0 run (0 failed), 12 already recorded") {
		t.Errorf("--resume of a finished sweep: %s", out2)
	}
}

// TestLocalInterruptResume: Ctrl-C part-way leaves only whole cells in the
// database; --resume runs the rest, and the database is the same as an
// uninterrupted sweep's.
func TestLocalInterruptResume(t *testing.T) {
	ref := reference(t)
	path := filepath.Join(t.TempDir(), "int.db")
	cmd := sweepCmd("small.yaml", "--db", path, "-j", "1")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if n := countCells(path); n >= 2 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	part := readDB(t, path)
	t.Logf("interrupted with %d of 12 cells recorded: %v\n%s", len(part), err, out.String())
	if len(part) < 12 {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
			t.Errorf("interrupted sweep: %v, want exit status 130", err)
		}
	}
	for id, r := range part {
		if !reflect.DeepEqual(r, ref[id]) {
			t.Errorf("cell %s recorded before the interrupt differs from the reference", id)
		}
	}
	mustRun(t, sweepCmd("small.yaml", "--db", path, "--resume", "-j", "2"))
	sameRecords(t, "interrupted and resumed", readDB(t, path), ref)
}

func countCells(path string) int {
	if _, err := os.Stat(path); err != nil {
		return 0
	}
	db, err := Open(path)
	if err != nil {
		return 0
	}
	defer db.Close()
	m, _ := db.Finished()
	return len(m)
}

func TestSpecErrors(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"no runs", "axes: {arch: [h100]}\n", "runs: give at least one run"},
		{"unknown key", "runs: [{launch: reduce.json}]\naxis: {}\n", `unknown field "axis"`},
		{"missing launch file", "runs: [{launch: nope.json}]\n", "runs[0] (nope): stat "},
		{"bad arch", "runs: [{launch: reduce.json}]\naxes: {arch: [h900], vars: {n: [1], bytes: [4], block: [1], grid: [1]}}\n", `arch: unknown arch "h900"`},
		{"bad set", "runs: [{launch: reduce.json}]\naxes: {set: [l2.sise=1MiB], vars: {n: [1], bytes: [4], block: [1], grid: [1]}}\n", "l2.sise: unknown key (did you mean l2.size?)"},
		{"variable nobody gives", "runs: [{launch: reduce.json}]\naxes: {vars: {n: [1], bytes: [4], block: [1]}}\n", "uses ${grid}, which no axis gives"},
		{"bad mode", "runs: [{launch: reduce.json}]\naxes: {mode: [fast], vars: {n: [1], bytes: [4], block: [1], grid: [1]}}\n", `mode: "fast": want timing or functional`},
		{"duplicate cells", "runs: [{launch: reduce.json}]\naxes: {arch: [h100, h100], vars: {n: [1], bytes: [4], block: [1], grid: [1]}}\n", "are the same simulation"},
		{"cell of no run", "runs: [{launch: reduce.json}]\ncells: [{run: other}]\n", `cells[0]: run: "other" is not one of the runs`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseSpec("testdata/x.yaml", []byte(tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}

// TestExplicitCells: a list of cells instead of the cross product.
func TestExplicitCells(t *testing.T) {
	s, err := ParseSpec("testdata/x.yaml", []byte(`
runs: [{name: r, launch: reduce.json}]
cells:
  - {arch: h100, n: 16384, bytes: 65536, block: 128, grid: 128}
  - {arch: h100-2xl2.yaml, set: "latency.fma=8;sms=66", clock: 1500, n: 16384, bytes: 65536, block: 256, grid: 64}
`))
	if err != nil {
		t.Fatal(err)
	}
	cells, err := s.Expand()
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 2 || cells[1].Label() != "h100-2xl2[latency.fma=8;sms=66]" || cells[1].Clock != 1500 || cells[1].Vars["block"] != "256" {
		t.Errorf("cells: %+v", cells)
	}
	r := &Runner{Exe: "warpsim"}
	args := strings.Join(r.Args(&cells[1], "l.json", "o.json"), " ")
	if !strings.Contains(args, "--arch-file ") || !strings.Contains(args, "--set latency.fma=8 --set sms=66 --clock 1500") {
		t.Errorf("args: %s", args)
	}
}

// TestMergeIdempotent: merging a database into another twice leaves the
// same cells, once each.
func TestMergeIdempotent(t *testing.T) {
	ref := reference(t)
	path := filepath.Join(t.TempDir(), "m.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if n, err := db.Merge(referenceDB); err != nil || n != 12 {
			t.Fatalf("merge: %d %v", n, err)
		}
	}
	db.Close()
	sameRecords(t, "merged twice", readDB(t, path), ref)
}

// TestK8sEmit: --backend k8s --emit writes the work directory and an
// Indexed Job whose pods run the tasks of it.
func TestK8sEmit(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "job.yaml")
	mustRun(t, sweepCmd("small.yaml", "--backend", "k8s", "--emit", manifest, "--db", filepath.Join(dir, "k.db"),
		"--workdir", filepath.Join(dir, "work"), "--tasks", "3", "--throttle", "2", "--image", "registry/warpsim:1"))
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"completionMode: Indexed", "completions: 3", "parallelism: 2", "image: registry/warpsim:1",
		`"sweep", "task", "--workdir", "` + filepath.Join(dir, "work") + `"`, "claimName: warpsim-sweep"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("manifest lacks %q:\n%s", want, b)
		}
	}
	cells, err := ReadCells(WorkDir(filepath.Join(dir, "work")))
	if err != nil || len(cells) != 12 {
		t.Errorf("work directory: %d cells, %v", len(cells), err)
	}
	// What a pod runs: task 2 of 3, as JOB_COMPLETION_INDEX gives it.
	cmd := sweepCmd("task", "--workdir", filepath.Join(dir, "work"))
	cmd.Env = append(cmd.Env, "JOB_COMPLETION_INDEX=2")
	mustRun(t, cmd)
	st, err := States(WorkDir(filepath.Join(dir, "work")))
	if err != nil || !st[2].Done || st[2].Recorded != 4 || st[0].Recorded != 0 {
		t.Errorf("after task 2: %+v %v", st, err)
	}
}

// TestExportParquet: the Parquet export holds the CSV export's rows, with
// metrics as doubles.
func TestExportParquet(t *testing.T) {
	reference(t)
	db, err := Open(referenceDB)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var pq, cs bytes.Buffer
	if err := db.ExportParquet(&pq); err != nil {
		t.Fatal(err)
	}
	if err := db.ExportCSV(&cs); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&cs).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := -1
	for i, h := range recs[0] {
		if h == "duration_ns" {
			col = i
		}
	}
	r := parquet.NewReader(bytes.NewReader(pq.Bytes()))
	n := 0
	for ; ; n++ {
		m := map[string]any{}
		if err := r.Read(&m); err != nil {
			break
		}
		want := recs[n+1][col]
		got := m["duration_ns"]
		if want == "" && got != nil || want != "" && fmt.Sprint(got) != want {
			t.Errorf("row %d: duration_ns %v in Parquet, %q in CSV", n, got, want)
		}
	}
	if n != len(recs)-1 || n != 32 {
		t.Errorf("%d Parquet rows, %d CSV rows; want 32 (10 cells × 3 launches + 2 failed cells)", n, len(recs)-1)
	}
}

// TestLocalCellKilled: a cell whose warpsim is killed (SIGKILL, as the
// OOM killer does) half-way is not recorded; the sweep finishes the other
// cells, exits 1 saying so, and --resume runs the killed cell again.
func TestLocalCellKilled(t *testing.T) {
	ref := reference(t)
	path := filepath.Join(t.TempDir(), "killed.db")
	cmd := sweepCmd("small.yaml", "--db", path, "-j", "1")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	deadline := time.Now().Add(30 * time.Second)
	for !killed && time.Now().Before(deadline) {
		if countCells(path) >= 1 {
			// The cell now running: the sweep's child.
			if b, err := exec.Command("pgrep", "-P", strconv.Itoa(cmd.Process.Pid)).Output(); err == nil {
				if pid, err := strconv.Atoi(strings.Fields(string(b))[0]); err == nil {
					killed = syscall.Kill(pid, syscall.SIGKILL) == nil
				}
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	err := cmd.Wait()
	if !killed {
		t.Fatalf("found no cell to kill: %v\n%s", err, out.String())
	}
	part := readDB(t, path)
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 || !strings.Contains(out.String(), "1 cells were killed before they finished") || len(part) != 11 {
		t.Errorf("sweep with a killed cell: %v, %d cells recorded, want exit 1 and 11\n%s", err, len(part), out.String())
	}
	for id, r := range part {
		if !reflect.DeepEqual(r, ref[id]) {
			t.Errorf("cell %s differs from the reference", id)
		}
	}
	res := mustRun(t, sweepCmd("small.yaml", "--db", path, "--resume"))
	if !strings.Contains(res, "1 run (0 failed), 11 already recorded") {
		t.Errorf("resume: %s", res)
	}
	sameRecords(t, "killed cell, resumed", readDB(t, path), ref)
}

// TestRunLocalInProcess runs the pool in the test's own process (so that
// go test -race sees its concurrency) with 3 workers, and checks it
// records what the command line does.
func TestRunLocalInProcess(t *testing.T) {
	ref := reference(t)
	spec, err := LoadSpec("testdata/small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cells, err := spec.Expand()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "pool.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := RunLocal(t.Context(), cells, db, &Runner{Exe: warpsim, Threads: 1}, LocalOptions{Jobs: 3})
	db.Close()
	if err != nil || sum.Ran != 12 || sum.Failed != 2 {
		t.Fatalf("%v: %v", sum, err)
	}
	sameRecords(t, "in-process pool of 3", readDB(t, path), ref)
}
