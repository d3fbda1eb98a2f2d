//go:build race

package voice

// raceDetector is set when the tests run under -race, where heap figures mean
// nothing and a flood takes minutes.
const raceDetector = true
