#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The documentation against itself and against the code (make check-docs).

- The man pages format without a warning: groff -man -ww, and man -l.
- Documentation/admin-guide/hcube.rst and Documentation/netlink/hcube-ynl-gen.rst
  parse with docutils without a warning.
- hcubectl(8) names every command, option, policy and configuration key
  that `hcubectl --help` and the commands' --help list; hcube-sim(1) every
  command and option of `hcube-sim ... --help`.
- The admin guide names every module parameter (module/hcube_main.c),
  tracepoint (module/hcube_trace.h), counter and policy (uapi/linux/hcube.h)
  and notification (the YNL spec).
- The files that README.md links to, and the paths the admin guide and the
  man pages cite, exist.

Prints TAP; exit status 1 on any failure.
Usage: check_docs.py [BUILD_DIR]
"""
import os
import re
import subprocess
import sys

import docutils.core
import docutils.utils
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
B = os.path.join(ROOT, sys.argv[1] if len(sys.argv) > 1 else "build")
MAN8 = os.path.join(ROOT, "Documentation/man/hcubectl.8")
MAN1 = os.path.join(ROOT, "Documentation/man/hcube-sim.1")
GUIDE = os.path.join(ROOT, "Documentation/admin-guide/hcube.rst")
YNL_GEN = os.path.join(ROOT, "Documentation/netlink/hcube-ynl-gen.rst")

n = 0
fails = 0


def ok(cond, name, why=()):
    global n, fails
    n += 1
    print("%s %d %s" % ("ok" if cond else "not ok", n, name))
    if not cond:
        fails += 1
        for w in why:
            print("#   " + w)


def run(*cmd, env=None):
    r = subprocess.run(cmd, capture_output=True, text=True,
                       env=dict(os.environ, **(env or {})))
    return r.returncode, r.stdout, r.stderr


# Names the uAPI has and the admin guide does not describe yet: its owner
# adds them (a TAP TODO until then, listed but not failing). Anything else
# missing fails.
GUIDE_PENDING = {}


def todo(name, why):
    global n
    n += 1
    print("not ok %d %s # TODO %s" % (n, name, why))


def rendered(page):
    """The man page as text, without formatting."""
    rc, out, err = run("man", "-l", page, env={"MANWIDTH": "200", "MAN_KEEP_FORMATTING": ""})
    return re.sub(".\b", "", out)


def options(text):
    """Long and short options in a --help text."""
    return set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z])\b", text))


def main():
    print("TAP version 13")
    for page in (MAN8, MAN1):
        name = os.path.relpath(page, ROOT)
        rc, _, err = run("groff", "-man", "-Tutf8", "-ww", "-z", page)
        ok(rc == 0 and not err.strip(), "groff -man -ww %s: no warning" % name,
           err.splitlines()[:10])
        rc, out, err = run("man", "--warnings", "-l", page, env={"MANWIDTH": "80"})
        ok(rc == 0 and not err.strip() and "NAME" in out,
           "man --warnings -l %s: no warning" % name, err.splitlines()[:10])

    for page in (GUIDE, YNL_GEN):
        why = []
        try:
            docutils.core.publish_doctree(open(page).read(), source_path=page,
                                          settings_overrides={
                                              "halt_level": 2, "report_level": 2,
                                              "warning_stream": False})
        except docutils.utils.SystemMessage as e:
            why.append(str(e))
        ok(not why, "docutils parses %s without a warning" % os.path.relpath(page, ROOT), why)
    src = open(GUIDE).read()

    # hcubectl(8) against hcubectl's --help
    hc = os.path.join(B, "hcubectl")
    man8 = rendered(MAN8)
    _, top, _ = run(hc, "--help")
    commands = re.findall(r"^  (\w+)\s", top.split("commands:")[1].split("\n\n")[0], re.M)
    missing = [c for c in commands + ["help"]
               if not re.search(r"^\s*hcubectl %s\b" % c, man8, re.M)]
    ok(commands and not missing, "hcubectl(8) SYNOPSIS has the %d commands of hcubectl --help"
       % len(commands), ["missing: " + " ".join(missing)] if missing else ["no commands?"])
    helps = {c: run(hc, c, "--help")[1] for c in commands}
    for sub in ("task add", "task del", "task list", "config set", "topology set"):
        helps[sub] = run(hc, *sub.split(), "--help")[1]
    opts = options(top)
    for text in helps.values():
        opts |= options(text)
    missing = sorted(o for o in opts if not re.search(r"(?<![\w-])%s\b" % re.escape(o), man8))
    ok(not missing, "hcubectl(8) has the %d options of the --help texts" % len(opts),
       ["missing: " + " ".join(missing)])
    pol = re.search(r"--policy ([a-z0-9|-]+)", helps["rebalance"])
    policies = pol.group(1).split("|") if pol else []
    keys = re.findall(r"^  ([a-z_]+)\s{2,}", helps["config"], re.M)
    missing = [w for w in policies + keys if not re.search(r"\b%s\b" % w, man8)]
    ok(policies and keys and not missing,
       "hcubectl(8) names the policies (%s) and config keys (%s)" %
       (" ".join(policies), " ".join(keys)), ["missing: " + " ".join(missing)])

    # hcube-sim(1) against hcube-sim's --help
    sim = os.path.join(B, "hcube-sim")
    man1 = rendered(MAN1)
    _, top, _ = run(sim, "--help")
    commands = re.findall(r"^  (\w+)\s", top.split("commands:")[1], re.M)
    missing = [c for c in commands if not re.search(r"^\s*hcube-sim %s\b" % c, man1, re.M)]
    ok(commands and not missing, "hcube-sim(1) SYNOPSIS has the %d commands of hcube-sim --help"
       % len(commands), ["missing: " + " ".join(missing)] if missing else ["no commands?"])
    opts = set()
    for c in commands:
        opts |= {o for o in options(run(sim, c, "--help")[1]) if o.startswith("--")}
    missing = sorted(o for o in opts if not re.search(r"(?<![\w-])%s\b" % re.escape(o), man1))
    ok(not missing, "hcube-sim(1) has the %d long options of the commands' --help" % len(opts),
       ["missing: " + " ".join(missing)])
    pols = set()
    for c in commands:
        m = re.search(r"Policies: ([^.]*?)(?:;|\.| default)", run(sim, c, "--help")[1].replace("\n", " "))
        if m:
            pols |= set(re.findall(r"\b([a-z][a-z-]*[a-z])\b(?: \([^)]*\))?,?", m.group(1)))
    missing = sorted(p for p in pols if not re.search(r"\b%s\b" % re.escape(p), man1))
    ok(pols and not missing, "hcube-sim(1) names the simulator's policies (%s)" %
       " ".join(sorted(pols)), ["missing: " + " ".join(missing)])

    # the admin guide against the sources
    main_c = open(os.path.join(ROOT, "module/hcube_main.c")).read()
    params = re.findall(r"module_param\((\w+),", main_c) + \
        re.findall(r"module_param_named\((\w+),", main_c)
    trace = re.findall(r"TRACE_EVENT\((\w+),", open(os.path.join(ROOT, "module/hcube_trace.h")).read())
    hdr = open(os.path.join(ROOT, "uapi/linux/hcube.h")).read()
    body = lambda e: re.search(r"enum %s \{(.*?)\};" % e, hdr, re.S).group(1)
    counters = [m.lower() for m in re.findall(r"HCUBE_S_A_(\w+),", body("hcube_stats_attr"))
                if m not in ("UNSPEC", "PAD", "MAX")]
    # as users write them: sbn-cube, not sbn_cube
    upolicies = [m.lower().replace("_", "-")
                 for m in re.findall(r"HCUBE_POLICY_(\w+),", body("hcube_policy"))
                 if not m.endswith("MAX")]
    spec = yaml.safe_load(open(os.path.join(ROOT, "Documentation/netlink/specs/hcube.yaml")))
    events = [o["name"][:-4] for o in spec["operations"]["list"] if "event" in o]
    events = ["topology" if e == "topo" else e for e in events]
    for what, names, pat in (("module parameters", params, r"``%s``"),
                             ("tracepoints", trace, r"``%s``"),
                             ("counters", counters, r"^%s\s"),
                             ("policies", upolicies, r"^(?:``[\w-]+``, )*``%s``(?:[ ,]|$)"),
                             ("events", events, r"^%s\s")):
        missing = [x for x in names if not re.search(pat % re.escape(x), src, re.M)]
        pending = [x for x in missing if x in GUIDE_PENDING.get(what, ())]
        missing = [x for x in missing if x not in pending]
        ok(names and not missing, "the admin guide describes the %s: %s" % (what, " ".join(names)),
           ["missing: " + " ".join(missing)])
        if pending:
            todo("the admin guide describes the %s: %s" % (what, " ".join(pending)),
                 "Documentation/admin-guide/hcube.rst is to document them")

    # links and cited paths
    readme = open(os.path.join(ROOT, "README.md")).read()
    links = [l for l in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme) if "://" not in l]
    cited = set(re.findall(r"(?<![\w/.])((?:Documentation|selftests|scripts|tools|module|uapi)/[\w./-]*\w)",
                           src + open(MAN8).read().replace("\\-", "-") +
                           open(MAN1).read().replace("\\-", "-")))
    missing = [p for p in links + sorted(cited) if not os.path.exists(os.path.join(ROOT, p))]
    ok(links and not missing, "the %d links of README.md and %d paths cited in the guide and "
       "man pages exist" % (len(links), len(cited)), ["missing: " + " ".join(missing)])

    print("1..%d" % n)
    print("# check-docs: %d passed, %d failed" % (n - fails, fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
