// The shell's lexer and parser: words, quotes, operators, redirections and
// command substitutions, turned into pipelines.
package shell

import (
	"fmt"
	"strings"
)

// The device runs adb's command strings through a small POSIX-like shell: quoting,
// escapes, `;`, newlines, `&`, `&&`, `||`, `|`, redirects, comments and command
// substitution (`$(…)` and backticks). That covers what adb clients send (adb joins
// and quotes arguments and expects the device shell to unquote them), and every
// metacharacter through which a value spliced into a command line would run
// something else on a real phone's /system/bin/sh.

type redirect struct {
	fd     int    // 0 stdin, 1 stdout, 2 stderr, -1 both (&>)
	op     string // ">", ">>", "<", ">&"
	target string
}

type simpleCommand struct {
	args   []string
	redirs []redirect
}

// pipeline is one or more commands joined by `|`; next says how the following
// pipeline runs: ";" always, "&&" on success, "||" on failure.
type pipeline struct {
	cmds []simpleCommand
	next string
}

// statusMarker stands for `$?` until the command runs and the status is known.
const statusMarker = "\x00?\x00"

// substOpen and substClose enclose the script of a command substitution inside a
// word until the command runs: the substitution runs only if its command does.
const (
	substOpen  = "\x00(\x00"
	substClose = "\x00)\x00"
)

// substitution reads the script of a `$(…)` starting after its "$(" at src[i:] or of
// a backtick substitution starting after its "`", and returns it with the index of
// its closing character.
func substitution(src string, i int, backtick bool) (string, int, error) {
	if backtick {
		var b strings.Builder
		for j := i; j < len(src); j++ {
			switch {
			case src[j] == '\\' && j+1 < len(src) && strings.IndexByte("$`\\", src[j+1]) >= 0:
				j++
				b.WriteByte(src[j])
			case src[j] == '`':
				return b.String(), j, nil
			default:
				b.WriteByte(src[j])
			}
		}
		return "", 0, fmt.Errorf("syntax error: unterminated command substitution")
	}
	depth := 1
	for j := i; j < len(src); j++ {
		switch src[j] {
		case '\'':
			end := strings.IndexByte(src[j+1:], '\'')
			if end < 0 {
				return "", 0, fmt.Errorf("syntax error: unterminated quoted string")
			}
			j += end + 1
		case '\\':
			j++
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return src[i:j], j, nil
			}
		}
	}
	return "", 0, fmt.Errorf("syntax error: unterminated command substitution")
}

type tokenKind int

const (
	tokWord tokenKind = iota
	tokOp
)

type token struct {
	kind tokenKind
	text string
}

// lexShell splits a command line into words and operators, removing quotes.
func lexShell(src string) ([]token, error) {
	var toks []token
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			toks = append(toks, token{tokWord, cur.String()})
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\'':
			end := strings.IndexByte(src[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("syntax error: unterminated quoted string")
			}
			cur.WriteString(src[i+1 : i+1+end])
			inWord = true
			i += end + 1
		case c == '"':
			inWord = true
			j := i + 1
			for ; j < len(src) && src[j] != '"'; j++ {
				if src[j] == '$' && j+1 < len(src) && src[j+1] == '?' {
					cur.WriteString(statusMarker)
					j++
					continue
				}
				if (src[j] == '$' && j+1 < len(src) && src[j+1] == '(') || src[j] == '`' {
					bt := src[j] == '`'
					start := j + 2
					if bt {
						start = j + 1
					}
					script, end, err := substitution(src, start, bt)
					if err != nil {
						return nil, err
					}
					cur.WriteString(substOpen + script + substClose)
					j = end
					continue
				}
				if src[j] == '\\' && j+1 < len(src) && strings.IndexByte("$`\"\\\n", src[j+1]) >= 0 {
					j++
				}
				cur.WriteByte(src[j])
			}
			if j >= len(src) {
				return nil, fmt.Errorf("syntax error: unterminated quoted string")
			}
			i = j
		case c == '$' && i+1 < len(src) && src[i+1] == '?':
			cur.WriteString(statusMarker)
			inWord = true
			i++
		case (c == '$' && i+1 < len(src) && src[i+1] == '(') || c == '`':
			start := i + 2
			if c == '`' {
				start = i + 1
			}
			script, end, err := substitution(src, start, c == '`')
			if err != nil {
				return nil, err
			}
			cur.WriteString(substOpen + script + substClose)
			inWord = true
			i = end
		case c == '\\':
			if i+1 < len(src) {
				i++
				if src[i] != '\n' {
					cur.WriteByte(src[i])
					inWord = true
				}
			}
		case c == ' ' || c == '\t':
			flush()
		case c == '#' && !inWord:
			for i < len(src) && src[i] != '\n' {
				i++
			}
			i--
		case c == '\n' || c == ';':
			flush()
			toks = append(toks, token{tokOp, ";"})
		case c == '&' || c == '|':
			if i+1 < len(src) && src[i+1] == c {
				flush()
				toks = append(toks, token{tokOp, string([]byte{c, c})})
				i++
			} else if c == '&' && i+1 < len(src) && src[i+1] == '>' {
				flush()
				toks = append(toks, token{tokOp, "&>"})
				i++
			} else if c == '|' {
				flush()
				toks = append(toks, token{tokOp, "|"})
			} else {
				// A background `&` runs in the foreground here: the output still
				// reaches the caller, which is what adb users expect to see.
				flush()
				toks = append(toks, token{tokOp, ";"})
			}
		case c == '>' || c == '<':
			fd := -2
			if inWord && isDigits(cur.String()) {
				fmt.Sscan(cur.String(), &fd)
				cur.Reset()
				inWord = false
			}
			flush()
			op := string(c)
			if c == '>' && i+1 < len(src) && src[i+1] == '>' {
				op = ">>"
				i++
			} else if c == '>' && i+1 < len(src) && src[i+1] == '&' {
				op = ">&"
				i++
			}
			if fd == -2 {
				fd = 1
				if c == '<' {
					fd = 0
				}
			}
			toks = append(toks, token{tokOp, fmt.Sprintf("%d%s", fd, op)})
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return toks, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// parseShell turns a command line into pipelines.
func parseShell(src string) ([]pipeline, error) {
	toks, err := lexShell(src)
	if err != nil {
		return nil, err
	}
	var out []pipeline
	var pl pipeline
	var cmd simpleCommand
	endCmd := func() error {
		if len(cmd.args) == 0 && len(cmd.redirs) == 0 {
			return nil
		}
		if len(cmd.args) == 0 {
			cmd.args = []string{"true"}
		}
		pl.cmds = append(pl.cmds, cmd)
		cmd = simpleCommand{}
		return nil
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == tokWord {
			cmd.args = append(cmd.args, t.text)
			continue
		}
		switch t.text {
		case ";", "&&", "||":
			empty := len(cmd.args) == 0 && len(cmd.redirs) == 0
			endCmd()
			if len(pl.cmds) == 0 {
				if t.text == ";" && empty {
					continue
				}
				return nil, fmt.Errorf("syntax error: unexpected '%s'", t.text)
			}
			pl.next = t.text
			out = append(out, pl)
			pl = pipeline{}
		case "|":
			if len(cmd.args) == 0 {
				return nil, fmt.Errorf("syntax error: unexpected '|'")
			}
			endCmd()
		default: // redirect: "<fd><op>" or "&>"
			if i+1 >= len(toks) || toks[i+1].kind != tokWord {
				return nil, fmt.Errorf("syntax error: redirect %s without a target", t.text)
			}
			target := toks[i+1].text
			i++
			if t.text == "&>" {
				cmd.redirs = append(cmd.redirs, redirect{fd: -1, op: ">", target: target})
				continue
			}
			var fd int
			var op string
			fmt.Sscanf(t.text, "%d%s", &fd, &op)
			cmd.redirs = append(cmd.redirs, redirect{fd: fd, op: op, target: target})
		}
	}
	endCmd()
	if len(pl.cmds) > 0 {
		pl.next = ";"
		out = append(out, pl)
	} else if len(out) > 0 && out[len(out)-1].next != ";" {
		return nil, fmt.Errorf("syntax error: unexpected end of command after '%s'", out[len(out)-1].next)
	}
	return out, nil
}
