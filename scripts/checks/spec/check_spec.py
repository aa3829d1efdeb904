#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check Documentation/netlink/specs/hcube.yaml against uapi/linux/hcube.h.

The header is generated from the spec (scripts/hcube-ynl-gen.py; make
check-gen compares it with a fresh generation). This check derives the C
names again, independently, by the kernel's YNL naming rules: every
constant, enum entry, attribute and command of the spec must exist in the
header with the same value (checked by the C compiler with static asserts,
so the header must also compile on its own), and every member of the
header's enums must be in the spec. A const with a `header`, and a bound
Documentation/netlink/hcube-gen.yaml writes as a kernel constant
(PID_MAX_LIMIT), are the kernel's own and must not be in the uAPI. Prints
TAP; exit status 1 on any difference.
"""
import os
import re
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.."))
SPEC = os.path.join(ROOT, "Documentation/netlink/specs/hcube.yaml")
HDR = os.path.join(ROOT, "uapi/linux/hcube.h")
GEN = os.path.join(ROOT, "Documentation/netlink/hcube-gen.yaml")


def cname(*parts):
    return "_".join(p for p in parts if p).upper().replace("-", "_")


def expected(spec):
    """(C name, value) pairs the spec defines, and the C enums it covers."""
    fam = spec["name"]
    names = []
    enums = {}
    kernel = []
    for d in spec.get("definitions", []):
        if d["type"] == "const" and "header" in d:
            kernel.append(cname(d.get("name-prefix", fam), d["name"]))
        elif d["type"] == "const":
            names.append((cname(d.get("name-prefix", fam), d["name"]), d["value"]))
        elif d["type"] == "enum":
            prefix = d.get("name-prefix", fam + "-" + d["name"] + "-")
            enum = d.get("enum-name", (fam + "_" + d["name"]).replace("-", "_"))
            value = 0
            members = []
            for e in d["entries"]:
                value = e.get("value", value)
                names.append((cname(prefix + e["name"]), value))
                members.append(cname(prefix + e["name"]))
                value += 1
            enums[enum] = members
    for s in spec["attribute-sets"]:
        prefix = s["name-prefix"]
        value = 1
        members = [cname(prefix + "unspec")]
        names.append((members[0], 0))
        for a in s["attributes"]:
            value = a.get("value", value)
            names.append((cname(prefix + a["name"]), value))
            members.append(cname(prefix + a["name"]))
            value += 1
        enums[s["enum-name"]] = members
    ops = spec["operations"]
    value = 1
    members = [cname(ops["name-prefix"] + "unspec")]
    names.append((members[0], 0))
    for o in ops["list"]:
        value = o.get("value", value)
        names.append((cname(ops["name-prefix"] + o["name"]), value))
        members.append(cname(ops["name-prefix"] + o["name"]))
        value += 1
    enums[ops["enum-name"]] = members
    return names, enums, kernel


def header_enums(text):
    out = {}
    for m in re.finditer(r"enum\s+(\w+)\s*\{(.*?)\};", text, re.S):
        body = re.sub(r"/\*.*?\*/", "", m.group(2), flags=re.S)
        members = [x.split("=")[0].strip() for x in body.split(",")]
        # the rendered maximum (__X_MAX, X_MAX = __X_MAX - 1) is not in specs
        out[m.group(1)] = [x for x in members if x and not x.endswith("_MAX")]
    return out


def main():
    spec = yaml.safe_load(open(SPEC))
    text = open(HDR).read()
    names, enums, kernel = expected(spec)
    kernel += [b["name"] for b in yaml.safe_load(open(GEN)).get("kernel-bounds", {}).values()]
    n = 0
    fails = 0
    print("TAP version 13")

    src = ["#include <linux/hcube.h>"]
    for c, v in names:
        src.append('_Static_assert(%s == %d, "%s");' % (c, v, c))
    src.append('_Static_assert(sizeof(HCUBE_FAMILY_NAME) == sizeof("%s"), "family");'
               % spec["name"])
    with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as f:
        f.write("\n".join(src) + "\n")
        cfile = f.name
    r = subprocess.run(["cc", "-fsyntax-only", "-I", os.path.join(ROOT, "uapi"), cfile],
                       capture_output=True, text=True)
    os.unlink(cfile)
    n += 1
    if r.returncode == 0:
        print("ok %d spec names and values match the header (%d checked)" % (n, len(names)))
    else:
        fails += 1
        print("not ok %d spec names and values match the header" % n)
        for line in r.stderr.splitlines():
            print("# " + line)

    hdr = header_enums(text)
    for enum, members in sorted(enums.items()):
        n += 1
        got = hdr.get(enum)
        if got is None:
            fails += 1
            print("not ok %d enum %s is in the header" % (n, enum))
        elif got != members:
            fails += 1
            print("not ok %d enum %s: header %s, spec %s" % (n, enum, got, members))
        else:
            print("ok %d enum %s: %d members in the same order" % (n, enum, len(members)))
    for enum in sorted(set(hdr) - set(enums)):
        n += 1
        fails += 1
        print("not ok %d header enum %s is missing from the spec" % (n, enum))

    n += 1
    code = re.sub(r"/\*.*?\*/", "", text, flags=re.S)	# a comment may name them
    found = [k for k in kernel if re.search(r"\b%s\b" % k, code)]
    if found:
        fails += 1
        print("not ok %d kernel constants stay out of the uAPI: %s" % (n, " ".join(found)))
    else:
        print("ok %d kernel constants stay out of the uAPI (%s)" % (n, " ".join(kernel)))

    groups = [g["name"] for g in spec["mcast-groups"]["list"]]
    n += 1
    if groups == [re.search(r'HCUBE_MCGRP_EVENTS\s+"(\w+)"', text).group(1)]:
        print("ok %d multicast groups match" % n)
    else:
        fails += 1
        print("not ok %d multicast groups: spec %s" % (n, groups))
    print("1..%d" % n)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
