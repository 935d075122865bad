package warpsim_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// vecAddPTX is c[i] = a[i] + b[i] for i < n, as nvcc writes it.
const vecAddPTX = `
.version 8.0
.target sm_90
.address_size 64
.visible .entry vecAdd(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u32 n)
{
	.reg .pred %p<2>;
	.reg .b32 %r<6>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<11>;
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [pc];
	ld.param.u32 %r2, [n];
	mov.u32 %r3, %ctaid.x;
	mov.u32 %r4, %ntid.x;
	mov.u32 %r5, %tid.x;
	mad.lo.s32 %r1, %r3, %r4, %r5;
	setp.ge.s32 %p1, %r1, %r2;
	@%p1 bra DONE;
	cvta.to.global.u64 %rd4, %rd1;
	mul.wide.s32 %rd5, %r1, 4;
	add.s64 %rd6, %rd4, %rd5;
	cvta.to.global.u64 %rd7, %rd2;
	add.s64 %rd8, %rd7, %rd5;
	ld.global.f32 %f1, [%rd8];
	ld.global.f32 %f2, [%rd6];
	add.f32 %f3, %f2, %f1;
	cvta.to.global.u64 %rd9, %rd3;
	add.s64 %rd10, %rd9, %rd5;
	st.global.f32 [%rd10], %f3;
DONE:
	ret;
}
`

// floats is xs as little-endian f32 bytes.
func floats(xs ...float32) []byte {
	b := make([]byte, 4*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// params packs a, b, c and n as vecAdd's parameter buffer.
func params(a, b, c uint64, n uint32) []byte {
	p := make([]byte, 28)
	binary.LittleEndian.PutUint64(p[0:], a)
	binary.LittleEndian.PutUint64(p[8:], b)
	binary.LittleEndian.PutUint64(p[16:], c)
	binary.LittleEndian.PutUint32(p[24:], n)
	return p
}

// The whole API in one go: a device, a module, buffers, a launch, the
// result read back, and the launch's counters.
func Example() {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{})
	mod, err := dev.LoadModule("vecadd.ptx", []byte(vecAddPTX))
	if err != nil {
		fmt.Println(err)
		return
	}
	k, err := mod.Kernel("vecAdd")
	if err != nil {
		fmt.Println(err)
		return
	}
	const n = 4
	a, _ := dev.Malloc(4 * n)
	b, _ := dev.Malloc(4 * n)
	c, _ := dev.Malloc(4 * n)
	dev.Write(a, floats(1, 2, 3, 4))
	dev.Write(b, floats(10, 20, 30, 40))
	res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}}, params(a, b, c, n))
	if err != nil {
		fmt.Println(err)
		return
	}
	out := make([]byte, 4*n)
	dev.Read(c, out)
	for i := 0; i < n; i++ {
		fmt.Println(math.Float32frombits(binary.LittleEndian.Uint32(out[4*i:])))
	}
	// One warp ran each of the kernel's 22 instructions once.
	fmt.Println("warp instructions:", res.Counters.InstExecuted)
	// Output:
	// 11
	// 22
	// 33
	// 44
	// warp instructions: 22
}

// NewDevice makes a simulated GPU from a preset; Options tune it.
func ExampleNewDevice() {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Mode: warpsim.ModeFunctional})
	fmt.Println(dev.Arch().Name, dev.Arch().SMs, "SMs,", dev.Mode())
	// Output: h100 132 SMs, functional
}

// LoadModule parses PTX; a mistake is reported as file:line:col.
func ExampleDevice_LoadModule() {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{})
	_, err := dev.LoadModule("bad.ptx", []byte(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() { ret }\n"))
	fmt.Println(err)
	mod, _ := dev.LoadModule("vecadd.ptx", []byte(vecAddPTX))
	for _, k := range mod.Kernels() {
		fmt.Println(k.Name(), k.ParamBytes(), "parameter bytes")
	}
	// Output:
	// bad.ptx:4:27: expected operand, found '}'
	// bad.ptx:5:1: expected '}', found end of file
	// vecAdd 28 parameter bytes
}

// Kernel finds a kernel by its PTX name (or its demangled C++ name) and
// describes its parameters.
func ExampleModule_Kernel() {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{})
	mod, _ := dev.LoadModule("vecadd.ptx", []byte(vecAddPTX))
	k, _ := mod.Kernel("vecAdd")
	for _, p := range k.Params() {
		fmt.Printf("%s %s at %d\n", p.Type, p.Name, p.Offset)
	}
	_, err := mod.Kernel("vecSub")
	fmt.Println(err)
	// Output:
	// u64 pa at 0
	// u64 pb at 8
	// u64 pc at 16
	// u32 n at 24
	// no kernel "vecSub" in vecadd.ptx (kernels: vecAdd)
}

// Malloc, Write and Read are the device's global memory, bounds-checked.
func ExampleDevice_Malloc() {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{})
	p, _ := dev.Malloc(8)
	dev.Write(p, []byte{1, 2, 3, 4, 5, 6, 7, 8})
	got := make([]byte, 4)
	dev.Read(p+4, got)
	fmt.Println(got)
	fmt.Println(dev.Read(p+4, make([]byte, 8)) != nil) // past the allocation
	// Output:
	// [5 6 7 8]
	// true
}

// Launch refuses a configuration the GPU would refuse, with the CUDA error
// code the H100's driver returns.
func ExampleDevice_Launch_configError() {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{})
	mod, _ := dev.LoadModule("vecadd.ptx", []byte(vecAddPTX))
	k, _ := mod.Kernel("vecAdd")
	_, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 2048, Y: 1, Z: 1}}, params(0, 0, 0, 0))
	var ce *warpsim.ConfigError
	if errors.As(err, &ce) {
		fmt.Println(ce.Code, ce)
	}
	// Output: 1 launch of vecAdd: block (2048,1,1) has 2048 threads; h100 allows at most 1024
}

// A kernel that faults returns a *Fault saying where, with the CUDA error
// a program would see.
func ExampleFault() {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{})
	mod, _ := dev.LoadModule("vecadd.ptx", []byte(vecAddPTX))
	k, _ := mod.Kernel("vecAdd")
	a, _ := dev.Malloc(16)
	// c is 0: the store of the first thread is out of bounds.
	_, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 4, Y: 1, Z: 1}}, params(a, a, 0, 4))
	var f *warpsim.Fault
	if errors.As(err, &f) {
		fmt.Println(f.Kind, "at line", f.PTXLine, "block", f.Block, "thread", f.Thread, "code", f.Kind.CUDAError())
		fmt.Println(f.Instr)
	}
	// Output:
	// out-of-bounds access at line 31 block (0,0,0) thread (0,0,0) code 700
	// st.global.f32 [%rd10], %f3;
}

// Sanitize puts the device under compute-sanitizer's memcheck: the first
// bad access stops the kernel, and the finding reads as compute-sanitizer
// prints it.
func ExampleDevice_Sanitize() {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{})
	san, err := dev.Sanitize(warpsim.SanitizeOptions{Tool: "memcheck"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer san.Close()
	mod, _ := dev.LoadModule("vecadd.ptx", []byte(vecAddPTX))
	k, _ := mod.Kernel("vecAdd")
	a, _ := dev.Malloc(16) // 4 floats
	c, _ := dev.Malloc(20) // 5 floats
	// n is 5: thread 4 reads element 4 of a (as b, the first load), past its end.
	_, err = dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 8, Y: 1, Z: 1}}, params(a, a, c, 5))
	var f *warpsim.Fault
	if errors.As(err, &f) {
		fmt.Println("stopped:", f.Kind == warpsim.FaultSanitizer, "code", f.Kind.CUDAError())
	}
	for _, fd := range san.Findings() {
		fmt.Println(fd)
	}
	fmt.Println(san.Errors(), "error")
	// Output:
	// stopped: true code 719
	// Invalid __global__ read of size 4 bytes
	//     at vecAdd+0xf0 in vecadd.ptx:26
	//     by thread (4,0,0) in block (0,0,0)
	//     Access to 0x7f0000000010 is out of bounds
	//     and is 1 bytes after the nearest allocation at 0x7f0000000000 of size 16 bytes
	// 1 error
}
