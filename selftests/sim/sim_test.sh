#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hcube-sim run and experiment on a reduced grid (n = 4, 5; faults
# 0 .. n + 3; 8 runs per point). Asserts properties, not numbers:
# - every run passes the simulator's own checks: speedup <= ideal, MCWA's
#   (and CWA's, MCWA-opt's) final max - min <= 1 over the attached nodes
#   after each round, task conservation in each round and over the run, no
#   plan below the optimal migration cost, the no-balancing makespan equal
#   to the largest queue's total time;
# - the same from the CSV, independently: speedup <= ideal in every row,
#   task-hops >= the optimum, MCWA-opt at the optimum, CWA only without
#   faults, the 95% intervals recomputed with Student's t;
# - the files are byte-identical with 1 or 2 worker processes, and with the
#   ASan/UBSan build; 'run' reproduces the experiment's rows;
# - the CLI's errors: exit status 2 and one line on stderr.
#
# usage: sim_test.sh HCUBE_SIM [HCUBE_SIM_SANITIZED]
set -u
SIM=${1:-build/hcube-sim}
SAN=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0

ok() {
	n=$((n + 1))
	echo "ok $n $1"
}

not_ok() {
	n=$((n + 1))
	fails=$((fails + 1))
	echo "not ok $n $1"
}

check() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

# expect_error NAME PATTERN ARGS...: exit 2, one stderr line matching PATTERN
expect_error() {
	local name=$1 pat=$2 rc lines
	shift 2
	"$SIM" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -qE -- "$pat" "$tmp/err" &&
	   [ ! -s "$tmp/out" ]; then
		ok "error: $name"
	else
		not_ok "error: $name (rc $rc, $lines stderr lines: $(head -c 200 "$tmp/err"))"
	fi
}

echo "TAP version 13"
GRID="--dims 4,5 --runs 8 --seed 7"

# The reduced grid, with 2 workers and with 1: identical files.
t0=$(date +%s.%N)
"$SIM" experiment $GRID --jobs 2 --out "$tmp/a" --quiet
rc=$?
t1=$(date +%s.%N)
check "experiment: reduced grid passes every property check (exit $rc)" [ "$rc" -eq 0 ]
"$SIM" experiment $GRID --jobs 1 --out "$tmp/b" --quiet
check "experiment: 1 worker, exit 0" [ $? -eq 0 ]
same=1
for f in "$tmp"/a/*; do
	cmp -s "$f" "$tmp/b/$(basename "$f")" || same=0
done
[ "$(ls "$tmp/a" | wc -l)" -eq 7 ] || same=0
check "experiment: byte-identical files with 1 and 2 workers" [ "$same" -eq 1 ]

if [ -n "$SAN" ]; then
	"$SAN" experiment --dims 4,5 --runs 3 --seed 7 --jobs 2 --out "$tmp/s" --quiet
	rc=$?
	"$SIM" experiment --dims 4,5 --runs 3 --seed 7 --jobs 2 --out "$tmp/p" --quiet
	check "experiment (asan+ubsan): exit 0 (exit $rc)" [ "$rc" -eq 0 ]
	check "experiment (asan+ubsan): same runs.csv as the plain build" \
		cmp -s "$tmp/s/runs.csv" "$tmp/p/runs.csv"
fi

# The CSV, independently of the simulator's own checks.
if python3 - "$tmp/a" <<'PY'
import csv, math, sys
d = sys.argv[1]
runs = list(csv.DictReader(open(f"{d}/runs.csv")))
summ = list(csv.DictReader(open(f"{d}/summary.csv")))
pols = {"none", "mcwa", "dem", "rid", "mcwa-opt", "cwa"}
points = [(4, f) for f in range(8)] + [(5, f) for f in range(9)]
# one row per run and policy; CWA only on fault-free cubes
assert len(runs) == 8 * sum(5 + (f == 0) for _, f in points), len(runs)
for r in runs:
    assert r["policy"] in pols, r
    assert r["bad"] == "0", r
    sp, ideal = float(r["speedup"]), float(r["ideal"])
    assert sp <= ideal * (1 + 1e-9), ("speedup above the ideal", r)
    assert int(r["healthy"]) == 2 ** int(r["dim"]) - int(r["faults"]), r
    hops, opt = float(r["hops_per_node"]), float(r["opt_hops_per_node"])
    if r["policy"] in ("mcwa", "dem", "cwa"):
        assert hops >= opt - 1e-9, ("below the optimum", r)
    if r["policy"] == "mcwa-opt":
        assert abs(hops - opt) < 1e-9, r
    if r["policy"] == "cwa":
        assert r["faults"] == "0", r
    if r["policy"] == "none":
        assert abs(sp - 1) < 1e-12 and r["rounds"] == "0", r
    else:
        assert sp > 1, ("balancing slower than none", r)
# the 95% intervals: Student t with 7 degrees of freedom
t7 = 2.364624251592785
for s in summ:
    xs = [float(r["speedup"]) for r in runs
          if (r["dim"], r["faults"], r["policy"]) == (s["dim"], s["faults"], s["policy"])]
    assert len(xs) == 8 == int(s["runs"]), s
    m = sum(xs) / 8
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / 7)
    assert abs(m - float(s["speedup_mean"])) < 1e-4, s
    assert abs(t7 * sd / math.sqrt(8) - float(s["speedup_ci95"])) < 1e-4, s
    assert s["bad_runs"] == "0", s
PY
then ok "experiment: CSV properties (speedup <= ideal, hops >= optimum, t intervals)"
else not_ok "experiment: CSV properties"
fi

# 'run' reproduces the experiment's rows for the same seed and run index.
"$SIM" run --dim 5 --faults 3 --seed 7 --run 2 --runs 3 --csv >"$tmp/run.csv"
check "run: exit 0 on the grid's instances" [ $? -eq 0 ]
grep '^7,5,3,[234],' "$tmp/a/runs.csv" >"$tmp/grid-rows"
check "run --csv: the experiment's rows for runs 2..4" \
	cmp -s <(tail -n +2 "$tmp/run.csv") "$tmp/grid-rows"

# The text and JSON reports.
if "$SIM" run --dim 5 --faults 2 >"$tmp/text" &&
   grep -q "^run 0 of seed 20240501: 5-cube, 2 faulty" "$tmp/text" &&
   grep -q "ideal speedup" "$tmp/text" &&
   [ "$(grep -cE '^  (none|mcwa|dem|rid|mcwa-opt) ' "$tmp/text")" -eq 5 ] &&
   ! grep -q "FAILED" "$tmp/text"; then
	ok "run: text report"
else
	not_ok "run: text report"
fi
if "$SIM" run --dim 4 --faults 0 --runs 2 --json >"$tmp/json" && python3 - "$tmp/json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))
assert len(runs) == 2
for r in runs:
    assert r["dim"] == 4 and r["faulty"] == [] and r["healthy"] == 16
    assert set(r["policies"]) == {"none", "mcwa", "dem", "rid", "cwa", "mcwa-opt"}
    for name, p in r["policies"].items():
        assert p["check"] == "ok", (name, p)
        assert p["speedup"] <= r["ideal_speedup"] * (1 + 1e-9)
    # CWA is MCWA's engine on a fault-free cube: the same run
    assert r["policies"]["cwa"] == r["policies"]["mcwa"]
PY
then ok "run: JSON report, CWA equals MCWA without faults"
else not_ok "run: JSON report"
fi

# Corner cases: a healthy node cut off from the rest, the nearest-node
# redistribution, the global round cost, a threshold of 1, few tasks.
quiet() {
	"$@" >/dev/null
}
check "run: an isolated healthy node (3-cube, 1 2 4 faulty)" \
	quiet "$SIM" run --dim 3 --faulty 1,2,4 --runs 3 --csv
check "run: 4-cube cut in two (0011 0101 0110 1001 1010 1100 faulty)" \
	quiet "$SIM" run --dim 4 --faulty 3,5,6,9,10,12 --runs 3 --csv
check "run: --redistribute nearest" \
	quiet "$SIM" run --dim 5 --faults 6 --runs 3 --redistribute nearest --csv
check "run: --round-cost global" \
	quiet "$SIM" run --dim 5 --faults 3 --runs 3 --round-cost global --csv
check "run: --threshold 1 --tasks 3" \
	quiet "$SIM" run --dim 6 --faults 5 --runs 3 --threshold 1 --tasks 3 --csv
check "run: a 1-cube, no costs" \
	quiet "$SIM" run --dim 1 --runs 3 --mig-cost 0 --msg-cost 0 --csv
check "run: a 10-cube" quiet "$SIM" run --dim 10 --faults 13 --tasks 10 --csv

expect_error "run without --dim" "--dim is required" run --faults 1
expect_error "run: 0-cube" "at least a 1-cube" run --dim 0
expect_error "run: all nodes faulty" "leave no healthy node" run --dim 2 --faults 4
expect_error "run: faulty listed twice" "vertex 3 listed twice" run --dim 2 --faulty 3,3
expect_error "run: faulty out of range" "--faulty: 4 is out of range" run --dim 2 --faulty 4
expect_error "run: --faults with --faulty" "exclude each other" \
	run --dim 3 --faults 1 --faulty 2
expect_error "run: unknown policy" "unknown policy 'sid'" run --dim 3 --policy mcwa,sid
expect_error "run: threshold out of range" "--threshold: 2 is out of range" \
	run --dim 3 --threshold 2
expect_error "run: threshold not a number" "--threshold: 'x' is not a number" \
	run --dim 3 --threshold x
expect_error "run: bad round cost" "--round-cost: 'some' is not nodes or global" \
	run --dim 3 --round-cost some
expect_error "run: bad redistribution" "is not even or nearest" \
	run --dim 3 --redistribute far
expect_error "run: --csv with --json" "exclude each other" run --dim 3 --csv --json
expect_error "run: unknown option" "unknown or incomplete option" run --dim 3 --bogus
expect_error "experiment: 1 run" "at least 2" experiment --runs 1
expect_error "experiment: too many faults" "a 2-cube cannot have 5 faulty nodes" \
	experiment --dims 2 --extra-faults 3
expect_error "experiment: bad dims" "--dims: 11 is out of range" experiment --dims 5,11
expect_error "experiment: unexpected argument" "unexpected argument" experiment now

dt=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
echo "# reduced grid (136 runs x 5-6 policies) in ${dt}s with 2 workers"
echo "1..$n"
[ "$fails" -eq 0 ]
