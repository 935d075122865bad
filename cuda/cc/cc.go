// Package cc is warpsim's CUDA compiler driver over clang: `warpsim cc`
// (whole programs: device side to PTX, host side with the PTX embedded,
// linked with warpsim's runtime) and `warpsim compile` (device side only).
package cc

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/warpsim/warpsim/cuda"
)

// MinClang is the oldest clang warpsim cc uses: clang 22 is the first that
// compiles device-side kernel launches (dynamic parallelism).
const MinClang = 22

// ErrNoClang is returned when no suitable clang is installed.
var ErrNoClang = errors.New("warpsim cc needs clang " + strconv.Itoa(MinClang) + " or later, which compiles CUDA without a CUDA toolkit; install it with `apt-get install clang-22` (or set WARPSIM_CLANG to a clang ≥ 22)")

var versionRE = regexp.MustCompile(`clang version (\d+)`)

// FindClang returns the clang to use: $WARPSIM_CLANG, clang-22 (or a later
// clang-N) on PATH or under /usr/lib/llvm-N/bin, or clang on PATH if it is
// at least version 22.
func FindClang() (string, error) {
	if c := os.Getenv("WARPSIM_CLANG"); c != "" {
		if v, err := clangVersion(c); err != nil {
			return "", fmt.Errorf("WARPSIM_CLANG=%s: %v", c, err)
		} else if v < MinClang {
			return "", fmt.Errorf("WARPSIM_CLANG=%s is clang %d; %w", c, v, ErrNoClang)
		}
		return c, nil
	}
	for v := MinClang + 3; v >= MinClang; v-- {
		for _, c := range []string{"clang-" + strconv.Itoa(v), "/usr/lib/llvm-" + strconv.Itoa(v) + "/bin/clang"} {
			if p, err := exec.LookPath(c); err == nil {
				return p, nil
			}
		}
	}
	if p, err := exec.LookPath("clang"); err == nil {
		if v, err := clangVersion(p); err == nil && v >= MinClang {
			return p, nil
		}
	}
	return "", ErrNoClang
}

func clangVersion(path string) (int, error) {
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return 0, err
	}
	m := versionRE.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("cannot read the version of %s", path)
	}
	return strconv.Atoi(string(m[1]))
}

// Driver runs clang. Stderr receives clang's messages unchanged.
type Driver struct {
	Clang  string
	Stderr io.Writer
	// Verbose prints each command before running it.
	Verbose bool
	// WarpsimBin is the simulator executable the built program starts (its
	// absolute path is compiled in; WARPSIM_BIN overrides it at run time).
	WarpsimBin string
	// NoPCH compiles every pass from cuda_runtime.h's source, without a
	// precompiled header (pch.go).
	NoPCH bool
	files string // materialized headers and runtime source
	noted map[string]bool
}

// NewDriver finds clang and writes warpsim's headers to the cache.
func NewDriver(stderr io.Writer) (*Driver, error) {
	clang, err := FindClang()
	if err != nil {
		return nil, err
	}
	cache, err := cuda.CacheDir()
	if err != nil {
		return nil, fmt.Errorf("cache directory: %v", err)
	}
	files, err := cuda.Materialize(cache)
	if err != nil {
		return nil, fmt.Errorf("writing warpsim's CUDA headers: %v", err)
	}
	return &Driver{Clang: clang, Stderr: stderr, files: files}, nil
}

// IncludeDir is the directory of warpsim's CUDA headers.
func (d *Driver) IncludeDir() string { return filepath.Join(d.files, "include") }

// CompileError is a failed clang run; clang has already printed why.
type CompileError struct{ Cmd string }

func (e *CompileError) Error() string { return "compilation failed" }

func (d *Driver) run(args []string) error {
	if d.Verbose {
		fmt.Fprintln(d.Stderr, "#", d.Clang, strings.Join(args, " "))
	}
	cmd := exec.Command(d.Clang, args...)
	cmd.Env = withoutToolkitIncludes(os.Environ())
	cmd.Stdout = d.Stderr
	cmd.Stderr = d.Stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return &CompileError{Cmd: d.Clang + " " + strings.Join(args, " ")}
		}
		return fmt.Errorf("running %s: %v", d.Clang, err)
	}
	return nil
}

func (d *Driver) commonFlags(o *Options) []string {
	f := []string{"-nocudainc", "-nocudalib", "--cuda-gpu-arch=" + o.Arch,
		"-Xclang", "-target-sdk-version=12.0",
		"-isystem", d.IncludeDir(), "-include", "cuda_runtime.h"}
	for _, i := range d.includes(o) {
		f = append(f, "-I", i)
	}
	f = append(f, o.Defines...)
	if o.Std != "" {
		f = append(f, o.Std)
	}
	return f
}

// DeviceFlags are the clang flags that compile src's device side to PTX.
func (d *Driver) DeviceFlags(o *Options, src, out string, quiet bool) []string {
	f := []string{"-x", "cuda", "--cuda-device-only", "-S"}
	f = append(f, d.commonFlags(o)...)
	// Without a CUDA installation clang assumes PTX ISA 4.2; ask for 8.0
	// (what sm_90 needs), so every instruction clang knows is available.
	f = append(f, "-Xclang", "-target-feature", "-Xclang", "+ptx80")
	// nvcc's optimizer does not take a read of an uninitialized local for
	// undefined behaviour; clang marks arguments noundef and then deletes
	// the branch that leaves one uninitialized. CUDA's own warp-aggregated
	// atomic (int prev; if (g.thread_rank() == 0) prev = atomicAdd(p,
	// g.size()); prev = g.shfl(prev, 0);) became an atomicAdd in every
	// lane (testdata/programs6/hist_warp_agg). Without noundef analysis
	// clang keeps the branch, as nvcc does.
	f = append(f, "-Xclang", "-no-enable-noundef-analysis")
	opt := o.OptLevel
	if o.Debug {
		opt = "-O0"
	}
	// Line tables, and (cc1's own line-tables-only with linkage names,
	// which the driver lowers to .loc alone for an optimized NVPTX build)
	// the .debug_info that says which function a line was inlined from:
	// nvccInlines turns it into nvcc's function_name/inlined_at records
	// (inlines.go), so the sanitizer names an inlined access as
	// compute-sanitizer does.
	f = append(f, opt, "-gline-tables-only", "-Xclang", "-debug-info-kind=line-tables-only", "-Xclang", "-fdebug-info-for-profiling")
	if o.RDC {
		f = append(f, "-fgpu-rdc")
	}
	if o.FastMath {
		f = append(f, "-fcuda-approx-transcendentals", "-fgpu-flush-denormals-to-zero")
	} else if o.FTZ {
		f = append(f, "-fgpu-flush-denormals-to-zero")
	}
	// Contraction as nvcc's (docs/compilers.md): nvcc's optimizer fuses a
	// multiply into an add across statements, but a product with another
	// reader only when all its readers are adds, and never into a sub; it
	// writes the rest as mul/add/sub without a rounding modifier, which
	// ptxas contracts where every reader of the product is an add or sub
	// (as warpsim's engine does, internal/ir/contract.go). clang's default for CUDA
	// (-ffp-contract=fast) fuses a product into every add that reads it,
	// whatever its other readers (LLVM's NVPTX back end asks for aggressive
	// fusion), so a product nvcc keeps rounded was lost
	// (testdata/programs6/llmc_softmax_gelu). With no contraction in the
	// front end and --nvptx-fma-level given, NVPTX's own combine decides,
	// with nvcc's rule (testdata/contract: the same pattern as nvcc's PTX on
	// every f32 and f64 probe). --fmad=false fuses nothing and writes .rn,
	// as nvcc does.
	if o.NoFMAD {
		f = append(f, "-ffp-contract=off")
	} else {
		f = append(f, "-ffp-contract=off", "-mllvm", "--nvptx-fma-level=1")
	}
	if quiet {
		f = append(f, "-w")
	}
	return append(f, "-o", out, src)
}

// CompilePTX compiles src's device code to PTX at out.
func (d *Driver) CompilePTX(o *Options, src, out string) error {
	if err := CheckSource(src); err != nil {
		return err
	}
	var clusters []clusterDim
	err := withSource(src, func(path string, extra []string) error {
		if err := d.runPass(append(extra, d.DeviceFlags(o, path, out, false)...)); err != nil {
			return err
		}
		var err error
		clusters, err = d.clusterDimsOf(o, src, path, extra)
		return err
	})
	if err != nil {
		return err
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	// What nvccInlines cannot name keeps its plain .loc (the kernel's
	// name in a report), as before it ran.
	named, _ := nvccInlines(b)
	fixed := escapeControlBytes(addMaxNReg(o.MaxRegCount, addClusterDims(clusters, named)))
	if o.RDC {
		// With -fgpu-rdc clang keeps template kernels alive for a device
		// linker with a table of their addresses,
		// __clang_gpu_used_external. No device linker runs here, and the
		// table means nothing to a program: drop it.
		fixed = usedExternalRE.ReplaceAll(fixed, nil)
	}
	if !bytes.Equal(fixed, b) {
		return os.WriteFile(out, fixed, 0o644)
	}
	return nil
}

// escapeControlBytes replaces the control bytes clang copies raw into the
// PTX's comments from a source file's name (a tutorial's
// "sumMatrixOnGPU-2D\x02grid-1D-block.cu") with '?': PTX text has none, and
// the module failed to load. Tabs, newlines and carriage returns stay.
func escapeControlBytes(b []byte) []byte {
	i := bytes.IndexFunc(b, func(r rune) bool { return (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7f })
	if i < 0 {
		return b
	}
	out := append([]byte(nil), b...)
	for j := i; j < len(out); j++ {
		if c := out[j]; (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f {
			out[j] = '?'
		}
	}
	return out
}

var usedExternalRE = regexp.MustCompile(`(?m)^\.global [^\n]*\b__clang_gpu_used_external\b[^\n]*\n`)

// hostObject compiles one input to a host object at out; ptx is embedded
// for CUDA inputs.
func (d *Driver) hostObject(o *Options, k kind, src, ptx, out string) error {
	var f []string
	switch k {
	case kindCUDA:
		f = []string{"-x", "cuda", "--cuda-host-only"}
		f = append(f, d.commonFlags(o)...)
		// The device pass has already shown the warnings for this file.
		f = append(f, "-w")
		if o.RDC {
			// clang then lists kernels and variables as offload entries;
			// rdcRegistration supplies the PTX (see the runtime).
			f = append(f, "-fgpu-rdc")
		} else {
			f = append(f, "-Xclang", "-fcuda-include-gpubinary", "-Xclang", ptx)
		}
	case kindCXX:
		f = []string{"-x", "c++", "-isystem", d.IncludeDir(), "-D__WARPSIM_HOST_ONLY__"}
		for _, i := range d.includes(o) {
			f = append(f, "-I", i)
		}
		f = append(f, o.Defines...)
		if o.Std != "" {
			f = append(f, o.Std)
		}
	case kindC:
		f = []string{"-x", "c"}
		for _, i := range d.includes(o) {
			f = append(f, "-I", i)
		}
		f = append(f, o.Defines...)
	}
	// nvcc leaves the host compiler at its default, -O0, where signed
	// overflow wraps; programs (cuda-samples' simpleOccupancy) rely on it.
	f = append(f, o.OptLevel, "-fwrapv")
	if o.Debug {
		f = append(f, "-g")
	}
	f = append(f, o.HostFlags...)
	if k != kindCUDA {
		return d.run(append(f, "-c", "-o", out, src))
	}
	return withSource(src, func(path string, extra []string) error {
		return d.runPass(append(append(extra, f...), "-c", "-o", out, path))
	})
}

// cuidFlag gives the device and the host compilation of src the same
// compilation-unit ID: clang names a static (internal) kernel or variable
// under -fgpu-rdc with a suffix made from it, and by default derives it
// from the command line, which differs between the two passes (the
// runtime then looked for _ZL1kPi__intern__<host's> among the PTX's
// _ZL1kPi__intern__<device's>).
func cuidFlag(src string) string {
	p, err := filepath.Abs(src)
	if err != nil {
		p = src
	}
	h := sha256.Sum256([]byte(p))
	return "-cuid=" + hex.EncodeToString(h[:8])
}

// withSource calls compile with the path clang should compile for the CUDA
// file src and the flags that go with it (see prepareSource); a rewritten
// copy is removed afterwards.
func withSource(src string, compile func(path string, extra []string) error) error {
	path, extra, err := prepareSource(src, os.TempDir())
	if err != nil {
		return err
	}
	extra = append(extra, cuidFlag(src))
	if path != src {
		defer os.Remove(path)
	}
	return compile(path, extra)
}

// rdcRegistration compiles an object that embeds the (device-linked) PTX
// at ptx and hands it to the runtime from a constructor: with -fgpu-rdc
// clang's host object does not carry it. The object is marked as the
// product of a device link (linkedSection).
func (d *Driver) rdcRegistration(ptx, out string, n int) error {
	sym := fmt.Sprintf("__warpsim_rdc_ptx_%d", n)
	src := fmt.Sprintf(`extern void __warpsim_register_rdc_ptx(const char *);
__asm__(".section .rodata,\"a\"\n%[1]s:\n.incbin \"%[2]s\"\n.byte 0\n.section %[3]s,\"\",@progbits\n.byte 1\n.text\n");
extern const char %[1]s[];
__attribute__((constructor)) static void %[1]s_register(void) { __warpsim_register_rdc_ptx(%[1]s); }
`, sym, ptx, linkedSection)
	if strings.ContainsAny(ptx, "\"\\\n") {
		return fmt.Errorf("temporary path %q has characters an assembler string cannot hold", ptx)
	}
	cfile := strings.TrimSuffix(out, ".o") + ".c"
	if err := os.WriteFile(cfile, []byte(src), 0o644); err != nil {
		return err
	}
	defer os.Remove(cfile)
	return d.run([]string{"-x", "c", "-c", "-o", out, cfile})
}

// RuntimeObject compiles warpsim's C runtime, once per runtime source,
// clang and simulator path (WarpsimBin): the object is kept beside the
// materialized runtime sources. It returns the object's path.
func (d *Driver) RuntimeObject() (string, error) {
	bin := d.WarpsimBin
	if bin == "" {
		bin = "warpsim"
	}
	sum := sha256.Sum256([]byte(d.Clang + "\x00" + bin))
	rtDir := cuda.RuntimeDir(d.files)
	out := filepath.Join(rtDir, "warpsim_rt-"+hex.EncodeToString(sum[:8])+".o")
	if _, err := os.Stat(out); err == nil {
		return out, nil
	}
	tmp, err := os.CreateTemp(rtDir, ".rt-*.o")
	if err != nil {
		return "", err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	f := []string{"-x", "c", "-O2", "-std=gnu11", "-I", d.IncludeDir(),
		"-DWARPSIM_DEFAULT_BIN=" + strconv.Quote(bin),
		"-c", "-o", tmp.Name(), filepath.Join(rtDir, "shim", "warpsim_rt.c")}
	if err := d.run(f); err != nil {
		return "", err
	}
	return out, os.Rename(tmp.Name(), out)
}

// Build compiles and links a program as nvcc would: for a whole program,
// Compile into a temporary folder, then Link.
func (d *Driver) Build(o *Options) error {
	if err := checkDevicePTX(o); err != nil {
		return err
	}
	if o.DeviceOnly != "" {
		return d.deviceOnly(o)
	}
	tmp, err := os.MkdirTemp("", "warpsim-cc-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := d.compile(o, tmp); err != nil || o.CompileOnly || o.DeviceLink {
		return err
	}
	out := o.Output
	if out == "" {
		out = "a.out"
	}
	return d.Link(tmp, out)
}

// Compile is Build without its final link, for a whole program (not -c,
// -dlink, -ptx …): it compiles every input, device-links them, and leaves
// in dir (an empty folder) the objects and the rest of the final link's
// arguments (linkPlanFile). Link then links them with the C runtime, as
// Build does; nothing in dir depends on the runtime, so a tool that keeps
// dir can link it again with another runtime (the tests' program cache,
// internal/testenv, does when cuda/shim changes). dir may be moved before
// Link; inputs that are objects or libraries are named by their path as
// given, and found there again when Link runs.
func (d *Driver) Compile(o *Options, dir string) error {
	if o.DeviceOnly != "" || o.CompileOnly || o.DeviceLink {
		return fmt.Errorf("Compile makes the objects of a whole program; -c, -dlink, -ptx, -cubin and -fatbin make no program")
	}
	if err := checkDevicePTX(o); err != nil {
		return err
	}
	return d.compile(o, dir)
}

// linkPlanFile names, in the folder Compile leaves, the final link's
// arguments: one a line, "obj NAME" for an object in the folder, "in PATH"
// for an input object or library, "flag F" for a flag after the runtime.
const linkPlanFile = "link.plan"

// compile is Build's work before its final link, in dir: the objects (for
// -c, where o says), the device link (for -dlink, its object where o
// says), and for a whole program the link plan.
func (d *Driver) compile(o *Options, dir string) error {
	var objects []string
	var plan strings.Builder
	cudaFile := 0
	for n, in := range o.Inputs {
		k, err := inputKind(in, o.ForceCU)
		if err != nil {
			return err
		}
		if k == kindObject {
			objects = append(objects, in)
			fmt.Fprintf(&plan, "in %s\n", in)
			continue
		}
		if err := CheckSource(in); err != nil {
			return err
		}
		base := strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
		obj := filepath.Join(dir, fmt.Sprintf("%d-%s.o", n, base))
		if o.CompileOnly {
			obj = base + ".o"
			if o.Output != "" {
				obj = o.Output
			}
		}
		ptx := ""
		if k == kindCUDA {
			ptx = filepath.Join(dir, fmt.Sprintf("%d-%s.ptx", n, base))
			if err := d.CompilePTX(o, in, ptx); err != nil {
				return err
			}
			if err := useDevicePTX(o, cudaFile, in, ptx); err != nil {
				return err
			}
			cudaFile++
			// The runtime finds the end of the embedded PTX by its NUL.
			if err := appendNUL(ptx); err != nil {
				return err
			}
		}
		if k != kindCUDA || !o.RDC {
			if err := d.hostObject(o, k, in, ptx, obj); err != nil {
				return err
			}
		} else {
			// Relocatable device code: the host object and the object that
			// registers the PTX, merged into one (as nvcc -dc makes one .o).
			host := filepath.Join(dir, fmt.Sprintf("%d-%s-host.o", n, base))
			reg := filepath.Join(dir, fmt.Sprintf("%d-%s-ptx.o", n, base))
			if err := d.hostObject(o, k, in, ptx, host); err != nil {
				return err
			}
			if err := d.rdcPTXObject(ptx, reg); err != nil {
				return err
			}
			if err := d.run([]string{"-r", "-nostdlib", "-o", obj, host, reg}); err != nil {
				return err
			}
		}
		objects = append(objects, obj)
		fmt.Fprintf(&plan, "obj %s\n", filepath.Base(obj))
	}
	if o.CompileOnly {
		return nil
	}
	// The device link: every -rdc object's PTX, linked into one module.
	dlink := filepath.Join(dir, "dlink.o")
	ok, err := d.deviceLink(objects, o.LinkFlags, dir, dlink)
	if err != nil {
		return err
	}
	if o.DeviceLink {
		if !ok {
			return fmt.Errorf("-dlink: no relocatable device code (objects made with -rdc=true or -dc) among the inputs")
		}
		out := o.Output
		if out == "" {
			out = "a_dlink.o"
		}
		return copyFile(out, dlink)
	}
	if ok {
		fmt.Fprintf(&plan, "obj %s\n", filepath.Base(dlink))
	}
	flags := append([]string(nil), o.LinkFlags...)
	// Host flags that the link needs too (OpenMP's runtime, threads).
	for _, h := range o.HostFlags {
		if strings.HasPrefix(h, "-fopenmp") || h == "-pthread" || strings.HasPrefix(h, "-fsanitize") {
			flags = append(flags, h)
		}
	}
	flags = append(flags, "-lm")
	for _, f := range flags {
		if strings.Contains(f, "\n") {
			return fmt.Errorf("link flag %q has a newline", f)
		}
		fmt.Fprintf(&plan, "flag %s\n", f)
	}
	return os.WriteFile(filepath.Join(dir, linkPlanFile), []byte(plan.String()), 0o644)
}

// Link links the objects Compile left in dir with warpsim's C runtime
// (RuntimeObject) into the program out.
func (d *Driver) Link(dir, out string) error {
	b, err := os.ReadFile(filepath.Join(dir, linkPlanFile))
	if err != nil {
		return fmt.Errorf("no objects to link in %s: %v", dir, err)
	}
	rt, err := d.RuntimeObject()
	if err != nil {
		return err
	}
	var objects, flags []string
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		what, arg, _ := strings.Cut(line, " ")
		switch what {
		case "obj":
			objects = append(objects, filepath.Join(dir, arg))
		case "in":
			objects = append(objects, arg)
		case "flag":
			flags = append(flags, arg)
		default:
			return fmt.Errorf("%s: not a line of a link plan: %q", filepath.Join(dir, linkPlanFile), line)
		}
	}
	f := []string{"--driver-mode=g++", "-o", out}
	f = append(f, objects...)
	f = append(f, rt)
	f = append(f, flags...)
	return d.run(f)
}

// deviceOnly is -ptx, -fatbin and -cubin: each CUDA input's device code,
// as PTX text, in its own file.
func (d *Driver) deviceOnly(o *Options) error {
	if o.Output != "" && len(o.Inputs) > 1 {
		return fmt.Errorf("-%s with -o takes one input (%d given)", o.DeviceOnly, len(o.Inputs))
	}
	for _, in := range o.Inputs {
		if k, err := inputKind(in, o.ForceCU); err != nil {
			return err
		} else if k != kindCUDA {
			return fmt.Errorf("-%s: %s is not CUDA source", o.DeviceOnly, in)
		}
		if err := CheckSource(in); err != nil {
			return err
		}
		out := o.Output
		if out == "" {
			out = strings.TrimSuffix(filepath.Base(in), filepath.Ext(in)) + "." + o.DeviceOnly
		}
		if err := d.CompilePTX(o, in, out); err != nil {
			return err
		}
	}
	return nil
}

// PTX compiles src's device side and returns the PTX text.
func (d *Driver) PTX(o *Options, src string) ([]byte, error) {
	if err := CheckSource(src); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp("", "warpsim-*.ptx")
	if err != nil {
		return nil, err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	if err := d.CompilePTX(o, src, tmp.Name()); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(tmp.Name())
	return bytes.Clone(b), err
}

func appendNUL(path string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.Write([]byte{0})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
