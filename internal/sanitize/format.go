package sanitize

import (
	"fmt"
	"path"
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
	return s[:open] + "(" + strings.Join(params, ", ") + ")"
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
	if site.Kernel != nil && site.Func != site.Kernel && !site.Func.Entry {
		return fmt.Sprintf("at [clone %s] %s+%#x in %s", Signature(site.Kernel.Name), Signature(site.Func.Name),
			site.PC*instBytes, fileLine(site.Line, site.Prog.Filename))
	}
	return whereAt(site.Func, site.PC, site.Line, site.Prog.Filename)
}

func whereAt(fn *ir.Func, pc int, line ir.LineInfo, ptxFile string) string {
	return fmt.Sprintf("at %s+%#x in %s", Signature(fn.Name), pc*instBytes, fileLine(line, ptxFile))
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
