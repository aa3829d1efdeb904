#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The spec read by the kernel's own YNL library, with the kernel's schema.

Usage: check_kernel_ynl.py YNL_DIR

YNL_DIR holds tools/net/ynl and Documentation/netlink of a kernel source
tree (`make ynl` extracts them from Debian's linux-source-6.12). The
library validates Documentation/netlink/specs/hcube.yaml against the
schema of the protocol it declares (with python3-jsonschema) and resolves
it as the kernel's YNL CLI does before it talks to the module; the VM test
selftests/hcube/ynl_test.py then drives the module with that CLI. A copy
of the spec with a fault planted must be refused, so that the check can
fail. Prints TAP.
"""
import copy
import os
import sys
import tempfile

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.."))
SPEC = os.path.join(ROOT, "Documentation/netlink/specs/hcube.yaml")

n = fails = 0


def ok(cond, what):
    global n, fails
    n += 1
    fails += not cond
    print("%s %d %s" % ("ok" if cond else "not ok", n, what))


def load(ynl, spec_path):
    """SpecFamily of @spec_path with the kernel's schema: None or the error."""
    from lib import SpecFamily

    schema = os.path.join(ynl, "Documentation/netlink/%s.yaml" %
                          yaml.safe_load(open(spec_path)).get("protocol", "genetlink"))
    try:
        return SpecFamily(spec_path, schema), None
    except Exception as e:	# jsonschema's ValidationError, or a resolution error
        return None, e


def main(argv):
    if len(argv) != 1 or not os.path.isdir(os.path.join(argv[0], "tools/net/ynl/lib")):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    ynl = argv[0]
    sys.path.insert(0, os.path.join(ynl, "tools/net/ynl"))
    fam, err = load(ynl, SPEC)
    ok(fam is not None, "the kernel's YNL library loads the spec, valid against %s.yaml%s"
       % (yaml.safe_load(open(SPEC))["protocol"], "" if fam else ": %s" % str(err)[:300]))
    if fam:
        spec = yaml.safe_load(open(SPEC))
        ops = [o["name"] for o in spec["operations"]["list"]]
        ok(list(fam.msgs) == ops, "its messages are the spec's %d operations" % len(ops))
        ok(list(fam.mcast_groups) == ["events"], "its multicast group: events")
    with open(SPEC) as f:
        text = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, "hcube.yaml")
        spec = yaml.safe_load(text)
        planted = copy.deepcopy(spec)
        for s in planted["attribute-sets"]:
            for a in s["attributes"]:
                if a["name"] == "group":
                    a["type"] = "nul-string"
        with open(bad, "w") as f:
            f.write(text.splitlines()[0] + "\n" + yaml.safe_dump(planted, sort_keys=False))
        fam, err = load(ynl, bad)
        ok(fam is None, "a copy with a type the schema does not have is refused (%s)"
           % (str(err).splitlines()[0][:120] if err else "accepted"))
    print("1..%d" % n)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
