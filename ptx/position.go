package ptx

import (
	"fmt"
	"sort"
	"strings"
)

// File maps the Pos values of one parsed source to lines and columns.
// Line starts are computed once, so resolving a Pos is a binary search.
type File struct {
	name  string
	size  int
	lines []int32 // byte offset of the first character of each line; lines[0] == 0 (Pos is 32-bit too)
}

// NewFile indexes the line starts of src.
func NewFile(name string, src []byte) *File {
	f := &File{name: name, size: len(src), lines: make([]int32, 1, 1+len(src)/32)}
	for i, c := range src {
		if c == '\n' {
			f.lines = append(f.lines, int32(i+1))
		}
	}
	return f
}

// Name is the file name given to Parse.
func (f *File) Name() string { return f.name }

// Size is the length of the source in bytes.
func (f *File) Size() int { return f.size }

// LineCount is the number of lines in the source.
func (f *File) LineCount() int { return len(f.lines) }

// Pos converts a byte offset into a Pos; offsets outside the file are clamped.
func (f *File) Pos(offset int) Pos {
	if offset < 0 {
		offset = 0
	}
	if offset > f.size {
		offset = f.size
	}
	return Pos(offset + 1)
}

// Position resolves p to a 1-based line and byte column. NoPos and positions
// outside the file resolve to a Position with only the file name set.
func (f *File) Position(p Pos) Position {
	if f == nil {
		return Position{}
	}
	off := int(p) - 1
	if p == NoPos || off < 0 || off > f.size {
		return Position{Filename: f.name}
	}
	i := sort.Search(len(f.lines), func(i int) bool { return int(f.lines[i]) > off }) - 1
	return Position{Filename: f.name, Line: i + 1, Column: off - int(f.lines[i]) + 1}
}

// Position is a resolved source position.
type Position struct {
	Filename string
	Line     int // 1-based; 0 when unknown
	Column   int // 1-based byte column; 0 when unknown
}

// IsValid reports whether the position has a line.
func (p Position) IsValid() bool { return p.Line > 0 }

// String is "file:line:col", "line:col" without a file name, "file" or "-"
// when the position is unknown.
func (p Position) String() string {
	s := p.Filename
	if p.IsValid() {
		if s != "" {
			s += ":"
		}
		s += fmt.Sprintf("%d:%d", p.Line, p.Column)
	}
	if s == "" {
		s = "-"
	}
	return s
}

// Error is one positioned parse error.
type Error struct {
	Pos Position
	Msg string
}

func (e *Error) Error() string {
	if e.Pos.Filename != "" || e.Pos.IsValid() {
		return e.Pos.String() + ": " + e.Msg
	}
	return e.Msg
}

// ErrorList is a list of parse errors; Parse returns it sorted by position.
type ErrorList []*Error

// Add appends an error.
func (l *ErrorList) Add(pos Position, msg string) { *l = append(*l, &Error{pos, msg}) }

func (l ErrorList) Len() int      { return len(l) }
func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l ErrorList) Less(i, j int) bool {
	a, b := l[i].Pos, l[j].Pos
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Column != b.Column {
		return a.Column < b.Column
	}
	return l[i].Msg < l[j].Msg
}

// Sort orders the list by file, line, column and message.
func (l ErrorList) Sort() { sort.Stable(l) }

// Error prints every error on its own line ("file:line:col: msg").
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns l as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// offset is the byte offset that p encodes.
func (p Pos) offset() int { return int(p) - 1 }
