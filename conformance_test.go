package warpsim_test

// The conformance suite: CUDA kernels of our own (testdata/conformance/*/
// kernel.cu), compiled to PTX by nvcc (nvcc.ptx) and by clang-22
// (clang.ptx), run on a real GPU by testdata/gpu/record.py, which recorded
// every buffer's final bytes and the printf output under expected/<variant>/.
// Here the same launch.json runs on the simulator and every byte must match.
//
// Each case directory also holds meta.json (written by gen.py): the element
// type of each buffer, and for buffers that kernels fill with ROW(...) the
// row names, the row length and the input buffers, so a failure names the
// operation, the element, its inputs and the two values. tolerance.json,
// where present, is the one exception to bit-exactness: a ULP bound for
// buffers of .approx results (MUFU), whose exact values PTX does not define.
//
// Subtests are case/variant/buffer and case/variant/stdout; a variant with
// no recording is skipped with a message.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/testenv"
	"github.com/warpsim/warpsim/launchfile"
)

const conformanceDir = "testdata/conformance"

// conformanceTimeout bounds one variant of one case; every case takes well
// under a second when the simulator works.
const conformanceTimeout = 2 * time.Minute

// syncBuffer is a bytes.Buffer safe for the device's printf writer and the
// test reading it after a timeout.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// conformanceVariants are the compilers whose PTX each case carries.
var conformanceVariants = []string{"nvcc", "clang"}

// caseMeta is meta.json.
type caseMeta struct {
	Buffers map[string]bufferMeta `json:"buffers"`
	Stdout  string                `json:"stdout"` // "sorted": compare lines as a multiset; otherwise exactly
}

type bufferMeta struct {
	Type   string   `json:"type"`   // s32 u32 f32 f16 bf16 u16 s64 u64 f64 …
	Rows   []string `json:"rows"`   // row names, when the buffer is out[row*N + i]
	N      int      `json:"n"`      // row length
	Inputs []string `json:"inputs"` // input buffers indexed by i
}

// toleranceEntry is one element of tolerance.json: a bound for the rows
// Rows of a buffer (every row when Rows is empty).
type toleranceEntry struct {
	Buffer string   `json:"buffer"`
	Type   string   `json:"type"`
	Rows   []string `json:"rows"`
	ULP    uint64   `json:"ulp"`
	Abs    float64  `json:"abs"` // also accepted: |got-want| <= Abs (results near zero, where ULPs are tiny)
	// Variant limits the entry to one compiler's PTX ("nvcc", "clang"); all when empty.
	Variant string `json:"variant"`
	// NaNOperandOrder accepts any NaN where the GPU wrote a NaN: with several
	// NaN operands, the one passed through follows ptxas's operand order.
	NaNOperandOrder bool   `json:"nan_operand_order"`
	Why             string `json:"why"`
}

// tolerancesOf keeps the entries that apply to variant.
func tolerancesOf(tol map[string][]toleranceEntry, variant string) map[string][]toleranceEntry {
	kept := map[string][]toleranceEntry{}
	for buf, entries := range tol {
		for _, e := range entries {
			if e.Variant == "" || e.Variant == variant {
				kept[buf] = append(kept[buf], e)
			}
		}
	}
	return kept
}

// toleranceFor returns the entry of a buffer's entries that covers row.
func toleranceFor(entries []toleranceEntry, row string) (toleranceEntry, bool) {
	for _, e := range entries {
		if len(e.Rows) == 0 {
			return e, true
		}
		for _, r := range e.Rows {
			if r == row {
				return e, true
			}
		}
	}
	return toleranceEntry{}, false
}

func TestConformance(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(conformanceDir, "*", "launch.json"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no conformance cases under %s (%v)", conformanceDir, err)
	}
	for _, lf := range dirs {
		dir := filepath.Dir(lf)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			meta := readCaseMeta(t, dir)
			tol := readTolerance(t, dir)
			for _, v := range conformanceVariants {
				t.Run(v, func(t *testing.T) { runConformanceVariant(t, dir, v, meta, tol) })
			}
		})
	}
}

func readCaseMeta(t *testing.T, dir string) *caseMeta {
	t.Helper()
	var m caseMeta
	data, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		t.Fatalf("meta.json: %v", err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("meta.json: %v", err)
	}
	return &m
}

func readTolerance(t *testing.T, dir string) map[string][]toleranceEntry {
	t.Helper()
	tol := map[string][]toleranceEntry{}
	data, err := os.ReadFile(filepath.Join(dir, "tolerance.json"))
	if errors.Is(err, os.ErrNotExist) {
		return tol
	}
	if err != nil {
		t.Fatalf("tolerance.json: %v", err)
	}
	var list []toleranceEntry
	if err := json.Unmarshal(data, &list); err != nil {
		t.Fatalf("tolerance.json: %v", err)
	}
	for _, e := range list {
		if e.Why == "" {
			t.Fatalf("tolerance.json: buffer %s: a tolerance needs its reason (\"why\")", e.Buffer)
		}
		tol[e.Buffer] = append(tol[e.Buffer], e)
	}
	return tol
}

func runConformanceVariant(t *testing.T, dir, variant string, meta *caseMeta, tol map[string][]toleranceEntry) {
	expDir := filepath.Join(dir, "expected", variant)
	if _, err := os.Stat(expDir); err != nil {
		t.Fatalf("no GPU recording for this variant (%s); see testdata/gpu/RECORDED.txt", expDir)
	}
	f, err := launchfile.Load(filepath.Join(dir, "launch.json"))
	if err != nil {
		t.Fatal(err)
	}
	ptxPath := filepath.Join(dir, variant+".ptx")
	src, err := os.ReadFile(ptxPath)
	if err != nil {
		t.Fatal(err)
	}
	f.ModulePath, f.Module = ptxPath, src

	// The simulator runs in its own goroutine so that a case that hangs
	// (or crawls) fails with its name instead of stalling the whole suite;
	// the goroutine is abandoned.
	var stdout syncBuffer
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: &stdout})
	type result struct {
		out *launchfile.Outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := f.Execute(dev, launchfile.ExecOptions{})
		done <- result{out, err}
	}()
	var out *launchfile.Outcome
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("%s: %v", ptxPath, r.err)
		}
		out = r.out
	case <-time.After(conformanceTimeout):
		t.Fatalf("%s: not finished after %v (a hang, or a very slow instruction)", ptxPath, conformanceTimeout)
	}
	buffers := map[string][]byte{}
	for _, name := range out.BufferOrder {
		b, err := out.Buffer(name)
		if err != nil {
			t.Fatal(err)
		}
		buffers[name] = b
	}
	for _, name := range out.BufferOrder {
		t.Run(name, func(t *testing.T) {
			want, err := testenv.ReadRecording(filepath.Join(expDir, name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			compareBuffer(t, name, want, buffers[name], meta, tolerancesOf(tol, variant), buffers)
		})
	}
	t.Run("stdout", func(t *testing.T) {
		want, err := os.ReadFile(filepath.Join(expDir, "stdout.txt"))
		if err != nil {
			t.Fatal(err)
		}
		compareStdout(t, string(want), stdout.String(), meta.Stdout == "sorted")
	})
}

// compareBuffer reports, for a buffer that differs, how many elements
// differ, per row where the buffer has rows, and the first few in full.
func compareBuffer(t *testing.T, name string, want, got []byte, meta *caseMeta, tol map[string][]toleranceEntry,
	all map[string][]byte) {
	if len(want) != len(got) {
		t.Fatalf("%d bytes, want %d", len(got), len(want))
	}
	if bytes.Equal(want, got) {
		return
	}
	bm := meta.Buffers[name]
	typ := bm.Type
	if typ == "" {
		typ = "u8"
	}
	size := typeSize(typ)
	var (
		bad       int
		tolerated int
		perRow    = map[string]int{}
		rowOrder  []string
		tolRow    = map[string]int{}
		tolOrder  []string
		details   []string
	)
	for off := 0; off+size <= len(want); off += size {
		w, g := want[off:off+size], got[off:off+size]
		if bytes.Equal(w, g) {
			continue
		}
		idx := off / size
		where := fmt.Sprintf("[%d]", idx)
		i := idx
		rn := ""
		if len(bm.Rows) > 0 && bm.N > 0 {
			row, col := idx/bm.N, idx%bm.N
			rn = fmt.Sprintf("row%d", row)
			if row < len(bm.Rows) {
				rn = bm.Rows[row]
			}
			where = fmt.Sprintf("%s[%d]", rn, col)
			i = col
		}
		if te, ok := toleranceFor(tol[name], rn); ok {
			if within, _ := withinTolerance(typ, w, g, te); within {
				tolerated++
				if tolRow[rn] == 0 {
					tolOrder = append(tolOrder, rn)
				}
				tolRow[rn]++
				continue
			}
		}
		bad++
		if rn != "" {
			if perRow[rn] == 0 {
				rowOrder = append(rowOrder, rn)
			}
			perRow[rn]++
		}
		if len(details) < 8 {
			var in []string
			for _, ib := range bm.Inputs {
				it := meta.Buffers[ib].Type
				s := typeSize(it)
				if data := all[ib]; s > 0 && (i+1)*s <= len(data) {
					in = append(in, fmt.Sprintf("%s=%s", ib, formatElem(it, data[i*s:(i+1)*s])))
				}
			}
			details = append(details, fmt.Sprintf("  %s: got %s, want %s; inputs %s", where, formatElem(typ, g),
				formatElem(typ, w), strings.Join(in, " ")))
		}
	}
	if bad == 0 {
		var rows []string
		for _, r := range tolOrder {
			rows = append(rows, fmt.Sprintf("%s(%d)", r, tolRow[r]))
		}
		t.Logf("%d elements differ within tolerance.json's bounds; by row: %s", tolerated, strings.Join(rows, " "))
		return
	}
	var rows []string
	for _, r := range rowOrder {
		rows = append(rows, fmt.Sprintf("%s(%d)", r, perRow[r]))
	}
	msg := fmt.Sprintf("%d of %d %s elements differ", bad, len(want)/size, typ)
	if len(rows) > 0 {
		msg += "; by row: " + strings.Join(rows, " ")
	}
	t.Errorf("%s\n%s", msg, strings.Join(details, "\n"))
}

// compareStdout compares printf output exactly, or as a sorted multiset of
// lines when the GPU's thread order decides the order.
func compareStdout(t *testing.T, want, got string, sorted bool) {
	if want == got {
		return
	}
	if sorted {
		wl, gl := sortedLines(want), sortedLines(got)
		if slicesEqual(wl, gl) {
			return
		}
		onlyW, onlyG := multisetDiff(wl, gl)
		t.Errorf("printf lines differ (as a multiset): %d lines only on the GPU, %d only in warpsim\nGPU only:\n%s\nwarpsim only:\n%s",
			len(onlyW), len(onlyG), firstLines(onlyW, 10), firstLines(onlyG, 10))
		return
	}
	t.Errorf("printf output differs\n--- GPU:\n%s\n--- warpsim:\n%s", clip(want, 2000), clip(got, 2000))
}

func sortedLines(s string) []string {
	l := strings.Split(s, "\n")
	sort.Strings(l)
	return l
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// multisetDiff returns the lines of sorted a not matched in sorted b, and
// the other way round.
func multisetDiff(a, b []string) (onlyA, onlyB []string) {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			onlyA = append(onlyA, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			onlyB = append(onlyB, b[j])
			j++
		default:
			i++
			j++
		}
	}
	return
}

func firstLines(l []string, n int) string {
	var b strings.Builder
	for k, s := range l {
		if k == n {
			fmt.Fprintf(&b, "  … %d more\n", len(l)-n)
			break
		}
		fmt.Fprintf(&b, "  %q\n", s)
	}
	return b.String()
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func typeSize(typ string) int {
	switch typ {
	case "u8", "s8":
		return 1
	case "u16", "s16", "f16", "bf16":
		return 2
	case "u32", "s32", "f32":
		return 4
	case "u64", "s64", "f64":
		return 8
	}
	return 1
}

// formatElem shows an element as a value and, for floats and wide
// integers, its bit pattern.
func formatElem(typ string, b []byte) string {
	switch typ {
	case "u8":
		return fmt.Sprintf("%d", b[0])
	case "s8":
		return fmt.Sprintf("%d", int8(b[0]))
	case "u16":
		return fmt.Sprintf("0x%04x", binary.LittleEndian.Uint16(b))
	case "s16":
		return fmt.Sprintf("%d", int16(binary.LittleEndian.Uint16(b)))
	case "f16":
		v := binary.LittleEndian.Uint16(b)
		return fmt.Sprintf("%g(0x%04x)", halfToFloat(v), v)
	case "bf16":
		v := binary.LittleEndian.Uint16(b)
		return fmt.Sprintf("%g(0x%04x)", math.Float32frombits(uint32(v)<<16), v)
	case "u32":
		v := binary.LittleEndian.Uint32(b)
		return fmt.Sprintf("%d(0x%08x)", v, v)
	case "s32":
		v := binary.LittleEndian.Uint32(b)
		return fmt.Sprintf("%d(0x%08x)", int32(v), v)
	case "f32":
		v := binary.LittleEndian.Uint32(b)
		return fmt.Sprintf("%g(0x%08x)", math.Float32frombits(v), v)
	case "u64":
		v := binary.LittleEndian.Uint64(b)
		return fmt.Sprintf("%d(0x%016x)", v, v)
	case "s64":
		v := binary.LittleEndian.Uint64(b)
		return fmt.Sprintf("%d(0x%016x)", int64(v), v)
	case "f64":
		v := binary.LittleEndian.Uint64(b)
		return fmt.Sprintf("%g(0x%016x)", math.Float64frombits(v), v)
	}
	return fmt.Sprintf("% x", b)
}

func halfToFloat(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	switch e {
	case 0:
		return sign * m * math.Ldexp(1, -24)
	case 31:
		if m != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * (1 + m/1024) * math.Ldexp(1, e-15)
}

// withinTolerance reports whether got is within the entry's bound of want,
// and the distance in ULPs. NaN, infinities and zeros must match exactly:
// the bound is for the approximation, not for special values.
func withinTolerance(typ string, want, got []byte, te toleranceEntry) (bool, uint64) {
	var ow, og int64
	var fw, fg float64
	var special bool
	switch typ {
	case "f32":
		w, g := binary.LittleEndian.Uint32(want), binary.LittleEndian.Uint32(got)
		fw, fg = float64(math.Float32frombits(w)), float64(math.Float32frombits(g))
		special = w&0x7f800000 == 0x7f800000 || g&0x7f800000 == 0x7f800000 || w&0x7fffffff == 0 || g&0x7fffffff == 0
		ow, og = orderedBits(uint64(w), 31), orderedBits(uint64(g), 31)
	case "f64":
		w, g := binary.LittleEndian.Uint64(want), binary.LittleEndian.Uint64(got)
		fw, fg = math.Float64frombits(w), math.Float64frombits(g)
		const exp = 0x7ff0000000000000
		special = w&exp == exp || g&exp == exp || w<<1 == 0 || g<<1 == 0
		ow, og = orderedBits(w, 63), orderedBits(g, 63)
	case "f16":
		w, g := binary.LittleEndian.Uint16(want), binary.LittleEndian.Uint16(got)
		fw, fg = halfToFloat(w), halfToFloat(g)
		special = w&0x7c00 == 0x7c00 || g&0x7c00 == 0x7c00 || w&0x7fff == 0 || g&0x7fff == 0
		ow, og = orderedBits(uint64(w), 15), orderedBits(uint64(g), 15)
	default:
		return false, 0
	}
	if te.NaNOperandOrder && fw != fw && fg != fg {
		return true, 0
	}
	if te.NaNOperandOrder {
		return false, 0
	}
	if special {
		return false, 0
	}
	d := ow - og
	if d < 0 {
		d = -d
	}
	if uint64(d) <= te.ULP || math.Abs(fw-fg) <= te.Abs {
		return true, uint64(d)
	}
	return false, uint64(d)
}

// orderedBits maps a float's bits (sign at bit signBit) to an integer whose
// order is the floats' order, so subtraction counts ULPs across zero.
func orderedBits(b uint64, signBit uint) int64 {
	mag := int64(b &^ (1 << signBit))
	if b>>signBit&1 != 0 {
		return -mag
	}
	return mag
}

// TestConformanceClangPTXUpToDate rebuilds every case's clang.ptx with
// clang-22, as build_clang.sh does, and checks it is the committed file, so
// the PTX the GPU ran is the PTX of the committed kernel.cu. clang's output
// is kept between runs (testenv.CachedBuild: the key covers clang's
// version, kernel.cu and the headers it includes, and the flags).
func TestConformanceClangPTXUpToDate(t *testing.T) {
	clang := testenv.NeedClang(t)
	srcs, _ := filepath.Glob(filepath.Join(conformanceDir, "*", "kernel.cu"))
	for _, src := range srcs {
		dir := filepath.Dir(src)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			abs, err := filepath.Abs(src)
			if err != nil {
				t.Fatal(err)
			}
			flags := []string{"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
				"--cuda-gpu-arch=sm_90", "-Xclang", "-target-feature", "-Xclang", "+ptx80", "-O3", "-S",
				"-I", filepath.Join(filepath.Dir(filepath.Dir(abs)), "include")}
			ptx, err := testenv.CachedCompile(abs, flags, func(out string) (string, error) {
				out = filepath.Join(out, "kernel")
				cmd := exec.Command(clang, append(flags, abs, "-o", out)...)
				if msg, err := cmd.CombinedOutput(); err != nil {
					return "", fmt.Errorf("%v\n%s", err, msg)
				}
				return out, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(ptx)
			want, err := os.ReadFile(filepath.Join(dir, "clang.ptx"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("clang.ptx is not what clang-22 makes of kernel.cu now: run testdata/conformance/build_clang.sh " +
					"and re-record on the GPU (testdata/gpu/record_all.sh)")
			}
		})
	}
}
