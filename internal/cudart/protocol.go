package cudart

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Operations of the protocol between a program's C runtime
// (cuda/shim/warpsim_rt.c) and the simulator. Keep in step with the enum
// there.
//
// A request is a header of three little-endian uint32 (op, payload length
// low and high word) and the payload. A reply is five uint32 (status, the
// lengths of the device printf output and of the diagnostics, the data's
// length low and high word) followed by those three byte strings. The C side writes the output to
// stdout and the diagnostics to stderr as it receives them, so they
// interleave with the program's own stdio as on a GPU.
// protocolVersion is the version of these messages; the C side sends its
// own in opHello, and a program built by another warpsim version is told to
// rebuild instead of being misunderstood.
//
// Streams and events are small integers the C side gives them (stream 0 is
// the legacy default stream). Operations marked "queued" go on their
// stream's queue and the reply comes at once; the rest answer when done.
// Memory never crosses the pipe: every allocation lives in the window both
// processes map (window.go), and the program copies to and from its own
// (pageable) memory itself after opHostCopy.
const protocolVersion = 2

const (
	opHello        = 1  // uint32 version, uint64 window base, uint64 window size, uint32 fds (1: fd 5 is the window's memory file, fds 6/7 the host-callback pipes) → name[64] + int64 figures (encodeProps)
	opModule       = 2  // PTX text → uint32 module id
	opKernel       = 3  // uint32 module, name → uint32 kernel, param bytes, n, n×(offset, size)
	opMalloc       = 4  // uint64 size, uint32 kind (allocKind) → uint64 address
	opFree         = 5  // uint64 address, uint32 stream, uint32 queued (cudaFreeAsync); else waits for the device
	opHostCopy     = 6  // uint32 stream, uint32 copyDir (| hostCopyAsync for cudaMemcpyAsync), uint64 device address (0: none), uint64 n: checks the range, waits for the stream, then clocks a copy the program makes itself
	opStreamQuery  = 7  // uint32 stream → Success or NotReady
	opCopy         = 8  // uint32 stream, uint32 queued, uint64 dst, uint64 src, uint64 n (both in the window)
	opMemset       = 9  // uint32 stream, uint32 queued, uint64 address, uint64 value, uint64 n
	opLaunch       = 10 // queued: uint32 stream, kernel, grid xyz, block xyz, shared bytes, then the parameter buffer
	opSync         = 11 // cudaDeviceSynchronize: waits for every stream, flushes printf output, surfaces a kernel fault
	opGlobal       = 12 // uint32 module, name → uint64 address, uint64 size
	opOccupancy    = 13 // uint32 kernel, block size, dynamic shared bytes → uint32 blocks per SM
	opEventRecord  = 14 // queued: uint32 event, uint32 stream
	opReset        = 15 // cudaDeviceReset
	opExit         = 16 // the program exits: finish the queued work, write the profile, stop
	opFuncAttr     = 17 // uint32 kernel → int64 attributes; or uint32 kernel, attribute, value: set
	opStreamSync   = 18 // uint32 stream: waits for it
	opEventQuery   = 19 // uint32 event → Success or NotReady
	opEventSync    = 20 // uint32 event: waits for it
	opEventElapsed = 21 // uint32 start, uint32 end → int64 ns between them
	opStreamWait   = 22 // queued: uint32 stream, uint32 event
	opStreamCreate = 23 // uint32 stream, uint32 flags (cudaStreamNonBlocking = 1)
	opHostFunc     = 24 // queued: uint32 stream, uint32 callback id; run by the program's callback thread in stream order
	opMemInfo      = 25 // → uint64 free, uint64 total
	opLimit        = 26 // uint32 cudaLimit, uint32 set, uint64 value → uint64 value (cudaDeviceSetLimit/GetLimit)
	// opLaunchCooperative is opLaunch for cudaLaunchCooperativeKernel (same
	// payload): every block resident at once, grid.sync() allowed; a grid
	// too large for that is refused with cudaErrorCooperativeLaunchTooLarge.
	// (A number well apart from the others, which grow one by one.)
	opLaunchCooperative = 64
	// opManagedAlias: uint64 host address, uint64 device address, uint64
	// size: the host shadow of a __managed__ variable, mapped onto the
	// device variable's pages, becomes a device address of it too (coop.go).
	opManagedAlias = 65
	// Thread-block clusters (cluster.go): opLaunchCluster is uint32
	// cluster xyz, then opLaunch's payload; opOccupancyCluster is uint32
	// kernel, block size, dynamic shared bytes, cluster xyz → int32
	// cudaOccupancyMaxActiveClusters; opPotentialCluster is uint32 kernel,
	// block size, dynamic shared bytes → int32
	// cudaOccupancyMaxPotentialClusterSize.
	opLaunchCluster    = 66
	opOccupancyCluster = 67
	opPotentialCluster = 68
	// The driver's virtual memory management (vmm.go): opVMReserve is
	// uint64 size → uint64 address; opVMMap is uint64 address, uint64
	// physical address (an allocation of the program's), uint64 size;
	// opVMUnmap is uint64 address, uint64 size (waits for the device).
	opVMReserve = 90
	opVMMap     = 91
	opVMUnmap   = 92
	// opStickyError is uint32 error code, then a runtime call's name: a
	// call the runtime refused on its own because the context has a sticky
	// error, or an error cudaGetLastError/cudaPeekAtLastError returned,
	// which a sanitizer reports as compute-sanitizer does (sanitize.go).
	// Only the report; nothing else happens.
	opStickyError = 93
	// opUnalias is uint64 address: the alias opManagedAlias made there
	// (a registered host range) ends (coop.go).
	opUnalias = 94
	// CUDA IPC between processes (ipc.go). opIpcShare: the program gave
	// out a handle to its memory, which another process may now write.
	// opIpcOpen: uint32 pid, uint32 fd, uint64 inode, uint64 offset, uint64
	// size → uint64 address: another process's device memory file (the
	// program's fd there, /proc/PID/fd/FD, checked by its inode) shown from
	// offset at a fresh address of this window. opIpcClose: uint64 address
	// (waits for the device). opIpcEventRecord, queued: uint32 stream,
	// uint64 address, uint64 ticket: the stream raises the word after
	// address to its simulated time and the word at address to ticket.
	// opIpcEventWait, queued: uint32 stream, uint64 address, uint64
	// ticket: the stream waits until the word at address reaches ticket,
	// then until the time in the word after it (ipcEvent).
	// opIpcEventHostWait: uint64 address: the host has seen the records of
	// the event at address complete (cudaEventSynchronize, or a
	// cudaEventQuery that found them done): its simulated time moves to
	// the time in the word after address.
	opIpcShare         = 120
	opIpcOpen          = 121
	opIpcClose         = 122
	opIpcEventRecord   = 123
	opIpcEventWait     = 124
	opIpcEventHostWait = 125
)

// maxPayload bounds one request: larger than any single transfer a program
// on an 80 GiB part could make is not needed; it guards against a corrupt
// stream.
const maxPayload = 1 << 40

type request struct {
	op      uint32
	payload []byte
}

func readRequest(r io.Reader) (request, error) {
	var h [12]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return request{}, err
	}
	op := binary.LittleEndian.Uint32(h[0:])
	n := uint64(binary.LittleEndian.Uint32(h[4:])) | uint64(binary.LittleEndian.Uint32(h[8:]))<<32
	if n > maxPayload {
		return request{}, fmt.Errorf("request of %d bytes", n)
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(r, p); err != nil {
		return request{}, fmt.Errorf("truncated request: %w", err)
	}
	return request{op: op, payload: p}, nil
}

// hostCopyAsync is opHostCopy's flag for a copy the program made with
// cudaMemcpyAsync (its failure is reported on that call).
const hostCopyAsync = 0x100

type reply struct {
	api  string // the CUDA call, where the request's apiNames entry is not it (not sent)
	code Error
	out  []byte // device printf output, for the program's stdout
	diag []byte // diagnostics, for the program's stderr
	data []byte
}

func writeReply(w io.Writer, r reply) error {
	var h [20]byte
	binary.LittleEndian.PutUint32(h[0:], uint32(r.code))
	binary.LittleEndian.PutUint32(h[4:], uint32(len(r.out)))
	binary.LittleEndian.PutUint32(h[8:], uint32(len(r.diag)))
	binary.LittleEndian.PutUint64(h[12:], uint64(len(r.data)))
	for _, b := range [][]byte{h[:], r.out, r.diag, r.data} {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// payloadReader decodes a request's fixed-width fields in order.
type payloadReader struct {
	b   []byte
	err error
}

var errShort = errors.New("short request")

func (p *payloadReader) u32() uint32 {
	if len(p.b) < 4 {
		p.err = errShort
		return 0
	}
	v := binary.LittleEndian.Uint32(p.b)
	p.b = p.b[4:]
	return v
}

func (p *payloadReader) u64() uint64 {
	if len(p.b) < 8 {
		p.err = errShort
		return 0
	}
	v := binary.LittleEndian.Uint64(p.b)
	p.b = p.b[8:]
	return v
}

func (p *payloadReader) rest() []byte { r := p.b; p.b = nil; return r }

func putU32s(vs ...uint32) []byte {
	b := make([]byte, 0, 4*len(vs))
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return b
}

func putU64s(vs ...uint64) []byte {
	b := make([]byte, 0, 8*len(vs))
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return b
}
