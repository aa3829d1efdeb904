#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# hcube-sim plan from the command line: the examples of Nam et al. (1999)
# through the JSON output (parsed back), and every kind of bad input: exit
# status 2 with exactly one line on stderr.
set -u
SIM=${1:-build/hcube-sim}
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
tap_tmpdir

# expect_error NAME PATTERN ARGS...: hcube-sim ARGS exits 2 with one
# stderr line matching PATTERN
expect_error() {
	tap_usage_error "$1" "$2" "$SIM" "${@:3}"
}

echo "TAP version 13"

# Example 2 of the paper (loads consistent with its subtree loads).
EX2="--dim 4 --loads 6,2,4,20,4,0,0,10,0,10,0,5,15,12,14,18 --faulty 5,6,8,10"
# shellcheck disable=SC2086
if "$SIM" plan $EX2 --json >"$tmp/ex2.json" && python3 - "$tmp/ex2.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
for key in ("policy", "dim", "faulty", "balancing_subcube", "tree_depth", "parent",
            "loads_before", "loads_after", "transfers", "migrations",
            "moved_tasks", "comm_steps"):
    assert key in p, key
assert p["policy"] == "mcwa" and p["dim"] == 4
assert sorted(p["faulty"]) == [0b0101, 0b0110, 0b1000, 0b1010]
assert p["balancing_subcube"] == "X0X1", p["balancing_subcube"]
assert p["tree_depth"] == 2
par = p["parent"]
for child, parent in (("1111", "1011"), ("1110", "1111"), ("1101", "1001"),
                      ("1100", "1101"), ("0000", "0001"), ("0100", "0000"),
                      ("0010", "0011"), ("0111", "0011")):
    assert par[int(child, 2)] == int(parent, 2), child
assert par[0b0001] == -1 and par[0b0101] == -1
healthy = [v for v in range(16) if v not in p["faulty"]]
assert all(p["loads_after"][v] == 10 for v in healthy)
x = [(t["step"], t["from"], t["to"], t["count"]) for t in p["transfers"]]
# Table 5 (dimension 3) and Table 6 (dimension 1)
assert (3, 0b1001, 0b0001, 7) in x and (3, 0b1011, 0b0011, 7) in x, x
assert (4, 0b0011, 0b0001, 11) in x, x
assert p["comm_steps"] == 3 * 4 + 2
assert p["migrations"] == sum(t[3] for t in x)
PY
then ok "plan: Example 2 JSON"; else not_ok "plan: Example 2 JSON"; fi

# Example 1 with CWA, text report.
if "$SIM" plan --dim 3 --loads 19,11,2,9,0,9,10,4 --policy cwa >"$tmp/ex1.txt" &&
   grep -q "balancing subcube XXX" "$tmp/ex1.txt" &&
   grep -q "step 1: 000->100 6 001->101 3" "$tmp/ex1.txt" &&
   grep -q "step 3: 011->010 1 101->100 2 110->111 2" "$tmp/ex1.txt" &&
   [ "$(grep -cE -- "^  [01]{3}: [0-9]+ -> 8$" "$tmp/ex1.txt")" -eq 8 ]; then
	ok "plan: Example 1 text report"
else
	not_ok "plan: Example 1 text report"
fi

# DEM: 14 tasks move in dimension 0 (Section 3.2).
if "$SIM" plan --dim 3 --loads 19,11,2,9,0,9,10,4 --policy dem --json >"$tmp/dem.json" &&
   python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
assert p["balancing_subcube"] is None
assert sum(t["count"] for t in p["transfers"] if t["step"] == 1) == 14
assert sum(p["loads_after"]) == 64' "$tmp/dem.json"; then
	ok "plan: DEM dimension-0 count"
else
	not_ok "plan: DEM dimension-0 count"
fi

# Every core policy by name: the JSON carries the new statistics and auto's
# choice; optimal takes no more task-hops than any policy that reaches
# balance (imbalance 0) on the same loads, and auto no more than MCWA/DEM.
if python3 - "$SIM" <<'PY'
import json, random, subprocess, sys
sim = sys.argv[1]
pols = ["mcwa", "dem", "cwa", "optimal", "auto", "rid", "sid", "sbn",
        "sbn-cube", "sbn-heur", "pebble"]
rng = random.Random(11)
cases = 0
for trial in range(40):
    dim = rng.randint(1, 5)
    n = 1 << dim
    faulty = sorted(rng.sample(range(n), rng.randint(0, n // 3))) if trial % 2 else []
    loads = [0 if v in faulty else rng.randint(0, 40) for v in range(n)]
    res = {}
    for pol in pols:
        if pol == "cwa" and faulty:
            continue
        args = [sim, "plan", "--dim", str(dim), "--loads", ",".join(map(str, loads)),
                "--policy", pol, "--json"]
        if faulty:
            args += ["--faulty", ",".join(map(str, faulty))]
        r = subprocess.run(args, capture_output=True, text=True)
        assert r.returncode == 0, (pol, args, r.stderr)
        p = json.loads(r.stdout)
        for key in ("applied", "root", "budget", "work_done", "messages",
                    "job_messages", "contended", "imbalance"):
            assert key in p, (pol, key)
        assert p["policy"] == pol, p["policy"]
        assert sum(p["loads_after"]) == sum(loads), pol
        assert p["migrations"] == sum(t["count"] for t in p["transfers"]), pol
        if pol == "auto":
            assert p["applied"] in ("dem", "mcwa", "optimal"), p["applied"]
            assert p["budget"] == 4000000
        else:
            assert p["applied"] == pol, (pol, p["applied"])
        if pol in ("sbn", "sbn-cube", "sbn-heur") and any(loads):
            assert p["root"] is not None and p["root"] not in faulty, (pol, p["root"])
        res[pol] = p
    opt = res["optimal"]
    assert opt["imbalance"] == 0, opt
    for pol, p in res.items():
        if p["imbalance"] == 0:
            assert opt["migrations"] <= p["migrations"], (pol, loads, faulty)
            cases += 1
    for pol in ("mcwa", "optimal"):
        assert res[pol]["imbalance"] == 0, (pol, loads, faulty)
    for pol in ("mcwa", "dem"):
        a, b = res["auto"], res[pol]
        assert (a["imbalance"], a["migrations"]) <= (b["imbalance"], b["migrations"]), (pol, loads)
print(f"# {cases} balanced plans compared with optimal", file=sys.stderr)
PY
then ok "plan: every policy by name; optimal <= every balanced plan's task-hops"
else not_ok "plan: every policy by name; optimal <= every balanced plan's task-hops"
fi

# auto with a budget of 1 work unit cannot afford optimal: MCWA or DEM.
if "$SIM" plan --dim 4 --loads 9,0,0,0,0,0,0,0,0,0,0,0,0,0,0,7 --policy auto --budget 1 \
	--json >"$tmp/auto.json" &&
   python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
assert p["applied"] in ("mcwa", "dem") and p["budget"] == 1, p["applied"]' "$tmp/auto.json" &&
   "$SIM" plan --dim 2 --loads 4,0,0,0 --policy sbn | grep -qE "^root [01]{2}$" &&
   "$SIM" plan --dim 2 --loads 4,0,0,0 --policy auto | grep -q "^auto applied "; then
	ok "plan: auto's budget, text report names the root and auto's choice"
else
	not_ok "plan: auto's budget, text report names the root and auto's choice"
fi

expect_error "faulty vertex with load" "vertex 5 has load 3" \
	plan --dim 3 --loads 1,1,1,1,1,3,1,1 --faulty 5
expect_error "too few loads" "7 values given, a 3-cube needs 8" \
	plan --dim 3 --loads 1,1,1,1,1,1,1
expect_error "too many loads" "9 values given" \
	plan --dim 3 --loads 1,1,1,1,1,1,1,1,1
expect_error "faulty id out of range" "--faulty: 8 is out of range \(0..7\)" \
	plan --dim 3 --loads 0,0,0,0,0,0,0,0 --faulty 8
expect_error "unknown policy" "unknown policy 'ridx' \(mcwa, dem, cwa, optimal, auto, rid, sid, sbn, sbn-cube, sbn-heur, pebble\)" \
	plan --dim 1 --loads 1,2 --policy ridx
expect_error "dimension out of range" "--dim: 11 is out of range \(0..10\)" \
	plan --dim 11 --loads 1
expect_error "negative load" "not a non-negative integer" \
	plan --dim 1 --loads 1,-2
expect_error "load above u32" "out of range" \
	plan --dim 1 --loads 1,4294967296
expect_error "empty item" "empty item" \
	plan --dim 1 --loads 1,,2
expect_error "missing --loads" "--loads is required" \
	plan --dim 1
expect_error "missing --dim" "--dim is required" \
	plan --loads 1,2
expect_error "unknown option" "unknown or incomplete option" \
	plan --dim 1 --loads 1,2 --bogus
expect_error "cwa on a faulty cube" "cwa needs a fault-free cube: use mcwa" \
	plan --dim 2 --loads 1,0,3,4 --faulty 1 --policy cwa
expect_error "no healthy vertex" "no healthy vertex" \
	plan --dim 1 --loads 0,0 --faulty 0,1
expect_error "total load overflow" "total load above" \
	plan --dim 1 --loads 4294967295,1
expect_error "bad budget" "--budget: 'x' is not a non-negative integer" \
	plan --dim 1 --loads 1,2 --policy auto --budget x
expect_error "unknown command" "unknown command" \
	frobnicate

# Never worse: sbn-cube's whole operation raises the maximum of 9 here
# (0,9,...,9), so the plan stops short and says so; mcwa balances and
# does not.
if "$SIM" plan --dim 3 --loads 0,9,9,9,9,9,9,9 --policy sbn-cube --json >"$tmp/short.json" &&
   "$SIM" plan --dim 3 --loads 0,9,9,9,9,9,9,9 --policy sbn-cube >"$tmp/short.txt" &&
   "$SIM" plan --dim 3 --loads 0,9,9,9,9,9,9,9 --policy mcwa --json >"$tmp/mcwa.json" &&
   python3 - "$tmp/short.json" "$tmp/mcwa.json" <<'PY' && grep -q '^stopped short:' "$tmp/short.txt"
import json, sys
p, m = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert p["stopped_short"] is True and p["after_max"] <= p["before_max"] == 9, p
assert max(p["loads_after"]) <= 9
assert m["stopped_short"] is False and m["after_max"] == 8, m
PY
then ok "plan: sbn-cube stops short of raising the maximum, and says so"
else not_ok "plan: sbn-cube stops short of raising the maximum, and says so"; fi

echo "1..$n"
[ "$fails" -eq 0 ]
