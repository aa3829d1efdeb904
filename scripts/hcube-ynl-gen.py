#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate hcube's uAPI from its YNL spec.

From Documentation/netlink/specs/hcube.yaml (the YNL spec, genetlink-c)
and Documentation/netlink/hcube-gen.yaml (what the generator needs beyond
the spec's format) this writes:

  uapi/linux/hcube.h           the uAPI header: names, values, the spec's docs
  module/hcube_nl_gen.h, .c    the kernel's request policies (one per
                               operation that takes attributes, one per nested
                               attribute set); in the header, for the kernel
                               only, the handlers and the ops table
  module/hcube_nl_ops_gen.c    the 6.1 ops table (struct genl_ops per command)
  tools/hcubectl/names_gen.h, .c
                               hcubectl's names of enum values, of attribute
                               types (for extended-ack errors), JSON keys,
                               and the libnl policies its replies are parsed
                               with

Usage: hcube-ynl-gen.py [--spec FILE] [--gen FILE] [--out DIR]
  --out DIR   write the files under DIR (default: the repository root);
              `make check-gen` generates into a temporary directory and
              compares.

The project's additions to the YNL format are described in
Documentation/netlink/hcube-ynl-gen.rst.
"""
import argparse
import os
import re
import sys
import textwrap

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = "Documentation/netlink/specs/hcube.yaml"
GEN = "Documentation/netlink/hcube-gen.yaml"
SCRIPT = "scripts/hcube-ynl-gen.py"

INT_TYPES = ("u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64")
LIMIT_RE = re.compile(r"^([su])(8|16|32|64)-(min|max)$")
S16_MIN, S16_MAX = -32768, 32767


class SpecError(Exception):
    pass


def c_upper(s):
    return s.upper().replace("-", "_")


def c_lower(s):
    return s.lower().replace("-", "_")


def text_of(doc):
    """A doc string as paragraphs of single-spaced text."""
    if not doc:
        return []
    paras = [" ".join(p.split()) for p in str(doc).strip().split("\n\n")]
    return [p for p in paras if p]


# ---- the spec, checked and resolved ----

# The keys each part of the spec may have (a YAML flow mapping cut at a
# comma makes a key of the rest: this catches it).
KEYS = {
    "family": {"name", "protocol", "doc", "uapi-header", "definitions",
               "attribute-sets", "operations", "mcast-groups"},
    "const": {"type", "name", "value", "doc", "header", "name-prefix"},
    "enum": {"type", "name", "doc", "entries", "render-max", "name-prefix", "enum-name"},
    "entry": {"name", "doc", "value"},
    "attribute-set": {"name", "name-prefix", "enum-name", "doc", "attributes"},
    "attribute": {"name", "type", "doc", "value", "multi-attr", "checks", "enum",
                  "nested-attributes", "sub-type"},
    "checks": {"min", "max", "max-len"},
    "operations": {"name-prefix", "enum-name", "list"},
    "operation": {"name", "doc", "value", "attribute-set", "flags", "do", "dump", "event",
                  "mcgrp"},
    "gen": {"range-at-load", "kernel-bounds", "reject", "cli-names", "ops-doc",
            "internal-flags", "ops"},
    "gen-op": {"doit", "dumpit", "flags"},
    "kernel-bound": {"name", "header", "value"},
}


def check_keys(kind, d, where):
    if not isinstance(d, dict):
        raise SpecError("%s: not a mapping" % where)
    extra = set(d) - KEYS[kind]
    if extra:
        raise SpecError("%s: unknown key%s %s (a flow mapping cut at a comma? quote "
                        "the value)" % (where, "s" if len(extra) > 1 else "",
                                        ", ".join(repr(k) for k in sorted(extra))))
    for k, v in d.items():
        if v is None:
            raise SpecError("%s: %s has no value" % (where, k))


def check_spec(y):
    check_keys("family", y, "the family")
    for d in y.get("definitions", []):
        where = "definition %s" % d.get("name")
        if d.get("type") not in ("const", "enum"):
            raise SpecError("%s: type %s is not supported" % (where, d.get("type")))
        check_keys(d["type"], d, where)
        for e in d.get("entries", []):
            check_keys("entry", e, "%s: entry %s" % (where, e.get("name")))
    for s in y["attribute-sets"]:
        where = "attribute set %s" % s.get("name")
        check_keys("attribute-set", s, where)
        for a in s["attributes"]:
            check_keys("attribute", a, "%s: %s" % (where, a.get("name")))
            if "checks" in a:
                check_keys("checks", a["checks"], "%s: %s: checks" % (where, a["name"]))
    check_keys("operations", y["operations"], "operations")
    for o in y["operations"]["list"]:
        check_keys("operation", o, "operation %s" % o.get("name"))


def numbered(items, first, make):
    """make(item, value) for each item, values counting from @first (an
    item's own "value" restarts the count, as in YNL)."""
    out, value = [], first
    for item in items:
        obj = make(item, value)
        out.append(obj)
        value = obj.value + 1
    return out


class Const:
    def __init__(self, fam, d):
        self.name = d["name"]
        self.value = d["value"]
        self.header = d.get("header")
        self.doc = d.get("doc")
        self.cname = c_upper(d.get("name-prefix", fam.name + "-") + self.name)


class Entry:
    def __init__(self, enum, e, value):
        self.name = e["name"]
        self.value = e.get("value", value)
        self.doc = e.get("doc")
        self.cli_name = self.name
        self.cname = c_upper(enum.prefix + self.name)


class Enum:
    def __init__(self, fam, d):
        self.name = d["name"]
        self.doc = d.get("doc")
        self.tag = d.get("enum-name", c_lower(fam.name + "-" + self.name))
        self.prefix = d.get("name-prefix", fam.name + "-" + self.name + "-")
        self.render_max = d.get("render-max", False)
        self.entries = numbered(d["entries"], 0, lambda e, v: Entry(self, e, v))
        self.max_cname = c_upper(self.tag + "-max")

    def max_value(self):
        return max(e.value for e in self.entries)

    def max_ref(self):
        """The C expression of its highest value."""
        if self.render_max:
            return self.max_cname
        return max(self.entries, key=lambda e: e.value).cname


class Attr:
    def __init__(self, aset, a, value):
        self.set = aset
        self.name = a["name"]
        self.value = a.get("value", value)
        self.type = a["type"]
        self.doc = a.get("doc")
        self.multi = a.get("multi-attr", False)
        self.checks = a.get("checks", {})
        self.enum_name = a.get("enum")
        self.nested_name = a.get("nested-attributes")
        self.sub_type = a.get("sub-type")
        self.cname = c_upper(aset.prefix + self.name)
        self.enum = self.nested = None
        self.load_range = None		# hcube-gen.yaml: range-at-load
        self.reject = None		# hcube-gen.yaml: reject
        self.kbounds = {}		# hcube-gen.yaml: kernel-bounds


class AttrSet:
    def __init__(self, d):
        self.name = d["name"]
        self.doc = d.get("doc")
        self.prefix = d["name-prefix"]
        self.tag = d["enum-name"]
        self.attrs = numbered(d["attributes"], 1, lambda a, v: Attr(self, a, v))
        self.by_name = {a.name: a for a in self.attrs}
        self.unspec_cname = c_upper(self.prefix + "unspec")
        self.max_cname = c_upper(self.prefix + "max")
        # hcube_vertex_attr -> vertex_attr: hcubectl's names
        self.short = self.tag.split("_", 1)[1] if "_" in self.tag else self.tag

    def max_value(self):
        return max(a.value for a in self.attrs)


class Op:
    def __init__(self, fam, o, value, prefix):
        self.name = o["name"]
        self.value = o.get("value", value)
        self.doc = o.get("doc")
        self.cname = c_upper(prefix + self.name)
        if o["attribute-set"] not in fam.sets:
            raise SpecError("operation %s: no attribute set %s" % (self.name, o["attribute-set"]))
        self.set = fam.sets[o["attribute-set"]]
        self.do = o.get("do")
        self.dump = o.get("dump")
        self.event = o.get("event")
        self.admin = "admin-perm" in o.get("flags", [])
        base = c_lower(fam.name) + "_nl_" + c_lower(self.name)
        self.doit = base + "_doit" if self.do else None
        self.dumpit = base + "_dumpit" if self.dump else None
        self.iflags = []

    def request(self):
        """The request attributes of the op (do and dump must agree: 6.1's
        genl_ops has one policy for both)."""
        reqs = []
        for part in (self.do, self.dump):
            if part and "request" in part:
                reqs.append(tuple(part["request"].get("attributes", [])))
        if len(set(reqs)) > 1:
            raise SpecError("operation %s: do and dump requests differ; the 6.1 ops "
                            "table has one policy per op" % self.name)
        names = reqs[0] if reqs else ()
        for n in names:
            if n not in self.set.by_name:
                raise SpecError("operation %s: no attribute %s in set %s" %
                                (self.name, n, self.set.name))
        return [self.set.by_name[n] for n in names]


class Family:
    def __init__(self, y, g):
        check_spec(y)
        self.name = y["name"]
        self.doc = y.get("doc")
        self.version = 1
        self.defs = []
        self.consts, self.enums = {}, {}
        for d in y.get("definitions", []):
            if d["type"] == "const":
                obj = self.consts[d["name"]] = Const(self, d)
            elif d["type"] == "enum":
                obj = self.enums[d["name"]] = Enum(self, d)
            else:
                raise SpecError("definition %s: type %s is not supported" %
                                (d["name"], d["type"]))
            self.defs.append(obj)
        self.sets = {}
        for s in y["attribute-sets"]:
            self.sets[s["name"]] = AttrSet(s)
        for s in self.sets.values():
            for a in s.attrs:
                if a.enum_name:
                    a.enum = self.enums[a.enum_name]
                if a.nested_name:
                    a.nested = self.sets[a.nested_name]
        ops = y["operations"]
        self.ops_tag = ops["enum-name"]
        self.ops_prefix = ops["name-prefix"]
        self.ops = numbered(ops["list"], 1, lambda o, v: Op(self, o, v, self.ops_prefix))
        self.ops_unspec = c_upper(self.ops_prefix + "unspec")
        self.ops_max = c_upper(self.ops_prefix + "max")
        self.mcgrps = [g["name"] for g in y.get("mcast-groups", {}).get("list", [])]
        self.uapi_header = y.get("uapi-header", "linux/%s.h" % self.name)
        self.apply_gen(g)

    def attr_of(self, ref, where):
        """The attribute "set.attribute" of hcube-gen.yaml."""
        sname, _, aname = ref.partition(".")
        if sname not in self.sets or aname not in self.sets[sname].by_name:
            raise SpecError("%s: %s: no such attribute in the spec" % (where, ref))
        return self.sets[sname].by_name[aname]

    def apply_gen(self, g):
        check_keys("gen", g, GEN)
        for ref, name in g.get("range-at-load", {}).items():
            self.attr_of(ref, "range-at-load").load_range = name
        for ref, text in g.get("reject", {}).items():
            self.attr_of(ref, "reject").reject = text
        for ref, b in g.get("kernel-bounds", {}).items():
            where = "kernel-bounds: " + ref
            check_keys("kernel-bound", b, where)
            aref, _, key = ref.rpartition(".")
            a = self.attr_of(aref, where)
            if key not in ("min", "max") or a.checks.get(key) != b["value"]:
                raise SpecError("%s: the spec's checks %s is %s, not %s" %
                                (where, key, a.checks.get(key), b["value"]))
            a.kbounds[key] = (b["value"], b["name"], b["header"])
        for ename, names in g.get("cli-names", {}).items():
            if ename not in self.enums:
                raise SpecError("cli-names: no enum %s in the spec" % ename)
            by = {e.name: e for e in self.enums[ename].entries}
            for ent, cli in names.items():
                if ent not in by:
                    raise SpecError("cli-names: no entry %s in enum %s" % (ent, ename))
                by[ent].cli_name = cli
        self.ops_doc = g.get("ops-doc")
        self.iflags = list(g.get("internal-flags", {}).items())
        known = {n for n, _ in self.iflags}
        by = {op.name: op for op in self.ops}
        for name, o in g.get("ops", {}).items():
            where = "ops: " + name
            if name not in by:
                raise SpecError("%s: no such operation in the spec" % where)
            check_keys("gen-op", o, where)
            op = by[name]
            for part in ("doit", "dumpit"):
                if part in o:
                    if not getattr(op, part):
                        raise SpecError("%s: %s for an operation without %s" %
                                        (where, part, part[:-2]))
                    setattr(op, part, o[part])
            for f in o.get("flags", []):
                if f not in known:
                    raise SpecError("%s: flag %s is not in internal-flags" % (where, f))
            op.iflags = o.get("flags", [])

    def check_value(self, attr, key):
        """(number, C expression) of a check, or None when it is not there."""
        v = attr.checks.get(key)
        if v is None:
            return None
        if key in attr.kbounds:
            return attr.kbounds[key][:2]
        if isinstance(v, int):
            return v, str(v)
        m = LIMIT_RE.match(str(v))
        if not m:
            raise SpecError("%s: checks %s: %s is neither a number nor a type's limit"
                            % (attr.cname, key, v))
        bits = int(m.group(2))
        signed = m.group(1) == "s"
        if m.group(3) == "max":
            n = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
        else:
            n = -(1 << (bits - 1)) if signed else 0
        return n, "%s%s_%s" % (m.group(1).upper(), bits, m.group(3).upper())


# ---- C text ----

def width(s):
    """Columns of a line, tabs at every 8th."""
    col = 0
    for ch in s:
        col = (col // 8 + 1) * 8 if ch == "\t" else col + 1
    return col


def pad_to(s, col):
    """@s followed by tabs up to column @col (at least one)."""
    out = s + "\t"
    while width(out) < col:
        out += "\t"
    return out


def indent_to(col):
    """Tabs, then spaces, up to column @col."""
    return "\t" * (col // 8) + " " * (col % 8)


def fit(line, maxw=100):
    """@line within @maxw columns, as the kernel's style breaks it: a string
    initializer moves to the next line, one tab in (a message is not split);
    a call breaks after a comma, its continuation aligned to the column after
    the open parenthesis. A line that fits, or that neither applies to, is
    kept."""
    if width(line) <= maxw:
        return [line]
    m = re.match(r'(\t*)(.*=) (".*",?)$', line)
    if m:
        return [m.group(1) + m.group(2), m.group(1) + "\t" + m.group(3)]
    open_ = line.find("(")
    if open_ < 0 or not line.rstrip(",;").endswith(")"):
        return [line]
    head, inner = line[:open_ + 1], line[open_ + 1:]
    if "(" in inner:
        return [line]			# a call in the arguments: not split here
    args = [x.strip() for x in inner.split(",")]
    tail = ""
    while not args[-1]:			# the line's own comma
        args.pop()
        tail += ","
    lines = [head + args[0]]
    pad = indent_to(width(head))
    for arg in args[1:]:
        if width(lines[-1] + ", " + arg + tail) <= maxw:
            lines[-1] += ", " + arg
        else:
            lines[-1] += ","
            lines.append(pad + arg)
    lines[-1] += tail
    return lines


def block_comment(paras, indent="", maxw=80):
    """A kernel-style comment of @paras, wrapped to @maxw columns."""
    if not paras:
        return []
    one = indent + "/* " + paras[0] + " */"
    if len(paras) == 1 and width(one) <= maxw:
        return [one]
    lines = [indent + "/*"]
    room = maxw - width(indent + " * ")
    for i, p in enumerate(paras):
        if i:
            lines.append(indent + " *")
        for w in textwrap.wrap(p, room, break_on_hyphens=False, break_long_words=False):
            lines.append(indent + " * " + w)
    lines.append(indent + " */")
    return lines


def with_comment(line, text, col=32, maxw=100, indent="\t"):
    """@line with @text as a comment: after it at @col when it fits, else
    above it."""
    if not text:
        return [line]
    inline = pad_to(line, col) + "/* " + text + " */"
    if width(inline) <= maxw:
        return [inline]
    return block_comment([text], indent) + [line]


def generated_note(what):
    return ["Generated from %s by %s" % (SPEC, SCRIPT),
            "(%s): change those, not this file." % what]


# ---- uapi/linux/hcube.h ----

def attr_comment(a):
    if a.type == "pad":
        return ""
    t = a.type
    if a.sub_type:
        t += " of __" + a.sub_type
    if a.enum:
        t += ", enum " + a.enum.tag
    if a.nested:
        t += ", enum " + a.nested.tag
    if a.multi:
        t += "; repeated"
    doc = " ".join(text_of(a.doc))
    return t + (": " + doc if doc else "")


def c_enum(tag, doc, items, max_cname, first=None):
    """An enum: @items (C name, value, comment) counted from 0, or from 1
    after @first; then __MAX and MAX when @max_cname."""
    out = block_comment(text_of(doc)) + ["enum %s {" % tag]
    value = 0
    if first:
        out.append("\t%s," % first)
        value = 1
    for cname, v, comment in items:
        out += with_comment("\t" + cname + ("," if v == value else " = %d," % v), comment)
        value = v + 1
    if max_cname:
        out += ["\t__%s," % max_cname, "\t%s = __%s - 1," % (max_cname, max_cname)]
    return out + ["};"]


def render_uapi(fam):
    guard = "_UAPI_" + c_upper(fam.uapi_header.replace("/", "_").replace(".", "_"))
    up = c_upper(fam.name)
    out = ["/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */"]
    out += block_comment(text_of(fam.doc) + [" ".join(generated_note("the uAPI"))])
    out += ["#ifndef " + guard, "#define " + guard, "", "#include <linux/types.h>", ""]
    defines = [("%s_FAMILY_NAME" % up, '"%s"' % fam.name),
               ("%s_FAMILY_VERSION" % up, str(fam.version))]
    defines += [("%s_MCGRP_%s" % (up, c_upper(g)), '"%s"' % g) for g in fam.mcgrps]
    col = max(32, max(width("#define " + n) // 8 * 8 + 8 for n, _ in defines))
    out += [pad_to("#define " + n, col) + v for n, v in defines]

    prev = None
    for d in fam.defs:
        if isinstance(d, Const):
            if d.header:
                continue	# the kernel's own constant, from its header
            line = pad_to("#define " + d.cname, 32) + str(d.value)
            paras = text_of(d.doc)
            inline = pad_to(line, 40) + "/* " + paras[0] + " */" if len(paras) == 1 else ""
            if inline and width(inline) <= 100:
                # consecutive one-line constants stay together
                if not (isinstance(prev, Const) and prev.inline):
                    out.append("")
                out.append(inline)
            else:
                out += [""] + block_comment(paras) + [line]
            d.inline = bool(inline) and width(inline) <= 100
            prev = d
            continue
        prev = d
        out.append("")
        if isinstance(d, Enum):
            out += c_enum(d.tag, d.doc, [(e.cname, e.value, " ".join(text_of(e.doc)))
                                         for e in d.entries],
                          d.max_cname if d.render_max else None)

    out.append("")
    out += c_enum(fam.ops_tag, fam.ops_doc, [(op.cname, op.value, " ".join(text_of(op.doc)))
                                             for op in fam.ops],
                  fam.ops_max, fam.ops_unspec)
    for s in fam.sets.values():
        out.append("")
        out += c_enum(s.tag, s.doc, [(a.cname, a.value, attr_comment(a)) for a in s.attrs],
                      s.max_cname, s.unspec_cname)
    out += ["", "#endif /* %s */" % guard]
    return "\n".join(out) + "\n"


# ---- the kernel's request policies ----

def request_sets(fam):
    """The nested attribute sets that requests reach, in spec order."""
    seen = []

    def visit(attrs):
        for a in attrs:
            if a.nested and a.nested not in seen:
                seen.append(a.nested)
                visit(a.nested.attrs)
    for op in fam.ops:
        visit(op.request())
    return [s for s in fam.sets.values() if s in seen]


def set_policy_name(fam, s):
    return "%s_%s_policy" % (c_lower(fam.name), c_lower(s.name))


def op_policy_name(fam, op):
    return "%s_%s_policy" % (c_lower(fam.name), c_lower(op.name))


def range_name(a):
    return c_lower(a.cname) + "_range"


def load_range_name(fam, a):
    return "%s_%s" % (c_lower(fam.name), c_lower(a.load_range))


def int_bounds(fam, a):
    """(min, max) of an integer attribute's policy, each (number, C) or None."""
    lo = fam.check_value(a, "min")
    hi = fam.check_value(a, "max")
    if hi is None and a.enum:
        hi = (a.enum.max_value(), a.enum.max_ref())
    return lo, hi


def needs_full_range(fam, a):
    if a.type not in INT_TYPES:
        return False
    if a.load_range:
        return True
    lo, hi = int_bounds(fam, a)
    return any(b is not None and not S16_MIN <= b[0] <= S16_MAX for b in (lo, hi))


def kernel_entry(fam, a):
    """The nla_policy initializer of attribute @a (lines, without the
    "[TYPE] = " and the final comma)."""
    t = a.type
    if a.reject:
        return ["{",
                "\t.type = NLA_REJECT,",
                '\t.reject_message = "%s: %s",' % (a.cname, a.reject),
                "}"]
    if t == "flag":
        return ["{ .type = NLA_FLAG }"]
    if t in INT_TYPES:
        nla = "NLA_" + t.upper()
        if t[0] == "s" and needs_full_range(fam, a):
            raise SpecError("%s: signed full ranges are not supported" % a.cname)
        if a.load_range:
            return ["NLA_POLICY_FULL_RANGE(%s, &%s)" % (nla, load_range_name(fam, a))]
        if needs_full_range(fam, a):
            return ["NLA_POLICY_FULL_RANGE(%s, &%s)" % (nla, range_name(a))]
        lo, hi = int_bounds(fam, a)
        if lo is not None and hi is not None:
            return ["NLA_POLICY_RANGE(%s, %s, %s)" % (nla, lo[1], hi[1])]
        if hi is not None:
            return ["NLA_POLICY_MAX(%s, %s)" % (nla, hi[1])]
        if lo is not None:
            return ["NLA_POLICY_MIN(%s, %s)" % (nla, lo[1])]
        return ["{ .type = %s }" % nla]
    if t in ("string", "binary"):
        nla = {"string": "NLA_STRING", "binary": "NLA_BINARY"}[t]
        ml = fam.check_value(a, "max-len")
        if ml:
            return ["{ .type = %s, .len = %s }" % (nla, ml[1])]
        return ["{ .type = %s }" % nla]
    if t == "nest":
        return ["NLA_POLICY_NESTED(%s)" % set_policy_name(fam, a.nested)]
    raise SpecError("%s: no policy for type %s in a request" % (a.cname, t))


def policy_lines(fam, name, size, attrs, doc):
    out = block_comment(doc)
    out.append("const struct nla_policy %s[%s + 1] = {" % (name, size))
    for a in sorted(attrs, key=lambda a: a.value):
        e = kernel_entry(fam, a)
        out += fit("\t[%s] = %s" % (a.cname, e[0]) + ("," if len(e) == 1 else ""))
        for line in e[1:-1]:
            out += fit("\t" + line)
        if len(e) > 1:
            out.append("\t" + e[-1] + ",")
    out.append("};")
    return out


def kernel_objects(fam):
    sets = request_sets(fam)
    ops = [op for op in fam.ops if op.request()]
    names = [set_policy_name(fam, s) for s in sets] + [op_policy_name(fam, op) for op in ops]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise SpecError("policy names clash: %s" % ", ".join(sorted(dup)))
    # every attribute a policy names, once
    attrs = []
    for s in sets:
        attrs += [a for a in s.attrs if a not in attrs]
    for op in ops:
        attrs += [a for a in op.request() if a not in attrs]
    return sets, ops, attrs


def kernel_note(fam):
    return block_comment(["%s: the request policies of the \"%s\" generic netlink family."
                          % (fam.name, fam.name), " ".join(generated_note("policies"))])


def render_kernel_h(fam):
    sets, ops, attrs = kernel_objects(fam)
    guard = c_upper(fam.name) + "_NL_GEN_H"
    out = ["/* SPDX-License-Identifier: GPL-2.0 */"] + kernel_note(fam)
    out += ["#ifndef " + guard, "#define " + guard, "",
            "#include <net/netlink.h>", "#include <%s>" % fam.uapi_header]
    for a in attrs:
        if a.load_range:
            out += [""] + block_comment(
                ["The range of %s: the module sets it at load, before it registers "
                 "the family." % a.cname])
            out.append("extern struct netlink_range_validation %s;" % load_range_name(fam, a))
    if sets:
        out += ["", "/* The policies of nested attribute sets. */"]
        out += ["extern const struct nla_policy %s[%s + 1];" % (set_policy_name(fam, s),
                                                              s.max_cname) for s in sets]
    out += ["", "/* The request policy of each operation that takes attributes. */"]
    for op in ops:
        top = max(op.request(), key=lambda a: a.value)
        out.append("extern const struct nla_policy %s[%s + 1];" %
                   (op_policy_name(fam, op), top.cname))
    out += ["", "#ifdef __KERNEL__", "#include <net/genetlink.h>", ""]
    out += block_comment(["The module's flags of an operation (genl_ops.internal_flags)."])
    for i, (name, doc) in enumerate(fam.iflags):
        out += with_comment(pad_to("#define %s" % iflag_cname(fam, name), 32) + "0x%02x" %
                            (1 << i), doc, col=40, indent="")
    out += [""] + block_comment(["The handlers the ops table names."])
    handlers = []
    for op in fam.ops:
        for h, proto in ((op.doit, "int %s(struct sk_buff *skb, struct genl_info *info);"),
                         (op.dumpit, "int %s(struct sk_buff *skb, struct netlink_callback *cb);")):
            if h and h not in handlers:
                handlers.append(h)
                out.append(proto % h)
    out += ["", "/* One per command that has a do or a dump (%s). */" % ops_c_name(fam),
            "extern const struct genl_ops %s[%d];" % (ops_c_name(fam), len(table_ops(fam))),
            "#endif /* __KERNEL__ */"]
    out += ["", "#endif /* %s */" % guard]
    return "\n".join(out) + "\n"


def iflag_cname(fam, name):
    return "%s_NL_F_%s" % (c_upper(fam.name), c_upper(name))


def ops_c_name(fam):
    return "%s_nl_ops" % c_lower(fam.name)


def table_ops(fam):
    return [op for op in fam.ops if op.doit or op.dumpit]


def render_ops_c(fam):
    out = ["// SPDX-License-Identifier: GPL-2.0"]
    out += block_comment(["%s: the ops table of the \"%s\" generic netlink family (6.1: "
                          "one struct genl_ops per command, no split ops)." % (fam.name, fam.name),
                          " ".join(generated_note("ops table"))])
    out += ['#include "%s_nl_gen.h"' % c_lower(fam.name), "",
            "const struct genl_ops %s[%d] = {" % (ops_c_name(fam), len(table_ops(fam)))]
    for op in table_ops(fam):
        out += ["\t{", "\t\t.cmd = %s," % op.cname]
        if op.admin:
            out.append("\t\t.flags = GENL_ADMIN_PERM,")
        if op.iflags:
            out.append("\t\t.internal_flags = %s," %
                       " | ".join(iflag_cname(fam, f) for f in op.iflags))
        if op.doit:
            out.append("\t\t.doit = %s," % op.doit)
        if op.dumpit:
            out.append("\t\t.dumpit = %s," % op.dumpit)
        if op.request():
            out += ["\t\t.policy = %s," % op_policy_name(fam, op),
                    "\t\t.maxattr = ARRAY_SIZE(%s) - 1," % op_policy_name(fam, op)]
        out.append("\t},")
    out.append("};")
    return "\n".join(out) + "\n"


def render_kernel_c(fam):
    sets, ops, attrs = kernel_objects(fam)
    out = ["// SPDX-License-Identifier: GPL-2.0"] + kernel_note(fam)
    headers = {c.header for c in fam.consts.values() if c.header}
    headers |= {b[2] for a in attrs for b in a.kbounds.values()}
    if any(a.load_range for a in attrs):
        headers.add("linux/cache.h")
    headers = sorted(headers)
    out += ["#include <%s>" % h for h in headers]
    out.append('#include "%s_nl_gen.h"' % c_lower(fam.name))
    for a in attrs:
        if a.load_range:
            out += ["", "struct netlink_range_validation %s __ro_after_init;" %
                    load_range_name(fam, a)]
        elif needs_full_range(fam, a):
            lo, hi = int_bounds(fam, a)
            out += ["", "static struct netlink_range_validation %s = {" % range_name(a)]
            if lo is not None:
                out.append("\t.min = %s," % lo[1])
            if hi is not None:
                out.append("\t.max = %s," % hi[1])
            out.append("};")
    for s in sets:
        out.append("")
        out += policy_lines(fam, set_policy_name(fam, s), s.max_cname, s.attrs,
                            ["The attributes of enum %s, nested." % s.tag])
    for op in ops:
        top = max(op.request(), key=lambda a: a.value)
        out.append("")
        out += policy_lines(fam, op_policy_name(fam, op), top.cname, op.request(),
                            ["%s (%s)" % (op.cname, ", ".join(
                                p for p in ("do", "dump") if getattr(op, p)))])
    return "\n".join(out) + "\n"


# ---- hcubectl's names ----

LIBNL_TYPE = {"u8": "NLA_U8", "u16": "NLA_U16", "u32": "NLA_U32", "u64": "NLA_U64",
              "s8": "NLA_S8", "s16": "NLA_S16", "s32": "NLA_S32", "s64": "NLA_S64",
              "string": "NLA_STRING", "flag": "NLA_FLAG",
              "nest": "NLA_NESTED"}


def enum_names_var(e):
    return "hc_%s_names" % (e.tag.split("_", 1)[1] if "_" in e.tag else e.tag)


def enum_size(e):
    return e.max_cname + " + 1" if e.render_max else str(e.max_value() + 1)


def render_names_h(fam):
    guard = "HCUBECTL_NAMES_GEN_H"
    out = ["/* SPDX-License-Identifier: GPL-2.0 */"]
    out += block_comment(["hcubectl: the names of the \"%s\" family's enum values and "
                          "attribute types, and the policies its messages are parsed with."
                          % fam.name, " ".join(generated_note("names"))])
    out += ["#ifndef " + guard, "#define " + guard, "",
            "#include <netlink/attr.h>", "#include <%s>" % fam.uapi_header, ""]
    out += block_comment([
        "An attribute set: the C name of each type (for errors), the key of each "
        "in hcubectl's JSON, and the libnl policy that nla_parse() checks it with."])
    out += ["struct hc_attr_set {",
            "\tconst char *name;\t\t\t/* the spec's name of the set */",
            "\tint max;\t\t\t\t/* its highest type */",
            "\tconst char *const *names;\t\t/* HCUBE_A_PID */",
            "\tconst char *const *keys;\t\t/* pid */",
            "\tconst struct nla_policy *policy;",
            "};", ""]
    out.append("/* The name of each value, as hcubectl reads and prints it. */")
    for d in fam.defs:
        if isinstance(d, Enum):
            out.append("extern const char *const %s[%s];" % (enum_names_var(d), enum_size(d)))
    out += ["", "/* The attribute sets. */"]
    for s in fam.sets.values():
        out.append("extern const struct hc_attr_set hc_set_%s;" % c_lower(s.name))
    out += ["", "/* The top-level attribute set of each command's messages. */",
            "extern const struct hc_attr_set *const hc_cmd_set[%s + 1];" % fam.ops_max,
            "", "#endif /* %s */" % guard]
    return "\n".join(out) + "\n"


def render_names_c(fam):
    out = ["// SPDX-License-Identifier: GPL-2.0"]
    out += block_comment(["hcubectl: names and reply policies of the \"%s\" family."
                          % fam.name, " ".join(generated_note("names"))])
    out += ['#include "names_gen.h"']
    for d in fam.defs:
        if not isinstance(d, Enum):
            continue
        out += ["", "const char *const %s[%s] = {" % (enum_names_var(d), enum_size(d))]
        out += ['\t[%s] = "%s",' % (e.cname, e.cli_name) for e in d.entries]
        out.append("};")
    for s in fam.sets.values():
        size = "%s + 1" % s.max_cname
        out += ["", "static const char *const %s_names[%s] = {" % (s.short, size)]
        out.append('\t[%s] = "%s",' % (s.unspec_cname, s.unspec_cname))
        out += ['\t[%s] = "%s",' % (a.cname, a.cname) for a in s.attrs]
        out += ["};", "", "static const char *const %s_keys[%s] = {" % (s.short, size)]
        out += ['\t[%s] = "%s",' % (a.cname, c_lower(a.name)) for a in s.attrs
                if a.type != "pad"]
        out += ["};", "", "static const struct nla_policy %s_policy[%s] = {" % (s.short, size)]
        out += ["\t[%s] = { .type = %s }," % (a.cname, LIBNL_TYPE[a.type]) for a in s.attrs
                if a.type in LIBNL_TYPE]
        out += ["};", "", "const struct hc_attr_set hc_set_%s = {" % c_lower(s.name),
                '\t.name = "%s",' % s.name, "\t.max = %s," % s.max_cname,
                "\t.names = %s_names," % s.short, "\t.keys = %s_keys," % s.short,
                "\t.policy = %s_policy," % s.short, "};"]
    out += ["", "const struct hc_attr_set *const hc_cmd_set[%s + 1] = {" % fam.ops_max]
    out += ["\t[%s] = &hc_set_%s," % (op.cname, c_lower(op.set.name)) for op in fam.ops]
    out.append("};")
    return "\n".join(out) + "\n"


OUTPUTS = (
    ("uapi/linux/hcube.h", render_uapi),
    ("module/hcube_nl_gen.h", render_kernel_h),
    ("module/hcube_nl_gen.c", render_kernel_c),
    ("module/hcube_nl_ops_gen.c", render_ops_c),
    ("tools/hcubectl/names_gen.h", render_names_h),
    ("tools/hcubectl/names_gen.c", render_names_c),
)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spec", default=os.path.join(ROOT, SPEC))
    ap.add_argument("--gen", default=os.path.join(ROOT, GEN))
    ap.add_argument("--out", default=ROOT)
    args = ap.parse_args()
    try:
        with open(args.spec) as f, open(args.gen) as g:
            fam = Family(yaml.safe_load(f), yaml.safe_load(g))
        texts = [(path, render(fam)) for path, render in OUTPUTS]
    except (SpecError, KeyError) as e:
        print("hcube-ynl-gen: %s: %s" % (args.spec, e), file=sys.stderr)
        return 1
    for path, text in texts:
        dest = os.path.join(args.out, path)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
