package source

// Readiness says why an item has no source candidates: Ready ("") when the index is
// built and has sources. The app, the stdio sidecar and `fixthis prompt` decide it the
// same way (ReadinessOf); the prompt's unknown line and the console's inspector show it.
type Readiness string

const (
	Ready Readiness = ""
	// Building: the first build since start-up has not finished.
	Building Readiness = "index-building"
	// Failed: the build failed; candidates stay off until the next start.
	Failed Readiness = "index-error"
	// NoSources: the project folder has no Android sources to index.
	NoSources Readiness = "no-project-dir"
	// NoMatch: the index is ready but nothing in it matches the item.
	NoMatch Readiness = "no-match"
)

// Readinesses lists every value, for the console's wire contract.
var Readinesses = []Readiness{Ready, Building, Failed, NoSources, NoMatch}

// ReadinessOf is the readiness of a finished build: Failed when it returned err,
// NoSources when it found no source files, else Ready.
func ReadinessOf(idx *Index, err error) Readiness {
	switch {
	case err != nil || idx == nil:
		return Failed
	case idx.Stats().Files == 0 && idx.AppIndex() == nil:
		return NoSources
	}
	return Ready
}
