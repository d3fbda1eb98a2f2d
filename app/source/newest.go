package source

import "time"

// NewestModTime is the modification time of the most recently changed indexed file
// (Kotlin or resource XML): "the last edit", which the console compares with when the
// app on the phone was installed. Zero when the index is empty.
func (idx *Index) NewestModTime() time.Time {
	idx.mu.RLock()
	defer idx.mu.RUnlock()
	var newest int64
	for _, fi := range idx.files {
		newest = max(newest, fi.ModTime)
	}
	if newest == 0 {
		return time.Time{}
	}
	return time.Unix(0, newest)
}
