package main

import (
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/examples/lessons"
)

// demoTensorN is the matrix size of the tensor-core lesson: the three
// kernels simulate in about two seconds in timing mode.
const demoTensorN = 256

// demoTensorPTX is the lesson's PTX: nvcc 13.0's, recorded on the H100
// with its times (testdata/tensorlesson/run.sh).
const demoTensorPTX = "tensor.sm90.ptx"

// h100TensorTimes are the H100's times of the lesson's kernels at N =
// 256 (examples/lessons/h100/h100_ncu_tensor_256.csv): Nsight Compute's
// gpu__time_duration at base clock (1589 MHz, the clock the demo
// simulates), the mean of the two launches, in µs, by kernel name.
func h100TensorTimes() (map[string]float64, error) {
	data, err := lessons.FS.ReadFile("h100/h100_ncu_tensor_256.csv")
	if err != nil {
		return nil, err
	}
	// ncu's CSV follows the program's own output in the file.
	i := bytes.Index(data, []byte("\"ID\","))
	if i < 0 {
		return nil, fmt.Errorf("warpsim internal error: h100_ncu_tensor_256.csv has no ncu table")
	}
	rows, err := csv.NewReader(bytes.NewReader(data[i:])).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("warpsim internal error: h100_ncu_tensor_256.csv: %v", err)
	}
	col := map[string]int{}
	for j, h := range rows[0] {
		col[h] = j
	}
	sum, n := map[string]float64{}, map[string]int{}
	for _, r := range rows[1:] {
		if len(r) != len(rows[0]) || r[col["Metric Name"]] != "gpu__time_duration.sum" {
			continue
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(r[col["Metric Value"]], ",", ""), 64)
		if err != nil {
			return nil, fmt.Errorf("warpsim internal error: h100_ncu_tensor_256.csv: %v", err)
		}
		k, _, _ := strings.Cut(r[col["Kernel Name"]], "(")
		sum[k] += v / 1000
		n[k]++
	}
	for k := range sum {
		sum[k] /= float64(n[k])
	}
	return sum, nil
}

// tensorInputs are the lesson's A and B (tensor.cu): k/1024 for |k| < 1024
// from xs32 seeded 12345, exact in f16 and f32.
func tensorInputs(n int) (a, b []float32) {
	s := uint32(12345)
	xs32 := func() uint32 { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s }
	a, b = make([]float32, n*n), make([]float32, n*n)
	for i := range a {
		a[i] = float32(int(xs32()%2047)-1023) / 1024
	}
	for i := range b {
		b[i] = float32(int(xs32()%2047)-1023) / 1024
	}
	return a, b
}

// halfBytes encodes values exact in f16 (normal or zero) as f16.
func halfBytes(f []float32) []byte {
	out := make([]byte, 2*len(f))
	for i, v := range f {
		bits := math.Float32bits(v)
		var h uint16
		if bits&0x7fffffff != 0 {
			exp := int(bits>>23&0xff) - 127 + 15
			h = uint16(bits>>31)<<15 | uint16(exp)<<10 | uint16(bits>>13&0x3ff)
		}
		binary.LittleEndian.PutUint16(out[2*i:], h)
	}
	return out
}

// demoTensor is the tensor-core lesson: the same GEMM as a tiled SGEMM on
// the fp32 pipe, a wmma kernel and an mma.sync kernel fed by cp.async,
// timed on the simulated H100.
func demoTensor(w io.Writer, a *arch.Arch, _ ncuData) error {
	const n = demoTensorN
	fmt.Fprintf(w, "== Lesson 6: tensor cores (tensor.cu), C = A·B for %d×%d matrices, f16 inputs, f32 accumulation ==\n", n, n)
	src, err := lessons.FS.ReadFile(demoTensorPTX)
	if err != nil {
		return err
	}
	dev := warpsim.NewDevice(a, warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming,
		Timing: warpsim.TimingOptions{ClockMHz: demoClockMHz}})
	mod, err := dev.LoadModule(demoTensorPTX, src)
	if err != nil {
		return fmt.Errorf("loading the tensor lesson: %w", err)
	}
	fa, fb := tensorInputs(n)
	ref := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for k := 0; k < n; k++ {
			x := float64(fa[i*n+k])
			for j := 0; j < n; j++ {
				ref[i*n+j] += x * float64(fb[k*n+j])
			}
		}
	}
	var bufs [5]uint64
	for i, size := range []uint64{4, 4, 2, 2, 4} {
		if bufs[i], err = dev.Malloc(size * n * n); err != nil {
			return err
		}
	}
	for i, b := range [][]byte{floatBytes(fa), floatBytes(fb), halfBytes(fa), halfBytes(fb)} {
		if err := dev.Write(bufs[i], b); err != nil {
			return err
		}
	}
	h100, err := h100TensorTimes()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%-42s %-34s %10s %10s %10s\n", "", "result", "warp inst", "warpsim", "H100")
	var sim, real [3]float64
	for i, k := range []struct {
		name          string
		label, kernel string
		a, b          uint64
		grid, block   warpsim.Dim3
	}{
		{"sgemmTiled", "sgemmTiled: f32 FMAs, 16×16 tiles", "_Z10sgemmTiledPKfS0_Pfi", bufs[0], bufs[1], dim(n/16, n/16), dim(16, 16)},
		{"wmmaGemm", "wmmaGemm: wmma 16×16×16 from global", "_Z8wmmaGemmPK6__halfS1_Pfi", bufs[2], bufs[3], dim(n/32, n/32), dim(128, 1)},
		{"mmaAsync", "mmaAsync: mma.sync, cp.async, 2 stages", "_Z8mmaAsyncPK6__halfS1_Pfi", bufs[2], bufs[3], dim(n/64, n/64), dim(128, 1)},
	} {
		res, err := timedLaunch(dev, mod, k.kernel, warpsim.LaunchConfig{Grid: k.grid, Block: k.block}, u64(k.a), u64(k.b), u64(bufs[4]), u32(n))
		if err != nil {
			return err
		}
		out := make([]byte, 4*n*n)
		if err := dev.Read(bufs[4], out); err != nil {
			return err
		}
		maxErr := 0.0
		for i, r := range ref {
			got := float64(math.Float32frombits(binary.LittleEndian.Uint32(out[4*i:])))
			if e := math.Abs(r - got); !(e <= maxErr) {
				maxErr = e
			}
		}
		check := "OK"
		if !(maxErr < 1e-3) {
			check = "MISMATCH"
		}
		sim[i], real[i] = res.DurationNS/1000, h100[k.name]
		fmt.Fprintf(w, "  %-40s %-34s %10d %7.2f µs %7.2f µs\n", k.label, fmt.Sprintf("maxabs_err_vs_fp64 %.3g %s", maxErr, check),
			res.Counters.InstExecuted, sim[i], real[i])
	}
	fmt.Fprintf(w, "  time over mmaAsync's: sgemmTiled %.2f× and wmmaGemm %.2f× on warpsim, %.2f× and %.2f× on the H100\n",
		sim[0]/sim[2], sim[1]/sim[2], real[0]/real[2], real[1]/real[2])
	fmt.Fprintf(w, "  H100 column: Nsight Compute's kernel time at base clock (1589 MHz, as simulated); its cudaEvent times at\n"+
		"  boost clock were 8.5, 7.1 and 5.8 µs (examples/lessons/h100/)\n")
	fmt.Fprintf(w, "Lesson: one tensor-core instruction multiplies whole 16×16 (wmma) or 16×8 (mma.sync) tiles, so the same GEMM\n"+
		"takes 23-35× fewer warp instructions; at this size launch overhead and few blocks bound the time, and the\n"+
		"pipelined cp.async kernel hides its loads behind the MMAs where wmma waits for each tile.\n\n")
	return nil
}
