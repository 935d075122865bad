package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// headersDir holds the programs that check warpsim's CUDA headers against
// an H100's output (testdata/headers/record_gpu.sh made the recordings).
const headersDir = "../../testdata/headers"

// buildCUArgs runs `warpsim cc` with args (absolute paths: tests share the
// working directory).
func buildCUArgs(t *testing.T, args ...string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"cc"}, args...), &stdout, &stderr); code != 0 {
		t.Fatalf("warpsim cc %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
	}
}

// checkAgainst runs prog and compares stdout, stderr and the exit status
// with the recording at base.h100.*.
func checkAgainst(t *testing.T, prog, base string) {
	t.Helper()
	checkAgainstEnv(t, prog, base, nil)
}

// checkAgainstEnv is checkAgainst with env added to the program's
// environment (WARPSIM_MODE=functional where the output does not depend on
// the timing model, WARPSIM_WORKERS).
func checkAgainstEnv(t *testing.T, prog, base string, env []string) {
	t.Helper()
	rec, err := loadRecording(base)
	if err != nil || rec == nil {
		t.Fatalf("recording %s: %v", base, err)
	}
	got, stderr, err := runProgramEnv(prog, env)
	code, err := exitCode(err)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if got != rec.stdout {
		t.Errorf("stdout differs from the GPU's:\ngot:\n%s\nwant:\n%s\nstderr:\n%s", got, rec.stdout, stderr)
	}
	if rec.stderr != "" && stderr != rec.stderr {
		t.Errorf("stderr differs from the GPU's:\ngot:\n%s\nwant:\n%s", stderr, rec.stderr)
	}
	if code != rec.exit {
		t.Errorf("exit status %d, the GPU's %d", code, rec.exit)
	}
}

// TestCCHeadersPrograms builds the headers programs as nvcc users would and
// compares each with what the H100 printed. What they print does not depend
// on the timing model (no times), so they run under the functional driver,
// in parallel. thrust_cub (Thrust and CUB: 10 CPU seconds of clang) is
// TestLongCCHeadersPrograms'; the plain run builds Debian's CCCL headers
// with libcu_atomic (TestCCSamplesRegressions).
func TestCCHeadersPrograms(t *testing.T) {
	checkCCHeadersPrograms(t, false)
}

// TestLongCCHeadersPrograms is TestCCHeadersPrograms' Thrust and CUB
// program.
func TestLongCCHeadersPrograms(t *testing.T) {
	testenv.Long(t)
	checkCCHeadersPrograms(t, true)
}

// checkCCHeadersPrograms runs the headers programs of the long test or of
// the plain one.
func checkCCHeadersPrograms(t *testing.T, long bool) {
	needClang(t)
	abs, err := filepath.Abs(headersDir)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		flags []string
		base  string
	}{
		// The legacy intrinsics exist below sm_70 only; the GPU ran the
		// _sync forms with the full mask (see the program's comment).
		{"legacy_warp", []string{"-arch=sm_60", "legacy_warp.cu"}, "legacy_warp"},
		{"thrust_cub", []string{"thrust_cub.cu"}, "thrust_cub"},
		// The last source names the program (buildCU).
		{"rdc", []string{"-rdc=true", "rdc/lib.cu", "rdc/main.cu"}, "rdc/rdc"},
	}
	for _, c := range cases {
		if (c.name == "thrust_cub") != long {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if c.name == "thrust_cub" {
				if _, err := os.Stat("/usr/include/thrust/version.h"); err != nil {
					t.Fatal("Thrust, CUB and libcu++ are needed: apt-get install libthrust-dev libcub-dev libcu++-dev")
				}
			}
			args := append([]string(nil), c.flags...)
			for i, a := range args {
				if strings.HasSuffix(a, ".cu") {
					args[i] = filepath.Join(abs, a)
				}
			}
			prog := buildCU(t, args[len(args)-1], args[:len(args)-1]...)
			checkAgainstEnv(t, prog, filepath.Join(abs, c.base), []string{"WARPSIM_MODE=functional"})
		})
	}
}

// TestCCHeadersCompat checks what nvcc's headers make visible (C library,
// include guards, mixed-type min/max, SIMD and norm functions, a launch
// spelled `<< < … >> >`) against values computed independently
// (headers_compat_expected.py).
func TestCCHeadersCompat(t *testing.T) {
	needClang(t)
	want, err := os.ReadFile(filepath.Join(headersDir, "headers_compat.expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	prog := buildCU(t, filepath.Join(headersDir, "headers_compat.cu"))
	got, stderr := runProgram(t, prog)
	if got != string(want) {
		t.Errorf("got:\n%s\nwant:\n%s\nstderr:\n%s", got, want, stderr)
	}
}

// TestCCSeparateCompilation builds the rdc program the other ways nvcc
// users do — -dc objects linked later, an explicit -dlink object, device
// code in a static library — and checks each against the GPU's output.
func TestCCSeparateCompilation(t *testing.T) {
	needClang(t)
	src, err := filepath.Abs(filepath.Join(headersDir, "rdc"))
	if err != nil {
		t.Fatal(err)
	}
	main, lib := filepath.Join(src, "main.cu"), filepath.Join(src, "lib.cu")
	ar, err := exec.LookPath("ar")
	if err != nil {
		t.Fatal("ar (binutils) is needed to make a static library")
	}
	// The objects, the library and the four programs are built once and
	// kept between runs (cachedBuildDir): the key is the sources and these
	// steps ("@" is the build folder).
	objects := [][]string{{"-dc", main, "-o", "@/main.o"}, {"-dc", lib, "-o", "@/lib.o"}}
	ways := []struct {
		name  string
		steps [][]string
	}{
		{"dc_then_link", [][]string{{"@/main.o", "@/lib.o", "-o", "@/prog_dc"}}},
		{"dlink", [][]string{{"-dlink", "@/main.o", "@/lib.o", "-o", "@/dl.o"}, {"@/main.o", "@/lib.o", "@/dl.o", "-o", "@/prog_dlink"}}},
		{"static_library", [][]string{{"-rdc=true", main, "-L@", "-ldev", "-o", "@/prog_lib"}}},
		{"archive_input", [][]string{{"@/main.o", "@/libdev.a", "-o", "@/prog_ar"}}},
	}
	inputs := []string{lib}
	step := func(s []string) string { // the same in every checkout
		return strings.ReplaceAll(strings.Join(s, " "), src, "<testdata/headers/rdc>")
	}
	for _, s := range objects {
		inputs = append(inputs, "step", step(s))
	}
	inputs = append(inputs, "step", "ar rcs @/libdev.a @/lib.o")
	for _, w := range ways {
		for _, s := range w.steps {
			inputs = append(inputs, "step", step(s))
		}
	}
	dir := cachedBuildDir(t, main, inputs, func(dir string) error {
		if err := ccSteps(dir, objects...); err != nil {
			return err
		}
		if out, err := exec.Command(ar, "rcs", filepath.Join(dir, "libdev.a"), filepath.Join(dir, "lib.o")).CombinedOutput(); err != nil {
			return fmt.Errorf("ar: %v\n%s", err, out)
		}
		for _, w := range ways {
			if err := ccSteps(dir, w.steps...); err != nil {
				return fmt.Errorf("%s: %v", w.name, err)
			}
		}
		return nil
	})
	in := func(name string) string { return filepath.Join(dir, name) }
	for _, w := range ways {
		t.Run(w.name, func(t *testing.T) {
			last := w.steps[len(w.steps)-1]
			checkAgainst(t, in(strings.TrimPrefix(last[len(last)-1], "@/")), filepath.Join(src, "rdc"))
		})
	}
	t.Run("multiple_definition", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"cc", in("main.o"), in("lib.o"), in("lib.o"), "-o", filepath.Join(t.TempDir(), "dup")}, &stdout, &stderr); code == 0 {
			t.Fatal("linking lib.o twice succeeded")
		}
		if !strings.Contains(stderr.String(), "multiple definition of") {
			t.Errorf("stderr lacks the device linker's message:\n%s", stderr.String())
		}
	})
}

// TestCCAssertDeclaration checks that device assert calls __assertfail with
// the parameters nvcc's own PTX gives it (assert_device.nvcc.ptx).
func TestCCAssertDeclaration(t *testing.T) {
	needClang(t)
	nv, err := os.ReadFile(filepath.Join(headersDir, "assert_device.nvcc.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	ptx := compileCU(t, filepath.Join(headersDir, "assert_device.cu")) // kept between runs
	ours, err := os.ReadFile(ptx)
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`\.extern \.func\s*(\([^)]*\))?\s*__assertfail\s*\(([^)]*)\)`)
	params := func(b []byte) []string {
		m := decl.FindSubmatch(b)
		if m == nil {
			return nil
		}
		var types []string
		for _, p := range strings.Split(string(m[2]), ",") {
			f := strings.Fields(p)
			if len(f) >= 2 {
				types = append(types, f[0]+" "+f[1])
			}
		}
		return types
	}
	want, got := params(nv), params(ours)
	if want == nil || strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("__assertfail parameters: got %q, nvcc's %q", got, want)
	}
}

// TestCCOpenMP builds host code with -Xcompiler -fopenmp, as nvcc users do.
func TestCCOpenMP(t *testing.T) {
	needClang(t)
	src := filepath.Join(t.TempDir(), "omp.cu")
	os.WriteFile(src, []byte(`#include <omp.h>
#include <cstdio>
__global__ void k(int *p) { p[threadIdx.x] = threadIdx.x; }
int main() {
  int sum = 0;
#pragma omp parallel for num_threads(4) reduction(+ : sum)
  for (int i = 0; i < 100; i++) sum += i + 0 * omp_get_thread_num();
  int *d, h[4];
  cudaMalloc(&d, sizeof h);
  k<<<1, 4>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", sum, h[3], omp_get_max_threads() > 0);
}
`), 0o644)
	prog := buildCU(t, src, "-Xcompiler", "-fopenmp")
	if got, stderr := runProgram(t, prog); got != "4950 3 1\n" {
		t.Errorf("got %q\n%s", got, stderr)
	}
}

// TestCCIgnoresToolkitHeaders: a CUDA toolkit's include directory, named
// with -I or in CPATH/CPLUS_INCLUDE_PATH (as on a machine with Debian's
// nvidia-cuda-dev or /usr/local/cuda), never replaces warpsim's headers.
func TestCCIgnoresToolkitHeaders(t *testing.T) {
	needClang(t)
	toolkit := t.TempDir()
	headers := []string{"cuda_runtime.h", "cuda_runtime_api.h", "cooperative_groups.h", "cuda_fp16.h", "device_launch_parameters.h"}
	for _, h := range headers {
		if err := os.WriteFile(filepath.Join(toolkit, h), []byte(toolkitHeader(h)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("CPATH", toolkit)
	t.Setenv("CPLUS_INCLUDE_PATH", toolkit)
	src := filepath.Join(t.TempDir(), "iso.cu")
	os.WriteFile(src, []byte(`#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include <cstdio>
__global__ void k(int *p) { p[threadIdx.x] = cooperative_groups::this_thread_block().thread_rank() + (int)__half2float(__float2half(2.0f)); }
int main() {
  int *d, h[2];
  cudaMalloc(&d, sizeof h);
  k<<<1, 2>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[1]);
}
`), 0o644)
	// The build and what warpsim cc said are kept between package runs
	// (cachedBuildDir), keyed by the source (by content), the toolkit's
	// headers (each named, its text toolkitHeader's) and how they were
	// offered; the fresh temporary folder they are in is not in the key.
	inputs := append([]string{"toolkit by -I, CPATH and CPLUS_INCLUDE_PATH", toolkitHeader("H")}, headers...)
	dir := cachedBuildDir(t, src, inputs, func(dir string) error {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"cc", "-I", toolkit, src, "-o", filepath.Join(dir, "iso")}, &stdout, &stderr); code != 0 {
			return fmt.Errorf("exit %d:\n%s", code, stderr.String())
		}
		return os.WriteFile(filepath.Join(dir, "cc.stderr"), stderr.Bytes(), 0o644)
	})
	said, err := os.ReadFile(filepath.Join(dir, "cc.stderr"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(said), "is a CUDA toolkit's include directory") {
		t.Errorf("no note about the left-out -I directory:\n%s", said)
	}
	if got, errOut := runProgram(t, filepath.Join(dir, "iso")); got != "2 3\n" {
		t.Errorf("got %q\n%s", got, errOut)
	}
}

// toolkitHeader is the text of TestCCIgnoresToolkitHeaders' stand-in for
// a CUDA toolkit's header h: it stops any compilation that includes it.
func toolkitHeader(h string) string { return "#error \"the toolkit's " + h + " was picked up\"\n" }

// TestCCBigTileReduce: cg::reduce over tiles larger than a warp (CUDA 12
// offers it), checked against closed-form sums and maxima.
func TestCCBigTileReduce(t *testing.T) {
	needClang(t)
	prog := buildCU(t, filepath.Join(headersDir, "cg_big_tile_reduce.cu"))
	if got, stderr := runProgram(t, prog); got != "32640 32640 98176 127.5 255.5 no error\n" {
		t.Errorf("got %q\n%s", got, stderr)
	}
}
