package project

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Variant is one build variant of an app module: product flavors plus a build type.
type Variant struct {
	Name      string   // freeDebug
	BuildType string   // debug
	Flavors   []string // free
	// ApplicationID is the package the variant installs as, when the scripts tell it
	// statically; SuffixUnresolved says a computed suffix may still be added.
	ApplicationID    string
	SuffixUnresolved bool
}

// Variant resolves a variant name. A bare build type ("debug") on a module with
// flavors picks, per dimension, the flavor marked isDefault or else the first, as
// Android Studio does; note says so.
func (m *Module) Variant(name string) (v Variant, note string, err error) {
	if name == "" {
		name = "debug"
	}
	rest := name
	for _, f := range m.FlavorSpec {
		if len(rest) > len(f.Name) && strings.EqualFold(rest[:len(f.Name)], f.Name) && isUpper(rest[len(f.Name)]) {
			v.Flavors = append(v.Flavors, f.Name)
			rest = rest[len(f.Name):]
		}
	}
	if len(v.Flavors) == 0 && len(m.FlavorSpec) > 0 {
		v.Flavors = m.defaultFlavors()
		note = fmt.Sprintf("%s has product flavors; building %s (choose another with --variant)", m.Path, joinVariant(v.Flavors, name))
	}
	v.BuildType = lowerFirst(rest)
	if v.BuildType == "" {
		return v, "", fmt.Errorf("variant %q names no build type", name)
	}
	v.Name = joinVariant(v.Flavors, v.BuildType)

	v.ApplicationID = m.ApplicationID
	suffix := ""
	for _, fn := range v.Flavors {
		for _, f := range m.FlavorSpec {
			if f.Name != fn {
				continue
			}
			if f.ApplicationID != "" {
				v.ApplicationID = f.ApplicationID
			}
			suffix += f.ApplicationIDSuffix
		}
	}
	switch v.BuildType {
	case "debug":
		suffix += m.DebugApplicationIDSuffix
		v.SuffixUnresolved = m.DebugSuffixUnresolved
	case "release":
	default:
		v.SuffixUnresolved = true // custom build types are not read
	}
	v.ApplicationID += suffix
	return v, note, nil
}

// defaultFlavors is the first flavor of each dimension, dimensions in declared order.
func (m *Module) defaultFlavors() []string {
	if len(m.Dimensions) == 0 {
		return []string{m.FlavorSpec[0].Name}
	}
	var out []string
	for _, d := range m.Dimensions {
		pick := ""
		for _, f := range m.FlavorSpec {
			if f.Dimension == d && (pick == "" || f.Default) {
				pick = f.Name
				if f.Default {
					break
				}
			}
		}
		if pick != "" {
			out = append(out, pick)
		}
	}
	if len(out) == 0 {
		out = []string{m.FlavorSpec[0].Name}
	}
	return out
}

// Task is the Gradle task that assembles the variant's APK: `:app:assembleFreeDebug`.
func (m *Module) Task(v Variant) string {
	prefix := m.Path + ":"
	if m.Path == ":" {
		prefix = ":"
	}
	return prefix + "assemble" + upperFirst(v.Name)
}

// OutputDir is where AGP writes the variant's APKs and output-metadata.json.
func (m *Module) OutputDir(v Variant) string {
	parts := []string{m.Dir, "build", "outputs", "apk"}
	if len(v.Flavors) > 0 {
		parts = append(parts, lowerFirst(joinVariant(v.Flavors, "")))
	}
	return filepath.Join(append(parts, v.BuildType)...)
}

// joinVariant is Gradle's variant naming: first part as is, the rest capitalised.
func joinVariant(flavors []string, last string) string {
	if len(flavors) == 0 {
		return last
	}
	s := flavors[0]
	for _, f := range flavors[1:] {
		s += upperFirst(f)
	}
	return s + upperFirst(last)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
