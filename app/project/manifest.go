package project

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

const androidNS = "http://schemas.android.com/apk/res/android"

type xmlAttrs []xml.Attr

// android returns the android:NAME attribute.
func (a xmlAttrs) android(name string) string {
	for _, at := range a {
		if at.Name.Local == name && (at.Name.Space == androidNS || at.Name.Space == "android") {
			return at.Value
		}
	}
	return ""
}

type manifestXML struct {
	Package     string `xml:"package,attr"`
	Application struct {
		Attrs      xmlAttrs      `xml:",any,attr"`
		Activities []activityXML `xml:"activity"`
		Aliases    []activityXML `xml:"activity-alias"`
	} `xml:"application"`
}

type activityXML struct {
	Attrs   xmlAttrs `xml:",any,attr"`
	Filters []struct {
		Actions []struct {
			Attrs xmlAttrs `xml:",any,attr"`
		} `xml:"action"`
		Categories []struct {
			Attrs xmlAttrs `xml:",any,attr"`
		} `xml:"category"`
	} `xml:"intent-filter"`
}

func (a activityXML) launcher() bool {
	if a.Attrs.android("enabled") == "false" {
		return false
	}
	for _, f := range a.Filters {
		main, launcher := false, false
		for _, ac := range f.Actions {
			main = main || ac.Attrs.android("name") == "android.intent.action.MAIN"
		}
		for _, c := range f.Categories {
			launcher = launcher || c.Attrs.android("name") == "android.intent.category.LAUNCHER"
		}
		if main && launcher {
			return true
		}
	}
	return false
}

// manifestInfo is what the main manifest says about launching the app.
type manifestInfo struct {
	pkg string // the legacy package attribute, the namespace when the build sets none
	// launcher is the launcher activity's class name as written (maybe relative);
	// alias is the activity-alias that declares the launcher intent filter, if one does.
	launcher, alias string
	label           string // android:label of <application>, maybe "@string/app_name"
}

// readManifest parses src/main/AndroidManifest.xml. A missing file is not an error:
// the caller reports the missing launcher.
func readManifest(path string) (manifestInfo, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return manifestInfo{}, nil
	}
	if err != nil {
		return manifestInfo{}, err
	}
	var m manifestXML
	if err := xml.Unmarshal(data, &m); err != nil {
		return manifestInfo{}, fmt.Errorf("parse %s: %w", path, err)
	}
	info := manifestInfo{pkg: m.Package, label: m.Application.Attrs.android("label")}
	for _, a := range m.Application.Activities {
		if a.launcher() {
			info.launcher = a.Attrs.android("name")
			return info, nil
		}
	}
	for _, a := range m.Application.Aliases {
		if a.launcher() {
			info.alias = a.Attrs.android("name")
			info.launcher = a.Attrs.android("targetActivity")
			return info, nil
		}
	}
	return info, nil
}

// qualify resolves a manifest class name against the namespace: ".Main" and "Main"
// are relative (aapt treats a name without a dot as relative too), "com.x.Main" is not.
func qualify(namespace, name string) string {
	switch {
	case name == "":
		return ""
	case strings.HasPrefix(name, "."):
		return namespace + name
	case !strings.Contains(name, "."):
		return namespace + "." + name
	}
	return name
}

// appLabel resolves the application label: a literal, or "@string/x" looked up in the
// module's src/main/res/values/strings.xml.
func appLabel(moduleDir, label string) string {
	name, ok := strings.CutPrefix(label, "@string/")
	if !ok {
		return label
	}
	data, err := os.ReadFile(filepath.Join(moduleDir, "src", "main", "res", "values", "strings.xml"))
	if err != nil {
		return ""
	}
	var res struct {
		Strings []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:",chardata"`
		} `xml:"string"`
	}
	if xml.Unmarshal(data, &res) != nil {
		return ""
	}
	for _, s := range res.Strings {
		if s.Name == name {
			return strings.ReplaceAll(strings.TrimSpace(s.Value), `\'`, "'")
		}
	}
	return ""
}
