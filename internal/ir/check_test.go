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
			if filepath.Base(f) != "badptx.ptx" { // the CLI's syntax-error case
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
