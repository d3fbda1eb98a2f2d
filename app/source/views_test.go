package source

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const viewsProject = "testdata/views"

func TestLayoutOf(t *testing.T) {
	tests := []struct {
		path, want string
		ok         bool
	}{
		{"app/src/main/res/layout/activity_settings.xml", "layout/activitysettings", true},
		{"app/src/main/res/layout-land/activity_settings.xml", "layout/activitysettings", true},
		{"app/src/main/res/layout-sw600dp-v21/item_trip_2.xml", "layout/itemtrip2", true},
		{"app/src/main/res/menu/main.xml", "menu/main", true},
		{"app/src/main/res/values/strings.xml", "", false},
		{"app/src/main/res/drawable/ic_layout.xml", "", false},
		{"app/src/main/java/layout/Thing.xml", "", false},
		{"app/src/main/res/layout/notes.txt", "", false},
	}
	for _, tt := range tests {
		got, ok := layoutOf(tt.path)
		if got != tt.want || ok != tt.ok {
			t.Errorf("layoutOf(%q) = %q, %v; want %q, %v", tt.path, got, ok, tt.want, tt.ok)
		}
	}
}

func TestResourceIDName(t *testing.T) {
	tests := []struct{ rid, name, key string }{
		{"com.example.views:id/units_title", "units_title", "unitstitle"},
		{"com.example.views.debug:id/unitsTitle", "unitsTitle", "unitstitle"},
		{"android:id/title", "android:title", "android:title"},
		{" save_button ", "save_button", "savebutton"},
		{"", "", ""},
	}
	for _, tt := range tests {
		if got := ResourceIDName(tt.rid); got != tt.name {
			t.Errorf("ResourceIDName(%q) = %q, want %q", tt.rid, got, tt.name)
		}
		if got := resourceIDKey(tt.rid); got != tt.key {
			t.Errorf("resourceIDKey(%q) = %q, want %q", tt.rid, got, tt.key)
		}
	}
}

func TestLayoutEntries(t *testing.T) {
	idx := buildTest(t, viewsProject)
	st := idx.Stats()
	want := Stats{Modules: 2, Files: 9, KotlinFiles: 3, StringFiles: 1, LayoutFiles: 5, ViewIDs: 14, Activities: 1}
	got := Stats{Modules: st.Modules, Files: st.Files, KotlinFiles: st.KotlinFiles, StringFiles: st.StringFiles,
		LayoutFiles: st.LayoutFiles, ViewIDs: st.ViewIDs, Activities: st.Activities}
	if got != want {
		t.Errorf("stats = %+v, want %+v", got, want)
	}
	file := "app/src/main/res/layout/activity_settings.xml"
	fi := idx.files[file]
	if fi == nil || fi.Layout != "layout/activitysettings" {
		t.Fatalf("%s not indexed as a layout: %+v", file, fi)
	}
	var ids []string
	for _, e := range fi.Entries {
		switch e.Kind {
		case kindViewID:
			ids = append(ids, fmt.Sprintf("%s@%d=%s", e.Key, e.Line, e.Value))
		case kindText, kindCD, kindLiteral:
			if strings.Contains(e.Value, "Legacy") || strings.Contains(e.Value, "Preview") {
				t.Errorf("comment or tools: text indexed: %+v", e)
			}
		}
	}
	wantIDs := []string{
		fmt.Sprintf("settingsroot@%d=LinearLayout", lineOf(t, viewsProject, file, "<LinearLayout")),
		fmt.Sprintf("unitstitle@%d=TextView", lineOf(t, viewsProject, file, "@+id/units_title")),
		fmt.Sprintf("unitssummary@%d=TextView", lineOf(t, viewsProject, file, "@+id/units_summary")),
		fmt.Sprintf("alertsswitch@%d=Switch", lineOf(t, viewsProject, file, "@+id/alerts_switch")),
		fmt.Sprintf("footer@%d=TextView", lineOf(t, viewsProject, file, "@+id/footer")),
	}
	if !slices.Equal(ids, wantIDs) {
		t.Errorf("view ids = %v, want %v", ids, wantIDs)
	}
	// The commented-out findViewById(R.id.legacy_row) is no reference.
	if refs := idx.byKey[refKey{kindIDRef, "legacyrow"}]; len(refs) != 0 {
		t.Errorf("commented-out reference indexed: %d postings", len(refs))
	}
}

func TestViewMatch(t *testing.T) {
	idx := buildTest(t, viewsProject)
	const (
		settings = "app/src/main/res/layout/activity_settings.xml"
		land     = "app/src/main/res/layout-land/activity_settings.xml"
		toolbar  = "app/src/main/res/layout/view_toolbar.xml"
		profile  = "app/src/main/res/layout/fragment_profile.xml"
		menu     = "app/src/main/res/menu/settings.xml"
		act      = "app/src/main/java/com/example/views/SettingsActivity.kt"
		frag     = "app/src/main/java/com/example/views/ProfileFragment.kt"
	)
	rid := func(name string) string { return "com.example.views:id/" + name }
	tests := []struct {
		name       string
		q          Query
		file, at   string // top candidate and a text on its line
		owner      string
		ownerAt    string // text on the owner's line in ownerFile
		ownerFile  string
		tokens     []string
		conf       string
		usages     []string // texts on usage lines, in act or frag
		second     string   // file of the runner-up, when it matters
		resolvedAt string   // strings.xml line behind the match
	}{
		{"layout text via string resource", Query{Text: "Weather alerts"}, settings, "@+id/alerts_switch",
			"SettingsActivity.onCreate", "setContentView(R.layout.activity_settings)", act, []string{TokResolvedRes}, "medium", []string{"R.id.alerts_switch"}, land, `name="settings_alerts"`},
		{"resource-id with activity beats the variant", Query{ResourceID: rid("alerts_switch"), Activity: "com.example.views/.SettingsActivity"}, settings, "@+id/alerts_switch",
			"SettingsActivity.onCreate", "setContentView(R.layout.activity_settings)", act, []string{TokResourceID, TokActivity}, "", []string{"R.id.alerts_switch"}, land, ""},
		{"resource-id and text on one element", Query{Text: "Units", ResourceID: rid("units_title")}, settings, "@+id/units_title",
			"SettingsActivity.onCreate", "setContentView", act, []string{TokResolvedRes, TokResourceID}, "medium", nil, land, `name="settings_units"`},
		{"text set in code on the view with that id", Query{Text: "Metric", ResourceID: rid("units_summary")}, act, "setText(R.string.settings_units_metric)",
			"SettingsActivity.bindUnits", "", "", []string{TokResolvedRes, TokResourceID}, "high", nil, settings, `name="settings_units_metric"`},
		{"view found by id, text set elsewhere", Query{ResourceID: rid("units_summary")}, settings, "@+id/units_summary",
			"SettingsActivity.onCreate", "setContentView", act, []string{TokResourceID}, "high", []string{"R.id.units_summary"}, act, ""},
		{"literal layout text", Query{Text: "made with CARE"}, settings, "@+id/footer",
			"SettingsActivity.onCreate", "setContentView", act, []string{TokText}, "high", nil, "", ""},
		{"included merge layout owned by the includer", Query{Text: "Settings"}, toolbar, "@+id/toolbar_title",
			"SettingsActivity.onCreate", "setContentView", act, []string{TokResolvedRes}, "high", nil, "", `name="settings_title"`},
		{"content description resource", Query{ContentDescription: "Navigate up"}, toolbar, "@+id/navigate_up",
			"SettingsActivity.onCreate", "setContentView", act, []string{TokResolvedRes}, "high", nil, "", `name="cd_navigate_up"`},
		{"menu item title", Query{Text: "Help"}, menu, "@+id/action_help",
			"SettingsActivity.onCreateOptionsMenu", "R.menu.settings", act, []string{TokResolvedRes}, "high", nil, "", `name="menu_help"`},
		{"view binding fragment", Query{ResourceID: rid("display_name"), Role: "EditText"}, profile, "@+id/display_name",
			"ProfileFragment.onCreateView", "FragmentProfileBinding.inflate", frag, []string{TokResourceID}, "high", []string{"_binding?.displayName"}, frag, ""},
		{"hint via string resource", Query{Text: "Your name"}, profile, "@+id/display_name",
			"ProfileFragment.onCreateView", "FragmentProfileBinding.inflate", frag, []string{TokResolvedRes}, "high", []string{"_binding?.displayName"}, "", `name="profile_name_hint"`},
		{"literal content description", Query{ContentDescription: "Profile photo"}, profile, "@+id/avatar",
			"ProfileFragment.onCreateView", "FragmentProfileBinding.inflate", frag, []string{TokCD}, "high", nil, "", ""},
		{"nearby resource-id corroborates", Query{Text: "Save", Nearby: []NearbyNode{{ResourceID: rid("display_name")}}}, profile, "@+id/save_button",
			"ProfileFragment.onCreateView", "FragmentProfileBinding.inflate", frag, []string{TokResolvedRes, TokNearbyResID}, "high", []string{"binding.saveButton"}, "", `name="action_save"`},
		{"nearby resource-id alone", Query{Nearby: []NearbyNode{{ResourceID: rid("avatar")}}}, profile, "@+id/avatar",
			"ProfileFragment.onCreateView", "FragmentProfileBinding.inflate", frag, []string{TokNearbyResID}, "low", nil, "", ""},
		{"id only in code", Query{ResourceID: rid("progress")}, act, "R.id.progress",
			"SettingsActivity.onCreate", "", "", []string{TokResourceID}, "medium", nil, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := matchTop(t, idx, viewsProject, tt.q, topWant{tt.file, tt.at, tt.owner, tt.tokens, tt.conf})
			c := got[0]
			if tt.ownerFile != "" && (c.OwnerFile != tt.ownerFile || c.OwnerLine != lineOf(t, viewsProject, tt.ownerFile, tt.ownerAt)) {
				t.Errorf("owner at %s:%d, want %s at %q", c.OwnerFile, c.OwnerLine, tt.ownerFile, tt.ownerAt)
			}
			var usages []string
			for _, u := range tt.usages {
				f := act
				if strings.Contains(u, "inding") {
					f = frag
				}
				usages = append(usages, fmt.Sprintf("%s:%d", f, lineOf(t, viewsProject, f, u)))
			}
			if !slices.Equal(c.Usages, usages) {
				t.Errorf("usages = %v, want %v", c.Usages, usages)
			}
			if tt.second != "" && (len(got) < 2 || got[1].File != tt.second) {
				t.Errorf("runner-up = %+v, want %s", got[1:], tt.second)
			}
			strs := "app/src/main/res/values/strings.xml"
			if tt.resolvedAt != "" && (c.ResourceFile != strs || c.ResourceLine != lineOf(t, viewsProject, strs, tt.resolvedAt)) {
				t.Errorf("resource = %s:%d, want %s", c.ResourceFile, c.ResourceLine, tt.resolvedAt)
			}
			if c.Stale {
				t.Error("fresh candidate reported stale")
			}
		})
	}
	for _, text := range []string{"Legacy sync", "Preview only summary"} {
		if got := idx.Match(Query{Text: text}); got != nil {
			t.Errorf("%q (comment or tools:text) matched %+v", text, got)
		}
	}
}

// TestViewUpdate edits a layout and the code that inflates it, and checks
// that matches and owners follow.
func TestViewUpdate(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(viewsProject)); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	idx := buildTest(t, dir)
	layout := "app/src/main/res/layout/activity_settings.xml"
	code := "app/src/main/java/com/example/views/SettingsActivity.kt"
	edit := func(rel, old, new string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := idx.Update(ctx, []string{rel}); err != nil {
			t.Fatal(err)
		}
	}
	edit(layout, `android:text="Made with care"`, `android:text="Made with love"`)
	if got := idx.Match(Query{Text: "Made with care"}); got != nil {
		t.Errorf("old layout text still matches: %+v", got)
	}
	got := idx.Match(Query{Text: "Made with love"})
	if len(got) == 0 || got[0].File != layout || got[0].Owner != "SettingsActivity.onCreate" {
		t.Fatalf("new layout text = %+v", got)
	}
	edit(code, "setContentView(R.layout.activity_settings)", "setContentView(R.layout.activity_main)")
	got = idx.Match(Query{Text: "Made with love"})
	if len(got) == 0 || got[0].Owner != "" {
		t.Errorf("owner after the activity stopped inflating the layout = %+v", got)
	}
	if err := os.Remove(filepath.Join(dir, layout)); err != nil {
		t.Fatal(err)
	}
	if _, err := idx.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if got := idx.Match(Query{Text: "Made with love"}); got != nil {
		t.Errorf("deleted layout still matches: %+v", got)
	}
}

// TestViewSnapshot checks that layouts and view references survive the
// cache round trip, owners included.
func TestViewSnapshot(t *testing.T) {
	idx := buildTest(t, viewsProject)
	back := roundTrip(t, idx)
	q := Query{Text: "Save", ResourceID: "com.example.views:id/save_button"}
	want, got := idx.Match(q), back.Match(q)
	if len(got) == 0 || len(got) != len(want) || got[0].File != want[0].File || got[0].Owner != want[0].Owner ||
		!slices.Equal(got[0].Usages, want[0].Usages) || got[0].Owner != "ProfileFragment.onCreateView" {
		t.Errorf("after round trip = %+v, want %+v", got, want)
	}
}
