#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Print hcube_bench's "R ..." result lines as Markdown tables.

Usage: bench_table.py FILE...   (the raw outputs of hcube_bench, any order)
"""
import statistics
import sys
from collections import defaultdict


def parse(paths):
    rows = []
    for p in paths:
        with open(p, encoding="utf-8", errors="replace") as f:
            for line in f:
                if not line.startswith("R "):
                    continue
                w = line.split()
                r = {"kind": w[1]}
                for kv in w[2:]:
                    k, _, v = kv.partition("=")
                    try:
                        r[k] = int(v)
                    except ValueError:
                        try:
                            r[k] = float(v)
                        except ValueError:
                            r[k] = v
                rows.append(r)
    return rows


def table(head, body):
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join(" ---: " for _ in head) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in body]
    return "\n".join(out)


def cost_tables(rows):
    rows = sorted((r for r in rows if r["kind"] == "cost"),  # not profiled-cost
                  key=lambda r: (r["cpus"], r["n"]))
    if not rows:
        return ""
    t1, t2, t3, t4, t5 = [], [], [], [], []
    for r in rows:
        n = r["n"]
        t4.append([r["cpus"], n, r["moved"], "%.2f" % r["mod_dur_ms"],
                   "%.2f" % r["bare_ms"] if r.get("bare_ms", 0) > 0 else "-",
                   "%.2f" % r["ratio_bare"] if r.get("ratio_bare", 0) > 0 else "-",
                   "%.3f" % r["show_ms"] if "show_ms" in r else "-",
                   "%.3f" % r["stats_ms"] if "stats_ms" in r else "-"])
        if "dump_root_ms" in r:
            t5.append([r["cpus"], n, r["dump_root_tasks"], "%.2f" % r["dump_root_ms"],
                       r["dump_nobody_tasks"], "%.2f" % r["dump_nobody_ms"]])
        read_growth = r["get_ms"] - r["get0_ms"]
        t1.append([r["cpus"], n, r["moved"],
                   "%.2f" % r["mod_dur_ms"], "%.2f" % r["mod_wall_ms"],
                   "%.2f" % r["user_ms"], "%.2f" % r["ratio_apply"],
                   "%.2f" % r["ratio_total"],
                   "%.2f" % r["mod_us_per_task"], "%.2f" % r["user_us_per_task"]])
        apply_ms = r["mod_dur_ms"] - r["dry_dur_ms"]
        t2.append([r["cpus"], n, "%.2f" % r["dry_dur_ms"], "%.2f" % r["dry_wall_ms"],
                   "%.3f" % read_growth,
                   "%.2f" % apply_ms,
                   "%.2f" % (apply_ms * 1e3 / r["moved"]) if r["moved"] else "-",
                   "%.1f" % r["reg_ms"],
                   "%.1f" % r["regone_ms"] if r["regone_ms"] > 0 else "-",
                   "%.1f" % r["del_ms"]])
        t3.append([r["cpus"], n, r.get("hcube_task_objsize", "?"),
                   "%.1f" % (r["hcube_task_bytes"] / n),
                   "%.1f" % (r["kmalloc8_bytes"] / n),
                   "%.1f" % (r["radix_bytes"] / n),
                   "%.1f" % r["bytes_per_task"]])
    return ("### Rebalance: the module against userspace (medians of %d each)\n\n"
            % rows[0]["reps"] +
            table(["vCPUs", "tasks", "moved", "module ms (own)", "module ms (wall)",
                   "userspace ms", "ratio", "ratio incl. dry run",
                   "module µs/moved task", "userspace µs/moved task"], t1) +
            "\n\n### Where the module's time goes; dry run, registration\n\n" +
            table(["vCPUs", "tasks", "dry run ms (own)", "dry run ms (wall)",
                   "CUBE_GET ms, minus with no task",
                   "apply ms", "apply µs/moved task",
                   "register ms (a request per process)", "register ms (one request)",
                   "unregister ms"], t2) +
            "\n\n### The module against the physical limit, and read commands\n\n" +
            table(["vCPUs", "tasks", "moved", "module ms (own)",
                   "bare set_cpus_allowed_ptr() loop ms", "module / bare",
                   "show ms (wall)", "stats ms (wall)"], t4) +
            ("\n\n### The task list (TASK_GET dump, medians of 16): root sees every "
             "task, nobody none\n\n" +
             table(["vCPUs", "tasks", "root: tasks listed", "root ms (wall)",
                    "nobody: tasks listed", "nobody ms (wall)"], t5) if t5 else "") +
            "\n\n### Slab memory per registered task (bytes)\n\n" +
            table(["vCPUs", "tasks", "hcube_task object", "hcube_task slab",
                   "kmalloc-8 (cpumask)", "radix_tree_node (xarray)",
                   "all slab caches"], t3) + "\n")


def idle_table(rows):
    rows = sorted((r for r in rows if r["kind"] == "idle"), key=lambda r: r["tasks"])
    if not rows:
        return ""
    return ("### The module's wake-ups while nothing happens\n\n" +
            table(["tasks registered", "seconds", "wake-ups", "per minute"],
                  [[r["tasks"], r["seconds"], r["wakeups"], "%.1f" % r["wakeups_per_min"]]
                   for r in rows]) + "\n")


def makespan_tables(rows):
    rows = [r for r in rows if r["kind"] == "makespan"]
    if not rows:
        return ""
    out = []
    for cpus in sorted({r.get("cpus", 0) for r in rows}):
        rs = [r for r in rows if r.get("cpus", 0) == cpus]
        by = defaultdict(dict)        # (faults, seed) -> policy -> row
        for r in rs:
            by[(r["faults"], r["seed"])][r["policy"]] = r
        body = []
        for nf in sorted({r["faults"] for r in rs}):
            for pol in ("pin", "dem", "mcwa", "cfs"):
                cell = [by[k][pol] for k in sorted(by) if k[0] == nf and pol in by[k]]
                if not cell:
                    continue
                ms = [c["makespan_s"] for c in cell]
                sp = [by[(nf, c["seed"])]["pin"]["makespan_s"] / c["makespan_s"]
                      for c in cell if "pin" in by[(nf, c["seed"])]]
                rc = [c["makespan_s"] / by[(nf, c["seed"])]["cfs"]["makespan_s"]
                      for c in cell if "cfs" in by[(nf, c["seed"])]]
                mean = statistics.mean
                body.append([nf, pol, "%.2f" % mean(ms),
                             "%.2f" % mean(c["ideal_s"] for c in cell),
                             "%.2f" % mean(sp) if sp else "-",
                             "%.2f" % mean(rc) if rc else "-",
                             "%.1f" % mean(c["moved"] + c["evacuated"] for c in cell),
                             "%.1f" % mean(c["auto"] for c in cell),
                             "%.1f" % mean(c["kmigr"] for c in cell),
                             "%.2f" % max(c.get("over_max_s", 0) for c in cell)])
        w = rs[0]
        out.append("### Makespan, %s vCPUs: %d workers, means over %d seeds\n\n"
                   % (cpus or "?", w["workers"], len({r["seed"] for r in rs})) +
                   table(["faulty vertices", "policy", "makespan s", "ideal s",
                          "speedup over pin", "ratio to cfs",
                          "tasks moved by hcube", "automatic rebalances",
                          "kernel migrations", "worst overrun s"], body) + "\n")
    return "\n".join(out)


def mce_table(rows):
    """From the write that injects the machine check crossing the threshold
    to the events received, and (with the tracepoint on) to the first and
    the last move off the CPU: medians of the runs of each size. The
    evacuation ends before the rebalance that follows it starts, so the
    REBALANCE_NTF's time minus that rebalance's own bounds the last move
    from above, without the tracepoint."""
    groups = defaultdict(list)
    for r in rows:
        if r["kind"] == "mce":
            groups[(r["cpus"], r["n"], r["traced"])].append(r)
    if not groups:
        return ""

    def med(g, k, fmt="%.2f"):
        v = [x[k] for x in g if k in x and x[k] >= 0]
        return fmt % statistics.median(v) if v else "-"
    def span(g, k):
        v = [x[k] for x in g if k in x and x[k] >= 0]
        return "%.2f-%.2f" % (min(v), max(v)) if v else "-"
    body = []
    for key in sorted(groups):
        g = groups[key]
        traced = key[2]
        body.append([key[0], key[1], "on" if traced else "off", len(g),
                     med(g, "evacuated", "%d"), med(g, "moved", "%d"),
                     med(g, "fault_ms"), med(g, "off_ms"), span(g, "off_ms"),
                     med(g, "rebalance_dur_ms"),
                     "%.2f" % statistics.median(x["off_ms"] - x["rebalance_dur_ms"]
                                                for x in g),
                     med(g, "first_move_ms") if traced else "-",
                     med(g, "last_move_ms") if traced else "-",
                     span(g, "last_move_ms") if traced else "-",
                     max(x["left_on_cpu"] for x in g)])
    r0 = next(iter(groups.values()))[0]
    return ("### From a machine check to the last task off the CPU (medians; "
            "mce_ce_threshold %d, the tasks on one CPU's vertex)\n\n" % r0["threshold"] +
            table(["vCPUs", "tasks", "hcube_migrate tracepoint", "runs", "evacuated",
                   "moved by the rebalance after", "to FAULT_NTF received ms",
                   "to REBALANCE_NTF received ms", "its range ms", "that rebalance's own ms",
                   "REBALANCE_NTF minus that rebalance ms (the last move was before)",
                   "to the first move off the CPU ms", "to the last move off the CPU ms",
                   "its range ms", "still on the CPU after (max)"],
                  body) + "\n")


PHASES = ("evacuate_ns", "plan_ns", "routes_ns", "moves_ns")


def phases_table(rows):
    """Where a rebalance's time goes: the phases module's log lines (one
    per rebalance that moved tasks; medians), beside the bare loop of the
    same VM's rounds with that module (its "cost-phases" line)."""
    groups = defaultdict(list)
    for r in rows:
        if r["kind"] == "phases" and r["moved"] > 0:
            groups[(r["cpus"], r["tasks"])].append(r)
    if not groups:
        return ""
    bare = {(r["cpus"], r["n"]): r for r in rows if r["kind"] == "cost-phases"}

    def ms(k, g):
        return statistics.median(x[k] for x in g) / 1e6

    body = []
    for key in sorted(groups):
        g = groups[key]
        moved = statistics.median(x["moved"] for x in g)
        parts = [ms(k, g) for k in PHASES]
        sca = ms("set_cpus_ns", g)
        total = statistics.median(sum(x[k] for k in PHASES) for x in g) / 1e6
        b = bare.get(key, {}).get("bare_ms", 0)
        ver = statistics.median(x.get("verify_ns", 0) for x in g) / 1e6
        reads = statistics.median(x.get("cs_reads", 0) for x in g)
        prep = statistics.median(x.get("prepare_ns", 0) for x in g) / 1e3
        body.append([key[0], key[1], "%d" % moved, len(g)] +
                    ["%.2f" % p for p in parts] +
                    ["%.2f" % sca, "%.2f" % ver, "%d" % reads,
                     "%.2f" % (prep / moved) if moved else "-",
                     "%.2f" % ((parts[3] - sca) * 1e3 / moved) if moved else "-",
                     "%.2f" % total,
                     "%.2f" % b if b > 0 else "-",
                     "%.2f" % (sca / b) if b > 0 else "-",
                     "%.2f" % (total / b) if b > 0 else "-"])
    return ("### Where a rebalance's time goes (the phases module; medians)\n\n" +
            table(["vCPUs", "tasks", "moved", "rebalances",
                   "evacuate ms", "plan ms", "routes ms", "moves ms",
                   "of which set_cpus_allowed_ptr() ms",
                   "of which verification ms", "cpuset reads",
                   "prepare µs a move", "the rest of a move µs", "sum ms", "bare loop ms (same VM)",
                   "set_cpus_allowed_ptr() in the module / bare",
                   "sum / bare"], body) + "\n")


def goals_table(rows):
    """Issue 23's goals: the rebalance against the bare loop, a dry run and
    a small rebalance with the most tasks, and what the probes add to
    fork+exit (medians of batches)."""
    cost = {(r["cpus"], r["n"]): r for r in rows if r["kind"] == "cost"}
    small = {r["cpus"]: r for r in rows if r["kind"] == "small"}
    forks = defaultdict(dict)
    for r in rows:
        if r["kind"] == "fork":
            forks[r["cpus"]][r["label"]] = r
    body = []
    for cpus in sorted({k[0] for k in cost} | set(small) | set(forks)):
        ns = [k[1] for k in cost if k[0] == cpus]
        big = cost.get((cpus, max(ns))) if ns else None
        f = forks.get(cpus, {})
        base = f.get("unloaded", {}).get("us_per_fork", 0)

        def over(label):
            x = f.get(label, {}).get("us_per_fork", 0)
            return "%.2f (%+.1f %%)" % (x, 100 * (x - base) / base) if x and base else "-"
        body.append([cpus, big["n"] if big else "-",
                     "%.2f" % big["ratio_bare"] if big and big.get("ratio_bare", 0) > 0 else "-",
                     "%.2f" % big["dry_dur_ms"] if big else "-",
                     "%d" % small[cpus]["moved"] if cpus in small else "-",
                     "%.3f" % small[cpus]["small_dur_ms"] if cpus in small else "-",
                     "%.2f" % base if base else "-", over("loaded"), over("registered")])
    if not body:
        return ""
    return ("### Goals: a rebalance costs what its moves cost\n\n" +
            table(["vCPUs", "tasks", "rebalance / bare loop (goal <= 1.15)",
                   "dry run ms (goal <= 1)", "small rebalance: moved",
                   "small rebalance ms (goal <= 0.5)", "fork+exit µs, not loaded",
                   "loaded, none registered", "loaded, the tasks registered (goal <= +3 %)"],
                  body) + "\n")


def profile_tables(rows):
    rows = [r for r in rows if r["kind"] == "profile"]
    if not rows:
        return ""
    rows.sort(key=lambda r: (r["depth"], -r["total_ms"]))
    body = [[r["depth"], "`%s`" % r["func"], r["calls"], "%.2f" % r["total_ms"],
             "%.2f" % r["avg_us"]] for r in rows if r["total_ms"] >= 0.05]
    return ("### Profile (function_graph, %d threads; tracing inflates every time)\n\n"
            % rows[0]["n"] +
            table(["depth", "function", "calls", "total ms", "µs per call"], body) + "\n")


def main():
    rows = parse(sys.argv[1:])
    if not rows:
        print("bench_table: no R lines in %s" % " ".join(sys.argv[1:]), file=sys.stderr)
        return 1
    for s in (goals_table(rows), cost_tables(rows), phases_table(rows), mce_table(rows),
              idle_table(rows),
              profile_tables(rows), makespan_tables(rows)):
        if s:
            print(s)
    return 0


if __name__ == "__main__":
    sys.exit(main())
