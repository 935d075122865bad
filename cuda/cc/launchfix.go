package cc

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// JoinLaunchBrackets rewrites kernel launches spelled with spaces inside
// their brackets, `k<< <grid, block >> >(…)` (an editor's auto-format that
// nvcc accepts and clang does not), to `k<<<grid, block>>>(…)`. Only the
// bracket characters move: the whitespace and comments between them go
// after the joined token, so every line keeps its number. Strings, character
// literals and comments are never touched, and `>> >` outside a launch (a
// template's closing brackets) is left alone. It reports whether anything
// changed.
func JoinLaunchBrackets(src []byte) ([]byte, bool) {
	out := bytes.Clone(src)
	changed := false
	s := scanner{src: src}
	for s.i < len(src) {
		if s.skipLiteralOrComment() {
			continue
		}
		if src[s.i] != '<' {
			s.i++
			continue
		}
		open, ok := s.triple(s.i, '<')
		if !ok {
			s.i++
			continue
		}
		// An operator<< … overload or a shift of a shift is never followed
		// by a third '<'; a third one makes this a launch configuration.
		closeAt, closeEnd, found := s.findClose(open[2] + 1)
		if !found {
			s.i = open[2] + 1
			continue
		}
		if join(out, open) {
			changed = true
		}
		if join(out, closeAt) {
			changed = true
		}
		s.i = closeEnd
	}
	return out, changed
}

// scanner walks C++ source, skipping literals and comments.
type scanner struct {
	src []byte
	i   int
}

// skipLiteralOrComment advances past a comment, string or character
// literal starting at s.i, reporting whether there was one.
func (s *scanner) skipLiteralOrComment() bool {
	src, i := s.src, s.i
	switch {
	case strings.HasPrefix(string(src[i:min(i+2, len(src))]), "//"):
		for i < len(src) && src[i] != '\n' {
			if src[i] == '\\' && i+1 < len(src) {
				i++
			}
			i++
		}
	case strings.HasPrefix(string(src[i:min(i+2, len(src))]), "/*"):
		end := bytes.Index(src[i+2:], []byte("*/"))
		if end < 0 {
			i = len(src)
		} else {
			i += 2 + end + 2
		}
	case src[i] == 'R' && i+1 < len(src) && src[i+1] == '"' && (i == 0 || !isIdent(src[i-1])):
		// A raw string R"delim( … )delim".
		p := bytes.IndexByte(src[i+2:], '(')
		if p < 0 {
			return false
		}
		delim := ")" + string(src[i+2:i+2+p]) + "\""
		end := bytes.Index(src[i+2+p:], []byte(delim))
		if end < 0 {
			i = len(src)
		} else {
			i += 2 + p + end + len(delim)
		}
	case src[i] == '"' || src[i] == '\'' && (i == 0 || !isHexDigitSeparator(src, i)):
		q := src[i]
		i++
		for i < len(src) && src[i] != q && src[i] != '\n' {
			if src[i] == '\\' {
				i++
			}
			i++
		}
		i++
	default:
		return false
	}
	s.i = min(i, len(s.src))
	return true
}

// isHexDigitSeparator reports whether the quote at i is C++14's digit
// separator (1'000'000), not a character literal.
func isHexDigitSeparator(src []byte, i int) bool {
	return i > 0 && i+1 < len(src) && isHexDigit(src[i-1]) && isHexDigit(src[i+1]) && inNumber(src, i)
}

func inNumber(src []byte, i int) bool {
	j := i - 1
	for j >= 0 && (isIdent(src[j]) || src[j] == '\'') {
		j--
	}
	return src[j+1] >= '0' && src[j+1] <= '9'
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isIdent(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// triple finds three c characters from i on, separated only by whitespace
// and comments, and returns their offsets.
func (s *scanner) triple(i int, c byte) ([3]int, bool) {
	var at [3]int
	for n := 0; n < 3; n++ {
		if n > 0 {
			i = s.skipSpace(i)
		}
		if i >= len(s.src) || s.src[i] != c {
			return at, false
		}
		at[n] = i
		i++
	}
	// "<<<=" or ">>>=" is no launch bracket.
	if i < len(s.src) && s.src[i] == '=' {
		return at, false
	}
	return at, true
}

// skipSpace skips whitespace and comments from i.
func (s *scanner) skipSpace(i int) int {
	for i < len(s.src) {
		switch {
		case s.src[i] == ' ' || s.src[i] == '\t' || s.src[i] == '\n' || s.src[i] == '\r' || s.src[i] == '\f' || s.src[i] == '\v':
			i++
		case i+1 < len(s.src) && s.src[i] == '/' && (s.src[i+1] == '/' || s.src[i+1] == '*'):
			save := s.i
			s.i = i
			s.skipLiteralOrComment()
			i, s.i = s.i, save
		default:
			return i
		}
	}
	return i
}

// findClose finds the launch configuration's closing `>>>` from i on, at
// bracket depth 0; it gives up at a ';' at depth 0 or an unbalanced
// closing bracket (the statement ended before any launch closed).
func (s *scanner) findClose(i int) ([3]int, int, bool) {
	save := s.i
	defer func() { s.i = save }()
	depth := 0
	s.i = i
	for s.i < len(s.src) {
		if s.skipLiteralOrComment() {
			continue
		}
		c := s.src[s.i]
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth < 0 {
				return [3]int{}, 0, false
			}
		case ';':
			if depth == 0 {
				return [3]int{}, 0, false
			}
		case '>':
			if depth == 0 {
				if at, ok := s.triple(s.i, '>'); ok {
					return at, at[2] + 1, true
				}
			}
		}
		s.i++
	}
	return [3]int{}, 0, false
}

// join moves the three bracket characters at 'at' together in out, the
// characters between them after the third; it reports whether any moved.
func join(out []byte, at [3]int) bool {
	if at[2] == at[0]+2 {
		return false
	}
	c := out[at[0]]
	var between []byte
	for i := at[0] + 1; i < at[2]; i++ {
		if i != at[1] {
			between = append(between, out[i])
		}
	}
	out[at[0]], out[at[0]+1], out[at[0]+2] = c, c, c
	copy(out[at[0]+3:], between)
	return true
}

// prepareSource returns the path clang compiles for the CUDA file src: src
// itself, or, when its launches need JoinLaunchBrackets, a rewritten copy in
// dir that names src in a #line directive (so diagnostics, __FILE__ and the
// line table keep pointing at src) and the flags that keep src's directory
// first for its quoted includes.
func prepareSource(src, dir string) (string, []string, error) {
	b, err := os.ReadFile(src)
	if err != nil {
		return "", nil, err
	}
	fixed, changed := JoinLaunchBrackets(b)
	if !changed {
		return src, nil, nil
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return "", nil, err
	}
	f, err := os.CreateTemp(dir, "launch-*-"+filepath.Base(src))
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	if _, err := fmt.Fprintf(f, "#line 1 %s\n", strconv.Quote(src)); err != nil {
		return "", nil, err
	}
	if _, err := f.Write(fixed); err != nil {
		return "", nil, err
	}
	return f.Name(), []string{"-iquote", filepath.Dir(abs)}, f.Close()
}
