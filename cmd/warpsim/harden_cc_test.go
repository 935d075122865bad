package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runProgramFor runs a built program with a time limit.
func runProgramFor(t *testing.T, limit time.Duration, prog string, env ...string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog)
	cmd.Env = append(append(os.Environ(), "WARPSIM_TEST_AS_CLI=1", "WARPSIM_PROGRESS=0"), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s still running after %v\nstdout:\n%s\nstderr:\n%s", prog, limit, o.String(), e.String())
	}
	if err != nil {
		t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s", prog, err, o.String(), e.String())
	}
	return o.String(), e.String()
}

// TestCCTimeout: WARPSIM_TIMEOUT stops a kernel that never ends after that
// much wall-clock time; the program sees cudaErrorLaunchTimeout (as for the
// step watchdog) and stderr says where the warps were.
func TestCCTimeout(t *testing.T) {
	prog := spinProgram(t, "2, 64")
	got, stderr := runProgramFor(t, 2*time.Minute, prog, "WARPSIM_TIMEOUT=1s")
	if got != "cudaErrorLaunchTimeout\n" {
		t.Errorf("got %q\n%s", got, stderr)
	}
	for _, s := range []string{"kernel fault: timeout: wall-clock limit exceeded in kernel _Z4spinPVi",
		"the launch ran longer than its wall-clock limit of 1s", "threads (0,0,0)-(31,0,0) at spin.ptx:", "spin.cu:2)", "— running"} {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr)
		}
	}
}

// TestCCStackLimit: cudaDeviceSetLimit(cudaLimitStackSize) is honoured
// and cudaDeviceGetLimit reads it back. deep() has a 64-byte local array,
// so 50 levels need more than 1024 bytes of stack under any frame layout
// (ptxas gives the same function 104 bytes a level:
// testdata/harden/h100/stack_probe.nvcc.txt) and overflow
// (cudaErrorIllegalAddress, as the H100 reports an overflow:
// testdata/programs/stack_overflow.h100.txt); with 64 KiB they fit.
func TestCCStackLimit(t *testing.T) {
	needClang(t)
	src := filepath.Join(t.TempDir(), "stack.cu")
	os.WriteFile(src, []byte(`#include <cstdio>
__device__ __noinline__ int deep(int n) {
  volatile int pad[16];
  for (int i = 0; i < 16; i++) pad[i] = n + i;
  if (n <= 0) return pad[3];
  return deep(n - 1) + pad[n & 15];
}
__global__ void recurse(int n, int *out) { out[threadIdx.x] = deep(n); }
int main() {
  int *d;
  size_t v = 0;
  cudaMalloc(&d, 32 * sizeof(int));
  printf("set 65536: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitStackSize, 65536)));
  cudaDeviceGetLimit(&v, cudaLimitStackSize);
  printf("stack %zu\n", v);
  recurse<<<1, 32>>>(50, d);
  printf("depth 50 in 64 KiB: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaDeviceSetLimit(cudaLimitStackSize, 1024);
  cudaDeviceGetLimit(&v, cudaLimitStackSize);
  printf("stack %zu\n", v);
  recurse<<<1, 32>>>(50, d);
  printf("depth 50 in 1 KiB: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
}
`), 0o644)
	prog := buildCU(t, src)
	got, stderr := runProgramFor(t, 2*time.Minute, prog)
	want := "set 65536: cudaSuccess\nstack 65536\ndepth 50 in 64 KiB: cudaSuccess\nstack 1024\ndepth 50 in 1 KiB: cudaErrorIllegalAddress\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s\nstderr:\n%s", got, want, stderr)
	}
	if !strings.Contains(stderr, "kernel fault: stack overflow") || !strings.Contains(stderr, "the stack is 1024 bytes (cudaLimitStackSize)") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// TestCCUnsupportedKernel: a kernel that needs what warpsim cannot run yet
// (here libdevice's ynf) fails at its launch — cudaErrorLaunchFailure from
// the next synchronization, the reason with its PTX position on stderr —
// while the file's other kernels run.
func TestCCUnsupportedKernel(t *testing.T) {
	needClang(t)
	src := filepath.Join(t.TempDir(), "unsup.cu")
	os.WriteFile(src, []byte(`#include <cstdio>
__global__ void bessel(float *o) { o[0] = ynf(2, o[0]); }
__global__ void plain(int *o) { o[threadIdx.x] = threadIdx.x; }
int main() {
  int *d, h[32];
  float *f;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&f, sizeof(float));
  plain<<<1, 32>>>(d);
  printf("plain: %s\n", cudaGetErrorName(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost)));
  printf("h[31] = %d\n", h[31]);
  bessel<<<1, 1>>>(f);
  printf("bessel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
}
`), 0o644)
	prog := buildCU(t, src)
	got, stderr := runProgramFor(t, 2*time.Minute, prog)
	if want := "plain: cudaSuccess\nh[31] = 31\nbessel: cudaErrorLaunchFailure\n"; got != want {
		t.Errorf("got:\n%s\nwant:\n%s\nstderr:\n%s", got, want, stderr)
	}
	if want := "warpsim: kernel bessel(float*) cannot run: unsup.ptx:"; strings.Count(stderr, want) != 1 || !strings.Contains(stderr, "call to __nv_ynf is not supported yet") {
		t.Errorf("stderr should say once %q … __nv_ynf:\n%s", want, stderr)
	}
}

// TestCCInterrupt: Ctrl-C reaches a program and its simulator alike (one
// process group); the kernel running stops and the report says where its
// warps were. The program says when block 0 runs (its first thread writes
// mapped host memory, which the program polls): the signal follows that
// event, never a guessed sleep (at load 35 a 1 s sleep ended before the
// launch reached the simulator, and the signal ended both with no report).
func TestCCInterrupt(t *testing.T) {
	needClang(t)
	src := filepath.Join(t.TempDir(), "spin.cu")
	os.WriteFile(src, []byte(`#include <cstdio>
__global__ void spin(volatile int *flag, volatile int *running) { if (blockIdx.x == 0 && threadIdx.x == 0) *running = 1; while (*flag == 0) {} }
int main() {
  int *d;
  volatile int *running;
  cudaMalloc(&d, 4);
  cudaMemset(d, 0, 4);
  cudaHostAlloc((void **)&running, 4, cudaHostAllocMapped);
  *running = 0;
  spin<<<4, 64>>>(d, (int *)running);
  while (*running == 0) {}
  printf("running\n");
  fflush(stdout);
  cudaDeviceSynchronize();
  printf("not reached\n");
}
`), 0o644)
	prog := buildCU(t, src)
	cmd := exec.Command(prog)
	cmd.Env = append(os.Environ(), "WARPSIM_TEST_AS_CLI=1", "WARPSIM_PROGRESS=0")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	if line, err := r.ReadString('\n'); err != nil || line != "running\n" {
		cmd.Process.Kill()
		t.Fatalf("first line %q, %v", line, err)
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	// The rest of stdout and the exit, within a minute: a program that
	// does not stop fails the test instead of hanging it.
	done := make(chan string, 1)
	go func() {
		rest, _ := r.ReadString(0)
		cmd.Wait()
		done <- rest
	}()
	var rest string
	select {
	case rest = <-done:
	case <-time.After(time.Minute):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		t.Fatal("still running a minute after SIGINT")
	}
	if rest != "" {
		t.Errorf("the program went on: %q", rest)
	}
	for _, s := range []string{"warpsim: kernel fault: interrupted in kernel _Z4spinPViS0_\n  interrupted (SIGINT): 0 of 4 blocks done",
		"block (0,0,0) threads (0,0,0)-(31,0,0) at spin.ptx:", "spin.cu:2)", "— running"} {
		if !strings.Contains(stderr.String(), s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr.String())
		}
	}
}
