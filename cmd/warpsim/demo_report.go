package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/examples/lessons"
	"github.com/warpsim/warpsim/report"
)

// lessonLine places a lesson's PTX instructions on .cu lines. nvcc wrote
// the lessons' PTX without .loc (no -lineinfo), so these maps were written
// by hand from the PTX and the .cu: a function's instructions whose PTX
// line is in [from, to] (0, 0: any) and whose text contains match ("":
// any) belong to line; the first rule that matches wins.
type lessonLine struct {
	fn       string // part of the PTX function name
	from, to int
	match    string
	line     int
}

var lessonMaps = map[string][]lessonLine{
	// divergence.cu: each kernel is two lines, the thread index and
	// a=b=0 (decl), then the if and the store.
	"divergence": {
		{"warmingup", 25, 30, "", 3}, {"warmingup", 31, 39, "", 4},
		{"mathKernel1", 53, 58, "", 5}, {"mathKernel1", 59, 65, "", 6},
		{"mathKernel2", 79, 84, "", 7}, {"mathKernel2", 85, 93, "", 8},
		{"mathKernel3", 107, 112, "", 9}, {"mathKernel3", 113, 119, "", 10},
		{"mathKernel4", 131, 136, "", 11}, {"mathKernel4", 137, 141, "", 12},
	},
	// reduce.cu: per kernel the index line, the bounds check, the loop
	// (with the if and __syncthreads on one line) and the final store.
	"reduce": {
		{"reduceNeighboredLess", 92, 99, "", 9}, {"reduceNeighboredLess", 100, 101, "", 10},
		{"reduceNeighboredLess", 103, 131, "", 11}, {"reduceNeighboredLess", 134, 144, "", 12},
		{"reduceNeighbored", 26, 31, "", 4}, {"reduceNeighbored", 32, 33, "", 5},
		{"reduceNeighbored", 35, 64, "", 6}, {"reduceNeighbored", 67, 77, "", 7},
		{"reduceInterleaved", 159, 163, "", 14}, {"reduceInterleaved", 164, 165, "", 15},
		{"reduceInterleaved", 167, 195, "", 16}, {"reduceInterleaved", 198, 208, "", 17},
	},
	// coarsen.cu: the kernels are unrolled, so instructions go by kind. In
	// the TILE=16 kernels the demo runs (CF 1, 2, 4) nvcc keeps the Mds
	// store address in %r5 (its global load from %rd18) and the Nds one in
	// %r6 (loads from %rd19+c*64): line 10 and line 13. Then the inner
	// product's shared loads and FMAs, the barriers and the final stores.
	"coarsen": {
		{"_Z12matmulCoarse", 0, 0, "[%r5]", 10}, {"_Z12matmulCoarse", 0, 0, "[%rd18]", 10},
		{"_Z12matmulCoarse", 0, 0, "[%r6]", 13}, {"_Z12matmulCoarse", 0, 0, "[%rd19", 13},
		{"_Z12matmulCoarse", 0, 0, "ld.shared", 15}, {"_Z12matmulCoarse", 0, 0, "fma.rn", 15},
		{"_Z12matmulCoarse", 0, 0, "bar.sync", 14}, {"_Z12matmulCoarse", 0, 0, "st.global", 19},
		{"_Z12matmulCoarse", 0, 0, "", 9},
	},
	// nested.cu: nestedHelloWorld's printf calls, the depth check, the
	// device-side launch; the rest is the thread index.
	"nested": {
		{"nestedHelloWorld", 0, 0, "local", 5}, {"nestedHelloWorld", 0, 0, "vprintf", 5},
		{"nestedHelloWorld", 0, 0, "cudaLaunchDevice", 8}, {"nestedHelloWorld", 0, 0, "cudaGetParameterBuffer", 8},
		{"nestedHelloWorld", 0, 0, "bra", 6}, {"nestedHelloWorld", 0, 0, "", 4},
	},
}

// lessonMap is the report.LineMap of a lesson.
func lessonMap(lesson string) report.LineMap {
	rules := lessonMaps[lesson]
	file := lesson + ".cu"
	return func(fn string, ptxLine int, text string) (string, int, bool) {
		for _, r := range rules {
			if !strings.Contains(fn, r.fn) || (r.to > 0 && (ptxLine < r.from || ptxLine > r.to)) || !strings.Contains(text, r.match) {
				continue
			}
			return file, r.line, true
		}
		return "", 0, false
	}
}

// lessonNotes are what each lesson's report points out.
var lessonNotes = map[string][]string{
	"divergence": {"Lesson 1, warp divergence: mathKernel1 branches on tid%2 (line 6), so even and odd lanes of every warp take different paths; mathKernel2 branches on the warp index (line 8) and no warp splits. nvcc -O3 compiled these short ifs into a select (selp): the PTX has no branch, so the report shows the condition on line 6 with no divergent branch — the H100's SASS does the same.",
		"Line numbers come from a hand-written map of the PTX onto divergence.cu: nvcc emitted this PTX without .loc line info."},
	"reduce": {"Lesson 2, parallel reduction: reduceNeighbored's if (tid % (2*stride) == 0) on line 6 splits warps at every step (divergent branches, idle lanes) and its strided accesses touch more sectors than they need; reduceNeighboredLess (line 11) keeps the active threads contiguous; reduceInterleaved (line 16) also keeps each warp's accesses consecutive, so its loads are coalesced.",
		"Line numbers come from a hand-written map of the PTX onto reduce.cu: nvcc emitted this PTX without .loc line info."},
	"coarsen": {"Lesson 3, thread coarsening: each factor CF reuses the M tile (line 10) for CF output tiles: the shared stores of Mds per output shrink as CF grows, while the N tiles (line 13) and the inner product's shared loads (line 15) stay.",
		"Line numbers come from a hand-written map of the PTX onto coarsen.cu by instruction kind: nvcc emitted this PTX without .loc line info."},
	"nested": {"Lesson 4, dynamic parallelism: nestedHelloWorld launches itself from the device (line 8) with half the threads until one is left; every grid appears in the timeline, device-launched ones under their parent.",
		"Line numbers come from a hand-written map of the PTX onto nested.cu by instruction kind."},
}

// runDemoReports writes one report per lesson into dir, each run in timing
// mode with per-line counts.
func runDemoReports(w io.Writer, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return badInputf("--report: %v", err)
	}
	a := arch.MustLookup("h100")
	for _, lesson := range []string{"divergence", "reduce", "coarsen", "nested"} {
		b := report.NewBuilder(a, string(warpsim.ModeTiming), report.Options{
			Title: "warpsim demo: " + lesson + ".cu", Command: "warpsim demo --report " + dir, Notes: lessonNotes[lesson],
			ReadSource: func(p string) ([]byte, error) { return lessons.FS.ReadFile(path.Base(p)) },
			Map:        lessonMap(lesson),
		})
		if err := demoReportLesson(b, a, lesson); err != nil {
			return fmt.Errorf("%s: %w", lesson, err)
		}
		out := filepath.Join(dir, lesson+".html")
		if err := writeReport(b.Profile(), filepath.Join(dir, lesson+".json"), out); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s\n", out)
	}
	return nil
}

// demoReportLesson runs a lesson's launches into b.
func demoReportLesson(b *report.Builder, a *arch.Arch, lesson string) error {
	src, err := lessons.PTX(lesson)
	if err != nil {
		return err
	}
	dev := warpsim.NewDevice(a, warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming, Lines: true,
		Timing: warpsim.TimingOptions{PCStalls: true}})
	mod, err := dev.LoadModule(lesson+".sm90.ptx", src)
	if err != nil {
		return err
	}
	launch := func(kernel string, grid, block warpsim.Dim3, vals ...[]byte) error {
		k, err := mod.Kernel(kernel)
		if err != nil {
			return err
		}
		params := make([]byte, k.ParamBytes())
		for i, p := range k.Params() {
			if i < len(vals) {
				copy(params[p.Offset:], vals[i])
			}
		}
		res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: grid, Block: block}, params)
		if res != nil {
			b.Add(res)
		}
		return err
	}
	alloc := func(n int) (uint64, error) { return dev.Malloc(uint64(n)) }
	switch lesson {
	case "divergence":
		// The lesson's `divergence 64 64`.
		d, err := alloc(4 * 64)
		if err != nil {
			return err
		}
		for _, k := range []string{"warmingup", "mathKernel1", "mathKernel2", "mathKernel3", "mathKernel4"} {
			if err := launch(k, dim(1, 1), dim(64, 1), u64(d)); err != nil {
				return err
			}
		}
	case "reduce":
		const size, block = 1 << 16, 512
		in, err := alloc(4 * size)
		if err != nil {
			return err
		}
		out, err := alloc(4 * size / block)
		if err != nil {
			return err
		}
		host := make([]byte, 4*size)
		for i := 0; i < size; i++ {
			binary.LittleEndian.PutUint32(host[4*i:], uint32(i&0xff))
		}
		for _, k := range []string{"reduceNeighbored", "reduceNeighboredLess", "reduceInterleaved"} {
			if err := dev.Write(in, host); err != nil {
				return err
			}
			if err := launch(k, dim(size/block, 1), dim(block, 1), u64(in), u64(out), u32(size)); err != nil {
				return err
			}
		}
	case "coarsen":
		const n, tile = 128, 16
		var bufs [3]uint64
		for i := range bufs {
			if bufs[i], err = alloc(4 * n * n); err != nil {
				return err
			}
		}
		for _, cf := range []uint32{1, 2, 4} {
			k := fmt.Sprintf("_Z12matmulCoarseILi%dELi%dEEvPKfS1_Pfi", tile, cf)
			if err := launch(k, dim(n/(tile*cf), n/tile), dim(tile, tile), u64(bufs[0]), u64(bufs[1]), u64(bufs[2]), u32(n)); err != nil {
				return err
			}
		}
	case "nested":
		if err := launch("nestedHelloWorld", dim(2, 1), dim(8, 1), u32(8), u32(0)); err != nil {
			return err
		}
	}
	return nil
}
