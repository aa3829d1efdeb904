#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make experiment-mpi: libhcube-mpi on real MPI ranks of this machine,
# oversubscribed (Documentation/mpi.md). Two parts (PARTS):
# - papers: hcube-sim's workloads. The three Poisson workloads of Das et
#   al. (2002) on P = 2, 4, 8, 16, 32 ranks with none, DEM, MCWA and SBN,
#   RUNS runs (the first RUNS of hcube-sim's seed), beside hcube-sim sbn on
#   the same runs and the paper's Figs. 9-11; the Section 6 workload of Nam
#   et al. (1999) on a DIM-cube of ranks (2^DIM of them) with 0 .. DIM + 3
#   faulty ranks, none, DEM and MCWA, RUNS000 runs, beside hcube-sim run on
#   the same instances. Writes OUT_DIR/{mpi-sbn.csv, sim-sbn/, mpi-000.csv,
#   sim-000.csv, mpi.md} and copies mpi.md to DOC_DIR/benchmarks/mpi.md.
# - balance: what one call of each policy reaches by weight beside the
#   greedy an application would write (hcube-mpi-oncall), RUNS_BALANCE runs
#   on each of PROCS_BALANCE ranks with 0 and 1 faulty, 0..2 UNITS_BALANCE
#   units per rank. Writes OUT_DIR/oncall-*.csv and the table into
#   DOC_DIR/mpi.md, between its "experiment-mpi: balance" markers.
#
# usage: experiment.sh BIN_DIR HCUBE_SIM OUT_DIR DOC_DIR
#   (BIN_DIR: build/hcube-mpi, with hcube-mpi-exp and hcube-mpi-oncall)
# environment: PARTS ("papers balance"), RUNS (5), RUNS000 (10), DIM (5),
#   SEED (20240501), PROCS ("2 4 8 16 32"), RUNS_BALANCE (5),
#   PROCS_BALANCE ("12 16 32"), UNITS_BALANCE (100)
set -euo pipefail
EXP=$1/hcube-mpi-exp
ONCALL=$1/hcube-mpi-oncall
SIM=$2
OUT=$3
DOC=$4
PARTS=${PARTS:-papers balance}
RUNS=${RUNS:-5}
RUNS000=${RUNS000:-10}
DIM=${DIM:-5}
SEED=${SEED:-20240501}
PROCS=${PROCS:-2 4 8 16 32}
RUNS_BALANCE=${RUNS_BALANCE:-5}
PROCS_BALANCE=${PROCS_BALANCE:-12 16 32}
UNITS_BALANCE=${UNITS_BALANCE:-100}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

# as selftests/mpi/run.sh: root, more ranks than cores, containers
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none

rm -rf "$OUT"
mkdir -p "$OUT" "$DOC/benchmarks"

papers() {
t0=$(date +%s)

# Das et al. (2002): the workloads of hcube-sim's first RUNS runs, then
# the ranks.
"$SIM" sbn --runs "$RUNS" --seed "$SEED" --policy nobal,dem,mcwa,sbn --quiet \
	--out "$OUT/sim-sbn" --jobs-out "$OUT/jobs"
first=1
for p in $PROCS; do
	for sc in heavy heavy-light light; do
		echo "experiment-mpi: Das et al. 2002, $sc, $p ranks" >&2
		mpirun --oversubscribe -np "$p" "$EXP" sbn --jobs "$OUT/jobs" --scenario "$sc" \
			--runs "$RUNS" --policy none,dem,mcwa,sbn >"$OUT/part.csv"
		if [ "$first" = 1 ]; then cat "$OUT/part.csv"; else tail -n +2 "$OUT/part.csv"; fi
		first=0
	done
done >"$OUT/mpi-sbn.csv"
t1=$(date +%s)

# Nam et al. (1999): hcube-sim's instances (and its own runs of them),
# then the ranks.
faults=$(seq -s, 0 $((DIM + 3)))
first=1
for f in $(seq 0 $((DIM + 3))); do
	"$SIM" run --dim "$DIM" --faults "$f" --runs "$RUNS000" --seed "$SEED" \
		--policy none,mcwa,dem --instance-out "$OUT/instances" --csv |
		if [ "$first" = 1 ]; then cat; else tail -n +2; fi
	first=0
done >"$OUT/sim-000.csv"
echo "experiment-mpi: Nam et al. 1999, $((1 << DIM)) ranks, faults $faults" >&2
mpirun --oversubscribe -np $((1 << DIM)) "$EXP" p000 --instances "$OUT/instances" \
	--dim "$DIM" --faults "$faults" --runs "$RUNS000" >"$OUT/mpi-000.csv"
t2=$(date +%s)
rm -f "$OUT/part.csv"

python3 - "$OUT" "$ROOT/tools/hcube-sim/sbn_paper.h" "$RUNS" "$RUNS000" "$SEED" \
	"$((t1 - t0))" "$((t2 - t1))" >"$OUT/mpi.md" <<'PY'
import csv, re, statistics as st, sys
out, paper_h, runs, runs000, seed, t003, t000 = sys.argv[1:]

# the paper's Figs. 9-11: [scenario][metric][P2..P32, avg][10 columns]
text = re.sub(r"/\*.*?\*/", "", open(paper_h).read(), flags=re.S)
nums = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", text.split("=", 1)[1])]
assert len(nums) == 3 * 4 * 6 * 10, len(nums)
def paper(si, m, row, col):
    return nums[((si * 4 + m) * 6 + row) * 10 + col]

scens = ["heavy", "heavy-light", "light"]
figs = ["Fig. 9", "Fig. 10", "Fig. 11"]
pols = ["none", "dem", "mcwa", "sbn"]
simname = {"none": "nobal", "dem": "dem", "mcwa": "mcwa", "sbn": "sbn"}
papercol = {"none": 0, "sbn": 7}
mpi = list(csv.DictReader(open(f"{out}/mpi-sbn.csv")))
sim = list(csv.DictReader(open(f"{out}/sim-sbn/sbn.csv")))
procs = sorted({int(r["procs"]) for r in mpi})

def mean(rows, key):
    return st.mean(float(r[key]) for r in rows) if rows else float("nan")
def sel(rows, **kw):
    return [r for r in rows if all(str(r[k]) == str(v) for k, v in kw.items())]

bad = [r for r in mpi if r["executed"] != r["jobs"]]
print(f"# libhcube-mpi on real ranks: the workloads of Das et al. (2002) and Nam et al. (1999)\n")
print(f"Made by `make experiment-mpi` (tools/hcube-mpi/experiment.sh), seed {seed}:"
      f" Das et al. with {runs} runs per point (hcube-sim's first {runs} of that seed),"
      f" Nam et al. with {runs000} runs per fault count. Every rank a process of"
      f" this 2-core machine (mpirun --oversubscribe); the jobs' execution is"
      f" virtual time, the balancing real message passing. Wall time: Das et al."
      f" {t003} s, Nam et al. {t000} s. Jobs lost or run twice: {len(bad)}.\n")
print("Each cell: the ranks' mean / hcube-sim's mean on the same runs"
      " (the paper's value in parentheses where it has one: NOBAL and SBN).\n")
metrics = [("messages", "messages", 0, "%.0f"), ("jobs transferred", "jobs_transferred", 1, "%.0f"),
           ("idle-time range (s)", "idle_range", 2, "%.2f"), ("completion (s)", "completion", 3, "%.2f")]
for si, sc in enumerate(scens):
    print(f"## {sc} (paper {figs[si]})\n")
    for mname, key, m, fmt in metrics:
        print(f"{mname}:\n")
        print("| P | " + " | ".join(pols) + " |")
        print("| ---: |" + " ---: |" * len(pols))
        for p in procs:
            cells = []
            for pol in pols:
                a = mean(sel(mpi, scenario=sc, procs=p, policy=pol), key)
                b = mean(sel(sim, scenario=sc, procs=p, policy=simname[pol]), key)
                c = (fmt % a) + " / " + (fmt % b)
                if pol in papercol:
                    c += " (" + (fmt % paper(si, m, [2, 4, 8, 16, 32].index(p), papercol[pol])) + ")"
                cells.append(c)
            print(f"| {p} | " + " | ".join(cells) + " |")
        print()
    print("operations per run, logical messages per operation (relays not counted),"
          " steps per operation, and wall time per operation as a ratio to DEM's"
          " in the same runs:\n")
    print("| P | policy | operations (ranks / hcube-sim) | messages per operation | logical per operation | steps per operation | wall per operation / DEM's |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for p in procs:
        dem = sel(mpi, scenario=sc, procs=p, policy="dem")
        dem_wall = sum(float(r["balance_s"]) for r in dem) / max(1, sum(int(r["operations"]) for r in dem))
        for pol in ["dem", "mcwa", "sbn"]:
            rs = sel(mpi, scenario=sc, procs=p, policy=pol)
            ops = sum(int(r["operations"]) for r in rs)
            if not ops:
                continue
            msgs = sum(float(r["messages"]) for r in rs) / ops
            logical = sum(float(r["logical_messages"]) for r in rs) / ops
            steps = sum(float(r["steps"]) for r in rs) / ops
            wall = sum(float(r["balance_s"]) for r in rs) / ops
            simops = mean(sel(sim, scenario=sc, procs=p, policy=simname[pol]), "operations")
            print(f"| {p} | {pol} | {ops / len(rs):.1f} / {simops:.1f} | {msgs:.1f} | {logical:.1f} | {steps:.1f} | {wall / dem_wall:.2f} |")
    print()

# Nam et al. (1999)
m0 = list(csv.DictReader(open(f"{out}/mpi-000.csv")))
s0 = list(csv.DictReader(open(f"{out}/sim-000.csv")))
dim = m0[0]["dim"]
bad0 = [r for r in m0 if r["executed"] != r["tasks"]]
print(f"## the workload of Nam et al. (1999) on {2 ** int(dim)} ranks ({dim}-cube), 0 .. {int(dim) + 3} faulty\n")
print(f"Tasks lost or run twice: {len(bad0)}. Speedup over no balancing, mean ± 95% CI"
      f" (Student t) of the ranks, hcube-sim's mean on the same instances after the slash;"
      f" MCWA − DEM paired per run; task-hops and real messages per healthy rank per run:\n")
# Student t, 97.5% quantile, by degrees of freedom (1..30; 1.96 beyond)
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]
def ci(xs):
    if len(xs) < 2:
        return 0.0
    df = len(xs) - 1
    t = T975[df - 1] if df <= 30 else 1.96
    return t * st.stdev(xs) / len(xs) ** 0.5
print("| faults | DEM | MCWA | MCWA − DEM | DEM hops | MCWA hops | DEM msgs | MCWA msgs | rounds DEM / MCWA |")
print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
faults = sorted({int(r["faults"]) for r in m0})
verdict = []
for f in faults:
    row = {}
    for pol in ["dem", "mcwa"]:
        rs = sel(m0, faults=f, policy=pol)
        ss = sel(s0, faults=f, policy=pol)
        row[pol] = (rs, ss)
    d = [float(a["speedup"]) - float(b["speedup"])
         for a, b in zip(sorted(row["mcwa"][0], key=lambda r: int(r["run"])),
                         sorted(row["dem"][0], key=lambda r: int(r["run"])))]
    ds = [float(a["speedup"]) - float(b["speedup"])
          for a, b in zip(sorted(row["mcwa"][1], key=lambda r: int(r["run"])),
                          sorted(row["dem"][1], key=lambda r: int(r["run"])))]
    verdict.append((f, st.mean(d), ci(d), st.mean(ds)))
    cells = []
    for pol in ["dem", "mcwa"]:
        rs, ss = row[pol]
        xs = [float(r["speedup"]) for r in rs]
        cells.append(f"{st.mean(xs):.3f} ± {ci(xs):.3f} / {mean(ss, 'speedup'):.3f}")
    cells.append(f"{st.mean(d):+.3f} ± {ci(d):.3f} / {st.mean(ds):+.3f}")
    for pol in ["dem", "mcwa"]:
        rs, ss = row[pol]
        cells.append(f"{mean(rs, 'hops_per_node'):.1f} / {mean(ss, 'hops_per_node'):.1f}")
    for pol in ["dem", "mcwa"]:
        rs, ss = row[pol]
        h = float(rs[0]["healthy"])
        cells.append(f"{mean(rs, 'messages') / h:.0f}")
    cells.append(f"{mean(row['dem'][0], 'rounds'):.1f} / {mean(row['mcwa'][0], 'rounds'):.1f}")
    print(f"| {f} | " + " | ".join(cells) + " |")
print()
first = [v for v in verdict if v[0] >= 1]
wins = [v for v in first if v[1] + v[2] < 0]
print(f"DEM ahead of MCWA with the paired 95% interval below 0 at {len(wins)} of the"
      f" {len(first)} fault counts from 1 to {faults[-1]} on the ranks"
      f" ({', '.join(str(v[0]) for v in wins) or 'none'});"
      f" hcube-sim's paired mean is negative at"
      f" {sum(1 for v in first if v[3] < 0)} of them.")
PY
cp "$OUT/mpi.md" "$DOC/benchmarks/mpi.md"
echo "experiment-mpi: Das et al. $((t1 - t0)) s, Nam et al. $((t2 - t1)) s;" \
	"$OUT/mpi.md copied to $DOC/benchmarks/mpi.md"
}

# One call of each policy by weight, beside the greedy, from the same start.
balance() {
	local t0 t1 p f
	t0=$(date +%s)
	for p in $PROCS_BALANCE; do
		for f in 0 1; do
			echo "experiment-mpi: one call, $p ranks, $f faulty" >&2
			mpirun --oversubscribe -np "$p" "$ONCALL" --runs "$RUNS_BALANCE" --faults "$f" \
				--units "$UNITS_BALANCE" --seed "$SEED" >"$OUT/oncall-$p-$f.csv"
		done
	done
	t1=$(date +%s)
	python3 - "$OUT" "$RUNS_BALANCE" "$SEED" "$((t1 - t0))" "$UNITS_BALANCE" $PROCS_BALANCE \
		>"$OUT/balance.md" <<'PY'
import csv, glob, statistics as st, sys
out, runs, seed, secs, units = sys.argv[1:6]
procs = sys.argv[6:]
print(f"Made by `make experiment-mpi` (its balance part, {secs} s here; "
      f"`PARTS=balance make experiment-mpi` runs it alone), seed {seed}, {runs} runs per"
      f" configuration. Every rank starts with 0 to {2 * int(units)} units (uniform). A unit"
      " costs 1 to 10 work units (90%), 500 to 1000 (3%) or 11 to 100 (7%), and carries"
      " 4 bytes to 1 MiB of payload (log-uniform). The faulty rank is drawn at random and"
      " evacuated before the call. Every policy is called by weight; `pack_weight` keeps the"
      " library's rule and takes the units of most weight per byte first. `greedy` is the"
      " application's own: one `MPI_Allgatherv` of the weights, each rank keeps its units"
      " up to the average, the surplus goes heaviest first to the least loaded rank, one"
      " `MPI_Alltoallv`. max/avg is over the healthy ranks, measured on the units: the mean"
      " over the runs, the worst in brackets; \"best ≥\" is max(avg, heaviest unit) / avg,"
      " which no split of whole units beats. Bytes are the payload sent (each hop counted)"
      " in all, and their ratio to the greedy's in the same runs; time is the slowest"
      " rank's wall time of the call, oversubscribed on this 2-core machine.\n")
allrows = []
for p in procs:
    for f in ("0", "1"):
        rows = list(csv.DictReader(open(f"{out}/oncall-{p}-{f}.csv")))
        if not rows:
            continue
        allrows += rows
        g = [r for r in rows if r["policy"] == "greedy"]
        gbytes = sum(float(r["bytes_sent"]) for r in g)
        print(f"{p} ranks, {f} faulty: before the call {st.mean(float(r['weight_before']) for r in g):.3f},"
              f" best ≥ {st.mean(float(r['best']) for r in g):.3f}:\n")
        print("| policy | max/avg after | policy alone | settle rounds | units sent | payload MB sent | bytes / greedy's | messages per rank | time (ms) |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        pols = []
        for r in rows:
            if r["policy"] not in pols:
                pols.append(r["policy"])
        for pol in pols:
            rs = [r for r in rows if r["policy"] == pol]
            a = [float(r["weight_after"]) for r in rs]
            rounds = [int(r["settle_rounds"]) for r in rs]
            b = sum(float(r["bytes_sent"]) for r in rs)
            # the greedy's bytes on the runs this policy ran (cwa: fault-free only)
            gb = sum(float(r["bytes_sent"]) for r in g if r["run"] in {x["run"] for x in rs})
            print(f"| {pol} | {st.mean(a):.3f} ({max(a):.3f}) |"
                  f" {st.mean(float(r['weight_after_policy']) for r in rs):.3f} |"
                  f" {st.mean(rounds):.1f} ({max(rounds)}) |"
                  f" {st.mean(float(r['units_sent']) for r in rs):.0f} |"
                  f" {b / len(rs) / 1e6:.1f} | {b / gb if gb else float('nan'):.2f} |"
                  f" {st.mean(float(r['messages']) for r in rs) / int(p):.1f} |"
                  f" {st.mean(float(r['seconds']) for r in rs) * 1000:.0f} |")
        print()
print("Over all the configurations above (the goals of issue 33: 1.02 and 1.5):\n")
print("| policy | max/avg after, mean (worst) | bytes / greedy's |")
print("| --- | ---: | ---: |")
for pol in ["greedy", "mcwa", "dem", "optimal", "auto", "sbn", "sbn-cube", "pebble"]:
    rs = [r for r in allrows if r["policy"] == pol]
    keys = {(r["procs"], r["faults"], r["run"]) for r in rs}
    g = [r for r in allrows if r["policy"] == "greedy" and (r["procs"], r["faults"], r["run"]) in keys]
    a = [float(r["weight_after"]) for r in rs]
    print(f"| {pol} | {st.mean(a):.3f} ({max(a):.3f}) |"
          f" {sum(float(r['bytes_sent']) for r in rs) / sum(float(r['bytes_sent']) for r in g):.2f} |")
print()
g32 = [r for r in allrows if r["procs"] == "32" and r["policy"] == "greedy"]
if g32:
    print(f"At 32 ranks the greedy's all-gather leaves"
          f" {st.mean(float(r['gathered_bytes']) for r in g32) / 1024:.1f} KiB of weights on every rank"
          f" (4 bytes per unit of the job, growing with the job's units); a library call"
          f" makes {st.mean(float(r['collectives']) for r in allrows if r['procs'] == '32' and r['policy'] == 'dem'):.1f}"
          f" collectives per DEM call, most of them the settle's all-gathers of 24 bytes"
          f" per rank (768 bytes at 32 ranks).\n")
PY
	python3 - "$DOC/mpi.md" "$OUT/balance.md" <<'PY'
import sys
doc, table = sys.argv[1], open(sys.argv[2]).read()
text = open(doc).read()
start, end = "<!-- experiment-mpi: balance -->\n", "<!-- end of experiment-mpi: balance -->"
i, j = text.find(start), text.find(end)
if i < 0 or j < i:
    sys.exit(f"{doc}: no {start.strip()} ... {end} markers")
open(doc, "w").write(text[:i + len(start)] + "\n" + table + text[j:])
PY
	echo "experiment-mpi: one call $((t1 - t0)) s; the table written into $DOC/mpi.md"
}

for part in $PARTS; do
	case $part in
	papers | balance) "$part" ;;
	*) echo "experiment-mpi: unknown part $part (papers, balance)" >&2; exit 2 ;;
	esac
done
