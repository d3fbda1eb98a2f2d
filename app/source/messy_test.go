package source

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// testdata/messy is a small multi-module project in the styles the matcher
// meets in the wild: a Java activity and a PreferenceScreen in res/xml, an
// XML entity in strings.xml, plurals and formatted strings, a custom view
// attribute, a shared i18n module used through an import alias and through
// `import …R.string`, Compose Multiplatform resources, a translation that
// repeats the default text, and one word shown on two screens.
func TestMessyProject(t *testing.T) {
	idx, err := Build(context.Background(), "testdata/messy")
	if err != nil {
		t.Fatal(err)
	}
	const (
		main     = "app/src/main/res/layout/activity_main.xml"
		prefs    = "app/src/main/res/xml/root_preferences.xml"
		mainJava = "app/src/main/java/com/example/hike/MainActivity.java"
		trips    = "feature/trips/src/main/kotlin/com/example/trips/TripsScreen.kt"
		forecast = "shared/src/commonMain/kotlin/com/example/shared/ForecastScreen.kt"
	)
	settings := "com.example.hike.settings.SettingsActivity"
	tests := []struct {
		name    string
		q       Query
		want    string
		wantTok string
	}{
		{"preference title", Query{Text: "Units", ResourceID: "android:id/title", Activity: settings}, prefs, TokResolvedRes},
		{"switch summary when on", Query{Text: "Distances in miles", ResourceID: "android:id/summary"}, prefs, TokResolvedRes},
		{"summary through an XML entity", Query{Text: "About Hikelog and its licences"}, prefs, TokResolvedRes},
		{"same word, settings screen", Query{Text: "Keyboard", Activity: settings}, prefs, TokActivity},
		{"same word, framework id of a preference row", Query{Text: "Keyboard", ResourceID: "android:id/title"}, prefs, TokResolvedRes},
		{"same word, main screen", Query{Text: "Keyboard", Activity: "com.example.hike.MainActivity"}, main, TokActivity},
		{"formatted text in Java", Query{Text: "Stop tracking (12)"}, mainJava, TokResolvedRes},
		{"plural item in Java", Query{Text: "3 hikes logged"}, mainJava, TokResolvedRes},
		{"custom view attribute beats the view's own layout", Query{Text: "Weather on the trail", ResourceID: "com.example.hike:id/card_title"}, main, TokResolvedRes},
		{"string from the i18n module via an alias", Query{Text: "No trips planned yet"}, trips, TokResolvedRes},
		{"string via import R.string", Query{ContentDescription: "Delete trip"}, trips, TokResolvedRes},
		{"Compose Multiplatform string", Query{Text: "Seven-day forecast"}, forecast, TokResolvedRes},
		{"Compose Multiplatform plural", Query{Text: "1 day of sun"}, forecast, TokResolvedRes},
		{"translation repeating the default never outranks a use", Query{Text: "OK"}, main, TokResolvedRes},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := idx.Match(tc.q)
			if len(got) == 0 {
				t.Fatal("no candidates")
			}
			if got[0].File != tc.want || !slices.Contains(got[0].Matched, tc.wantTok) {
				t.Fatalf("top = %s %v (%.2f), want %s with %s; all: %v", got[0].File, got[0].Matched, got[0].Score, tc.want, tc.wantTok, files(got))
			}
			for _, c := range got {
				if IsStringsDefinition(c.File) && c.Score >= got[0].Score {
					t.Fatalf("a strings file ties the use: %v", files(got))
				}
			}
		})
	}

	t.Run("unused string: the definition is all there is, and not confident", func(t *testing.T) {
		got := idx.Match(Query{Text: "Words nobody shows"})
		if len(got) == 0 || !IsStringsDefinition(got[0].File) || Confident(got) {
			t.Fatalf("got %v", files(got))
		}
	})
	t.Run("Java setContentDescription(getString(…)) reads as a content description", func(t *testing.T) {
		got := idx.Match(Query{ContentDescription: "Confirm the route"})
		if len(got) == 0 || got[0].File != mainJava || got[0].Score < 0.95 {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("a Java method owns the preference screen it loads", func(t *testing.T) {
		got := idx.Match(Query{Text: "Units", Activity: settings})
		if len(got) == 0 || got[0].Owner != "RootFragment.onCreatePreferences" || !strings.HasSuffix(got[0].OwnerFile, "SettingsActivity.java") {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("translation below the default", func(t *testing.T) {
		var def, de int = -1, -1
		for i, c := range idx.Match(Query{Text: "OK"}) {
			switch {
			case strings.Contains(c.File, "/values/"):
				def = i
			case strings.Contains(c.File, "/values-de/"):
				de = i
			}
		}
		if def < 0 || de < 0 || de < def {
			t.Fatalf("values/ at %d, values-de/ at %d", def, de)
		}
	})
	t.Run("the settings activity shows the preference screen", func(t *testing.T) {
		shows := idx.reachable("SettingsActivity")
		var names []string
		for fi := range shows {
			names = append(names, fi.Path)
		}
		if !strings.Contains(strings.Join(names, " "), prefs) || strings.Contains(strings.Join(names, " "), main) {
			t.Fatalf("SettingsActivity shows %v", names)
		}
	})
}

func files(cs []Candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.File)
	}
	return out
}
