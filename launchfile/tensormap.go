package launchfile

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/warpsim/warpsim/internal/tmap"
)

// TensorMap is a {"tensor_map": {...}} argument: a CUtensorMap (a
// __grid_constant__ const CUtensorMap parameter, 128 bytes) that Execute
// encodes over a buffer as cuTensorMapEncodeTiled would:
//
//	{"tensor_map": {"buffer": "x", "offset": 0, "type": "f32",
//	  "dims": [72, 100], "strides": [288], "box": [32, 32],
//	  "element_strides": [1, 1], "swizzle": "128B", "oob_fill": "nan",
//	  "l2_promotion": "256B"}}
//
// or, with "mode": "im2col", as cuTensorMapEncodeIm2col would: a rank 3
// to 5 tensor (dims C, W[, H[, D]], N) whose loads gather
// pixels_per_column pixels of channels_per_pixel channels from the pixel
// box between the two corners (rank-2 entries each, W first):
//
//	{"tensor_map": {"mode": "im2col", "buffer": "x", "type": "f16",
//	  "dims": [16, 9, 6, 2], "strides": [32, 288, 1728],
//	  "pixel_box_lower_corner": [-1, -1], "pixel_box_upper_corner": [-1, -1],
//	  "channels_per_pixel": 16, "pixels_per_column": 64}}
//
// dims, box and element_strides are innermost first; strides are the byte
// strides of dims 1.. (one fewer than dims); mode defaults to "tiled",
// element_strides to 1, swizzle to "none", oob_fill to "zero",
// l2_promotion to "none".
type TensorMap struct {
	tiled  tmap.Tiled   // a tiled map's encoder arguments (internal/tmap), the buffer's address filled in by encode
	im2col *tmap.Im2col // an im2col map's, or nil
}

var tensorMapTypes = map[string]uint8{"u8": tmap.U8, "u16": tmap.U16, "u32": tmap.U32, "s32": tmap.S32,
	"u64": tmap.U64, "s64": tmap.S64, "f16": tmap.F16, "f32": tmap.F32, "f64": tmap.F64, "bf16": tmap.BF16,
	"f32_ftz": tmap.F32FTZ, "tf32": tmap.TF32, "tf32_ftz": tmap.TF32FTZ}

var tensorMapSwizzles = map[string]uint8{"none": 0, "32B": 1, "64B": 2, "128B": 3}
var tensorMapL2 = map[string]uint8{"none": 0, "64B": 1, "128B": 2, "256B": 3}
var tensorMapFill = map[string]uint8{"zero": 0, "nan": 1}

// tensorMapModes: the encoder each mode names.
var tensorMapModes = map[string]uint8{"tiled": 0, "im2col": 1}

const (
	tiledKeys  = "buffer, offset, type, dims, strides, box, element_strides, swizzle, l2_promotion, oob_fill, mode"
	im2colKeys = "pixel_box_lower_corner, pixel_box_upper_corner, channels_per_pixel, pixels_per_column"
)

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
	isList := func(m *member, key string) bool {
		if m.value.kind != kindArray || len(m.value.elems) == 0 || len(m.value.elems) > 5 {
			l.errorf(m.value.off, key, "want a list of 1 to 5 integers")
			ok = false
			return false
		}
		return true
	}
	list := func(m *member, key string, limit uint64) []uint64 {
		if !isList(m, key) {
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
	// corners are the driver's int pixelBoxLowerCorner[]/UpperCorner[]:
	// any int32 reads; the encoder checks the rank's range.
	corners := func(m *member, key string) []int32 {
		if !isList(m, key) {
			return nil
		}
		var out []int32
		for i, e := range m.value.elems {
			x, good := l.int32Value(e, fmt.Sprintf("%s[%d]", key, i))
			ok = ok && good
			out = append(out, x)
		}
		return out
	}
	var t tmap.Tiled
	var mode uint8
	var sawType, sawDims, sawBuf bool
	var box, lower, upper, channels, pixels *member // set when given, to check them against the mode
	var lo, up []int32
	var cpp, ppc uint64
	var es []uint64
	for i := range v.members {
		m := &v.members[i]
		key := path + "." + m.key
		switch m.key {
		case "mode":
			enum(m, key, tensorMapModes, &mode)
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
			enum(m, key, tensorMapTypes, &t.DType)
			sawType = true
		case "dims":
			t.Dim = list(m, key, 1<<32)
			sawDims = true
		case "strides":
			if m.value.kind == kindArray && len(m.value.elems) == 0 {
				continue
			}
			t.Stride = list(m, key, 1<<40)
		case "box":
			for _, x := range list(m, key, 256) {
				t.Box = append(t.Box, uint32(x))
			}
			box = m
		case "pixel_box_lower_corner":
			lo, lower = corners(m, key), m
		case "pixel_box_upper_corner":
			up, upper = corners(m, key), m
		case "channels_per_pixel":
			var good bool
			cpp, good = l.uintValue(m.value, key, math.MaxUint32)
			ok, channels = ok && good, m
		case "pixels_per_column":
			var good bool
			ppc, good = l.uintValue(m.value, key, math.MaxUint32)
			ok, pixels = ok && good, m
		case "element_strides":
			es = list(m, key, 8)
		case "swizzle":
			enum(m, key, tensorMapSwizzles, &t.Swizzle)
		case "l2_promotion":
			enum(m, key, tensorMapL2, &t.L2)
		case "oob_fill":
			enum(m, key, tensorMapFill, &t.OOBFill)
		default:
			l.errorf(m.keyOff, key, "unknown key (want %s, %s)", tiledKeys, im2colKeys)
			ok = false
		}
	}
	if !ok {
		return false
	}
	// Keys of the other mode's encoder.
	isIm2col := mode == tensorMapModes["im2col"]
	if isIm2col {
		if box != nil {
			l.errorf(box.keyOff, path+".box", `an im2col map has no box: its loads gather pixels_per_column pixels of channels_per_pixel channels`)
			return false
		}
	} else {
		for _, m := range []*member{lower, upper, channels, pixels} {
			if m != nil {
				l.errorf(m.keyOff, path+"."+m.key, `%s is for "mode": "im2col" (a tiled map has a box)`, m.key)
				return false
			}
		}
	}
	switch {
	case isIm2col && (!sawBuf || !sawType || !sawDims || lower == nil || upper == nil || channels == nil || pixels == nil):
		l.errorf(v.off, path, "an im2col tensor map needs buffer, type, dims, %s", im2colKeys)
		return false
	case !isIm2col && (!sawBuf || !sawType || !sawDims || box == nil):
		l.errorf(v.off, path, "a tensor map needs buffer, type, dims and box")
		return false
	}
	n := len(t.Dim)
	switch {
	case len(t.Stride) != n-1:
		l.errorf(v.off, path, "strides has %d entries; %d dims need %d (the byte strides of dims 1..)", len(t.Stride), n, n-1)
		return false
	case es != nil && len(es) != n:
		l.errorf(v.off, path, "element_strides has %d entries, dims %d", len(es), n)
		return false
	}
	t.Rank = uint32(n)
	for i := range t.Dim {
		e := uint32(1)
		if es != nil {
			e = uint32(es[i])
		}
		t.EStride = append(t.EStride, e)
	}
	tm := &TensorMap{tiled: t}
	if isIm2col {
		switch {
		case n < 3:
			l.errorf(v.off, path, "an im2col map has 3 to 5 dims (C, W[, H[, D]], N), got %d", n)
			return false
		case len(lo) != n-2:
			l.errorf(lower.value.off, path+".pixel_box_lower_corner", "%d entries; %d dims need %d (W[, H[, D]])", len(lo), n, n-2)
			return false
		case len(up) != n-2:
			l.errorf(upper.value.off, path+".pixel_box_upper_corner", "%d entries; %d dims need %d (W[, H[, D]])", len(up), n, n-2)
			return false
		}
		tm.im2col = &tmap.Im2col{DType: t.DType, Rank: t.Rank, Dim: t.Dim, Stride: t.Stride, Lower: lo, Upper: up,
			Channels: uint32(cpp), Pixels: uint32(ppc), EStride: t.EStride, Swizzle: t.Swizzle, L2: t.L2, OOBFill: t.OOBFill}
	} else if len(t.Box) != n {
		l.errorf(v.off, path, "box has %d entries, dims %d", len(t.Box), n)
		return false
	}
	a.TensorMap, a.Type = tm, "tensor_map"
	return true
}

// int32Value reads an integer in the range of an int32.
func (l *loader) int32Value(v *node, key string) (int32, bool) {
	if v.kind != kindNumber {
		l.errorf(v.off, key, "want an integer, got %s", v.kind)
		return 0, false
	}
	n, err := strconv.ParseInt(string(v.num), 10, 32)
	if err != nil {
		l.errorf(v.off, key, "want an integer in [%d, %d], got %s", math.MinInt32, math.MaxInt32, v.num)
		return 0, false
	}
	return int32(n), true
}

// encode makes the map's 128 bytes over the buffer at addr.
func (tm *TensorMap) encode(addr uint64) ([]byte, error) {
	var m tmap.Map
	var code int
	var why, fn string
	if tm.im2col != nil {
		a := *tm.im2col
		a.Addr = addr
		m, code, why = tmap.EncodeIm2col(a)
		fn = "cuTensorMapEncodeIm2col"
	} else {
		t := tm.tiled
		t.Addr = addr
		m, code, why = tmap.EncodeTiled(t)
		fn = "cuTensorMapEncodeTiled"
	}
	if code != tmap.Success {
		return nil, fmt.Errorf("tensor map: %s would return CUDA_ERROR_INVALID_VALUE: %s", fn, why)
	}
	b := make([]byte, tmap.Size)
	m.Encode(b)
	return b, nil
}
