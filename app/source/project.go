package source

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// FileIndex is everything indexed from one file.
type FileIndex struct {
	Path       string // slash-separated, relative to the project root
	Module     string // Gradle path such as ":app"
	SourceSet  string // main, debug, test, androidTest, …
	ModTime    int64  // UnixNano, to notice changes
	Size       int64
	Entries    []Entry
	Defs       []Def
	Calls      []Call
	Activities []Activity
	// Classes names the classes and objects declared in a code file; Refs the
	// capitalised names its code uses (calls, `Name.x`, `Name::x`), once each.
	// Together they link an Activity to the fragments and composables it shows.
	Classes []string
	Refs    []string
	Package string
	// Layout is set for res/layout*/ and res/menu*/ files: layoutKey of the
	// file, which code references (R.layout.x, XBinding) resolve to.
	Layout string
}

// isTest reports whether the file belongs to a test source set, whose strings
// (assertions such as onNodeWithText("Save")) are weak evidence for app UI.
func (f *FileIndex) isTest() bool {
	s := strings.ToLower(f.SourceSet)
	return strings.Contains(s, "test")
}

var (
	includeWord = regexp.MustCompile(`(?m)^\s*include\b`)
	quotedPath  = regexp.MustCompile(`["']([^"']+)["']`)
	projectDir  = regexp.MustCompile(`project\(\s*["']([^"']+)["']\s*\)\.projectDir\s*=\s*(?:new\s+)?(?:file|File)\(\s*(?:rootDir\s*,\s*)?["']([^"']+)["']`)
)

// module is a Gradle module: its path and directory relative to the root.
type module struct {
	Name string
	Dir  string
}

// readModules lists the modules of the project at root from
// settings.gradle(.kts). Without a settings file the root itself is the only
// module (a single-module build or a plain source folder).
func readModules(root string) ([]module, error) {
	var data []byte
	for _, name := range []string{"settings.gradle.kts", "settings.gradle"} {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err == nil {
			data = b
			break
		}
		if !os.IsNotExist(err) {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
	}
	mods := []module{{Name: ":", Dir: "."}}
	if data == nil {
		return mods, nil
	}
	code := maskComments(data)
	dirs := map[string]string{}
	for _, m := range projectDir.FindAllSubmatch(code, -1) {
		dirs[string(m[1])] = filepath.ToSlash(filepath.Clean(string(m[2])))
	}
	seen := map[string]bool{}
	for _, args := range includeArgs(code) {
		for _, q := range quotedPath.FindAllSubmatch(args, -1) {
			name := string(q[1])
			if !strings.HasPrefix(name, ":") {
				name = ":" + name
			}
			if seen[name] {
				continue
			}
			seen[name] = true
			dir, ok := dirs[name]
			if !ok {
				dir = strings.ReplaceAll(strings.TrimPrefix(name, ":"), ":", "/")
			}
			mods = append(mods, module{Name: name, Dir: dir})
		}
	}
	return mods, nil
}

// includeArgs returns the argument text of every include: the parenthesised
// list, which may span lines, or the rest of the line (continued after a
// trailing comma) in the Groovy form `include ':a', ':b'`.
func includeArgs(code []byte) [][]byte {
	var out [][]byte
	for _, loc := range includeWord.FindAllIndex(code, -1) {
		i := loc[1]
		for i < len(code) && (code[i] == ' ' || code[i] == '\t') {
			i++
		}
		if i < len(code) && code[i] == '(' {
			depth, j := 0, i
			for ; j < len(code); j++ {
				if code[j] == '(' {
					depth++
				} else if code[j] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			out = append(out, code[i:min(j+1, len(code))])
			continue
		}
		j := i
		for j < len(code) {
			nl := bytes.IndexByte(code[j:], '\n')
			if nl < 0 {
				j = len(code)
				break
			}
			line := bytes.TrimSpace(code[j : j+nl])
			j += nl + 1
			if !bytes.HasSuffix(line, []byte(",")) {
				break
			}
		}
		out = append(out, code[i:j])
	}
	return out
}

// maskComments blanks comments in a Gradle script (Kotlin or Groovy, where
// '…' is a string too), so a commented-out include is ignored.
func maskComments(src []byte) []byte {
	out := bytes.Clone(src)
	blank := func(i, j int) {
		for ; i < j; i++ {
			if out[i] != '\n' {
				out[i] = ' '
			}
		}
	}
	for i := 0; i < len(src); {
		switch {
		case src[i] == '"' || src[i] == '\'':
			q := src[i]
			i++
			for i < len(src) && src[i] != q && src[i] != '\n' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '/':
			j := bytes.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			blank(i, i+j)
			i += j
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '*':
			j := (&lexer{src: src}).blockComment(i)
			blank(i, j)
			i = j
		default:
			i++
		}
	}
	return out
}

// sourceFile is a file the index covers.
type sourceFile struct {
	Rel       string
	Module    string
	SourceSet string
}

// discover walks `<module>/src/*/` of every module for Kotlin sources,
// res/values*/strings.xml, res/layout*/*.xml and res/menu*/*.xml.
func discover(ctx context.Context, root string, mods []module) ([]sourceFile, error) {
	var files []sourceFile
	seen := map[string]bool{}
	for _, mod := range mods {
		srcDir := filepath.Join(root, filepath.FromSlash(mod.Dir), "src")
		sets, err := os.ReadDir(srcDir)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return nil, fmt.Errorf("list source sets of module %s: %w", mod.Name, err)
		}
		for _, set := range sets {
			if !set.IsDir() {
				continue
			}
			base := filepath.Join(srcDir, set.Name())
			err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil // unreadable subtree: skip it, index the rest
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				if d.IsDir() {
					if n := d.Name(); p != base && (strings.HasPrefix(n, ".") || n == "build") {
						return filepath.SkipDir
					}
					return nil
				}
				if !wanted(p) {
					return nil
				}
				rel, err := filepath.Rel(root, p)
				if err != nil {
					return nil
				}
				rel = filepath.ToSlash(rel)
				if !seen[rel] {
					seen[rel] = true
					files = append(files, sourceFile{Rel: rel, Module: mod.Name, SourceSet: set.Name()})
				}
				return nil
			})
			if err != nil {
				return nil, fmt.Errorf("walk %s: %w", base, err)
			}
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Rel < files[j].Rel })
	return files, nil
}

// wanted reports whether a path is a file the index reads: Kotlin and Java
// code, layout-like resources, and string resources (strings.xml and other
// values files named for strings or plurals, under res/ or composeResources/).
func wanted(p string) bool {
	if strings.HasSuffix(p, ".kt") || strings.HasSuffix(p, ".kts") || strings.HasSuffix(p, ".java") {
		return true
	}
	if _, ok := layoutOf(p); ok {
		return true
	}
	return isStringsFile(p)
}

func isStringsFile(p string) bool {
	base := filepath.Base(p)
	if !strings.HasSuffix(base, ".xml") || !strings.Contains(base, "string") && !strings.Contains(base, "plural") {
		return false
	}
	dir := filepath.Base(filepath.Dir(p))
	return dir == "values" || strings.HasPrefix(dir, "values-")
}

// localizedValues reports whether a strings file sits in a qualified values
// folder (values-de, values-night): a translation or variant, which never
// ranks above the default values/ file.
func localizedValues(p string) bool {
	return strings.HasPrefix(path.Base(path.Dir(p)), "values-")
}

// extractStrings indexes <string name="x">value</string> entries.
func extractStrings(fi *FileIndex, src []byte) error {
	lines := lineStarts(src)
	lineAt := func(off int64) int32 {
		return int32(sort.Search(len(lines), func(i int) bool { return int64(lines[i]) > off }))
	}
	dec := xml.NewDecoder(bytes.NewReader(src))
	dec.Strict = false
	dec.Entity = docEntities(src)
	group := ""
	for {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("parse %s: %w", fi.Path, err)
		}
		if ee, ok := tok.(xml.EndElement); ok && (ee.Name.Local == "plurals" || ee.Name.Local == "string-array") {
			group = ""
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Local {
		case "plurals", "string-array":
			// Each <item> of a plural or array is a string the device may
			// show under the parent's name (R.plurals.x, R.array.x).
			group = attr(se, "name")
			continue
		case "string":
		case "item":
			if group == "" {
				continue
			}
		default:
			continue
		}
		name := attr(se, "name")
		if se.Name.Local == "item" {
			name = group
		}
		var body struct {
			Inner string `xml:",innerxml"`
		}
		if err := dec.DecodeElement(&body, &se); err != nil {
			return fmt.Errorf("parse string %q in %s: %w", name, fi.Path, err)
		}
		line := lineAt(off)
		// The start tag may follow leading white space on the offset's line.
		for int(line) < len(lines) && !bytes.Contains(lineText(src, lines, int(line)), []byte("<"+se.Name.Local)) {
			line++
		}
		fi.Entries = append(fi.Entries, Entry{
			Kind: kindXMLString, Key: name, Value: androidString(expandEntities(body.Inner, dec.Entity)),
			Line: line, Owner: -1, LineHash: hashLine(lineText(src, lines, int(line))),
		})
	}
}

var xmlTags = regexp.MustCompile(`<[^>]*>`)

// resourceEscapes decodes XML entities and Android's backslash escapes; built
// once, since building a replacer costs more than using it.
var resourceEscapes = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&", "&quot;", `"`, "&apos;", "'",
	`\'`, "'", `\"`, `"`, `\n`, "\n", `\t`, "\t", `\@`, "@", `\?`, "?")

func attr(se xml.StartElement, name string) string {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

var entityDecl = regexp.MustCompile(`<!ENTITY\s+([\w.-]+)\s+"([^"]*)"\s*>`)

// expandEntities replaces declared &NAME; references in raw inner XML.
func expandEntities(inner string, ents map[string]string) string {
	if len(ents) == 0 || !strings.Contains(inner, "&") {
		return inner
	}
	for k, v := range ents {
		inner = strings.ReplaceAll(inner, "&"+k+";", v)
	}
	return inner
}

// docEntities reads the internal DTD's <!ENTITY NAME "value"> declarations,
// which some apps use to spell their name once (&APP_NAME;) across strings.
func docEntities(src []byte) map[string]string {
	head := src[:min(len(src), 4096)]
	if !bytes.Contains(head, []byte("<!DOCTYPE")) {
		return nil
	}
	m := map[string]string{}
	for _, e := range entityDecl.FindAllSubmatch(src, -1) {
		m[string(e[1])] = string(e[2])
	}
	return m
}

// androidString turns a resource value into the text a device shows: markup
// dropped, entities and Android escapes decoded, surrounding quotes removed.
func androidString(inner string) string {
	s := xmlTags.ReplaceAllString(inner, "")
	if strings.HasPrefix(s, "<![CDATA[") {
		s = strings.TrimSuffix(strings.TrimPrefix(s, "<![CDATA["), "]]>")
	}
	s = resourceEscapes.Replace(s)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	// Format arguments (%1$s, %d) are holes the device fills in.
	return formatArg.ReplaceAllString(s, templateMark)
}

var formatArg = regexp.MustCompile(`%(\d+\$)?[-#+ 0,(]*\d*(\.\d+)?[sdfxXoc]`)
