// Functions: .entry and .func headers, their performance attributes and parameter lists.

package ptx

func (p *parser) parseFunc(pos Pos, l Linkage) {
	f := &Func{Pos: pos, Linkage: l, Entry: p.isDirective(".entry")}
	p.next()
	p.funcAttributes(f)
	if !f.Entry && p.tok == tLParen {
		f.Returns = p.parseParams()
	}
	if p.tok != tIdent {
		p.errorExpected("function name")
		p.syncTop()
		return
	}
	f.Name = p.intern(p.lit)
	p.mod.Funcs = append(p.mod.Funcs, f)
	p.next()
	if p.tok == tLParen {
		f.Params = p.parseParams()
	}
	if !p.funcAttributes(f) {
		p.syncTop()
		return
	}
	switch p.tok {
	case tSemi:
		p.next()
	case tLBrace:
		f.HasBody = true
		p.loc, p.hasPending = Loc{}, false
		f.Body = p.parseBlock()
		if f.Body == nil {
			f.Body = []Stmt{}
		}
	default:
		p.errorExpected("'{' or ';'")
		p.syncTop()
	}
}

// funcAttributes parses the directives between a function's parameters and
// its body: .noreturn, performance directives, .pragma and .attribute.
func (p *parser) funcAttributes(f *Func) bool {
	for p.tok == tDirective {
		switch string(p.lit) {
		case ".noreturn":
			f.NoReturn = true
			p.next()
		case ".maxntid":
			p.next()
			f.MaxNTID = p.parseDims()
		case ".reqntid":
			p.next()
			f.ReqNTID = p.parseDims()
		case ".minnctapersm", ".maxnctapersm":
			p.next()
			n, _ := p.parseInt("block count")
			f.MinNCTAPerSM = clampInt(n)
		case ".maxnreg":
			p.next()
			n, _ := p.parseInt("register count")
			f.MaxNReg = clampInt(n)
		case ".reqnctapercluster":
			p.next()
			f.ReqNCTAPerCluster = p.parseDims()
		case ".explicitcluster":
			p.next()
			f.ExplicitCluster = true
		case ".maxclusterrank":
			p.next()
			n, _ := p.parseInt("cluster rank")
			f.MaxClusterRank = clampInt(n)
		case ".blocksareclusters",
			".nvvm_reqntid", ".abi_preserve", ".abi_preserve_control":
			p.next()
			for p.tok == tInt && !p.nl {
				p.next()
				if p.tok == tComma {
					p.next()
				}
			}
		case ".pragma":
			p.next()
			p.expect(tString)
			p.expect(tSemi)
		case ".attribute":
			p.next()
			p.skipParens()
		default:
			if f.HasBody || f.Name != "" {
				p.errorAt(p.off, "unknown function directive "+clip(p.lit))
				return false
			}
			return true
		}
	}
	return true
}

func clampInt(n uint64) int {
	if n > 1<<31-1 {
		return 1<<31 - 1
	}
	return int(n)
}

// parseDims parses "x[, y[, z]]"; missing dimensions are 1.
func (p *parser) parseDims() [3]int {
	d := [3]int{1, 1, 1}
	for i := 0; i < 3; i++ {
		n, ok := p.parseInt("dimension")
		if !ok {
			break
		}
		d[i] = clampInt(n)
		if p.tok != tComma {
			break
		}
		p.next()
	}
	return d
}

// skipParens skips a balanced "( … )" group.
func (p *parser) skipParens() {
	if p.tok != tLParen {
		p.errorExpected("'('")
		return
	}
	depth := 0
	for p.tok != tEOF {
		switch p.tok {
		case tLParen:
			depth++
		case tRParen:
			depth--
			if depth == 0 {
				p.next()
				return
			}
		case tLBrace, tRBrace, tSemi:
			p.errorExpected("')'")
			return
		}
		p.next()
	}
	p.errorExpected("')'")
}

// parseParams parses "( .param … , .reg … )".
func (p *parser) parseParams() []*Var {
	p.next() // (
	var params []*Var
	if p.tok == tRParen {
		p.next()
		return params
	}
	for {
		if p.tok != tDirective || (string(p.lit) != ".param" && string(p.lit) != ".reg") {
			p.errorExpected(".param or .reg")
			p.syncParams()
			return params
		}
		vs := p.parseVarDecl(LinkNone, false)
		if vs == nil {
			p.syncParams()
			return params
		}
		params = append(params, vs...)
		if p.tok != tComma {
			break
		}
		p.next()
	}
	if !p.expect(tRParen) {
		p.syncParams()
	}
	return params
}

func (p *parser) syncParams() {
	for p.tok != tEOF && p.tok != tRParen && p.tok != tLBrace && p.tok != tSemi {
		if p.tok == tDirective && topDirectives[string(p.lit)] {
			return
		}
		p.next()
	}
	if p.tok == tRParen {
		p.next()
	}
}
