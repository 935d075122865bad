package arch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
)

// An arch file describes a custom architecture: a preset it starts from and
// the figures it changes, in YAML or JSON, nested or with dotted keys:
//
//	base: h100
//	name: h100-2xl2
//	l2:
//	  size: 100MiB
//	latency.shared: 30
//
// Fields lists every key. Sizes take units (48KiB, 50MiB), clocks MHz or GHz,
// durations ns/us, bandwidths GB/s or TB/s. Unknown keys, values of the wrong
// kind and figures that contradict each other are errors naming the key.

// MaxFileBytes bounds an arch file: a description of a GPU, not data.
const MaxFileBytes = 1 << 20

// LoadFile reads and validates an arch file (.yaml, .yml or .json).
func LoadFile(path string) (*Arch, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseFile(path, data)
}

// ParseFile parses an arch file's contents; path names it in errors, picks
// JSON for a .json name (YAML otherwise), and gives the default name.
func ParseFile(path string, data []byte) (*Arch, error) {
	a, err := parseFile(path, data)
	if err != nil {
		// One line per problem, each naming the file.
		lines := strings.Split(err.Error(), "\n")
		for i, l := range lines {
			lines[i] = path + ": " + l
		}
		return nil, errors.New(strings.Join(lines, "\n"))
	}
	return a, nil
}

func parseFile(path string, data []byte) (*Arch, error) {
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%d bytes is too large for an arch file (at most %d)", len(data), MaxFileBytes)
	}
	var doc map[string]any
	if strings.EqualFold(filepath.Ext(path), ".json") {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&doc); err != nil {
			return nil, fmt.Errorf("not valid JSON: %v", err)
		}
		if dec.More() {
			return nil, fmt.Errorf("not valid JSON: text after the object")
		}
	} else if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not valid YAML: %s", strings.TrimSpace(yaml.FormatError(err, false, false)))
	}
	if doc == nil {
		return nil, fmt.Errorf("empty: an arch file names its preset (base: h100) and the figures it changes")
	}
	flat := map[string]string{}
	if err := flatten("", doc, flat); err != nil {
		return nil, err
	}
	base, ok := flat["base"]
	if !ok {
		return nil, fmt.Errorf("base: missing; name the preset the file starts from (base: h100; warpsim archs lists them)")
	}
	delete(flat, "base")
	p, err := Lookup(base)
	if err != nil {
		return nil, fmt.Errorf("base: %v", err)
	}
	a := p.clone()
	a.Base = p.Name
	// A name as an explicit "name:" would be: valid UTF-8, trimmed, not
	// blank (written back out, the file reads as the same architecture).
	stem := strings.TrimSpace(strings.ToValidUTF8(strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), "\uFFFD"))
	if stem == "" || stem == "." {
		stem = p.Name + "-custom"
	}
	a.Name = stem
	if err := a.override(flat); err != nil {
		return nil, err
	}
	return a, nil
}

// flatten turns nested maps into dotted keys with scalar values as text;
// a list (shared.carveouts) becomes "[a, b, c]".
func flatten(prefix string, m map[string]any, out map[string]string) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		if k == "" {
			return fmt.Errorf("%s: empty key", strings.TrimSuffix(key, "."))
		}
		switch v := m[k].(type) {
		case map[string]any:
			if err := flatten(key, v, out); err != nil {
				return err
			}
			continue
		case []any:
			parts := make([]string, len(v))
			for i, e := range v {
				s, ok := scalar(e)
				if !ok {
					return fmt.Errorf("%s: a list of numbers, not %T", key, e)
				}
				parts[i] = s
			}
			if err := put(out, key, "["+strings.Join(parts, ", ")+"]"); err != nil {
				return err
			}
			continue
		}
		s, ok := scalar(m[k])
		if !ok {
			return fmt.Errorf("%s: a value like 50MiB, 132 or gto, not %T", key, m[k])
		}
		if err := put(out, key, s); err != nil {
			return err
		}
	}
	return nil
}

func put(out map[string]string, key, v string) error {
	if _, dup := out[key]; dup {
		return fmt.Errorf("%s: given twice", key)
	}
	out[key] = v
	return nil
}

func scalar(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case json.Number:
		return v.String(), true
	case int, int64, uint64, int32, uint32:
		return fmt.Sprint(v), true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	case float32:
		return strconv.FormatFloat(float64(v), 'f', -1, 32), true
	case bool:
		return strconv.FormatBool(v), true
	case nil:
		return "", true
	}
	return "", false
}

// override sets the given keys, derives the figures that follow from
// them and were not given, and validates the result.
func (a *Arch) override(kv map[string]string) error {
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var errs []error
	for _, k := range keys {
		f, ok := archFieldByKey[k]
		if !ok {
			msg := fmt.Sprintf("%s: unknown key", k)
			if k == "base" {
				msg = "base: only an arch file names a base"
			} else if s := suggest(k); s != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", s)
			} else {
				msg += " (warpsim archs --keys lists them)"
			}
			errs = append(errs, errors.New(msg))
			continue
		}
		if err := f.apply(a, kv[k]); err != nil {
			errs = append(errs, fmt.Errorf("%s: %v (got %q)", k, err, kv[k]))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	a.derive(kv)
	return a.Validate()
}

// derive follows a changed figure into the figures that depend on it when
// those were not given: lowering shared.per_sm lowers the opt-in limit and
// drops the carveouts above it, raising limits.threads_per_sm raises the
// warps.
func (a *Arch) derive(given map[string]string) {
	has := func(k string) bool { _, ok := given[k]; return ok }
	if has("limits.threads_per_sm") && !has("limits.warps_per_sm") {
		a.MaxWarpsPerSM = (a.MaxThreadsPerSM + 31) / 32
	}
	if has("limits.warps_per_sm") && !has("limits.threads_per_sm") {
		a.MaxThreadsPerSM = a.MaxWarpsPerSM * 32
	}
	if (has("limits.threads_per_sm") || has("limits.warps_per_sm")) && !has("limits.threads_per_block") {
		a.MaxThreadsPerBlock = min(a.MaxThreadsPerBlock, a.MaxThreadsPerSM)
	}
	if has("limits.threads_per_block") || a.MaxBlockDim[0] > a.MaxThreadsPerBlock {
		a.MaxBlockDim[0] = min(a.MaxThreadsPerBlock, 1024)
		a.MaxBlockDim[1] = min(a.MaxThreadsPerBlock, 1024)
	}
	if has("registers.per_sm") && !has("registers.per_block") {
		a.RegsPerBlock = min(a.RegsPerBlock, a.RegsPerSM)
	}
	if has("shared.per_sm") || has("shared.reserved_per_block") {
		if !has("shared.per_block_optin") {
			a.SharedPerBlockOptin = min(a.SharedPerBlockOptin, a.SharedPerSM-a.ReservedSharedPerBlock)
			if a.SharedPerBlockOptin < 1 {
				a.SharedPerBlockOptin = 1
			}
		}
		if !has("shared.per_block") {
			a.SharedPerBlock = min(a.SharedPerBlock, a.SharedPerBlockOptin)
		}
		if !has("shared.carveouts") && a.SharedCarveoutsKiB != nil {
			top := a.SharedPerSM / kib
			var c []int
			for _, k := range a.SharedCarveoutsKiB {
				if k < top {
					c = append(c, k)
				}
			}
			a.SharedCarveoutsKiB = append(c, top)
		}
	}
}

// Validate checks that the figures can describe a GPU: each within its
// range and none contradicting another. The error names the key.
func (a *Arch) Validate() error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: "+format, append([]any{key}, args...)...))
	}
	if a.WarpSize != 32 {
		bad("warp_size", "warpsim simulates 32-thread warps only")
	}
	if a.MaxThreadsPerBlock > 1024 {
		bad("limits.threads_per_block", "%d: warpsim simulates blocks of at most 1024 threads", a.MaxThreadsPerBlock)
	}
	if a.MaxThreadsPerSM > a.MaxWarpsPerSM*32 {
		bad("limits.threads_per_sm", "%d threads need %d warps, more than limits.warps_per_sm (%d)", a.MaxThreadsPerSM, (a.MaxThreadsPerSM+31)/32, a.MaxWarpsPerSM)
	}
	if a.MaxThreadsPerBlock > a.MaxThreadsPerSM {
		bad("limits.threads_per_block", "%d is more than limits.threads_per_sm (%d)", a.MaxThreadsPerBlock, a.MaxThreadsPerSM)
	}
	if a.RegsPerBlock > a.RegsPerSM {
		bad("registers.per_block", "%d is more than registers.per_sm (%d)", a.RegsPerBlock, a.RegsPerSM)
	}
	if a.RegsPerThread > 255 {
		bad("registers.per_thread", "%d: PTX targets allow at most 255 registers per thread", a.RegsPerThread)
	}
	if a.SharedPerBlock > a.SharedPerBlockOptin {
		bad("shared.per_block", "%s is more than shared.per_block_optin (%s)", formatSize(int64(a.SharedPerBlock)), formatSize(int64(a.SharedPerBlockOptin)))
	}
	if a.SharedPerBlockOptin+a.ReservedSharedPerBlock > a.SharedPerSM {
		bad("shared.per_block_optin", "%s plus shared.reserved_per_block (%s) is more than shared.per_sm (%s)",
			formatSize(int64(a.SharedPerBlockOptin)), formatSize(int64(a.ReservedSharedPerBlock)), formatSize(int64(a.SharedPerSM)))
	}
	if n := len(a.SharedCarveoutsKiB); n > 0 && a.SharedCarveoutsKiB[n-1]*kib > a.SharedPerSM {
		bad("shared.carveouts", "%d KiB is more than shared.per_sm (%s)", a.SharedCarveoutsKiB[n-1], formatSize(int64(a.SharedPerSM)))
	}
	if n := len(a.SharedCarveoutsKiB); n > 0 && a.SharedCarveoutsKiB[n-1]*kib < a.SharedPerBlockOptin+a.ReservedSharedPerBlock {
		bad("shared.carveouts", "the largest, %d KiB, cannot hold shared.per_block_optin (%s) and shared.reserved_per_block", a.SharedCarveoutsKiB[n-1], formatSize(int64(a.SharedPerBlockOptin)))
	}
	if a.L1SharedBytes > 0 && a.SharedCarveoutsKiB != nil && a.SharedPerSM > a.L1SharedBytes {
		bad("shared.per_sm", "%s is more than l1.size (%s), the storage L1 and shared memory share", formatSize(int64(a.SharedPerSM)), formatSize(int64(a.L1SharedBytes)))
	}
	for _, k := range []string{"latency.shared", "latency.l1_hit"} {
		if v, ok := a.Timing[k]; ok && v > 1e6 {
			bad(k, "%v cycles is not a latency (at most a million)", v)
		}
	}
	return errors.Join(errs...)
}

// clone copies an arch, its slices and map included.
func (a *Arch) clone() *Arch {
	c := *a
	c.SharedCarveoutsKiB = append([]int(nil), a.SharedCarveoutsKiB...)
	if a.SharedCarveoutsKiB == nil {
		c.SharedCarveoutsKiB = nil
	}
	c.RegAllocUnitWide = append([]int(nil), a.RegAllocUnitWide...)
	if a.Timing != nil {
		c.Timing = make(map[string]float64, len(a.Timing))
		for k, v := range a.Timing {
			c.Timing[k] = v
		}
	}
	return &c
}

// PresetBase is the preset a (custom or not) architecture starts from.
func (a *Arch) PresetBase() string {
	if a.Base != "" {
		return a.Base
	}
	return a.Name
}

// Override returns a copy of a with --set KEY=VALUE overrides applied and
// validated; a is not changed. The copy is named NAME-custom unless a set
// names it.
func Override(a *Arch, sets []string) (*Arch, error) {
	if len(sets) == 0 {
		return a, nil
	}
	kv := map[string]string{}
	for _, s := range sets {
		k, v, ok := strings.Cut(s, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("--set %q: want KEY=VALUE, such as l2.size=100MiB", s)
		}
		kv[k] = strings.TrimSpace(v) // a later --set of a key wins
	}
	c := a.clone()
	c.Base = a.PresetBase()
	if a.Base == "" {
		c.Name = a.Name + "-custom"
	}
	if err := c.override(kv); err != nil {
		return nil, fmt.Errorf("--set: %w", err)
	}
	return c, nil
}

// Resolve returns the architecture a command's --arch NAME, --arch-file
// FILE and --set KEY=VALUE flags name: the file when given (with name
// empty; the file's base names the preset), else the preset (h100 when
// name is empty), then the overrides.
func Resolve(name, file string, sets []string) (*Arch, error) {
	var a *Arch
	var err error
	switch {
	case file != "" && name != "":
		return nil, fmt.Errorf("--arch %s and --arch-file %s: give one (the file's base: names its preset)", name, file)
	case file != "":
		a, err = LoadFile(file)
	case name == "":
		a = MustLookup("h100")
	default:
		a, err = Lookup(name)
	}
	if err != nil {
		return nil, err
	}
	return Override(a, sets)
}

// SplitSets reads WARPSIM_ARCH_SET's value: KEY=VALUE pairs separated by
// ';' or newlines.
func SplitSets(s string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '\n' }) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Marshal writes a as an arch file (YAML): its base, its name and the
// figures that differ from the base's. Loading it back gives the same
// architecture.
func Marshal(a *Arch) []byte {
	var b strings.Builder
	base := MustLookup(a.PresetBase())
	fmt.Fprintf(&b, "base: %s\n", base.Name)
	section := ""
	for _, f := range archFields {
		v := f.get(a)
		if v == "" || f.Key != "name" && v == f.get(base) {
			continue
		}
		if f.text {
			v = strconv.Quote(v)
		}
		sec, key, nested := strings.Cut(f.Key, ".")
		if !nested {
			section = ""
			fmt.Fprintf(&b, "%s: %s\n", f.Key, v)
			continue
		}
		if sec != section {
			section = sec
			fmt.Fprintf(&b, "%s:\n", sec)
		}
		fmt.Fprintf(&b, "  %s: %s\n", key, v)
	}
	return []byte(b.String())
}

// Difference is one key whose value differs between two architectures.
type Difference struct {
	Key, A, B string // "" for a timing figure left at the preset's
}

// Diff lists the keys whose values differ between a and b, in Fields
// order, the base preset first.
func Diff(a, b *Arch) []Difference {
	var out []Difference
	if a.PresetBase() != b.PresetBase() {
		out = append(out, Difference{"base", a.PresetBase(), b.PresetBase()})
	}
	for _, f := range archFields {
		if va, vb := f.get(a), f.get(b); va != vb {
			out = append(out, Difference{f.Key, va, vb})
		}
	}
	return out
}
