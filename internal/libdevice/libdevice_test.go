package libdevice

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// inexact lists the functions whose results are not bit-exact against the
// recordings, with the largest error measured (in ulps of the result; for
// integer results, any mismatch counts as maxULP), and why. The test fails if a
// function's error exceeds its bound, so a regression cannot pass silently,
// and also if a listed function has become exact, so the table stays true.
var inexact = map[string]uint64{}

// inexactFTZ is inexact for modules compiled with ftz.
var inexactFTZ = map[string]uint64{
	"__nv_remquof":    maxULP, // -ftz: a few tiny-divisor cases give -0 and quotient 0 on the GPU
	"__nv_remainderf": 1,      // -ftz: the same tiny-divisor cases give -0 on the GPU, +0 here
}

const maxULP = math.MaxUint64

type refSource struct {
	path   string
	lookup func(string) (*Func, bool)
	bounds map[string]uint64
}

func refSources() []refSource {
	srcs := []refSource{
		{"testdata/ref.bin.gz", Lookup, inexact},
		{"testdata/ref_ftz.bin.gz", LookupFTZ, inexactFTZ},
	}
	// WARPSIM_LIBDEVICE_REF=file[:ftz],… replaces them (larger local recordings).
	if env := os.Getenv("WARPSIM_LIBDEVICE_REF"); env != "" {
		srcs = nil
		for _, p := range strings.Split(env, ",") {
			if path, ok := strings.CutSuffix(p, ":ftz"); ok {
				srcs = append(srcs, refSource{path, LookupFTZ, inexactFTZ})
			} else {
				srcs = append(srcs, refSource{p, Lookup, inexact})
			}
		}
	}
	return srcs
}

// ulpDiff is the distance in ulps between two values of type c (maxULP for
// differing non-float values or a NaN against a number).
func ulpDiff(c byte, a, b uint64) uint64 {
	if a == b {
		return 0
	}
	ord := func(x uint64, bits uint) (int64, bool) {
		sign := uint64(1) << (bits - 1)
		expMask := sign - 1
		inf := uint64(0x7f800000)
		if bits == 64 {
			inf = 0x7ff0000000000000
		}
		if x&expMask > inf {
			return 0, true
		}
		if x&sign != 0 {
			return -int64(x & expMask), false
		}
		return int64(x), false
	}
	var bits uint
	switch c {
	case 'f':
		bits = 32
	case 'd':
		bits = 64
	default:
		return maxULP
	}
	x, xn := ord(a, bits)
	y, yn := ord(b, bits)
	if xn || yn {
		if xn && yn {
			return 1 // both NaN, different payloads
		}
		return maxULP
	}
	switch {
	case x > y:
		return uint64(x - y)
	case y > x:
		return uint64(y - x)
	}
	return 1 // +0 against -0
}

func mask(c byte, v uint64) uint64 {
	switch letterSize(c) {
	case 2:
		return v & 0xffff
	case 4:
		return v & 0xffffffff
	}
	return v
}

func show(c byte, v uint64) string {
	switch c {
	case 'f':
		return fmt.Sprintf("%#08x (%g)", v, math.Float32frombits(uint32(v)))
	case 'd':
		return fmt.Sprintf("%#016x (%g)", v, math.Float64frombits(v))
	case 'i':
		return fmt.Sprintf("%d", int32(v))
	case 'l':
		return fmt.Sprintf("%d", int64(v))
	}
	return fmt.Sprintf("%#x", v)
}

// evaluate runs f on case i of rec and returns its results in rec.rets order.
func evaluate(f *Func, rec *refRecord, i int) []uint64 {
	args := make([]uint64, len(rec.args))
	for k := range args {
		args[k] = rec.in[k][i]
	}
	var res []uint64
	if len(f.Outs) > 0 {
		outs := make([]uint64, len(f.Outs))
		r := f.ImplOut(args, outs)
		if f.Ret != 0 {
			res = append(res, r)
		}
		res = append(res, outs...)
	} else {
		res = []uint64{f.Impl(args)}
	}
	for k := range res {
		res[k] = mask(rec.rets[k], res[k])
	}
	return res
}

func sigOf(f *Func) (args, rets string) {
	letter := map[ptxtype.Type]byte{}
	for _, c := range []byte("fdiulLh") {
		letter[typeOf(c)] = c
	}
	var a, r []byte
	for _, t := range f.Args {
		a = append(a, letter[t])
	}
	if f.Ret != 0 {
		r = append(r, letter[f.Ret])
	}
	for _, t := range f.Outs {
		r = append(r, letter[t])
	}
	return string(a), string(r)
}

// TestAgainstGPU compares every implemented function with what nvcc-compiled
// calls of libdevice returned on an H100-class GPU (sm_90), case by case.
func TestAgainstGPU(t *testing.T) {
	report := os.Getenv("WARPSIM_LIBDEVICE_REPORT") != ""
	for _, src := range refSources() {
		recs, err := readRefFile(src.path)
		if err != nil {
			t.Fatal(err)
		}
		var missing []string
		for _, rec := range recs {
			f, ok := src.lookup(rec.name)
			if !ok {
				missing = append(missing, rec.name)
				continue
			}
			t.Run(src.path+"/"+rec.name, func(t *testing.T) {
				if a, r := sigOf(f); a != rec.args || r != rec.rets {
					t.Fatalf("signature (%s)→(%s), recording has (%s)→(%s)", a, r, rec.args, rec.rets)
				}
				var worst uint64
				bad := 0
				for i := 0; i < rec.n; i++ {
					got := evaluate(f, rec, i)
					for k, g := range got {
						want := rec.out[k][i]
						if g == want {
							continue
						}
						d := ulpDiff(rec.rets[k], g, want)
						worst = max(worst, d)
						bad++
						if bad <= 5 && (report || src.bounds[rec.name] == 0) {
							var in []string
							for j := range rec.args {
								in = append(in, show(rec.args[j], rec.in[j][i]))
							}
							t.Logf("%s(%s) result %d = %s, GPU %s (%d ulp)", rec.name, strings.Join(in, ", "), k,
								show(rec.rets[k], g), show(rec.rets[k], want), d)
						}
					}
				}
				bound, listed := src.bounds[rec.name]
				if report || bad > 0 {
					t.Logf("%s %s: %d/%d cases differ, max %d ulp", src.path, rec.name, bad, rec.n, worst)
				}
				switch {
				case worst > bound:
					t.Errorf("%d of %d cases differ from the GPU, max %d ulp (allowed %d)", bad, rec.n, worst, bound)
				case listed && worst == 0 && os.Getenv("WARPSIM_LIBDEVICE_REF") == "":
					t.Errorf("now bit-exact: remove it from the inexact table")
				}
			})
		}
		if report {
			t.Logf("%s: %d recorded functions not implemented: %s", src.path, len(missing), strings.Join(missing, " "))
		}
	}
}
