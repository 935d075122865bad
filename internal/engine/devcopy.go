package engine

import (
	"fmt"
	"os"

	"github.com/warpsim/warpsim/internal/ir"
)

// This file is the device runtime's copies and fills (dynamic
// parallelism): cudaMemcpyAsync, cudaMemsetAsync, cudaMemcpy2DAsync and
// cudaMemset2DAsync called from a kernel. Each is work on the given device
// stream, as a launch is: it waits for the stream's earlier launches and
// copies (and the events the stream waits on), later work on the stream
// waits for it, and the launching grid's tree completes only once it is
// done. It runs between generations of grids (cdp.go), so it never races
// with a kernel. The H100 with nvcc 13 (testdata/runtimeapis/h100.txt,
// cdp_memcpy and cdp_memset): device-to-device and cudaMemcpyDefault
// copies run, on the NULL stream, a stream the kernel made, and the tail
// launch and fire-and-forget streams; a copy from or to the host (or a
// kind out of range) returns cudaErrorInvalidMemcpyDirection, which the
// thread's cudaGetLastError then returns too; a copy of zero bytes writes
// nothing; cudaMemsetAsync and cudaMemset2DAsync fill the bytes they are
// asked for with zeros, whatever the value (the H100 wrote 00 for 0x01 to
// 0x0a, over 0xff bytes, with every size and alignment cdp_memset tries):
// warpsim does the same and says so once per host launch on standard
// error. A copy the simulator cannot make (a range outside every
// allocation) faults the launch, as the GPU's copy does.

// CUDA codes and copy kinds of the device runtime's copies.
const (
	cudaErrorInvalidPitchValue      = 12
	cudaErrorInvalidMemcpyDirection = 21
	cudaMemcpyDeviceToDevice        = 3
	cudaMemcpyDefault               = 4
)

// devCopy is one queued copy or fill of height rows of width bytes.
type devCopy struct {
	call           string // the runtime call, for a fault's report
	dst, src       uint64
	dpitch, spitch uint64
	width, height  uint64
	fill           bool
	value          byte
}

// devCopyCall is a device runtime copy or fill for one lane: checked and
// queued on its stream; it returns the CUDA error code.
func (wp *warp) devCopyCall(mode uint8, lane int, arg func(i, size, lane int) uint64) uint64 {
	var c devCopy
	kind, stream := uint64(cudaMemcpyDeviceToDevice), uint64(0)
	switch mode {
	case ir.DevRTMemcpyAsync:
		c = devCopy{call: "cudaMemcpyAsync", dst: arg(0, 8, lane), src: arg(1, 8, lane), width: arg(2, 8, lane), height: 1}
		kind, stream = arg(3, 4, lane), arg(4, 8, lane)
	case ir.DevRTMemsetAsync:
		c = devCopy{call: "cudaMemsetAsync", dst: arg(0, 8, lane), value: byte(arg(1, 4, lane)), width: arg(2, 8, lane), height: 1, fill: true}
		stream = arg(3, 8, lane)
	case ir.DevRTMemcpy2DAsync:
		c = devCopy{call: "cudaMemcpy2DAsync", dst: arg(0, 8, lane), dpitch: arg(1, 8, lane), src: arg(2, 8, lane), spitch: arg(3, 8, lane),
			width: arg(4, 8, lane), height: arg(5, 8, lane)}
		kind, stream = arg(6, 4, lane), arg(7, 8, lane)
	case ir.DevRTMemset2DAsync:
		c = devCopy{call: "cudaMemset2DAsync", dst: arg(0, 8, lane), dpitch: arg(1, 8, lane), value: byte(arg(2, 4, lane)),
			width: arg(3, 8, lane), height: arg(4, 8, lane), fill: true}
		stream = arg(5, 8, lane)
	}
	if kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault {
		return cudaErrorInvalidMemcpyDirection
	}
	if c.fill && c.value != 0 {
		wp.w.l.tree.warnMemset(c.call, c.value)
		c.value = 0
	}
	if c.height > 1 && (c.width > c.dpitch || !c.fill && c.width > c.spitch) {
		return cudaErrorInvalidPitchValue
	}
	w := wp.w
	l := w.l
	t := l.tree
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := w.stream(stream)
	if !ok {
		return cudaErrorInvalidResourceHandle
	}
	if c.width == 0 || c.height == 0 {
		return cudaSuccess
	}
	n := &cdpNode{fn: -1, copy: &c, depth: l.depth + 1, warp: wp.idx, parent: l.node, tail: stream == streamTailLaunch}
	if s != nil {
		if s.last != nil {
			n.deps = append(n.deps, s.last)
		}
		n.deps = append(n.deps, s.waits...)
		s.last, s.waits = n, nil
	}
	if l.node != nil {
		l.node.open++
	}
	w.kids = append(w.kids, n)
	return cudaSuccess
}

// warnMemset says, once per host launch, that a device-side fill with a
// value other than zero writes zeros, as on the H100.
func (t *cdpTree) warnMemset(call string, v byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.memsetWarned {
		return
	}
	t.memsetWarned = true
	fmt.Fprintf(os.Stderr, "warpsim: warning: %s called from a kernel with value %#02x writes zeros, as the device runtime of CUDA 13 on the H100 does (testdata/runtimeapis/h100.txt)\n", call, v)
}

// runCopy makes a queued copy or fill and completes its node.
func (m *Module) runCopy(t *cdpTree, n *cdpNode) error {
	err := n.copy.run(m.Mem)
	t.mu.Lock()
	n.finish()
	t.mu.Unlock()
	return err
}

// run copies or fills c's rows (a copy moves each row as memmove does).
func (c *devCopy) run(mem *Memory) error {
	for row := range c.height {
		d, err := mem.Bytes(c.dst+row*c.dpitch, c.width)
		if err != nil {
			return c.fault(c.dst+row*c.dpitch, err)
		}
		if c.fill {
			for i := range d {
				d[i] = c.value
			}
			continue
		}
		s, err := mem.Bytes(c.src+row*c.spitch, c.width)
		if err != nil {
			return c.fault(c.src+row*c.spitch, err)
		}
		copy(d, s)
	}
	return nil
}

func (c *devCopy) fault(addr uint64, err error) *Fault {
	return &Fault{Kind: FaultOutOfBounds, Func: c.call, Addr: addr, HasAddr: true,
		Detail: fmt.Sprintf("the device runtime's %s (called from a kernel) of %d×%d bytes: %v", c.call, c.height, c.width, err)}
}
