package source

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"regexp"
	"sort"
	"strings"
)

// Layout XML (res/layout*/ and res/menu*/) is how classic View screens
// declare their widgets. Every element with an android:id, and every text,
// hint, title or content description it sets, becomes an entry at the line of
// the element's start tag, so a selected view's resource-id and its text land
// on the same candidate location.

// layoutOf reports whether p is a layout or menu resource and returns its
// layoutKey ("layout/activitysettings", "menu/main").
func layoutOf(p string) (string, bool) {
	p = strings.ReplaceAll(p, "\\", "/")
	if !strings.HasSuffix(p, ".xml") {
		return "", false
	}
	dir := path.Dir(p)
	if path.Base(path.Dir(dir)) != "res" {
		return "", false
	}
	kind := path.Base(dir)
	if q, _, ok := strings.Cut(kind, "-"); ok {
		kind = q // layout-land, layout-sw600dp, menu-v21, …
	}
	if !layoutKinds[kind] {
		return "", false
	}
	return layoutKey(kind, strings.TrimSuffix(path.Base(p), ".xml")), true
}

// layoutKinds are the resource folders indexed like layouts: what each
// element declares sits at its start tag. xml/ holds PreferenceScreens (and
// other XML whose text attributes are indexed alike), navigation/ the
// destinations a NavHost shows.
var layoutKinds = map[string]bool{"layout": true, "menu": true, "xml": true, "navigation": true}

// qualifiedLayout reports whether a layout file sits in a qualified folder
// (layout-land, layout-v21), which ranks after the default variant on ties.
func qualifiedLayout(p string) bool {
	return strings.Contains(path.Base(path.Dir(p)), "-")
}

// idKey normalises a resource name so that the XML spelling (units_title),
// the generated binding property (unitsTitle) and the binding class
// (ActivitySettingsBinding ↔ activity_settings) compare equal.
func idKey(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_':
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// layoutKey names a layout or menu resource: kind is "layout" or "menu".
func layoutKey(kind, name string) string { return kind + "/" + idKey(name) }

// ResourceIDName returns the entry name of a uiautomator resource-id
// ("com.example:id/units_title" → "units_title"; "android:id/title" keeps
// its "android:" prefix, since it names a framework id). A bare name is
// returned as it is.
func ResourceIDName(rid string) string {
	rid = strings.TrimSpace(rid)
	pkg, name, ok := strings.Cut(rid, ":id/")
	if !ok {
		return rid
	}
	if pkg == "android" {
		return "android:" + name
	}
	return name
}

// resourceIDKey is the index key of a uiautomator resource-id.
func resourceIDKey(rid string) string {
	name := ResourceIDName(rid)
	if rest, ok := strings.CutPrefix(name, "android:"); ok {
		return "android:" + idKey(rest)
	}
	return idKey(name)
}

const (
	nsAndroid = "http://schemas.android.com/apk/res/android"
	nsApp     = "http://schemas.android.com/apk/res-auto"
)

// layoutTextAttrs are the attributes whose value is shown as text or read as
// a content description.
var layoutTextAttrs = map[string]uint8{
	"text": kindText, "hint": kindText, "title": kindText, "subtitle": kindText,
	"contentDescription": kindCD,
	// Preferences: the summary line, the two-state summaries of switches and
	// check boxes, and their dialogs; navigation destinations: the label the
	// toolbar shows.
	"summary": kindText, "summaryOn": kindText, "summaryOff": kindText, "dialogTitle": kindText,
	"dialogMessage": kindText, "positiveButtonText": kindText, "negativeButtonText": kindText,
	"label": kindText, "queryHint": kindText, "helperText": kindText, "placeholderText": kindText,
	"tooltipText": kindCD, "navigationContentDescription": kindCD,
}

// classAttrs name the class a layout element stands for or hosts: a
// <fragment android:name>, a preference's app:fragment, a nav destination.
var classAttrs = map[string]bool{"name": true, "fragment": true, "class": true}

var bindingStringRef = regexp.MustCompile(`@string/(\w+)`)

var attrEscapes = strings.NewReplacer(`\'`, "'", `\"`, `"`, `\n`, "\n", `\t`, "\t", `\@`, "@", `\?`, "?")

// extractLayout indexes one layout or menu file. Comments are skipped by the
// XML tokenizer, so a commented-out widget is never indexed; tools:
// attributes (design-time only) are ignored; <include> records the layout it
// pulls in, so the includer's Activity also owns the included file.
func extractLayout(fi *FileIndex, src []byte) error {
	lines := lineStarts(src)
	lineAt := func(off int) int32 {
		return int32(sort.Search(len(lines), func(i int) bool { return lines[i] > off }))
	}
	dec := xml.NewDecoder(bytes.NewReader(src))
	dec.Strict = false
	root := true
	for {
		off := int(dec.InputOffset())
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("parse layout %s: %w", fi.Path, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if root {
			root = false
			// res/xml also holds widget, shortcut and backup descriptors,
			// whose labels are not on any screen: only preference
			// hierarchies are indexed there.
			if strings.HasPrefix(fi.Layout, "xml/") && !strings.Contains(se.Name.Local, "Preference") {
				return nil
			}
		}
		if i := bytes.IndexByte(src[min(off, len(src)):], '<'); i >= 0 {
			off += i
		}
		line := lineAt(off)
		add := func(e Entry) {
			e.Line, e.Owner = line, -1
			e.LineHash = hashLine(lineText(src, lines, int(line)))
			fi.Entries = append(fi.Entries, e)
		}
		if strings.Contains(se.Name.Local, ".") {
			// A custom view: its class draws what the attributes configure.
			add(Entry{Kind: kindClassRef, Key: simpleClass(se.Name.Local)})
		}
		for _, a := range se.Attr {
			ns := a.Name.Space
			android := ns == nsAndroid || ns == "android"
			switch {
			case se.Name.Local == "include" && ns == "" && a.Name.Local == "layout":
				if name, ok := strings.CutPrefix(a.Value, "@layout/"); ok {
					add(Entry{Kind: kindLayoutRef, Key: layoutKey("layout", name)})
				}
			case android && a.Name.Local == "id":
				if key := layoutIDKey(a.Value); key != "" {
					add(Entry{Kind: kindViewID, Key: key, Value: se.Name.Local})
				}
			case (android || ns == nsApp || ns == "app" || ns == "") && classAttrs[a.Name.Local] && strings.Contains(a.Value, "."):
				add(Entry{Kind: kindClassRef, Key: simpleClass(a.Value)})
			case android || ns == nsApp || ns == "app":
				if ctx, ok := layoutTextAttrs[a.Name.Local]; ok {
					layoutText(a.Value, ctx, add)
					continue
				}
				if key, ok := strings.CutPrefix(a.Value, "@string/"); ok && !hiddenAttr(a.Name.Local) {
					// A custom view attribute (app:cardTitle="@string/x"):
					// the view shows the string, unless the name says it
					// is read aloud (app:navigationContentDescription).
					ctx := kindText
					if strings.Contains(a.Name.Local, "ContentDescription") {
						ctx = kindCD
					}
					add(Entry{Kind: kindStringRes, Ctx: ctx, Key: key})
					continue
				}
				// app:menu="@menu/drawer", app:headerLayout, ViewStub's
				// android:layout: this layout's owner shows those too.
				for _, kind := range []string{"layout", "menu", "navigation", "xml"} {
					if name, ok := strings.CutPrefix(a.Value, "@"+kind+"/"); ok {
						add(Entry{Kind: kindLayoutRef, Key: layoutKey(kind, name)})
					}
				}
			}
		}
	}
}

// hiddenAttr names attributes whose string is never shown: layout behaviour
// class names, autofill hints, preference keys and dependencies.
func hiddenAttr(name string) bool {
	return strings.HasPrefix(name, "layout_") || strings.HasPrefix(name, "autofill") ||
		name == "key" || name == "dependency" || name == "defaultValue" || name == "entryValues"
}

// simpleClass is the last segment of a class name ("a.b.Outer$Inner" → "Inner").
func simpleClass(v string) string {
	v = strings.TrimSpace(v)
	if i := strings.LastIndexAny(v, ".$"); i >= 0 {
		v = v[i+1:]
	}
	return v
}

// layoutIDKey turns "@+id/x", "@id/x" or "@android:id/x" into an index key.
func layoutIDKey(v string) string {
	v = strings.TrimSpace(v)
	if name, ok := strings.CutPrefix(v, "@android:id/"); ok {
		return "android:" + idKey(name)
	}
	for _, p := range []string{"@+id/", "@id/"} {
		if name, ok := strings.CutPrefix(v, p); ok {
			return idKey(name)
		}
	}
	return ""
}

// layoutText records one text-like attribute value: a string resource
// reference (also inside a data-binding expression) or a literal.
func layoutText(v string, ctx uint8, add func(Entry)) {
	switch {
	case strings.HasPrefix(v, "@string/"):
		add(Entry{Kind: kindStringRes, Ctx: ctx, Key: strings.TrimPrefix(v, "@string/")})
	case strings.HasPrefix(v, "@{"):
		for _, m := range bindingStringRef.FindAllStringSubmatch(v, -1) {
			add(Entry{Kind: kindStringRes, Ctx: ctx, Key: m[1]})
		}
	case strings.HasPrefix(v, "@") || strings.HasPrefix(v, "?"):
		// @android:string/…, theme attributes: nothing the project spells out.
	default:
		if s := attrEscapes.Replace(v); hasLetter(s) {
			add(Entry{Kind: ctx, Value: s})
		}
	}
}
