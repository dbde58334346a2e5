package tool

import (
	"slices"
	"strings"
)

// ruleWords states rules in as few words as says the same thing, for a description.
// The rules stay as declared (the kernel's refusal names the one rule a call broke);
// only their sentence in the description is merged:
//
//   - pairwise exclusions that form a clique, "a and b cannot be given together; a and
//     c …; b and c …", become "at most one of a, b, c may be given", and with a rule
//     "one of a, b, c is required" over the same properties, "exactly one of a, b, c is
//     required";
//   - the other exclusions of one property become "a cannot be given with b, c or d";
//   - "must be given together" rules sharing a property become one (given together is
//     an equivalence: a with b and a with c means b with c).
//
// Each merged sentence takes the place of the first rule it covers.
func ruleWords(rules []Rule) []string {
	kinds := make([]ConstraintKind, len(rules))
	adj := map[string][]string{}
	for i, r := range rules {
		kinds[i] = wordedAs(r)
		if kinds[i] == Exclusive {
			a, b := r.Properties[0], r.Properties[1]
			adj[a] = append(adj[a], b)
			adj[b] = append(adj[b], a)
		}
	}
	excludes := func(a, b string) bool { return slices.Contains(adj[a], b) }

	words := make([]string, len(rules))
	covered := map[[2]string]bool{} // exclusive pairs already in a sentence
	merged := map[int]bool{}        // rules another sentence states
	pair := func(a, b string) [2]string {
		if a > b {
			a, b = b, a
		}
		return [2]string{a, b}
	}
	anyOfFor := func(set []string) int {
		for j, r := range rules {
			if kinds[j] == AnyOf && !merged[j] && sameSet(r.Properties, set) {
				return j
			}
		}
		return -1
	}
	for i, r := range rules {
		switch kinds[i] {
		case Exclusive:
			a, b := r.Properties[0], r.Properties[1]
			if covered[pair(a, b)] {
				merged[i] = true
				continue
			}
			// Grow the pair into a clique of exclusions no sentence covers yet.
			set := []string{a, b}
			for _, r2 := range rules {
				for _, v := range r2.Properties {
					if slices.Contains(set, v) {
						continue
					}
					if !slices.ContainsFunc(set, func(u string) bool { return !excludes(u, v) || covered[pair(u, v)] }) {
						set = append(set, v)
					}
				}
			}
			if len(set) == 2 {
				// A star: the other exclusions of a (or, failing that, of b).
				centre, others := a, []string{b}
				for _, c := range []string{a, b} {
					var o []string
					for _, v := range adj[c] {
						if !covered[pair(c, v)] {
							o = append(o, v)
						}
					}
					if len(o) > len(others) {
						centre, others = c, o
					}
				}
				if len(others) > 1 {
					for _, v := range others {
						covered[pair(centre, v)] = true
					}
					words[i] = centre + " cannot be given with " + orList(others)
					continue
				}
			}
			for x := range set {
				for y := x + 1; y < len(set); y++ {
					covered[pair(set[x], set[y])] = true
				}
			}
			if j := anyOfFor(set); j >= 0 {
				// The sentence goes where the first of the two rules was.
				at, gone := min(i, j), max(i, j)
				merged[gone] = true
				words[at] = "exactly one of " + strings.Join(set, ", ") + " is required"
			} else if len(set) > 2 {
				words[i] = "at most one of " + strings.Join(set, ", ") + " may be given"
			} else {
				words[i] = r.Message
			}
		case Together:
			if merged[i] {
				continue
			}
			set := slices.Clone(r.Properties)
			for grown := true; grown; {
				grown = false
				for j := i + 1; j < len(rules); j++ {
					if kinds[j] == Together && !merged[j] && slices.ContainsFunc(rules[j].Properties, func(p string) bool { return slices.Contains(set, p) }) {
						for _, p := range rules[j].Properties {
							if !slices.Contains(set, p) {
								set = append(set, p)
							}
						}
						merged[j], grown = true, true
					}
				}
			}
			words[i] = Constraint{Kind: Together, Properties: set}.Message()
		default:
			words[i] = r.Message
		}
	}
	out := make([]string, 0, len(rules))
	for i, w := range words {
		if !merged[i] && w != "" {
			out = append(out, w)
		}
	}
	return out
}

// wordedAs is the kind of constraint whose [Constraint.Message] r's words are, for the
// kinds ruleWords merges (Exclusive only for a pair); "" for any other rule.
func wordedAs(r Rule) ConstraintKind {
	for _, k := range []ConstraintKind{Exclusive, AnyOf, Together} {
		if k == Exclusive && len(r.Properties) != 2 {
			continue
		}
		if len(r.Properties) > 1 && r.Message == (Constraint{Kind: k, Properties: r.Properties}).Message() {
			return k
		}
	}
	return ""
}

func sameSet(a, b []string) bool {
	return len(a) == len(b) && !slices.ContainsFunc(a, func(p string) bool { return !slices.Contains(b, p) })
}

func orList(p []string) string {
	if len(p) <= 2 {
		return strings.Join(p, " or ")
	}
	return strings.Join(p[:len(p)-1], ", ") + " or " + p[len(p)-1]
}
