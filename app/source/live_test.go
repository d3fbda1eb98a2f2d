package source

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fixthis/internal/eventually"
)

// TestLiveIndexIsCachedBetweenRuns: a running index becomes ready, writes its cache
// 0600, and the next run starts from that cache; LastEdit follows the newest file.
func TestLiveIndexIsCachedBetweenRuns(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "app", "src", "main", "java", "com", "example")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	kt := "package com.example\n\n@Composable\nfun SaveButton() {\n    Text(\"Save\")\n}\n"
	if err := os.WriteFile(filepath.Join(src, "Save.kt"), []byte(kt), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"settings.gradle.kts": "include(\":app\")\n",
		"app/build.gradle.kts": "plugins { id(\"com.android.application\") }\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cache := filepath.Join(t.TempDir(), "source-index.bin")
	for run := 1; run <= 2; run++ {
		l := &Live{Dir: dir, CachePath: cache}
		if _, r := l.Get(); r != "" && r != Building {
			t.Fatalf("run %d: readiness %q before Run", run, r)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { l.Run(ctx); close(done) }()
		eventually.True(t, 10*time.Second, fmt.Sprintf("run %d: the index to be ready", run), func() bool {
			idx, r := l.Get()
			return idx != nil && r == Ready
		})
		if l.LastEdit().IsZero() {
			t.Errorf("run %d: no last edit", run)
		}
		cancel()
		<-done
		fi, err := os.Stat(cache)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("run %d: cache %v %v", run, fi, err)
		}
		if run == 2 {
			if _, err := l.loadCached(context.Background()); err != nil {
				t.Fatalf("the cache does not restore: %v", err)
			}
		}
	}
}

// TestLiveKeepsTheAppIndex: the app's index given to a Live reaches the index it
// holds now and every one it restores or builds later, and makes an empty project
// folder's index ready.
func TestLiveKeepsTheAppIndex(t *testing.T) {
	ai, err := ParseAppIndex([]byte(minimalAppIndex))
	if err != nil {
		t.Fatal(err)
	}
	waitReady := func(l *Live, want Readiness) *Index {
		t.Helper()
		type state struct {
			idx *Index
			r   Readiness
		}
		return eventually.Get(t, 10*time.Second, fmt.Sprintf("readiness %q", want), func() state {
			idx, r := l.Get()
			return state{idx, r}
		}, func(s state) bool { return s.idx != nil && s.r == want }, func(s state) string {
			return fmt.Sprintf("index %v readiness %q", s.idx != nil, s.r)
		}).idx
	}
	cache := filepath.Join(t.TempDir(), "source-index.bin")
	dir := t.TempDir() // an empty project folder
	for _, tc := range []struct {
		name   string
		before bool // SetAppIndex before Run (the index then builds or restores without it)
	}{{"after the build", false}, {"before the build", true}, {"before the cache restores", true}} {
		t.Run(tc.name, func(t *testing.T) {
			l := &Live{Dir: dir, CachePath: cache}
			if tc.before {
				l.SetAppIndex(ai)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { l.Run(ctx); close(done) }()
			defer func() { cancel(); <-done }()
			if !tc.before {
				waitReady(l, NoSources)
				l.SetAppIndex(ai)
			}
			idx := waitReady(l, Ready)
			if c := idx.Match(Query{TestTag: "home_title"}); len(c) == 0 || c[0].Index != FromApp {
				t.Fatalf("candidates %+v", c)
			}
			l.SetAppIndex(nil)
			if _, r := l.Get(); r != NoSources {
				t.Errorf("without the app's index: readiness %q", r)
			}
		})
	}
}
