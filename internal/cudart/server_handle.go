// The dispatch of requests: one case per operation the C runtime sends, the handshake and the device limits.

package cudart

import (
	"errors"
	"fmt"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/ptx/origin"
)

// handle answers one request of the C runtime (protocol.go); a payload too
// short for its operation is cudaErrorInvalidValue.
func (s *Server) handle(req request) (rep reply) {
	p := &payloadReader{b: req.payload}
	defer func() {
		if p.err != nil && rep.code == Success {
			rep = reply{code: ErrorInvalidValue, diag: []byte("warpsim runtime: malformed request\n")}
		}
	}()
	if req.op != opHello && s.dev == nil {
		if req.op == opExit {
			return reply{}
		}
		return reply{code: ErrorInitializationError, diag: []byte("warpsim runtime: request before hello\n")}
	}
	switch req.op {
	case opLaunch, opLaunchCooperative, opLaunchCluster:
		if s.win.hostMapped() {
			// The program may have written its pinned or managed memory.
			s.memoryWritten()
		}
	default:
		// A copy, a memset, an allocation, a free, a synchronization
		// after which the program writes memory: launch replay hashes the
		// memory again.
		s.memoryWritten()
	}
	switch req.op {
	case opHello:
		return s.hello(p)
	case opModule:
		name := moduleName(req.payload, len(s.modules))
		ptx, note := s.retarget(name, req.payload)
		m, err := s.dev.LoadModule(name, ptx)
		if err != nil {
			return reply{code: ErrorInvalidPtx, diag: fmt.Appendf(note, "warpsim: cannot load the program's PTX:\n%v\n", err)}
		}
		s.modules = append(s.modules, m)
		s.origins = append(s.origins, origin.Of(ptx))
		return reply{diag: note, data: putU32s(uint32(len(s.modules) - 1))}
	case opKernel:
		mid := p.u32()
		name := string(p.rest())
		if int(mid) >= len(s.modules) {
			return reply{code: ErrorInvalidDeviceFunction}
		}
		k, err := s.modules[mid].Kernel(name)
		if err != nil {
			// The reason is data, not a diagnostic: the C side may look in
			// other modules first (relocatable device code) and shows it only
			// if the kernel is nowhere.
			return reply{code: ErrorInvalidDeviceFunction, data: fmt.Appendf(nil, "warpsim: %v\n", err)}
		}
		s.kernels = append(s.kernels, k)
		s.noteCompiler(k.Name(), s.origins[mid])
		params := k.Params()
		out := putU32s(uint32(len(s.kernels)-1), uint32(k.ParamBytes()), uint32(len(params)))
		for _, prm := range params {
			out = append(out, putU32s(uint32(prm.Offset), uint32(prm.Size))...)
		}
		return reply{data: out}
	case opMalloc:
		size, kind := p.u64(), allocKind(p.u32())
		if c := s.stickyCode(); c != Success {
			return reply{code: c}
		}
		s.win.mu.Lock()
		s.win.nextKind = kind
		s.win.mu.Unlock()
		addr, err := s.dev.Malloc(size)
		s.win.mu.Lock()
		s.win.nextKind = kindDevice
		s.win.mu.Unlock()
		if err != nil {
			return reply{code: ErrorMemoryAllocation}
		}
		s.mallocs[addr] = true
		if kind != kindDevice {
			s.opt.Sanitize.hostMemory(addr, size)
		}
		return reply{data: putU64s(addr)}
	case opFree:
		addr, stream, async := p.u64(), p.u32(), p.u32()
		if p.err != nil {
			return reply{}
		}
		if !s.mallocs[addr] {
			// Not the start of the program's allocation (inside one, freed
			// already, a module's variable, a host pointer).
			return reply{code: ErrorInvalidValue}
		}
		delete(s.mallocs, addr)
		if async != 0 {
			s.win.setFreeing(addr, true)
			s.enqueue(stream, func() {
				s.dev.Free(addr)
				s.win.setFreeing(addr, false)
			})
			return reply{}
		}
		// cudaFree waits for the whole device, non-blocking streams too: a
		// kernel on any stream may still use the memory (the H100's
		// cudaFree and cudaFreeHost wait for a kernel on a
		// cudaStreamNonBlocking stream: testdata/hostile/h100.txt,
		// free_nonblocking).
		s.waitFor(s.issuedSeq())
		if err := s.dev.Free(addr); err != nil {
			return reply{code: ErrorInvalidValue}
		}
		return reply{}
	case opHostCopy:
		stream, flags, dev, n := p.u32(), p.u32(), p.u64(), p.u64()
		if p.err != nil {
			return reply{}
		}
		dir := copyDir(flags & 0xff)
		api := ""
		if flags&hostCopyAsync != 0 {
			api = "cudaMemcpyAsync"
		}
		if dev != 0 {
			if _, ok := s.win.live(dev, n); !ok {
				return reply{api: api, code: ErrorInvalidValue, diag: fmt.Appendf(nil, "warpsim runtime: copy of %d bytes at %#x: not inside an allocation\n", n, dev)}
			}
		}
		s.waitFor(s.streamSeq(stream))
		rep = s.flushed()
		if rep.code == Success {
			s.mu.Lock()
			s.clock.run(stream, dir.engine(), copyNanos(s.opt.Arch, dir, n, true))
			if flags&hostCopyAsync == 0 {
				// cudaMemcpy returns once the copy is done.
				s.hostSeen = max(s.hostSeen, s.clock.ready(stream))
			}
			s.mu.Unlock()
			if dir == hostToDevice && dev != 0 {
				// The program writes the bytes once it has the reply.
				s.opt.Sanitize.hostWrote(dev, n)
			}
		}
		return rep
	case opCopy:
		return s.copy(p)
	case opMemset:
		return s.memset(p)
	case opLaunch:
		return s.launch(p)
	case opLaunchCooperative:
		return s.launchCooperative(p)
	case opLaunchCluster, opOccupancyCluster, opPotentialCluster:
		return s.clusterOp(req.op, p) // cluster.go
	case opManagedAlias:
		return s.managedAlias(p)
	case opUnalias:
		return s.unalias(p)
	case opVMReserve, opVMMap, opVMUnmap:
		return s.vmmOp(req.op, p) // vmm.go
	case opIpcShare, opIpcOpen, opIpcClose, opIpcEventRecord, opIpcEventWait, opIpcEventHostWait:
		return s.ipcOp(req.op, p) // ipc.go
	case opStickyError:
		if s.opt.Sanitize != nil {
			s.opt.Sanitize.stickyError(p)
		}
		return reply{}
	case opSync, opStreamSync, opStreamQuery, opStreamCreate, opStreamWait,
		opEventRecord, opEventQuery, opEventSync, opEventElapsed:
		return s.streamOp(req.op, p)
	case opHostFunc:
		stream, id := p.u32(), p.u32()
		if p.err != nil {
			return reply{}
		}
		if s.opt.Callbacks == nil || s.opt.CallbacksDone == nil {
			return reply{code: ErrorNotSupported, diag: []byte("warpsim runtime: no host-callback pipes\n")}
		}
		s.enqueueExternal(stream, func() { s.runHostFunc(id) })
		return reply{}
	case opMemInfo:
		free, total := s.win.memInfo()
		return reply{data: putU64s(free, total)}
	case opGlobal:
		mid := p.u32()
		name := string(p.rest())
		if int(mid) >= len(s.modules) {
			return reply{code: ErrorInvalidSymbol}
		}
		addr, size, ok := s.modules[mid].Global(name)
		if !ok {
			return reply{code: ErrorInvalidSymbol}
		}
		return reply{data: putU64s(addr, size)}
	case opOccupancy:
		kid, block, dyn := p.u32(), p.u32(), p.u32()
		k, ok := s.kernel(kid)
		if !ok {
			return reply{code: ErrorInvalidDeviceFunction}
		}
		if block == 0 {
			return reply{code: ErrorInvalidValue}
		}
		if int(dyn) > s.maxDynamicShared(int(kid), k) {
			// More than the function may be launched with (48 KB less its
			// static shared memory, unless it opted in to more): no block
			// fits, as the H100 answers (testdata/programs5/occupancy_api).
			return reply{data: putU32s(0)}
		}
		res := s.opt.Arch.Occupancy(arch.OccupancyInput{
			BlockSize: int(block), RegsPerThread: k.RegsPerThread(),
			StaticShared: k.StaticSharedBytes(), DynamicShared: int(dyn),
		})
		return reply{data: putU32s(uint32(res.BlocksPerSM))}
	case opReset:
		s.waitFor(s.issuedSeq())
		rep = reply{}
		rep.out = s.printf.take()
		s.mu.Lock()
		s.fault, s.sticky, s.pending = nil, Success, Success
		s.events = map[uint32]*eventState{}
		s.mu.Unlock()
		s.modules, s.kernels = nil, nil
		s.dynShared = map[int]int{}
		s.carveout = map[int]int32{}
		s.win.releaseAll()
		s.mallocs = map[uint64]bool{}
		s.ipcOpened = map[uint64]bool{}
		dev := s.newDevice()
		s.devMu.Lock()
		s.dev = dev
		s.devMu.Unlock()
		return rep
	case opExit:
		// Queued work finishes (its profile records count), but output a
		// kernel printed after the last synchronization is lost, as on a
		// GPU (the CUDA programming guide: the buffer is not flushed at
		// exit).
		s.waitFor(s.issuedSeq())
		return reply{}
	case opLimit:
		return s.limit(p.u32(), p.u32() != 0, p.u64())
	case opFuncAttr:
		kid := p.u32()
		k, ok := s.kernel(kid)
		if !ok {
			return reply{code: ErrorInvalidDeviceFunction}
		}
		if len(p.b) >= 8 {
			attr, val := p.u32(), p.u32()
			if attr == 14 { // cudaFuncAttributeNonPortableClusterSizeAllowed
				s.setNonPortable(int(kid), val != 0)
			}
			if attr == 8 { // cudaFuncAttributeMaxDynamicSharedMemorySize
				if int(val) > s.opt.Arch.SharedPerBlockOptin-k.StaticSharedBytes() {
					return reply{code: ErrorInvalidValue}
				}
				s.dynShared[int(kid)] = int(val)
			}
			if attr == 9 { // cudaFuncAttributePreferredSharedMemoryCarveout
				// A percentage, or cudaSharedmemCarveoutDefault (-1).
				c := int32(val)
				if c < -1 || c > 100 {
					return reply{code: ErrorInvalidValue}
				}
				s.carveout[int(kid)] = c
			}
			return reply{}
		}
		a := s.opt.Arch
		maxDyn := s.maxDynamicShared(int(kid), k)
		carveout := int32(-1)
		if v, ok := s.carveout[int(kid)]; ok {
			carveout = v
		}
		maxThreads := a.MaxThreadsPerBlockFor(k.RegsPerThread())
		if b := k.BoundThreads(); b > 0 {
			maxThreads = min(maxThreads, b)
		}
		cd := kernelClusterDims(k)
		return reply{data: putU64s(uint64(k.StaticSharedBytes()), uint64(k.ConstBytes()), uint64(k.LocalBytes()), uint64(maxThreads),
			uint64(k.CompiledRegs()), uint64(a.ComputeCapability()), uint64(a.ComputeCapability()), uint64(maxDyn),
			uint64(cd.X), uint64(cd.Y), uint64(cd.Z), b2u64(s.isNonPortable(int(kid))), uint64(int64(carveout)))}
	}
	return reply{code: ErrorNotSupported, diag: fmt.Appendf(nil, "warpsim runtime: unknown operation %d (the program and warpsim are from different versions?)\n", req.op)}
}

// hello checks the program's protocol version, maps the memory it shares
// and makes the device. A bad setting is the answer instead.
func (s *Server) hello(p *payloadReader) reply {
	v := p.u32()
	if v != protocolVersion {
		p.err = nil
		return reply{code: ErrorInsufficientDriver, diag: fmt.Appendf(nil,
			"warpsim: this program was built by a different version of warpsim (runtime protocol %d, this warpsim speaks %d); rebuild it with warpsim cc\n", v, protocolVersion)}
	}
	if e := s.opt.SettingsErr; e != nil {
		return reply{code: e.Code, diag: []byte(e.Msg + "\n")}
	}
	base, size, fds := p.u64(), p.u64(), p.u32()
	if p.err != nil {
		// A client without a window (the protocol tests): make one here.
		p.err = nil
		base, size, fds = 0x6000_0000_0000, 1<<44, 0
	}
	if s.win == nil {
		fd := -1
		if fds&1 != 0 && s.opt.Window != nil {
			fd = int(s.opt.Window.Fd())
		}
		w, err := newWindow(fd, base, size, uint64(s.opt.Arch.TotalGlobalMem))
		if err != nil {
			return reply{code: ErrorInitializationError, diag: fmt.Appendf(nil, "warpsim runtime: %v\n", err)}
		}
		s.win = w
		dev := s.newDevice()
		s.devMu.Lock()
		s.dev = dev
		s.devMu.Unlock()
	}
	return reply{data: encodeProps(s.opt.Arch)}
}

// limitDevice is a Device that honours cudaLimitStackSize (0) and
// cudaLimitMallocHeapSize (2), as warpsim.Device does.
type limitDevice interface {
	SetLimit(limit warpsim.Limit, v uint64) error
	GetLimit(limit warpsim.Limit) (uint64, error)
}

// limit answers cudaDeviceSetLimit and cudaDeviceGetLimit for the limits
// the simulator honours.
func (s *Server) limit(which uint32, set bool, v uint64) reply {
	if set {
		// A new limit applies to kernels launched after it: the queued
		// ones run under the old one first.
		s.waitFor(s.issuedSeq())
	}
	d, ok := under(s.dev).(limitDevice)
	if !ok {
		if set {
			return reply{}
		}
		return reply{data: putU64s(map[uint32]uint64{0: 1024, 2: 8 << 20}[which])}
	}
	if set {
		err := d.SetLimit(warpsim.Limit(which), v)
		switch {
		case errors.Is(err, warpsim.ErrLimitUnsupported):
			return reply{code: ErrorUnsupportedLimit}
		case err != nil:
			return reply{code: ErrorInvalidValue} // the heap after a kernel used it: testdata/programs/device_malloc.h100.txt
		}
		return reply{}
	}
	v, err := d.GetLimit(warpsim.Limit(which))
	if errors.Is(err, warpsim.ErrLimitUnsupported) {
		return reply{code: ErrorUnsupportedLimit}
	}
	return reply{data: putU64s(v)}
}
