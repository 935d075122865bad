package sweep

import (
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite", pure Go
)

// The database (SQLite) has three tables:
//
//	meta(key, value): the sweep's spec text, its name, warpsim's version
//	cells(cell_id, idx, run, arch, arch_file, sets, clock, mode, scheduler,
//	      vars, label, status, exit_code, error, wall_s, host, finished_at,
//	      cpu_s):
//	      one row per cell that finished (status ok or failed)
//	results(cell_id, launch, kernel, grid, block, device, count,
//	      sim_time_ns, metrics, "<metric>"…): one row per cell × kernel
//	      launch (and device-launched grid), every metric in its own column
//	      (named as warpsim run --json names it) and all of them as JSON in
//	      metrics
//
// A cell's rows are written in one transaction: a cell is recorded whole or
// not at all.

// Launch is one kernel launch's results in a cell.
type Launch struct {
	Kernel  string         `json:"kernel"`
	Grid    [3]uint32      `json:"grid"`
	Block   [3]uint32      `json:"block"`
	Device  bool           `json:"device,omitempty"`
	Count   int            `json:"count,omitempty"`
	Metrics map[string]any `json:"metrics"`
}

// Result is one finished cell.
type Result struct {
	Cell     Cell
	Status   string // "ok" or "failed"
	ExitCode int
	Error    string
	Wall     time.Duration
	CPU      time.Duration // the cell's user and system CPU time
	Host     string
	Finished time.Time // when the cell finished (zero: now, as Record writes it)
	Launches []Launch
}

// DB is a sweep database.
type DB struct {
	db   *sql.DB
	cols map[string]bool // metric columns results has
}

const schema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS cells (
  cell_id TEXT PRIMARY KEY, idx INTEGER, run TEXT, arch TEXT, arch_file TEXT, sets TEXT, clock REAL,
  mode TEXT, scheduler TEXT, vars TEXT, label TEXT, status TEXT, exit_code INTEGER, error TEXT,
  wall_s REAL, host TEXT, finished_at TEXT, cpu_s REAL);
CREATE TABLE IF NOT EXISTS results (
  cell_id TEXT, launch INTEGER, kernel TEXT, grid TEXT, block TEXT, device INTEGER, count INTEGER,
  sim_time_ns REAL, metrics TEXT, PRIMARY KEY (cell_id, launch));
`

// Open opens (creating it when missing) a sweep database.
func Open(path string) (*DB, error) {
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(20000)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	// A database from before cells had cpu_s gets the column.
	var hasCPU int
	db.QueryRow(`SELECT count(*) FROM pragma_table_info('cells') WHERE name = 'cpu_s'`).Scan(&hasCPU)
	if hasCPU == 0 {
		if _, err := db.Exec(`ALTER TABLE cells ADD COLUMN cpu_s REAL`); err != nil {
			db.Close()
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	}
	d := &DB{db: db, cols: map[string]bool{}}
	rows, err := db.Query(`SELECT name FROM pragma_table_info('results')`)
	if err != nil {
		db.Close()
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			db.Close()
			return nil, err
		}
		d.cols[n] = true
	}
	return d, rows.Err()
}

// Close closes the database.
func (d *DB) Close() error { return d.db.Close() }

// SQL is the underlying database, for queries.
func (d *DB) SQL() *sql.DB { return d.db }

// SetMeta records one key of the sweep's description.
func (d *DB) SetMeta(key, value string) error {
	_, err := d.db.Exec(`INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)`, key, value)
	return err
}

// Meta reads one key of the sweep's description ("" when absent).
func (d *DB) Meta(key string) string {
	var v string
	d.db.QueryRow(`SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	return v
}

// Finished returns the IDs of the recorded cells and their status.
func (d *DB) Finished() (map[string]string, error) {
	rows, err := d.db.Query(`SELECT cell_id, status FROM cells`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, st string
		if err := rows.Scan(&id, &st); err != nil {
			return nil, err
		}
		out[id] = st
	}
	return out, rows.Err()
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// Record writes a cell's row and its launches' rows in one transaction,
// replacing any earlier record of the cell.
func (d *DB) Record(r *Result) error {
	tx, err := d.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var names []string
	for _, l := range r.Launches {
		for k := range l.Metrics {
			if !d.cols[k] {
				d.cols[k] = true
				names = append(names, k)
			}
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if _, err := tx.Exec(`ALTER TABLE results ADD COLUMN ` + quoteIdent(n)); err != nil {
			delete(d.cols, n)
			return err
		}
	}
	c := &r.Cell
	fin := r.Finished
	if fin.IsZero() {
		fin = time.Now()
	}
	vars, _ := json.Marshal(c.Vars)
	if c.Vars == nil {
		vars = []byte("{}")
	}
	if _, err := tx.Exec(`DELETE FROM results WHERE cell_id = ?`, c.ID); err != nil {
		return err
	}
	if _, err := tx.Exec(`INSERT OR REPLACE INTO cells VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		c.ID, c.Index, c.Run, c.Arch, c.ArchFile, c.Set, c.Clock, c.Mode, c.Scheduler, string(vars), c.Label(),
		r.Status, r.ExitCode, r.Error, r.Wall.Seconds(), r.Host, fin.UTC().Format(time.RFC3339), r.CPU.Seconds()); err != nil {
		return err
	}
	for i, l := range r.Launches {
		cols := []string{"cell_id", "launch", "kernel", "grid", "block", "device", "count", "sim_time_ns", "metrics"}
		mj, _ := json.Marshal(l.Metrics)
		var sim any
		if v, ok := number(l.Metrics["duration_ns"]); ok {
			sim = v
		}
		vals := []any{c.ID, i, l.Kernel, dims(l.Grid), dims(l.Block), l.Device, max(l.Count, 1), sim, string(mj)}
		keys := make([]string, 0, len(l.Metrics))
		for k := range l.Metrics {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			cols = append(cols, quoteIdent(k))
			v := l.Metrics[k]
			if f, ok := number(v); ok {
				v = f
			} else if v != nil {
				v = fmt.Sprint(v)
			}
			vals = append(vals, v)
		}
		q := `INSERT INTO results (` + strings.Join(cols, ",") + `) VALUES (` + strings.TrimSuffix(strings.Repeat("?,", len(cols)), ",") + `)`
		if _, err := tx.Exec(q, vals...); err != nil {
			return err
		}
	}
	return tx.Commit()
}

func dims(d [3]uint32) string { return fmt.Sprintf("%d,%d,%d", d[0], d[1], d[2]) }

func number(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case json.Number:
		f, err := v.Float64()
		return f, err == nil
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case uint64:
		return float64(v), true
	}
	return 0, false
}

// Results reads every recorded cell with its launches, in cell order.
func (d *DB) Results() ([]*Result, error) {
	rows, err := d.db.Query(`SELECT cell_id, idx, run, arch, arch_file, sets, clock, mode, scheduler, vars,
		status, exit_code, error, wall_s, host, cpu_s, finished_at FROM cells ORDER BY idx`)
	if err != nil {
		return nil, err
	}
	var out []*Result
	byID := map[string]*Result{}
	for rows.Next() {
		r := &Result{}
		c := &r.Cell
		var vars string
		var wall float64
		var cpu sql.NullFloat64 // NULL in a database from before cpu_s
		var fin string
		if err := rows.Scan(&c.ID, &c.Index, &c.Run, &c.Arch, &c.ArchFile, &c.Set, &c.Clock, &c.Mode, &c.Scheduler, &vars,
			&r.Status, &r.ExitCode, &r.Error, &wall, &r.Host, &cpu, &fin); err != nil {
			rows.Close()
			return nil, err
		}
		if err := json.Unmarshal([]byte(vars), &c.Vars); err != nil || len(c.Vars) == 0 {
			c.Vars = nil
		}
		r.Wall = time.Duration(wall * float64(time.Second))
		r.CPU = time.Duration(cpu.Float64 * float64(time.Second))
		r.Finished, _ = time.Parse(time.RFC3339, fin)
		out = append(out, r)
		byID[c.ID] = r
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	lr, err := d.db.Query(`SELECT cell_id, kernel, grid, block, device, count, metrics FROM results ORDER BY cell_id, launch`)
	if err != nil {
		return nil, err
	}
	defer lr.Close()
	for lr.Next() {
		var id, grid, block, mj string
		var l Launch
		if err := lr.Scan(&id, &l.Kernel, &grid, &block, &l.Device, &l.Count, &mj); err != nil {
			return nil, err
		}
		l.Grid, l.Block = parseDims(grid), parseDims(block)
		dec := json.NewDecoder(strings.NewReader(mj))
		dec.UseNumber()
		if err := dec.Decode(&l.Metrics); err != nil {
			return nil, fmt.Errorf("cell %s: metrics: %v", id, err)
		}
		for k, v := range l.Metrics {
			if f, ok := number(v); ok {
				l.Metrics[k] = f
			}
		}
		if r := byID[id]; r != nil {
			r.Launches = append(r.Launches, l)
		}
	}
	return out, lr.Err()
}

func parseDims(s string) (d [3]uint32) {
	for i, p := range strings.SplitN(s, ",", 3) {
		n, _ := strconv.ParseUint(p, 10, 32)
		d[i] = uint32(n)
	}
	return d
}

// Merge copies every cell recorded in the database at path into d,
// replacing d's record of the same cells: merging twice changes nothing.
// It returns how many cells it copied.
func (d *DB) Merge(path string) (int, error) {
	src, err := Open(path)
	if err != nil {
		return 0, err
	}
	defer src.Close()
	rs, err := src.Results()
	if err != nil {
		return 0, fmt.Errorf("%s: %v", path, err)
	}
	for _, r := range rs {
		if err := d.Record(r); err != nil {
			return 0, err
		}
	}
	return len(rs), nil
}

// table reads one row per cell × launch (a failed cell: one row without
// launch columns): the cell's settings, status and times, then the
// launch's columns, every metric included, in column order.
func (d *DB) table() ([]string, [][]any, error) {
	rows, err := d.db.Query(`SELECT c.idx, c.cell_id, c.run, c.label, c.arch, c.arch_file, c.sets, c.clock, c.mode,
		c.scheduler, c.vars, c.status, c.exit_code, c.error, c.wall_s, c.cpu_s, r.* FROM cells c LEFT JOIN results r USING (cell_id)
		ORDER BY c.idx, r.launch`)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, nil, err
	}
	// r.* repeats cell_id; drop it and metrics (the JSON of the columns).
	keep := make([]bool, len(cols))
	var header []string
	seen := map[string]bool{}
	for i, c := range cols {
		if seen[c] || c == "metrics" {
			continue
		}
		seen[c], keep[i] = true, true
		header = append(header, c)
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		var rec []any
		for i, v := range vals {
			if keep[i] {
				if b, ok := v.([]byte); ok {
					v = string(b)
				}
				rec = append(rec, v)
			}
		}
		out = append(out, rec)
	}
	return header, out, rows.Err()
}

// ExportCSV writes one row per cell × kernel launch: the cell's settings,
// its status, and every metric column.
func (d *DB) ExportCSV(w io.Writer) error {
	header, records, err := d.table()
	if err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.Write(header)
	for _, r := range records {
		rec := make([]string, len(r))
		for i, v := range r {
			rec[i] = cellText(v)
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

func cellText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case []byte:
		return string(v)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}
