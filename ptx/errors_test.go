package ptx

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Error tests in the style of go/parser: a comment /* ERROR "rx" */ expects
// an error matching rx at the token just before the comment;
// /* ERROR AFTER "rx" */ expects it at the first character after the
// comment (or at the end of the file).
var errorComment = regexp.MustCompile(`/\* ERROR (AFTER )?"((?:[^"\\]|\\.)*)" \*/`)

type expectedError struct {
	pos Position
	rx  *regexp.Regexp
}

func expectedErrors(t *testing.T, name string, src []byte) []expectedError {
	// Token start offsets, comments excluded.
	var starts []int
	s := scanner{src: src}
	for {
		tok, off, _ := s.next()
		if tok == tEOF {
			break
		}
		starts = append(starts, off)
	}
	f := NewFile(name, src)
	var out []expectedError
	for _, m := range errorComment.FindAllSubmatchIndex(src, -1) {
		msg := strings.ReplaceAll(string(src[m[4]:m[5]]), `\"`, `"`)
		rx, err := regexp.Compile(msg)
		if err != nil {
			t.Fatalf("%s: bad ERROR regexp: %v", name, err)
		}
		off := -1
		if m[2] >= 0 { // AFTER
			off = m[1]
			for off < len(src) && (src[off] == ' ' || src[off] == '\t' || src[off] == '\n') {
				off++
			}
		} else {
			for _, st := range starts {
				if st < m[0] {
					off = st
				}
			}
		}
		if off < 0 {
			t.Fatalf("%s: ERROR comment at offset %d has no token before it", name, m[0])
		}
		out = append(out, expectedError{f.Position(f.Pos(off)), rx})
	}
	return out
}

func TestErrors(t *testing.T) {
	files, _ := filepath.Glob("testdata/errors/*.ptx")
	if len(files) == 0 {
		t.Fatal("no error test files")
	}
	total := 0
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Base(file)
			want := expectedErrors(t, name, src)
			total += len(want)
			if len(want) >= maxErrors {
				t.Fatalf("%d expected errors; the parser stops at %d", len(want), maxErrors)
			}
			_, err = Parse(name, src)
			var list ErrorList
			if err != nil && !errors.As(err, &list) {
				t.Fatalf("error is %T, not ErrorList", err)
			}
			matched := make([]bool, len(want))
			for _, e := range list {
				ok := false
				for i, w := range want {
					if !matched[i] && w.pos == e.Pos && w.rx.MatchString(e.Msg) {
						matched[i], ok = true, true
						break
					}
				}
				if !ok {
					t.Errorf("unexpected error %s", e)
				}
			}
			for i, w := range want {
				if !matched[i] {
					t.Errorf("%s: missing error matching %q", w.pos, w.rx)
				}
			}
		})
	}
	if total < 20 {
		t.Errorf("only %d error cases", total)
	}
}
