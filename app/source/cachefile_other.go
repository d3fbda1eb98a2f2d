//go:build !unix

package source

import "os"

// MapCache reads the cache file at path; mapping it is left to the platforms
// where the saving was measured.
func MapCache(path string) ([]byte, error) { return os.ReadFile(path) }
