package handoff

import (
	"fmt"
	"regexp"
	"strings"
)

// A small checker for the v2 compact prompt grammar. It walks the lines in
// the order the BNF allows and reports the first line that fits no
// production, so a render that drifts from the grammar in docs/prompt.md fails loudly.

// displayCond is one condition of a screen's display: line.
// sizeEntry is one size of the sizes: line.
const sizeEntry = `[a-z0-9][a-z0-9-]{0,31} \d+x\d+dp (found( clipped)?( cut-off)?( overlapped)?|not found|not shown)`

const displayCond = `(night|fontScale=\d+(\.\d+)?|locale=[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*|density=\d+|animationScale=\d+(\.\d+)?)`

var (
	rxPackage     = regexp.MustCompile("^- Package: `[^`]*`$")
	rxSourceRoot  = regexp.MustCompile("^- Source root: `([^`]+/)`$")
	rxAppBuild    = regexp.MustCompile("^- App build: `[^`]+`( \\S+)?( \\(versionCode \\d+\\))?(, installed \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC)?; source: (git [0-9a-f]{1,8}(, uncommitted changes)?|not a git work tree)$")
	rxQuality     = regexp.MustCompile(`^Handoff quality: [a-z-]+=\d+(, [a-z-]+=\d+)*$`)
	rxScreen      = regexp.MustCompile(`^Screen ([^ :]{1,8}): (.+)$`)
	rxScreenshot  = regexp.MustCompile(`^screenshot: \S.*$`)
	rxViewport    = regexp.MustCompile(`^viewport: \d+×\d+$`)
	rxOrientation = regexp.MustCompile(`^orientation: landscape  rotation=[0-3]$`)
	rxPhone       = regexp.MustCompile(`^phone: [!-~]{1,255}$`)
	rxActivity    = regexp.MustCompile(`^activity: (\S.*)$`)
	rxWindow      = regexp.MustCompile(`^window: dialog "(\\.|[^"\\])*" \(targets are inside this dialog, not in the screen behind it\)$`)
	rxKeyboard    = regexp.MustCompile(`^keyboard: shown  box=\(-?\d+,-?\d+\)-\(-?\d+,-?\d+\)$`)
	rxDisplay     = regexp.MustCompile(`^display: ` + displayCond + `(, ` + displayCond + `)*$`)
	rxOverlap     = regexp.MustCompile(`^Overlap group \d+ \(resolve one marker at a time\):$`)
	rxItemHeader  = regexp.MustCompile(`^\[\d+\] (\[!\] )?\S.*$`)
	rxID          = regexp.MustCompile(`^  id: \S.*$`)
	rxTarget      = regexp.MustCompile(`^  target: \S.*$`)
	rxTargetLine  = regexp.MustCompile(`^  (role=\S+  )?(tag=\S+  )?box=\(-?\d+,-?\d+\)-\(-?\d+,-?\d+\)(  instance \d+/\d+)?(; targetRisk=overlap)?(; targetRisk=duplicate-of-marker-\d+)?$`)
	rxCheck       = regexp.MustCompile(`^  check: [a-z_]{1,40}$`)
	rxSaid        = regexp.MustCompile(`^  said: "(\\.|[^"\\]){1,200}"$`)
	rxCrop        = regexp.MustCompile(`^crop: \S.*$`)
	rxClip        = regexp.MustCompile(`^clip: \S.*  duration=\d+\.\ds  frames=\d+  size=\d+x\d+$`)
	rxFrames      = regexp.MustCompile(`^frames: \S.*  stalls=\d+  longestStall=\d+ms(  timeline=\S.*)?$`)
	rxSizes       = regexp.MustCompile(`^  sizes: ` + sizeEntry + `(; ` + sizeEntry + `){0,7}$`)
	rxEditSurface = regexp.MustCompile(`^  editSurface: \S+(  role=(call-site|component-definition|copy-or-data|layout-or-style|visual-area|interop-risk))? -> \S+?(:\d+)?  conf=(high|medium|low|none)  why=\[[^\]]*\](  basis=\S.*)?$`)
	rxAction      = regexp.MustCompile(`^  action: \S.*$`)
	rxUnknown     = regexp.MustCompile(`^  unknown  conf=none  reason=[a-z-]+$`)
	rxCandidate1  = regexp.MustCompile(`^  (\S+):(\d+)  conf=(high|medium|low|none)(?:  index=(?:project|app|project\+app))?(  owner=\S+)?  margin=-?\d+\.\d\d  matched=\[([^\]]*)\]$`)
	rxCandidateN  = regexp.MustCompile(`^  (\S+):(\d+)  conf=(high|medium|low|none)(?:  index=(?:project|app|project\+app))?$`)
	rxNote        = regexp.MustCompile(`^  note: \S.*$`)
	rxTargetConf  = regexp.MustCompile(`^  targetConfidence=(high|medium|low|unknown)$`)
	rxTargetAct   = regexp.MustCompile(`^  targetAction=(inspect-source-first|inspect-and-corroborate|treat-source-paths-as-hints|verify-manually)$`)
	rxWarning     = regexp.MustCompile(`^  warning: \S.*$`)
	rxVerify      = regexp.MustCompile(`^  verify: (source-first|corroborate|hint-only|manual)  because=[a-z-]+(,[a-z-]+)*$`)
	rxVBE         = regexp.MustCompile(`^  verifyBeforeEdit: ((claim-feedback|inspect-source|compare-screenshot|check-target-summary|review-edit-surface|verify-manually|check-network|check-logcat|check-frame-summary|check-memory-summary)(,|$))+`)
	rxEvidence    = regexp.MustCompile(`^    - \S+ -> \S.*$`)
	rxSummary     = regexp.MustCompile(`^      summary: \S.*$`)
	rxNetwork     = regexp.MustCompile(`^  network: calls=\d+(  failed=\[[^\[\]]+\])?(  slow=\[[^\[\]]+\])?$`)
	rxSessionID   = regexp.MustCompile(`^session_id: .*$`)
	rxAttempted   = regexp.MustCompile(`^  attempted=(true|false)$`)
	rxStatus      = regexp.MustCompile(`^  status=(complete|partial|failed|unsupported|skipped)$`)
	rxFailure     = regexp.MustCompile(`^  failure=\S+$`)
	rxReason      = regexp.MustCompile(`^  reason=(manual|off|skipped)$`)
	rxAttemptWarn = regexp.MustCompile(`^  warning=\S+$`)
	reasonTokens  = map[string]bool{"text": true, "contentDescription": true, "tag": true, "compTag": true, "role": true,
		"resolvedStringRes": true, "nearbyText": true, "nearbyContentDescription": true, "nearbyTag": true,
		"nearbyRole": true, "activity": true, "stringRes": true, "literal": true, "legacy": true}
)

// parsedItem is what the checker learned about one item block.
type parsedItem struct {
	header, verify string
	overlap        bool
	inGroup        bool
	candidates     int
}

type grammar struct {
	lines []string
	i     int
	items []parsedItem
	root  string
}

func (g *grammar) peek() (string, bool) {
	if g.i >= len(g.lines) {
		return "", false
	}
	return g.lines[g.i], true
}

func (g *grammar) accept(rx *regexp.Regexp) bool {
	if l, ok := g.peek(); ok && rx.MatchString(l) {
		g.i++
		return true
	}
	return false
}

func (g *grammar) exact(s string) error {
	if l, ok := g.peek(); !ok || l != s {
		return g.fail(fmt.Sprintf("want %q", s))
	}
	g.i++
	return nil
}

func (g *grammar) expect(rx *regexp.Regexp, what string) error {
	if !g.accept(rx) {
		return g.fail("want " + what)
	}
	return nil
}

func (g *grammar) fail(want string) error {
	l, ok := g.peek()
	if !ok {
		return fmt.Errorf("line %d: end of prompt, %s", g.i+1, want)
	}
	return fmt.Errorf("line %d %q: %s", g.i+1, l, want)
}

// checkPrompt validates a rendered prompt against the v2 grammar.
func checkPrompt(text string) ([]parsedItem, error) {
	if !strings.HasSuffix(text, "\n") {
		return nil, fmt.Errorf("prompt does not end with a newline")
	}
	g := &grammar{lines: strings.Split(strings.TrimSuffix(text, "\n"), "\n")}
	for _, s := range []string{Header, "", RuleLine, ""} {
		if err := g.exact(s); err != nil {
			return nil, err
		}
	}
	if err := g.expect(rxPackage, "package line"); err != nil {
		return nil, err
	}
	g.accept(rxAppBuild)
	if l, ok := g.peek(); ok && rxSourceRoot.MatchString(l) {
		g.root = rxSourceRoot.FindStringSubmatch(l)[1]
		if len(g.root) < 10 {
			return nil, g.fail("source root shorter than 10 characters")
		}
		g.i++
	}
	g.accept(rxQuality)
	if err := g.exact(""); err != nil {
		return nil, err
	}
	screens := 0
	for {
		l, _ := g.peek()
		if !rxScreen.MatchString(l) {
			break
		}
		if err := g.screen(); err != nil {
			return nil, err
		}
		screens++
	}
	if screens == 0 {
		return nil, g.fail("want at least one screen block")
	}
	for _, s := range footer {
		if err := g.exact(s); err != nil {
			return nil, err
		}
	}
	if err := g.expect(rxSessionID, "session_id line"); err != nil {
		return nil, err
	}
	if _, ok := g.peek(); ok {
		if err := g.attempt(); err != nil {
			return nil, err
		}
	}
	if _, ok := g.peek(); ok {
		return nil, g.fail("want end of prompt")
	}
	return g.items, nil
}

func (g *grammar) screen() error {
	l, _ := g.peek()
	name := rxScreen.FindStringSubmatch(l)[2]
	g.i++
	g.accept(rxScreenshot)
	g.accept(rxViewport)
	g.accept(rxOrientation)
	g.accept(rxPhone)
	if l, ok := g.peek(); ok && rxActivity.MatchString(l) {
		if rxActivity.FindStringSubmatch(l)[1] == name {
			return g.fail("activity line equal to the display name")
		}
		g.i++
	}
	g.accept(rxWindow)
	g.accept(rxKeyboard)
	g.accept(rxDisplay)
	if err := g.exact(""); err != nil {
		return err
	}
	blocks := 0
	for {
		l, _ := g.peek()
		switch {
		case rxOverlap.MatchString(l):
			g.i++
			// Every member carries targetRisk=overlap; the first item without
			// it is a lone item after the group.
			members := 0
			for {
				next, _ := g.peek()
				if !rxItemHeader.MatchString(next) {
					break
				}
				if err := g.item(true); err != nil {
					return err
				}
				last := &g.items[len(g.items)-1]
				if !last.overlap {
					last.inGroup = false
					break
				}
				members++
			}
			if members < 2 {
				return g.fail("overlap group with fewer than two members")
			}
		case rxItemHeader.MatchString(l):
			if err := g.item(false); err != nil {
				return err
			}
		default:
			if blocks == 0 {
				return g.fail("want an item block or overlap group")
			}
			return nil
		}
		blocks++
	}
}

func (g *grammar) item(inGroup bool) error {
	it := parsedItem{header: g.lines[g.i], inGroup: inGroup}
	g.i++
	if err := g.expect(rxID, "id line"); err != nil {
		return err
	}
	if err := g.expect(rxTarget, "target summary line"); err != nil {
		return err
	}
	l, _ := g.peek()
	if err := g.expect(rxTargetLine, "target line"); err != nil {
		return err
	}
	it.overlap = strings.Contains(l, "; targetRisk=overlap")
	g.accept(rxCheck)
	g.accept(rxSaid)
	g.accept(rxCrop)
	if g.accept(rxClip) {
		if err := g.expect(rxFrames, "frames line after the clip line"); err != nil {
			return err
		}
	}
	g.accept(rxSizes)
	for n := 0; n < 2 && g.accept(rxEditSurface); n++ {
		g.accept(rxAction)
	}
	if !g.accept(rxUnknown) {
		l, _ := g.peek()
		m := rxCandidate1.FindStringSubmatch(l)
		if m == nil {
			return g.fail("want a rank-1 candidate line or the unknown line")
		}
		if err := g.matched(m[5]); err != nil {
			return err
		}
		if g.root != "" && strings.HasPrefix(m[1], g.root) {
			return g.fail("candidate path keeps the source root prefix")
		}
		g.i++
		it.candidates = 1
		for it.candidates < 3 && g.accept(rxCandidateN) {
			it.candidates++
		}
	}
	g.accept(rxNote)
	if g.accept(rxTargetConf) {
		g.accept(rxTargetAct)
	} else if l, _ := g.peek(); rxTargetAct.MatchString(l) {
		g.i++
	}
	for g.accept(rxWarning) {
	}
	l, _ = g.peek()
	if err := g.expect(rxVerify, "verify line"); err != nil {
		return err
	}
	it.verify = strings.Fields(l)[1]
	if err := g.expect(rxVBE, "verifyBeforeEdit line"); err != nil {
		return err
	}
	if g.accept(regexp.MustCompile(`^  runtimeEvidence:$`)) {
		n := 0
		for ; n < 3 && g.accept(rxEvidence); n++ {
			if err := g.expect(rxSummary, "runtime evidence summary"); err != nil {
				return err
			}
		}
		if n == 0 {
			return g.fail("want at least one runtime evidence line")
		}
	}
	g.accept(rxNetwork)
	g.items = append(g.items, it)
	return g.exact("")
}

func (g *grammar) matched(list string) error {
	if list == "" {
		return g.fail("rank-1 candidate with no matched tokens")
	}
	ts := strings.Split(list, ", ")
	if len(ts) > 4 {
		return g.fail("more than 4 matched tokens")
	}
	for _, t := range ts {
		if !reasonTokens[t] {
			return g.fail(fmt.Sprintf("unknown reason token %q", t))
		}
	}
	return nil
}

func (g *grammar) attempt() error {
	for _, s := range []string{"", "runtimeEvidenceAttempt:"} {
		if err := g.exact(s); err != nil {
			return err
		}
	}
	if err := g.expect(rxAttempted, "attempted="); err != nil {
		return err
	}
	if err := g.expect(rxStatus, "status="); err != nil {
		return err
	}
	g.accept(rxFailure)
	g.accept(rxReason)
	for n := 0; n < 8 && g.accept(rxAttemptWarn); n++ {
	}
	return nil
}
