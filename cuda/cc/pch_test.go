package cc

import (
	"slices"
	"strings"
	"testing"
)

// TestPCHKeyArgs checks what keys a precompiled header: a pass's command
// line less its source, output, compilation-unit ID and embedded PTX, so
// that two sources compiled alike share one, and any flag that changes the
// preprocessing or the language (-D, -I, -std, -O, the side) has its own.
func TestPCHKeyArgs(t *testing.T) {
	d := &Driver{files: "/cache/v1"}
	dev := func(o *Options, src, out string) []string {
		return append([]string{"-cuid=" + src}, d.DeviceFlags(o, src, out, false)...)
	}
	host := func(o *Options, src, ptx, out string) []string {
		f := []string{"-cuid=" + src, "-x", "cuda", "--cuda-host-only"}
		f = append(f, d.commonFlags(o)...)
		return append(f, "-w", "-Xclang", "-fcuda-include-gpubinary", "-Xclang", ptx, "-O3", "-fwrapv", "-c", "-o", out, src)
	}
	base := &Options{OptLevel: "-O3", Arch: "sm_90"}
	key := strings.Join(pchKeyArgs(dev(base, "a.cu", "a.ptx")), " ")
	if key == "" {
		t.Fatal("the device pass has no key")
	}
	for _, bad := range []string{"a.cu", "a.ptx", "-cuid", "-S"} {
		if strings.Contains(key, bad) {
			t.Errorf("the device pass's key holds %q: %s", bad, key)
		}
	}
	if k := strings.Join(pchKeyArgs(dev(base, "b.cu", "b.ptx")), " "); k != key {
		t.Errorf("two sources compiled alike have different keys:\n%s\n%s", key, k)
	}
	hk := pchKeyArgs(host(base, "a.cu", "a.ptx", "a.o"))
	if slices.Contains(hk, "a.ptx") || slices.Contains(hk, "-fcuda-include-gpubinary") || slices.Contains(hk, "a.o") {
		t.Errorf("the host pass's key holds its PTX or object: %v", hk)
	}
	if h2 := pchKeyArgs(host(base, "b.cu", "b.ptx", "b.o")); !slices.Equal(h2, hk) {
		t.Errorf("two sources' host passes have different keys:\n%v\n%v", hk, h2)
	}
	if strings.Join(hk, " ") == key {
		t.Error("the host and device passes share a key")
	}
	for _, o := range []*Options{
		{OptLevel: "-O3", Arch: "sm_90", Defines: []string{"-DN=4"}},
		{OptLevel: "-O3", Arch: "sm_90", Defines: []string{"-UN"}},
		{OptLevel: "-O3", Arch: "sm_90", Includes: []string{"inc"}},
		{OptLevel: "-O3", Arch: "sm_90", Std: "-std=c++17"},
		{OptLevel: "-O2", Arch: "sm_90"},
		{OptLevel: "-O3", Arch: "sm_80"},
		{OptLevel: "-O3", Arch: "sm_90", RDC: true},
	} {
		if k := strings.Join(pchKeyArgs(dev(o, "a.cu", "a.ptx")), " "); k == key {
			t.Errorf("%+v: the same key as the defaults'", *o)
		}
	}
	// A command line that does not include cuda_runtime.h itself (the
	// conformance kernels' plain clang) has no precompiled header.
	if k := pchKeyArgs([]string{"-x", "cuda", "-O3", "-S", "-o", "k.ptx", "k.cu"}); k != nil {
		t.Errorf("a pass without -include cuda_runtime.h has a key: %v", k)
	}
}
