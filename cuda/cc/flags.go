package cc

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Options is one `warpsim cc` invocation, from nvcc-style flags.
type Options struct {
	Inputs      []string // .cu, .cpp/.cc/.cxx/.c, .o/.a, in order
	Output      string   // -o
	OptLevel    string   // "-O3" …; nvcc's default is -O3 for host code
	Arch        string   // sm_90 …
	Includes    []string // -I
	Defines     []string // -D NAME[=V], -U NAME (kept with their flag)
	Std         string   // -std=c++17
	RDC         bool     // -rdc=true: relocatable device code (-fgpu-rdc)
	LineInfo    bool     // -lineinfo (always on: fault reports name .cu lines)
	Debug       bool     // -G
	CompileOnly bool     // -c
	DeviceLink  bool     // -dlink: only the device link, to an object
	ForceCU     bool     // -x cu: every source input is CUDA
	FastMath    bool     // --use_fast_math
	NoFMAD      bool     // --fmad=false: no mul+add contraction in device code
	FTZ         bool     // --ftz=true: single-precision denormals flushed in device code
	MaxRegCount int      // -maxrregcount N: .maxnreg N on kernels without launch bounds
	HostFlags   []string // -Xcompiler …, -W…, -f…, -g, -pthread
	LinkFlags   []string // -l…, -L…, -Xlinker …
	Warnings    []string // flags accepted and ignored, for a note
	// DeviceOnly (-ptx, -fatbin, -cubin): compile the device code only and
	// write it, as PTX text (warpsim's module format, which the driver
	// API's cuModuleLoad* loads), to -o or to the input's name with the
	// mode's extension.
	DeviceOnly string
	// DevicePTX (--device-ptx FILE.ptx, once per CUDA input, in order):
	// PTX, nvcc's, used in place of clang's device code (deviceptx.go).
	DevicePTX []string
}

// nvcc flags that take a separate value and mean nothing to the simulator.
var ignoredWithValue = map[string]bool{
	"-ccbin": true, "--compiler-bindir": true, "-Xptxas": true, "--ptxas-options": true,
	"-Xnvlink": true, "--nvlink-options": true, "-t": true, "--threads": true,
	// Front-end diagnostics and warnings, which clang reports its own way.
	"-diag-suppress": true, "--diag-suppress": true, "-diag-warn": true, "--diag-warn": true, "-Xcudafe": true,
	"--cudafe-options": true, "-Werror": true, "--Werror": true,
}

// TakesValue reports whether nvcc flag a, written alone, takes the next
// argument as its value (so that `-Xptxas -v` is not read as -v).
func TakesValue(a string) bool {
	switch a {
	case "-o", "--output-file", "-arch", "--gpu-architecture", "-gencode", "--generate-code", "-code", "-I", "-D", "-U",
		"-std", "--std", "-x", "--x", "-maxrregcount", "--maxrregcount", "-Xcompiler", "--compiler-options", "-Xlinker", "--linker-options", "-l", "-L", "--device-ptx":
		return true
	}
	return ignoredWithValue[a]
}

// nvcc flags without a value that change nothing here.
var ignored = map[string]bool{
	"-m64": true, "--expt-relaxed-constexpr": true, "--expt-extended-lambda": true, "--extended-lambda": true,
	"-res-usage": true, "--resource-usage": true, "-lcudadevrt": true, "-lcudart": true, "-lcuda": true, "-cudart=static": true,
	"--cudart=static": true, "-cudart=shared": true, "--cudart=shared": true, "-Wno-deprecated-gpu-targets": true,
	"--keep": true, "-keep": true, "-restrict": true, "--restrict": true, "-src-in-ptx": true, "--source-in-ptx": true,
	"--forward-unknown-to-host-compiler": true, "-forward-unknown-to-host-compiler": true,
	"-allow-unsupported-compiler": true, "--allow-unsupported-compiler": true, "--fmad=true": true, "-fmad=true": true,
	"--ftz=false": true, "-ftz=false": true, "--display-error-number": true, "--no-display-error-number": true,
}

// ParseArgs reads nvcc-style arguments.
func ParseArgs(args []string) (*Options, error) {
	o := &Options{OptLevel: "-O3", Arch: "sm_90"}
	value := func(i *int, name string) (string, error) {
		a := args[*i]
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v, nil
		}
		if len(a) > len(name) && strings.HasPrefix(a, name) && !strings.HasPrefix(name, "--") && len(name) == 2 {
			return a[len(name):], nil
		}
		if *i+1 >= len(args) {
			return "", fmt.Errorf("%s needs a value", name)
		}
		*i++
		return args[*i], nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !strings.HasPrefix(a, "-") || a == "-":
			o.Inputs = append(o.Inputs, a)
		case a == "-o" || strings.HasPrefix(a, "-o") && !strings.HasPrefix(a, "-ok"):
			v, err := value(&i, "-o")
			if err != nil {
				return nil, err
			}
			o.Output = v
		case a == "--device-ptx" || strings.HasPrefix(a, "--device-ptx="):
			v, err := value(&i, "--device-ptx")
			if err != nil {
				return nil, err
			}
			o.DevicePTX = append(o.DevicePTX, v)
		case a == "--output-file":
			v, err := value(&i, "--output-file")
			if err != nil {
				return nil, err
			}
			o.Output = v
		case a == "-O" || len(a) == 3 && strings.HasPrefix(a, "-O"):
			o.OptLevel = a
		case a == "-arch" || strings.HasPrefix(a, "-arch=") || a == "--gpu-architecture" || strings.HasPrefix(a, "--gpu-architecture="):
			name := "-arch"
			if strings.HasPrefix(a, "--") {
				name = "--gpu-architecture"
			}
			v, err := value(&i, name)
			if err != nil {
				return nil, err
			}
			sm, err := smName(v)
			if err != nil {
				return nil, err
			}
			o.Arch = sm
		case a == "-gencode" || strings.HasPrefix(a, "-gencode=") || a == "--generate-code" || strings.HasPrefix(a, "--generate-code="):
			name := "-gencode"
			if strings.HasPrefix(a, "--") {
				name = "--generate-code"
			}
			v, err := value(&i, name)
			if err != nil {
				return nil, err
			}
			for _, part := range strings.Split(v, ",") {
				if c, ok := strings.CutPrefix(part, "code="); ok {
					if sm, err := smName(strings.Trim(c, "[]")); err == nil {
						o.Arch = sm
					}
				}
			}
		case a == "-code" || strings.HasPrefix(a, "-code="):
			if _, err := value(&i, "-code"); err != nil {
				return nil, err
			}
		case strings.HasPrefix(a, "-I"):
			v, err := value(&i, "-I")
			if err != nil {
				return nil, err
			}
			o.Includes = append(o.Includes, v)
		case strings.HasPrefix(a, "-D") || strings.HasPrefix(a, "-U"):
			v, err := value(&i, a[:2])
			if err != nil {
				return nil, err
			}
			o.Defines = append(o.Defines, a[:2]+v)
		case strings.HasPrefix(a, "-std=") || strings.HasPrefix(a, "--std="):
			o.Std = "-std=" + a[strings.Index(a, "=")+1:]
		case a == "-std" || a == "--std":
			v, err := value(&i, a)
			if err != nil {
				return nil, err
			}
			o.Std = "-std=" + v
		case a == "-rdc=true" || a == "--relocatable-device-code=true" || a == "-dc":
			o.RDC = true
			if a == "-dc" {
				o.CompileOnly = true
			}
		case a == "-dlink" || a == "--device-link":
			o.DeviceLink = true
		case a == "-rdc=false" || a == "--relocatable-device-code=false":
			o.RDC = false
		case a == "-lineinfo" || a == "--generate-line-info":
			o.LineInfo = true
		case a == "-G" || a == "--device-debug":
			o.Debug = true
		case a == "-ptx" || a == "--ptx" || a == "-fatbin" || a == "--fatbin" || a == "-cubin" || a == "--cubin":
			o.DeviceOnly = strings.TrimLeft(a, "-")
		case a == "-c" || a == "--compile":
			o.CompileOnly = true
		case a == "-x" || a == "--x":
			v, err := value(&i, a)
			if err != nil {
				return nil, err
			}
			if v != "cu" && v != "cuda" {
				return nil, fmt.Errorf("-x %s: warpsim cc knows only -x cu", v)
			}
			o.ForceCU = true
		case a == "--use_fast_math" || a == "-use_fast_math":
			o.FastMath = true
		case a == "--fmad=false" || a == "-fmad=false":
			o.NoFMAD = true
		case a == "--ftz=true" || a == "-ftz=true":
			o.FTZ = true
		case a == "-maxrregcount" || a == "--maxrregcount" || strings.HasPrefix(a, "-maxrregcount=") || strings.HasPrefix(a, "--maxrregcount="):
			name := strings.SplitN(a, "=", 2)[0]
			v, err := value(&i, name)
			if err != nil {
				return nil, err
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("%s %s: expected a register count", name, v)
			}
			o.MaxRegCount = n
		case strings.HasPrefix(a, "-diag-suppress=") || strings.HasPrefix(a, "--diag-suppress=") ||
			strings.HasPrefix(a, "-diag-warn=") || strings.HasPrefix(a, "--diag-warn=") || strings.HasPrefix(a, "-Xcudafe=") ||
			strings.HasPrefix(a, "-Werror=") || strings.HasPrefix(a, "--Werror="):
			o.Warnings = append(o.Warnings, a)
		case a == "-Xcompiler" || strings.HasPrefix(a, "-Xcompiler=") || a == "--compiler-options" || strings.HasPrefix(a, "--compiler-options="):
			name := "-Xcompiler"
			if strings.HasPrefix(a, "--") {
				name = "--compiler-options"
			}
			v, err := value(&i, name)
			if err != nil {
				return nil, err
			}
			o.HostFlags = append(o.HostFlags, strings.Split(v, ",")...)
		case a == "-Xlinker" || strings.HasPrefix(a, "-Xlinker=") || a == "--linker-options":
			name := "-Xlinker"
			if strings.HasPrefix(a, "--") {
				name = "--linker-options"
			}
			v, err := value(&i, name)
			if err != nil {
				return nil, err
			}
			for _, f := range strings.Split(v, ",") {
				o.LinkFlags = append(o.LinkFlags, "-Wl,"+f)
			}
		case ignored[a]:
			o.Warnings = append(o.Warnings, a)
		case ignoredWithValue[a]:
			if i+1 < len(args) {
				i++
			}
			o.Warnings = append(o.Warnings, a)
		case strings.HasPrefix(a, "-Xptxas=") || strings.HasPrefix(a, "--ptxas-options=") || strings.HasPrefix(a, "-ccbin="):
			o.Warnings = append(o.Warnings, a)
		case strings.HasPrefix(a, "-l") || strings.HasPrefix(a, "-L"):
			if a == "-l" || a == "-L" {
				v, err := value(&i, a)
				if err != nil {
					return nil, err
				}
				a += v
			}
			o.LinkFlags = append(o.LinkFlags, a)
		case strings.HasPrefix(a, "-W") || strings.HasPrefix(a, "-f") || a == "-g" || a == "-pthread" || a == "-w" ||
			strings.HasPrefix(a, "-march=") || strings.HasPrefix(a, "-mtune="):
			o.HostFlags = append(o.HostFlags, a)
		default:
			return nil, fmt.Errorf("unknown flag %s: warpsim cc accepts nvcc's -o, -O*, -arch=sm_XX, -gencode, -I, -D, -U, -std=, -rdc=true, -dc, -dlink, -c, -ptx, -fatbin, -cubin, -x cu, -lineinfo, -G, -g, --use_fast_math, --fmad=false, --ftz=true, -maxrregcount, -Xcompiler, -Xlinker, -l, -L, and clang's -W…/-f… (passed to the host compiler)", a)
		}
	}
	if len(o.Inputs) == 0 {
		return nil, fmt.Errorf("no input files")
	}
	if o.CompileOnly && o.Output != "" && len(o.Inputs) > 1 {
		return nil, fmt.Errorf("-o with -c takes one input, not %d", len(o.Inputs))
	}
	return o, nil
}

// smName accepts sm_90, compute_90, sm_90a, 90; native, all and
// all-major (nvcc's: the installed GPU, every arch) are the simulated
// H100's sm_90.
func smName(v string) (string, error) {
	if v == "native" || v == "all" || v == "all-major" {
		return "sm_90", nil
	}
	s := strings.TrimSuffix(strings.TrimSuffix(v, "a"), "f")
	for _, p := range []string{"sm_", "compute_", "lto_"} {
		s = strings.TrimPrefix(s, p)
	}
	if len(s) < 2 || strings.Trim(s, "0123456789") != "" {
		return "", fmt.Errorf("-arch %s: expected sm_XX", v)
	}
	return "sm_" + s, nil
}

// kind is how an input is compiled.
type kind int

const (
	kindCUDA kind = iota
	kindCXX
	kindC
	kindObject
)

func inputKind(path string, forceCU bool) (kind, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".cu":
		return kindCUDA, nil
	case ".cpp", ".cc", ".cxx", ".c++":
		if forceCU {
			return kindCUDA, nil
		}
		return kindCXX, nil
	case ".c":
		if forceCU {
			return kindCUDA, nil
		}
		return kindC, nil
	case ".o", ".a", ".so":
		return kindObject, nil
	}
	return 0, fmt.Errorf("%s: unknown input kind (expected .cu, .cpp, .c, .o or .a)", path)
}
