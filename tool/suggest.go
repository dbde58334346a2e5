package tool

import "strings"

// Suggest returns the candidate closest to name by edit distance — the "did you mean"
// of an unknown tool, command or property — or "" when none is close: a candidate
// qualifies within len(name)/3+1 edits, and with fewer edits than name has letters (so
// "x" suggests nothing). Case is ignored, and ':', '_' and '-' count as
// the same character, so "wu_stauts" finds "wu:status". Ties go to the earlier
// candidate.
func Suggest(name string, candidates []string) string {
	best, bestDist := "", min(len(name)/3+2, len(name))
	low := strings.ToLower(name)
	for _, c := range candidates {
		if d := editDistance(low, strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// DidYouMean is Suggest as a message suffix: ` (did you mean "x"?)`, or "".
func DidYouMean(name string, candidates []string) string {
	if s := Suggest(name, candidates); s != "" && s != name {
		return ` (did you mean "` + s + `"?)`
	}
	return ""
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] || (isNameSep(a[i-1]) && isNameSep(b[j-1])) {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func isNameSep(c byte) bool { return c == ':' || c == '_' || c == '-' }
