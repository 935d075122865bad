package cc

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// clang-22 accepts __cluster_dims__ (the cluster_dims attribute) on a
// kernel but, for NVPTX, emits nothing for it. nvcc writes
// `.explicitcluster` and `.reqnctapercluster X, Y, Z` after the kernel's
// parameters; warpsim cc does the same (docs/clusters.md). It finds the
// attributes in the preprocessed source, so that a kernel declared through
// a macro, or in a header, or with sizes that are macros or constant
// arithmetic, gets them too: when the source (or a file it includes with
// #include "…") mentions __cluster_dims__, clang preprocesses it once more
// with __WARPSIM_CLUSTER_SCAN__ defined, where warpsim's headers turn the
// attribute into a marker (__warpsim_cluster_dims__(x, y, z)) instead of
// dropping it.

const clusterMarker = "__warpsim_cluster_dims__"

// clusterDim is one kernel's __cluster_dims__.
type clusterDim struct {
	kernel string // the kernel's unqualified name, as written
	dims   [3]int
}

// mentionsClusterDims reports whether src or a file it includes with
// #include "…" (followed from the including file's folder and the -I
// folders) contains __cluster_dims__.
func mentionsClusterDims(src string, includeDirs []string) bool {
	seen := map[string]bool{}
	var visit func(path string, depth int) bool
	visit = func(path string, depth int) bool {
		if seen[path] || depth > 16 {
			return false
		}
		seen[path] = true
		b, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		if bytes.Contains(b, []byte("__cluster_dims__")) {
			return true
		}
		for _, m := range quotedIncludeRE.FindAllSubmatch(b, -1) {
			name := string(m[1])
			for _, dir := range append([]string{filepath.Dir(path)}, includeDirs...) {
				p := filepath.Join(dir, name)
				if _, err := os.Stat(p); err == nil {
					if visit(p, depth+1) {
						return true
					}
					break
				}
			}
		}
		return false
	}
	return visit(src, 0)
}

var quotedIncludeRE = regexp.MustCompile(`(?m)^\s*#\s*include\s*"([^"]+)"`)

// scanClusterDims finds the markers in preprocessed source: each marker's
// sizes (integer constant expressions, missing ones 1) and the kernel it
// belongs to, the identifier before the first parenthesis after it that
// opens no __attribute__.
func scanClusterDims(pre []byte) ([]clusterDim, error) {
	var out []clusterDim
	s := string(pre)
	consts := namedConsts(s)
	for {
		i := strings.Index(s, clusterMarker)
		if i < 0 {
			return out, nil
		}
		s = s[i+len(clusterMarker):]
		args, rest, ok := balanced(s)
		if !ok {
			return nil, fmt.Errorf("__cluster_dims__: unbalanced parentheses")
		}
		s = rest
		name, err := declaredName(rest)
		if err != nil {
			return nil, err
		}
		c := clusterDim{kernel: name, dims: [3]int{1, 1, 1}}
		parts := splitArgs(args)
		if len(parts) > 3 || len(parts) == 0 || strings.TrimSpace(parts[0]) == "" {
			return nil, fmt.Errorf("kernel %s: __cluster_dims__(%s): want one to three sizes", name, args)
		}
		for k, a := range parts {
			v, err := evalConstNamed(a, consts, 0)
			if err != nil || v < 1 {
				return nil, fmt.Errorf("kernel %s: __cluster_dims__(%s): warpsim cc takes sizes that are integer constants (macros, constant arithmetic and const/constexpr integers included), not %q", name, args, strings.TrimSpace(a))
			}
			c.dims[k] = int(v)
		}
		out = append(out, c)
	}
}

// balanced returns what is inside the parenthesis s starts with (after
// spaces) and what follows its closing one.
func balanced(s string) (inside, rest string, ok bool) {
	s = strings.TrimLeft(s, " \t\r\n")
	if !strings.HasPrefix(s, "(") {
		return "", s, false
	}
	depth := 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return s[1:i], s[i+1:], true
			}
		}
	}
	return "", s, false
}

var identRE = regexp.MustCompile(`^[A-Za-z_]\w*`)

// declaredName is the name of the function whose declaration s continues:
// the last identifier (of a qualified name too) before a parenthesis that
// is not an __attribute__'s or __declspec's.
func declaredName(s string) (string, error) {
	last := ""
	for len(s) > 0 {
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" {
			break
		}
		if id := identRE.FindString(s); id != "" {
			s = s[len(id):]
			if id == "__attribute__" || id == "__declspec" || id == "alignas" {
				var ok bool
				if _, s, ok = balanced(s); !ok {
					break
				}
				continue
			}
			last = id
			continue
		}
		switch {
		case strings.HasPrefix(s, "#"): // a line marker of the preprocessor
			_, s, _ = strings.Cut(s, "\n")
		case strings.HasPrefix(s, "("):
			if last == "" {
				return "", fmt.Errorf("__cluster_dims__: no kernel name follows it")
			}
			return last, nil
		case strings.HasPrefix(s, "::"):
			s = s[2:]
		case strings.HasPrefix(s, "*"), strings.HasPrefix(s, "&"):
			s = s[1:]
		case strings.HasPrefix(s, "[["): // a C++ attribute
			end := strings.Index(s, "]]")
			if end < 0 {
				return "", fmt.Errorf("__cluster_dims__: unterminated [[ ]]")
			}
			s = s[end+2:]
		case strings.HasPrefix(s, "<"): // template arguments of the return type
			depth := 0
			i := 0
			for ; i < len(s); i++ {
				if s[i] == '<' {
					depth++
				} else if s[i] == '>' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			s = s[min(i+1, len(s)):]
		default:
			return "", fmt.Errorf("__cluster_dims__: no kernel declaration follows it (at %q)", firstLine(s))
		}
	}
	return "", fmt.Errorf("__cluster_dims__: no kernel declaration follows it")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 40 {
		s = s[:40]
	}
	return s
}

// splitArgs splits a macro argument list at its top-level commas.
func splitArgs(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// constDeclRE matches a namespace- or block-scope integer constant
// declaration as users size clusters with: `constexpr int CSIZE = 4;`,
// `const unsigned kN{2};`, `static constexpr int A = 2, B = A * 2;`.
var constDeclRE = regexp.MustCompile(`\b(?:constexpr|const)\s+(?:static\s+)?(?:(?:unsigned|signed|int|long|short|size_t|u?int(?:8|16|32|64)_t|auto)\s+)+([A-Za-z_]\w*\s*(?:=[^;{}]+|\{[^;{}]+\})(?:,\s*[A-Za-z_]\w*\s*(?:=[^;{},]+|\{[^;{}]+\}))*)\s*;`)

// constInitRE is one declarator of such a declaration.
var constInitRE = regexp.MustCompile(`^\s*([A-Za-z_]\w*)\s*(?:=\s*(.+?)|\{(.+)\})\s*$`)

// namedConsts maps the names of the integer constants declared in the
// preprocessed source to their initializers; a name declared twice with
// different initializers (two scopes) maps to "" and is not resolved.
func namedConsts(s string) map[string]string {
	m := map[string]string{}
	for _, d := range constDeclRE.FindAllStringSubmatch(s, -1) {
		for _, part := range splitArgs(d[1]) {
			p := constInitRE.FindStringSubmatch(part)
			if p == nil {
				continue
			}
			v := strings.TrimSpace(p[2] + p[3])
			if old, ok := m[p[1]]; ok && old != v {
				v = ""
			}
			m[p[1]] = v
		}
	}
	return m
}

// evalConst evaluates an integer constant expression of C's arithmetic
// (literals with or without u/l suffixes, + - * / % << >>, parentheses,
// casts to an integer type are not taken).
func evalConst(s string) (int64, error) { return evalConstNamed(s, nil, 0) }

// evalConstNamed is evalConst where an identifier is one of consts'
// integer constants (evaluated in turn, 8 levels at most).
func evalConstNamed(s string, consts map[string]string, depth int) (int64, error) {
	s = intSuffixRE.ReplaceAllString(strings.TrimSpace(s), "$1")
	e, err := parser.ParseExpr(s)
	if err != nil {
		return 0, err
	}
	var eval func(e ast.Expr) (int64, error)
	eval = func(e ast.Expr) (int64, error) {
		switch e := e.(type) {
		case *ast.BasicLit:
			if e.Kind != token.INT {
				return 0, fmt.Errorf("not an integer: %s", e.Value)
			}
			v, err := strconv.ParseInt(e.Value, 0, 64)
			if err != nil && strings.HasPrefix(e.Value, "0") && len(e.Value) > 1 { // C octal
				v, err = strconv.ParseInt(e.Value[1:], 8, 64)
			}
			return v, err
		case *ast.ParenExpr:
			return eval(e.X)
		case *ast.Ident:
			if v := consts[e.Name]; v != "" && depth < 8 {
				return evalConstNamed(v, consts, depth+1)
			}
		case *ast.UnaryExpr:
			v, err := eval(e.X)
			switch {
			case err != nil:
				return 0, err
			case e.Op == token.SUB:
				return -v, nil
			case e.Op == token.ADD:
				return v, nil
			}
		case *ast.BinaryExpr:
			a, err := eval(e.X)
			if err != nil {
				return 0, err
			}
			b, err := eval(e.Y)
			if err != nil {
				return 0, err
			}
			switch e.Op {
			case token.ADD:
				return a + b, nil
			case token.SUB:
				return a - b, nil
			case token.MUL:
				return a * b, nil
			case token.QUO, token.REM:
				if b == 0 {
					return 0, fmt.Errorf("division by zero")
				}
				if e.Op == token.QUO {
					return a / b, nil
				}
				return a % b, nil
			case token.SHL:
				return a << uint(b&63), nil
			case token.SHR:
				return a >> uint(b&63), nil
			}
		}
		return 0, fmt.Errorf("not an integer constant")
	}
	return eval(e)
}

var intSuffixRE = regexp.MustCompile(`\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b`)

// addClusterDims adds .explicitcluster and .reqnctapercluster to the
// entries in ptx of the kernels dims names: every entry whose name is the
// kernel's (extern "C") or whose mangled name's function is (its template
// instances and namespaced kernels of that name included). An entry that
// has the directives already is left alone.
func addClusterDims(dims []clusterDim, ptx []byte) []byte {
	for _, c := range dims {
		dir := fmt.Sprintf(".explicitcluster\n.reqnctapercluster %d, %d, %d\n", c.dims[0], c.dims[1], c.dims[2])
		for at := 0; ; {
			loc := entryNameRE.FindSubmatchIndex(ptx[at:])
			if loc == nil {
				break
			}
			name := string(ptx[at+loc[2] : at+loc[3]])
			next := at + loc[1]
			if name != c.kernel && mangledFunction(name) != c.kernel {
				at = next
				continue
			}
			body := bytes.Index(ptx[next:], []byte("\n{"))
			if body < 0 {
				break
			}
			if !bytes.Contains(ptx[next:next+body], []byte(".reqnctapercluster")) {
				pos := next + body + 1
				ptx = append(ptx[:pos:pos], append([]byte(dir), ptx[pos:]...)...)
				next = pos + len(dir)
			}
			at = next
		}
	}
	return ptx
}

var entryNameRE = regexp.MustCompile(`\.entry\s+([A-Za-z_$][\w$]*)\s*\(`)

// mangledFunction is the unqualified name of the function an Itanium
// mangled name (_Z…) names: the last source name of its nested name, before
// its template arguments and parameters; "" when name is not mangled.
func mangledFunction(name string) string {
	s, ok := strings.CutPrefix(name, "_Z")
	if !ok {
		return ""
	}
	nested := strings.HasPrefix(s, "N")
	if nested {
		s = strings.TrimLeft(s[1:], "rVK") // cv-qualifiers of a member function
	}
	last := ""
	for len(s) > 0 && s[0] >= '0' && s[0] <= '9' {
		n := 0
		for len(s) > 0 && s[0] >= '0' && s[0] <= '9' {
			n = 10*n + int(s[0]-'0')
			s = s[1:]
		}
		if n > len(s) {
			return ""
		}
		last, s = s[:n], s[n:]
		if !nested {
			break
		}
	}
	return last
}

// clusterDimsOf preprocesses src with the device flags and returns its
// kernels' __cluster_dims__; nil when src does not mention them.
func (d *Driver) clusterDimsOf(o *Options, src, path string, extra []string) ([]clusterDim, error) {
	if !mentionsClusterDims(src, d.includes(o)) {
		return nil, nil
	}
	tmp, err := os.CreateTemp("", "warpsim-cluster-*.ii")
	if err != nil {
		return nil, err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	flags := d.DeviceFlags(o, path, tmp.Name(), true)
	for i, f := range flags {
		if f == "-S" {
			flags[i] = "-E"
		}
	}
	args := append(append(extra, "-D__WARPSIM_CLUSTER_SCAN__"), flags...)
	if err := d.run(args); err != nil {
		return nil, err
	}
	pre, err := os.ReadFile(tmp.Name())
	if err != nil {
		return nil, err
	}
	dims, err := scanClusterDims(pre)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", src, err)
	}
	return dims, nil
}
