// Package ptxlink links the PTX modules of relocatable device code (clang's
// -fgpu-rdc output, one module per .cu file) into one module, as nvcc's
// device linker (nvlink) links their cubins: a `.extern` function or
// variable resolves to the module that defines it, weak definitions
// (inline functions and templates) are kept once, internal symbols that two
// modules both define are renamed apart, and each module's `.file` numbers
// are moved so `.loc` lines keep naming the right source file. Of the
// debug sections only `.debug_str` is kept, where `.loc`'s function_name
// finds an inlined function's name: the modules' strings are merged into
// one section, their labels renamed apart as internal symbols are.
//
// It works on the text as clang writes it: top-level directives start a
// line, function bodies are brace blocks. Two modules that both define the
// same visible symbol are an error, as in any linker.
package ptxlink

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Module is one PTX text and the name errors use for it.
type Module struct {
	Name string
	PTX  []byte
}

type linkage int

const (
	internal linkage = iota
	visible
	weak
	external
)

type symKind int

const (
	symNone symKind = iota
	symFunc
	symEntry
	symVar
)

// item is one top-level statement of a module (or the trivia between).
type item struct {
	text    string
	kind    symKind
	link    linkage
	name    string
	defines bool // a function with a body, or a variable that is not .extern
	header  bool // .version, .target, .address_size
	section bool // a .section block (debug information: dropped but for .debug_str)
	strs    bool // the .section is .debug_str
	file    bool // a .file directive
}

var (
	identRE  = `[A-Za-z_$%][A-Za-z0-9_$]*`
	funcRE   = regexp.MustCompile(`\.(func|entry)\s*(\([^)]*\))?\s*(` + identRE + `)`)
	varRE    = regexp.MustCompile(`^\s*(?:\.(?:visible|extern|weak|common)\s+)*\.(global|const|shared|local)\b[^;=\[]*?(` + identRE + `)\s*(?:\[|=|;)`)
	fileRE   = regexp.MustCompile(`^(\s*\.file\s+)(\d+)`)
	locRE    = regexp.MustCompile(`(\.loc\s+)(\d+)`)
	inlineRE = regexp.MustCompile(`(inlined_at\s+)(\d+)`)
	// ".section .debug_str", and a label defined in it.
	debugStrRE = regexp.MustCompile(`^\s*\.section\s+\.debug_str\b`)
	strLabelRE = regexp.MustCompile(`(?m)^\s*(` + identRE + `)\s*:`)
)

// split cuts a module into top-level items.
func split(src string) ([]item, error) {
	var items []item
	lines := strings.SplitAfter(src, "\n")
	for i := 0; i < len(lines); {
		line := lines[i]
		trim := strings.TrimSpace(line)
		switch {
		case trim == "" || strings.HasPrefix(trim, "//"):
			items = append(items, item{text: line})
			i++
			continue
		case strings.HasPrefix(trim, ".version") || strings.HasPrefix(trim, ".target") || strings.HasPrefix(trim, ".address_size"):
			items = append(items, item{text: line, header: true})
			i++
			continue
		case strings.HasPrefix(trim, ".file"):
			items = append(items, item{text: line, file: true})
			i++
			continue
		case strings.HasPrefix(trim, ".section"):
			// Until its braces balance.
			var b strings.Builder
			depth, opened := 0, false
			for i < len(lines) {
				b.WriteString(lines[i])
				for _, c := range lines[i] {
					switch c {
					case '{':
						depth++
						opened = true
					case '}':
						depth--
					}
				}
				i++
				if opened && depth <= 0 {
					break
				}
			}
			text := b.String()
			items = append(items, item{text: text, section: true, strs: debugStrRE.MatchString(text)})
			continue
		}
		// A declaration or definition: until ';' at depth 0 or its body's
		// closing brace.
		var b strings.Builder
		depth, body := 0, false
		done := false
		for i < len(lines) && !done {
			l := lines[i]
			b.WriteString(l)
			i++
			code := l
			if k := strings.Index(code, "//"); k >= 0 {
				code = code[:k]
			}
			for _, c := range code {
				switch c {
				case '(', '{':
					if c == '{' {
						body = true
					}
					depth++
				case ')', '}':
					depth--
				}
			}
			if depth == 0 && (body || strings.HasSuffix(strings.TrimSpace(code), ";")) {
				done = true
			}
		}
		if !done {
			return nil, fmt.Errorf("unterminated statement: %.60q", b.String())
		}
		items = append(items, classify(b.String(), body))
	}
	return items, nil
}

func classify(text string, body bool) item {
	it := item{text: text}
	head := text
	if k := strings.IndexByte(head, '{'); k >= 0 && body {
		head = head[:k]
	}
	fields := strings.Fields(head)
	for _, f := range fields {
		switch f {
		case ".visible":
			it.link = visible
		case ".weak", ".common":
			it.link = weak
		case ".extern":
			it.link = external
		}
		if !strings.HasPrefix(f, ".") {
			break
		}
	}
	if m := funcRE.FindStringSubmatch(head); m != nil && (len(fields) > 0 && isFuncStart(fields)) {
		it.kind = symFunc
		if m[1] == "entry" {
			it.kind = symEntry
		}
		it.name = m[3]
		it.defines = body
		return it
	}
	if m := varRE.FindStringSubmatch(head); m != nil {
		it.kind = symVar
		it.name = m[2]
		it.defines = it.link != external
	}
	return it
}

// isFuncStart reports whether the statement's leading directives make it a
// function or kernel.
func isFuncStart(fields []string) bool {
	for _, f := range fields {
		switch f {
		case ".visible", ".extern", ".weak":
			continue
		case ".func", ".entry":
			return true
		}
		return strings.HasPrefix(f, ".func") || strings.HasPrefix(f, ".entry")
	}
	return false
}

// Link links modules into one PTX text.
func Link(mods []Module) ([]byte, error) {
	if len(mods) == 1 {
		return mods[0].PTX, nil
	}
	parsed := make([][]item, len(mods))
	for i, m := range mods {
		items, err := split(string(m.PTX))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", m.Name, err)
		}
		parsed[i] = items
	}
	// Where each symbol is defined.
	type def struct {
		mod  int
		link linkage
		kind symKind
	}
	defs := map[string][]def{}
	for mi, items := range parsed {
		for _, it := range items {
			if it.kind != symNone && it.defines {
				defs[it.name] = append(defs[it.name], def{mi, it.link, it.kind})
			}
		}
	}
	var errs []string
	for name, ds := range defs {
		n := 0
		for _, d := range ds {
			if d.link == visible {
				n++
			}
		}
		if n > 1 {
			var where []string
			for _, d := range ds {
				if d.link == visible {
					where = append(where, mods[d.mod].Name)
				}
			}
			errs = append(errs, fmt.Sprintf("multiple definition of %s (in %s)", name, strings.Join(where, " and ")))
		}
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return nil, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	// Internal symbols defined by more than one module get a per-module
	// suffix in every module after the first that defines them.
	rename := make([]map[string]string, len(mods))
	for name, ds := range defs {
		if len(ds) < 2 {
			continue
		}
		for k, d := range ds {
			if d.link == internal && (k > 0 || ds[0].link != internal) {
				if rename[d.mod] == nil {
					rename[d.mod] = map[string]string{}
				}
				rename[d.mod][name] = fmt.Sprintf("%s__m%d", name, d.mod)
			}
		}
	}
	// So do the labels of .debug_str (nvcc and warpsim cc number them
	// from $L__info_string0 in every module): a .loc of a later module
	// named the first module's function.
	strs := map[string]bool{}
	for mi, items := range parsed {
		var mine []string
		for _, it := range items {
			if !it.strs {
				continue
			}
			for _, m := range strLabelRE.FindAllStringSubmatch(it.text, -1) {
				if strs[m[1]] {
					if rename[mi] == nil {
						rename[mi] = map[string]string{}
					}
					rename[mi][m[1]] = fmt.Sprintf("%s__m%d", m[1], mi)
				}
				mine = append(mine, m[1])
			}
		}
		for _, l := range mine {
			strs[l] = true
		}
	}
	// The first definition of a weak symbol is kept.
	weakKept := map[string]int{}
	for name, ds := range defs {
		for _, d := range ds {
			if d.link == weak {
				if _, ok := weakKept[name]; !ok {
					weakKept[name] = d.mod
				}
			}
		}
	}
	var head, protos, vars, bodies, files, debugStr bytes.Buffer
	declared := map[string]bool{}
	fileBase := 0
	for mi, items := range parsed {
		maxFile := 0
		for _, it := range items {
			text := it.text
			if len(rename[mi]) > 0 {
				text = renameIdents(text, rename[mi])
			}
			name := it.name
			if r, ok := rename[mi][name]; ok {
				name = r
			}
			switch {
			case it.header:
				if mi == 0 {
					head.WriteString(text)
				}
				continue
			case it.section:
				if it.strs {
					// The strings between the braces.
					if i, j := strings.IndexByte(text, '{'), strings.LastIndexByte(text, '}'); i >= 0 && j > i {
						debugStr.WriteString(strings.TrimSpace(text[i+1:j]) + "\n")
					}
				}
				continue
			case it.file:
				m := fileRE.FindStringSubmatch(text)
				if m != nil {
					n, _ := strconv.Atoi(m[2])
					maxFile = max(maxFile, n)
					text = fileRE.ReplaceAllStringFunc(text, func(s string) string {
						sm := fileRE.FindStringSubmatch(s)
						return sm[1] + strconv.Itoa(n+fileBase)
					})
				}
				files.WriteString(text)
				continue
			case it.kind == symNone:
				if mi == 0 {
					bodies.WriteString(text)
				}
				continue
			}
			if fileBase > 0 {
				text = shiftFiles(text, fileBase)
			}
			if it.link == weak && it.defines && weakKept[it.name] != mi {
				continue
			}
			if !it.defines {
				// A declaration: kept once, and only while nothing defines it.
				if _, ok := defs[it.name]; ok && it.link == external {
					continue
				}
				if declared[name] {
					continue
				}
				declared[name] = true
				if it.kind == symVar {
					vars.WriteString(text)
				} else {
					protos.WriteString(text)
				}
				continue
			}
			switch it.kind {
			case symVar:
				vars.WriteString(text)
			case symFunc:
				// A prototype first, so calls from modules before this one
				// see it.
				if !declared[name] {
					declared[name] = true
					protos.WriteString(prototype(text))
				}
				bodies.WriteString(text)
			default:
				bodies.WriteString(text)
			}
		}
		fileBase += maxFile
	}
	var out bytes.Buffer
	out.WriteString("//\n// Linked by warpsim from " + strconv.Itoa(len(mods)) + " modules\n//\n\n")
	out.Write(head.Bytes())
	out.WriteString("\n")
	out.Write(protos.Bytes())
	out.WriteString("\n")
	out.Write(vars.Bytes())
	out.WriteString("\n")
	out.Write(bodies.Bytes())
	out.Write(files.Bytes())
	if debugStr.Len() > 0 {
		out.WriteString("\t.section\t.debug_str\n\t{\n")
		out.Write(debugStr.Bytes())
		out.WriteString("\t}\n")
	}
	return out.Bytes(), nil
}

// prototype turns a function definition into its declaration.
func prototype(def string) string {
	k := strings.IndexByte(def, '{')
	if k < 0 {
		return def
	}
	return strings.TrimRight(def[:k], " \t\n") + "\n;\n"
}

// shiftFiles adds base to the file numbers of .loc directives.
func shiftFiles(text string, base int) string {
	if !strings.Contains(text, ".loc") {
		return text
	}
	add := func(re *regexp.Regexp) func(string) string {
		return func(s string) string {
			m := re.FindStringSubmatch(s)
			n, _ := strconv.Atoi(m[2])
			return m[1] + strconv.Itoa(n+base)
		}
	}
	text = locRE.ReplaceAllStringFunc(text, add(locRE))
	return inlineRE.ReplaceAllStringFunc(text, add(inlineRE))
}

// renameIdents replaces whole PTX identifiers by the map.
func renameIdents(text string, names map[string]string) string {
	var b strings.Builder
	isID := func(c byte) bool {
		return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; i < len(text); {
		if isID(text[i]) && (i == 0 || !isID(text[i-1]) && text[i-1] != '%') {
			j := i
			for j < len(text) && isID(text[j]) {
				j++
			}
			if r, ok := names[text[i:j]]; ok {
				b.WriteString(r)
			} else {
				b.WriteString(text[i:j])
			}
			i = j
			continue
		}
		b.WriteByte(text[i])
		i++
	}
	return b.String()
}
