#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""What slurm-in-vm.sh asserts about a running step: the threads of the
spank_job processes (/proc), what hcube says of them (hcubectl -j), their
cgroups' cpusets, and Slurm's bindings (srun --cpu-bind=verbose lines).

    step_check.py HCUBECTL CHECK [ARG...]

CHECK:
  registered N        every thread of every spank_job process is an active
                      registered task, and there are N of them
  unregistered        no spank_job thread is registered
  empty               no task at all is registered
  in-cpuset           each spank_job thread's CPUs are within its cgroup's
                      cpuset.cpus.effective
  avoid CPU           no spank_job thread may run on CPU
  on-binding FILE     each task Slurm bound (FILE: srun's stderr) is
                      registered on the vertex that holds its CPUs
  is-binding FILE [main]
                      each task's threads (main: its first thread only)
                      have exactly Slurm's binding
  spread N            the N tasks (registered by a command) are on N vertices
  policy NAME         the node's policy is NAME
  first-cpu FILE      prints the CPU Slurm bound task 0 to (no check)

Exit 0 when the check holds; else 1, with what is wrong on stdout.
"""
import json
import os
import re
import subprocess
import sys


def cpulist(s):
    """A kernel CPU list ("0-3,8") as a set."""
    return {cpu for lo, hi in re.findall(r"(\d+)(?:-(\d+))?", s)
            for cpu in range(int(lo), int(hi or lo) + 1)}


def hcubectl(*args):
    out = subprocess.run([HCUBECTL, "-j", *args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def job_threads():
    """{tid: tgid} of every thread of the processes named spank_job."""
    tids = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip() != "spank_job":
                    continue
            for tid in os.listdir(f"/proc/{pid}/task"):
                tids[int(tid)] = int(pid)
        except OSError:
            pass  # gone meanwhile
    return tids


def status(tid, key):
    with open(f"/proc/{tid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return line.split(":", 1)[1].strip()
    return ""


def cpuset(pid):
    with open(f"/proc/{pid}/cgroup") as f:
        path = f.read().strip().split(":", 2)[2]
    with open(f"/sys/fs/cgroup{path}/cpuset.cpus.effective") as f:
        return cpulist(f.read())


def bindings(path):
    """{pid: cpus} from srun's 'cpu-bind=MASK - node1, task 0 0 [1234]: mask 0x1 set'."""
    found = {}
    with open(path) as f:
        for line in f:
            m = re.search(r"cpu-bind.*task\s+(\d+)\s+\d+\s+\[(\d+)\]: mask 0x([0-9a-fA-F]+) set",
                          line)
            if m:
                mask = int(m.group(3), 16)
                found[int(m.group(2))] = ({c for c in range(mask.bit_length()) if mask >> c & 1},
                                          int(m.group(1)))
    return found


def main():
    global HCUBECTL
    HCUBECTL, check, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    tasks = {t["pid"]: t for t in hcubectl("task", "list")}
    threads = job_threads()
    bad = []
    if check == "registered":
        for tid in threads:
            t = tasks.get(tid)
            if not t or t.get("state") != "active":
                bad.append(f"thread {tid} of {threads[tid]}: {t and t.get('state') or 'not registered'}")
        if len(threads) != int(args[0]):
            bad.append(f"{len(threads)} spank_job threads, want {args[0]}")
        print(f"# {len(threads)} spank_job threads, {len(tasks)} registered tasks")
    elif check == "unregistered":
        bad = [f"thread {tid} registered" for tid in threads if tid in tasks]
        if not threads:
            bad.append("no spank_job thread runs")
    elif check == "empty":
        bad = [f"task {pid} ({t.get('comm')}) still registered" for pid, t in tasks.items()]
    elif check == "in-cpuset":
        for tid, pid in threads.items():
            have, allowed = cpulist(status(tid, "Cpus_allowed_list")), cpuset(pid)
            if not have <= allowed:
                bad.append(f"thread {tid}: CPUs {sorted(have)} outside its cpuset {sorted(allowed)}")
        if not threads:
            bad.append("no spank_job thread runs")
    elif check == "avoid":
        cpu = int(args[0])
        bad = [f"thread {tid} may run on CPU {cpu}" for tid in threads
               if cpu in cpulist(status(tid, "Cpus_allowed_list"))]
    elif check in ("on-binding", "is-binding", "first-cpu"):
        bound = bindings(args[0])
        if not bound:
            bad.append(f"no cpu-bind line in {args[0]}")
        if check == "first-cpu":
            print(min(c for cpus, rank in bound.values() if rank == 0 for c in cpus))
            return 0
        vertices = {v["id"]: cpulist(v.get("cpus") or "") for v in hcubectl("show")["vertices"]}
        for pid, (cpus, rank) in bound.items():
            if check == "is-binding":
                for tid, tgid in threads.items():
                    if tgid != pid or (args[1:] == ["main"] and tid != pid):
                        continue
                    have = cpulist(status(tid, "Cpus_allowed_list"))
                    if have != cpus:
                        bad.append(f"rank {rank} thread {tid}: CPUs {sorted(have)}, bound to {sorted(cpus)}")
                continue
            t = tasks.get(pid)
            want = [v for v, c in vertices.items() if cpus <= c]
            if not t or t.get("vertex") not in want:
                bad.append(f"rank {rank} (pid {pid}, bound to {sorted(cpus)}): on vertex "
                           f"{t and t.get('vertex')}, want one of {want}")
    elif check == "spread":
        vs = [t.get("vertex") for t in tasks.values() if t.get("origin") == "admin"]
        if len(vs) != int(args[0]) or len(set(vs)) != len(vs):
            bad.append(f"tasks registered by a command on vertices {vs}, want {args[0]} distinct")
    elif check == "policy":
        policy = hcubectl("config", "show").get("policy")
        if policy != args[0]:
            bad.append(f"the node's policy is {policy}, want {args[0]}")
    else:
        print(f"step_check.py: unknown check {check}", file=sys.stderr)
        return 2
    for line in bad[:20]:
        print(f"#   {line}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
