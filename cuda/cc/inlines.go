package cc

import (
	"bytes"
	"debug/dwarf"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// Inlined functions in clang's PTX, as nvcc writes them.
//
// nvcc's -lineinfo PTX says which function a line was inlined from: ".loc 2
// 60 3, function_name $L__info_string0, inlined_at 1 13 5", the name (a
// mangled one) in ".section .debug_str", and compute-sanitizer names an
// access in inlined code by that function. LLVM 22's NVPTX back end writes
// no function_name/inlined_at; the chain of calls is only in each .loc's
// comment ("// a.h:26:5 @[ barrier:322:69 @[ k.cu:13:5 ] ]"), without
// names. Given cc1's -debug-info-kind=line-tables-only (with
// -fdebug-info-for-profiling, which adds each function's linkage name) it
// also writes a .debug_info whose DW_TAG_inlined_subroutine entries, nested
// as the calls are, name the inlined function and the call's file, line
// and column. nvccInlines joins the two: a .loc whose comment shows a chain
// gets the function of the entry with that chain of calls, and that call's
// position; the names go to a .debug_str; clang's DWARF sections and the
// ".target …, debug" they bring are removed, so the rest of the PTX is what
// clang wrote without them (the code is the same: debug information does
// not change it, testdata/inlined/same_code.txt). The entries' address
// ranges are not used: they run from a label to a label, and clang's cover
// whole unrolled loops, code of the kernel's own between two inlined
// copies included.

var (
	sectionStartRE = regexp.MustCompile(`(?m)^[ \t]*\.section[ \t]+(\.debug_[a-z_]+)[ \t]*(\{[ \t]*\})?[ \t]*\n`)
	targetDebugRE  = regexp.MustCompile(`(?m)^(\.target[ \t]+[^\n/]*?),[ \t]*debug\b`)
	locLineRE      = regexp.MustCompile(`^([ \t]*\.loc[ \t]+\d+[ \t]+\d+[ \t]+\d+)([ \t]*(?://.*)?)$`)
	fileLineRE     = regexp.MustCompile(`^[ \t]*\.file[ \t]+(\d+)[ \t]+"([^"]*)"`)
	byteDirRE      = regexp.MustCompile(`^\.b(8|16|32|64)[ \t]+(.*)$`)
)

// debugSection is one ".section .debug_x { … }" of the text: its name and
// the byte range it spans (the whole block, its lines included).
type debugSection struct {
	name       string
	start, end int
	body       string
}

// debugSections finds the .section blocks of clang's PTX.
func debugSections(ptx []byte) ([]debugSection, error) {
	var out []debugSection
	for _, m := range sectionStartRE.FindAllSubmatchIndex(ptx, -1) {
		s := debugSection{name: string(ptx[m[2]:m[3]]), start: m[0]}
		if m[4] >= 0 { // "{	}" on the same line
			s.end = m[1]
			out = append(out, s)
			continue
		}
		open := bytes.IndexByte(ptx[m[1]:], '{')
		if open < 0 {
			return nil, fmt.Errorf("section %s: no '{'", s.name)
		}
		closeAt := bytes.Index(ptx[m[1]+open:], []byte("\n\t}"))
		if closeAt < 0 {
			return nil, fmt.Errorf("section %s: no '}'", s.name)
		}
		bodyStart := m[1] + open + 1
		bodyEnd := m[1] + open + closeAt
		s.body = string(ptx[bodyStart:bodyEnd])
		s.end = bodyEnd + len("\n\t}")
		if s.end < len(ptx) && ptx[s.end] == '\n' {
			s.end++
		}
		out = append(out, s)
	}
	return out, nil
}

// sectionBytes assembles a debug section's ".bN value" lines.
func sectionBytes(body string) ([]byte, error) {
	var b []byte
	for _, line := range strings.Split(body, "\n") {
		if k := strings.Index(line, "//"); k >= 0 {
			line = line[:k]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		m := byteDirRE.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("unexpected %q", line)
		}
		size, _ := strconv.Atoi(m[1])
		for _, v := range strings.Split(m[2], ",") {
			n := debugValue(strings.TrimSpace(v))
			for i := 0; i < size/8; i++ {
				b = append(b, byte(n>>(8*i)))
			}
		}
	}
	return b, nil
}

// debugValue is one value of a .bN directive: a number, or 0 for a
// label, a section's name or a difference of labels (addresses, which the
// names and calls do not need).
func debugValue(v string) uint64 {
	n, err := strconv.ParseUint(v, 0, 64)
	if err != nil {
		return 0
	}
	return n
}

// inlinedCall is one DW_TAG_inlined_subroutine: the inlined function's
// linkage name, the call's position and the call it lies in (nil in the
// function's own code).
type inlinedCall struct {
	name            string
	file, line, col int64
	parent          *inlinedCall
}

// attrMIPSLinkageName is DW_AT_MIPS_linkage_name, which DWARF 2 (what
// NVPTX writes) has in place of DW_AT_linkage_name.
const attrMIPSLinkageName dwarf.Attr = 0x2007

// nvccInlines rewrites clang's PTX as described above; PTX without
// clang's .debug_info is returned as it is. It always returns usable PTX:
// err says what it could not name (DWARF it cannot read, a chain
// .debug_info does not have), which then keeps its plain .loc.
func nvccInlines(ptx []byte) (out []byte, err error) {
	secs, err := debugSections(ptx)
	if err != nil {
		return ptx, err
	}
	var info, abbrev *debugSection
	for i := range secs {
		switch secs[i].name {
		case ".debug_info":
			info = &secs[i]
		case ".debug_abbrev":
			abbrev = &secs[i]
		}
	}
	if info == nil || abbrev == nil {
		return ptx, nil
	}
	lines := strings.SplitAfter(string(ptx[:secs[0].start]), "\n")
	// The .file paths by number, for the calls' files.
	files := map[int64]string{}
	for _, l := range lines {
		if m := fileLineRE.FindStringSubmatch(l); m != nil {
			n, _ := strconv.ParseInt(m[1], 10, 64)
			files[n] = path.Base(m[2])
		}
	}
	calls, err := inlinedCalls(info.body, abbrev.body, files)
	// Each .loc whose comment shows an inlining chain ("// a.h:5:3 @[
	// b.cu:9:7 ]") names the innermost inlined function and its call.
	strIndex := map[string]int{}
	var strs []string
	for i, l := range lines {
		m := locLineRE.FindStringSubmatch(strings.TrimSuffix(l, "\n"))
		if m == nil {
			continue
		}
		chain := locChain(m[2])
		if chain == "" {
			continue
		}
		c := calls[chain]
		if c == nil {
			if err == nil {
				err = fmt.Errorf("no inlined call in .debug_info for %q", strings.TrimSpace(m[2]))
			}
			continue
		}
		n, ok := strIndex[c.name]
		if !ok {
			n = len(strs)
			strIndex[c.name] = n
			strs = append(strs, c.name)
		}
		lines[i] = fmt.Sprintf("%s, function_name $L__info_string%d, inlined_at %d %d %d%s", m[1], n, c.file, c.line, c.col, m[2])
		if strings.HasSuffix(l, "\n") {
			lines[i] += "\n"
		}
	}
	var b bytes.Buffer
	b.WriteString(targetDebugRE.ReplaceAllString(strings.Join(lines, ""), "$1"))
	prev := secs[0].start
	for _, s := range secs {
		b.Write(ptx[prev:s.start])
		if s.name != ".debug_info" && s.name != ".debug_abbrev" {
			b.Write(ptx[s.start:s.end])
		}
		prev = s.end
	}
	b.Write(ptx[prev:])
	if len(strs) > 0 {
		b.WriteString("\t.section\t.debug_str\n\t{\n")
		for i, s := range strs {
			fmt.Fprintf(&b, "$L__info_string%d:\n.b8 ", i)
			for _, c := range []byte(s) {
				fmt.Fprintf(&b, "%d,", c)
			}
			b.WriteString("0\n")
		}
		b.WriteString("\t}\n")
	}
	return b.Bytes(), err
}

// inlinedCalls reads the DW_TAG_inlined_subroutine entries of clang's
// .debug_info, each by its chain of calls (inlinedCall.key).
func inlinedCalls(info, abbrev string, files map[int64]string) (map[string]*inlinedCall, error) {
	ib, err := sectionBytes(info)
	if err != nil {
		return nil, fmt.Errorf(".debug_info: %v", err)
	}
	ab, err := sectionBytes(abbrev)
	if err != nil {
		return nil, fmt.Errorf(".debug_abbrev: %v", err)
	}
	d, err := dwarf.New(ab, nil, nil, ib, nil, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	// Names first: an inlined call may refer to a function described
	// after it.
	var entries []*dwarf.Entry
	names := map[dwarf.Offset]string{}
	for r := d.Reader(); ; {
		e, err := r.Next()
		if err != nil {
			return nil, err
		}
		if e == nil {
			break
		}
		entries = append(entries, e)
		if e.Tag != dwarf.TagSubprogram {
			continue
		}
		if n, ok := e.Val(attrMIPSLinkageName).(string); ok {
			names[e.Offset] = n
		} else if n, ok := e.Val(dwarf.AttrLinkageName).(string); ok {
			names[e.Offset] = n
		} else if n, ok := e.Val(dwarf.AttrName).(string); ok {
			names[e.Offset] = n // extern "C": not mangled
		}
	}
	calls := map[string]*inlinedCall{}
	var stack []*inlinedCall // the enclosing entry at each depth (nil: not an inlined call)
	for _, e := range entries {
		if e.Tag == 0 {
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			continue
		}
		var parent *inlinedCall
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		var this *inlinedCall
		switch e.Tag {
		case dwarf.TagSubprogram:
			// A function's own code: no enclosing call.
		case dwarf.TagInlinedSubroutine:
			origin, _ := e.Val(dwarf.AttrAbstractOrigin).(dwarf.Offset)
			this = &inlinedCall{name: names[origin], parent: parent}
			this.file, _ = e.Val(dwarf.AttrCallFile).(int64)
			this.line, _ = e.Val(dwarf.AttrCallLine).(int64)
			this.col, _ = e.Val(dwarf.AttrCallColumn).(int64)
			if this.name != "" {
				calls[this.key(files)] = this
			}
		default:
			this = parent // a lexical block keeps its enclosing call
		}
		if e.Children {
			stack = append(stack, this)
		}
	}
	return calls, nil
}

// key is the chain of calls that leads to c, innermost first, each as
// "file:line:col" with the file's base name: what locChain reads from a
// .loc's comment.
func (c *inlinedCall) key(files map[int64]string) string {
	var b strings.Builder
	for ; c != nil; c = c.parent {
		fmt.Fprintf(&b, "%s:%d:%d;", files[c.file], c.line, c.col)
	}
	return b.String()
}

// locChain reads the calls of a .loc's comment, "// a.h:5:3 @[ b.h:7:1 @[
// c.cu:9:7 ] ]" → "b.h:7:1;c.cu:9:7;"; "" when it shows no inlining.
func locChain(comment string) string {
	parts := strings.Split(comment, " @[ ")
	if len(parts) < 2 {
		return ""
	}
	var b strings.Builder
	for _, p := range parts[1:] {
		p = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(p), "] "))
		// "path:line:col" (the path may hold ':').
		k := strings.LastIndexByte(p, ':')
		if k < 0 {
			return ""
		}
		j := strings.LastIndexByte(p[:k], ':')
		if j < 0 {
			return ""
		}
		fmt.Fprintf(&b, "%s:%s;", path.Base(p[:j]), p[j+1:])
	}
	return b.String()
}
