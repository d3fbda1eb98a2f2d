//go:build !race

package voice

// raceDetector is set when the tests run under -race.
const raceDetector = false
