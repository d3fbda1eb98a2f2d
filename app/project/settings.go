package project

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// settings is what settings.gradle(.kts) declares.
type settings struct {
	file     string            // the settings file's name, "" when there is none
	includes []string          // Gradle paths, ":app", ":feature:home"
	dirs     map[string]string // Gradle path -> directory, relative to the root
	builds   []string          // includeBuild directories, relative to the root
	dynamic  bool              // an include() whose argument is not a literal
}

// readSettings reads settings.gradle.kts or settings.gradle in root.
func readSettings(root string) (settings, error) {
	s := settings{dirs: map[string]string{}}
	for _, name := range []string{"settings.gradle.kts", "settings.gradle"} {
		data, err := os.ReadFile(filepath.Join(root, name))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return s, err
		}
		s.file = name
		s.parse(stripComments(string(data)))
		return s, nil
	}
	return s, nil
}

var (
	includeRE      = regexp.MustCompile(`(?m)(?:^|[;{\s])include\b\s*(\(?)`)
	includeBuildRE = regexp.MustCompile(`\bincludeBuild\s*\(?\s*["']([^"']+)["']`)
	projectDirRE   = regexp.MustCompile(`project\(\s*["'](:[^"']*)["']\s*\)\s*\.projectDir\s*=\s*(?:file\(\s*["']([^"']+)["']\s*\)|new\s+File\(\s*(?:rootDir|settingsDir|rootProject\.projectDir)\s*,\s*["']([^"']+)["']\s*\))`)
)

func (s *settings) parse(src string) {
	for _, loc := range includeRE.FindAllStringSubmatchIndex(src, -1) {
		args := includeArgs(src[loc[1]:], loc[2] != loc[3])
		lits := quoted(args)
		if len(lits) == 0 && strings.TrimSpace(args) != "" {
			s.dynamic = true
		}
		for _, p := range lits {
			if !strings.HasPrefix(p, ":") {
				p = ":" + p // include("app") means ":app"
			}
			s.includes = append(s.includes, p)
		}
	}
	for _, m := range includeBuildRE.FindAllStringSubmatch(src, -1) {
		s.builds = append(s.builds, m[1])
	}
	for _, m := range projectDirRE.FindAllStringSubmatch(src, -1) {
		s.dirs[m[1]] = m[2] + m[3]
	}
}

// includeArgs returns the argument text of one include: up to the matching paren, or
// for Groovy's paren-less form to the end of the line, following trailing commas.
func includeArgs(rest string, paren bool) string {
	if paren {
		depth := 1
		for i := 0; i < len(rest); i++ {
			switch rest[i] {
			case '"', '\'':
				i = stringEnd(rest, i) - 1
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					return rest[:i]
				}
			}
		}
		return rest
	}
	end := 0
	for {
		nl := strings.IndexByte(rest[end:], '\n')
		if nl < 0 {
			return rest
		}
		line := strings.TrimSpace(rest[end : end+nl])
		end += nl + 1
		if !strings.HasSuffix(line, ",") {
			return rest[:end]
		}
	}
}

// moduleDir is where a Gradle path's module lives: an explicit projectDir, or the
// path's segments as folders (":feature:home" -> feature/home).
func (s settings) moduleDir(path string) string {
	if d, ok := s.dirs[path]; ok {
		return filepath.FromSlash(d)
	}
	return filepath.Join(strings.Split(strings.TrimPrefix(path, ":"), ":")...)
}
