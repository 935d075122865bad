package ir

import (
	"bufio"
	"compress/gzip"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// TestWmmaRepeatsAsPtxas lowers nvcc 13's PTX of testdata/timing/wmmacse's
// cx.cu (independent wmma chains on the same operands, f16, bf16, tf32
// and s8, with loops of every length and unroll) and checks, launch by
// launch, the two things the SASS of each (times.tsv, summarize.py) says:
// whether ptxas left the PTX's counted loop straight code (fullUnrollTrip),
// and whether it computed the chains once (markWmmaRepeats: a repeat
// marked exactly where the SASS has one chain and the PTX several).
func TestWmmaRepeatsAsPtxas(t *testing.T) {
	const dir = "../../testdata/timing/wmmacse/"
	z, err := os.Open(dir + "h100/cx.nvcc.ptx.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	r, err := gzip.NewReader(z)
	if err != nil {
		t.Fatal(err)
	}
	src, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ptx.Parse("cx.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Lower(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	tsv, err := os.Open(dir + "times.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer tsv.Close()
	name := regexp.MustCompile(`^cx_(f16|bf16|tf32|s8)_a(\d+)_n(\d+)_u(\d+)$`)
	types := map[string]string{"f16": "0", "bf16": "1", "tf32": "2", "s8": "3"}
	sc := bufio.NewScanner(tsv)
	seen, loops, merges := 0, 0, 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		col := strings.Split(sc.Text(), "\t")
		g := name.FindStringSubmatch(col[0])
		if g == nil || len(col) < 11 {
			t.Fatalf("times.tsv: %q", sc.Text())
		}
		mangled := "_Z2cxILi" + types[g[1]] + "ELi" + g[2] + "ELi" + g[3] + "ELi" + g[4] + "EEvPKN2TrIXT_EE4in_tES4_PNS1_5acc_tE"
		fi, ok := p.FuncByName[mangled]
		if !ok {
			t.Errorf("%s: no %s in the PTX", col[0], mangled)
			continue
		}
		f := p.Funcs[fi]
		seen++
		ptxLoop, sassLoop := col[7] == "loop", col[9] == "loop"
		if ptxLoop {
			loops++
			unrolled := false
			vn := newValueNumbers(f)
			for pc := range f.Code {
				if in := &f.Code[pc]; in.Op == OpBra && in.Backward && in.Guard >= 0 {
					// The counter's value before the loop: the block
					// before it, numbered.
					vn.reset()
					vn.block(0, int(in.Target), false)
					unrolled = fullUnrollTrip(f, pc, vn) > 0
				}
			}
			if unrolled != !sassLoop {
				t.Errorf("%s: ptxas unrolls the loop fully: model %v, SASS %v", col[0], unrolled, !sassLoop)
			}
		}
		if g[2] == "1" {
			continue
		}
		repeats := 0
		for pc := range f.Code {
			if isWmmaMMA(f, pc) && f.TensorOps[f.Code[pc].Imm].RepeatOf != 0 {
				repeats++
			}
		}
		merged := col[10] == "1.00"
		if merged {
			merges++
		}
		if (repeats > 0) != merged {
			t.Errorf("%s: %d wmma.mma repeats marked, SASS one chain %v", col[0], repeats, merged)
		}
	}
	t.Logf("%d launches, %d with a PTX loop, %d merged", seen, loops, merges)
	if seen != 52 || loops < 30 || merges < 10 {
		t.Errorf("%d launches (want 52), %d with a PTX loop, %d merged", seen, loops, merges)
	}
}
