package cudart

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestMain doubles as the simulator process for the programs the tests
// build: they start this test binary (WARPSIM_BIN) with a fake device.
func TestMain(m *testing.M) {
	if os.Getenv("WARPSIM_FAKE_SERVER") == "1" {
		srv := NewServer(Options{
			NewDevice:      newFake,
			Arch:           arch.MustLookup("h100"),
			LaunchBlocking: os.Getenv("CUDA_LAUNCH_BLOCKING") == "1",
			Window:         os.NewFile(5, "device-memory"),
			Callbacks:      os.NewFile(6, "callbacks"),
			CallbacksDone:  os.NewFile(7, "callbacks-done"),
		})
		in := &countingReader{r: os.NewFile(3, "requests")}
		if err := srv.Serve(in, os.NewFile(4, "replies")); err != nil {
			fmt.Fprintln(os.Stderr, "fake server:", err)
			os.Exit(1)
		}
		if p := os.Getenv("WARPSIM_TEST_REQUEST_BYTES"); p != "" {
			os.WriteFile(p, fmt.Appendf(nil, "%d", in.n), 0o644)
		}
		os.Exit(0)
	}
	// Programs from the cache (testenv.CachedBuild) start this run's binary.
	if exe, err := os.Executable(); err == nil {
		os.Setenv("WARPSIM_BIN", exe)
	}
	code := m.Run()
	testenv.CleanPrograms()
	os.Exit(code)
}

// countingReader counts the request bytes the program sent.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// fakeDevice has real memory (the server's window) and fake kernels:
// fill(p, v) stores v for every thread, hello prints, oob faults, spin
// takes a while.
type fakeDevice struct {
	a       *arch.Arch
	printf  io.Writer
	backing Backing
	mem     map[uint64][]byte
	next    uint64
}

func newFake(a *arch.Arch, printf io.Writer, _ func(int, int), mem Backing, base uint64) Device {
	return &fakeDevice{a: a, printf: printf, backing: mem, mem: map[uint64][]byte{}, next: base}
}

func (d *fakeDevice) Arch() *arch.Arch { return d.a }
func (d *fakeDevice) Malloc(size uint64) (uint64, error) {
	addr := d.next
	b, err := d.backing.Bytes(addr, size)
	if err != nil {
		return 0, err
	}
	d.mem[addr] = b
	d.next += (size + 4096 + 255) &^ 255
	return addr, nil
}
func (d *fakeDevice) Free(addr uint64) error {
	b, ok := d.mem[addr]
	if !ok {
		return errors.New("not allocated")
	}
	d.backing.Release(addr, uint64(len(b)))
	delete(d.mem, addr)
	return nil
}
func (d *fakeDevice) span(addr, n uint64) ([]byte, error) {
	for base, b := range d.mem {
		if addr >= base && addr+n <= base+uint64(len(b)) {
			return b[addr-base : addr-base+n], nil
		}
	}
	return nil, fmt.Errorf("%#x+%d out of bounds", addr, n)
}
func (d *fakeDevice) write(addr uint64, src []byte) error {
	b, err := d.span(addr, uint64(len(src)))
	if err == nil {
		copy(b, src)
	}
	return err
}

var (
	entryRE  = regexp.MustCompile(`\.entry (\w+)\(([^)]*)\)`)
	paramRE  = regexp.MustCompile(`\.param \.(\w+)`)
	globalRE = regexp.MustCompile(`\.global \.align \d+ \.(\w+) (\w+)`)
)

type fakeModule struct {
	dev     *fakeDevice
	kernels map[string]*fakeKernel
	globals map[string][2]uint64
}

func (d *fakeDevice) LoadModule(name string, ptx []byte) (Module, error) {
	m := &fakeModule{dev: d, kernels: map[string]*fakeKernel{}, globals: map[string][2]uint64{}}
	for _, e := range entryRE.FindAllSubmatch(ptx, -1) {
		k := &fakeKernel{name: string(e[1])}
		for _, p := range paramRE.FindAllSubmatch(e[2], -1) {
			size := 4
			if string(p[1]) == "u64" || string(p[1]) == "b64" {
				size = 8
			}
			k.params = append(k.params, Param{Offset: k.bytes, Size: size})
			k.bytes += size
		}
		m.kernels[k.name] = k
	}
	for _, g := range globalRE.FindAllSubmatch(ptx, -1) {
		addr, _ := d.Malloc(4)
		m.globals[string(g[2])] = [2]uint64{addr, 4}
	}
	return m, nil
}

func (m *fakeModule) Kernel(name string) (Kernel, error) {
	if k, ok := m.kernels[name]; ok {
		return k, nil
	}
	return nil, fmt.Errorf("no kernel %s", name)
}

func (m *fakeModule) Global(name string) (uint64, uint64, bool) {
	g, ok := m.globals[name]
	return g[0], g[1], ok
}

type fakeKernel struct {
	name   string
	params []Param
	bytes  int
}

func (k *fakeKernel) Name() string           { return k.name }
func (k *fakeKernel) DemangledName() string  { return k.name }
func (k *fakeKernel) Params() []Param        { return k.params }
func (k *fakeKernel) ParamBytes() int        { return k.bytes }
func (k *fakeKernel) RegsPerThread() int     { return 16 }
func (k *fakeKernel) CompiledRegs() int      { return 16 }
func (k *fakeKernel) StaticSharedBytes() int { return 0 }
func (k *fakeKernel) LocalBytes() int        { return 0 }
func (k *fakeKernel) ConstBytes() int        { return 0 }
func (k *fakeKernel) BoundThreads() int      { return 0 }
func (k *fakeKernel) LaunchLimits() arch.KernelLimits {
	return arch.KernelLimits{Name: k.name, RegsPerThread: 16, ParamBytes: k.bytes, MaxDynamicShared: -1}
}

func (d *fakeDevice) Launch(kk Kernel, cfg LaunchConfig, params []byte) (*Launched, error) {
	k := kk.(*fakeKernel)
	switch {
	case strings.Contains(k.name, "fill"):
		p := binary.LittleEndian.Uint64(params)
		v := params[8:12]
		for i := uint64(0); i < cfg.Block.Threads(); i++ {
			if err := d.write(p+4*i, v); err != nil {
				return nil, &Fault{Code: ErrorIllegalAddress, Report: err.Error()}
			}
		}
	case strings.Contains(k.name, "hello"):
		fmt.Fprintln(d.printf, "hello from the device")
	case strings.Contains(k.name, "spin"):
		time.Sleep(50 * time.Millisecond)
	case strings.Contains(k.name, "oob"):
		return nil, &Fault{Code: ErrorIllegalAddress, Report: "warpsim: kernel fault: out-of-bounds store in oob (fake report)"}
	}
	return &Launched{}, nil
}

// buildProgram compiles src with the C runtime, once per package run and
// kept between runs (testenv.CachedProgram); it starts this test binary
// (TestMain sets WARPSIM_BIN).
func buildProgram(t *testing.T, src string) string {
	t.Helper()
	testenv.NeedClang(t)
	abs, err := filepath.Abs(src)
	if err != nil {
		t.Fatal(err)
	}
	builtMu.Lock()
	b := built[abs]
	if b == nil {
		b = &builtProgram{}
		built[abs] = b
	}
	builtMu.Unlock()
	b.once.Do(func() {
		b.path, b.err = testenv.CachedProgram(abs, []string{"-O2", "-arch=sm_90"})
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

var (
	builtMu sync.Mutex
	built   = map[string]*builtProgram{}
)

type builtProgram struct {
	once sync.Once
	path string
	err  error
}

// TestSemantics runs a compiled program against the fake device: error
// codes and names, sticky errors after a fault, printf released at the
// synchronization, output of an unsynchronized kernel lost at exit.
func TestSemantics(t *testing.T) {
	prog := buildProgram(t, "testdata/semantics.cu")
	cmd := exec.Command(prog)
	cmd.Env = append(os.Environ(), "WARPSIM_FAKE_SERVER=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, stderr.String())
	}
	golden(t, "testdata/semantics.stdout", stdout.Bytes())
	golden(t, "testdata/semantics.stderr", stderr.Bytes())
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// TestLaunchBlocking: with CUDA_LAUNCH_BLOCKING=1 a kernel's printf output
// comes with its launch and its fault is the launch's error.
func TestLaunchBlocking(t *testing.T) {
	prog := buildProgram(t, "testdata/semantics.cu")
	cmd := exec.Command(prog)
	cmd.Env = append(os.Environ(), "WARPSIM_FAKE_SERVER=1", "CUDA_LAUNCH_BLOCKING=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{
		"hello from the device\nafter the launch, before the synchronization\n",
		"cudaEventRecord(a) -> 0 cudaSuccess \"no error\"\ncudaGetLastError() -> 700 cudaErrorIllegalAddress",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
}
