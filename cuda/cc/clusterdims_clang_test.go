package cc_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/cuda/cc"
	"github.com/warpsim/warpsim/internal/testenv"
)

// TestClusterDimsThroughClang compiles kernels whose __cluster_dims__ come
// through a macro defined in a header, sizes that are macros and constant
// arithmetic, a namespace and a template, as CUDA code writes them, and
// checks the directives nvcc would write (.reqnctapercluster x, y, z) on
// each entry; a size that is a template parameter stops the compilation
// with a message naming the kernel.
func TestClusterDimsThroughClang(t *testing.T) {
	testenv.NeedClang(t)
	d, err := cc.NewDriver(os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("cluster.h", "#define CLUSTER_X 4\n#define CLUSTERED __cluster_dims__(CLUSTER_X / 2, 1, 1)\n")
	src := write("k.cu", `#include "cluster.h"
__global__ void CLUSTERED viaMacro(int *p) { p[0] = 1; }
namespace ns {
__global__ void __cluster_dims__(CLUSTER_X, 2) inNamespace(int *p) { p[0] = 2; }
}
template <int N> __global__ void __cluster_dims__(2, 1, 1) tmpl(int *p) { p[0] = N; }
template __global__ void tmpl<3>(int *);
__cluster_dims__(1, 1, 2) __global__ void attrFirst(int *p) { p[0] = 4; }
__global__ void none(int *p) { p[0] = 5; }
`)
	ptx := cachedPTX(t, d, src, "-O2", "sm_90") // kept between runs, as are k.cu and cluster.h
	entries := regexp.MustCompile(`\.entry\s+(\w+)\(((?s:[^{]*))\{`).FindAllStringSubmatch(string(ptx), -1)
	got := map[string]string{}
	for _, e := range entries {
		m := regexp.MustCompile(`\.reqnctapercluster (\d+, \d+, \d+)`).FindStringSubmatch(e[2])
		if m != nil && !strings.Contains(e[2], ".explicitcluster") {
			t.Errorf("%s: .reqnctapercluster without .explicitcluster", e[1])
		}
		name := e[1]
		for _, k := range []string{"viaMacro", "inNamespace", "tmpl", "attrFirst", "none"} {
			if strings.Contains(name, k) {
				name = k
			}
		}
		got[name] = ""
		if m != nil {
			got[name] = m[1]
		}
	}
	for k, want := range map[string]string{"viaMacro": "2, 1, 1", "inNamespace": "4, 2, 1", "tmpl": "2, 1, 1", "attrFirst": "1, 1, 2", "none": ""} {
		if g, ok := got[k]; !ok || g != want {
			t.Errorf("%s: cluster %q (present %v), want %q\n%s", k, g, ok, want, ptx)
		}
	}
	bad := write("bad.cu", "template <int N> __global__ void __cluster_dims__(N, 1, 1) tn(int *p) { p[0] = N; }\ntemplate __global__ void tn<2>(int *);\n")
	if _, err := d.PTX(&cc.Options{Inputs: []string{bad}, OptLevel: "-O2", Arch: "sm_90"}, bad); err == nil || !strings.Contains(err.Error(), "kernel tn: __cluster_dims__(N, 1, 1)") {
		t.Errorf("a template parameter as a size: error %v, want one naming kernel tn", err)
	}
}
