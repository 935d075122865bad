package launchfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// node is a JSON value with the byte offset where it starts, so that every
// error can name the line of the offending key. Objects keep their keys in
// file order.
type node struct {
	kind    nodeKind
	off     int
	members []member // kindObject
	elems   []*node  // kindArray
	str     string   // kindString
	num     json.Number
	boolean bool
}

type member struct {
	key    string
	keyOff int
	value  *node
}

type nodeKind uint8

const (
	kindNull nodeKind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

func (k nodeKind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "a list", "an object"}[k]
}

// parseTree decodes one JSON document into a node tree.
func parseTree(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	p := treeParser{dec: dec, data: data}
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &syntaxError{off: p.nextOff(), msg: "unexpected data after the top-level object"}
	}
	return n, nil
}

type treeParser struct {
	dec  *json.Decoder
	data []byte
}

type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

// nextOff is the offset of the next token: the decoder's position past
// whitespace and the separators it has not returned.
func (p *treeParser) nextOff() int {
	off := int(p.dec.InputOffset())
	for off < len(p.data) {
		switch p.data[off] {
		case ' ', '\t', '\r', '\n', ':', ',':
			off++
			continue
		}
		break
	}
	return off
}

func (p *treeParser) token() (json.Token, int, error) {
	off := p.nextOff()
	tok, err := p.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, int(se.Offset), &syntaxError{off: int(se.Offset), msg: "invalid JSON: " + se.Error()}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, len(p.data), &syntaxError{off: len(p.data), msg: "invalid JSON: unexpected end of file"}
		}
		return nil, off, &syntaxError{off: off, msg: "invalid JSON: " + err.Error()}
	}
	return tok, off, nil
}

func (p *treeParser) value() (*node, error) {
	tok, off, err := p.token()
	if err != nil {
		return nil, err
	}
	return p.valueFrom(tok, off)
}

func (p *treeParser) valueFrom(tok json.Token, off int) (*node, error) {
	n := &node{off: off}
	switch t := tok.(type) {
	case nil:
		n.kind = kindNull
	case bool:
		n.kind, n.boolean = kindBool, t
	case json.Number:
		n.kind, n.num = kindNumber, t
	case string:
		n.kind, n.str = kindString, t
	case json.Delim:
		switch t {
		case '[':
			n.kind = kindArray
			for p.dec.More() {
				e, err := p.value()
				if err != nil {
					return nil, err
				}
				n.elems = append(n.elems, e)
			}
			if _, _, err := p.token(); err != nil { // ']'
				return nil, err
			}
		case '{':
			n.kind = kindObject
			seen := map[string]bool{}
			for p.dec.More() {
				ktok, koff, err := p.token()
				if err != nil {
					return nil, err
				}
				key, _ := ktok.(string)
				if seen[key] {
					return nil, &syntaxError{off: koff, msg: fmt.Sprintf("duplicate key %q", key)}
				}
				seen[key] = true
				v, err := p.value()
				if err != nil {
					return nil, err
				}
				n.members = append(n.members, member{key: key, keyOff: koff, value: v})
			}
			if _, _, err := p.token(); err != nil { // '}'
				return nil, err
			}
		default:
			return nil, &syntaxError{off: off, msg: fmt.Sprintf("invalid JSON: unexpected %q", t)}
		}
	}
	return n, nil
}

// lineOf is the 1-based line of a byte offset.
func lineOf(data []byte, off int) int {
	off = min(max(off, 0), len(data))
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}
