// Package launchfile reads launch files: JSON documents that name a PTX
// module (or a .cu source), the device buffers and module-scope variables
// to initialize, and the kernel launches to run in order (DESIGN.md,
// "Launch file"). Load parses and validates a file without a device;
// Execute runs it on a warpsim.Device.
//
// Every error names the key it is about, as a path from the top of the
// document (`launches[0].args[2]`), with the file and line:
//
//	vec.json:9: launches[0].args[2]: kernel vecAdd takes 3 parameters, got 4
package launchfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/warpsim/warpsim/arch"
)

// An Option tunes Load and Parse.
type Option func(*loader)

// WithCompiler gives Load and Parse the compiler of a launch file's
// "source": compile turns a CUDA source file into PTX text (warpsim's CLI
// passes `warpsim compile`'s, which needs clang). Without it, a launch file
// naming a "source" is rejected with a message saying how to compile it.
func WithCompiler(compile func(path string) ([]byte, error)) Option {
	return func(l *loader) { l.compile = compile }
}

// File is a loaded, validated launch file.
type File struct {
	Path string // as given to Load

	// ModulePath is the PTX module (or, when FromSource, the .cu file it
	// was compiled from), resolved against the launch file's directory.
	ModulePath string
	FromSource bool
	Module     []byte // PTX text

	Arch string // preset named by the file; "" when it names none
	// StackBytes and HeapBytes are the file's "limits": the per-thread
	// stack (cudaLimitStackSize) and device malloc heap
	// (cudaLimitMallocHeapSize) the kernels need; 0 leaves the device's.
	StackBytes, HeapBytes uint64
	Buffers               []*Buffer
	Globals               []*Global
	Launches              []*Launch

	data []byte // the file's text, for line numbers
}

// Buffer is one device allocation.
type Buffer struct {
	Name string
	Size uint64
	Init []byte // initial contents (a prefix; the rest is zero)
	// InitFile, when not "", is the regular file ({"file": …}) whose
	// contents are the initial data instead of Init: Execute streams it to
	// the device, so its bytes are never held in memory here.
	InitFile string
	pos
}

// Global initializes a module-scope .global or .const variable.
type Global struct {
	Name string
	Init []byte
	// Buffer, when not "", makes the variable hold the device address of
	// that buffer plus Offset (8 bytes) instead of Init.
	Buffer string
	Offset uint64
	pos
}

// Launch is one kernel launch.
type Launch struct {
	Kernel      string
	Grid, Block [3]uint32
	SharedBytes uint32
	// Cooperative launches the kernel as cudaLaunchCooperativeKernel does
	// ("cooperative": true): every block resident, grid.sync() allowed.
	Cooperative bool
	// Cluster is the thread-block cluster shape ("cluster": [x, y, z]), as
	// cudaLaunchAttributeClusterDimension gives it; zero when absent (the
	// kernel's __cluster_dims__ then applies, docs/clusters.md).
	Cluster [3]uint32
	Args    []Arg
	pos
}

// Arg is one kernel argument: a buffer's device address plus an offset, or
// a scalar's raw little-endian bytes.
type Arg struct {
	Buffer string // "" for a scalar
	Offset uint64
	Bytes  []byte // scalar bytes
	Type   string // the scalar's type name, or "bytes_hex"
	// RawBits is set for a "0x…" bit pattern ({"u32": "0xffffffff"}): raw
	// bits, like bytes_hex, fit any parameter of their size.
	RawBits bool
	// TensorMap is a {"tensor_map": …} argument (tensormap.go) over Buffer
	// at Offset: 128 bytes made at Execute.
	TensorMap *TensorMap
	pos
}

// pos is where an element is in the file: its key path and line.
type pos struct {
	Path string // "launches[0].args[2]"
	Line int
}

// Error is a problem with a launch file, at a key.
type Error struct {
	File string
	Line int    // 0 when unknown
	Path string // key path; "" for the whole file
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ErrorList is several launch-file errors, in file order.
type ErrorList []*Error

func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// maxErrors is how many problems Load reports before giving up.
const maxErrors = 10

// loader validates the tree, collecting errors.
type loader struct {
	file    string
	dir     string
	data    []byte
	errs    ErrorList
	compile func(path string) ([]byte, error) // WithCompiler's; nil: none

	// lineOff and line cache the last offset lineAt counted to: offsets
	// come mostly in file order, so a file of many launches is counted
	// once, not once per launch.
	lineOff, line int
}

// lineAt is lineOf(l.data, off), counting on from the last offset asked
// when off is past it.
func (l *loader) lineAt(off int) int {
	off = min(max(off, 0), len(l.data))
	if off < l.lineOff || l.line == 0 {
		l.lineOff, l.line = 0, 1
	}
	l.line += bytes.Count(l.data[l.lineOff:off], []byte{'\n'})
	l.lineOff = off
	return l.line
}

func (l *loader) errorf(off int, path, format string, args ...any) {
	if len(l.errs) < maxErrors {
		l.errs = append(l.errs, &Error{File: l.file, Line: l.lineAt(off), Path: path, Msg: fmt.Sprintf(format, args...)})
	}
}

func (l *loader) pos(off int, path string) pos { return pos{Path: path, Line: l.lineAt(off)} }

// Load reads, parses and validates a launch file, reads the files it names
// (relative to its own directory) and compiles a "source" with the
// compiler WithCompiler gives. Errors are *Error or ErrorList values naming
// the key.
func Load(path string, opts ...Option) (*File, error) {
	// A launch file is text: /dev/zero or a pipe would be read forever
	// (checked before opening: opening a named pipe waits for a writer).
	if fi, err := os.Stat(path); err == nil && (!fi.Mode().IsRegular() || fi.Size() > maxLaunchFileBytes) {
		_, err = regularFileSize(path, maxLaunchFileBytes)
		return nil, &Error{File: path, Msg: err.Error()}
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, maxLaunchFileBytes+1))
	if err == nil && len(data) > maxLaunchFileBytes {
		err = fmt.Errorf("%s: more than %d bytes", path, maxLaunchFileBytes)
	}
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	return parse(path, filepath.Dir(path), data, opts)
}

// Parse parses and validates launch-file text; dir is the directory that
// relative paths in it are resolved against.
func Parse(filename, dir string, data []byte, opts ...Option) (*File, error) {
	return parse(filename, dir, data, opts)
}

func parse(filename, dir string, data []byte, opts []Option) (*File, error) {
	root, err := parseTree(data)
	if err != nil {
		var se *syntaxError
		if errors.As(err, &se) {
			return nil, &Error{File: filename, Line: lineOf(data, se.off), Msg: se.msg}
		}
		return nil, &Error{File: filename, Msg: err.Error()}
	}
	l := &loader{file: filename, dir: dir, data: data}
	for _, o := range opts {
		o(l)
	}
	f := &File{Path: filename, data: data}
	l.top(f, root)
	if len(l.errs) == 1 {
		return nil, l.errs[0]
	}
	if len(l.errs) > 0 {
		return nil, l.errs
	}
	return f, nil
}

func (l *loader) top(f *File, root *node) {
	if root.kind != kindObject {
		l.errorf(root.off, "", "a launch file is a JSON object, got %s", root.kind)
		return
	}
	var module, source *member
	for i := range root.members {
		m := &root.members[i]
		switch m.key {
		case "module":
			module = m
		case "source":
			source = m
		case "arch":
			if m.value.kind != kindString || m.value.str == "" {
				l.errorf(m.value.off, "arch", "want a preset name such as \"h100\", got %s", m.value.kind)
				continue
			}
			if _, err := arch.Lookup(m.value.str); err != nil {
				l.errorf(m.value.off, "arch", "%v", err)
				continue
			}
			f.Arch = m.value.str
		case "buffers":
			l.buffers(f, m.value)
		case "globals":
			l.globals(f, m.value)
		case "launches":
			l.launches(f, m.value)
		case "limits":
			l.limits(f, m.value)
		default:
			l.errorf(m.keyOff, m.key, "unknown key (want module, source, arch, limits, buffers, globals, launches)")
		}
	}
	switch {
	case module != nil && source != nil:
		l.errorf(source.keyOff, "source", "give either module or source, not both")
	case module == nil && source == nil:
		l.errorf(root.off, "", "missing module (a .ptx file) or source (a .cu file)")
	case module != nil:
		l.module(f, module, false)
	default:
		l.module(f, source, true)
	}
	if root.member("launches") == nil {
		l.errorf(root.off, "", "missing launches")
	}
	l.checkBufferRefs(f)
}

func (n *node) member(key string) *member {
	for i := range n.members {
		if n.members[i].key == key {
			return &n.members[i]
		}
	}
	return nil
}

// fileName checks a string naming a file: not empty, not longer than any
// path can be (a 200 MiB name was echoed into the error).
func (l *loader) fileName(v *node, key string) (string, bool) {
	switch {
	case v.kind != kindString:
		l.errorf(v.off, key, "want a file name, got %s", v.kind)
	case v.str == "":
		l.errorf(v.off, key, "want a file name, got an empty string")
	case len(v.str) > maxPathBytes:
		l.errorf(v.off, key, "a file name of %d bytes is longer than any path (%d at most)", len(v.str), maxPathBytes)
	default:
		return v.str, true
	}
	return "", false
}

// maxPathBytes is Linux's PATH_MAX.
const maxPathBytes = 4096

func (l *loader) module(f *File, m *member, fromSource bool) {
	name, ok := l.fileName(m.value, m.key)
	if !ok {
		return
	}
	path := l.resolve(name)
	f.ModulePath, f.FromSource = path, fromSource
	if !fromSource {
		if _, err := regularFileSize(path, maxModuleBytes); err != nil {
			l.errorf(m.value.off, m.key, "%v", err)
			return
		}
		data, err := readFileMax(path, maxModuleBytes)
		if err != nil {
			l.errorf(m.value.off, m.key, "%v", err)
			return
		}
		f.Module = data
		return
	}
	// The compiler reads the source: an endless one (/dev/zero) is refused.
	if _, err := regularFileSize(path, maxSourceBytes); err != nil {
		l.errorf(m.value.off, m.key, "%v", err)
		return
	}
	if l.compile == nil {
		l.errorf(m.value.off, m.key, "compiling CUDA source is not available in this build; compile it with `warpsim compile %s` and name the .ptx as module", m.value.str)
		return
	}
	ptx, err := l.compile(path)
	if err != nil {
		l.errorf(m.value.off, m.key, "compiling %s: %v", name, err)
		return
	}
	f.Module = ptx
}

// resolve makes a path in the file relative to the file's directory.
func (l *loader) resolve(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(l.dir, p)
}

// maxBufferBytes bounds a buffer, whether sized by "bytes" or by a file:
// 1 TiB, beyond any GPU's memory. maxModuleBytes bounds a PTX module read
// from a file.
const (
	maxBufferBytes = 1 << 40
	maxModuleBytes = 1 << 30
	// maxSourceBytes bounds a "source" .cu file, maxLaunchFileBytes the
	// launch file itself.
	maxSourceBytes     = 256 << 20
	maxLaunchFileBytes = 1 << 30
)

// regularFileSize is the size of the regular file at path, checked against
// limit. Devices, pipes and directories are refused: they have no size to
// check in advance (/dev/zero would be read forever).
func regularFileSize(path string, limit int64) (int64, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, cleanPathError(err)
	}
	if !fi.Mode().IsRegular() {
		return 0, fmt.Errorf("%s is not a regular file (%s); devices and pipes have no size to check: copy the data to a file", path, fileKind(fi.Mode()))
	}
	if fi.Size() > limit {
		return 0, fmt.Errorf("%s is %d bytes, more than the limit of %d", path, fi.Size(), limit)
	}
	return fi.Size(), nil
}

func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// readFileMax reads a file that must not have grown past limit since it
// was checked.
func readFileMax(path string, limit int64) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, cleanPathError(err)
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, limit+1))
	if err != nil {
		return nil, cleanPathError(err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: more than %d bytes", path, limit)
	}
	return data, nil
}

func cleanPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return err
}

func (l *loader) buffers(f *File, n *node) {
	if n.kind != kindObject {
		l.errorf(n.off, "buffers", "want an object of buffer name → buffer, got %s", n.kind)
		return
	}
	for _, m := range n.members {
		path := "buffers." + m.key
		if !validBufferName(m.key) {
			l.errorf(m.keyOff, path, "a buffer name is letters, digits, '_', '-' and '.', not starting with '.' or '-' (it names the file --save-dir writes)")
			continue
		}
		init, initFile, size, ok := l.initializer(m.value, path, true)
		if !ok {
			continue
		}
		if size == 0 {
			l.errorf(m.value.off, path, "a buffer cannot be empty")
			continue
		}
		f.Buffers = append(f.Buffers, &Buffer{Name: m.key, Size: size, Init: init, InitFile: initFile, pos: l.pos(m.keyOff, path)})
	}
}

// initializer reads {"file": …}, {"bytes": N}, {TYPE: [values]} or
// {"bytes_hex": "…"}; "bytes" may accompany another initializer to make the
// allocation larger than its data.
func (l *loader) initializer(n *node, path string, allowFile bool) (init []byte, initPath string, size uint64, ok bool) {
	if n.kind != kindObject {
		l.errorf(n.off, path, "want an object such as {\"bytes\": 1024}, {\"f32\": [1, 2]} or {\"file\": \"a.bin\"}, got %s", n.kind)
		return nil, "", 0, false
	}
	var sized *member
	var data *member
	for i := range n.members {
		m := &n.members[i]
		key := path + "." + m.key
		switch {
		case m.key == "bytes":
			sized = m
			continue
		case m.key == "file" && allowFile, m.key == "bytes_hex":
		default:
			if _, isType := lookupType(m.key); !isType {
				want := "file, bytes, bytes_hex or a type: " + typeNames()
				if !allowFile {
					want = "bytes, bytes_hex, buffer or a type: " + typeNames()
				}
				l.errorf(m.keyOff, key, "unknown key (want %s)", want)
				return nil, "", 0, false
			}
		}
		if data != nil {
			l.errorf(m.keyOff, key, "only one initializer per entry (already have %s)", data.key)
			return nil, "", 0, false
		}
		data = m
	}
	if data == nil && sized == nil {
		l.errorf(n.off, path, "empty: give bytes, file or a typed list")
		return nil, "", 0, false
	}
	if data != nil {
		key := path + "." + data.key
		v := data.value
		switch data.key {
		case "file":
			name, ok := l.fileName(v, key)
			if !ok {
				return nil, "", 0, false
			}
			p := l.resolve(name)
			n, err := regularFileSize(p, maxBufferBytes)
			if err != nil {
				l.errorf(v.off, key, "%v", err)
				return nil, "", 0, false
			}
			if n == 0 && sized == nil {
				// /proc files say 0 bytes whatever they hold.
				l.errorf(v.off, key, "%s is empty (0 bytes); a buffer needs data, or \"bytes\" for its size (files such as those under /proc report no size: copy the data to a regular file)", p)
				return nil, "", 0, false
			}
			// The contents are streamed to the device at Execute, not held here.
			initPath, size = p, uint64(n)
		case "bytes_hex":
			b, ok := l.hexBytes(v, key)
			if !ok {
				return nil, "", 0, false
			}
			init = b
		default:
			t, _ := lookupType(data.key)
			elems := v.elems
			if v.kind != kindArray {
				elems = []*node{v} // a single value is a one-element list
			}
			for i, e := range elems {
				var err error
				init, err = t.encode(init, e)
				if err != nil {
					at := key
					if v.kind == kindArray {
						at = fmt.Sprintf("%s[%d]", key, i)
					}
					l.errorf(e.off, at, "%v", err)
					return nil, "", 0, false
				}
			}
		}
		if initPath == "" {
			size = uint64(len(init))
		}
	}
	if sized != nil {
		key := path + ".bytes"
		n, ok := l.uintValue(sized.value, key, maxBufferBytes)
		if !ok {
			return nil, "", 0, false
		}
		if n < size {
			l.errorf(sized.value.off, key, "%d bytes is smaller than the %d bytes of %s", n, size, data.key)
			return nil, "", 0, false
		}
		size = n
	}
	return init, initPath, size, true
}

func (l *loader) hexBytes(v *node, key string) ([]byte, bool) {
	if v.kind != kindString {
		l.errorf(v.off, key, "want a string of hex digits, got %s", v.kind)
		return nil, false
	}
	s := strings.ReplaceAll(v.str, " ", "")
	if len(s)%2 != 0 {
		l.errorf(v.off, key, "odd number of hex digits")
		return nil, false
	}
	b := make([]byte, len(s)/2)
	for i := range b {
		x, err := strconv.ParseUint(s[2*i:2*i+2], 16, 8)
		if err != nil {
			l.errorf(v.off, key, "%q is not hex", s[2*i:2*i+2])
			return nil, false
		}
		b[i] = byte(x)
	}
	return b, true
}

// limits reads {"stack_bytes": N, "heap_bytes": N}.
func (l *loader) limits(f *File, n *node) {
	if n.kind != kindObject {
		l.errorf(n.off, "limits", "want an object with stack_bytes and heap_bytes, got %s", n.kind)
		return
	}
	for _, m := range n.members {
		key := "limits." + m.key
		switch m.key {
		case "stack_bytes":
			if v, ok := l.uintValue(m.value, key, 1<<24); ok {
				f.StackBytes = v
			}
		case "heap_bytes":
			if v, ok := l.uintValue(m.value, key, 1<<40); ok {
				f.HeapBytes = v
			}
		default:
			l.errorf(m.keyOff, key, "unknown key (want stack_bytes, heap_bytes)")
		}
	}
}

// uintValue reads a non-negative integer no larger than limit.
func (l *loader) uintValue(v *node, key string, limit uint64) (uint64, bool) {
	if v.kind != kindNumber {
		l.errorf(v.off, key, "want a non-negative integer, got %s", v.kind)
		return 0, false
	}
	n, err := strconv.ParseUint(string(v.num), 10, 64)
	if err != nil || n > limit {
		l.errorf(v.off, key, "want an integer in [0, %d], got %s", limit, v.num)
		return 0, false
	}
	return n, true
}

func (l *loader) globals(f *File, n *node) {
	if n.kind != kindObject {
		l.errorf(n.off, "globals", "want an object of variable name → initializer, got %s", n.kind)
		return
	}
	for _, m := range n.members {
		path := "globals." + m.key
		g := &Global{Name: m.key, pos: l.pos(m.keyOff, path)}
		if m.value.kind == kindObject && m.value.member("buffer") != nil {
			if !l.bufferRef(m.value, path, &g.Buffer, &g.Offset) {
				continue
			}
			f.Globals = append(f.Globals, g)
			continue
		}
		init, _, _, ok := l.initializer(m.value, path, false)
		if !ok {
			continue
		}
		if len(init) == 0 {
			l.errorf(m.value.off, path, "no initial value")
			continue
		}
		g.Init = init
		f.Globals = append(f.Globals, g)
	}
}

// bufferRef reads {"buffer": NAME, "offset": N}.
func (l *loader) bufferRef(n *node, path string, name *string, offset *uint64) bool {
	ok := true
	for _, m := range n.members {
		key := path + "." + m.key
		switch m.key {
		case "buffer":
			if m.value.kind != kindString || m.value.str == "" {
				l.errorf(m.value.off, key, "want a buffer name, got %s", m.value.kind)
				ok = false
				continue
			}
			*name = m.value.str
		case "offset":
			v, good := l.uintValue(m.value, key, maxBufferBytes)
			ok = ok && good
			*offset = v
		default:
			l.errorf(m.keyOff, key, "unknown key (a buffer argument has buffer and offset)")
			ok = false
		}
	}
	return ok
}

func (l *loader) launches(f *File, n *node) {
	if n.kind != kindArray {
		l.errorf(n.off, "launches", "want a list of launches, got %s", n.kind)
		return
	}
	if len(n.elems) == 0 {
		l.errorf(n.off, "launches", "no launches")
	}
	for i, e := range n.elems {
		path := fmt.Sprintf("launches[%d]", i)
		if e.kind != kindObject {
			l.errorf(e.off, path, "want an object with kernel, grid, block and args, got %s", e.kind)
			continue
		}
		la := &Launch{Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{1, 1, 1}, pos: l.pos(e.off, path)}
		ok := true
		for _, m := range e.members {
			key := path + "." + m.key
			switch m.key {
			case "kernel":
				if m.value.kind != kindString || m.value.str == "" {
					l.errorf(m.value.off, key, "want a kernel name, got %s", m.value.kind)
					ok = false
					continue
				}
				la.Kernel = m.value.str
			case "grid":
				ok = l.dim3(m.value, key, &la.Grid) && ok
			case "block":
				ok = l.dim3(m.value, key, &la.Block) && ok
			case "shared_bytes":
				v, good := l.uintValue(m.value, key, 1<<32-1)
				la.SharedBytes = uint32(v)
				ok = good && ok
			case "args":
				ok = l.args(m.value, key, la) && ok
			case "cooperative":
				if m.value.kind != kindBool {
					l.errorf(m.value.off, key, "want true or false, got %s", m.value.kind)
					ok = false
					continue
				}
				la.Cooperative = m.value.boolean
			case "cluster":
				la.Cluster = [3]uint32{1, 1, 1}
				ok = l.dim3(m.value, key, &la.Cluster) && ok
			default:
				l.errorf(m.keyOff, key, "unknown key (want kernel, grid, block, shared_bytes, cooperative, cluster, args)")
				ok = false
			}
		}
		for _, req := range []string{"kernel", "grid", "block"} {
			if e.member(req) == nil {
				l.errorf(e.off, path, "missing %s", req)
				ok = false
			}
		}
		if ok {
			f.Launches = append(f.Launches, la)
		}
	}
}

// dim3 reads [x], [x, y] or [x, y, z] (or a bare x); missing sizes are 1.
func (l *loader) dim3(v *node, key string, d *[3]uint32) bool {
	elems := v.elems
	switch {
	case v.kind == kindNumber:
		elems = []*node{v}
	case v.kind != kindArray || len(v.elems) == 0 || len(v.elems) > 3:
		l.errorf(v.off, key, "want [x, y, z] (1 to 3 positive integers)")
		return false
	}
	for i, e := range elems {
		n, ok := l.uintValue(e, fmt.Sprintf("%s[%d]", key, i), 1<<32-1)
		if !ok {
			return false
		}
		if n == 0 {
			l.errorf(e.off, fmt.Sprintf("%s[%d]", key, i), "must be at least 1")
			return false
		}
		d[i] = uint32(n)
	}
	return true
}

func (l *loader) args(v *node, key string, la *Launch) bool {
	if v.kind != kindArray {
		l.errorf(v.off, key, "want a list of arguments, got %s", v.kind)
		return false
	}
	ok := true
	for i, e := range v.elems {
		path := fmt.Sprintf("%s[%d]", key, i)
		a := Arg{pos: l.pos(e.off, path)}
		if e.kind != kindObject || len(e.members) == 0 {
			l.errorf(e.off, path, "want {\"buffer\": NAME}, {TYPE: value} or {\"bytes_hex\": \"…\"}")
			ok = false
			continue
		}
		first := e.members[0]
		switch {
		case first.key == "tensor_map" && len(e.members) == 1:
			if !l.tensorMap(first.value, path+".tensor_map", &a) {
				ok = false
				continue
			}
		case e.member("buffer") != nil:
			if !l.bufferRef(e, path, &a.Buffer, &a.Offset) {
				ok = false
				continue
			}
		case len(e.members) > 1:
			l.errorf(e.members[1].keyOff, path+"."+e.members[1].key, "a scalar argument has one key")
			ok = false
			continue
		case first.key == "bytes_hex":
			b, good := l.hexBytes(first.value, path+".bytes_hex")
			if !good {
				ok = false
				continue
			}
			if len(b) == 0 {
				l.errorf(first.value.off, path+".bytes_hex", "no bytes")
				ok = false
				continue
			}
			a.Bytes, a.Type = b, "bytes_hex"
		default:
			t, isType := lookupType(first.key)
			if !isType {
				l.errorf(first.keyOff, path+"."+first.key, "unknown key (want buffer, bytes_hex or a type: %s)", typeNames())
				ok = false
				continue
			}
			b, err := t.encode(nil, first.value)
			if err != nil {
				l.errorf(first.value.off, path+"."+first.key, "%v", err)
				ok = false
				continue
			}
			a.Bytes, a.Type = b, t.name
			a.RawBits = first.value.kind == kindString && isHexPattern(first.value.str)
		}
		la.Args = append(la.Args, a)
	}
	return ok
}

// checkBufferRefs checks that every buffer named by an argument or global
// exists and that offsets lie within it.
func (l *loader) checkBufferRefs(f *File) {
	sizes := map[string]uint64{}
	for _, b := range f.Buffers {
		sizes[b.Name] = b.Size
	}
	check := func(name string, off uint64, p pos) {
		size, ok := sizes[name]
		switch {
		case !ok:
			l.errs = appendMax(l.errs, &Error{File: l.file, Line: p.Line, Path: p.Path, Msg: fmt.Sprintf("no buffer named %q", name)})
		case off > size:
			l.errs = appendMax(l.errs, &Error{File: l.file, Line: p.Line, Path: p.Path, Msg: fmt.Sprintf("offset %d is past the end of buffer %s (%d bytes)", off, name, size)})
		}
	}
	for _, g := range f.Globals {
		if g.Buffer != "" {
			check(g.Buffer, g.Offset, g.pos)
		}
	}
	for _, la := range f.Launches {
		for _, a := range la.Args {
			if a.Buffer != "" {
				check(a.Buffer, a.Offset, a.pos)
			}
		}
	}
}

func appendMax(l ErrorList, e *Error) ErrorList {
	if len(l) >= maxErrors {
		return l
	}
	return append(l, e)
}

// errorAt makes an Error at an element's position.
func (f *File) errorAt(p pos, format string, args ...any) *Error {
	return &Error{File: f.Path, Line: p.Line, Path: p.Path, Msg: fmt.Sprintf(format, args...)}
}

// validBufferName reports whether a buffer name is safe as a file name.
func validBufferName(name string) bool {
	if name == "" || name[0] == '.' || name[0] == '-' {
		return false
	}
	for _, c := range name {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-', c == '.':
		default:
			return false
		}
	}
	return true
}
