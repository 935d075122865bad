package launchfile

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/warpsim/warpsim"
)

// chunkBytes is how much of a buffer is copied between the device and a
// file at a time: copies never hold a whole buffer in host memory twice.
const chunkBytes = 1 << 20

// ExecOptions adjust Execute.
type ExecOptions struct {
	// AfterLaunch, when set, is called after each launch completes, in
	// order, with the launch's index in File.Launches.
	AfterLaunch func(i int, res *warpsim.LaunchResult)
	// Discard leaves Outcome.Launches empty: each result is only given to
	// AfterLaunch, so a file of many launches keeps no memory per launch
	// (a result with its counters is tens of kilobytes).
	Discard bool
}

// Outcome is what running a launch file produced. The buffers stay in the
// device's memory: Buffer and WriteBuffer copy one out when asked, so a run
// that saves nothing copies nothing back.
type Outcome struct {
	BufferOrder []string // buffer names in file order
	Launches    []*warpsim.LaunchResult

	dev   *warpsim.Device
	addrs map[string]uint64
	sizes map[string]uint64
}

// Buffer returns a buffer's bytes as the launches left them.
func (o *Outcome) Buffer(name string) ([]byte, error) {
	size, ok := o.sizes[name]
	if !ok {
		return nil, fmt.Errorf("no buffer %q", name)
	}
	data := make([]byte, size)
	if err := o.dev.Read(o.addrs[name], data); err != nil {
		return nil, fmt.Errorf("buffer %s: reading back: %v", name, err)
	}
	return data, nil
}

// WriteBuffer copies a buffer's bytes to w, chunkBytes at a time.
func (o *Outcome) WriteBuffer(name string, w io.Writer) error {
	size, ok := o.sizes[name]
	if !ok {
		return fmt.Errorf("no buffer %q", name)
	}
	chunk := make([]byte, min(size, chunkBytes))
	for off := uint64(0); off < size; {
		n := min(size-off, uint64(len(chunk)))
		if err := o.dev.Read(o.addrs[name]+off, chunk[:n]); err != nil {
			return fmt.Errorf("buffer %s: reading back: %v", name, err)
		}
		if _, err := w.Write(chunk[:n]); err != nil {
			return err
		}
		off += n
	}
	return nil
}

// Execute loads the module on dev, checks every launch against its
// kernel's parameters, allocates and initializes the buffers and globals,
// runs the launches in order. The buffers stay on the device, readable
// through the Outcome.
//
// Errors: the module's load error as LoadModule returns it; *Error for a
// launch that does not fit its kernel (unknown kernel, wrong argument count
// or sizes, unknown global, invalid configuration); on a kernel fault the
// *warpsim.Fault itself, with the Outcome of the launches before it and the
// buffers as the fault left them.
func (f *File) Execute(dev *warpsim.Device, opt ExecOptions) (*Outcome, error) {
	for _, lim := range []struct {
		which warpsim.Limit
		v     uint64
	}{{warpsim.LimitStackSize, f.StackBytes}, {warpsim.LimitMallocHeapSize, f.HeapBytes}} {
		if lim.v > 0 {
			if err := dev.SetLimit(lim.which, lim.v); err != nil {
				return nil, fmt.Errorf("%s: limits: %v", f.Path, err)
			}
		}
	}
	mod, err := dev.LoadModule(f.ModulePath, f.Module)
	if err != nil {
		return nil, err
	}
	kernels := make([]*warpsim.Kernel, len(f.Launches))
	for i, la := range f.Launches {
		k, err := mod.Kernel(la.Kernel)
		if err != nil {
			return nil, f.errorAt(la.at("kernel"), "%v", err)
		}
		if err := f.checkArgs(la, k); err != nil {
			return nil, err
		}
		kernels[i] = k
	}

	out := &Outcome{dev: dev, addrs: make(map[string]uint64, len(f.Buffers)), sizes: make(map[string]uint64, len(f.Buffers))}
	addrs := out.addrs
	for _, b := range f.Buffers {
		addr, err := dev.Malloc(b.Size)
		if err != nil {
			return nil, f.errorAt(b.pos, "allocating %d bytes: %v", b.Size, err)
		}
		if b.InitFile != "" {
			err = writeFileToDevice(dev, addr, b.Size, b.InitFile)
		} else {
			err = dev.Write(addr, b.Init)
		}
		if err != nil {
			return nil, f.errorAt(b.pos, "initializing: %v", err)
		}
		addrs[b.Name], out.sizes[b.Name] = addr, b.Size
		out.BufferOrder = append(out.BufferOrder, b.Name)
	}
	for _, g := range f.Globals {
		addr, size, ok := mod.Global(g.Name)
		if !ok {
			return nil, f.errorAt(g.pos, "the module has no .global or .const variable %s", g.Name)
		}
		data := g.Init
		if g.Buffer != "" {
			data = le64(addrs[g.Buffer] + g.Offset)
		}
		if uint64(len(data)) > size {
			return nil, f.errorAt(g.pos, "variable %s is %d bytes; the initializer has %d", g.Name, size, len(data))
		}
		if err := dev.Write(addr, data); err != nil {
			return nil, f.errorAt(g.pos, "initializing: %v", err)
		}
	}

	for i, la := range f.Launches {
		k := kernels[i]
		params := make([]byte, k.ParamBytes())
		for j, p := range k.Params() {
			a := la.Args[j]
			data := a.Bytes
			switch {
			case a.TensorMap != nil:
				var err error
				if data, err = a.TensorMap.encode(addrs[a.Buffer] + a.Offset); err != nil {
					return out, f.errorAt(a.pos, "%v", err)
				}
			case a.Buffer != "":
				data = le64(addrs[a.Buffer] + a.Offset)
			}
			copy(params[p.Offset:], data)
		}
		cfg := warpsim.LaunchConfig{
			Grid:        warpsim.Dim3{X: la.Grid[0], Y: la.Grid[1], Z: la.Grid[2]},
			Block:       warpsim.Dim3{X: la.Block[0], Y: la.Block[1], Z: la.Block[2]},
			SharedBytes: la.SharedBytes,
			Cooperative: la.Cooperative,
			Cluster:     warpsim.Dim3{X: la.Cluster[0], Y: la.Cluster[1], Z: la.Cluster[2]},
		}
		res, err := dev.Launch(k, cfg, params)
		if err != nil {
			var fault *warpsim.Fault
			if errors.As(err, &fault) {
				return out, fault
			}
			return out, f.errorAt(la.pos, "%v", err)
		}
		if !opt.Discard {
			out.Launches = append(out.Launches, res)
		}
		if opt.AfterLaunch != nil {
			opt.AfterLaunch(i, res)
		}
	}
	return out, nil
}

// writeFileToDevice copies a {"file": …} buffer's file to the device in
// chunks; a file that shrank since Load leaves the rest zero, one that grew
// is cut at the buffer's size.
func writeFileToDevice(dev *warpsim.Device, addr, size uint64, path string) error {
	fh, err := os.Open(path)
	if err != nil {
		return cleanPathError(err)
	}
	defer fh.Close()
	chunk := make([]byte, min(size, chunkBytes))
	for off := uint64(0); off < size; {
		n, err := io.ReadFull(fh, chunk[:min(size-off, uint64(len(chunk)))])
		if n > 0 {
			if werr := dev.Write(addr+off, chunk[:n]); werr != nil {
				return werr
			}
			off += uint64(n)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil
		}
		if err != nil {
			return cleanPathError(err)
		}
	}
	return nil
}

// checkArgs checks a launch's arguments against the kernel's parameters:
// their number, each one's size (8 bytes for a buffer address), and a
// scalar's type against the parameter's (argTypeError).
func (f *File) checkArgs(la *Launch, k *warpsim.Kernel) error {
	params := k.Params()
	name := la.Kernel
	if len(la.Args) != len(params) {
		p := la.at("args")
		if len(la.Args) > len(params) {
			p = la.Args[len(params)].pos
		}
		return f.errorAt(p, "kernel %s takes %d parameter%s, got %d", name, len(params), plural(len(params)), len(la.Args))
	}
	for j, a := range la.Args {
		p := params[j]
		switch {
		case a.TensorMap != nil:
			if p.Size != 128 {
				return f.errorAt(a.pos, "parameter %d of %s (%s) is %d bytes; a tensor map is 128", j, name, p.Name, p.Size)
			}
		case a.Buffer != "" && p.Size != 8:
			return f.errorAt(a.pos, "parameter %d of %s (%s) is %d bytes; a buffer address is 8", j, name, p.Name, p.Size)
		case a.Buffer == "" && len(a.Bytes) != p.Size:
			return f.errorAt(a.pos, "parameter %d of %s (%s) is %d bytes, got %s of %d byte%s", j, name, p.Name, p.Size, a.Type, len(a.Bytes), plural(len(a.Bytes)))
		case a.Buffer == "":
			if msg := argTypeError(a, p); msg != "" {
				return f.errorAt(a.pos, "parameter %d of %s (%s) is .%s: %s", j, name, p.Name, p.Type, msg)
			}
		}
	}
	return nil
}

// argTypeError says why a scalar argument does not fit its parameter's
// type, or returns "" (its size is checked before). A floating-point
// parameter takes a value of its own type; an integer parameter an integer
// of its size, signed or not: nvcc and clang declare C's int parameters
// .u32 (PTX parameters carry no signedness), and each scalar type already
// refuses values outside its own range ({"u32": -1}, {"s32": 3e9}).
// Bit-size parameters (.b32, byte arrays) take any value of their size, as
// raw bits do (bytes_hex, "0x…").
func argTypeError(a Arg, p warpsim.Param) string {
	if a.Type == "bytes_hex" || a.RawBits || p.Type == "" || p.Type[0] == 'b' {
		return ""
	}
	at, ok := lookupType(a.Type)
	if !ok {
		return ""
	}
	pt, ok := lookupType(p.Type)
	if !ok { // .pred and other types no launch-file scalar names
		return fmt.Sprintf("a launch file cannot pass it as %s", a.Type)
	}
	switch {
	case pt.float && at.name != pt.name:
		return fmt.Sprintf("give {\"%s\": …}, not %s", pt.name, a.Type)
	case !pt.float && at.float:
		return fmt.Sprintf("give an integer of its size ({\"s%d\": …} or {\"u%d\": …}), not %s", 8*pt.size, 8*pt.size, a.Type)
	}
	return ""
}

// at is the position of a key inside a launch.
func (la *Launch) at(key string) pos { return pos{Path: la.Path + "." + key, Line: la.Line} }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func le64(v uint64) []byte {
	b := make([]byte, 8)
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
	return b
}
