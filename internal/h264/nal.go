package h264

// NAL unit types this package writes or the host side reads.
const (
	NALSlice = 1 // coded slice of a non-IDR picture
	NALIDR   = 5 // coded slice of an IDR picture
	NALSEI   = 6
	NALSPS   = 7
	NALPPS   = 8
	NALAUD   = 9
)

var startCode = []byte{0, 0, 0, 1}

// appendNAL appends one Annex-B NAL unit: start code, header byte, then the RBSP with
// emulation prevention bytes, so no 00 00 0x (x ≤ 3) sequence appears inside it.
func appendNAL(dst []byte, refIdc, typ byte, rbsp []byte) []byte {
	dst = append(dst, startCode...)
	dst = append(dst, refIdc<<5|typ)
	zeros := 0
	start := 0
	for i, b := range rbsp {
		if zeros >= 2 && b <= 3 {
			dst = append(dst, rbsp[start:i]...)
			dst = append(dst, 3)
			start = i
			zeros = 0
		}
		if b == 0 {
			zeros++
		} else {
			zeros = 0
		}
	}
	return append(dst, rbsp[start:]...)
}
