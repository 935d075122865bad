package warpsim_test

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

const apiPTX = `.version 8.0
.target sm_90
.address_size 64
.global .align 4 .u32 counter = 7;
.const .align 4 .f32 coeffs[3] = {0f3F800000, 0fBF000000, 0f3E800000};
.visible .entry _Z3addIiEvPT_i(.param .u64 _Z3addIiEvPT_i_param_0, .param .u32 _Z3addIiEvPT_i_param_1)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [_Z3addIiEvPT_i_param_0];
	ld.param.u32 %r1, [_Z3addIiEvPT_i_param_1];
	mov.u32 %r2, %tid.x;
	mul.wide.u32 %rd2, %r2, 4;
	add.s64 %rd3, %rd1, %rd2;
	ld.global.u32 %r3, [%rd3];
	add.s32 %r3, %r3, %r1;
	st.global.u32 [%rd3], %r3;
	ret;
}
`

func TestAPI(t *testing.T) {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Workers: 1})
	m, err := dev.LoadModule("api.ptx", []byte(apiPTX))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"_Z3addIiEvPT_i", "void add<int>(int*, int)", "add<int>", "add"} {
		k, err := m.Kernel(name)
		if err != nil || k.Name() != "_Z3addIiEvPT_i" {
			t.Errorf("Kernel(%q) = %v, %v", name, k, err)
		}
	}
	if _, err := m.Kernel("sub"); err == nil || !strings.Contains(err.Error(), "_Z3addIiEvPT_i") {
		t.Errorf("Kernel(sub) error %v should list the kernels", err)
	}
	k, _ := m.Kernel("add")
	if got := k.Params(); len(got) != 2 || got[0].Offset != 0 || got[0].Size != 8 || got[1].Offset != 8 || got[1].Size != 4 || k.ParamBytes() != 12 {
		t.Errorf("Params %+v, ParamBytes %d", got, k.ParamBytes())
	}
	if k.DemangledName() != "void add<int>(int*, int)" {
		t.Errorf("DemangledName %q", k.DemangledName())
	}
	if addr, size, ok := m.Global("coeffs"); !ok || size != 12 || addr == 0 {
		t.Errorf("Global(coeffs) = %#x, %d, %v", addr, size, ok)
	} else {
		b := make([]byte, 12)
		dev.Read(addr, b)
		if b[3] != 0x3f || b[7] != 0xbf || b[11] != 0x3e {
			t.Errorf("coeffs bytes % x", b)
		}
	}
	buf, err := dev.Malloc(100)
	if err != nil || buf == 0 || buf%256 != 0 {
		t.Fatalf("Malloc = %#x, %v", buf, err)
	}
	if err := dev.Write(buf+96, make([]byte, 8)); err == nil {
		t.Error("Write past the end of an allocation succeeded")
	}
	dev.Write(buf, []byte{1, 0, 0, 0, 2, 0, 0, 0})
	p := lessonParams(buf, uint32(40))
	if _, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{1, 1, 1}, Block: warpsim.Dim3{2, 1, 1}}, p); err != nil {
		t.Fatal(err)
	}
	out := make([]byte, 8)
	dev.Read(buf, out)
	if out[0] != 41 || out[4] != 42 {
		t.Errorf("results % x, want 41 and 42", out)
	}
	var ce *warpsim.ConfigError
	if _, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{1, 1, 1}, Block: warpsim.Dim3{2048, 1, 1}}, p); !errors.As(err, &ce) {
		t.Errorf("2048-thread block: err %v, want a *ConfigError", err)
	}
	if _, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{1, 1, 1}, Block: warpsim.Dim3{2, 1, 1}}, p[:8]); !errors.As(err, &ce) {
		t.Errorf("short parameter buffer: err %v, want a *ConfigError", err)
	}
	// 32 threads read 128 bytes of a 100-byte allocation: thread 25 faults.
	_, err = dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{1, 1, 1}, Block: warpsim.Dim3{32, 1, 1}}, p)
	var f *warpsim.Fault
	if !errors.As(err, &f) {
		t.Fatalf("err %v, want a *Fault", err)
	}
	if f.Kind != warpsim.FaultOutOfBounds || f.Thread != (warpsim.Dim3{25, 0, 0}) || f.PTXLine != 15 || f.Addr != buf+100 || !f.HasAddr {
		t.Errorf("fault %+v", f)
	}
	msg := f.Error()
	for _, s := range []string{"out-of-bounds", "_Z3addIiEvPT_i", "thread (25,0,0)", "api.ptx:15", "ld.global.u32"} {
		if !strings.Contains(msg, s) {
			t.Errorf("fault report %q lacks %q", msg, s)
		}
	}
}

// TestUnsupportedPerKernel: a construct warpsim cannot run yet makes the
// kernels that reach it (directly or through calls) fail at launch with a
// message naming it; the module loads and its other kernels run.
func TestUnsupportedPerKernel(t *testing.T) {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{})
	src := `.version 8.0
.target sm_90
.address_size 64
.func sample()
{
	tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, {%f5, %f6}];
	ret;
}
.visible .entry direct()
{
	tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, {%f5, %f6}];
	ret;
}
.visible .entry viaCall()
{
	call.uni sample, ();
	ret;
}
.visible .entry fine(.param .u64 p)
{
	.reg .b64 %rd<2>;
	.reg .b32 %r<2>;
	ld.param.u64 %rd1, [p];
	mov.u32 %r1, 7;
	st.global.u32 [%rd1], %r1;
	ret;
}
`
	m, err := dev.LoadModule("tex.ptx", []byte(src))
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	want := []string{
		"kernel direct cannot run: tex.ptx:11:2: tex.2d.v4.f32.f32 is not supported: texture and surface references (.texref, .surfref) are not simulated; use texture objects",
		"kernel viaCall cannot run: it calls sample: tex.ptx:6:2: tex.2d.v4.f32.f32 is not supported: texture and surface references (.texref, .surfref) are not simulated; use texture objects",
	}
	if got := m.Unsupported(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Unsupported() = %q, want %q", got, want)
	}
	cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}}
	for i, name := range []string{"direct", "viaCall"} {
		k, err := m.Kernel(name)
		if err != nil {
			t.Fatal(err)
		}
		_, err = dev.Launch(k, cfg, nil)
		var ue *warpsim.UnsupportedError
		if !errors.As(err, &ue) || err.Error() != want[i] {
			t.Errorf("launch %s: err %v, want %q", name, err, want[i])
		}
	}
	k, _ := m.Kernel("fine")
	buf, _ := dev.Malloc(4)
	if _, err := dev.Launch(k, cfg, binary.LittleEndian.AppendUint64(nil, buf)); err != nil {
		t.Fatalf("launch fine: %v", err)
	}
	got := make([]byte, 4)
	dev.Read(buf, got)
	if binary.LittleEndian.Uint32(got) != 7 {
		t.Errorf("fine wrote %v, want 7", got)
	}
	// A module-wide error still fails the load.
	if _, err := dev.LoadModule("bad.ptx", []byte(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tadd.s32 %r1, %r2;\n}\n")); err == nil {
		t.Error("a malformed instruction loaded")
	}
}

// TestFaultKindsMatchEngine: the public fault kinds are the engine's
// numbers (fault.go spells them out so that go doc shows no internal
// type).
func TestFaultKindsMatchEngine(t *testing.T) {
	for _, c := range []struct {
		pub  warpsim.FaultKind
		want string
	}{
		{warpsim.FaultOutOfBounds, "out-of-bounds access"}, {warpsim.FaultMisaligned, "misaligned access"},
		{warpsim.FaultBarrierDeadlock, "barrier deadlock"}, {warpsim.FaultTrap, "trap"},
		{warpsim.FaultWatchdog, "watchdog: step limit exceeded"}, {warpsim.FaultStackOverflow, "stack overflow"},
		{warpsim.FaultIllegal, "illegal instruction"}, {warpsim.FaultAssert, "assertion failed"},
		{warpsim.FaultInterrupted, "interrupted"}, {warpsim.FaultTimeout, "timeout: wall-clock limit exceeded"},
		{warpsim.FaultHeap, "device heap error"},
	} {
		if got := c.pub.String(); got != c.want {
			t.Errorf("FaultKind %d is %q, want %q", int(c.pub), got, c.want)
		}
	}
}
