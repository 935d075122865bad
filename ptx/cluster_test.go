package ptx

import (
	"os"
	"testing"
)

// TestClusterDirectives: nvcc's .explicitcluster and .reqnctapercluster
// (testdata/clusters, recorded with the programs) are kept on the kernel
// and survive printing.
func TestClusterDirectives(t *testing.T) {
	src, err := os.ReadFile("../testdata/clusters/cluster_dsmem.nvcc.ptx")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][3]int{"_Z9histogramPKjiPj": {}, "_Z6reducePKfPf": {4, 1, 1}, "_Z8ptxformsPjS_": {2, 1, 1}}
	for round := range 2 {
		m, err := Parse("cluster_dsmem.nvcc.ptx", src)
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, f := range m.Funcs {
			w, ok := want[f.Name]
			if !ok {
				continue
			}
			seen++
			if f.ReqNCTAPerCluster != w || f.ExplicitCluster != (w != [3]int{}) {
				t.Errorf("round %d: %s: .reqnctapercluster %v explicit %v, want %v", round, f.Name, f.ReqNCTAPerCluster, f.ExplicitCluster, w)
			}
		}
		if seen != len(want) {
			t.Fatalf("round %d: %d of %d kernels found", round, seen, len(want))
		}
		src = Format(m)
	}
	m, err := Parse("k.ptx", []byte(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n.maxclusterrank 8\n{\n\tret;\n}\n"))
	if err != nil || m.Funcs[0].MaxClusterRank != 8 {
		t.Fatalf(".maxclusterrank: %v %+v", err, m)
	}
}
