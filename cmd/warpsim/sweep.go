package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/warpsim/warpsim/sweep"
)

type sweepFlags struct {
	db, backend, workdir, emit string
	jobs, tasks                int
	resume, noWait             bool
	slurm                      sweep.SlurmOptions
	k8s                        sweep.K8sOptions
}

func newSweepCmd(stdout, stderr io.Writer) *cobra.Command {
	var f sweepFlags
	cmd := &cobra.Command{
		Use:   "sweep SPEC.yaml [--db FILE] [-j N] [--resume] [--backend local|slurm|k8s]",
		Short: "Run a design-space sweep (launch files × GPUs × overrides × variables) into a SQLite database",
		Long: `sweep runs every cell of a sweep file, each as one plain "warpsim run" of this
binary, and records each cell's results (every metric, simulated time, wall time,
exit status, error text) in a SQLite database: one row per cell × kernel launch in
the results table, one per cell in cells, the spec and warpsim's version in meta.
A cell is recorded whole in one transaction or not at all.

Backends:
  local  (default) a pool of -j cells at once; a progress bar with an ETA on a
         terminal; Ctrl-C stops cleanly; --resume skips recorded cells.
  slurm  a job array (sbatch) over --tasks tasks, each running its cells with
         this binary into a per-task database in the work directory (which must
         be on a file system the nodes share); waits showing squeue states, then
         collects. --resume resubmits only the tasks with cells missing.
  k8s    --emit FILE writes a Kubernetes Indexed Job manifest for the same work
         directory (not run by warpsim).

See docs/sweep.md for the sweep file, and "warpsim sweep report" for tables and plots.`,
		Example: `  warpsim sweep reduce.yaml --db reduce.db -j 2
  warpsim sweep reduce.yaml --backend slurm --tasks 8 --throttle 4 --partition debug --time 00:10:00
  warpsim sweep report reduce.db --where arch=h100 --plot time.svg`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSweep(stdout, stderr, args[0], &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.db, "db", "", "the SQLite database (default: SPEC's name with .db)")
	fl.IntVarP(&f.jobs, "jobs", "j", runtime.NumCPU(), "local: cells at once")
	fl.BoolVar(&f.resume, "resume", false, "skip cells the database (slurm: the work directory) already has; slurm: resubmit only unfinished tasks")
	fl.StringVar(&f.backend, "backend", "local", "local, slurm or k8s")
	fl.StringVar(&f.workdir, "workdir", "", "slurm, k8s: the work directory on a shared file system (default: the database's name with .work)")
	fl.IntVar(&f.tasks, "tasks", 0, "slurm, k8s: array tasks (default: one per 4 cells, at most 1000)")
	fl.StringVar(&f.slurm.Partition, "partition", "", "slurm: sbatch --partition")
	fl.StringVar(&f.slurm.Time, "time", "", "slurm: sbatch --time limit per task, e.g. 00:30:00")
	fl.StringVar(&f.slurm.Mem, "mem", "", "slurm: sbatch --mem per task, e.g. 2G")
	fl.IntVar(&f.slurm.Throttle, "throttle", 0, "slurm: at most N tasks at once (--array=…%N); k8s: parallelism")
	fl.BoolVar(&f.noWait, "no-wait", false, "slurm: submit and return; \"warpsim sweep collect\" later")
	fl.StringVar(&f.emit, "emit", "", "k8s: write the Indexed Job manifest to FILE (- for stdout)")
	fl.StringVar(&f.k8s.Image, "image", "warpsim:latest", "k8s: container image with warpsim")
	fl.StringVar(&f.k8s.Claim, "claim", "warpsim-sweep", "k8s: PersistentVolumeClaim holding the work directory")
	fl.StringVar(&f.k8s.MountPath, "mount", "", "k8s: where the claim is mounted (default: the work directory)")
	cmd.AddCommand(newSweepTaskCmd(stderr), newSweepCollectCmd(stdout), newSweepReportCmd(stdout), newSweepExportCmd(stdout), newSweepStatusCmd(stdout))
	return cmd
}

// sweepContext is cancelled by Ctrl-C or SIGTERM (scancel sends SIGTERM).
func sweepContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func runSweep(stdout, stderr io.Writer, specPath string, f *sweepFlags) error {
	spec, err := sweep.LoadSpec(specPath)
	if err != nil {
		return badInput(err)
	}
	cells, err := spec.Expand()
	if err != nil {
		return badInputf("%s: %v", specPath, err)
	}
	if f.db == "" {
		f.db = strings.TrimSuffix(specPath, filepath.Ext(specPath)) + ".db"
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	switch f.backend {
	case "local":
		return sweepLocal(stdout, stderr, spec, cells, exe, f)
	case "slurm", "k8s":
		return sweepDistributed(stdout, stderr, spec, cells, exe, f)
	}
	return badInputf("--backend %q: want local, slurm or k8s", f.backend)
}

func sweepLocal(stdout, stderr io.Writer, spec *sweep.Spec, cells []sweep.Cell, exe string, f *sweepFlags) error {
	if f.jobs < 1 {
		return badInputf("-j must be at least 1")
	}
	showProgress, err := progressWanted()
	if err != nil {
		return badInput(err)
	}
	if !f.resume {
		if _, err := os.Stat(f.db); err == nil {
			db, err := sweep.Open(f.db)
			if err != nil {
				return badInput(err)
			}
			done, _ := db.Finished()
			db.Close()
			if len(done) > 0 {
				return badInputf("%s already holds %d cells: --resume to continue it, or remove it", f.db, len(done))
			}
		}
	}
	db, err := sweep.Open(f.db)
	if err != nil {
		return badInput(err)
	}
	defer db.Close()
	if err := sweep.Describe(db, spec); err != nil {
		return err
	}
	ctx, stop := sweepContext()
	defer stop()
	var progress io.Writer
	if fh, ok := stderr.(*os.File); ok && showProgress && isTerminal(fh) {
		progress = stderr
	}
	threads := max(1, runtime.NumCPU()/f.jobs)
	r := &sweep.Runner{Exe: exe, Metrics: spec.Metrics, Threads: threads}
	sum, err := sweep.RunLocal(ctx, cells, db, r, sweep.LocalOptions{Jobs: f.jobs, Resume: f.resume, Progress: progress})
	fmt.Fprintf(stderr, "warpsim sweep: %s; results in %s\n", sum, f.db)
	if errors.Is(err, sweep.ErrInterrupted) {
		return &exitError{code: exitInterrupted}
	}
	if err != nil {
		return kernelFault(err)
	}
	return nil
}

func sweepDistributed(stdout, stderr io.Writer, spec *sweep.Spec, cells []sweep.Cell, exe string, f *sweepFlags) error {
	if f.workdir == "" {
		f.workdir = strings.TrimSuffix(f.db, filepath.Ext(f.db)) + ".work"
	}
	w := sweep.WorkDir(f.workdir)
	tasks := f.tasks
	if f.resume {
		if old, err := sweep.ReadJob(w); err == nil && tasks == 0 {
			tasks = old.Tasks
		}
	}
	if tasks <= 0 {
		tasks = min(max(1, (len(cells)+3)/4), 1000)
	}
	tasks = min(tasks, len(cells))
	absDB, _ := filepath.Abs(f.db)
	job := sweep.Job{Exe: exe, Tasks: tasks, Metrics: spec.Metrics, DB: absDB}
	if f.resume {
		// The cells must be the same: a changed spec is a new sweep.
		if old, err := sweep.ReadCells(w); err == nil && !sameCells(old, cells) {
			return badInputf("%s holds a different sweep's cells: run without --resume to start over", f.workdir)
		}
		if old, err := sweep.ReadJob(w); err == nil && old.Tasks != tasks {
			return badInputf("%s was split into %d tasks: --resume keeps them (leave out --tasks)", f.workdir, old.Tasks)
		}
	}
	if err := sweep.Prepare(w, cells, job, !f.resume); err != nil {
		return err
	}
	db, err := sweep.Open(f.db)
	if err != nil {
		return badInput(err)
	}
	defer db.Close()
	if err := sweep.Describe(db, spec); err != nil {
		return err
	}
	if f.backend == "k8s" {
		if f.emit == "" {
			return badInputf("--backend k8s needs --emit FILE: warpsim writes the Indexed Job manifest, kubectl runs it")
		}
		opt := f.k8s
		opt.Parallel = f.slurm.Throttle
		if opt.MountPath == "" {
			opt.MountPath, _ = filepath.Abs(f.workdir)
		}
		m := sweep.K8sManifest(w, &job, opt)
		if f.emit == "-" {
			_, err := io.WriteString(stdout, m)
			return err
		}
		if err := os.WriteFile(f.emit, []byte(m), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "warpsim sweep: %d cells in %d tasks; wrote %s (kubectl apply -f %s), then warpsim sweep collect %s --db %s\n",
			len(cells), tasks, f.emit, f.emit, f.workdir, f.db)
		return nil
	}
	todo := make([]int, tasks)
	for i := range todo {
		todo[i] = i
	}
	if f.resume {
		states, err := sweep.States(w)
		if err != nil {
			return err
		}
		todo = sweep.Unfinished(states)
		if len(todo) == 0 {
			fmt.Fprintf(stderr, "warpsim sweep: every task of %s has finished\n", f.workdir)
		}
	}
	if len(todo) > 0 {
		id, err := sweep.Submit(w, todo, f.slurm)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "warpsim sweep: %d cells in %d tasks; submitted job array %s (tasks %s)\n", len(cells), tasks, id, intList(todo))
		if f.noWait {
			fmt.Fprintf(stderr, "warpsim sweep: when it is done: warpsim sweep collect %s --db %s\n", f.workdir, f.db)
			return nil
		}
		ctx, stop := sweepContext()
		defer stop()
		if err := sweep.Wait(ctx, w, id, 2*time.Second, stderr); err != nil {
			if ctx.Err() != nil {
				fmt.Fprintf(stderr, "warpsim sweep: stopped waiting; job %s goes on (scancel %s to stop it); warpsim sweep collect %s --db %s collects\n", id, id, f.workdir, f.db)
				return &exitError{code: exitInterrupted}
			}
			return err
		}
	}
	return collectAndReport(stderr, w, db, f.db)
}

func collectAndReport(stderr io.Writer, w sweep.WorkDir, db *sweep.DB, dbPath string) error {
	n, err := sweep.Collect(w, db)
	if err != nil {
		return err
	}
	states, err := sweep.States(w)
	if err != nil {
		return err
	}
	total, failedCells := 0, 0
	for _, s := range states {
		total += s.Cells
		failedCells += s.Failed
	}
	fmt.Fprintf(stderr, "warpsim sweep: collected %d of %d cells into %s (%d failed)\n", n, total, dbPath, failedCells)
	if bad := sweep.Unfinished(states); len(bad) > 0 {
		for _, t := range bad {
			s := states[t]
			fmt.Fprintf(stderr, "  task %d: %d of %d cells recorded (log: %s)\n", t, s.Recorded, s.Cells, filepath.Join(string(w), "logs", fmt.Sprintf("task-%d.out", t)))
		}
		return &exitError{code: exitFault, err: fmt.Errorf("tasks %s did not finish: resubmit them alone with --resume", intList(bad))}
	}
	return nil
}

func sameCells(a, b []sweep.Cell) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID {
			return false
		}
	}
	return true
}

func intList(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

func newSweepTaskCmd(stderr io.Writer) *cobra.Command {
	var workdir string
	task := -1
	cmd := &cobra.Command{
		Use:    "task --workdir DIR [--task N]",
		Short:  "Run one task of a distributed sweep (what each SLURM array task or Kubernetes pod runs)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if task < 0 {
				for _, v := range []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"} {
					if s := os.Getenv(v); s != "" {
						n, err := strconv.Atoi(s)
						if err != nil {
							return badInputf("%s=%q: not a task number", v, s)
						}
						task = n
						break
					}
				}
			}
			if task < 0 {
				return badInputf("--task: which task (or $SLURM_ARRAY_TASK_ID, $JOB_COMPLETION_INDEX)")
			}
			ctx, stop := sweepContext()
			defer stop()
			err := sweep.RunTask(ctx, sweep.WorkDir(workdir), task, stderr)
			if ctx.Err() != nil {
				return &exitError{code: exitInterrupted, err: err}
			}
			return err
		},
	}
	cmd.Flags().StringVar(&workdir, "workdir", "", "the sweep's work directory")
	cmd.Flags().IntVar(&task, "task", -1, "the task number")
	return cmd
}

func newSweepCollectCmd(stderr io.Writer) *cobra.Command {
	var dbPath string
	cmd := &cobra.Command{
		Use:   "collect WORKDIR [--db FILE]",
		Short: "Merge a distributed sweep's per-task results into its database (idempotent)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			w := sweep.WorkDir(args[0])
			if dbPath == "" {
				job, err := sweep.ReadJob(w)
				if err != nil {
					return badInput(err)
				}
				dbPath = job.DB
			}
			db, err := sweep.Open(dbPath)
			if err != nil {
				return badInput(err)
			}
			defer db.Close()
			return collectAndReport(stderr, w, db, dbPath)
		},
	}
	cmd.Flags().StringVar(&dbPath, "db", "", "the database (default: the one the sweep named)")
	return cmd
}

func newSweepStatusCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "status WORKDIR",
		Short: "Show a distributed sweep's tasks: cells recorded, failed, finished; and squeue's states",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			w := sweep.WorkDir(args[0])
			states, err := sweep.States(w)
			if err != nil {
				return badInput(err)
			}
			if job, err := sweep.ReadJob(w); err == nil && len(job.JobIDs) > 0 {
				id := job.JobIDs[len(job.JobIDs)-1]
				if q, err := sweep.QueueStates(id); err == nil {
					fmt.Fprintf(stdout, "job %s in squeue: %v\n", id, q)
				}
				if acct, ok := sweep.AccountingStates(id); ok {
					fmt.Fprintf(stdout, "sacct: %v\n", acct)
				}
			}
			fmt.Fprintln(stdout, "TASK  CELLS  RECORDED  FAILED  FINISHED")
			for _, s := range states {
				fmt.Fprintf(stdout, "%4d  %5d  %8d  %6d  %v\n", s.Task, s.Cells, s.Recorded, s.Failed, s.Done)
			}
			return nil
		},
	}
}

func newSweepExportCmd(stdout io.Writer) *cobra.Command {
	var csvPath, parquetPath string
	cmd := &cobra.Command{
		Use:   "export DB [--csv FILE] [--parquet FILE]",
		Short: "Export a sweep database as CSV or Parquet: one row per cell × kernel launch with every metric",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, err := openExisting(args[0])
			if err != nil {
				return err
			}
			defer db.Close()
			if parquetPath != "" {
				fh, err := os.Create(parquetPath)
				if err != nil {
					return badInput(err)
				}
				if err := db.ExportParquet(fh); err != nil {
					fh.Close()
					return err
				}
				if err := fh.Close(); err != nil || csvPath == "" {
					return err
				}
			}
			w := stdout
			if csvPath != "" && csvPath != "-" {
				fh, err := os.Create(csvPath)
				if err != nil {
					return badInput(err)
				}
				defer fh.Close()
				w = fh
			}
			return db.ExportCSV(w)
		},
	}
	cmd.Flags().StringVar(&csvPath, "csv", "", "write CSV to FILE (default: stdout, unless --parquet)")
	cmd.Flags().StringVar(&parquetPath, "parquet", "", "write Parquet to FILE")
	return cmd
}

func openExisting(path string) (*sweep.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, badInput(err)
	}
	db, err := sweep.Open(path)
	if err != nil {
		return nil, badInput(err)
	}
	return db, nil
}

func newSweepReportCmd(stdout io.Writer) *cobra.Command {
	var metric, col, rows, plotPath, x, series, title string
	var logY bool
	var where []string
	cmd := &cobra.Command{
		Use:   "report DB [--metric NAME] [--rows DIMS] [--col DIM] [--where DIM=VALUE] [--plot FILE.svg|png] [--x DIM] [--series DIMS]",
		Short: "Print a sweep's pivot table and draw a metric against an axis, one line per kernel",
		Long: `report prints one metric of a sweep database as a pivot table: a row per
combination of --rows, a column per value of --col (default arch). Dimensions:
run, kernel, arch, clock, mode, scheduler and each template variable. A value is
the metric summed over a cell's launches of the kernel (simulated time: duration_ns).
With --plot it draws the metric against --x (default: the first variable), one
line per kernel and per value of the other varying dimensions (--series).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, err := openExisting(args[0])
			if err != nil {
				return err
			}
			defer db.Close()
			results, err := db.Results()
			if err != nil {
				return err
			}
			filters := map[string]string{}
			for _, wv := range where {
				k, v, ok := strings.Cut(wv, "=")
				if !ok {
					return badInputf("--where %q: want DIM=VALUE", wv)
				}
				filters[k] = v
			}
			points := sweep.Points(results, metric, filters)
			if len(points) == 0 {
				return badInputf("no cell of %s has %s%s", args[0], metric, whereText(filters))
			}
			varying := sweep.Varying(points)
			var rowDims []string
			if rows != "" {
				rowDims = strings.Split(rows, ",")
			} else {
				for _, d := range append([]string{"run", "kernel"}, varying...) {
					if d != col && !contains(rowDims, d) && (d != "run" || contains(varying, "run")) {
						rowDims = append(rowDims, d)
					}
				}
			}
			if err := sweep.Pivot(stdout, points, rowDims, col, metric); err != nil {
				return err
			}
			if plotPath == "" {
				return nil
			}
			if x == "" {
				for _, d := range varying {
					if d != "kernel" && d != "run" && !contains(sweep.BaseDims, d) {
						x = d
						break
					}
				}
				if x == "" {
					x = col
				}
			}
			var seriesDims []string
			if series != "" {
				seriesDims = strings.Split(series, ",")
			} else {
				for _, d := range append([]string{"kernel"}, varying...) {
					if d != x && !contains(seriesDims, d) && !sweep.Determined(points, x, d) {
						seriesDims = append(seriesDims, d)
					}
				}
			}
			if title == "" {
				title = metric + whereText(filters)
			}
			if err := sweep.Plot(plotPath, points, x, seriesDims, metric, title, logY); err != nil {
				return badInputf("--plot: %v", err)
			}
			fmt.Fprintf(stdout, "plot: %s\n", plotPath)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&metric, "metric", "duration_ns", "the metric (a column of results: warpsim run --json's names)")
	fl.StringVar(&col, "col", "arch", "the dimension whose values are the columns")
	fl.StringVar(&rows, "rows", "", "the dimensions of the rows, comma-separated (default: run, kernel and the other varying ones)")
	fl.StringArrayVar(&where, "where", nil, "keep only points with DIM=VALUE (repeatable)")
	fl.StringVar(&plotPath, "plot", "", "draw the metric against --x to FILE.svg or FILE.png")
	fl.StringVar(&x, "x", "", "the plot's x axis (default: the first varying variable, else --col)")
	fl.StringVar(&series, "series", "", "the dimensions that make the plot's lines (default: kernel and the other varying ones)")
	fl.StringVar(&title, "title", "", "the plot's title")
	fl.BoolVar(&logY, "log-y", false, "draw the metric on a logarithmic axis")
	return cmd
}

func whereText(m map[string]string) string {
	if len(m) == 0 {
		return ""
	}
	var parts []string
	for k, v := range m {
		parts = append(parts, k+"="+v)
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}
