package launchfile

import (
	"errors"

	"github.com/warpsim/warpsim"
)

// ExecOptions adjust Execute.
type ExecOptions struct {
	// AfterLaunch, when set, is called after each launch completes, in
	// order, with the launch's index in File.Launches.
	AfterLaunch func(i int, res *warpsim.LaunchResult)
}

// Outcome is what running a launch file produced.
type Outcome struct {
	Buffers     map[string][]byte // each buffer's final bytes
	BufferOrder []string          // buffer names in file order
	Launches    []*warpsim.LaunchResult
}

// Execute loads the module on dev, checks every launch against its
// kernel's parameters, allocates and initializes the buffers and globals,
// runs the launches in order and reads the buffers back.
//
// Errors: the module's load error as LoadModule returns it; *Error for a
// launch that does not fit its kernel (unknown kernel, wrong argument count
// or sizes, unknown global, invalid configuration); on a kernel fault the
// *warpsim.Fault itself, with the Outcome of the launches before it and the
// buffers as the fault left them.
func (f *File) Execute(dev *warpsim.Device, opt ExecOptions) (*Outcome, error) {
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

	addrs := make(map[string]uint64, len(f.Buffers))
	for _, b := range f.Buffers {
		addr, err := dev.Malloc(b.Size)
		if err != nil {
			return nil, f.errorAt(b.pos, "allocating %d bytes: %v", b.Size, err)
		}
		if err := dev.Write(addr, b.Init); err != nil {
			return nil, f.errorAt(b.pos, "initializing: %v", err)
		}
		addrs[b.Name] = addr
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

	out := &Outcome{Buffers: make(map[string][]byte, len(f.Buffers))}
	for i, la := range f.Launches {
		k := kernels[i]
		params := make([]byte, k.ParamBytes())
		for j, p := range k.Params() {
			a := la.Args[j]
			data := a.Bytes
			if a.Buffer != "" {
				data = le64(addrs[a.Buffer] + a.Offset)
			}
			copy(params[p.Offset:], data)
		}
		cfg := warpsim.LaunchConfig{
			Grid:        warpsim.Dim3{X: la.Grid[0], Y: la.Grid[1], Z: la.Grid[2]},
			Block:       warpsim.Dim3{X: la.Block[0], Y: la.Block[1], Z: la.Block[2]},
			SharedBytes: la.SharedBytes,
		}
		res, err := dev.Launch(k, cfg, params)
		if err != nil {
			var fault *warpsim.Fault
			if errors.As(err, &fault) {
				f.readBack(dev, addrs, out)
				return out, fault
			}
			return out, f.errorAt(la.pos, "%v", err)
		}
		out.Launches = append(out.Launches, res)
		if opt.AfterLaunch != nil {
			opt.AfterLaunch(i, res)
		}
	}
	if err := f.readBack(dev, addrs, out); err != nil {
		return out, err
	}
	return out, nil
}

func (f *File) readBack(dev *warpsim.Device, addrs map[string]uint64, out *Outcome) error {
	out.BufferOrder = out.BufferOrder[:0]
	for _, b := range f.Buffers {
		data := make([]byte, b.Size)
		if err := dev.Read(addrs[b.Name], data); err != nil {
			return f.errorAt(b.pos, "reading back: %v", err)
		}
		out.Buffers[b.Name] = data
		out.BufferOrder = append(out.BufferOrder, b.Name)
	}
	return nil
}

// checkArgs checks a launch's arguments against the kernel's parameters:
// their number, and each one's size (8 bytes for a buffer address).
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
		case a.Buffer != "" && p.Size != 8:
			return f.errorAt(a.pos, "parameter %d of %s (%s) is %d bytes; a buffer address is 8", j, name, p.Name, p.Size)
		case a.Buffer == "" && len(a.Bytes) != p.Size:
			return f.errorAt(a.pos, "parameter %d of %s (%s) is %d bytes, got %s of %d byte%s", j, name, p.Name, p.Size, a.Type, len(a.Bytes), plural(len(a.Bytes)))
		}
	}
	return nil
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
