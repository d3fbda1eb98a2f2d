package realtimefake

import (
	"encoding/binary"
	"math"
)

// SampleRate is the only input and output rate the fake speaks: PCM16 mono 24 kHz.
const SampleRate = 24000

const frameSamples = SampleRate / 100 // 10 ms analysis frames

// Span is one stretch of detected speech in milliseconds of audio time since the
// connection's first appended sample.
type Span struct {
	StartMs int `json:"startMs"`
	EndMs   int `json:"endMs"`
}

// vad finds speech by energy: a 10 ms frame is voiced when its RMS is above the
// threshold; speech starts after minVoicedMs of voiced frames and stops after
// silenceMs without one. Spans are reported from the first to the last voiced frame.
type vad struct {
	threshold   float64 // RMS in int16 units
	minVoiced   int     // frames
	silence     int     // frames
	carry       []byte
	frame       int // frames processed
	run         int // consecutive voiced frames
	quiet       int // consecutive unvoiced frames while speaking
	speaking    bool
	start, last int // frame indices of the current span
}

func newVAD(thresholdDBFS float64, silenceMs int) *vad {
	return &vad{
		threshold: 32768 * math.Pow(10, thresholdDBFS/20),
		minVoiced: 3,
		silence:   max(1, silenceMs/10),
	}
}

// setSilence changes how long a pause ends a turn (turn_detection.silence_duration_ms).
func (v *vad) setSilence(ms int) {
	if ms > 0 {
		v.silence = max(1, ms/10)
	}
}

// vadEvent is a speech edge found while feeding audio.
type vadEvent struct {
	started bool // true: speech started; false: speech stopped
	span    Span // for a stop: the whole span; for a start: its start only
}

// feed analyses pcm (PCM16LE) and returns the speech edges it completes.
func (v *vad) feed(pcm []byte) []vadEvent {
	var out []vadEvent
	data := append(v.carry, pcm...)
	n := len(data) / (2 * frameSamples)
	for f := range n {
		frame := data[f*2*frameSamples : (f+1)*2*frameSamples]
		var sum float64
		for i := 0; i < len(frame); i += 2 {
			s := float64(int16(binary.LittleEndian.Uint16(frame[i:])))
			sum += s * s
		}
		voiced := math.Sqrt(sum/frameSamples) >= v.threshold
		idx := v.frame
		v.frame++
		switch {
		case voiced && !v.speaking:
			v.run++
			if v.run >= v.minVoiced {
				v.speaking = true
				v.start = idx - v.run + 1
				v.last = idx
				v.quiet = 0
				out = append(out, vadEvent{started: true, span: Span{StartMs: v.start * 10}})
			}
		case !voiced && !v.speaking:
			v.run = 0
		case voiced && v.speaking:
			v.last = idx
			v.quiet = 0
		default: // unvoiced while speaking
			v.quiet++
			if v.quiet >= v.silence {
				v.speaking = false
				v.run = 0
				out = append(out, vadEvent{span: Span{StartMs: v.start * 10, EndMs: (v.last + 1) * 10}})
			}
		}
	}
	v.carry = append(v.carry[:0:0], data[n*2*frameSamples:]...)
	return out
}

// audioMs is the audio time fed so far.
func (v *vad) audioMs() int { return v.frame*10 + len(v.carry)/2*1000/SampleRate }

// rms is the level of a chunk, for the received log's audio summary.
func rms(pcm []byte) float64 {
	n := len(pcm) / 2
	if n == 0 {
		return 0
	}
	var sum float64
	for i := 0; i+1 < len(pcm); i += 2 {
		s := float64(int16(binary.LittleEndian.Uint16(pcm[i:])))
		sum += s * s
	}
	return math.Sqrt(sum / float64(n))
}
