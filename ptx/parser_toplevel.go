// Module level: .version, .target and the other top-level directives, module variables, error recovery.

package ptx

import (
	"fmt"
	"strconv"

	"github.com/warpsim/warpsim/ptx/ptxtype"
)

var linkages = map[string]Linkage{
	".visible": LinkVisible,
	".extern":  LinkExtern,
	".weak":    LinkWeak,
	".common":  LinkCommon,
}

// spaces are the state-space directives by spelling: ptxtype's one table.
var spaces = ptxtype.Spaces

// types are the type directives by spelling: ptxtype's one table.
var types = ptxtype.Types

// topDirectives start a module-level construct; error recovery resumes at them.
var topDirectives = map[string]bool{
	".version": true, ".target": true, ".address_size": true, ".file": true, ".section": true,
	".visible": true, ".extern": true, ".weak": true, ".common": true, ".entry": true, ".func": true,
	".global": true, ".const": true, ".shared": true,
}

func (p *parser) parseTopLevel() {
	if p.tok == tSemi {
		p.next()
		return
	}
	if p.tok != tDirective {
		p.errorExpected("directive")
		p.syncTop()
		return
	}
	switch d := string(p.lit); d {
	case ".version":
		if p.mod.VersionPos == NoPos {
			p.mod.VersionPos = p.pos()
		}
		p.next()
		if p.tok == tFloat || p.tok == tInt {
			p.mod.Version = string(p.lit)
			p.next()
		} else {
			p.errorExpected("version number")
		}
	case ".target":
		if p.mod.TargetPos == NoPos {
			p.mod.TargetPos = p.pos()
		}
		p.next()
		for {
			if p.tok != tIdent {
				p.errorExpected("target name")
				return
			}
			p.mod.Target = append(p.mod.Target, string(p.lit))
			p.next()
			if p.tok != tComma {
				return
			}
			p.next()
		}
	case ".address_size":
		if p.mod.AddressSizePos == NoPos {
			p.mod.AddressSizePos = p.pos()
		}
		p.next()
		off := p.off
		n, ok := p.parseInt("address size")
		if ok {
			if n != 32 && n != 64 {
				p.errorAt(off, fmt.Sprintf("address size must be 32 or 64, not %d", n))
			} else {
				p.mod.AddressSize = int(n)
			}
		}
	case ".file":
		p.parseFileDirective()
	case ".loc":
		p.parseLoc()
	case ".section":
		p.skipSection()
	case ".entry", ".func":
		p.parseFunc(p.pos(), LinkNone)
	case ".alias":
		// ".alias a, b;" makes a another name of function b; recorded as
		// nothing, lowering reports calls to unknown functions.
		p.next()
		for p.tok != tSemi && p.tok != tEOF && !(p.tok == tDirective && p.nl) {
			p.next()
		}
		p.expect(tSemi)
	case ".pragma":
		p.next()
		p.expect(tString)
		p.expect(tSemi)
	default:
		if l, ok := linkages[d]; ok {
			pos := p.pos()
			p.next()
			if p.isDirective(".entry") || p.isDirective(".func") {
				p.parseFunc(pos, l)
				return
			}
			if p.tok == tDirective && spaces[string(p.lit)] != SpaceNone {
				p.parseModuleVars(l)
				return
			}
			p.errorExpected(".entry, .func or a state space")
			p.syncTop()
			return
		}
		if spaces[d] != SpaceNone {
			p.parseModuleVars(LinkNone)
			return
		}
		p.errorAt(p.off, "unknown directive "+clip(p.lit))
		p.next()
		p.syncTop()
	}
}

func (p *parser) parseModuleVars(l Linkage) {
	vars := p.parseVarDecl(l, true)
	p.mod.Vars = append(p.mod.Vars, vars...)
	if !p.expect(tSemi) {
		p.syncTop()
	}
}

// syncTop skips to the next directive that can start a module-level
// construct, stepping over balanced braces.
func (p *parser) syncTop() {
	for p.tok != tEOF {
		switch p.tok {
		case tDirective:
			if topDirectives[string(p.lit)] {
				return
			}
		case tLBrace:
			p.skipBalanced()
			continue
		}
		p.next()
	}
}

// skipBalanced skips a "{ … }" group, nested groups included; the current
// token is its '{'.
func (p *parser) skipBalanced() {
	off := p.off
	p.next()
	if !p.skipBlockRest() {
		p.errorAt(off, "expected '}' to close the block, found end of file")
	}
}

// skipSection skips ".section .debug_x { … }": debug information has no
// bearing on execution. Of ".debug_str" it keeps the labelled strings
// (the names .loc's function_name refers to).
func (p *parser) skipSection() {
	p.next()
	if p.tok != tDirective && p.tok != tIdent {
		p.errorExpected("section name")
		p.syncTop()
		return
	}
	strs := string(p.lit) == ".debug_str"
	p.next()
	if p.tok != tLBrace {
		p.errorExpected("'{'")
		p.syncTop()
		return
	}
	if !strs {
		p.skipBalanced()
		return
	}
	// "$L__info_string0:" then ".b8 95,90,…,0": each label's bytes up to
	// the first zero.
	off := p.off
	p.next()
	var label string
	var b []byte
	for p.tok != tEOF && p.tok != tRBrace {
		switch p.tok {
		case tIdent:
			lit := p.intern(p.lit)
			p.next()
			if p.tok == tColon {
				label, b = lit, b[:0]
				p.next()
			}
			continue
		case tInt:
			if n, err := strconv.ParseUint(string(p.lit), 0, 8); err == nil && label != "" {
				if n == 0 {
					if p.mod.InlineNames == nil {
						p.mod.InlineNames = map[string]string{}
					}
					p.mod.InlineNames[label] = string(b)
					label = ""
				} else {
					b = append(b, byte(n))
				}
			}
		}
		p.next()
	}
	if p.tok != tRBrace {
		p.errorAt(off, "expected '}' to close the block, found end of file")
		return
	}
	p.next()
}
