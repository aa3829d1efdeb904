#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The documentation against itself and against the code (make check-docs).

- The man pages format without a warning: groff -man -ww, and man -l.
- Documentation/admin-guide/hcube.rst and Documentation/netlink/hcube-ynl-gen.rst
  parse with docutils without a warning.
- hcubectl(8) against hcubectl's --help, both ways: the SYNOPSIS has the
  commands and subcommands of --help and no other; OPTIONS the options of
  `hcubectl --help` and no other; each command's item of COMMANDS the
  options of its --help and no other (-j, -p, -h apart); it names every
  policy and configuration key, the vertex states, the counters under
  stats, and in FILES the module parameters that /sys shows.
  hcube-sim(1) has every command and option of `hcube-sim ... --help`.
- The admin guide names every module parameter (module/hcube_main.c; those
  not in /sys as for tests only), tracepoint and each of its fields
  (module/hcube_trace.h), counter and policy (uapi/linux/hcube.h),
  notification (the YNL spec) and vertex state (its Vertex states are the
  spec's); tools/hcubectl/README.md lists the spec's names of the enums.
- The admin guide's blocks of real output are marked (".. hcube-output:
  NAME", guide_blocks.py), no unmarked block looks like output, and
  scripts/admin-session-in-vm.sh captures every marked block (make
  check-guide compares them, in the VM).
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

sys.dont_write_bytecode = True	# no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import guide_blocks  # noqa: E402
from tap import end, ok, todo  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.."))
B = os.path.join(ROOT, sys.argv[1] if len(sys.argv) > 1 else "build")
MAN8 = os.path.join(ROOT, "Documentation/man/hcubectl.8")
MAN1 = os.path.join(ROOT, "Documentation/man/hcube-sim.1")
GUIDE = os.path.join(ROOT, "Documentation/admin-guide/hcube.rst")
YNL_GEN = os.path.join(ROOT, "Documentation/netlink/hcube-ynl-gen.rst")

def run(*cmd, env=None):
    r = subprocess.run(cmd, capture_output=True, text=True,
                       env=dict(os.environ, **(env or {})))
    return r.returncode, r.stdout, r.stderr


# Names the uAPI has and the admin guide does not describe yet: its owner
# adds them (a TAP TODO until then, listed but not failing). Anything else
# missing fails.
GUIDE_PENDING = {}


def rendered(page):
    """The man page as text, without formatting."""
    rc, out, err = run("man", "-l", page, env={"MANWIDTH": "200", "MAN_KEEP_FORMATTING": "",
                                               "MANROFFOPT": "-rHY=0"})	# no hyphenation
    return re.sub(".\b", "", out)


def options(text):
    """Long and short options in a --help text (and ip's -batch)."""
    return set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z]|-batch)\b", text))


# hcubectl's own options, which OPTIONS describes rather than each command
GLOBAL_OPTS = {"-j", "--json", "-p", "--pretty", "-h", "--help"}


def man_section(text, name):
    """A section of a rendered man page, without its heading."""
    m = re.search(r"^%s\n(.*?)(?=^[A-Z][A-Z ]+\n|\Z)" % name, text, re.M | re.S)
    return m.group(1) if m else ""


def man_items(section):
    """The (tag, body) of each .TP item of a rendered section: a tag at the
    section's indentation, its body indented further (or after the tag on
    the same line, past two blanks)."""
    items = []
    for line in section.split("\n"):
        m = re.match(r"^ {7}(\S.*?)(?: {2,}(\S.*))?$", line)
        if m:
            items.append([m.group(1), m.group(2) or ""])
        elif items:
            items[-1][1] += "\n" + line
    return items


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

    # hcubectl(8) against hcubectl's --help, both ways
    hc = os.path.join(B, "hcubectl")
    man8 = rendered(MAN8)
    _, top, _ = run(hc, "--help")
    commands = re.findall(r"^  (\w+)\s", top.split("commands:")[1].split("\n\n")[0], re.M)
    helps = {c: run(hc, c, "--help")[1] for c in commands}
    # the subcommands: the word after the command in its synopsis lines
    paths = []
    for c in commands:
        subs = re.findall(r"^(?:usage:)? +hcubectl \[-j\] \[-p\] %s ([a-z]+)\b" % c,
                          helps[c], re.M)
        paths += ["%s %s" % (c, s) for s in dict.fromkeys(subs)] or [c]
    for path in paths:
        if path not in helps:
            helps[path] = run(hc, *path.split(), "--help")[1]
    synopsis = man_section(man8, "SYNOPSIS")
    # "hcubectl task add ...", "hcubectl fault add|del ...": the command,
    # and its subcommands when --help says it has some
    man_paths = set()
    for m in re.finditer(r"^\s*hcubectl ([a-z]+)(?: ([a-z]+(?:\|[a-z]+)*))?", synopsis, re.M):
        c, subs = m.group(1), (m.group(2) or "").split("|")
        has_subs = any(q.startswith(c + " ") for q in paths)
        man_paths |= {"%s %s" % (c, s) for s in subs} if has_subs else {c}
    missing = [p for p in paths if p not in man_paths]
    extra = sorted(p for p in man_paths if p not in paths)
    ok(commands and not missing and not extra,
       "hcubectl(8) SYNOPSIS has the %d commands of hcubectl --help (%s), and no other"
       % (len(paths), ", ".join(paths)),
       ["not in the SYNOPSIS: " + ", ".join(missing), "not in --help: " + ", ".join(extra)])
    want = options(top.split("\noptions")[1].split("\n\n")[0])
    have = options(man_section(man8, "OPTIONS"))
    ok(want and want == have, "hcubectl(8) OPTIONS has the %d options of hcubectl --help, "
       "and no other" % len(want), ["not in OPTIONS: " + " ".join(sorted(want - have)),
                                    "not in --help: " + " ".join(sorted(have - want))])
    # each command's options, in its item of COMMANDS (-j, -p, -h are OPTIONS')
    items = {}
    for tag, body in man_items(man_section(man8, "COMMANDS")):
        words = re.findall(r"[a-z]+(?:\|[a-z]+)*", tag)
        if not words or words[0] not in commands:
            continue
        subs = words[1].split("|") if len(words) > 1 and any(
            q.startswith(words[0] + " ") for q in paths) else [""]
        for s in subs:
            key = ("%s %s" % (words[0], s)).strip()
            items[key] = items.get(key, "") + tag + "\n" + body
    for path in paths:
        want = options(helps[path]) - GLOBAL_OPTS
        have = options(items.get(path, "")) - GLOBAL_OPTS
        ok(path in items and want == have,
           "hcubectl(8) describes %s with the options of its --help: %s" %
           (path, " ".join(sorted(want)) or "none"),
           ["no item in COMMANDS" for _ in [path] if path not in items] +
           ["not in hcubectl(8): " + " ".join(sorted(want - have)),
            "not in --help: " + " ".join(sorted(have - want))])
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
    counters = [m.lower() for m in re.findall(r"HCUBE_A_STATS_(\w+),",
                                              body("hcube_stats_attr"))
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

    # what the guide, hcubectl(8) and tools/hcubectl/README.md list, against
    # the names the spec gives (tools/hcubectl/names_gen.c)
    names_c = open(os.path.join(ROOT, "tools/hcubectl/names_gen.c")).read()
    gen = {m.group(1): re.findall(r'\] = "([^"]+)"', m.group(2)) for m in
           re.finditer(r"hc_(\w+)_names\[[^]]*\] = \{(.*?)\};", names_c, re.S)}
    states = gen.get("vertex_state", [])
    sect = re.search(r"^Vertex states\n-+\n(.*?)^\S[^\n]*\n-+\n", src, re.M | re.S)
    listed = re.findall(r"^``([a-z]+)``\n  ", sect.group(1) if sect else "", re.M)
    ok(states and sorted(listed) == sorted(states),
       "the admin guide's Vertex states are the %d of the spec: %s" % (len(states), " ".join(states)),
       ["the guide lists: " + " ".join(listed)])
    desc = man_section(man8, "DESCRIPTION")
    para = re.search(r"A vertex is (.*?)\n\n", desc, re.S)
    named = [x for x in states if para and re.search(r"\b%s\b" % x, para.group(1))]
    ok(states and named == states, "hcubectl(8) names the %d vertex states" % len(states),
       ["missing: " + " ".join(x for x in states if x not in named)])
    readme = " ".join(open(os.path.join(ROOT, "tools/hcubectl/README.md")).read().split())
    for what, key in (("modes", "mode"), ("vertex states", "vertex_state"),
                      ("policies", "policy"), ("task states", "task_state"),
                      ("reasons", "reason"), ("units", "unit")):
        m = re.search(r"\b%s `([^`]*)`" % what, readme)
        have = m.group(1).split() if m else []
        ok(gen.get(key) and have == gen[key],
           "tools/hcubectl/README.md lists the %s of the spec: %s" % (what, " ".join(gen.get(key, []))),
           ["it lists: " + " ".join(have)])

    # the tracepoints' fields, in the guide's description of each
    trace_h = open(os.path.join(ROOT, "module/hcube_trace.h")).read()
    for ev, fmt in re.findall(r"TRACE_EVENT\((\w+),.*?TP_printk\(\"([^\"]*)\"", trace_h, re.S):
        fields = re.findall(r"(\w+)=%", fmt)
        item = re.search(r"^``%s``\n((?:  .*\n)+)" % ev, src, re.M)
        missing = [f for f in fields if not item or "``%s``" % f not in item.group(1)]
        ok(fields and not missing, "the admin guide describes the fields of %s: %s" %
           (ev, " ".join(fields)), ["missing: " + " ".join(missing)])

    # module parameters: those in /sys (permissions not 0) in hcubectl(8)'s
    # FILES; the others, for tests, said to be so in the guide
    perms = re.findall(r"module_param\((\w+),\s*\w+,\s*(\w+)\)", main_c)
    visible = [p for p, perm in perms if perm != "0"]
    hidden = [p for p, perm in perms if perm == "0"]
    files = dict(man_items(man_section(man8, "FILES"))).get("/sys/module/hcube/parameters/", "")
    named = [p for p in visible if re.search(r"\b%s\b" % p, files)]
    ok(visible and named == visible and all(not re.search(r"\b%s\b" % p, files) or
                                           "tests only" in " ".join(files.split())
                                           for p in hidden),
       "hcubectl(8) FILES names the %d module parameters in /sys: %s" %
       (len(visible), " ".join(visible)), ["missing: " + " ".join(x for x in visible if x not in named)])
    item = re.search(r"^``%s``.*\n((?:  .*\n)+)" % "``, ``".join(hidden), src, re.M)
    ok(not hidden or (item and "tests only" in item.group(0)),
       "the admin guide says the parameters %s are for tests only" % " ".join(hidden))

    # hcubectl(8)'s stats names every counter
    stats = dict(man_items(man_section(man8, "COMMANDS"))).get("stats", "")
    missing = [c for c in counters if not re.search(r"\b%s\b" % c, stats)]
    ok(stats and not missing, "hcubectl(8) names the %d counters under stats" % len(counters),
       ["missing: " + " ".join(missing)])

    # the guide's real output is marked, and scripts/admin-session-in-vm.sh
    # captures each marked block (make check-guide compares them)
    blocks, errors = guide_blocks.blocks(GUIDE)
    names = [b.name for b in blocks if b.kind == "output"]
    dups = sorted({x for x in names if names.count(x) > 1})
    ok(names and not errors and not dups, "the admin guide's %d hcube-output marks are well "
       "placed, each name once" % len(names), errors + ["twice: " + " ".join(dups)])
    loose = ["line %d: %s" % (b.line, b.text.split("\n")[0]) for b in blocks
             if b.kind is None and guide_blocks.looks_like_output(b.text)]
    ok(not loose, "every block of the admin guide that shows output is marked "
       "(hcube-output or hcube-sample)", loose)
    script = open(os.path.join(ROOT, "scripts/admin-session-in-vm.sh")).read()
    sections = re.findall(r"^\s*section (\S+)$", script, re.M)
    ok(sections and sorted(sections) == sorted(names),
       "scripts/admin-session-in-vm.sh captures the guide's %d marked blocks" % len(names),
       ["not captured: " + " ".join(x for x in names if x not in sections),
        "captured, not marked in the guide: " + " ".join(x for x in sections if x not in names)])

    # links and cited paths
    readme = open(os.path.join(ROOT, "README.md")).read()
    links = [l for l in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme) if "://" not in l]
    cited = set(re.findall(r"(?<![\w/.])((?:Documentation|selftests|scripts|tools|module|uapi)/[\w./-]*\w)",
                           src + open(MAN8).read().replace("\\-", "-") +
                           open(MAN1).read().replace("\\-", "-")))
    missing = [p for p in links + sorted(cited) if not os.path.exists(os.path.join(ROOT, p))]
    ok(links and not missing, "the %d links of README.md and %d paths cited in the guide and "
       "man pages exist" % (len(links), len(cited)), ["missing: " + " ".join(missing)])

    return end("check-docs")


if __name__ == "__main__":
    sys.exit(main())
