package capture

import (
	"strings"

	"fixthis/internal/sidekick"
)

// Node and Bounds are the wire shapes the console API and the sidekick protocol share;
// they live with the protocol so the simulated device speaks them without importing
// this package.
type (
	Node   = sidekick.Node
	Bounds = sidekick.Bounds
)

// uidFor builds the stable node id from its index path: the same structure always
// yields the same ids, whatever the texts say.
func uidFor(indexPath string) string { return "n" + indexPath }

// testTagFrom returns the Compose test tag carried in a resource-id. Compose exposes
// Modifier.testTag as resource-id (testTagsAsResourceId) without the "pkg:id/" prefix
// every View id has; anything with that prefix is a View id, not a tag.
func testTagFrom(resourceID string) string {
	if resourceID == "" || strings.Contains(resourceID, ":id/") {
		return ""
	}
	return resourceID
}

// simpleClass strips the package from a Java class name ("android.widget.Button" →
// "Button"); inner classes keep their outer name ("SearchView$SearchAutoComplete").
func simpleClass(class string) string {
	if i := strings.LastIndexByte(class, '.'); i >= 0 {
		return class[i+1:]
	}
	return class
}

// roleByClass maps widget simple names to the roles the console and the handoff
// prompt speak. Compose reports its semantic roles through the same class names
// (Role.Button → android.widget.Button, Role.Checkbox → android.widget.CheckBox, …),
// so one table serves Views and Compose.
var roleByClass = map[string]string{
	"Button":                       "Button",
	"ImageButton":                  "Button",
	"MaterialButton":               "Button",
	"AppCompatButton":              "Button",
	"AppCompatImageButton":         "Button",
	"FloatingActionButton":         "Button",
	"ExtendedFloatingActionButton": "Button",
	"EditText":                     "TextField",
	"AppCompatEditText":            "TextField",
	"TextInputEditText":            "TextField",
	"AutoCompleteTextView":         "TextField",
	"MultiAutoCompleteTextView":    "TextField",
	"CheckBox":                     "Checkbox",
	"AppCompatCheckBox":            "Checkbox",
	"MaterialCheckBox":             "Checkbox",
	"Switch":                       "Switch",
	"SwitchCompat":                 "Switch",
	"SwitchMaterial":               "Switch",
	"MaterialSwitch":               "Switch",
	"ToggleButton":                 "Switch",
	"RadioButton":                  "RadioButton",
	"AppCompatRadioButton":         "RadioButton",
	"MaterialRadioButton":          "RadioButton",
	"ImageView":                    "Image",
	"AppCompatImageView":           "Image",
	"ShapeableImageView":           "Image",
	"TextView":                     "Text",
	"AppCompatTextView":            "Text",
	"MaterialTextView":             "Text",
	"CheckedTextView":              "Text",
	"ScrollView":                   "List",
	"HorizontalScrollView":         "List",
	"NestedScrollView":             "List",
	"RecyclerView":                 "List",
	"ListView":                     "List",
	"GridView":                     "List",
	"ViewPager":                    "Pager",
	"ViewPager2":                   "Pager",
	"SeekBar":                      "Slider",
	"RatingBar":                    "Slider",
	"ProgressBar":                  "ProgressBar",
	"Spinner":                      "DropdownList",
	"TabWidget":                    "TabList",
	"TabLayout":                    "TabList",
	"WebView":                      "WebView",
}

// roleFor returns the role of a class, "" when the class carries no role (plain
// View, ViewGroup, layouts).
func roleFor(class string) string {
	name := simpleClass(class)
	if i := strings.IndexByte(name, '$'); i >= 0 {
		// SearchView$SearchAutoComplete and friends: the inner class decides.
		if r, ok := roleByClass[name[i+1:]]; ok {
			return r
		}
		if strings.HasSuffix(name, "AutoComplete") {
			return "TextField"
		}
		name = name[:i]
	}
	return roleByClass[name]
}

// isEditableClass reports whether a class holds user-typed text. uiautomator has no
// "editable" attribute; every editable widget (and Compose's text fields, reported as
// android.widget.EditText) derives from EditText.
func isEditableClass(class string) bool {
	return roleFor(class) == "TextField"
}

// isComposeHost reports whether a View class hosts a Compose hierarchy.
func isComposeHost(class string) bool {
	name := simpleClass(class)
	return name == "ComposeView" || name == "AndroidComposeView"
}

// isComposeInterop reports whether a class is Compose's AndroidView holder: its
// children are classic Views again.
func isComposeInterop(class string) bool {
	return strings.Contains(class, ".viewinterop.")
}
