//go:build race

package where

// raceEnabled reports that the tests run under the race detector, whose
// sync.Pool drops what is put in it at random.
const raceEnabled = true
