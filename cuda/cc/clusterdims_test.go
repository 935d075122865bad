package cc

import (
	"strings"
	"testing"
)

// TestScanClusterDims: the markers of preprocessed source give each
// kernel's sizes (missing ones 1, constant arithmetic and suffixed literals
// evaluated) and its name, wherever the attribute sits in the declaration;
// sizes that are not constants are an error naming the kernel.
func TestScanClusterDims(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []clusterDim
		err  string
	}{
		{src: `__attribute__((global)) void __warpsim_cluster_dims__(2, 2, 1) foo(int *p) {}`, want: []clusterDim{{"foo", [3]int{2, 2, 1}}}},
		{src: `extern "C" __attribute__((global)) void __warpsim_cluster_dims__(4) bar(int *p) {}`, want: []clusterDim{{"bar", [3]int{4, 1, 1}}}},
		{src: `__warpsim_cluster_dims__(2*4, 1u, (1)) __attribute__((global)) __attribute__((launch_bounds(256))) void ns::k(float *p);`, want: []clusterDim{{"k", [3]int{8, 1, 1}}}},
		{src: "template <int N> __attribute__((global)) void\n# 12 \"x.cu\"\n__warpsim_cluster_dims__(0x2, 1, 1)\n tk(int *p) {}", want: []clusterDim{{"tk", [3]int{2, 1, 1}}}},
		{src: `__attribute__((global)) void plain(int *p) {}`},
		{src: `template <int N> __attribute__((global)) void __warpsim_cluster_dims__(N, 1, 1) tn(int *p) {}`, err: `kernel tn: __cluster_dims__(N, 1, 1): warpsim cc takes sizes that are integer constants`},
		{src: "constexpr int NBINS = 512, CSIZE = 4, BPB = NBINS / CSIZE;\nconstexpr int X = 1;\nconst unsigned kY{2 * 1};\n__attribute__((global)) void __warpsim_cluster_dims__(CSIZE, kY, 1) hist(int *p) {}", want: []clusterDim{{"hist", [3]int{4, 2, 1}}}},
		{src: "static constexpr int H = 2;\nconstexpr int W = H * 2;\n__attribute__((global)) void __warpsim_cluster_dims__(W) kw() {}", want: []clusterDim{{"kw", [3]int{4, 1, 1}}}},
		{src: "void f() { const int C = 2; }\nvoid g() { const int C = 4; }\n__attribute__((global)) void __warpsim_cluster_dims__(C) kc() {}", err: `not "C"`},
		{src: `__attribute__((global)) void __warpsim_cluster_dims__(1, 2, 3, 4) k4() {}`, err: `want one to three sizes`},
		{src: `__attribute__((global)) void __warpsim_cluster_dims__(0) k0() {}`, err: `not "0"`},
	} {
		got, err := scanClusterDims([]byte(c.src))
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one saying %q", c.src, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.src, err)
		case len(got) != len(c.want) || (len(got) > 0 && got[0] != c.want[0]):
			t.Errorf("%s: %+v, want %+v", c.src, got, c.want)
		}
	}
}

// TestMangledFunction: the function an Itanium name names, for free,
// namespaced and template kernels.
func TestMangledFunction(t *testing.T) {
	for name, want := range map[string]string{
		"_Z3fooPi":                      "foo",
		"_Z2tkILi4EEvPi":                "tk",
		"_ZN2ns1kEPf":                   "k",
		"_ZN5outer5inner3runILi2EEEvPi": "run",
		"bar":                           "",
		"_Z3fooP1k":                     "foo",
	} {
		if got := mangledFunction(name); got != want {
			t.Errorf("mangledFunction(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestAddClusterDims: the cluster directives nvcc writes for
// __cluster_dims__ kernels (testdata/clusters/*.nvcc.ptx) are added to
// clang's PTX, for C++, extern "C" and every template instance of a name; a
// kernel without the attribute, or one whose PTX has them, is left alone.
func TestAddClusterDims(t *testing.T) {
	ptx := ".visible .entry _Z3fooPi(\n\t.param .u64 p\n)\n{\n\tret;\n}\n" +
		".visible .entry bar(\n\t.param .u64 p\n)\n.maxntid 64, 1, 1\n{\n\tret;\n}\n" +
		".visible .entry _Z3bazv()\n{\n\tret;\n}\n" +
		".visible .entry _Z3quxv()\n.explicitcluster\n.reqnctapercluster 4, 1, 1\n{\n\tret;\n}\n" +
		".visible .entry _Z2tkILi1EEvPi(\n\t.param .u64 p\n)\n{\n\tret;\n}\n" +
		".visible .entry _Z2tkILi2EEvPi(\n\t.param .u64 p\n)\n{\n\tret;\n}\n"
	dims := []clusterDim{{"foo", [3]int{2, 2, 1}}, {"bar", [3]int{4, 1, 1}}, {"qux", [3]int{4, 1, 1}}, {"tk", [3]int{2, 1, 1}}}
	got := string(addClusterDims(dims, []byte(ptx)))
	for _, want := range []string{
		".entry _Z3fooPi(\n\t.param .u64 p\n)\n.explicitcluster\n.reqnctapercluster 2, 2, 1\n{",
		".maxntid 64, 1, 1\n.explicitcluster\n.reqnctapercluster 4, 1, 1\n{",
		".entry _Z3bazv()\n{",
		".entry _Z2tkILi1EEvPi(\n\t.param .u64 p\n)\n.explicitcluster\n.reqnctapercluster 2, 1, 1\n{",
		".entry _Z2tkILi2EEvPi(\n\t.param .u64 p\n)\n.explicitcluster\n.reqnctapercluster 2, 1, 1\n{",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if n := strings.Count(got, ".reqnctapercluster"); n != 5 {
		t.Errorf("%d .reqnctapercluster directives, want 5:\n%s", n, got)
	}
}
