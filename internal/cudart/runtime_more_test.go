package cudart

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func runFake(t *testing.T, prog string, env ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(prog)
	cmd.Env = append(append(os.Environ(), "WARPSIM_FAKE_SERVER=1"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String()
}

// TestCopiesStayOffThePipe: 256 MiB of copies between the program and the
// device send a few hundred bytes of requests; the bytes themselves go
// through the memory both processes map.
func TestCopiesStayOffThePipe(t *testing.T) {
	prog := buildProgram(t, "testdata/bigcopy.cu")
	counted := filepath.Join(t.TempDir(), "bytes")
	out, _ := runFake(t, prog, "WARPSIM_TEST_REQUEST_BYTES="+counted)
	if out != "pinned equal back equal\n64 MiB pageable copy between 8 and 11 ms: yes\na copy past the end: cudaErrorInvalidValue\n" {
		t.Errorf("stdout %q", out)
	}
	b, err := os.ReadFile(counted)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(string(b))
	if n <= 0 || n > 64<<10 {
		t.Errorf("the program sent %d request bytes for 256 MiB of copies; want a few hundred", n)
	}
}

// TestForkedChildExit: a forked child's exit leaves the parent's simulator
// running (only the process that started it stops it).
func TestForkedChildExit(t *testing.T) {
	prog := buildProgram(t, "testdata/fork.cu")
	out, stderr := runFake(t, prog)
	want := "malloc cudaSuccess\nchild exited 0\nafter the child: cudaSuccess 7 7\n"
	if out != want || strings.Contains(stderr, "lost the simulator") {
		t.Errorf("stdout:\n%s\nwant:\n%s\nstderr:\n%s", out, want, stderr)
	}
}

// TestGraphMemoryFreedOutside: a graph's allocation stays the graph's. Its
// 1 MiB counts as one 32 MiB chunk in use, as the H100 counted a 1 MiB node
// (testdata/programs7/graph_conditional.h100.txt).
func TestGraphMemoryFreedOutside(t *testing.T) {
	prog := buildProgram(t, "testdata/graphmem.cu")
	out, _ := runFake(t, prog)
	want := `alloc node: cudaSuccess
graph memory in use: 33554432
launch 0: cudaSuccess, free outside the graph cudaSuccess, sync cudaSuccess: 7 7
launch 1: cudaSuccess, free outside the graph cudaSuccess, sync cudaSuccess: 7 7
after destroying the graph: 0
`
	if out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
}

// TestQueryUnderLoad: cudaStreamQuery and cudaEventQuery answer from
// simulated time, not from how far the simulation has got, so a query right
// after a launch finds it not done on a loaded host as on an idle one
// (with the server on one thread while another keeps a core busy), where
// the fake device finishes the kernel before the query arrives; polling
// ends; a host function that waits for the host is not waited for.
func TestQueryUnderLoad(t *testing.T) {
	prog := buildProgram(t, "testdata/query.cu")
	want := "not ready right after the launch: 20 of 20\n" +
		"done after at most 40 more queries: yes\n" +
		"before the host function can run: cudaErrorNotReady\n" +
		"after cudaStreamSynchronize: cudaSuccess cudaSuccess\n" +
		"after cudaMemcpy: cudaSuccess, 5\n"
	for _, procs := range []string{"1", "2"} {
		t.Run("GOMAXPROCS="+procs, func(t *testing.T) {
			stop := make(chan struct{})
			go func() { // another process's load
				for {
					select {
					case <-stop:
						return
					default:
					}
				}
			}()
			out, stderr := runFake(t, prog, "GOMAXPROCS="+procs)
			close(stop)
			if out != want {
				t.Errorf("stdout:\n%s\nwant:\n%s\nstderr:\n%s", out, want, stderr)
			}
		})
	}
}
