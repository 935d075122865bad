// Statements: blocks, labels, directives in bodies, and instructions (guard, opcode, modifiers, operands).

package ptx

func (p *parser) parseBlock() []Stmt {
	open := p.off
	p.next() // {
	if p.depth >= maxBlockDepth {
		p.errorAt(open, "blocks nested too deeply")
		p.depth++
		p.skipBlockRest()
		p.depth--
		return nil
	}
	p.depth++
	mark := len(p.stmts)
	for p.tok != tRBrace && p.tok != tEOF {
		off := p.off
		p.parseStmt()
		if p.off == off && p.tok != tRBrace && p.tok != tEOF {
			p.next()
		}
	}
	p.depth--
	// Statements collect on one stack shared by all blocks; the block's
	// own slice is allocated once, at its final size.
	body := make([]Stmt, len(p.stmts)-mark)
	copy(body, p.stmts[mark:])
	clear(p.stmts[mark:])
	p.stmts = p.stmts[:mark]
	if p.tok == tEOF {
		p.errorExpected("'}'")
		return body
	}
	p.next()
	return body
}

// skipBlockRest skips to the '}' closing a block whose '{' was consumed,
// and past it. It reports false when the file ends first.
func (p *parser) skipBlockRest() bool {
	depth := 1
	for p.tok != tEOF {
		switch p.tok {
		case tLBrace:
			depth++
		case tRBrace:
			depth--
			if depth == 0 {
				p.next()
				return true
			}
		}
		p.next()
	}
	return false
}

// syncStmt skips the rest of a malformed statement: to its ';', or to a '}'
// or module-level directive that starts a line.
func (p *parser) syncStmt() {
	for p.tok != tEOF {
		switch p.tok {
		case tSemi:
			p.next()
			return
		case tRBrace:
			if p.nl {
				return
			}
		case tDirective:
			if p.nl && topDirectives[string(p.lit)] && string(p.lit) != ".global" && string(p.lit) != ".const" && string(p.lit) != ".shared" {
				return
			}
		}
		p.next()
	}
}

func (p *parser) parseStmt() {
	switch p.tok {
	case tSemi:
		p.next()
	case tLBrace:
		pos := p.pos()
		blk := p.parseBlock()
		if blk == nil {
			blk = []Stmt{}
		}
		p.stmts = append(p.stmts, Stmt{Kind: StmtBlock, Pos: pos, StmtData: &StmtData{Block: blk}})
	case tAt:
		pos := p.pos()
		p.next()
		neg := false
		if p.tok == tNot {
			neg = true
			p.next()
		}
		// A predicate declared without '%' ("p" in inline asm) is a plain
		// identifier; lowering resolves it in scope.
		if p.tok != tIdent || p.lit[0] == '$' {
			p.errorExpected("predicate register")
			p.syncStmt()
			return
		}
		guard := p.intern(p.lit)
		p.next()
		if p.tok != tIdent {
			p.errorExpected("instruction")
			p.syncStmt()
			return
		}
		p.parseInstr(pos, guard, neg)
		return
	case tIdent:
		pos := p.pos()
		if p.lit[0] == '%' {
			p.errorExpected("statement")
			p.syncStmt()
			return
		}
		if p.lit[0] == '$' || p.lit[0] == '_' {
			// Not an opcode: must be a label.
			name := p.intern(p.lit)
			p.next()
			if p.tok != tColon {
				p.errorExpected("':' after label " + name)
				p.syncStmt()
				return
			}
			p.next()
			p.parseLabeled(pos, name)
			return
		}
		// An identifier followed by ':' is a label; otherwise an opcode.
		lit := p.lit
		if p.colonFollows() {
			name := p.intern(lit)
			p.next()
			p.next()
			p.parseLabeled(pos, name)
			return
		}
		p.parseInstr(pos, "", false)
		return
	case tDirective:
		d := string(p.lit)
		switch {
		case d == ".loc":
			p.parseLoc()
		case d == ".pragma":
			pos := p.pos()
			p.next()
			if p.tok != tString {
				p.errorExpected("string")
				p.syncStmt()
				return
			}
			p.stmts = append(p.stmts, Stmt{Kind: StmtPragma, Pos: pos, StmtData: &StmtData{Text: unquote(p.lit)}})
			p.next()
			if !p.expect(tSemi) {
				p.syncStmt()
			}
		case d == ".file":
			p.parseFileDirective()
		case spaces[d] != SpaceNone || linkages[d] != LinkNone || isSpaceAndType(d):
			pos := p.pos()
			vars := p.parseVarDecl(LinkNone, true)
			if vars == nil {
				p.syncStmt()
				return
			}
			for _, v := range vars {
				p.stmts = append(p.stmts, Stmt{Kind: StmtDecl, Pos: pos, StmtData: &StmtData{Decl: v}})
			}
			if !p.expect(tSemi) {
				p.syncStmt()
			}
		default:
			p.errorAt(p.off, "unexpected directive "+clip(p.lit)+" in function body")
			p.syncStmt()
		}
	default:
		p.errorExpected("statement")
		p.syncStmt()
	}
	return
}

// colonFollows reports whether the token after the current one is ':'.
// It looks at the next non-blank byte and scans a whole token only when a
// comment may stand in between.
func (p *parser) colonFollows() bool {
	src := p.sc.src
	i := p.sc.off
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == '\n') {
		i++
	}
	if i < len(src) && src[i] == '/' {
		save := p.sc
		p.sc.errh = nil
		tok, _, _ := p.sc.next()
		p.sc = save
		return tok == tColon
	}
	return i < len(src) && src[i] == ':'
}

// parseLabeled parses what follows "name:": a .callprototype, a
// .branchtargets or .calltargets list, or nothing (a plain label).
func (p *parser) parseLabeled(pos Pos, name string) {
	if p.tok != tDirective {
		p.stmts = append(p.stmts, Stmt{Kind: StmtLabel, Pos: pos, StmtData: &StmtData{Label: name}})
		return
	}
	switch string(p.lit) {
	case ".callprototype":
		p.next()
		f := &Func{Pos: pos, Name: name}
		if p.tok == tLParen {
			f.Returns = p.parseParams()
		}
		if p.tok != tIdent || string(p.lit) != "_" {
			p.errorExpected("'_'")
			p.syncStmt()
			return
		}
		p.next()
		if p.tok == tLParen {
			f.Params = p.parseParams()
		}
		if p.isDirective(".noreturn") {
			f.NoReturn = true
			p.next()
		}
		p.stmts = append(p.stmts, Stmt{Kind: StmtProto, Pos: pos, StmtData: &StmtData{Label: name, Proto: f}})
	case ".branchtargets", ".calltargets":
		kind := StmtBranchTargets
		if string(p.lit) == ".calltargets" {
			kind = StmtCallTargets
		}
		p.next()
		var targets []string
		for {
			if p.tok != tIdent {
				p.errorExpected("label")
				p.syncStmt()
				return
			}
			targets = append(targets, p.intern(p.lit))
			p.next()
			if p.tok != tComma {
				break
			}
			p.next()
		}
		p.stmts = append(p.stmts, Stmt{Kind: kind, Pos: pos, StmtData: &StmtData{Label: name, Targets: targets}})
	default:
		p.stmts = append(p.stmts, Stmt{Kind: StmtLabel, Pos: pos, StmtData: &StmtData{Label: name}})
		return
	}
	if !p.expect(tSemi) {
		p.syncStmt()
	}
	return
}

// parseInstr parses an instruction; the current token is its opcode.
func (p *parser) parseInstr(pos Pos, guard string, neg bool) {
	if c := p.lit[0]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		p.errorExpected("instruction")
		p.syncStmt()
		return
	}
	op := p.opcode(p.lit)
	p.next()
	mark := len(p.opnds)
	if p.tok != tSemi {
		for {
			o, ok := p.parseOperand(inInstr)
			if !ok {
				p.opnds = p.opnds[:mark]
				p.syncStmt()
				return
			}
			p.opnds = append(p.opnds, o)
			if p.tok != tComma {
				break
			}
			p.next()
		}
	}
	if p.tok != tSemi {
		p.opnds = p.opnds[:mark]
		p.errorExpected("';'")
		p.syncStmt()
		return
	}
	p.next()
	in := p.newInstr()
	if p.hasPending {
		p.loc.Inlined, p.hasPending = p.inline(p.pending), false
	}
	*in = Instr{Pos: pos, Guard: guard, GuardNeg: neg, Op: op.op, Mods: op.mods, Loc: p.loc, Operands: p.popOperands(mark)}
	p.stmts = append(p.stmts, Stmt{Kind: StmtInstr, Pos: pos, Instr: in, StmtData: &noStmtData})
	return
}
