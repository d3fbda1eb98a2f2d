package source

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fixthis/internal/bintest"
)

// generateProject writes a project of n Kotlin files over ten modules, each
// file a screen of about 120 lines with composables, literals, tags,
// resources, nested comments and templates, plus one strings.xml per module.
func generateProject(tb testing.TB, dir string, n int) {
	tb.Helper()
	const modules = 10
	var settings strings.Builder
	settings.WriteString("include(\n")
	for m := 0; m < modules; m++ {
		fmt.Fprintf(&settings, "    \":feature:f%d\",\n", m)
		var xml strings.Builder
		xml.WriteString("<resources>\n")
		for i := 0; i < n/modules; i++ {
			fmt.Fprintf(&xml, "    <string name=\"title_%d_%d\">Title %d of module %d</string>\n", m, i, i, m)
		}
		xml.WriteString("</resources>\n")
		write(tb, filepath.Join(dir, fmt.Sprintf("feature/f%d/src/main/res/values/strings.xml", m)), xml.String())
	}
	settings.WriteString(")\n")
	write(tb, filepath.Join(dir, "settings.gradle.kts"), settings.String())
	for i := 0; i < n; i++ {
		m := i % modules
		if i%10 == 5 {
			// One screen in ten is a classic View screen: a Fragment and its layout.
			write(tb, filepath.Join(dir, fmt.Sprintf("feature/f%d/src/main/java/com/example/f%d/Screen%dFragment.kt", m, m, i)), fragmentSource(m, i))
			write(tb, filepath.Join(dir, fmt.Sprintf("feature/f%d/src/main/res/layout/fragment_screen_%d.xml", m, i)), layoutSource(m, i))
			continue
		}
		write(tb, filepath.Join(dir, fmt.Sprintf("feature/f%d/src/main/java/com/example/f%d/Screen%d.kt", m, m, i)), screenSource(m, i))
	}
}

// fragmentSource is a View screen inflating fragment_screen_i.xml through
// view binding and reaching its views by id.
func fragmentSource(m, i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package com.example.f%d\n\nimport androidx.fragment.app.Fragment\n\n", m)
	fmt.Fprintf(&b, "class Screen%dFragment : Fragment() {\n", i)
	fmt.Fprintf(&b, "    private var _binding: FragmentScreen%dBinding? = null\n    private val binding get() = _binding!!\n\n", i)
	b.WriteString("    override fun onCreateView(inflater: LayoutInflater, container: ViewGroup?, state: Bundle?): View {\n")
	fmt.Fprintf(&b, "        _binding = FragmentScreen%dBinding.inflate(inflater, container, false)\n", i)
	b.WriteString("        binding.toolbar.title = getString(R.string.app_name)\n")
	for k := 0; k < 8; k++ {
		fmt.Fprintf(&b, "        binding.row%d%d.setOnClickListener { open(%d) }\n", i, k, k)
		fmt.Fprintf(&b, "        view.findViewById<TextView>(R.id.summary_%d_%d).text = \"Summary %d-%d\"\n", i, k, i, k)
	}
	b.WriteString("        return binding.root\n    }\n}\n")
	return b.String()
}

// layoutSource is fragment_screen_i.xml: a toolbar and eight rows of title
// and summary, with resource and literal texts and a comment.
func layoutSource(m, i int) string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n")
	b.WriteString("<LinearLayout xmlns:android=\"http://schemas.android.com/apk/res/android\"\n")
	b.WriteString("    xmlns:tools=\"http://schemas.android.com/tools\"\n    android:orientation=\"vertical\">\n")
	b.WriteString("    <include layout=\"@layout/view_toolbar\" />\n")
	b.WriteString("    <androidx.appcompat.widget.Toolbar android:id=\"@+id/toolbar\" android:layout_width=\"match_parent\" />\n")
	for k := 0; k < 8; k++ {
		fmt.Fprintf(&b, "    <!-- row %d: <TextView android:text=\"old\"/> -->\n", k)
		fmt.Fprintf(&b, "    <LinearLayout android:id=\"@+id/row_%d_%d\" android:layout_width=\"match_parent\">\n", i, k)
		fmt.Fprintf(&b, "        <TextView android:id=\"@+id/title_%d_%d\"\n            android:text=\"@string/title_%d_%d\" />\n", i, k, m, i/10)
		fmt.Fprintf(&b, "        <TextView android:id=\"@+id/summary_%d_%d\"\n            tools:text=\"Summary\"\n            android:contentDescription=\"Row %d-%d details\" />\n", i, k, i, k)
		b.WriteString("    </LinearLayout>\n")
	}
	b.WriteString("</LinearLayout>\n")
	return b.String()
}

func screenSource(m, i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package com.example.f%d\n\nimport androidx.compose.runtime.Composable\n\n", m)
	fmt.Fprintf(&b, "/* Screen %d /* nested Text(\"no\") */ comment */\n", i)
	for k := 0; k < 4; k++ {
		fmt.Fprintf(&b, "@Composable\nfun Screen%dPart%d(state: State, onClick: () -> Unit) {\n", i, k)
		b.WriteString("    Column(modifier = Modifier.padding(16.dp)) {\n")
		fmt.Fprintf(&b, "        Text(\"Screen %d part %d headline\")\n", i, k)
		fmt.Fprintf(&b, "        Text(text = stringResource(id = R.string.title_%d_%d))\n", m, i/10)
		fmt.Fprintf(&b, "        Text(\"Hello ${state.user.name}, you have ${state.count} items on screen %d\")\n", i)
		fmt.Fprintf(&b, "        Icon(Icons.Default.Star, contentDescription = \"Favourite %d-%d\")\n", i, k)
		fmt.Fprintf(&b, "        SharedRow(label = \"Row %d-%d\", modifier = Modifier.testTag(\"row_%d_%d\"))\n", i, k, i, k)
		b.WriteString("        val raw = \"\"\"\n            Multi \"line\" text ${state.count}\n        \"\"\"\n")
		b.WriteString("        // a line comment with Text(\"ignored\")\n")
		b.WriteString("        Button(onClick = onClick, modifier = Modifier.semantics { role = Role.Button }) {\n")
		fmt.Fprintf(&b, "            Text(\"Action %d-%d\")\n", i, k)
		b.WriteString("        }\n    }\n}\n\n")
	}
	fmt.Fprintf(&b, "@Composable\nfun SharedRow%d(label: String, modifier: Modifier = Modifier) {\n    Row(modifier) { Text(label) }\n}\n", i)
	return b.String()
}

func write(tb testing.TB, p, s string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		tb.Fatal(err)
	}
}

func benchProject(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	generateProject(b, dir, 5000)
	return dir
}

// benchIndex is the generated project indexed, for the benchmarks that time
// what comes after the first build.
func benchIndex(b *testing.B) (dir string, idx *Index) {
	b.Helper()
	dir = benchProject(b)
	idx, err := Build(context.Background(), dir)
	if err != nil {
		b.Fatal(err)
	}
	return dir, idx
}

// benchSnapshot is the generated project's index as the cache holds it.
func benchSnapshot(b *testing.B) []byte {
	b.Helper()
	_, idx := benchIndex(b)
	data, err := idx.marshal()
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// benchUpdate times re-indexing the one file rel after each rewrite of it:
// edit returns its n-th new content.
func benchUpdate(b *testing.B, rel string, edit func(n int) string) {
	dir, idx := benchIndex(b)
	p := filepath.Join(dir, rel)
	n := 0
	b.ResetTimer()
	for b.Loop() {
		n++
		if err := os.WriteFile(p, []byte(edit(n)), 0o600); err != nil {
			b.Fatal(err)
		}
		if err := idx.Update(context.Background(), []string{rel}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkColdIndex5000 indexes a generated 5,000-file project from disk.
func BenchmarkColdIndex5000(b *testing.B) {
	dir := benchProject(b)
	b.ResetTimer()
	for b.Loop() {
		idx, err := Build(context.Background(), dir)
		if err != nil {
			b.Fatal(err)
		}
		if st := idx.Stats(); st.KotlinFiles != 5000 || st.LayoutFiles != 500 {
			b.Fatalf("indexed %d Kotlin files, %d layouts", st.KotlinFiles, st.LayoutFiles)
		}
	}
}

// BenchmarkUpdateOneFile re-indexes one changed file in the 5,000-file project.
func BenchmarkUpdateOneFile(b *testing.B) {
	benchUpdate(b, "feature/f3/src/main/java/com/example/f3/Screen13.kt", func(n int) string {
		return strings.Replace(screenSource(3, 13), "headline", fmt.Sprintf("headline v%d", n), 1)
	})
}

// BenchmarkRefreshNoChange is one watch poll over the unchanged project.
func BenchmarkRefreshNoChange(b *testing.B) {
	_, idx := benchIndex(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := idx.Refresh(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatch matches a typical target (text, tag, role, two nearby
// nodes, activity) in the 5,000-file project.
func BenchmarkMatch(b *testing.B) {
	_, idx := benchIndex(b)
	q := Query{Text: "Action 2417-2", TestTag: "row_2417_2", Role: "Button", Activity: ".MainActivity",
		Nearby: []NearbyNode{{Text: "Screen 2417 part 2 headline"}, {ContentDescription: "Favourite 2417-2"}}}
	b.ResetTimer()
	for b.Loop() {
		if c := idx.Match(q); len(c) == 0 || !strings.HasSuffix(c[0].File, "Screen2417.kt") {
			b.Fatalf("wrong match %+v", c)
		}
	}
}

// BenchmarkUpdateOneLayout re-indexes one changed layout file.
func BenchmarkUpdateOneLayout(b *testing.B) {
	benchUpdate(b, "feature/f5/src/main/res/layout/fragment_screen_15.xml", func(n int) string {
		return strings.Replace(layoutSource(5, 15), "details", fmt.Sprintf("details v%d", n), 1)
	})
}

// BenchmarkMatchResourceID matches a View target (resource-id, text and a
// nearby id) in the generated project.
func BenchmarkMatchResourceID(b *testing.B) {
	_, idx := benchIndex(b)
	q := Query{ContentDescription: "Row 2415-3 details", ResourceID: "com.example:id/summary_2415_3",
		Nearby: []NearbyNode{{ResourceID: "com.example:id/toolbar"}, {ResourceID: "com.example:id/title_2415_3"}}}
	b.ResetTimer()
	for b.Loop() {
		if c := idx.Match(q); len(c) == 0 || !strings.HasSuffix(c[0].File, "fragment_screen_2415.xml") || c[0].Owner != "Screen2415Fragment.onCreateView" {
			b.Fatalf("wrong match %+v", c)
		}
	}
}

// runMatch runs one process and returns the CPU time it used (user + system),
// which a busy shared machine inflates far less than wall time.
func runMatch(b *testing.B, bin string, args ...string) time.Duration {
	b.Helper()
	cmd := exec.Command(bin, args...)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Screen2417.kt") {
		b.Fatalf("fixthis %v: %v\n%s", args, err, out)
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// loopProcess runs the process b.N times and reports its CPU time per run
// beside the wall time.
func loopProcess(b *testing.B, bin string, args ...string) {
	var cpu time.Duration
	n := 0
	for b.Loop() {
		cpu += runMatch(b, bin, args...)
		n++
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(n), "cpu-ms/op")
}

// BenchmarkProcessMatchWarmCache5000 is a whole `fixthis source match`
// process on the 5,000-file project with the index cache in place: start,
// read the cache, stat every file for changes, match, print.
func BenchmarkProcessMatchWarmCache5000(b *testing.B) {
	dir := benchProject(b)
	bin := bintest.Fixthis(b, filepath.Join("..", ".."))
	args := []string{"source", "match", "--project-dir", dir, "--text", "Action 2417-2", "--activity", ".MainActivity"}
	runMatch(b, bin, args...) // writes the cache
	b.ResetTimer()
	loopProcess(b, bin, args...)
}

// BenchmarkProcessMatchCold5000 is the same process without a cache: it
// indexes the whole project first.
func BenchmarkProcessMatchCold5000(b *testing.B) {
	dir := benchProject(b)
	bin := bintest.Fixthis(b, filepath.Join("..", ".."))
	args := []string{"source", "match", "--cache=false", "--project-dir", dir, "--text", "Action 2417-2", "--activity", ".MainActivity"}
	b.ResetTimer()
	loopProcess(b, bin, args...)
}

// BenchmarkUnmarshal5000 restores the cached index of the 5,000-file project
// (the first step of a warm process).
func BenchmarkUnmarshal5000(b *testing.B) {
	data := benchSnapshot(b)
	b.ReportMetric(float64(len(data))/1e6, "MB")
	b.ResetTimer()
	for b.Loop() {
		if _, err := unmarshal(data, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGenerateBenchProject writes the generated 5,000-file project to
// FIXTHIS_GEN_DIR, for timing `fixthis source match` by hand.
func TestGenerateBenchProject(t *testing.T) {
	dir := os.Getenv("FIXTHIS_GEN_DIR")
	if dir == "" {
		t.Skip("set FIXTHIS_GEN_DIR to write the generated benchmark project there")
	}
	generateProject(t, dir, 5000)
}

// BenchmarkWarmMatch5000 is the in-process part of a warm `fixthis source
// match`: restore the cached index, look for changed files, match.
func BenchmarkWarmMatch5000(b *testing.B) {
	_, idx := benchIndex(b)
	root := idx.Root()
	data, err := idx.marshal()
	if err != nil {
		b.Fatal(err)
	}
	q := Query{Text: "Action 2417-2", Activity: ".MainActivity"}
	b.ResetTimer()
	for b.Loop() {
		warm, _, err := Restore(context.Background(), data, root)
		if err != nil {
			b.Fatal(err)
		}
		if c := warm.Match(q); len(c) == 0 {
			b.Fatal("no match")
		}
	}
}
