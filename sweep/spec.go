// Package sweep runs design-space sweeps: a sweep file names runs (launch
// files, optionally templated with ${var}), axes (GPUs, arch files, --set
// overrides, clocks, modes, schedulers, template variables) and metrics;
// their cross product, or an explicit list, is the cells. Each cell is one
// plain `warpsim run` of the same binary, and its results (every metric,
// simulated time, wall time, exit status, error text) go into a SQLite
// database, one row per cell × kernel launch, written in one transaction
// per cell. Cells run locally on a bounded worker pool, or as a SLURM job
// array whose tasks write per-task databases that Collect merges
// idempotently; a Kubernetes Indexed Job manifest can be emitted too.
package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/metrics"
)

// Spec is a sweep file.
type Spec struct {
	Name    string   `json:"name"`
	Runs    []Run    `json:"runs"`
	Axes    Axes     `json:"axes"`
	Metrics []string `json:"metrics"` // metric names (nvprof or ncu); empty: all
	// Cells, when given, lists the cells instead of the axes' cross
	// product: each a map of axis name to value (run, arch, set, clock,
	// mode, scheduler, and variables by name).
	Cells []map[string]any `json:"cells"`

	dir  string // the spec file's directory: relative paths start there
	text []byte // the file as given, recorded in the database
}

// Run is one thing each cell simulates: a launch file, whose text may use
// ${var} for the sweep's variables, or a program built by warpsim cc with
// its arguments (which may use ${var} too), run under warpsim prof.
type Run struct {
	Name    string   `json:"name"`
	Launch  string   `json:"launch"`
	Program string   `json:"program"`
	Args    []string `json:"args"`
}

// Axes are the dimensions of the sweep; an empty axis is one default value.
type Axes struct {
	Arch      []string  `json:"arch"`      // preset names, or arch files (.yaml, .yml, .json)
	Set       []string  `json:"set"`       // --set overrides: "l2.size=100MiB" or several separated by ';' ("" for none)
	Clock     []float64 `json:"clock"`     // SM clock in MHz (0: the preset's)
	Mode      []string  `json:"mode"`      // timing or functional (default timing)
	Scheduler []string  `json:"scheduler"` // gto or lrr ("": the arch's)
	// Vars are template variables: block: [128, 256]; a value that is a
	// map sets several variables together: shape: [{block: 128, grid: 32}].
	Vars map[string][]any `json:"vars"`
}

// Cell is one simulation of the sweep.
type Cell struct {
	Index     int               `json:"index"`
	ID        string            `json:"id"` // a hash of the cell's settings: stable across runs of the spec
	Run       string            `json:"run"`
	Launch    string            `json:"launch,omitempty"`  // the launch file, absolute
	Program   string            `json:"program,omitempty"` // or the program, absolute, and its arguments (before substitution)
	Args      []string          `json:"args,omitempty"`
	Arch      string            `json:"arch"` // preset name or arch file as the spec gives it
	ArchFile  string            `json:"arch_file,omitempty"`
	Set       string            `json:"set,omitempty"`
	Clock     float64           `json:"clock,omitempty"`
	Mode      string            `json:"mode"`
	Scheduler string            `json:"scheduler,omitempty"`
	Vars      map[string]string `json:"vars,omitempty"`
}

// Label is the cell's arch as reports show it: the preset or arch file's
// name, with its overrides.
func (c *Cell) Label() string {
	s := c.Arch
	if c.ArchFile != "" {
		s = strings.TrimSuffix(filepath.Base(c.ArchFile), filepath.Ext(c.ArchFile))
	}
	if c.Set != "" {
		s += "[" + c.Set + "]"
	}
	return s
}

// LoadSpec reads and checks a sweep file (YAML or JSON).
func LoadSpec(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := ParseSpec(path, data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// ParseSpec parses a sweep file's contents; relative paths in it are
// taken from path's directory.
func ParseSpec(path string, data []byte) (*Spec, error) {
	var s Spec
	// YAML is a superset of JSON: one decoder for both, strict about
	// unknown keys.
	if err := yaml.UnmarshalWithOptions(data, &s, yaml.Strict()); err != nil {
		return nil, fmt.Errorf("not a valid sweep file: %s", strings.TrimSpace(yaml.FormatError(err, false, false)))
	}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	s.dir, s.text = dir, data
	if len(s.Runs) == 0 {
		return nil, errors.New("runs: give at least one run (a launch file: - {name: reduce, launch: reduce.json})")
	}
	seen := map[string]bool{}
	for i := range s.Runs {
		r := &s.Runs[i]
		what := r.Launch
		switch {
		case r.Launch == "" && r.Program == "":
			return nil, fmt.Errorf("runs[%d]: give launch (a launch file) or program (a program built by warpsim cc)", i)
		case r.Launch != "" && r.Program != "":
			return nil, fmt.Errorf("runs[%d]: give launch or program, not both", i)
		case r.Program != "":
			what = r.Program
		case len(r.Args) > 0:
			return nil, fmt.Errorf("runs[%d]: args are a program's; a launch file takes ${var} in its text", i)
		}
		if r.Name == "" {
			r.Name = strings.TrimSuffix(filepath.Base(what), filepath.Ext(what))
		}
		if seen[r.Name] {
			return nil, fmt.Errorf("runs[%d]: name %q is used twice", i, r.Name)
		}
		seen[r.Name] = true
		if _, err := os.Stat(s.abs(what)); err != nil {
			return nil, fmt.Errorf("runs[%d] (%s): %v", i, r.Name, err)
		}
	}
	if len(s.Metrics) > 0 {
		if _, err := metrics.ParseList(strings.Join(s.Metrics, ",")); err != nil {
			return nil, fmt.Errorf("metrics: %v", err)
		}
	}
	if _, err := s.Expand(); err != nil {
		return nil, err
	}
	return &s, nil
}

func (s *Spec) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(s.dir, p)
}

// Text is the sweep file as given.
func (s *Spec) Text() []byte { return s.text }

// isArchFile tells an arch file from a preset name.
func isArchFile(s string) bool {
	l := strings.ToLower(s)
	return strings.HasSuffix(l, ".yaml") || strings.HasSuffix(l, ".yml") || strings.HasSuffix(l, ".json")
}

// varPattern matches ${name} in a launch file.
var varPattern = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// Expand lists the cells: the explicit list, or the cross product of runs
// and axes in a fixed order (runs outermost, then arch, set, clock, mode,
// scheduler, then variables by name). Every value is checked here, so a
// sweep with a bad value fails before any cell runs.
func (s *Spec) Expand() ([]Cell, error) {
	var cells []Cell
	if len(s.Cells) > 0 {
		for i, m := range s.Cells {
			c, err := s.cellFromMap(m)
			if err != nil {
				return nil, fmt.Errorf("cells[%d]: %w", i, err)
			}
			cells = append(cells, c)
		}
	} else {
		or := func(v []string, def string) []string {
			if len(v) == 0 {
				return []string{def}
			}
			return v
		}
		clocks := s.Axes.Clock
		if len(clocks) == 0 {
			clocks = []float64{0}
		}
		names := make([]string, 0, len(s.Axes.Vars))
		for k := range s.Axes.Vars {
			names = append(names, k)
		}
		sort.Strings(names)
		var combos []map[string]string
		combos = append(combos, map[string]string{})
		for _, n := range names {
			vals := s.Axes.Vars[n]
			if len(vals) == 0 {
				return nil, fmt.Errorf("axes.vars.%s: give at least one value", n)
			}
			var next []map[string]string
			for _, c := range combos {
				for _, v := range vals {
					m := map[string]string{}
					for k, x := range c {
						m[k] = x
					}
					if group, ok := v.(map[string]any); ok {
						// A group of variables that go together:
						// {block: 128, grid: 32}.
						for gk, gv := range group {
							sv, err := scalarText(gv)
							if err != nil {
								return nil, fmt.Errorf("axes.vars.%s.%s: %v", n, gk, err)
							}
							m[gk] = sv
						}
					} else {
						sv, err := scalarText(v)
						if err != nil {
							return nil, fmt.Errorf("axes.vars.%s: %v", n, err)
						}
						m[n] = sv
					}
					next = append(next, m)
				}
			}
			combos = next
		}
		for _, r := range s.Runs {
			for _, a := range or(s.Axes.Arch, "h100") {
				for _, set := range or(s.Axes.Set, "") {
					for _, clk := range clocks {
						for _, mode := range or(s.Axes.Mode, "timing") {
							for _, sch := range or(s.Axes.Scheduler, "") {
								for _, vars := range combos {
									m := map[string]any{"run": r.Name, "arch": a, "set": set, "clock": clk, "mode": mode, "scheduler": sch}
									for k, v := range vars {
										m[k] = v
									}
									c, err := s.cellFromMap(m)
									if err != nil {
										return nil, err
									}
									cells = append(cells, c)
								}
							}
						}
					}
				}
			}
		}
	}
	ids := map[string]int{}
	for i := range cells {
		cells[i].Index = i
		if j, dup := ids[cells[i].ID]; dup {
			return nil, fmt.Errorf("cells %d and %d are the same simulation", j, i)
		}
		ids[cells[i].ID] = i
	}
	return cells, nil
}

// cellFromMap builds and checks one cell.
func (s *Spec) cellFromMap(m map[string]any) (Cell, error) {
	var c Cell
	c.Vars = map[string]string{}
	for k, v := range m {
		t, err := scalarText(v)
		if err != nil {
			return c, fmt.Errorf("%s: %v", k, err)
		}
		switch k {
		case "run":
			c.Run = t
		case "arch":
			c.Arch = t
		case "set":
			c.Set = t
		case "clock":
			if t != "" {
				f, err := strconv.ParseFloat(t, 64)
				if err != nil || f < 0 {
					return c, fmt.Errorf("clock: %q is not a clock in MHz", t)
				}
				c.Clock = f
			}
		case "mode":
			c.Mode = t
		case "scheduler":
			c.Scheduler = t
		default:
			c.Vars[k] = t
		}
	}
	if c.Run == "" && len(s.Runs) == 1 {
		c.Run = s.Runs[0].Name
	}
	var run *Run
	for i := range s.Runs {
		if s.Runs[i].Name == c.Run {
			run = &s.Runs[i]
		}
	}
	if run == nil {
		return c, fmt.Errorf("run: %q is not one of the runs", c.Run)
	}
	if run.Program != "" {
		c.Program, c.Args = s.abs(run.Program), run.Args
	} else {
		c.Launch = s.abs(run.Launch)
	}
	if c.Arch == "" {
		c.Arch = "h100"
	}
	var a *arch.Arch
	var err error
	if isArchFile(c.Arch) {
		c.ArchFile = s.abs(c.Arch)
		a, err = arch.LoadFile(c.ArchFile)
	} else {
		a, err = arch.Lookup(c.Arch)
	}
	if err != nil {
		return c, fmt.Errorf("arch: %v", err)
	}
	if _, err := arch.Override(a, arch.SplitSets(c.Set)); err != nil {
		return c, fmt.Errorf("set %q: %v", c.Set, err)
	}
	if c.Mode == "" {
		c.Mode = "timing"
	}
	if c.Mode != "timing" && c.Mode != "functional" {
		return c, fmt.Errorf("mode: %q: want timing or functional", c.Mode)
	}
	if c.Scheduler != "" && c.Scheduler != "gto" && c.Scheduler != "lrr" {
		return c, fmt.Errorf("scheduler: %q: want gto or lrr", c.Scheduler)
	}
	var text []byte
	if c.Program != "" {
		// The program's arguments are what may use variables; its bytes
		// go into the ID (a rebuilt program makes new cells).
		text = []byte(strings.Join(c.Args, "\x00"))
		b, err := os.ReadFile(c.Program)
		if err != nil {
			return c, err
		}
		sum := sha256.Sum256(b)
		text = append(text, sum[:]...)
	} else {
		var err error
		if text, err = os.ReadFile(c.Launch); err != nil {
			return c, err
		}
	}
	for _, m := range varPattern.FindAllSubmatch(text, -1) {
		if _, ok := c.Vars[string(m[1])]; !ok {
			return c, fmt.Errorf("run %s uses ${%s}, which no axis gives", c.Run, m[1])
		}
	}
	if len(c.Vars) == 0 {
		c.Vars = nil
	}
	// The ID hashes what makes the simulation: the launch file's text and
	// the arch file's contents included, so that editing either makes new
	// cells (and --resume reruns them).
	h := sha256.New()
	key, _ := json.Marshal(struct {
		Run, Arch, Set, Mode, Scheduler string
		Clock                           float64
		Vars                            map[string]string
	}{c.Run, c.Arch, c.Set, c.Mode, c.Scheduler, c.Clock, c.Vars})
	h.Write(key)
	h.Write(text)
	if c.ArchFile != "" {
		b, _ := os.ReadFile(c.ArchFile)
		h.Write(b)
	}
	c.ID = hex.EncodeToString(h.Sum(nil))[:16]
	return c, nil
}

func scalarText(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), nil
	case json.Number:
		return v.String(), nil
	case int, int64, uint64, int32, uint32, bool:
		return fmt.Sprint(v), nil
	}
	return "", fmt.Errorf("want a single value, not %T", v)
}

// render writes the cell's launch file with its variables substituted
// beside the original (so relative module and data paths still resolve)
// and returns its path and a cleanup; a file without variables is used as
// it is.
func (c *Cell) render() (string, func(), error) {
	if c.Program != "" {
		return "", func() {}, nil
	}
	text, err := os.ReadFile(c.Launch)
	if err != nil {
		return "", nil, err
	}
	if !varPattern.Match(text) {
		return c.Launch, func() {}, nil
	}
	out := varPattern.ReplaceAllFunc(text, func(m []byte) []byte {
		return []byte(c.Vars[string(varPattern.FindSubmatch(m)[1])])
	})
	f, err := os.CreateTemp(filepath.Dir(c.Launch), ".sweep-"+c.ID+"-*.json")
	if err != nil {
		return "", nil, err
	}
	_, werr := f.Write(out)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(f.Name())
		return "", nil, werr
	}
	return f.Name(), func() { os.Remove(f.Name()) }, nil
}

// args returns the program's arguments with the cell's variables
// substituted.
func (c *Cell) args() []string {
	out := make([]string, len(c.Args))
	for i, a := range c.Args {
		out[i] = varPattern.ReplaceAllStringFunc(a, func(m string) string { return c.Vars[varPattern.FindStringSubmatch(m)[1]] })
	}
	return out
}
