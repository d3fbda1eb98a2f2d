package source

import (
	"context"
	"errors"
	"testing"
)

func TestReadinessOf(t *testing.T) {
	ctx := context.Background()
	built := func(dir string) *Index {
		idx, err := Build(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		return idx
	}
	tests := []struct {
		name string
		idx  *Index
		err  error
		want Readiness
	}{
		{"a project with sources", built("testdata/project"), nil, Ready},
		{"a folder without Android sources", built(t.TempDir()), nil, NoSources},
		{"a failed build", nil, errors.New("walk: permission denied"), Failed},
	}
	for _, tc := range tests {
		if got := ReadinessOf(tc.idx, tc.err); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
