// Package h264 is a small, exact H.264 encoder for screen content: Constrained
// Baseline profile, Annex-B byte stream, one slice per picture. An IDR picture codes
// every macroblock as I_PCM (raw samples); a P picture codes the macroblocks that
// changed since the previous picture as I_PCM and skips the rest (P_Skip, which
// copies them from the reference). The decoded pictures therefore equal the input
// converted to 4:2:0 YCbCr, sample for sample, and an unchanged screen costs nothing.
//
// Without motion vectors or residual coding the output is large (about 1.5 bytes per
// changed pixel); it is meant for loopback and cable links, where exactness and a
// pure-Go build matter more than bit rate.
package h264

import (
	"bytes"
	"fmt"
	"image"
)

// log2MaxFrameNum sets frame_num's range; P pictures count up in it and wrap.
const log2MaxFrameNum = 8

// mbTypeIPCMInI and mbTypeIPCMInP are the I_PCM mb_type codes in I and P slices.
const (
	mbTypeIPCMInI = 25
	mbTypeIPCMInP = 5 + 25
)

// Encoder turns RGBA frames of one size into H.264 access units.
type Encoder struct {
	w, h     int
	mbW, mbH int
	level    byte
	cur, ref planes
	started  bool // an IDR has been coded, so ref is valid
	frameNum uint32
	idrID    uint32
	headers  []byte
	dirty    []bool // per macroblock, scratch for Encode
}

// levels are H.264 Table A-1's maximum frame sizes in macroblocks, smallest first.
var levels = []struct {
	maxFS int
	idc   byte
}{
	{99, 10}, {396, 20}, {792, 21}, {1620, 30}, {3600, 31}, {5120, 32},
	{8192, 40}, {8704, 42}, {22080, 50}, {36864, 51}, {139264, 60},
}

// NewEncoder prepares an encoder for width×height frames. Both must be even (4:2:0
// cropping works in pairs) and fit the largest H.264 level.
func NewEncoder(width, height int) (*Encoder, error) {
	if width <= 0 || height <= 0 || width%2 != 0 || height%2 != 0 {
		return nil, fmt.Errorf("h264: frame size %dx%d: width and height must be positive and even", width, height)
	}
	mbW, mbH := (width+15)/16, (height+15)/16
	e := &Encoder{w: width, h: height, mbW: mbW, mbH: mbH}
	for _, l := range levels {
		// A level also bounds each side: at most sqrt(8 × MaxFS) macroblocks.
		if mbW*mbH <= l.maxFS && mbW*mbW <= 8*l.maxFS && mbH*mbH <= 8*l.maxFS {
			e.level = l.idc
			break
		}
	}
	if e.level == 0 {
		return nil, fmt.Errorf("h264: frame size %dx%d exceeds every H.264 level", width, height)
	}
	e.cur, e.ref = newPlanes(mbW, mbH), newPlanes(mbW, mbH)
	e.dirty = make([]bool, mbW*mbH)
	e.headers = appendNAL(nil, 3, NALSPS, e.sps())
	e.headers = appendNAL(e.headers, 3, NALPPS, e.pps())
	return e, nil
}

// Headers returns the SPS and PPS NAL units, the stream's codec configuration.
func (e *Encoder) Headers() []byte { return bytes.Clone(e.headers) }

// Encode codes img, which must be exactly the encoder's size. It returns an IDR
// access unit (headers included) for the first frame or when key is set, a P access
// unit holding the changed macroblocks otherwise, and nil when nothing changed.
func (e *Encoder) Encode(img *image.RGBA, key bool) (au []byte, isKey bool, err error) {
	if b := img.Bounds(); b.Dx() != e.w || b.Dy() != e.h {
		return nil, false, fmt.Errorf("h264: frame is %dx%d, encoder codes %dx%d", b.Dx(), b.Dy(), e.w, e.h)
	}
	e.cur.fill(img, e.w, e.h)
	idr := key || !e.started
	changed := 0
	for i := range e.dirty {
		e.dirty[i] = idr || e.differs(i%e.mbW, i/e.mbW)
		if e.dirty[i] {
			changed++
		}
	}
	if changed == 0 {
		return nil, false, nil
	}
	var out []byte
	if idr {
		out = append(out, e.headers...)
		e.frameNum = 0
		out = appendNAL(out, 3, NALIDR, e.slice(true, changed))
		e.idrID = (e.idrID + 1) % 65536
	} else {
		e.frameNum = (e.frameNum + 1) % (1 << log2MaxFrameNum)
		out = appendNAL(out, 2, NALSlice, e.slice(false, changed))
	}
	e.started = true
	e.cur, e.ref = e.ref, e.cur
	return out, idr, nil
}

// differs compares one macroblock of the new picture with the reference.
func (e *Encoder) differs(mx, my int) bool {
	c, r := &e.cur, &e.ref
	for y := 0; y < 16; y++ {
		o := (my*16+y)*c.yStride + mx*16
		if !bytes.Equal(c.y[o:o+16], r.y[o:o+16]) {
			return true
		}
	}
	for y := 0; y < 8; y++ {
		o := (my*8+y)*c.cStride + mx*8
		if !bytes.Equal(c.cb[o:o+8], r.cb[o:o+8]) || !bytes.Equal(c.cr[o:o+8], r.cr[o:o+8]) {
			return true
		}
	}
	return false
}

func (e *Encoder) sps() []byte {
	var w bitWriter
	w.u(8, 66)   // profile_idc: Baseline
	w.u(8, 0xE0) // constraint_set0..2: Constrained Baseline, decodable by Main and Extended
	w.u(8, uint32(e.level))
	w.ue(0) // seq_parameter_set_id
	w.ue(log2MaxFrameNum - 4)
	w.ue(2)   // pic_order_cnt_type 2: output order is decoding order
	w.ue(1)   // max_num_ref_frames
	w.u(1, 0) // gaps_in_frame_num_value_allowed_flag
	w.ue(uint32(e.mbW - 1))
	w.ue(uint32(e.mbH - 1))
	w.u(1, 1) // frame_mbs_only_flag
	w.u(1, 1) // direct_8x8_inference_flag
	cropR, cropB := (e.mbW*16-e.w)/2, (e.mbH*16-e.h)/2
	w.flag(cropR > 0 || cropB > 0)
	if cropR > 0 || cropB > 0 {
		w.ue(0)
		w.ue(uint32(cropR))
		w.ue(0)
		w.ue(uint32(cropB))
	}
	w.u(1, 1) // vui_parameters_present_flag
	e.vui(&w)
	w.trailing()
	return w.buf
}

// vui states the colour space the samples are in and that no picture is ever held
// back for reordering, so decoders output each frame as soon as it arrives.
func (e *Encoder) vui(w *bitWriter) {
	w.u(1, 0)  // aspect_ratio_info_present_flag
	w.u(1, 0)  // overscan_info_present_flag
	w.u(1, 1)  // video_signal_type_present_flag
	w.u(3, 5)  // video_format: unspecified
	w.u(1, 0)  // video_full_range_flag: limited range
	w.u(1, 1)  // colour_description_present_flag
	w.u(8, 1)  // colour_primaries: BT.709 (sRGB's primaries)
	w.u(8, 13) // transfer_characteristics: sRGB
	w.u(8, 6)  // matrix_coefficients: BT.601
	w.u(1, 0)  // chroma_loc_info_present_flag
	w.u(1, 0)  // timing_info_present_flag
	w.u(1, 0)  // nal_hrd_parameters_present_flag
	w.u(1, 0)  // vcl_hrd_parameters_present_flag
	w.u(1, 0)  // pic_struct_present_flag
	w.u(1, 1)  // bitstream_restriction_flag
	w.u(1, 1)  // motion_vectors_over_pic_boundaries_flag
	w.ue(0)    // max_bytes_per_pic_denom
	w.ue(0)    // max_bits_per_mb_denom
	w.ue(16)   // log2_max_mv_length_horizontal
	w.ue(16)   // log2_max_mv_length_vertical
	w.ue(0)    // max_num_reorder_frames
	w.ue(1)    // max_dec_frame_buffering
}

func (e *Encoder) pps() []byte {
	var w bitWriter
	w.ue(0)   // pic_parameter_set_id
	w.ue(0)   // seq_parameter_set_id
	w.u(1, 0) // entropy_coding_mode_flag: CAVLC
	w.u(1, 0) // bottom_field_pic_order_in_frame_present_flag
	w.ue(0)   // num_slice_groups_minus1
	w.ue(0)   // num_ref_idx_l0_default_active_minus1
	w.ue(0)   // num_ref_idx_l1_default_active_minus1
	w.u(1, 0) // weighted_pred_flag
	w.u(2, 0) // weighted_bipred_idc
	w.se(0)   // pic_init_qp_minus26
	w.se(0)   // pic_init_qs_minus26
	w.se(0)   // chroma_qp_index_offset
	w.u(1, 1) // deblocking_filter_control_present_flag
	w.u(1, 0) // constrained_intra_pred_flag
	w.u(1, 0) // redundant_pic_cnt_present_flag
	w.trailing()
	return w.buf
}

// slice codes the whole picture as one slice: header, then the macroblocks.
func (e *Encoder) slice(idr bool, changed int) []byte {
	var w bitWriter
	w.buf = make([]byte, 0, changed*(384+4)+64)
	w.ue(0) // first_mb_in_slice
	if idr {
		w.ue(7) // slice_type: I, and every slice of the picture is I
	} else {
		w.ue(5) // slice_type: P, and every slice of the picture is P
	}
	w.ue(0) // pic_parameter_set_id
	w.u(log2MaxFrameNum, e.frameNum)
	if idr {
		w.ue(e.idrID)
	} else {
		w.u(1, 0) // num_ref_idx_active_override_flag
		w.u(1, 0) // ref_pic_list_modification_flag_l0
	}
	if idr {
		w.u(1, 0) // no_output_of_prior_pics_flag
		w.u(1, 0) // long_term_reference_flag
	} else {
		w.u(1, 0) // adaptive_ref_pic_marking_mode_flag: sliding window
	}
	w.se(0) // slice_qp_delta
	// The deblocking filter would blur the edges between I_PCM and skipped
	// macroblocks; turning it off keeps the picture exact.
	w.ue(1) // disable_deblocking_filter_idc
	skip := uint32(0)
	for i, d := range e.dirty {
		if !d {
			skip++
			continue
		}
		if idr {
			w.ue(mbTypeIPCMInI)
		} else {
			w.ue(skip)
			skip = 0
			w.ue(mbTypeIPCMInP)
		}
		w.alignZero()
		e.appendPCM(&w, i%e.mbW, i/e.mbW)
	}
	if skip > 0 {
		w.ue(skip)
	}
	w.trailing()
	return w.buf
}

// appendPCM writes one macroblock's samples: 16×16 luma, then 8×8 Cb and 8×8 Cr.
func (e *Encoder) appendPCM(w *bitWriter, mx, my int) {
	c := &e.cur
	for y := 0; y < 16; y++ {
		o := (my*16+y)*c.yStride + mx*16
		w.bytes(c.y[o : o+16])
	}
	for _, pl := range [][]byte{c.cb, c.cr} {
		for y := 0; y < 8; y++ {
			o := (my*8+y)*c.cStride + mx*8
			w.bytes(pl[o : o+8])
		}
	}
}
