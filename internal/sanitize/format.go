package sanitize

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/ianlancetaylor/demangle"

	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
)

// barWarpOp is bar.warp.sync (__syncwarp), the one warp-level operation
// that orders memory.
const barWarpOp = ir.OpBarWarp

// instBytes is the offset of one PTX instruction in `KERNEL+0xOFF`: SASS
// instructions are 16 bytes, and warpsim counts PTX instructions.
const instBytes = 16

// Signature is a function's name as compute-sanitizer prints it: the
// demangled signature with "const T *" and "T *" spelled its way
// ("readBefore(const int *, int *)"); an unmangled name stays as it is.
func Signature(mangled string) string {
	s, err := demangle.ToString(mangled)
	if err != nil {
		return mangled
	}
	open := strings.IndexByte(s, '(')
	if open < 0 || !strings.HasSuffix(s, ")") {
		return s
	}
	params := splitParams(s[open+1 : len(s)-1])
	for i, p := range params {
		params[i] = spellParam(p)
	}
	return spellTemplateLiterals(s[:open]) + "(" + strings.Join(params, ", ") + ")"
}

// templateLiteralRE is an integer or bool template argument as the
// demangler writes it ("<16ul>", "<true>").
var templateLiteralRE = regexp.MustCompile(`([<,] ?)(?:(\d+)(ull|ul|ll|u|l)|(true|false))([,>])`)

// literalTypes are the types of the demangler's integer literal suffixes.
var literalTypes = map[string]string{"u": "unsigned int", "l": "long", "ul": "unsigned long", "ll": "long long", "ull": "unsigned long long"}

// spellTemplateLiterals writes a name's integer and bool template
// arguments as compute-sanitizer does: "(unsigned long)16" for the
// demangler's "16ul", "(bool)1" for "true" (probe5: cp_async_tail's
// "ImplementationChooser<(bool)1>::CpAsyncChooser<(unsigned long)16,
// (unsigned long)16>", pipeline_no_wait's "__cp_async_shared_global<(unsigned
// long)16>").
func spellTemplateLiterals(name string) string {
	if !strings.Contains(name, "<") {
		return name
	}
	for { // an argument's closing ',' or '>' opens the next: repeat
		out := templateLiteralRE.ReplaceAllStringFunc(name, func(m string) string {
			g := templateLiteralRE.FindStringSubmatch(m)
			lit := "(bool)0"
			switch {
			case g[2] != "":
				lit = "(" + literalTypes[g[3]] + ")" + g[2]
			case g[4] == "true":
				lit = "(bool)1"
			}
			return g[1] + lit + g[5]
		})
		if out == name {
			return out
		}
		name = out
	}
}

// splitParams splits a parameter list at its top-level commas.
func splitParams(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(', '[':
			depth++
		case '>', ')', ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// spellParam turns "int const*" into "const int *", "unsigned int
// volatile*" into "volatile unsigned int *" (as compute-sanitizer printed
// them: testdata/hostile/memcheck_h100.txt) and "int**" into "int **".
func spellParam(p string) string {
	stars := strings.TrimLeft(p[strings.LastIndexFunc(p, func(r rune) bool { return r != '*' })+1:], " ")
	base := strings.TrimSpace(strings.TrimSuffix(p, stars))
	if stars == "" {
		return p
	}
	var quals []string
	for {
		b, c := strings.CutSuffix(base, " const")
		if !c {
			if b, c = strings.CutSuffix(base, " volatile"); c {
				quals = append([]string{"volatile"}, quals...)
			}
		} else {
			quals = append([]string{"const"}, quals...)
		}
		if !c {
			break
		}
		base = b
	}
	if len(quals) > 0 {
		base = strings.Join(quals, " ") + " " + base
	}
	return base + " " + stars
}

// where is the `at FUNC+0xOFF in FILE:LINE` line of a site.
//
// An access inside a device function the kernel calls is named as the
// H100's compute-sanitizer names it, by the copy ptxas made of the
// function in the kernel's code: "at [clone maxPath(const int *, int *,
// int)] walk(const int *, int, int, int, int *)+0x370"
// (testdata/sanitize/probe5, recursive_stack; whole-program compilation,
// -rdc was not recorded).
func where(site *engine.CheckSite) string {
	if site.Func.InlinedFunc(site.PC) != "" {
		return whereAt(site.Func, site.PC, site.Line, site.Prog.Filename)
	}
	if site.Kernel != nil && site.Func != site.Kernel && !site.Func.Entry {
		return fmt.Sprintf("at [clone %s] %s+%#x in %s", Signature(site.Kernel.Name), Signature(site.Func.Name),
			site.PC*instBytes, fileLine(site.Line, site.Prog.Filename))
	}
	return whereAt(site.Func, site.PC, site.Line, site.Prog.Filename)
}

// An instruction of a function the compiler inlined is named by that
// function, with the offset in the code it was inlined into, as
// compute-sanitizer names it from the line table's inlining records:
// "void cuda::__4::__cp_async_shared_global<(unsigned long)16>(char *,
// const char *)+0xe0 in cp_async_shared_global.h:60" (probe5,
// pipeline_no_wait). The PTX must carry the records: nvcc's .loc
// function_name/inlined_at does, and warpsim cc writes them from clang's
// DWARF (cuda/cc/inlines.go).
func whereAt(fn *ir.Func, pc int, line ir.LineInfo, ptxFile string) string {
	name := fn.Name
	if in := fn.InlinedFunc(pc); in != "" {
		name = in
	}
	return fmt.Sprintf("at %s+%#x in %s", Signature(name), pc*instBytes, fileLine(line, ptxFile))
}

// siteFrames are the `Device Frame:` lines of the instruction at site:
// the callers of its inlined code (deviceFrames), then each call of the
// call stack, innermost first, named by the code it stands in as where
// names an access there, at the call's own offset (as compute-sanitizer
// did on the H100: probe5's recursive_stack, "Device Frame: [clone
// maxPath(const int *, int *, int)] walk(const int *, int, int, int, int
// *)+0x1110 in recursive_stack.cu:15", its CALL.REL.NOINC at 0x1110), with
// the callers of the inlined code a call lies in after it.
func siteFrames(site *engine.CheckSite) []string {
	out := deviceFrames(site.Func, site.Kernel, site.PC)
	fs := site.Frames
	for i := len(fs) - 1; i >= 1; i-- {
		fn, pc := fs[i-1].Func, fs[i].CallPC
		if fn == nil || pc < 0 {
			break
		}
		name := Signature(fn.Name)
		if in := fn.InlinedFunc(pc); in != "" {
			name = Signature(in)
		} else if fn != site.Kernel && !fn.Entry && site.Kernel != nil {
			name = "[clone " + Signature(site.Kernel.Name) + "] " + name
		}
		var line ir.LineInfo
		if pc < len(fn.Lines) {
			line = fn.Lines[pc]
		}
		out = append(out, fmt.Sprintf("        Device Frame: %s+%#x in %s", name, pc*instBytes, fileLine(line, site.Prog.Filename)))
		out = append(out, deviceFrames(fn, site.Kernel, pc)...)
	}
	return out
}

// deviceFrames are the `Device Frame:` lines memcheck, initcheck and
// synccheck add to a finding in inlined code (after its other lines): one
// per caller of the inlined function, innermost first, each named by the
// caller, with the code offset where the call's inlined code begins and
// the call's file and line (the H100's probe5 cp_async_tail: four frames,
// __pipeline_memcpy_async's chain down to the kernel's line 12). The
// outermost caller, fn itself, is named as where names it (kernel is the
// kernel running fn; nil or fn for the kernel's own code).
func deviceFrames(fn, kernel *ir.Func, pc int) []string {
	frames := fn.InlineFrames(pc)
	if len(frames) == 0 {
		return nil
	}
	out := make([]string, len(frames))
	for i, fr := range frames {
		name := Signature(fr.Func)
		if fr.Func == "" {
			name = Signature(fn.Name)
			if kernel != nil && kernel != fn && !fn.Entry {
				name = "[clone " + Signature(kernel.Name) + "] " + name
			}
		}
		file := "?"
		if fr.File != "" {
			file = path.Base(fr.File)
		}
		out[i] = fmt.Sprintf("        Device Frame: %s+%#x in %s:%d", name, fr.PC*instBytes, file, fr.Line)
	}
	return out
}

// fileLine is the .cu file and line from .loc, or the PTX line when the
// instruction has none.
func fileLine(line ir.LineInfo, ptxFile string) string {
	if line.SrcLine > 0 && line.SrcFile != "" {
		return fmt.Sprintf("%s:%d", path.Base(line.SrcFile), line.SrcLine)
	}
	return fmt.Sprintf("%s:%d", path.Base(ptxFile), line.PTXLine)
}

// byThread is the `by thread (x,y,z) in block (x,y,z)` line of a lane.
func byThread(site *engine.CheckSite, lane int) string {
	return fmt.Sprintf("by thread %s in block %s", tidOf(site, lane), dim(site.Block))
}

func tidOf(site *engine.CheckSite, lane int) string {
	return fmt.Sprintf("(%d,%d,%d)", site.Tid[0][lane], site.Tid[1][lane], site.Tid[2][lane])
}

func dim(d [3]uint32) string { return fmt.Sprintf("(%d,%d,%d)", d[0], d[1], d[2]) }

// spaceName is the space as compute-sanitizer names it in reports.
func spaceName(sp uint8) string {
	switch sp {
	case engine.SpaceShared:
		return "__shared__"
	case engine.SpaceRemoteShared:
		return "__remote_shared__"
	case engine.SpaceLocal:
		return "__local__"
	case engine.SpaceConst:
		return "__const__"
	}
	return "__global__"
}

func opWord(op uint8) string {
	switch op {
	case engine.CheckStore:
		return "write"
	case engine.CheckAtomic:
		return "atomic"
	}
	return "read"
}
