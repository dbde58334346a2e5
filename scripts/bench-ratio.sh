#!/usr/bin/env bash
# bench-ratio.sh [FILE] — from `go test -bench` output (default bench.txt), the
# BenchmarkRealData table: per read tool, the mean ns/op, B/op and allocs/op of the
# native lane through the warm index and of the adapter lane, and adapter ÷ native,
# both measured in the same run.
set -euo pipefail
file=${1:-bench.txt}
awk '
/^BenchmarkRealData\// {
	name = $1; sub(/^BenchmarkRealData\//, "", name); sub(/-[0-9]+$/, "", name)
	lane = name; sub(/.*\//, "", lane); tool = name; sub(/\/[^\/]*$/, "", tool)
	for (i = 3; i < NF; i++) {
		if ($(i+1) == "ns/op") ns[tool, lane] += $i
		if ($(i+1) == "B/op") by[tool, lane] += $i
		if ($(i+1) == "allocs/op") al[tool, lane] += $i
	}
	n[tool, lane]++
	if (!(tool in seen)) { seen[tool] = 1; order[++count] = tool }
}
END {
	if (count == 0) { print "bench-ratio: no BenchmarkRealData results" > "/dev/stderr"; exit 1 }
	printf "%-26s %14s %12s %10s %14s %9s\n", "tool (1x, 1,265 WUs)", "native-warm", "allocs", "B/op", "adapter", "ratio"
	for (k = 1; k <= count; k++) {
		t = order[k]; w = t SUBSEP "native-warm"; a = t SUBSEP "adapter"
		if (!n[w] || !n[a]) continue
		nw = ns[w] / n[w]; ad = ns[a] / n[a]
		printf "%-26s %11.3f ms %12d %10d %11.3f ms %8.0fx\n", t, nw / 1e6, al[w] / n[w], by[w] / n[w], ad / 1e6, ad / nw
	}
}' "$file"
