#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The admin guide's real output against the program's (make check-guide).

CAPTURE... is what scripts/admin-session-in-vm.sh printed in the VM (its
"session" and "isolation" parts). Every block that
Documentation/admin-guide/hcube.rst marks ".. hcube-output: NAME" must be
the capture's block NAME, and every captured block must be in the guide.
hcubectl(8)'s example output (the lines of its .EX blocks that are not
commands) must be lines of the capture too.

Before the comparison, both sides are masked alike, and only for what
differs from one run to the next:

  - dmesg timestamps, "[    4.564260] " -> "[TIME] ";
  - durations: "duration 2.019 ms" (ns, us, ms or s) -> "duration TIME",
    "duration_ns=293620" -> "duration_ns=TIME";
  - pids: the pids of the capture are renamed, in the order each first
    appears, to those of the guide in the order each first appears
    ("pid N", "pid=N", "creator N", the PID and TGID columns of
    "task list"), so the guide keeps real numbers and the check keeps
    which pid is which: a trace line must name the task the guide's
    task list has on that vertex.

Trailing blanks are dropped (a literal block cannot keep them). Prints
TAP; exit status 1 on any failure.
Usage: check_guide.py CAPTURE...
"""
import difflib
import os
import re
import sys

sys.dont_write_bytecode = True	# no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import guide_blocks  # noqa: E402
from tap import end, ok, todo  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.."))
GUIDE = os.path.join(ROOT, "Documentation/admin-guide/hcube.rst")
MAN8 = os.path.join(ROOT, "Documentation/man/hcubectl.8")

# Counters of the uAPI that `hcubectl stats` does not show yet, and why: a
# TAP TODO until the module sends them, then a failure until removed here.
STATS_PENDING = {
}

TIMES = [
    (re.compile(r"^\[ *\d+\.\d+\] ", re.M), "[TIME] "),
    (re.compile(r"\bduration \d+(?:\.\d+)? (?:ns|us|ms|s)\b"), "duration TIME"),
    (re.compile(r"\bduration_ns=\d+\b"), "duration_ns=TIME"),
]
PID_AFTER = re.compile(r"\b(?:pid |pid=|creator )(\d+)\b")
TASK_ROW = re.compile(r"^(\d+)( +)(\d+)( )")


def pid_spans(text):
    """(start, end) of every pid in @text, in order."""
    spans = [m.span(1) for m in PID_AFTER.finditer(text)]
    table = False
    pos = 0
    for line in text.split("\n"):
        if line.startswith("PID ") and "TGID" in line:
            table = True
        elif table:
            m = TASK_ROW.match(line)
            if m:
                spans += [(pos + m.start(1), pos + m.end(1)),
                          (pos + m.start(3), pos + m.end(3))]
            else:
                table = False
        pos += len(line) + 1
    return sorted(spans)


def pids(text):
    return [text[a:b] for a, b in pid_spans(text)]


def rename_pids(text, names):
    """@text with each pid replaced by names[pid] ("PID?" if unknown)."""
    out, last = [], 0
    for a, b in pid_spans(text):
        out += [text[last:a], names.get(text[a:b], "PID?")]
        last = b
    out.append(text[last:])
    return "".join(out)


def mask_times(text):
    for pat, repl in TIMES:
        text = pat.sub(repl, text)
    return text


def first_seen(seq):
    seen = []
    for x in seq:
        if x not in seen:
            seen.append(x)
    return seen


def man_output_lines():
    """The lines of the .EX blocks of hcubectl(8)'s DIAGNOSTICS and EXAMPLES
    that show output (not a command, not a template in italics)."""
    lines, inside, section = [], False, ""
    for raw in open(MAN8):
        raw = raw.rstrip("\n")
        if raw.startswith(".SH "):
            section = raw[4:].strip('"')
        if section not in ("DIAGNOSTICS", "EXAMPLES"):
            continue
        if raw.startswith(".EX"):
            inside = True
            continue
        if raw.startswith(".EE") or (inside and raw.startswith(".") and
                                     not raw.startswith("\\")):
            inside = False
            continue
        if not inside or "\\f" in raw:
            continue	# a template in italics, not output
        text = (raw.replace("\\-", "-").replace("\\(aq", "'").replace("\\(dq", '"')
                .replace("\\e", "\\").replace("\\&", ""))
        if text.startswith("# ") or not text.strip():
            continue
        lines.append(text)
    return lines


def main():
    print("TAP version 13")
    if len(sys.argv) < 2:
        print("usage: check_guide.py CAPTURE...", file=sys.stderr)
        return 2
    cap = guide_blocks.capture(sys.argv[1:])
    blocks, errors = guide_blocks.blocks(GUIDE)
    ok(not errors, "the guide's hcube-output marks are well placed", errors)
    guide = {}
    for b in blocks:
        if b.kind == "output":
            guide.setdefault(b.name, b)
    ok(cap, "the capture has blocks: %s" % " ".join(cap))

    only_guide = [k for k in guide if k not in cap]
    only_cap = [k for k in cap if k not in guide]
    ok(not only_guide and not only_cap,
       "the guide's %d real-output blocks are the %d captured ones" % (len(guide), len(cap)),
       ["in the guide only: " + " ".join(only_guide),
        "captured only (mark their block in the guide): " + " ".join(only_cap)])

    # pids: the capture's renamed to the guide's, in the order each is seen
    names = [k for k in cap if k in guide]
    gp = first_seen(p for k in names for p in pids(guide[k].text))
    cp = first_seen(p for k in names for p in pids(cap[k]))
    ok(len(gp) == len(cp), "as many distinct pids in the guide's blocks as in the capture "
       "(%d, %d)" % (len(gp), len(cp)))
    pidmap = dict(zip(cp, gp))

    for k in names:
        want = mask_times(guide[k].text)
        got = mask_times(rename_pids(cap[k], pidmap))
        diff = list(difflib.unified_diff(want.split("\n"), got.split("\n"),
                                         "guide (line %d)" % guide[k].line, "program",
                                         lineterm="", n=1))
        ok(want == got, "hcube-output %s: the guide has the program's output" % k,
           diff[:40] + (["... %d more lines of diff" % (len(diff) - 40)] if len(diff) > 40 else []))

    # hcubectl(8)'s example output
    all_lines = set()
    for k in cap:
        all_lines |= set(mask_times(cap[k]).split("\n"))
    man = man_output_lines()
    missing = [l for l in man if mask_times(l) not in all_lines]
    ok(man and not missing, "hcubectl(8)'s %d lines of example output are the program's" % len(man),
       ["not in the capture: " + l for l in missing])

    # hcubectl stats shows every counter of the uAPI
    hdr = open(os.path.join(ROOT, "uapi/linux/hcube.h")).read()
    body = re.search(r"enum hcube_stats_attr \{(.*?)\};", hdr, re.S).group(1)
    counters = [m.lower() for m in re.findall(r"HCUBE_A_STATS_(\w+),", body)
                if m not in ("UNSPEC", "PAD", "MAX")]
    m = re.search(r"^# hcubectl stats\n(.*?)(?=^# |\Z)", cap.get("session-state", ""), re.S | re.M)
    shown = re.findall(r"^(\w+) +\d+$", m.group(1), re.M) if m else []
    missing = [c for c in counters if c not in shown]
    pending = [c for c in missing if c in STATS_PENDING]
    done = [c for c in STATS_PENDING if c in shown]
    ok(shown and not [c for c in missing if c not in pending] and not done,
       "hcubectl stats shows the %d counters of the uAPI (but %s)" %
       (len(counters), " ".join(sorted(STATS_PENDING)) or "none"),
       ["missing: " + " ".join(c for c in missing if c not in pending)] +
       ["shown now: remove %s from STATS_PENDING in %s" % (" ".join(done), __file__)
        for _ in done[:1]])
    for c in pending:
        todo("hcubectl stats shows %s" % c, STATS_PENDING[c])
    return end("check-guide")


if __name__ == "__main__":
    sys.exit(main())
