// splitter moves top-level declarations of one Go file into new files, byte for byte.
// Usage: splitter SRC SPEC
// SPEC lines: "file.go|header comment|first..last[,first..last...]" (names of top-level decls, source order).
package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

func declName(d ast.Decl) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil {
			t := d.Recv.List[0].Type
			if s, ok := t.(*ast.StarExpr); ok {
				t = s.X
			}
			if id, ok := t.(*ast.Ident); ok {
				return id.Name + "." + d.Name.Name
			}
		}
		return d.Name.Name
	case *ast.GenDecl:
		switch s := d.Specs[0].(type) {
		case *ast.TypeSpec:
			return s.Name.Name
		case *ast.ValueSpec:
			return s.Names[0].Name
		case *ast.ImportSpec:
			return "import"
		}
	}
	panic("decl")
}

func main() {
	src, spec := os.Args[1], os.Args[2]
	data, err := os.ReadFile(src)
	if err != nil {
		panic(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, src, data, parser.ParseComments)
	if err != nil {
		panic(err)
	}
	type chunk struct {
		name       string
		start, end int // 1-based lines inclusive
		target     string
	}
	var chunks []*chunk
	prevEnd := 0
	var importEnd int
	for _, d := range f.Decls {
		n := declName(d)
		end := fset.Position(d.End()).Line
		if n == "import" {
			importEnd = end
			prevEnd = end
			continue
		}
		chunks = append(chunks, &chunk{name: n, start: prevEnd + 1, end: end})
		prevEnd = end
	}
	if prevEnd < len(lines) {
		chunks[len(chunks)-1].end = len(lines)
	}
	idx := map[string]int{}
	for i, c := range chunks {
		if _, dup := idx[c.name]; dup {
			panic("duplicate decl name " + c.name)
		}
		idx[c.name] = i
	}
	sf, err := os.Open(spec)
	if err != nil {
		panic(err)
	}
	headers := map[string]string{}
	var targets []string
	sc := bufio.NewScanner(sf)
	for sc.Scan() {
		ln := strings.TrimSpace(sc.Text())
		if ln == "" || strings.HasPrefix(ln, "#") {
			continue
		}
		parts := strings.SplitN(ln, "|", 3)
		tgt, hdr, ranges := parts[0], parts[1], parts[2]
		headers[tgt] = hdr
		if tgt == filepath.Base(src) {
			continue
		}
		targets = append(targets, tgt)
		for _, r := range strings.Split(ranges, ",") {
			ab := strings.Split(strings.TrimSpace(r), "..")
			a, ok1 := idx[ab[0]]
			b, ok2 := idx[ab[len(ab)-1]]
			if !ok1 || !ok2 || b < a {
				panic("bad range " + r)
			}
			for i := a; i <= b; i++ {
				if chunks[i].target != "" {
					panic("decl twice " + chunks[i].name)
				}
				chunks[i].target = tgt
			}
		}
	}
	// imports of the source
	type imp struct{ name, text string }
	var imps []imp
	for _, is := range f.Imports {
		p, _ := strconv.Unquote(is.Path.Value)
		name := filepath.Base(p)
		text := is.Path.Value
		if is.Name != nil {
			name = is.Name.Name
			text = is.Name.Name + " " + text
		}
		imps = append(imps, imp{name, text})
	}
	body := func(cs []*chunk) string {
		var b strings.Builder
		for _, c := range cs {
			s := strings.Join(lines[c.start-1:c.end], "")
			s = strings.TrimLeft(s, "\n")
			s = strings.TrimRight(s, "\n")
			b.WriteString("\n")
			b.WriteString(s)
			b.WriteString("\n")
		}
		return b.String()
	}
	usedImports := func(code string) []string {
		tf, err := parser.ParseFile(token.NewFileSet(), "x.go", "package p\n"+code, 0)
		if err != nil {
			panic(err)
		}
		used := map[string]bool{}
		ast.Inspect(tf, func(n ast.Node) bool {
			if se, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := se.X.(*ast.Ident); ok {
					used[id.Name] = true
				}
			}
			return true
		})
		var std, other []string
		for _, im := range imps {
			if used[im.name] {
				if strings.Contains(im.text, ".") {
					other = append(other, im.text)
				} else {
					std = append(std, im.text)
				}
			}
		}
		sort.Strings(std)
		sort.Strings(other)
		var out []string
		out = append(out, std...)
		if len(std) > 0 && len(other) > 0 {
			out = append(out, "")
		}
		return append(out, other...)
	}
	importBlock := func(list []string) string {
		switch {
		case len(list) == 0:
			return ""
		case len(list) == 1:
			return "\nimport " + list[0] + "\n"
		}
		var b strings.Builder
		b.WriteString("\nimport (\n")
		for _, l := range list {
			if l == "" {
				b.WriteString("\n")
			} else {
				b.WriteString("\t" + l + "\n")
			}
		}
		b.WriteString(")\n")
		return b.String()
	}
	pkg := f.Name.Name
	dir := filepath.Dir(src)
	for _, t := range targets {
		var cs []*chunk
		for _, c := range chunks {
			if c.target == t {
				cs = append(cs, c)
			}
		}
		code := body(cs)
		out := "// " + headers[t] + "\n\npackage " + pkg + "\n" + importBlock(usedImports(code)) + code
		if err := os.WriteFile(filepath.Join(dir, t), []byte(out), 0o644); err != nil {
			panic(err)
		}
		fmt.Printf("%s: %d decls\n", t, len(cs))
	}
	// rewrite the source: its prefix up to the imports' end with the imports it still needs, then the rest.
	var rest []*chunk
	for _, c := range chunks {
		if c.target == "" {
			rest = append(rest, c)
		}
	}
	code := body(rest)
	// prefix: everything before the import decl (package clause, file/package comment)
	var prefixEnd int
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			prefixEnd = fset.Position(g.Pos()).Line - 1
			break
		}
	}
	_ = importEnd
	prefix := strings.TrimRight(strings.Join(lines[:prefixEnd], ""), "\n") + "\n"
	if h, ok := headers[filepath.Base(src)]; ok && h != "" {
		prefix = "// " + h + "\n\n" + prefix
	}
	out := prefix + importBlock(usedImports(code)) + code
	if err := os.WriteFile(src, []byte(out), 0o644); err != nil {
		panic(err)
	}
	fmt.Printf("%s: %d decls left\n", src, len(rest))
}
