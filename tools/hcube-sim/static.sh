#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The static comparison of the algorithms of Nam et al. (1999)
# (Documentation/benchmarks.md): the core's plans on random loads, no
# execution, no trigger, no costs, so that Algorithm 3 itself is measured
# apart from the simulator's choices. For n = 5, 6, 7 and INSTANCES load
# vectors each (every vertex uniform in 0..200, seeded), `hcube-sim plan`
# gives CWA, DEM and optimal on the fault-free cube, then MCWA, DEM and
# optimal with one faulty vertex (drawn at random; it holds nothing). Prints
# a Markdown table: task-hops per healthy vertex, their ratio to optimal's
# on the same loads (sums over the instances), tasks moved per vertex, and
# the final max - min.
#
# usage: static.sh [HCUBE_SIM] > static.md
# environment: INSTANCES (100), SEED (20240501)
set -euo pipefail
SIM=${1:-build/hcube-sim}
exec python3 - "$SIM" "${INSTANCES:-100}" "${SEED:-20240501}" <<'PY'
import json, random, subprocess, sys
sim, inst, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)

def plan(n, loads, faulty, pol):
    cmd = [sim, "plan", "--dim", str(n), "--loads", ",".join(map(str, loads)),
           "--policy", pol, "--json"]
    if faulty:
        cmd += ["--faulty", ",".join(map(str, faulty))]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)

print(f"Static plans of the core on {inst} random load vectors per cube (every vertex"
      f" uniform in 0..200, seed {seed}; the faulty vertex, drawn at random, holds"
      f" nothing), made by `tools/hcube-sim/static.sh`. Task-hops and tasks moved per"
      f" healthy vertex (means), task-hops over optimal's on the same loads (ratio of"
      f" the sums), and the final max - min (mean):\n")
print("| n | faults | policy | task-hops per vertex | / optimal | moved per vertex | max - min after |")
print("| ---: | ---: | --- | ---: | ---: | ---: | ---: |")
for n in (5, 6, 7):
    N = 1 << n
    cases = []
    for _ in range(inst):
        loads = [rng.randint(0, 200) for _ in range(N)]
        f = rng.randrange(N)
        one = list(loads)
        one[f] = 0
        cases.append((loads, one, f))
    for faults, pols in ((0, ("cwa", "dem", "optimal")), (1, ("mcwa", "dem", "optimal"))):
        res = {p: [] for p in pols}
        for loads, one, f in cases:
            for p in pols:
                d = plan(n, loads if not faults else one, [f] if faults else [], p)
                h = d["healthy"]
                res[p].append((d["migrations"], d["moved_tasks"], h,
                               d["after_max"] - d["after_min"]))
        opt = sum(r[0] for r in res["optimal"])
        for p in pols:
            rs = res[p]
            hops = sum(r[0] / r[2] for r in rs) / len(rs)
            moved = sum(r[1] / r[2] for r in rs) / len(rs)
            spread = sum(r[3] for r in rs) / len(rs)
            ratio = sum(r[0] for r in rs) / opt
            print(f"| {n} | {faults} | {p} | {hops:.2f} | {ratio:.3f} | {moved:.2f} | {spread:.2f} |")
PY
