package cli

import (
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// flutterDump is a real dump with two unlabelled icon buttons (app/audit/testdata).
const flutterDump = "../app/audit/testdata/ImL1s__termux-flutter-ide__window_dump.xml"

func writePNG(t *testing.T, w, h int, paintRect image.Rectangle, c color.NRGBA) string {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, color.NRGBA{255, 255, 255, 255})
			if (image.Point{x, y}).In(paintRect) {
				img.SetNRGBA(x, y, c)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "screen.png")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestAuditJSON(t *testing.T) {
	code, out, errOut := run(t, nil, "audit", "--dump", flutterDump, "--density", "420", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Findings []struct {
			Check    string         `json:"check"`
			Severity string         `json:"severity"`
			NodeUID  string         `json:"nodeUid"`
			Bounds   map[string]int `json:"bounds"`
			Measured string         `json:"measured"`
			Required string         `json:"required"`
			Key      string         `json:"key"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(doc.Findings) != 3 {
		t.Fatalf("got %d findings, want 3: %s", len(doc.Findings), out)
	}
	first := doc.Findings[0]
	want := map[string]int{"left": 0, "top": 75, "right": 158, "bottom": 233}
	if first.Check != "speakable_text" || first.Severity != "error" || first.Key == "" || first.Required == "" {
		t.Errorf("first finding %+v", first)
	}
	for k, v := range want {
		if first.Bounds[k] != v {
			t.Errorf("bounds %v, want %v in the dump's pixels", first.Bounds, want)
		}
	}
}

func TestAuditHuman(t *testing.T) {
	code, out, errOut := run(t, nil, "audit", "--dump", flutterDump, "--density", "420")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"speakable_text", "n0.0.0.0.0.0.0.0.0.2 [675,86][810,221]", "fix: ", "3 findings: 2 errors, 1 warning, 0 info"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestAuditScreenshotContrast(t *testing.T) {
	dump := filepath.Join(t.TempDir(), "dump.xml")
	xml := `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
		`<node index="0" text="" class="android.widget.FrameLayout" bounds="[0,0][400,300]">` +
		`<node index="0" text="Pale" class="android.widget.TextView" bounds="[20,20][220,80]" />` +
		`</node></hierarchy>`
	if err := os.WriteFile(dump, []byte(xml), 0o600); err != nil {
		t.Fatal(err)
	}
	shot := writePNG(t, 400, 300, image.Rect(40, 40, 120, 60), color.NRGBA{0xB0, 0xB0, 0xB0, 255})
	code, out, errOut := run(t, nil, "audit", "--dump", dump, "--screenshot", shot, "--density", "160", "--json")
	if code != 0 || !strings.Contains(out, `"check":"text_contrast"`) || !strings.Contains(out, "2.17:1") {
		t.Fatalf("exit %d, stdout %s, stderr %s", code, out, errOut)
	}
}

func TestAuditBadInput(t *testing.T) {
	dir := t.TempDir()
	cut := filepath.Join(dir, "cut.xml")
	os.WriteFile(cut, []byte(`<hierarchy><node text="a" bounds="[0,0][10`), 0o600)
	empty := filepath.Join(dir, "empty.xml")
	os.WriteFile(empty, []byte(`<?xml version='1.0' ?><hierarchy rotation="0"></hierarchy>`), 0o600)
	big := filepath.Join(dir, "big.xml")
	os.WriteFile(big, []byte(`<hierarchy><node text="`+strings.Repeat("x", 1<<20)+`" bounds="[0,0][10,-10]"/></hierarchy>`), 0o600)
	small := writePNG(t, 720, 1600, image.Rectangle{}, color.NRGBA{})
	notPNG := filepath.Join(dir, "shot.png")
	os.WriteFile(notPNG, []byte("GIF89a"), 0o600)
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no dump", []string{"audit", "--density", "420"}, 2, "--dump FILE is required"},
		{"no density", []string{"audit", "--dump", flutterDump}, 2, "--density DPI is required"},
		{"absurd density", []string{"audit", "--dump", flutterDump, "--density", "5"}, 1, "outside 100-800"},
		{"missing file", []string{"audit", "--dump", filepath.Join(dir, "nope.xml"), "--density", "420"}, 1, "nope.xml"},
		{"cut short", []string{"audit", "--dump", cut, "--density", "420"}, 1, "parse"},
		{"no nodes", []string{"audit", "--dump", empty, "--density", "420"}, 1, "no nodes"},
		{"megabyte text, negative size", []string{"audit", "--dump", big, "--density", "420"}, 1, `node "n0" has negative size`},
		{"screenshot of another screen", []string{"audit", "--dump", flutterDump, "--density", "420", "--screenshot", small}, 1, "outside the 720x1600 screenshot"},
		{"screenshot not a PNG", []string{"audit", "--dump", flutterDump, "--density", "420", "--screenshot", notPNG}, 1, "decode screencap png"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := run(t, nil, c.args...)
			if code != c.code || !strings.Contains(errOut, c.want) || out != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d saying %q", code, out, errOut, c.code, c.want)
			}
			if len(errOut) > 2000 {
				t.Errorf("a %d-byte error", len(errOut))
			}
		})
	}
}

// A NUL byte in a text is data: the dump is audited and the output stays clean.
func TestAuditNULInText(t *testing.T) {
	dump := filepath.Join(t.TempDir(), "nul.xml")
	os.WriteFile(dump, []byte("<hierarchy><node text=\"a\x00b\" class=\"android.widget.Button\" clickable=\"true\" bounds=\"[0,0][10,10]\"/></hierarchy>"), 0o600)
	code, out, errOut := run(t, nil, "audit", "--dump", dump, "--density", "420", "--json")
	if code != 0 || !strings.Contains(out, `"check":"touch_target"`) || strings.ContainsRune(out, 0) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
