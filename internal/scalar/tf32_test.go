package scalar

import "testing"

// TestCvtF32ToTF32 checks the cases the H100 recording singled out
// (testdata/conformance/fp8_packed has them all).
func TestCvtF32ToTF32(t *testing.T) {
	cases := []struct {
		a         uint32
		r         Rounding
		relu, sat bool
		want      uint32
		why       string
	}{
		{0x3f801000, RNA, false, false, 0x3f802000, "tie rounds away"},
		{0xbf801000, RNA, false, false, 0xbf802000, "tie rounds away, negative"},
		{0x3f801000, RN, false, false, 0x3f800000, "tie to even"},
		{0x7f7ff000, RNA, false, false, 0x7f800000, "MAX_NORM rounds up to infinity"},
		{0x7f7ff000, RNA, false, true, 0x7f7fe000, "satfinite keeps it finite"},
		{0xff851000, RNA, false, false, 0xff850000, "a NaN is truncated"},
		{0x7fc00000, RNA, false, true, 0x7fbfe000, "satfinite lowers a NaN's exponent pattern too"},
		{0xffc00000, RN, false, false, 0x7fffe000, ".rn: every NaN is 0x7fffe000"},
		{0xff851000, RZ, true, false, 0x7fffe000, ".rz.relu: every NaN is 0x7fffe000"},
		{0xbf800000, RN, true, false, 0, "relu"},
	}
	for _, c := range cases {
		if got := CvtF32ToTF32(c.a, c.r, c.relu, c.sat); got != c.want {
			t.Errorf("%s: %#08x → %#08x, want %#08x", c.why, c.a, got, c.want)
		}
	}
}
