package cc

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
)

// clang-22 accepts __cluster_dims__ (the cluster_dims attribute) on a
// kernel but, for NVPTX, emits nothing for it. nvcc writes
// `.explicitcluster` and `.reqnctapercluster X, Y, Z` after the kernel's
// parameters; AddClusterDims does the same from the source, for kernels
// whose __cluster_dims__ arguments are integer literals
// (docs/clusters.md).

var clusterDimsRE = regexp.MustCompile(`__cluster_dims__\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?(?:,\s*(\d+)\s*)?\)\s*([A-Za-z_]\w*)\s*\(`)

// AddClusterDims adds the cluster directives of the kernels src declares
// with __cluster_dims__ to their entries in ptx.
func AddClusterDims(src, ptx []byte) []byte {
	for _, m := range clusterDimsRE.FindAllSubmatch(src, -1) {
		dims := [3]int{1, 1, 1}
		for i := range 3 {
			if len(m[1+i]) > 0 {
				dims[i], _ = strconv.Atoi(string(m[1+i]))
			}
		}
		name := string(m[4])
		dir := fmt.Sprintf(".explicitcluster\n.reqnctapercluster %d, %d, %d\n", dims[0], dims[1], dims[2])
		for _, entry := range []string{".entry " + name + "(", fmt.Sprintf(".entry _Z%d%s", len(name), name)} {
			at := bytes.Index(ptx, []byte(entry))
			if at < 0 {
				continue
			}
			body := bytes.Index(ptx[at:], []byte("\n{"))
			if body < 0 || bytes.Contains(ptx[at:at+body], []byte(".reqnctapercluster")) {
				break
			}
			pos := at + body + 1
			ptx = append(ptx[:pos:pos], append([]byte(dir), ptx[pos:]...)...)
			break
		}
	}
	return ptx
}
