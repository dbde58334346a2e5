package delivery

import (
	"path"
	"regexp"
	"strconv"
	"strings"
)

var nonAlnumRun = regexp.MustCompile(`[^a-z0-9]+`)

// Kebab is kebab(lane) of corpus §1.4: lower-cased, runs of characters outside [a-z0-9]
// become one "-", trimmed, "lane" when nothing is left.
func Kebab(lane string) string {
	k := strings.Trim(nonAlnumRun.ReplaceAllString(strings.ToLower(lane), "-"), "-")
	if k == "" {
		return "lane"
	}
	return k
}

// WorktreePath is <worktrees without trailing />/<kebab(lane)>-wu-<n>.
func WorktreePath(worktreesDir, lane, id string) string {
	return path.Join(cleanDir(worktreesDir), Kebab(lane)+"-"+strings.ToLower(id))
}

// LaneBranch is <prefix><kebab(lane)>/wu-<n>.
func LaneBranch(prefix, lane, id string) string {
	return prefix + Kebab(lane) + "/" + strings.ToLower(id)
}

// LockRel is the root-relative lock file of a lane.
func LockRel(lane string) string { return LocksDir + "/" + Kebab(lane) + ".lock" }

// ParseLaneBranch parses <prefix><kebab>/wu-<n> and returns the kebab and WU-<n>.
func ParseLaneBranch(prefix, branch string) (kebab, wuID string, ok bool) {
	rest, ok := strings.CutPrefix(branch, prefix)
	if !ok {
		return "", "", false
	}
	k, wu, ok := strings.Cut(rest, "/")
	if !ok || k == "" || k != Kebab(k) {
		return "", "", false
	}
	num, ok := strings.CutPrefix(wu, "wu-")
	if !ok || num == "" {
		return "", "", false
	}
	if _, err := strconv.ParseUint(num, 10, 63); err != nil || strings.TrimLeft(num, "0123456789") != "" {
		return "", "", false
	}
	return k, "WU-" + num, true
}

// Title60 is <title60> of corpus §2.4: the title when at most 60 runes, else its first 57
// runes followed by "...".
func Title60(title string) string { return CutRunes(title, 60) }

// CutRunes returns s when it has at most n runes, else its first n-3 runes and "...".
func CutRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-3]) + "..."
}

// IsSubLane reports whether sub is a sub-lane of parent: its name is the parent's name
// followed by more words (`Framework: Core` → `Framework: Core Lifecycle`). A sub-lane
// owns part of its parent's code on purpose, so lane:health does not count the files
// they share as a conflict (docs/real-data.md).
func IsSubLane(parent, sub string) bool {
	if parent == "" || len(sub) <= len(parent)+1 || !strings.HasPrefix(sub, parent) {
		return false
	}
	switch sub[len(parent)] {
	case ' ', ':', '/', '-':
		return strings.TrimLeft(sub[len(parent):], " :/-") != ""
	}
	return false
}
