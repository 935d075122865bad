package ir

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// TestCheckCorpus runs Check over every valid PTX file in the repository —
// what nvcc and clang emitted for the parser's corpus, the conformance
// suite, the lessons and the CLI's and launch files' test modules — and
// requires no error: the checks must accept everything real compilers emit.
func TestCheckCorpus(t *testing.T) {
	var files []string
	for _, glob := range []string{
		"../../ptx/testdata/clang/*.ptx", "../../ptx/testdata/nvcc/*.ptx", "../../ptx/testdata/hand/*.ptx",
		"../../testdata/conformance/*/*.ptx", "../../examples/lessons/*.ptx",
		"../../cmd/warpsim/testdata/*/*.ptx", "../../launchfile/testdata/*.ptx",
	} {
		m, _ := filepath.Glob(glob)
		for _, f := range m {
			if b := filepath.Base(f); b != "badptx.ptx" && b != "badtypes.ptx" { // the CLI's bad-input cases
				files = append(files, f)
			}
		}
	}
	if len(files) < 40 {
		t.Fatalf("found %d corpus files, expected at least 40", len(files))
	}
	for _, f := range files {
		t.Run(strings.TrimPrefix(f, "../../"), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m, err := ptx.Parse(filepath.Base(f), src)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			for _, e := range Check(m) {
				t.Errorf("%v", e)
			}
		})
	}
}

// checkErrorComment marks an expected error in testdata/check, go/parser
// style: /* ERROR "rx" */ expects an error matching rx at the start of the
// token just before the comment (so the comment follows the offending
// operand or directive); /* ERROR AT 1:1 "rx" */ gives the line and column.
var checkErrorComment = regexp.MustCompile(`/\* ERROR (?:AT (\d+):(\d+) )?"((?:[^"\\]|\\.)*)" \*/`)

// tokenBefore is the 1-based line and column of the token that ends
// before offset off: a run of name characters, or one other character.
func tokenBefore(src []byte, off int) (line, col int) {
	i := off
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n') {
		i--
	}
	isName := func(c byte) bool {
		return c == '%' || c == '.' || c == '_' || c == '$' || c == '!' ||
			(c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
	}
	if i > 0 && isName(src[i-1]) {
		for i > 0 && isName(src[i-1]) {
			i--
		}
	} else if i > 0 {
		i--
	}
	line = 1 + strings.Count(string(src[:i]), "\n")
	col = i - (strings.LastIndexByte(string(src[:i]), '\n') + 1) + 1
	return line, col
}

// TestCheckErrors checks testdata/check/*.ptx: every error Check reports
// must be expected by an ERROR comment at its line and column, and every
// comment must be matched.
func TestCheckErrors(t *testing.T) {
	files, _ := filepath.Glob("testdata/check/*.ptx")
	if len(files) == 0 {
		t.Fatal("no check test files")
	}
	total := 0
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Base(file)
			type expect struct {
				line, col int
				rx        *regexp.Regexp
				matched   bool
			}
			var want []*expect
			for _, m := range checkErrorComment.FindAllSubmatchIndex(src, -1) {
				e := &expect{}
				if m[2] >= 0 {
					e.line, e.col = atoiT(t, string(src[m[2]:m[3]])), atoiT(t, string(src[m[4]:m[5]]))
				} else {
					e.line, e.col = tokenBefore(src, m[0])
				}
				e.rx = regexp.MustCompile(strings.ReplaceAll(string(src[m[6]:m[7]]), `\"`, `"`))
				want = append(want, e)
			}
			total += len(want)
			if len(want) > maxCheckErrors {
				t.Fatalf("%d expected errors; Check stops at %d", len(want), maxCheckErrors)
			}
			m, err := ptx.Parse(name, src)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			for _, e := range Check(m) {
				ok := false
				for _, w := range want {
					if !w.matched && w.line == e.Pos.Line && w.col == e.Pos.Column && w.rx.MatchString(e.Msg) {
						w.matched, ok = true, true
						break
					}
				}
				if !ok {
					t.Errorf("unexpected error %s", e)
				}
			}
			for _, w := range want {
				if !w.matched {
					t.Errorf("%s:%d:%d: missing error matching %q", name, w.line, w.col, w.rx)
				}
			}
		})
	}
	if total < 20 {
		t.Errorf("only %d error cases", total)
	}
}

func atoiT(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// ptxasLine is "line N;" in a ptxas message.
var ptxasLine = regexp.MustCompile(`line (\d+);`)

// TestCheckAgainstPtxas compares Check with what ptxas of CUDA 13.0 said
// about the same input (testdata/check/ptxas/ptxas.txt, made by record.sh
// there on the team's H100 machine): every case line of the types_*.ptx
// files, each whole directive file, and modules declaring each .version and
// .target pair. Check must reject exactly what ptxas rejected, on the line
// ptxas named (for directives, within a line: ptxas names where it noticed
// the problem, the line after a .version with no .target, or a duplicate
// function's opening brace; Check names the directive).
func TestCheckAgainstPtxas(t *testing.T) {
	data, err := os.ReadFile("testdata/check/ptxas/ptxas.txt")
	if err != nil {
		t.Fatal(err)
	}
	verdicts := map[string][]string{} // name → ptxas's error messages; empty for ok
	var names []string
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, rest, _ := strings.Cut(line, " ")
		if _, seen := verdicts[name]; !seen {
			names = append(names, name)
			verdicts[name] = nil
		}
		if msg, ok := strings.CutPrefix(rest, "error "); ok && !strings.Contains(msg, "Ptx assembly aborted") {
			verdicts[name] = append(verdicts[name], msg)
		}
	}
	if len(names) < 60 {
		t.Fatalf("%d verdicts in ptxas.txt, expected at least 60", len(names))
	}
	checkFile := func(t *testing.T, file string, src []byte) ptx.ErrorList {
		t.Helper()
		m, err := ptx.Parse(file, src)
		if err != nil {
			t.Fatalf("parse: %v", err)
		}
		return Check(m)
	}
	onLine := func(errs ptx.ErrorList, line int) []string {
		var out []string
		for _, e := range errs {
			if e.Pos.Line == line {
				out = append(out, e.Msg)
			}
		}
		return out
	}
	for _, name := range names {
		msgs := verdicts[name]
		t.Run(name, func(t *testing.T) {
			switch {
			case !strings.HasSuffix(name, ".ptx") && !strings.Contains(name, ":"): // version_X.Y, target_T_X.Y
				target, version := "sm_90", strings.TrimPrefix(name, "version_")
				if strings.HasPrefix(name, "target_") {
					parts := strings.Split(name, "_") // target, sm, 90[a], X.Y
					target, version = parts[1]+"_"+parts[2], parts[3]
				}
				src := ".version " + version + "\n.target " + target + "\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n"
				errs := checkFile(t, "v.ptx", []byte(src))
				for _, kind := range []struct{ ptxas, ours string }{
					{"Unsupported .version", "unknown PTX ISA version"},
					{"does not support .target", "does not support .target"},
				} {
					ptxasSays := strings.Contains(strings.Join(msgs, "\n"), kind.ptxas)
					weSay := strings.Contains(errs.Error(), kind.ours) && len(errs) > 0
					if ptxasSays != weSay {
						t.Errorf(".version %s .target %s: ptxas %q, Check %v", version, target, msgs, errs)
					}
				}
			case strings.Contains(name, ":"): // one case line of a types_*.ptx file
				file, ln, _ := strings.Cut(name, ":")
				line := atoiT(t, ln)
				src, err := os.ReadFile(filepath.Join("testdata/check", file))
				if err != nil {
					t.Fatal(err)
				}
				got := onLine(checkFile(t, file, src), line)
				if (len(msgs) > 0) != (len(got) > 0) {
					t.Errorf("%s: ptxas says %q; Check says %q", name, msgs, got)
				}
			default: // a whole file: ptxas names the line where it noticed, ours the directive's (±1 line)
				src, err := os.ReadFile(filepath.Join("testdata/check", name))
				if err != nil {
					t.Fatal(err)
				}
				errs := checkFile(t, name, src)
				if len(msgs) == 0 && len(errs) > 0 {
					t.Errorf("ptxas accepts it; Check says %v", errs)
				}
				if len(msgs) > 0 && len(errs) == 0 {
					t.Errorf("ptxas says %q; Check accepts it", msgs)
				}
				for _, msg := range msgs {
					if m := ptxasLine.FindStringSubmatch(msg); m != nil {
						n := atoiT(t, m[1])
						if len(onLine(errs, n)) == 0 && len(onLine(errs, n-1)) == 0 && len(onLine(errs, n+1)) == 0 {
							t.Errorf("ptxas: %s; Check has no error on that line: %v", msg, errs)
						}
					}
				}
			}
		})
	}
}
