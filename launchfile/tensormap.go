package launchfile

import (
	"fmt"
	"strings"

	"github.com/warpsim/warpsim/internal/tmap"
)

// TensorMap is a {"tensor_map": {...}} argument: a CUtensorMap (a
// __grid_constant__ const CUtensorMap parameter, 128 bytes) that Execute
// encodes as cuTensorMapEncodeTiled would, over a buffer:
//
//	{"tensor_map": {"buffer": "x", "offset": 0, "type": "f32",
//	  "dims": [72, 100], "strides": [288], "box": [32, 32],
//	  "element_strides": [1, 1], "swizzle": "128B", "oob_fill": "nan",
//	  "l2_promotion": "256B"}}
//
// dims, box and element_strides are innermost first; strides are the byte
// strides of dims 1.. (one fewer than dims); element_strides default to 1,
// swizzle to "none", oob_fill to "zero", l2_promotion to "none".
type TensorMap struct {
	args tmap.Tiled // the encoder's arguments (internal/tmap), the buffer's address filled in by encode
}

var tensorMapTypes = map[string]uint8{"u8": tmap.U8, "u16": tmap.U16, "u32": tmap.U32, "s32": tmap.S32,
	"u64": tmap.U64, "s64": tmap.S64, "f16": tmap.F16, "f32": tmap.F32, "f64": tmap.F64, "bf16": tmap.BF16,
	"f32_ftz": tmap.F32FTZ, "tf32": tmap.TF32, "tf32_ftz": tmap.TF32FTZ}

var tensorMapSwizzles = map[string]uint8{"none": 0, "32B": 1, "64B": 2, "128B": 3}
var tensorMapL2 = map[string]uint8{"none": 0, "64B": 1, "128B": 2, "256B": 3}
var tensorMapFill = map[string]uint8{"zero": 0, "nan": 1}

func keysOf(m map[string]uint8) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	// stable order for messages
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return strings.Join(ks, ", ")
}

// tensorMap reads a "tensor_map" argument into a.
func (l *loader) tensorMap(v *node, path string, a *Arg) bool {
	if v.kind != kindObject {
		l.errorf(v.off, path, "want an object (buffer, type, dims, strides, box, ...), got %s", v.kind)
		return false
	}
	tm := &TensorMap{}
	ok := true
	enum := func(m *member, key string, table map[string]uint8, dst *uint8) {
		if m.value.kind != kindString {
			l.errorf(m.value.off, key, "want one of %s", keysOf(table))
			ok = false
			return
		}
		x, found := table[m.value.str]
		if !found {
			l.errorf(m.value.off, key, "unknown %q (want one of %s)", m.value.str, keysOf(table))
			ok = false
			return
		}
		*dst = x
	}
	list := func(m *member, key string, limit uint64) []uint64 {
		if m.value.kind != kindArray || len(m.value.elems) == 0 || len(m.value.elems) > 5 {
			l.errorf(m.value.off, key, "want a list of 1 to 5 integers")
			ok = false
			return nil
		}
		var out []uint64
		for i, e := range m.value.elems {
			x, good := l.uintValue(e, fmt.Sprintf("%s[%d]", key, i), limit)
			ok = ok && good
			out = append(out, x)
		}
		return out
	}
	var sawType, sawDims, sawBox, sawBuf bool
	var es []uint64
	for i := range v.members {
		m := &v.members[i]
		key := path + "." + m.key
		switch m.key {
		case "buffer":
			if m.value.kind != kindString || m.value.str == "" {
				l.errorf(m.value.off, key, "want a buffer name, got %s", m.value.kind)
				ok = false
				continue
			}
			a.Buffer, sawBuf = m.value.str, true
		case "offset":
			x, good := l.uintValue(m.value, key, maxBufferBytes)
			ok = ok && good
			a.Offset = x
		case "type":
			enum(m, key, tensorMapTypes, &tm.args.DType)
			sawType = true
		case "dims":
			tm.args.Dim = list(m, key, 1<<32)
			sawDims = true
		case "strides":
			if m.value.kind == kindArray && len(m.value.elems) == 0 {
				continue
			}
			tm.args.Stride = list(m, key, 1<<40)
		case "box":
			for _, x := range list(m, key, 256) {
				tm.args.Box = append(tm.args.Box, uint32(x))
			}
			sawBox = true
		case "element_strides":
			es = list(m, key, 8)
		case "swizzle":
			enum(m, key, tensorMapSwizzles, &tm.args.Swizzle)
		case "l2_promotion":
			enum(m, key, tensorMapL2, &tm.args.L2)
		case "oob_fill":
			enum(m, key, tensorMapFill, &tm.args.OOBFill)
		default:
			l.errorf(m.keyOff, key, "unknown key (want buffer, offset, type, dims, strides, box, element_strides, swizzle, l2_promotion, oob_fill)")
			ok = false
		}
	}
	if !ok {
		return false
	}
	switch {
	case !sawBuf || !sawType || !sawDims || !sawBox:
		l.errorf(v.off, path, "a tensor map needs buffer, type, dims and box")
		return false
	case len(tm.args.Box) != len(tm.args.Dim):
		l.errorf(v.off, path, "box has %d entries, dims %d", len(tm.args.Box), len(tm.args.Dim))
		return false
	case len(tm.args.Stride) != len(tm.args.Dim)-1:
		l.errorf(v.off, path, "strides has %d entries; %d dims need %d (the byte strides of dims 1..)", len(tm.args.Stride), len(tm.args.Dim), len(tm.args.Dim)-1)
		return false
	case es != nil && len(es) != len(tm.args.Dim):
		l.errorf(v.off, path, "element_strides has %d entries, dims %d", len(es), len(tm.args.Dim))
		return false
	}
	tm.args.Rank = uint32(len(tm.args.Dim))
	for i := range tm.args.Dim {
		e := uint32(1)
		if es != nil {
			e = uint32(es[i])
		}
		tm.args.EStride = append(tm.args.EStride, e)
	}
	a.TensorMap, a.Type = tm, "tensor_map"
	return true
}

// encode makes the map's 128 bytes over the buffer at addr.
func (tm *TensorMap) encode(addr uint64) ([]byte, error) {
	t := tm.args
	t.Addr = addr
	m, code, why := tmap.EncodeTiled(t)
	if code != tmap.Success {
		return nil, fmt.Errorf("tensor map: cuTensorMapEncodeTiled would return CUDA_ERROR_INVALID_VALUE: %s", why)
	}
	b := make([]byte, tmap.Size)
	m.Encode(b)
	return b, nil
}
