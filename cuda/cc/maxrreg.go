package cc

import (
	"bytes"
	"fmt"
)

// addMaxNReg writes nvcc's -maxrregcount n into ptx: `.maxnreg n` on every
// kernel entry that has no performance directive of its own (.maxnreg,
// .maxntid, .reqntid, .minnctapersm, which __launch_bounds__ and __maxnreg__
// write and which take precedence, as with ptxas). The register estimate is
// capped by it (occupancy and timing). n <= 0 leaves ptx alone.
func addMaxNReg(n int, ptx []byte) []byte {
	if n <= 0 {
		return ptx
	}
	dir := []byte(fmt.Sprintf(".maxnreg %d\n", n))
	for at := 0; ; {
		loc := entryNameRE.FindIndex(ptx[at:])
		if loc == nil {
			return ptx
		}
		next := at + loc[1]
		body := bytes.Index(ptx[next:], []byte("\n{"))
		if body < 0 {
			return ptx
		}
		head := ptx[next : next+body]
		if !bytes.Contains(head, []byte(".maxnreg")) && !bytes.Contains(head, []byte(".maxntid")) &&
			!bytes.Contains(head, []byte(".reqntid")) && !bytes.Contains(head, []byte(".minnctapersm")) {
			pos := next + body + 1
			ptx = append(ptx[:pos:pos], append(dir, ptx[pos:]...)...)
			next = pos + len(dir)
		}
		at = next
	}
}
