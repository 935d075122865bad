package ptx

// token is the kind of a lexical token.
type token uint8

const (
	tEOF       token = iota
	tIllegal         // a character that starts no token; already reported
	tIdent           // opcode, register, label or symbol: "ld.global.f32", "%tid.x", "$L__BB0_1"
	tDirective       // ".reg", ".v4", ".debug_info"
	tInt             // integer literal, possibly malformed (checked when converted)
	tFloat           // 0f/0d hex float or decimal float literal
	tString          // "…" including the quotes
	tSemi
	tComma
	tColon
	tLParen
	tRParen
	tLBrack
	tRBrack
	tLBrace
	tRBrace
	tLAngle
	tRAngle
	tPlus
	tMinus
	tAssign
	tAt
	tNot
	tPipe
)

var tokenNames = [...]string{
	tEOF:       "end of file",
	tIllegal:   "illegal character",
	tIdent:     "identifier",
	tDirective: "directive",
	tInt:       "integer",
	tFloat:     "float",
	tString:    "string",
	tSemi:      "';'",
	tComma:     "','",
	tColon:     "':'",
	tLParen:    "'('",
	tRParen:    "')'",
	tLBrack:    "'['",
	tRBrack:    "']'",
	tLBrace:    "'{'",
	tRBrace:    "'}'",
	tLAngle:    "'<'",
	tRAngle:    "'>'",
	tPlus:      "'+'",
	tMinus:     "'-'",
	tAssign:    "'='",
	tAt:        "'@'",
	tNot:       "'!'",
	tPipe:      "'|'",
}

func (t token) String() string {
	if int(t) < len(tokenNames) {
		return tokenNames[t]
	}
	return "token"
}

var punct = [256]token{
	';': tSemi, ',': tComma, ':': tColon, '(': tLParen, ')': tRParen, '[': tLBrack, ']': tRBrack,
	'{': tLBrace, '}': tRBrace, '<': tLAngle, '>': tRAngle, '+': tPlus, '-': tMinus, '=': tAssign,
	'@': tAt, '!': tNot, '|': tPipe,
}

// Character classes of PTX identifiers: an identifier starts with a letter,
// or with '_', '$' or '%' followed by at least one more character; later
// characters are letters, digits, '_' and '$'.
const (
	cLetter = 1 << iota
	cDigit
	cFollow // letter, digit, '_', '$'
	cStart  // letter, '_', '$', '%'
	cHex
)

var class = func() (c [256]uint8) {
	for i := 'a'; i <= 'z'; i++ {
		c[i] |= cLetter | cFollow | cStart
		c[i-'a'+'A'] |= cLetter | cFollow | cStart
	}
	for i := '0'; i <= '9'; i++ {
		c[i] |= cDigit | cFollow | cHex
	}
	for i := 'a'; i <= 'f'; i++ {
		c[i] |= cHex
		c[i-'a'+'A'] |= cHex
	}
	c['_'] |= cFollow | cStart
	c['$'] |= cFollow | cStart
	c['%'] |= cStart
	return
}()

// scanner splits PTX source into tokens. It never stops at an error: it
// reports it through errh and goes on with the next character.
type scanner struct {
	src  []byte
	off  int
	errh func(off int, msg string)
	nl   bool // a newline separated the last token from the one before it
}

func (s *scanner) error(off int, msg string) {
	if s.errh != nil {
		s.errh(off, msg)
	}
}

func (s *scanner) follows(i int) bool { return i < len(s.src) && class[s.src[i]]&cFollow != 0 }

// skipSpace skips white space and comments and records whether a newline
// was among them.
func (s *scanner) skipSpace() {
	s.nl = false
	src := s.src
	for s.off < len(src) {
		switch c := src[s.off]; c {
		case '\n':
			s.nl = true
			s.off++
		case ' ', '\t', '\r', '\f', '\v':
			s.off++
		case '/':
			if s.off+1 >= len(src) {
				return
			}
			switch src[s.off+1] {
			case '/':
				i := s.off + 2
				for i < len(src) && src[i] != '\n' {
					i++
				}
				s.off = i
			case '*':
				start := s.off
				i := s.off + 2
				for {
					if i+1 >= len(src) {
						s.error(start, "comment not terminated")
						s.off = len(src)
						return
					}
					if src[i] == '*' && src[i+1] == '/' {
						break
					}
					if src[i] == '\n' {
						s.nl = true
					}
					i++
				}
				s.off = i + 2
			default:
				return
			}
		default:
			return
		}
	}
}

// next returns the next token, its byte offset and its text.
func (s *scanner) next() (token, int, []byte) {
	s.skipSpace()
	src := s.src
	start := s.off
	if start >= len(src) {
		return tEOF, len(src), nil
	}
	c := src[start]
	switch {
	case class[c]&cStart != 0:
		i := start + 1
		if c == '%' || c == '_' || c == '$' {
			if !s.follows(i) {
				if c == '_' {
					s.off = i
					return tIdent, start, src[start:i] // the sink "_"
				}
				s.off = i
				s.error(start, "expected identifier after '"+string(c)+"'")
				return tIllegal, start, src[start:i]
			}
		}
		i = s.scanIdentTail(i)
		s.off = i
		return tIdent, start, src[start:i]
	case class[c]&cDigit != 0:
		return s.scanNumber(start)
	case c == '.':
		i := start + 1
		if i < len(src) && class[src[i]]&cDigit != 0 {
			return s.scanNumber(start)
		}
		if !s.follows(i) {
			s.off = i
			s.error(start, "expected directive name after '.'")
			return tIllegal, start, src[start:i]
		}
		i = s.scanIdentTail(i)
		s.off = i
		return tDirective, start, src[start:i]
	case c == '"':
		i := start + 1
		for {
			if i >= len(src) || src[i] == '\n' {
				s.error(start, "string literal not terminated")
				s.off = i
				return tString, start, src[start:i]
			}
			if src[i] == '\\' && i+1 < len(src) && src[i+1] != '\n' {
				i += 2
				continue
			}
			if src[i] == '"' {
				break
			}
			i++
		}
		s.off = i + 1
		return tString, start, src[start : i+1]
	}
	s.off = start + 1
	if t := punct[c]; t != tEOF {
		return t, start, src[start : start+1]
	}
	s.error(start, illegalChar(c))
	return tIllegal, start, src[start : start+1]
}

func illegalChar(c byte) string {
	if c >= ' ' && c < 0x7f {
		return "illegal character '" + string(rune(c)) + "'"
	}
	const hex = "0123456789abcdef"
	return "illegal character 0x" + string([]byte{hex[c>>4], hex[c&15]})
}

// scanIdentTail scans identifier characters from i, including dots and
// "::" that join further identifier parts ("ld.global.f32", "%tid.x",
// "cp.async.bulk.shared::cluster").
func (s *scanner) scanIdentTail(i int) int {
	src := s.src
	for i < len(src) {
		c := src[i]
		switch {
		case class[c]&cFollow != 0:
			i++
		case c == '.' && s.follows(i+1):
			i += 2
		case c == ':' && i+2 < len(src) && src[i+1] == ':' && s.follows(i+2):
			i += 3
		default:
			return i
		}
	}
	return i
}

// scanNumber scans a numeric literal: decimal, hex (0x), octal (0…),
// binary (0b) integers with an optional U suffix; 0fXXXXXXXX and
// 0dXXXXXXXXXXXXXXXX floats; decimal floats. The text is validated when it
// is converted, so that the error names the whole literal.
func (s *scanner) scanNumber(start int) (token, int, []byte) {
	src := s.src
	i := start
	tok := tInt
	if src[i] == '0' && i+1 < len(src) {
		switch src[i+1] {
		case 'f', 'F', 'd', 'D':
			tok = tFloat
			i += 2
			for i < len(src) && class[src[i]]&cFollow != 0 {
				i++
			}
			s.off = i
			return tok, start, src[start:i]
		case 'x', 'X', 'b', 'B':
			i += 2
			for i < len(src) && class[src[i]]&cFollow != 0 {
				i++
			}
			s.off = i
			return tok, start, src[start:i]
		}
	}
	for i < len(src) && class[src[i]]&cDigit != 0 {
		i++
	}
	if i < len(src) && src[i] == '.' && (i+1 >= len(src) || class[src[i+1]]&cLetter == 0) {
		tok = tFloat
		i++
		for i < len(src) && class[src[i]]&cDigit != 0 {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && class[src[j]]&cDigit != 0 {
			tok = tFloat
			i = j
			for i < len(src) && class[src[i]]&cDigit != 0 {
				i++
			}
		}
	}
	// Swallow trailing identifier characters ("12U", "12abc") so that the
	// converter can judge the whole literal.
	for i < len(src) && class[src[i]]&cFollow != 0 {
		i++
	}
	s.off = i
	return tok, start, src[start:i]
}
