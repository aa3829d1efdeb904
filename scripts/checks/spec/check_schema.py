#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a YNL spec against the rules of the protocol it declares.

Usage: check_schema.py [--selftest] [SPEC]

SPEC (default Documentation/netlink/specs/hcube.yaml) must follow the
kernel's YNL format at the level its `protocol` names, genetlink or
genetlink-c, as the kernel's netlink documentation describes them
(Documentation/userspace-api/netlink/specs.rst and c-code-gen.rst): the
keys each part of a spec may have and must have, the type of each value,
the attribute and definition types, the forms of checks, the operation
flags. Written from that documentation, not from the kernel's schema files;
the kernel's own schema and YNL library check the same spec again where
linux-source-6.12 is installed (check_kernel_ynl.py).

Beyond the schema, what the kernel's YNL library resolves when it loads a
spec: every name a spec refers to (an enum, a nested attribute set, the
attribute set of an operation, the attributes of its messages, a multicast
group) exists.

--selftest: plants one fault of each kind the checker knows in a copy of
the spec and fails unless each copy is refused. Prints TAP.
"""
import copy
import os
import re
import sys

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.."))
SPEC = os.path.join(ROOT, "Documentation/netlink/specs/hcube.yaml")

ATTR_TYPES = ["unused", "pad", "flag", "binary", "bitfield32", "uint", "sint", "u8", "u16",
              "u32", "u64", "s32", "s64", "string", "nest", "indexed-array",
              "nest-type-value"]
HINTS = ["hex", "mac", "fddi", "ipv4", "ipv6", "uuid"]

# A check's min or max: a number, or a type's limit ("u32-max").
LIMIT = re.compile(r"^[su](8|16|32|64)-(min|max)$")
# A length: a number, or a constant's name, possibly "- 1".
LENGTH = re.compile(r"^[0-9A-Za-z_]+( - 1)?$")


def is_str(v):
    return isinstance(v, str)


def is_uint(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def is_bool(v):
    return isinstance(v, bool)


def one_of(*names):
    return lambda v: v in names


def limit(v):
    return is_uint(v) or (is_str(v) and bool(LIMIT.match(v)))


def length(v):
    return is_uint(v) or (is_str(v) and bool(LENGTH.match(v)))


def str_list(v):
    return isinstance(v, list) and all(is_str(x) for x in v)


def list_of(*names):
    return lambda v: isinstance(v, list) and all(x in names for x in v)


# The keys of each part: key -> (check of the value, or a part's name),
# which genetlink-c adds to genetlink, which are required.
PARTS = {
    "family": {
        "keys": {"name": is_str, "doc": is_str,
                 "protocol": one_of("genetlink", "genetlink-c"),
                 "uapi-header": is_str, "definitions": ["definition"],
                 "attribute-sets": ["attribute-set"], "operations": "operations",
                 "mcast-groups": "mcast-groups"},
        "c": {"c-family-name": is_str, "c-version-name": is_str, "max-by-define": is_bool,
              "cmd-max-name": is_str, "cmd-cnt-name": is_str},
        "required": ["name", "doc", "attribute-sets", "operations"],
    },
    "definition": {
        "keys": {"name": is_str, "header": is_str,
                 "type": one_of("const", "enum", "flags"), "doc": is_str,
                 "value": lambda v: is_str(v) or isinstance(v, int),
                 "value-start": lambda v: is_str(v) or isinstance(v, int),
                 "entries": ["entry"], "render-max": is_bool},
        "c": {"enum-name": lambda v: v is None or is_str(v), "name-prefix": is_str},
        "required": ["type", "name"],
    },
    "entry": {
        "keys": {"name": is_str, "value": lambda v: isinstance(v, int), "doc": is_str},
        "required": ["name"],
    },
    "attribute-set": {
        "keys": {"name": is_str, "name-prefix": is_str, "enum-name": is_str, "doc": is_str,
                 "subset-of": is_str, "attributes": ["attribute"]},
        "c": {"attr-cnt-name": is_str, "attr-max-name": is_str},
        "required": ["name", "attributes"],
    },
    "attribute": {
        "keys": {"name": is_str, "type": one_of(*ATTR_TYPES), "doc": is_str, "value": is_uint,
                 "type-value": str_list, "byte-order": one_of("little-endian", "big-endian"),
                 "multi-attr": is_bool, "nested-attributes": is_str, "enum": is_str,
                 "enum-as-flags": is_bool, "checks": "checks",
                 "sub-type": one_of(*ATTR_TYPES), "display-hint": one_of(*HINTS)},
        "c": {"name-prefix": is_str},
        "required": ["name"],
    },
    "checks": {
        "keys": {"flags-mask": is_str, "min": limit, "max": limit, "min-len": length,
                 "max-len": length, "exact-len": length},
        "required": [],
    },
    "operations": {
        "keys": {"enum-model": one_of("unified"), "name-prefix": is_str, "enum-name": is_str,
                 "async-prefix": is_str, "async-enum": is_str, "list": ["operation"]},
        "required": ["list"],
    },
    "operation": {
        "keys": {"name": is_str, "doc": is_str, "value": is_uint, "attribute-set": is_str,
                 "flags": list_of("admin-perm"),
                 "dont-validate": list_of("strict", "dump", "dump-strict"),
                 "config-cond": is_str, "do": "handler", "dump": "handler",
                 "notify": is_str, "event": "message", "mcgrp": is_str},
        "required": ["name", "doc"],
    },
    "handler": {
        "keys": {"request": "message", "reply": "message", "pre": is_str, "post": is_str},
        "required": [],
    },
    "message": {
        "keys": {"attributes": str_list},
        "required": [],
    },
    "mcast-groups": {
        "keys": {"list": ["mcast-group"]},
        "required": ["list"],
    },
    "mcast-group": {
        "keys": {"name": is_str, "flags": list_of("admin-perm")},
        "c": {"c-define-name": is_str},
        "required": ["name"],
    },
}


def check_part(kind, node, where, c_level, errors):
    part = PARTS[kind]
    if not isinstance(node, dict):
        errors.append("%s: a mapping is expected" % where)
        return
    keys = dict(part["keys"])
    if c_level:
        keys.update(part.get("c", {}))
    for k in part["required"]:
        if k not in node:
            errors.append("%s: required key %r is missing" % (where, k))
    for k, v in node.items():
        if k not in keys:
            extra = " (genetlink-c only)" if k in part.get("c", {}) else ""
            errors.append("%s: key %r is not allowed here%s" % (where, k, extra))
            continue
        rule = keys[k]
        sub = "%s: %s" % (where, k)
        if isinstance(rule, list):
            if not isinstance(v, list):
                errors.append("%s: a list is expected" % sub)
                continue
            for i, item in enumerate(v):
                name = item.get("name") if isinstance(item, dict) else item
                if rule[0] == "entry" and is_str(item):
                    continue	# an entry may be a bare name
                check_part(rule[0], item, "%s[%s]" % (sub, name if name else i), c_level,
                           errors)
        elif isinstance(rule, str):
            check_part(rule, v, sub, c_level, errors)
        elif not rule(v):
            errors.append("%s: value %r is not valid" % (sub, v))


def check_refs(spec, errors):
    """The names a spec refers to exist (what the YNL library resolves)."""
    defs = {d.get("name"): d for d in spec.get("definitions", []) if isinstance(d, dict)}
    sets = {s.get("name"): s for s in spec.get("attribute-sets", []) if isinstance(s, dict)}
    groups = {g.get("name") for g in spec.get("mcast-groups", {}).get("list", [])}
    for s in sets.values():
        names = set()
        for a in s.get("attributes", []):
            where = "attribute-sets[%s]: %s" % (s.get("name"), a.get("name"))
            if a.get("name") in names:
                errors.append("%s: given twice" % where)
            names.add(a.get("name"))
            if "enum" in a and defs.get(a["enum"], {}).get("type") not in ("enum", "flags"):
                errors.append("%s: no enum %r" % (where, a["enum"]))
            if "nested-attributes" in a and a["nested-attributes"] not in sets:
                errors.append("%s: no attribute set %r" % (where, a["nested-attributes"]))
            if a.get("type") == "nest" and "nested-attributes" not in a:
                errors.append("%s: a nest without nested-attributes" % where)
    for o in spec.get("operations", {}).get("list", []):
        where = "operations[%s]" % o.get("name")
        aset = sets.get(o.get("attribute-set"))
        if "attribute-set" in o and aset is None:
            errors.append("%s: no attribute set %r" % (where, o["attribute-set"]))
            continue
        msgs = [o.get(p, {}).get(m) for p in ("do", "dump") for m in ("request", "reply")]
        msgs.append(o.get("event"))
        have = {a.get("name") for a in aset.get("attributes", [])} if aset else set()
        for m in msgs:
            for name in (m or {}).get("attributes", []):
                if name not in have:
                    errors.append("%s: no attribute %r in its set" % (where, name))
        if "mcgrp" in o and o["mcgrp"] not in groups:
            errors.append("%s: no multicast group %r" % (where, o["mcgrp"]))


def check(spec):
    errors = []
    if not isinstance(spec, dict):
        return ["the spec is not a mapping"]
    proto = spec.get("protocol", "genetlink")
    check_part("family", spec, "the family", proto == "genetlink-c", errors)
    if not errors:
        check_refs(spec, errors)
    return errors


# Faults the self-test plants: (what, how to plant it in a copy).
def _attr(spec, set_name, attr_name):
    s = next(s for s in spec["attribute-sets"] if s["name"] == set_name)
    return next(a for a in s["attributes"] if a["name"] == attr_name)


PLANTED = [
    ("a key of the project's in checks",
     lambda s: _attr(s, "hcube", "cpu").setdefault("checks", {}).update(
         {"range-at-load": "cpu-ids"})),
    ("type nul-string", lambda s: _attr(s, "hcube", "group").update(type="nul-string")),
    ("a struct definition",
     lambda s: s["definitions"].append({"type": "struct", "name": "x",
                                        "members": [{"name": "a", "type": "u32"}]})),
    ("doc on operations", lambda s: s["operations"].update(doc="commands")),
    ("cli-name on an enum entry",
     lambda s: next(d for d in s["definitions"] if d["type"] == "enum")["entries"][0]
     .update({"cli-name": "x"})),
    ("a max that names a constant",
     lambda s: _attr(s, "hcube", "pid")["checks"].update(max="pid-max-limit")),
    ("name-prefix under protocol genetlink", lambda s: s.update(protocol="genetlink")),
    ("an operation without doc", lambda s: s["operations"]["list"][0].pop("doc")),
    ("a request naming an attribute not in its set",
     lambda s: s["operations"]["list"][1]["do"]["request"]["attributes"].append("nope")),
    ("a nest of a set that does not exist",
     lambda s: _attr(s, "hcube", "vertex").update({"nested-attributes": "nope"})),
    ("an unknown operation flag", lambda s: s["operations"]["list"][2].update(
        flags=["uns-admin-perm"])),
    ("a negative max", lambda s: _attr(s, "hcube", "vertex-id")["checks"].update(max=-1)),
]


def selftest(spec):
    n = fails = 0
    for what, plant in PLANTED:
        bad = copy.deepcopy(spec)
        plant(bad)
        n += 1
        errors = check(bad)
        if errors:
            print("ok %d refused: %s (%s)" % (n, what, errors[0]))
        else:
            fails += 1
            print("not ok %d not refused: %s" % (n, what))
    print("1..%d" % n)
    return 1 if fails else 0


def main(argv):
    test = "--selftest" in argv
    args = [a for a in argv if a != "--selftest"]
    path = args[0] if args else SPEC
    with open(path) as f:
        spec = yaml.safe_load(f)
    if test:
        return selftest(spec)
    errors = check(spec)
    for e in errors:
        print("not ok: %s" % e)
    if errors:
        print("# %s: %d errors against protocol %s" % (os.path.relpath(path, ROOT), len(errors),
                                                       spec.get("protocol", "genetlink")))
        return 1
    print("ok spec: %s is valid %s" % (os.path.relpath(path, ROOT), spec["protocol"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
