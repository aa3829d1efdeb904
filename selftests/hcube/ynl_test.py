#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The hcube family driven by the kernel's own YNL CLI from the spec alone.

A client this project did not write: tools/net/ynl/cli.py of a kernel
source tree (HCUBE_YNL: the directory `make ynl` extracts from Debian's
linux-source-6.12), given only Documentation/netlink/specs/hcube.yaml
(installed beside this test) and the kernel's schema for its protocol. The
CLI lists the operations and sends the first cube-get; the other commands
go through its library (lib/ynl.py, YnlFamily) in this process, as the CLI
sends them: a CLI process a command took minutes in all under TCG. What it
decodes is compared
with hcubectl -j on the same state: the cube, the vertex dump and its
filter, the configuration (auto, a u32), a custom topology of string
groups, a registration, the task dump, a dry run's transfers (one nest each)
and a rebalance that moves nothing (no transfer at all), the events of a
subscriber (loads decoded as numbers, the transfers of every report), the
statistics, and errors (ERANGE with the extended ack). A kselftest: the
module loaded, or HCUBE_KO (hcube_module.py); prints TAP.
"""
import json
import os
import signal
import subprocess
import sys

import hcube_module

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = os.path.join(HERE, "hcube.yaml")
HCUBECTL = os.path.join(HERE, "hcubectl")
YNL = os.environ.get("HCUBE_YNL", "")
CLI = os.path.join(YNL, "tools/net/ynl/cli.py")
SCHEMA = os.path.join(YNL, "Documentation/netlink/genetlink-c.yaml")

n = 0
fails = 0


def check(cond, what):
    global n, fails
    n += 1
    fails += not cond
    print("%s %d %s" % ("ok" if cond else "not ok", n, what))
    sys.stdout.flush()


def ynl_args(op=None, kind="--do", attrs=None):
    args = [sys.executable, CLI, "--spec", SPEC, "--schema", SCHEMA, "--output-json"]
    if op:
        args += [kind, op]
    if attrs is not None:
        args += ["--json", json.dumps(attrs)]
    return args


def ynl_cli(op, attrs=None, dump=False):
    """(decoded reply, None) or (None, the CLI's error text)."""
    p = subprocess.run(ynl_args(op, "--dump" if dump else "--do", attrs),
                       capture_output=True, text=True)
    if p.returncode:
        return None, (p.stdout + p.stderr).strip()
    return json.loads(p.stdout) if p.stdout.strip() else {}, None


FAMILY = []


def ynl(op, attrs=None, dump=False):
    """The same through the CLI's library, in this process: a CLI process a
    command costs seconds under TCG. (reply, None) or (None, the error as
    the CLI prints it)."""
    if not FAMILY:
        sys.path.insert(0, os.path.dirname(CLI))
        from lib import YnlFamily
        FAMILY.append(YnlFamily(SPEC, SCHEMA))
    try:
        fam = FAMILY[0]
        reply = fam.dump(op, attrs or {}) if dump else fam.do(op, attrs or {})
    except Exception as e:	# NlError: "Netlink error: <strerror>" and the extack
        return None, str(e)
    # as the CLI's --output-json gives it
    return json.loads(json.dumps(reply if reply is not None else {},
                                 default=lambda o: o.hex() if isinstance(o, bytes)
                                 else list(o))), None


def hcubectl(*args):
    p = subprocess.run([HCUBECTL, "-j"] + list(args), capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("hcubectl %s: %s" % (" ".join(args), p.stderr.strip()))
    return json.loads(p.stdout) if p.stdout.strip() else {}


def transfers_of(report):
    """A report's transfers as (step, from, to, count), as YNL decodes them."""
    x = report.get("transfer", [])
    if isinstance(x, dict):	# one nest decodes as a dict, several as a list
        x = [x]
    return [(t["step"], t["from"], t["to"], t["count"]) for t in x]


def main():
    if not YNL or not os.path.isfile(CLI):
        print("TAP version 13\n1..0 # SKIP the kernel's YNL CLI is not there "
              "(HCUBE_YNL: make ynl extracts it)")
        return 4
    hcube_module.need()
    print("TAP version 13")
    kids = [subprocess.Popen(["sleep", "1000"]) for _ in range(6)]
    try:
        subprocess.run([HCUBECTL, "task", "del", "--all"], capture_output=True)
        subprocess.run([HCUBECTL, "topology", "set", "cpu"], capture_output=True)
        p = subprocess.run(ynl_args() + ["--list-ops"], capture_output=True, text=True)
        check(p.returncode == 0 and "rebalance" in p.stdout,
              "the CLI loads the spec with the kernel's schema and lists its ops")

        cube, err = ynl_cli("cube-get")
        show = hcubectl("show")
        check(cube is not None and cube.get("dim") == show["dim"] and
              cube.get("nvertices") == show["nvertices"] and cube.get("mode") == "cpu" and
              cube.get("generation") == show["generation"],
              "cube-get: mode, dim, vertices and generation as hcubectl shows them %s" %
              (err or ""))
        ctrl = cube.get("controllers") if cube else None
        check(isinstance(ctrl, list) and all(isinstance(c, int) for c in ctrl) and
              ctrl == show["controllers"],
              "cube-get: controllers decoded as a list of numbers (sub-type u16): %s" % ctrl)

        verts, err = ynl("vertex-get", dump=True)
        got = sorted((v["vertex"]["id"], v["vertex"]["cpus"], v["vertex"]["load"])
                     for v in verts or [])
        want = sorted((v["id"], v["cpus"], v["load"]) for v in show["vertices"])
        check(got == want, "vertex-get dump: every vertex, cpus and load as hcubectl shows")
        one, err = ynl("vertex-get", {"vertex-id": 1}, dump=True)
        check(one is not None and [v["vertex"]["id"] for v in one] == [1],
              "vertex-get dump with vertex-id 1: that vertex only %s" % (err or ""))
        _, err = ynl("vertex-get", {"vertex-id": 1023}, dump=True)
        check(err is not None and "Numerical result out of range" in err,
              "vertex-get dump of a vertex the cube does not have: ERANGE")

        pids = [k.pid for k in kids]
        rep, err = ynl("task-add", {"pid": pids, "vertex-id": 0})
        check(rep is not None and rep.get("nregistered") == len(pids) and
              sorted(t["pid"] for t in rep.get("task", [])) == sorted(pids),
              "task-add of 6 processes: counted, one task nest each %s" % (err or ""))
        tasks, err = ynl("task-get", dump=True)
        # task is multi-attr: a list of nests in each message of the dump
        check(sorted(x["pid"] for t in tasks or [] for x in t["task"]) ==
              sorted(t["pid"] for t in hcubectl("task", "list")),
              "task-get dump: the tasks hcubectl lists")

        # a subscriber to the events, for what follows: the CLI's library
        sys.path.insert(0, os.path.dirname(CLI))
        from lib import YnlFamily
        sub = YnlFamily(SPEC, SCHEMA)
        sub.ntf_subscribe("events")

        dry, err = ynl("rebalance", {"policy": "mcwa", "dry-run": True})
        want = hcubectl("rebalance", "--dry-run", "--policy", "mcwa")
        got = transfers_of(dry or {})
        check(dry is not None and got == [(t["step"], t["from"], t["to"], t["count"])
                                          for t in want["transfers"]] and
              len(got) == dry.get("ntransfers") and len(got) > 1,
              "rebalance dry run: %d transfers, each a nest, as hcubectl's" % len(got))
        check(dry is not None and dry.get("loads-before") == want["loads_before"],
              "rebalance dry run: loads decoded as numbers (sub-type u32)")
        moved, err = ynl("rebalance", {"policy": "mcwa"})
        check(moved is not None and moved.get("moved", 0) > 0, "rebalance: tasks moved %s" %
              (err or ""))
        last, err = ynl("rebalance", dump=True)
        check(last is not None and [x for m in last for x in transfers_of(m)] == got and
              last[0].get("ntransfers") == len(got),
              "rebalance dump: the last rebalance's transfers, as its reply's %s" % (err or ""))
        again, err = ynl("rebalance", {"policy": "mcwa"})
        check(again is not None and again.get("ntransfers") == 0 and
              "transfer" not in again,
              "a rebalance of a balanced cube: no transfer attribute, decoded %s" % (err or ""))

        errtext = ""
        try:
            sub.check_ntf()
        except Exception as e:	# the decoder raising is the failure to see
            errtext = repr(e)[:200]
        reports = [m["msg"] for m in sub.async_msg_queue if m.get("name") == "rebalance-ntf"]
        # the move and the balanced one: the dry runs (YNL's, hcubectl's) send none
        check(len(reports) == 2 and transfers_of(reports[0]) == got and
              len(transfers_of(reports[1])) == 0 and
              all(isinstance(r.get("loads-after"), list) for r in reports),
              "events: %d reports decoded, none of a dry run, their transfers as the "
              "replies' (the last none) %s" % (len(reports), errtext))

        cfg, _ = ynl("config-get")
        _, err = ynl("config-set", {"config": {"auto": 1}})
        now = hcubectl("config", "show")
        check(err is None and now["auto"] is True, "config-set auto 1 (a u32): hcubectl "
              "shows auto on %s" % (err or ""))
        _, err = ynl("config-set", {"config": {"auto": 2}})
        check(err is not None and "Numerical result out of range" in err,
              "config-set auto 2: ERANGE")
        ynl("config-set", {"config": {"auto": cfg["config"]["auto"] if cfg else 0}})
        got, _ = ynl("config-get")
        check(got is not None and isinstance(got["config"]["auto"], int),
              "config-get: auto decoded as a number")

        _, err = ynl("fault-add", {"vertex-id": 999})
        check(err is not None and "Numerical result out of range" in err and
              "HCUBE_A_VERTEX_ID" in err,
              "fault-add of vertex 999: ERANGE, the extended ack names the attribute")

        stats, err = ynl("stats-get")
        hs = hcubectl("stats")
        check(stats is not None and
              {k.replace("-", "_"): v for k, v in stats["stats"].items() if k != "pad"}
              .keys() == hs.keys(),
              "stats-get: every counter hcubectl shows %s" % (err or ""))

        subprocess.run([HCUBECTL, "task", "del", "--all"], capture_output=True)
        ncpu = os.cpu_count()
        groups = ["%d-%d" % (c, c + 1) for c in range(0, ncpu - ncpu % 2, 2)]
        _, err = ynl("topo-set", {"mode": "custom", "group": groups})
        cube, _ = ynl("cube-get")
        check(err is None and cube and cube["mode"] == "custom" and
              hcubectl("show")["vertices"][1]["cpus"] == groups[1],
              "topo-set custom of %d string groups: the vertices hcubectl shows %s" %
              (len(groups), err or ""))
        subprocess.run([HCUBECTL, "topology", "set", "cpu"], capture_output=True)
    finally:
        subprocess.run([HCUBECTL, "task", "del", "--all"], capture_output=True)
        subprocess.run([HCUBECTL, "topology", "set", "cpu"], capture_output=True)
        for k in kids:
            k.send_signal(signal.SIGKILL)
            k.wait()
    print("1..%d" % n)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
