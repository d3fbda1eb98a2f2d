package capture

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixthis/internal/golden"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json from the current parser output")

// fixturesDir holds real uiautomator dumps (provenance in testdata/PROVENANCE.md), each
// beside the golden JSON of its parse.
const fixturesDir = "testdata"

// fixtureFiles lists the dump fixtures through their golden files, so a dump that goes
// missing fails the test instead of silently shrinking the set under test.
func fixtureFiles(t testing.TB) []string {
	t.Helper()
	goldens, err := filepath.Glob(filepath.Join(fixturesDir, "*.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(goldens) == 0 {
		t.Fatalf("no golden files in %s", fixturesDir)
	}
	files := make([]string, 0, len(goldens))
	for _, g := range goldens {
		if strings.HasSuffix(g, ".txt.golden.json") {
			continue // a dumpsys or wm output's reading (corpus_test.go)
		}
		file := strings.TrimSuffix(g, ".golden.json") + ".xml"
		if _, err := os.Stat(file); err != nil {
			t.Fatalf("fixture for %s: %v", filepath.Base(g), err)
		}
		files = append(files, file)
	}
	return files
}

// readFixture reads one named dump fixture; a missing file is a test failure.
func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixturesDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestParseDumpFixturesGolden(t *testing.T) {
	for _, file := range fixtureFiles(t) {
		name := strings.TrimSuffix(filepath.Base(file), ".xml")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			nodes, err := ParseDump(data)
			if err != nil {
				t.Fatalf("ParseDump: %v", err)
			}
			if want := bytes.Count(data, []byte("<node ")); len(nodes) != want {
				t.Fatalf("got %d nodes, the file has %d <node> elements", len(nodes), want)
			}
			for _, n := range nodes {
				if n.Bounds == (Bounds{}) && !bytes.Contains(data, []byte(`bounds="[0,0][0,0]"`)) {
					t.Errorf("node %s has no bounds", n.UID)
				}
			}
			golden.JSON(t, name, map[string]any{"nodes": nodes}, *update)
		})
	}
}

func TestParseDumpFixtureContent(t *testing.T) {
	read := func(name string) []Node {
		nodes, err := ParseDump(readFixture(t, name))
		if err != nil {
			t.Fatal(err)
		}
		return nodes
	}
	find := func(nodes []Node, pred func(Node) bool) *Node {
		for i := range nodes {
			if pred(nodes[i]) {
				return &nodes[i]
			}
		}
		return nil
	}

	ling := read("CaAlO22__LingBook-Android__window_dump.xml")
	if n := find(ling, func(n Node) bool { return n.ContentDescription == "删除" }); n == nil {
		t.Error("Chinese content-desc 删除 not found intact")
	} else if !n.Compose {
		t.Errorf("node %s under ComposeView not marked compose", n.UID)
	}
	if n := find(ling, func(n Node) bool { return isComposeHost(n.Class) }); n == nil || n.Compose {
		t.Error("ComposeView host should exist and not itself be a Compose node")
	}

	editor := read("CaAlO22__LingBook-Android__window_dump2.xml")
	edit := find(editor, func(n Node) bool { return n.Class == "android.widget.EditText" })
	if edit == nil || edit.Text != "" || !edit.Redacted || !edit.Editable || edit.Role != "TextField" {
		t.Errorf("EditText must be redacted: %+v", edit)
	}
	if n := find(editor, func(n Node) bool { return strings.Contains(n.Text, "\n") }); n != nil && n.Editable {
		t.Errorf("editable text leaked: %s", n.UID)
	}

	avito := read("kram1k__android_avito_parsing__search_hierarchy.xml")
	if n := find(avito, func(n Node) bool { return n.Text == "Жильё для поездки" }); n == nil {
		t.Error("Cyrillic text not intact")
	} else if n.Role != "Text" || n.ResourceID != "com.avito.android:id/mini_menu_title" || n.TestTag != "" || n.Compose {
		t.Errorf("avito title node: %+v", n)
	}

	hazel := read("Makesoft-io__hazel__ui_test_inside_profiles.xml")
	if n := find(hazel, func(n Node) bool { return n.Role == "WebView" }); n == nil {
		t.Error("WebView role not mapped")
	}
}

func TestParseDumpStructure(t *testing.T) {
	const dump = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="1">` +
		`<node index="0" class="android.widget.FrameLayout" bounds="[0,0][1080,2400]">` +
		`<node index="0" class="androidx.compose.ui.platform.ComposeView" bounds="[0,0][1080,2400]">` +
		`<node index="0" text="Sign in" resource-id="login_button" class="android.widget.Button" clickable="true" bounds="[10,20][300,120]"/>` +
		`<node index="1" text="hunter2" class="android.widget.EditText" password="true" bounds="[10,200][300,260]"/>` +
		`<node index="2" text="a &amp; b &lt;c&gt; &#10;&#x4e2d;" class="android.view.View" bounds="[-5,300][1085,400]"/>` +
		`<node index="3" class="androidx.compose.ui.viewinterop.ViewFactoryHolder" bounds="[0,400][1080,800]">` +
		`<node index="0" class="android.widget.TextView" resource-id="com.app:id/legacy" text="legacy" bounds="[0,400][1080,500]"/>` +
		`</node></node></node></hierarchy>
UI hierchary dumped to: /dev/tty
`
	h, err := ParseHierarchy([]byte(dump))
	if err != nil {
		t.Fatal(err)
	}
	if h.Rotation != 1 {
		t.Errorf("rotation = %d", h.Rotation)
	}
	want := []struct {
		uid, parent, role, text, tag string
		compose, redacted            bool
	}{
		{"n0", "", "", "", "", false, false},
		{"n0.0", "n0", "", "", "", false, false},
		{"n0.0.0", "n0.0", "Button", "Sign in", "login_button", true, false},
		{"n0.0.1", "n0.0", "TextField", "", "", true, true},
		{"n0.0.2", "n0.0", "", "a & b <c> \n中", "", true, false},
		{"n0.0.3", "n0.0", "", "", "", false, false},
		{"n0.0.3.0", "n0.0.3", "Text", "legacy", "", false, false},
	}
	if len(h.Nodes) != len(want) {
		t.Fatalf("got %d nodes, want %d", len(h.Nodes), len(want))
	}
	for i, w := range want {
		n := h.Nodes[i]
		if n.UID != w.uid || n.ParentUID != w.parent || n.Role != w.role || n.Text != w.text ||
			n.TestTag != w.tag || n.Compose != w.compose || n.Redacted != w.redacted {
			t.Errorf("node %d = %+v, want %+v", i, n, w)
		}
	}
	if b := h.Nodes[4].Bounds; b != (Bounds{Left: -5, Top: 300, Right: 1085, Bottom: 400}) {
		t.Errorf("negative bounds parsed as %+v", b)
	}
}

func TestParseDumpErrors(t *testing.T) {
	const head = "<?xml version='1.0' ?>\n<hierarchy rotation=\"0\">\n"
	tests := []struct {
		name, in, wantLine string
	}{
		{"empty", "", "line 1:"},
		{"truncated in tag", head + `<node index="0" text="x" bounds="[0,0][1,1]`, "line 3:"},
		{"truncated after open", head + "<node bounds=\"[0,0][1,1]\">\n<node bounds=\"[0,0][1,1]\"/>\n", "line 5:"},
		{"mismatched close", head + "<node bounds=\"[0,0][1,1]\">\n</hierarchy>", "line 4:"},
		{"bad bounds", head + "\n<node bounds=\"[0,0][1,\"/></hierarchy>", "line 4:"},
		{"bad entity", head + "<node text=\"&bogus;\" bounds=\"[0,0][1,1]\"/></hierarchy>", "line 3:"},
		{"junk text", head + "<node bounds=\"[0,0][1,1]\"/>\nERROR: could not get idle state.\n</hierarchy>", "line 4:"},
		{"unknown element", head + "<window/></hierarchy>", "line 3:"},
		{"bad bool", head + "<node clickable=\"yes\" bounds=\"[0,0][1,1]\"/></hierarchy>", "line 3:"},
		{"trailing junk", head + "</hierarchy>\nsomething else", "line 4:"},
		{"crlf lines", "<hierarchy>\r\n\r\n<node bounds=\"x\"/>", "line 3:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseDump([]byte(tt.in))
			if err == nil {
				t.Fatal("want an error")
			}
			if !errors.Is(err, ErrMalformedDump) {
				t.Errorf("error %v does not wrap ErrMalformedDump", err)
			}
			if !strings.HasPrefix(err.Error(), tt.wantLine) {
				t.Errorf("error %q, want prefix %q", err, tt.wantLine)
			}
		})
	}
}

// genDump builds a realistic dump of n nodes: nested containers with rows of text,
// icons and buttons, like a scrolled list screen.
func genDump(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">`)
	attrs := func(class, text, id string, click bool, l, t, r, bt int) {
		b.WriteString(`<node index="0" text="`)
		b.WriteString(text)
		b.WriteString(`" resource-id="`)
		b.WriteString(id)
		b.WriteString(`" class="`)
		b.WriteString(class)
		b.WriteString(`" package="com.example.app" content-desc="" checkable="false" checked="false" clickable="`)
		if click {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
		b.WriteString(`" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[`)
		for i, v := range []int{l, t, r, bt} {
			if i == 2 {
				b.WriteString("][")
			} else if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(itoa(v))
		}
		b.WriteString(`]"`)
	}
	attrs("android.widget.FrameLayout", "", "", false, 0, 0, 1080, 2400)
	b.WriteString(">")
	attrs("androidx.recyclerview.widget.RecyclerView", "", "com.example.app:id/list", false, 0, 0, 1080, 2400)
	b.WriteString(">")
	count := 2
	for row := 0; count < n; row++ {
		top := (row * 120) % 2400
		attrs("android.view.ViewGroup", "", "com.example.app:id/row", true, 0, top, 1080, top+120)
		b.WriteString(">")
		count++
		for c := 0; c < 3 && count < n; c++ {
			switch c {
			case 0:
				attrs("android.widget.ImageView", "", "com.example.app:id/icon", false, 16, top+16, 104, top+104)
			case 1:
				attrs("android.widget.TextView", "Row "+itoa(row)+" — Ünïcödé title", "com.example.app:id/title", false, 120, top+16, 900, top+70)
			case 2:
				attrs("android.widget.Button", "Open", "com.example.app:id/open", true, 920, top+20, 1060, top+100)
			}
			b.WriteString("/>")
			count++
		}
		b.WriteString("</node>")
	}
	b.WriteString("</node></node></hierarchy>UI hierchary dumped to: /dev/tty\n")
	return b.Bytes()
}

func itoa(v int) string {
	if v == 0 {
		return "0"
	}
	neg := v < 0
	if neg {
		v = -v
	}
	var buf [20]byte
	i := len(buf)
	for v > 0 {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return string(buf[i:])
}

func TestGenDumpParses(t *testing.T) {
	nodes, err := ParseDump(genDump(1000))
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 1000 {
		t.Fatalf("got %d nodes", len(nodes))
	}
}

func BenchmarkParseDump1000(b *testing.B) {
	data := genDump(1000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseDump(data); err != nil {
			b.Fatal(err)
		}
	}
}

func FuzzParseDump(f *testing.F) {
	f.Add([]byte(`<hierarchy rotation="0"><node text="a&#10;b" bounds="[0,0][10,10]"><node bounds="[1,1][2,2]"/></node></hierarchy>`))
	f.Add([]byte("<?xml version='1.0' ?>\r\n<hierarchy>\r\n</hierarchy>\r\nUI hierchary dumped to: /dev/tty"))
	f.Add([]byte(`<node class="android.widget.EditText" password="true" text="x" bounds="[0,0][1,1]"/>`))
	f.Add(genDump(20))
	for _, file := range fixtureFiles(f)[:2] {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		nodes, err := ParseDump(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "line ") {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		seen := make(map[string]bool, len(nodes))
		for _, n := range nodes {
			if seen[n.UID] {
				t.Fatalf("duplicate uid %s", n.UID)
			}
			seen[n.UID] = true
			if (n.Password || n.Editable) && n.Text != "" {
				t.Fatalf("unredacted text in %s", n.UID)
			}
		}
	})
}
