#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make experiment: the simulation of Nam et al. (1999), Section 6 and Figs.
# 6-9, on the hcube core. Runs the full grid (n = 5, 6, 7; faults 0 .. n +
# 3; 300 runs), the plots, and the sensitivity runs on the 7-cube
# (threshold, round cost, redistribution, costs), then copies the summary
# tables and the plots to the documentation directory. The core's further
# policies (optimal, auto, sid, sbn, sbn-cube, sbn-heur, pebble) run beside
# MCWA and DEM on the same grid with CORE_RUNS runs per point (100: they
# take about 3 times as long as the paper's policies) into
# OUT_DIR/core-policies. The static comparison (static.sh: the core's plans
# on random loads, no simulation) goes to OUT_DIR/static.md.
#
# usage: experiment.sh [HCUBE_SIM [OUT_DIR [DOC_DIR]]]
# environment: RUNS (300), CORE_RUNS (100), SEED (20240501), JOBS (2)
set -euo pipefail

SIM=${1:-build/hcube-sim}
OUT=${2:-build/experiment}
DOC=${3:-Documentation/benchmarks}
RUNS=${RUNS:-300}
CORE_RUNS=${CORE_RUNS:-100}
PAPER_POLS=none,mcwa,dem,rid,cwa,mcwa-opt
CORE_POLS=mcwa,dem,optimal,auto,sid,sbn,sbn-cube,sbn-heur,pebble
SEED=${SEED:-20240501}
JOBS=${JOBS:-2}
HERE=$(dirname "$0")

if ! command -v gnuplot >/dev/null; then
	echo "experiment: installing gnuplot-nox"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q gnuplot-nox
fi

mkdir -p "$OUT" "$DOC"
t0=$(date +%s)
"$SIM" experiment --runs "$RUNS" --seed "$SEED" --jobs "$JOBS" --out "$OUT" \
	--policy "$PAPER_POLS"
"$SIM" experiment --runs "$CORE_RUNS" --seed "$SEED" --jobs "$JOBS" \
	--out "$OUT/core-policies" --policy "$CORE_POLS"
t1=$(date +%s)
gnuplot -e "dir='$OUT'; dims='5 6 7'" "$HERE/plots.gp"

# Sensitivity: the 7-cube at 0, 4 and 8 faults, one change at a time.
configs=(
	"base|the model as documented|"
	"alpha0.1|threshold A = 0.1|--threshold 0.1"
	"alpha0.5|threshold A = 0.5|--threshold 0.5"
	"alpha0.75|threshold A = 0.75|--threshold 0.75"
	"global|round cost: all nodes wait for the last migration step|--round-cost global"
	"nearest|faulty nodes' tasks to the nearest healthy nodes|--redistribute nearest"
	"free|no balancing costs at all|--mig-cost 0 --msg-cost 0"
	"mig0.2|migration 20% of E[tau] per hop|--mig-cost 0.2"
	"msg0.05|load message 5% of E[tau]|--msg-cost 0.05"
	"sender|only the sender pays 10% of E[tau] per task-hop (the paper's wording)|--mig-charge sender"
	"fixed1|fixed threshold: a node left with 0 queued tasks (K = 1)|--fixed-threshold 1"
	"fixed5|fixed threshold: below 5 queued tasks (K = 5)|--fixed-threshold 5"
)
for c in "${configs[@]}"; do
	IFS='|' read -r name _ args <<<"$c"
	# shellcheck disable=SC2086
	"$SIM" experiment --dims 7 --faults 0,4,8 --runs "$RUNS" --seed "$SEED" \
		--jobs "$JOBS" --quiet --out "$OUT/sens-$name" --policy "$PAPER_POLS" $args
done
t2=$(date +%s)
"$HERE/static.sh" "$SIM" >"$OUT/static.md"

python3 - "$OUT" "${configs[@]}" >"$OUT/sensitivity.md" <<'PY'
import csv, sys
out, configs = sys.argv[1], sys.argv[2:]
pols = ["mcwa", "dem", "rid", "mcwa-opt"]
print("| change | faults | ideal | MCWA | DEM | RID | MCWA-opt | MCWA − DEM (paired) | rounds MCWA / DEM |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for c in configs:
    name, what, _ = c.split("|", 2)
    rows = list(csv.DictReader(open(f"{out}/sens-{name}/summary.csv")))
    for f in ("0", "4", "8"):
        r = {x["policy"]: x for x in rows if x["faults"] == f}
        cells = [f'{float(r[p]["speedup_mean"]):.3f} ± {float(r[p]["speedup_ci95"]):.3f}'
                 for p in pols]
        ideal = f'{float(r["mcwa"]["ideal_mean"]):.3f}'
        diff = f'{float(r["mcwa"]["diff_vs_dem_mean"]):+.3f} ± {float(r["mcwa"]["diff_vs_dem_ci95"]):.3f}'
        rounds = f'{float(r["mcwa"]["rounds_mean"]):.1f} / {float(r["dem"]["rounds_mean"]):.1f}'
        print(f"| {what if f == '0' else ''} | {f} | {ideal} | " + " | ".join(cells) + f" | {diff} | {rounds} |")
PY

cp "$OUT/summary.csv" "$OUT/tables.md" "$OUT/sensitivity.md" "$OUT/static.md" \
	"$OUT"/*.png "$DOC/"
cp "$OUT/core-policies/tables.md" "$DOC/core-policies.md"
cp "$OUT/core-policies/summary.csv" "$DOC/core-policies.csv"
echo "experiment: grid $((t1 - t0)) s, sensitivity $((t2 - t1)) s with $JOBS workers;" \
	"tables and plots in $OUT, copied to $DOC"
