#!/usr/bin/env bash
# bench-ratio.sh [FILE] — from `go test -bench` output (default bench.txt), two tables:
# BenchmarkRealData (per read tool) and BenchmarkRealDataWriters (per writer case: one op
# is every call of the case, e.g. a writer and the writer that undoes it). Each row is the
# mean ns/op, allocs/op and B/op of the native lane through the warm index and the mean
# ns/op of the adapter lane, and adapter ÷ native, both measured in the same run.
set -euo pipefail
file=${1:-bench.txt}
table() {
	awk -v bench="$1" -v head="$2" '
	index($1, bench "/") == 1 {
		name = substr($1, length(bench) + 2); sub(/-[0-9]+$/, "", name)
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
		if (count == 0) { print "bench-ratio: no " bench " results" > "/dev/stderr"; exit 1 }
		print ""
		printf "%-30s %14s %12s %10s %14s %9s\n", head, "native-warm", "allocs", "B/op", "adapter", "ratio"
		for (k = 1; k <= count; k++) {
			t = order[k]; w = t SUBSEP "native-warm"; a = t SUBSEP "adapter"
			if (!n[w] || !n[a]) continue
			nw = ns[w] / n[w]; ad = ns[a] / n[a]
			printf "%-30s %11.3f ms %12d %10d %11.3f ms %8.1fx\n", t, nw / 1e6, al[w] / n[w], by[w] / n[w], ad / 1e6, ad / nw
		}
	}' "$file"
}
found=0
table BenchmarkRealData "tool (1x, 1,265 WUs)" && found=1
table BenchmarkRealDataWriters "writers (1x, private git copy)" && found=1
[ "$found" = 1 ]
