package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// A distributed sweep lives in a work directory on a file system every
// node sees (the cluster's shared home or scratch):
//
//	job.json         the binary, the number of tasks, the metrics, the database
//	cells.json       the expanded cells (absolute paths), in order
//	submit.sh        the batch script (SLURM)
//	tasks/task-N.db  task N's results: a database of the same schema
//	tasks/task-N.done written when task N has run all its cells
//	logs/task-N.out  task N's output
//
// Task N runs the cells whose index is N modulo the number of tasks, one
// after another, recording each in its own database in one transaction:
// a task killed half-way leaves whole cells only, and run again it skips
// them. Collect merges the task databases into the sweep's database,
// idempotently.

// Job is job.json.
type Job struct {
	Exe     string   `json:"exe"`
	Tasks   int      `json:"tasks"`
	Metrics []string `json:"metrics"`
	DB      string   `json:"db"`
	JobIDs  []string `json:"job_ids,omitempty"` // SLURM jobs submitted, oldest first
}

// WorkDir is a distributed sweep's directory.
type WorkDir string

func (w WorkDir) path(p ...string) string { return filepath.Join(append([]string{string(w)}, p...)...) }

// TaskDB is task n's database.
func (w WorkDir) TaskDB(n int) string { return w.path("tasks", fmt.Sprintf("task-%d.db", n)) }

// Prepare writes the work directory for cells split over tasks. An
// existing directory of the same cells keeps its task databases (so
// --resume continues it); with fresh, they are removed first.
func Prepare(w WorkDir, cells []Cell, job Job, fresh bool) error {
	if job.Tasks < 1 {
		return errors.New("tasks: at least 1")
	}
	if fresh {
		os.RemoveAll(w.path("tasks"))
		os.RemoveAll(w.path("logs"))
	}
	for _, d := range []string{"tasks", "logs"} {
		if err := os.MkdirAll(w.path(d), 0o755); err != nil {
			return err
		}
	}
	if old, err := ReadJob(w); err == nil && !fresh {
		job.JobIDs = old.JobIDs
	}
	if err := writeJSON(w.path("job.json"), job); err != nil {
		return err
	}
	return writeJSON(w.path("cells.json"), cells)
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// ReadJob reads job.json.
func ReadJob(w WorkDir) (*Job, error) {
	b, err := os.ReadFile(w.path("job.json"))
	if err != nil {
		return nil, err
	}
	var j Job
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, fmt.Errorf("%s: %v", w.path("job.json"), err)
	}
	return &j, nil
}

// ReadCells reads cells.json.
func ReadCells(w WorkDir) ([]Cell, error) {
	b, err := os.ReadFile(w.path("cells.json"))
	if err != nil {
		return nil, err
	}
	var cells []Cell
	if err := json.Unmarshal(b, &cells); err != nil {
		return nil, fmt.Errorf("%s: %v", w.path("cells.json"), err)
	}
	return cells, nil
}

// TaskCells are the cells task n runs.
func TaskCells(cells []Cell, tasks, n int) []Cell {
	var out []Cell
	for _, c := range cells {
		if c.Index%tasks == n {
			out = append(out, c)
		}
	}
	return out
}

// stallEnv, for tests only, makes a task stop making progress after
// recording that many cells, as a task on a node that hangs: the test
// then kills it (scancel) half-way through its cells.
const stallEnv = "WARPSIM_SWEEP_TEST_STALL_AFTER"

// RunTask runs task n of a work directory's sweep: its cells not yet in
// its database, one at a time, then marks it done.
func RunTask(ctx context.Context, w WorkDir, n int, log io.Writer) error {
	job, err := ReadJob(w)
	if err != nil {
		return err
	}
	if n < 0 || n >= job.Tasks {
		return fmt.Errorf("task %d: the sweep has tasks 0 to %d", n, job.Tasks-1)
	}
	cells, err := ReadCells(w)
	if err != nil {
		return err
	}
	db, err := Open(w.TaskDB(n))
	if err != nil {
		return err
	}
	defer db.Close()
	done, err := db.Finished()
	if err != nil {
		return err
	}
	stall, _ := strconv.Atoi(os.Getenv(stallEnv))
	// A cell gets the CPUs the scheduler gave the task (SLURM does not
	// confine a task to them without cgroups).
	r := &Runner{Exe: job.Exe, Metrics: job.Metrics}
	for _, v := range []string{"SLURM_CPUS_PER_TASK", "SLURM_JOB_CPUS_PER_NODE"} {
		if n, err := strconv.Atoi(os.Getenv(v)); err == nil && n > 0 {
			r.Threads = n
			break
		}
	}
	recorded := 0
	for _, c := range TaskCells(cells, job.Tasks, n) {
		if _, ok := done[c.ID]; ok {
			continue
		}
		res, err := r.Run(ctx, c)
		if err != nil {
			return err
		}
		if err := db.Record(res); err != nil {
			return err
		}
		fmt.Fprintf(log, "cell %d (%s %s %v): %s in %.2f s\n", c.Index, c.Run, c.Label(), c.Vars, res.Status, res.Wall.Seconds())
		recorded++
		if stall > 0 && recorded >= stall {
			fmt.Fprintf(log, "%s=%d: stalling\n", stallEnv, stall)
			<-ctx.Done()
			return ctx.Err()
		}
	}
	return os.WriteFile(w.path("tasks", fmt.Sprintf("task-%d.done", n)), []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o644)
}

// TaskState is what a task has recorded.
type TaskState struct {
	Task            int
	Cells, Recorded int
	Failed          int // cells recorded with status failed
	Done            bool
}

// States reads every task's progress from its database.
func States(w WorkDir) ([]TaskState, error) {
	job, err := ReadJob(w)
	if err != nil {
		return nil, err
	}
	cells, err := ReadCells(w)
	if err != nil {
		return nil, err
	}
	out := make([]TaskState, job.Tasks)
	for n := range out {
		s := &out[n]
		s.Task = n
		mine := TaskCells(cells, job.Tasks, n)
		s.Cells = len(mine)
		if _, err := os.Stat(w.TaskDB(n)); err == nil {
			db, err := Open(w.TaskDB(n))
			if err != nil {
				return nil, err
			}
			fin, err := db.Finished()
			db.Close()
			if err != nil {
				return nil, err
			}
			for _, c := range mine {
				if st, ok := fin[c.ID]; ok {
					s.Recorded++
					if st != "ok" {
						s.Failed++
					}
				}
			}
		}
		_, err := os.Stat(w.path("tasks", fmt.Sprintf("task-%d.done", n)))
		s.Done = err == nil && s.Recorded == s.Cells
	}
	return out, nil
}

// Unfinished lists the tasks that have cells not yet recorded.
func Unfinished(states []TaskState) []int {
	var out []int
	for _, s := range states {
		if s.Recorded < s.Cells {
			out = append(out, s.Task)
		}
	}
	return out
}

// Collect merges every task database of the work directory into db and
// returns how many cells it holds from them. Running it again changes
// nothing.
func Collect(w WorkDir, db *DB) (int, error) {
	paths, err := filepath.Glob(w.path("tasks", "task-*.db"))
	if err != nil {
		return 0, err
	}
	sort.Strings(paths)
	total := 0
	for _, p := range paths {
		n, err := db.Merge(p)
		if err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}

// SlurmOptions are the job array's sbatch settings.
type SlurmOptions struct {
	Partition string
	Time      string // --time, e.g. 00:30:00
	Mem       string // --mem, e.g. 2G
	Throttle  int    // at most this many tasks at once (%N); 0: no limit
	Extra     []string
}

// Script is the batch script every array task runs.
func Script(w WorkDir, job *Job) string {
	abs, _ := filepath.Abs(string(w))
	return fmt.Sprintf(`#!/bin/sh
# warpsim sweep: one task of the job array runs its share of the cells and
# records them in %s/tasks/task-$SLURM_ARRAY_TASK_ID.db
exec %s sweep task --workdir %s --task "$SLURM_ARRAY_TASK_ID"
`, shellQuote(abs), shellQuote(job.Exe), shellQuote(abs))
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+=:,@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Submit submits the tasks as a job array with sbatch and returns the job
// ID.
func Submit(w WorkDir, tasks []int, opt SlurmOptions) (string, error) {
	job, err := ReadJob(w)
	if err != nil {
		return "", err
	}
	if len(tasks) == 0 {
		return "", errors.New("no tasks to submit")
	}
	script := w.path("submit.sh")
	if err := os.WriteFile(script, []byte(Script(w, job)), 0o755); err != nil {
		return "", err
	}
	parts := make([]string, len(tasks))
	for i, t := range tasks {
		parts[i] = strconv.Itoa(t)
	}
	array := strings.Join(parts, ",")
	if opt.Throttle > 0 {
		array += "%" + strconv.Itoa(opt.Throttle)
	}
	abs, _ := filepath.Abs(string(w))
	args := []string{"--parsable", "--array=" + array, "--job-name=warpsim-sweep",
		"--output=" + filepath.Join(abs, "logs", "task-%a.out"), "--chdir=" + abs}
	if opt.Partition != "" {
		args = append(args, "--partition="+opt.Partition)
	}
	if opt.Time != "" {
		args = append(args, "--time="+opt.Time)
	}
	if opt.Mem != "" {
		args = append(args, "--mem="+opt.Mem)
	}
	args = append(append(args, opt.Extra...), script)
	out, err := exec.Command("sbatch", args...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("sbatch %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	id := strings.TrimSpace(string(out))
	id, _, _ = strings.Cut(id, ";") // "12345;cluster"
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("sbatch printed %q, not a job ID", out)
	}
	job.JobIDs = append(job.JobIDs, id)
	return id, writeJSON(w.path("job.json"), job)
}

// QueueStates counts the job's array tasks by squeue state (PENDING,
// RUNNING, …); an empty map once the job has left the queue.
func QueueStates(jobID string) (map[string]int, error) {
	out, err := exec.Command("squeue", "-h", "-r", "-j", jobID, "-o", "%T").CombinedOutput()
	if err != nil {
		// squeue fails for a job it no longer knows.
		if strings.Contains(string(out), "Invalid job id") {
			return map[string]int{}, nil
		}
		return nil, fmt.Errorf("squeue: %v: %s", err, strings.TrimSpace(string(out)))
	}
	m := map[string]int{}
	for _, l := range strings.Fields(string(out)) {
		m[l]++
	}
	return m, nil
}

// AccountingStates asks sacct for the states of the job's tasks, where
// the cluster keeps accounting; ok is false where it does not.
func AccountingStates(jobID string) (map[string]string, bool) {
	out, err := exec.Command("sacct", "-n", "-P", "-X", "-j", jobID, "-o", "JobID,State").Output()
	if err != nil {
		return nil, false
	}
	m := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if id, st, ok := strings.Cut(l, "|"); ok {
			m[id] = st
		}
	}
	return m, len(m) > 0
}

// Wait polls squeue until the job has left the queue, printing its tasks'
// states whenever they change, with each task's recorded cells.
func Wait(ctx context.Context, w WorkDir, jobID string, every time.Duration, log io.Writer) error {
	last := ""
	for {
		q, err := QueueStates(jobID)
		if err != nil {
			return err
		}
		line := "job " + jobID + ": " + formatStates(q)
		if st, err := States(w); err == nil {
			rec, tot := 0, 0
			for _, s := range st {
				rec += s.Recorded
				tot += s.Cells
			}
			line += fmt.Sprintf("; %d of %d cells recorded", rec, tot)
		}
		if line != last {
			fmt.Fprintln(log, line)
			last = line
		}
		if len(q) == 0 {
			if acct, ok := AccountingStates(jobID); ok {
				fmt.Fprintln(log, "sacct:", formatAcct(acct))
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(every):
		}
	}
}

func formatStates(m map[string]int) string {
	if len(m) == 0 {
		return "finished (no longer in squeue)"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", m[k], k)
	}
	return strings.Join(parts, ", ")
}

func formatAcct(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " " + m[k]
	}
	return strings.Join(parts, ", ")
}
