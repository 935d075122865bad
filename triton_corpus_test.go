package warpsim_test

// The Triton corpus (testdata/triton, recorded by testdata/triton/
// triton_corpus.py on an H100): Triton 3.6's own PTX for sm_90 and sm_80,
// unedited, run from the recorded launch files on the recorded inputs. Every
// PTX must parse and lower (or fail only with "X is not supported yet"); a
// kernel whose instructions are all simulated must give the H100's output
// buffers byte for byte. tritonExpect says, for every kernel and arch, which
// of the two it is: when an instruction becomes simulated, its entries turn
// into tritonExact here, so progress shows up as an edit of this table.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/launchfile"
)

const tritonDir = "testdata/triton"

// tritonExact marks a kernel that runs and matches the H100 bit for bit.
const tritonExact = "exact"

// tritonExpect maps "kernel/arch" to tritonExact or to the instruction
// whose "is not supported yet" error the kernel must fail with (the first
// one lowering reports).
var tritonExpect = map[string]string{
	"add_f32/sm90":                  tritonExact,
	"add_f32/sm80":                  tritonExact,
	"fused_f16/sm90":                tritonExact,
	"fused_f16/sm80":                tritonExact,
	"fused_bf16/sm90":               tritonExact,
	"fused_bf16/sm80":               tritonExact,
	"fused_f32/sm90":                tritonExact,
	"fused_f32/sm80":                tritonExact,
	"rowreduce_f32/sm90":            tritonExact,
	"rowreduce_f32/sm80":            tritonExact,
	"softmax_f32/sm90":              tritonExact,
	"softmax_f32/sm80":              tritonExact,
	"softmax_f32_w8/sm90":           tritonExact,
	"softmax_f32_w8/sm80":           tritonExact,
	"layernorm_f32/sm90":            tritonExact,
	"layernorm_f32/sm80":            tritonExact,
	"layernorm_f16/sm90":            tritonExact,
	"layernorm_f16/sm80":            tritonExact,
	"attn_fwd_f16/sm90":             tritonExact,
	"attn_fwd_f16/sm80":             tritonExact,
	"grouped_gemm_f16/sm90":         tritonExact,
	"grouped_gemm_f16/sm80":         tritonExact,
	"mm_f16_64x64x32_s3/sm90":       tritonExact,
	"mm_f16_64x64x32_s3/sm80":       tritonExact,
	"mm_f16_128x128x64_s4/sm90":     tritonExact,
	"mm_f16_128x128x64_s4/sm80":     tritonExact,
	"mm_f16_masked_s2/sm90":         tritonExact,
	"mm_f16_masked_s2/sm80":         tritonExact,
	"mm_bf16_64x128x32_s3/sm90":     tritonExact,
	"mm_bf16_64x128x32_s3/sm80":     tritonExact,
	"mm_tf32_64x64x32_s2/sm90":      tritonExact,
	"mm_tf32_64x64x32_s2/sm80":      tritonExact,
	"mm_tf32_128x64x32_s3/sm90":     tritonExact,
	"mm_tf32_128x64x32_s3/sm80":     tritonExact,
	"mm_fp8e4m3_64x64x64_s3/sm90":   tritonExact,
	"mm_fp8e4m3_128x128x64_s4/sm90": tritonExact,
	"scan_argmax_i32/sm90":          tritonExact,
	"scan_argmax_i32/sm80":          tritonExact,
	"math_f32/sm90":                 tritonExact,
	"math_f32/sm80":                 tritonExact,
	"hist_atomic_i32/sm90":          tritonExact,
	"hist_atomic_i32/sm80":          tritonExact,
	"rand_philox/sm90":              tritonExact,
	"rand_philox/sm80":              tritonExact,
	"inline_asm_i32/sm90":           tritonExact,
	"inline_asm_i32/sm80":           tritonExact,
	"tma_scale_f32/sm90":            tritonExact,
	"tma_matmul_f16/sm90":           tritonExact,
}

// tritonTimeout bounds one kernel (the largest takes a few seconds).
const tritonTimeout = 3 * time.Minute

func TestTritonCorpus(t *testing.T) { runTritonBatch(t, tritonDir, tritonExpect, "tritonExpect") }

// runTritonBatch runs every launch file (sm_90 and sm_80) of the kernel
// directories under dir, each as expect (named name) says it must come
// out, and fails on a kernel expect does not list or an entry the batch
// does not have.
func runTritonBatch(t *testing.T, dir string, expect map[string]string, name string) {
	seen := map[string]bool{}
	metas, err := filepath.Glob(filepath.Join(dir, "*", "meta.json"))
	if err != nil || len(metas) == 0 {
		t.Fatalf("no Triton kernels under %s (%v)", dir, err)
	}
	for _, mp := range metas {
		kdir := filepath.Dir(mp)
		kernel := filepath.Base(kdir)
		for _, a := range []struct{ arch, launch string }{{"sm90", "launch.json"}, {"sm80", "launch_sm80.json"}} {
			lf := filepath.Join(kdir, a.launch)
			if _, err := os.Stat(lf); err != nil {
				continue
			}
			key := kernel + "/" + a.arch
			seen[key] = true
			want, ok := expect[key]
			t.Run(key, func(t *testing.T) {
				if !ok {
					t.Fatalf("%s is not in %s: add it (%q or the unsupported instruction)", key, name, tritonExact)
				}
				t.Parallel()
				runTritonKernel(t, kdir, lf, a.arch, want)
			})
		}
	}
	for k := range expect {
		if !seen[k] {
			t.Errorf("%s names %s, which %s does not have", name, k, dir)
		}
	}
}

func runTritonKernel(t *testing.T, dir, lfPath, archName, want string) {
	f, err := launchfile.Load(lfPath)
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: &syncBuffer{}})
	type result struct {
		out *launchfile.Outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := f.Execute(dev, launchfile.ExecOptions{})
		done <- result{out, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(tritonTimeout):
		t.Fatalf("%s: not finished after %v", lfPath, tritonTimeout)
	}
	if want != tritonExact {
		if r.err == nil {
			t.Fatalf("ran, but the table expects it to stop at %q: if it now matches the H100, mark it %q", want, tritonExact)
		}
		msg := r.err.Error()
		if !strings.Contains(msg, want+" is not supported yet") {
			t.Fatalf("error %q, want the first unsupported instruction to be %s", msg, want)
		}
		// The error must name the PTX file and line.
		if !strings.Contains(msg, filepath.Join(dir, archName+".ptx")+":") {
			t.Errorf("error %q does not name the PTX file and line", msg)
		}
		return
	}
	if r.err != nil {
		t.Fatalf("%s: %v", lfPath, r.err)
	}
	expDir := filepath.Join(dir, "expected", archName)
	checkRecordedBuffers(t, expDir, r.out)
}

// checkRecordedBuffers compares every buffer recorded under expDir
// (<buffer>.bin, the H100's bytes) with the run's buffer of that name, byte
// for byte; a folder with no recording is a failure.
func checkRecordedBuffers(t *testing.T, expDir string, out *launchfile.Outcome) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(expDir, "*.bin"))
	if len(files) == 0 {
		t.Fatalf("no recordings under %s", expDir)
	}
	sort.Strings(files)
	for _, wf := range files {
		name := strings.TrimSuffix(filepath.Base(wf), ".bin")
		want, err := os.ReadFile(wf)
		if err != nil {
			t.Fatal(err)
		}
		got, err := out.Buffer(name)
		if err != nil {
			t.Fatalf("buffer %s: %v", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("buffer %s: %s", name, describeByteDiff(got, want))
		}
	}
}

// checkSM90AtWorkers runs each named kernel's sm_90 launch file under dir
// with one worker and with eight, each time comparing its buffers with the
// H100's (results never depend on the number of workers).
func checkSM90AtWorkers(t *testing.T, dir string, names ...string) {
	for _, name := range names {
		for _, workers := range []int{1, 8} {
			t.Run(fmt.Sprintf("%s/workers=%d", name, workers), func(t *testing.T) {
				kdir := filepath.Join(dir, name)
				f, err := launchfile.Load(filepath.Join(kdir, "launch.json"))
				if err != nil {
					t.Fatal(err)
				}
				dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: &syncBuffer{}, Workers: workers})
				out, err := f.Execute(dev, launchfile.ExecOptions{})
				if err != nil {
					t.Fatal(err)
				}
				checkRecordedBuffers(t, filepath.Join(kdir, "expected", "sm90"), out)
			})
		}
	}
}

// describeByteDiff counts differing bytes and shows the first differing
// 32-bit words (as f32 too, since most outputs are floats).
func describeByteDiff(got, want []byte) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d bytes, want %d", len(got), len(want))
	}
	n := 0
	var first []string
	for i := range got {
		if got[i] != want[i] {
			n++
			if w := i &^ 3; len(first) < 5 && w+4 <= len(got) {
				s := fmt.Sprintf("word %d: got %#08x (%g) want %#08x (%g)", w/4,
					binary.LittleEndian.Uint32(got[w:]), math.Float32frombits(binary.LittleEndian.Uint32(got[w:])),
					binary.LittleEndian.Uint32(want[w:]), math.Float32frombits(binary.LittleEndian.Uint32(want[w:])))
				if len(first) == 0 || first[len(first)-1] != s {
					first = append(first, s)
				}
			}
		}
	}
	return fmt.Sprintf("%d of %d bytes differ; %s", n, len(got), strings.Join(first, "; "))
}

// TestTritonProbes runs the probes of testdata/triton/probes (README.md
// there): PTX variants that store a Triton kernel's intermediate values,
// and a sweep of the SFU instructions, each against the H100's bytes.
func TestTritonProbes(t *testing.T) {
	lfs, _ := filepath.Glob(filepath.Join(tritonDir, "probes", "*", "launch.json"))
	if len(lfs) == 0 {
		t.Fatal("no probes")
	}
	for _, lf := range lfs {
		dir := filepath.Dir(lf)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			f, err := launchfile.Load(lf)
			if err != nil {
				t.Fatal(err)
			}
			dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: &syncBuffer{}})
			out, err := f.Execute(dev, launchfile.ExecOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkRecordedBuffers(t, filepath.Join(dir, "expected"), out)
		})
	}
}
