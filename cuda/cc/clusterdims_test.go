package cc

import (
	"strings"
	"testing"
)

// TestAddClusterDims: the cluster directives nvcc writes for
// __cluster_dims__ kernels (testdata/clusters/*.nvcc.ptx) are added to
// clang's PTX, for C++ and extern "C" names, missing sizes being 1; a
// kernel without the attribute, or one whose PTX has them, is left alone.
func TestAddClusterDims(t *testing.T) {
	ptx := ".visible .entry _Z3fooPi(\n\t.param .u64 p\n)\n{\n\tret;\n}\n" +
		".visible .entry bar(\n\t.param .u64 p\n)\n.maxntid 64, 1, 1\n{\n\tret;\n}\n" +
		".visible .entry _Z3bazv()\n{\n\tret;\n}\n" +
		".visible .entry _Z3quxv()\n.explicitcluster\n.reqnctapercluster 4, 1, 1\n{\n\tret;\n}\n"
	src := "__global__ void __cluster_dims__(2, 2, 1) foo(int *p) {}\n" +
		"extern \"C\" __global__ void __cluster_dims__(4) bar(int *p) {}\n" +
		"__global__ void baz() {}\n" +
		"__global__ void __cluster_dims__(4, 1, 1) qux() {}\n"
	got := string(AddClusterDims([]byte(src), []byte(ptx)))
	for _, want := range []string{
		".entry _Z3fooPi(\n\t.param .u64 p\n)\n.explicitcluster\n.reqnctapercluster 2, 2, 1\n{",
		".maxntid 64, 1, 1\n.explicitcluster\n.reqnctapercluster 4, 1, 1\n{",
		".entry _Z3bazv()\n{",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if n := strings.Count(got, ".reqnctapercluster"); n != 3 {
		t.Errorf("%d .reqnctapercluster directives, want 3:\n%s", n, got)
	}
}
