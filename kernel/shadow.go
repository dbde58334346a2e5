package kernel

import "github.com/cmdbridge/cmdbridge/kernel/shadow"

// ShadowStat counts the shadow comparisons of one tool since the kernel started
// (shadow.Stat).
type ShadowStat = shadow.Stat

// ShadowStats returns the shadow metric per tool: how many shadow-routed calls ran and
// how many disagreed. Tools never shadowed are absent.
func (k *Kernel) ShadowStats() map[string]ShadowStat { return k.shadows.Stats() }
