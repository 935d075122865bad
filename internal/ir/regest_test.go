package ir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// estimateRegsRef is the per-instruction liveness estimateRegs solved
// before it went per basic block (one bit set an instruction, quadratic in
// memory), with a wgmma's full operand lists (tensorRegs): the reference
// the block form must agree with exactly.
func estimateRegsRef(f *Func, width []uint8) int {
	n := len(f.Code)
	words := (f.NumSlots + 63) / 64
	if n == 0 || words == 0 {
		return 8
	}
	live := make([]uint64, (n+1)*words)
	row := func(pc int) []uint64 { return live[pc*words : (pc+1)*words] }
	var buf []int32
	tmp := make([]uint64, words)
	for changed := true; changed; {
		changed = false
		for pc := n - 1; pc >= 0; pc-- {
			for i := range tmp {
				tmp[i] = 0
			}
			buf = successors(f, pc, buf)
			for _, s := range buf {
				if int(s) >= n {
					continue
				}
				r := row(int(s))
				for i := range tmp {
					tmp[i] |= r[i]
				}
			}
			in := &f.Code[pc]
			kill := func(d int32) {
				if in.Guard < 0 && d >= 0 {
					tmp[d/64] &^= 1 << (d % 64)
				}
			}
			for _, d := range in.D {
				kill(d)
			}
			// a wgmma's full operand lists (tensorRegs): its accumulators
			// die, then its sources come alive with the rest
			var uses []int32
			tensorRegs(f, in, kill, func(a int32) { uses = append(uses, a) })
			for _, a := range append(uses, in.A[:]...) {
				if a >= 0 {
					tmp[a/64] |= 1 << (a % 64)
				}
			}
			if in.Guard >= 0 {
				tmp[in.Guard/64] |= 1 << (in.Guard % 64)
			}
			r := row(pc)
			for i := range tmp {
				if r[i] != tmp[i] {
					r[i] = tmp[i]
					changed = true
				}
			}
		}
	}
	best := 0
	for pc := 0; pc < n; pc++ {
		r := row(pc)
		sum := 0
		for s := 0; s < f.NumSlots && s < len(width); s++ {
			if r[s/64]&(1<<(s%64)) != 0 {
				sum += int(width[s])
			}
		}
		if sum > best {
			best = sum
		}
	}
	est := best + 2
	if est < 8 {
		est = 8
	}
	return est
}

// TestEstimateRegsBlocks checks the block-wise liveness against the
// per-instruction reference on every function of the compiler corpora,
// Triton's kernels and the tensor and timing kernels, with uniform and
// mixed slot widths.
func TestEstimateRegsBlocks(t *testing.T) {
	var files []string
	for _, glob := range []string{"../../ptx/testdata/clang/*.ptx", "../../ptx/testdata/nvcc/*.ptx", "../../testdata/triton/*/*.ptx",
		"../../testdata/compilers/ptx/*.ptx", "../../testdata/timing/bench/*.ptx", "../../testdata/ptx/scopes/cases/0*.ptx"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d corpus files found", len(files))
	}
	nfn := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ptx.Parse(filepath.Base(file), src)
		if err != nil {
			continue
		}
		p, _ := Lower(m, func(name string) bool { return strings.HasPrefix(name, "__nv_") })
		if p == nil {
			continue
		}
		for _, f := range p.Funcs {
			if f == nil || len(f.Code) == 0 {
				continue
			}
			mixed := make([]uint8, f.NumSlots)
			ones := make([]uint8, f.NumSlots)
			for s := range mixed {
				mixed[s] = uint8(s % 3)
				ones[s] = 1
			}
			for _, w := range [][]uint8{ones, mixed} {
				if got, want := estimateRegs(f, w), estimateRegsRef(f, w); got != want {
					t.Errorf("%s %s: %d registers, the per-instruction analysis %d", file, f.Name, got, want)
				}
			}
			nfn++
		}
	}
	if nfn < 50 {
		t.Fatalf("only %d functions compared", nfn)
	}
	t.Logf("%d functions in %d files", nfn, len(files))
}
