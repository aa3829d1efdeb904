#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Documentation/netlink/specs/hcube.yaml against the running module.

A kselftest: the module loaded, or HCUBE_KO (hcube_module.py); the spec
and uapi/linux/hcube.h are installed beside it. The family is read
from the kernel's generic netlink controller, not from our headers:

- CTRL_CMD_GETFAMILY: the version (against uapi/linux/hcube.h), the
  multicast groups, and for every op its do/dump capabilities and
  GENL_ADMIN_PERM, against the spec's operations (an op with only an event
  must not be a kernel op);
- CTRL_CMD_GETPOLICY (a dump of every op's policy): for every op and for do
  and dump separately, the attributes the policy accepts, their types and
  maxtype) against the spec's request attributes and their checks (an
  attribute of an enum type without a max: its enum's highest value). A CPU
  id's range is set at load (range-at-load in hcube-gen.yaml): 0 ..
  nr_cpu_ids - 1, which the test compares with
  /sys/devices/system/cpu/possible; a read-only attribute (reject in
  hcube-gen.yaml) is refused (NLA_REJECT, not in the dump).
- every command and notification once (a dry-run rebalance, a sleep
  process registered and unregistered, a CPU marked faulty and cleared,
  the topology set to the mode it has): every attribute the module sends
  must be in the spec's reply or event, with the size of its type, an enum
  value within its enum, and nests checked the same way.

The module's state is left as found, except for counters and the
generation. HCUBE_SPEC names another spec file (to test the test). Prints TAP; exit status 1 on any difference.
"""
import os
import re
import select
import socket
import struct
import subprocess
import sys

import yaml

import hcube_module

# installed beside the test (selftests/hcube/Makefile's TEST_FILES)
HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = os.environ.get("HCUBE_SPEC", os.path.join(HERE, "hcube.yaml"))
GEN = os.path.join(HERE, "hcube-gen.yaml")
HDR = os.path.join(HERE, "hcube.h")

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_ADD_MEMBERSHIP = 1
NETLINK_EXT_ACK = 11
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK, NLM_F_DUMP = 1, 2, 4, 0x300
NLM_F_CAPPED, NLM_F_ACK_TLVS = 0x100, 0x200
NLMSGERR_ATTR_MSG = 1
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY, CTRL_CMD_GETPOLICY = 3, 10
(CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME, CTRL_ATTR_VERSION, CTRL_ATTR_HDRSIZE,
 CTRL_ATTR_MAXATTR, CTRL_ATTR_OPS, CTRL_ATTR_MCAST_GROUPS, CTRL_ATTR_POLICY,
 CTRL_ATTR_OP_POLICY, CTRL_ATTR_OP) = range(1, 11)
CTRL_ATTR_OP_ID, CTRL_ATTR_OP_FLAGS = 1, 2
CTRL_ATTR_MCAST_GRP_NAME, CTRL_ATTR_MCAST_GRP_ID = 1, 2
CTRL_ATTR_POLICY_DO, CTRL_ATTR_POLICY_DUMP = 1, 2
GENL_ADMIN_PERM, GENL_CMD_CAP_DO, GENL_CMD_CAP_DUMP, GENL_CMD_CAP_HASPOL = 1, 2, 4, 8
# enum netlink_policy_type_attr
(PT_TYPE, PT_MIN_S, PT_MAX_S, PT_MIN_U, PT_MAX_U, PT_MIN_LEN, PT_MAX_LEN,
 PT_POLICY_IDX, PT_POLICY_MAXTYPE, PT_BITFIELD32_MASK, PT_PAD, PT_MASK) = range(1, 13)
# enum netlink_attribute_type, by the spec's type names
NL_TYPE = {"flag": 1, "u8": 2, "u16": 3, "u32": 4, "u64": 5, "s8": 6, "s16": 7,
           "s32": 8, "s64": 9, "binary": 10, "string": 11, "nul-string": 12,
           "nest": 13, "bitfield32": 15}
NL_TYPE_NAME = {v: k for k, v in NL_TYPE.items()}
NL_TYPE_NAME[14] = "nested-array"
INT_BITS = {"u8": 8, "u16": 16, "u32": 32, "u64": 64, "s8": 8, "s16": 16,
            "s32": 32, "s64": 64}
INT_FMT = {"u8": "B", "u16": "H", "u32": "I", "u64": "Q", "s8": "b", "s16": "h",
           "s32": "i", "s64": "q"}

n = 0
fails = 0


def ok(cond, name, why=()):
    global n, fails
    n += 1
    if cond:
        print("ok %d %s" % (n, name))
    else:
        fails += 1
        print("not ok %d %s" % (n, name))
        for w in why:
            print("#   " + w)
    return cond


# Netlink: attributes, requests, dumps, notifications.

def nla(atype, payload):
    hdr = struct.pack("=HH", 4 + len(payload), atype)
    return hdr + payload + b"\0" * (-len(payload) % 4)


def nla_u32(atype, v):
    return nla(atype, struct.pack("=I", v))


def nla_str(atype, s):
    return nla(atype, s.encode() + b"\0")


def attrs(buf):
    """[(type, payload)] of a buffer of attributes (flag bits removed)."""
    out = []
    off = 0
    while off + 4 <= len(buf):
        alen, atype = struct.unpack_from("=HH", buf, off)
        if alen < 4 or off + alen > len(buf):
            raise ValueError("attribute at %d: length %d of %d" % (off, alen, len(buf) - off))
        out.append((atype & 0x3fff, buf[off + 4:off + alen]))
        off += (alen + 3) & ~3
    return out


def adict(buf):
    return {t: p for t, p in attrs(buf)}


def u32(p):
    return struct.unpack("=I", p[:4])[0]


class NlError(Exception):
    def __init__(self, err, msg):
        super().__init__("%s%s" % (os.strerror(err), ": " + msg if msg else ""))
        self.errno = err


class Genl:
    def __init__(self, groups=()):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        self.s.bind((0, 0))
        self.s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        for g in groups:
            self.s.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, g)
        self.seq = 1

    def messages(self, data):
        off = 0
        while off + 16 <= len(data):
            mlen, mtype, flags, seq, _ = struct.unpack_from("=IHHII", data, off)
            yield mtype, flags, seq, data[off + 16:off + mlen]
            off += (mlen + 3) & ~3

    def request(self, family, cmd, payload=b"", dump=False, version=1):
        """The replies [(cmd, payload)]; raises NlError on an error."""
        self.seq += 1
        flags = NLM_F_REQUEST | NLM_F_ACK | (NLM_F_DUMP if dump else 0)
        body = struct.pack("=BBH", cmd, version, 0) + payload
        self.s.send(struct.pack("=IHHII", 16 + len(body), family, flags, self.seq, 0) + body)
        out = []
        while True:
            for mtype, mflags, seq, body in self.messages(self.s.recv(1 << 20)):
                if seq != self.seq:
                    continue
                if mtype == NLMSG_DONE:
                    return out
                if mtype == NLMSG_ERROR:
                    err = struct.unpack_from("=i", body)[0]
                    if err == 0 and not dump:
                        return out
                    msg = ""
                    if mflags & NLM_F_ACK_TLVS:
                        olen = 16 if mflags & NLM_F_CAPPED else struct.unpack_from("=I", body, 4)[0]
                        tlv = adict(body[4 + ((olen + 3) & ~3):])
                        msg = tlv.get(NLMSGERR_ATTR_MSG, b"").rstrip(b"\0").decode()
                    if err:
                        raise NlError(-err, msg)
                    continue
                out.append((body[0], body[4:]))

    def notifications(self, wait=0.3):
        out = []
        while select.select([self.s], [], [], wait)[0]:
            for mtype, _, seq, body in self.messages(self.s.recv(1 << 20)):
                if seq == 0 and mtype >= 0x10:
                    out.append((body[0], body[4:]))
            wait = 0.1
        return out


# The spec.

class Spec:
    def __init__(self, path, gen_path):
        self.y = yaml.safe_load(open(path))
        # the generator's additions (Documentation/netlink/hcube-gen.yaml)
        gen = yaml.safe_load(open(gen_path))
        self.load_range = set(gen.get("range-at-load", {}))
        self.reject = set(gen.get("reject", {}))
        self.consts = {d["name"]: d["value"] for d in self.y.get("definitions", [])
                       if d["type"] == "const"}
        self.enums = {}
        self.structs = {}
        for d in self.y.get("definitions", []):
            if d["type"] in ("enum", "flags"):
                self.enums[d["name"]] = len(d["entries"])
            elif d["type"] == "struct":
                self.structs[d["name"]] = sum(INT_BITS[m["type"]] // 8 for m in d["members"])
        self.sets = {}
        for s in self.y["attribute-sets"]:
            by_name, by_value, value = {}, {}, 1
            for a in s["attributes"]:
                value = a.get("value", value)
                a = dict(a, value=value)
                by_name[a["name"]] = a
                by_value[value] = a
                value += 1
            self.sets[s["name"]] = (by_name, by_value)
        self.ops = {}
        value = 1
        for o in self.y["operations"]["list"]:
            value = o.get("value", value)
            self.ops[value] = o
            value += 1

    def check(self, a, key, default=None):
        v = a.get("checks", {}).get(key, default)
        if isinstance(v, str) and re.match(r"^[su](8|16|32|64)-(min|max)$", v):
            bits = int(v[1:].split("-")[0])
            if v.endswith("max"):
                return (1 << (bits - 1)) - 1 if v[0] == "s" else (1 << bits) - 1
            return -(1 << (bits - 1)) if v[0] == "s" else 0
        return self.consts[v] if isinstance(v, str) else v


def nr_cpu_ids():
    possible = open("/sys/devices/system/cpu/possible").read().strip()
    return int(re.split("[-,]", possible)[-1]) + 1


def expect_policy(spec, setname, a, ncpu):
    """What the kernel's policy should say of attribute @a: a dict like the
    dump's, from the spec's type and checks."""
    t = a["type"]
    e = {"type": NL_TYPE.get(t)}
    if t in INT_BITS:
        bits = INT_BITS[t]
        if t[0] == "u":
            lo, hi = 0, (1 << bits) - 1
            if "enum" in a:
                hi = spec.enums[a["enum"]] - 1
            e["min_u"] = spec.check(a, "min", lo)
            e["max_u"] = spec.check(a, "max", hi)
            if "%s.%s" % (setname, a["name"]) in spec.load_range:
                e["max_u"] = ncpu - 1
        else:
            lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
            e["min_s"] = spec.check(a, "min", lo)
            e["max_s"] = spec.check(a, "max", hi)
    elif t in ("string", "binary"):
        if spec.check(a, "min-len"):
            e["min_len"] = spec.check(a, "min-len")
        if spec.check(a, "max-len") is not None:
            e["max_len"] = spec.check(a, "max-len")
    return e


def got_policy(d):
    g = {"type": u32(d[PT_TYPE]) if PT_TYPE in d else None}
    for key, pt, fmt in (("min_u", PT_MIN_U, "=Q"), ("max_u", PT_MAX_U, "=Q"),
                         ("min_s", PT_MIN_S, "=q"), ("max_s", PT_MAX_S, "=q")):
        if pt in d:
            g[key] = struct.unpack(fmt, d[pt])[0]
    for key, pt in (("min_len", PT_MIN_LEN), ("max_len", PT_MAX_LEN)):
        if pt in d:
            g[key] = u32(d[pt])
    return g


def fmt_policy(p):
    out = [NL_TYPE_NAME.get(p.get("type"), str(p.get("type")))]
    for key in ("min_u", "max_u", "min_s", "max_s", "min_len", "max_len"):
        if key in p:
            out.append("%s=%d" % (key, p[key]))
    return " ".join(out)


def compare_policy(spec, policies, idx, setname, wanted, ncpu, where, why, notes, seen=()):
    """Policy @idx against the spec's attributes @wanted (names) of @setname."""
    by_name, by_value = spec.sets[setname]
    pol = policies.get(idx, {})
    for v, d in sorted(pol.items()):
        a = by_value.get(v)
        if a is None:
            why.append("%s: the kernel accepts attribute %d, which set %s does not have"
                       % (where, v, setname))
            continue
        if a["name"] not in wanted:
            why.append("%s: the kernel accepts %s, the spec's request does not list it"
                       % (where, a["name"]))
            continue
        e = expect_policy(spec, setname, a, ncpu)
        g = got_policy(d)
        if a["type"] == "nest":
            nset = a["nested-attributes"]
            if PT_POLICY_IDX not in d:
                why.append("%s: %s: a nest without a nested policy" % (where, a["name"]))
            else:
                maxtype = max(spec.sets[nset][1])
                if u32(d[PT_POLICY_MAXTYPE]) != maxtype:
                    why.append("%s: %s: nested maxtype %d, set %s ends at %d"
                               % (where, a["name"], u32(d[PT_POLICY_MAXTYPE]), nset, maxtype))
                nidx = u32(d[PT_POLICY_IDX])
                if nidx not in seen:
                    compare_policy(spec, policies, nidx, nset, set(spec.sets[nset][0]),
                                   ncpu, "%s.%s" % (where, a["name"]), why, notes,
                                   seen + (nidx,))
            g = {"type": g["type"]}
        if e != g:
            why.append("%s: %s: kernel %s, spec %s" % (where, a["name"], fmt_policy(g),
                                                        fmt_policy(e)))
    for name in sorted(wanted):
        a = by_name.get(name)
        if a is None:
            why.append("%s: the spec lists %s, which set %s does not have" % (where, name, setname))
        elif a["value"] not in pol:
            if "%s.%s" % (setname, name) in spec.reject:
                notes.append("%s: %s is read-only in the spec and rejected by the kernel"
                              % (where, name))
            else:
                why.append("%s: the spec lists %s, the kernel's policy rejects it"
                           % (where, name))


# Replies and notifications.

def check_attrs(spec, setname, buf, allowed, where, why):
    """Every attribute in @buf is of set @setname, in @allowed (None: any of
    the set), with the size of its type; nests recursively."""
    by_name, by_value = spec.sets[setname]
    count = {}
    try:
        items = attrs(buf)
    except ValueError as e:
        why.append("%s: %s" % (where, e))
        return
    for t, p in items:
        a = by_value.get(t)
        if a is None:
            why.append("%s: attribute %d is not in set %s" % (where, t, setname))
            continue
        name, typ = a["name"], a["type"]
        if typ == "pad":
            continue
        if allowed is not None and name not in allowed:
            why.append("%s: %s is not in the spec's attribute list" % (where, name))
        count[name] = count.get(name, 0) + 1
        if count[name] == 2 and not a.get("multi-attr"):
            why.append("%s: %s comes more than once, the spec has no multi-attr" % (where, name))
        w = "%s: %s" % (where, name)
        if typ in INT_FMT:
            size = INT_BITS[typ] // 8
            if len(p) != size:
                why.append("%s: %d bytes, %s is %d" % (w, len(p), typ, size))
            elif "enum" in a:
                v = struct.unpack("=" + INT_FMT[typ], p)[0]
                if v >= spec.enums[a["enum"]]:
                    why.append("%s: %d is not in enum %s" % (w, v, a["enum"]))
        elif typ == "flag":
            if p:
                why.append("%s: a flag with %d bytes" % (w, len(p)))
        elif typ == "string":
            if not p.endswith(b"\0") or b"\0" in p[:-1]:
                why.append("%s: not one NUL-terminated string" % w)
        elif typ == "binary":
            if "sub-type" in a and len(p) % (INT_BITS[a["sub-type"]] // 8):
                why.append("%s: %d bytes, not whole %s" % (w, len(p), a["sub-type"]))
        elif typ == "nest":
            check_attrs(spec, a["nested-attributes"], p, None, w, why)


def check_msgs(spec, msgs, kind, why, seen):
    """Replies (kind "do"/"dump") or notifications ("event")."""
    for cmd, payload in msgs:
        op = spec.ops.get(cmd)
        if op is None:
            why.append("%s message with command %d, not in the spec" % (kind, cmd))
            continue
        if kind == "event":
            part = op.get("event")
            if part is None:
                why.append("notification %s: the spec has no event for it" % op["name"])
                continue
            allowed = part["attributes"]
        else:
            part = op.get(kind, {}).get("reply")
            if part is None:
                why.append("%s %s: a reply with attributes, the spec has none" %
                           (op["name"], kind))
                continue
            allowed = part["attributes"]
        where = "%s %s" % (op["name"], kind)
        seen.add(where)
        check_attrs(spec, op["attribute-set"], payload, set(allowed), where, why)


def main():
    hcube_module.need()
    spec = Spec(SPEC, GEN)
    ncpu = nr_cpu_ids()
    print("TAP version 13")
    print("# %d possible CPUs (nr_cpu_ids), %d online" % (ncpu, os.cpu_count()))
    ctl = Genl()
    fam = adict(ctl.request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                            nla_str(CTRL_ATTR_FAMILY_NAME, spec.y["name"]))[0][1])
    fid = struct.unpack("=H", fam[CTRL_ATTR_FAMILY_ID])[0]
    version = int(re.search(r"#define\s+HCUBE_FAMILY_VERSION\s+(\d+)",
                            open(HDR).read()).group(1))
    ok(u32(fam[CTRL_ATTR_VERSION]) == version,
       "family %s: version %d, the header's %d" % (spec.y["name"], u32(fam[CTRL_ATTR_VERSION]),
                                                   version))

    groups = {}
    for _, g in attrs(fam.get(CTRL_ATTR_MCAST_GROUPS, b"")):
        g = adict(g)
        groups[g[CTRL_ATTR_MCAST_GRP_NAME].rstrip(b"\0").decode()] = u32(g[CTRL_ATTR_MCAST_GRP_ID])
    want = sorted(g["name"] for g in spec.y["mcast-groups"]["list"])
    ok(sorted(groups) == want, "multicast groups: kernel %s, spec %s" % (sorted(groups), want))

    # ops: capabilities and permissions
    kops = {}
    for _, o in attrs(fam.get(CTRL_ATTR_OPS, b"")):
        o = adict(o)
        kops[u32(o[CTRL_ATTR_OP_ID])] = u32(o[CTRL_ATTR_OP_FLAGS])
    why = []
    for v, op in sorted(spec.ops.items()):
        name = op["name"]
        request_op = "do" in op or "dump" in op
        if v not in kops:
            if request_op:
                why.append("%s (%d): in the spec, not a kernel op" % (name, v))
            continue
        if not request_op:
            why.append("%s (%d): the spec has only an event, the kernel has an op" % (name, v))
            continue
        f = kops[v]
        for part, cap in (("do", GENL_CMD_CAP_DO), ("dump", GENL_CMD_CAP_DUMP)):
            if (part in op) != bool(f & cap):
                why.append("%s: %s in the spec %s, in the kernel %s" %
                           (name, part, part in op, bool(f & cap)))
        admin = "admin-perm" in op.get("flags", [])
        if admin != bool(f & GENL_ADMIN_PERM):
            why.append("%s: admin-perm in the spec %s, GENL_ADMIN_PERM %s" %
                       (name, admin, bool(f & GENL_ADMIN_PERM)))
        if not f & GENL_CMD_CAP_HASPOL:
            why.append("%s: no policy: the kernel accepts any attribute" % name)
    for v in sorted(set(kops) - set(spec.ops)):
        why.append("kernel op %d is not in the spec" % v)
    ok(not why, "ops: %d kernel ops, do/dump and admin-perm as in the spec" % len(kops), why)

    # policies
    op_pol = {}
    policies = {}
    for _, payload in ctl.request(GENL_ID_CTRL, CTRL_CMD_GETPOLICY,
                                  nla_str(CTRL_ATTR_FAMILY_NAME, spec.y["name"]), dump=True):
        d = adict(payload)
        if CTRL_ATTR_OP_POLICY in d:
            for cmd, p in attrs(d[CTRL_ATTR_OP_POLICY]):
                p = adict(p)
                op_pol[cmd] = {k: u32(p[c]) for k, c in (("do", CTRL_ATTR_POLICY_DO),
                                                           ("dump", CTRL_ATTR_POLICY_DUMP))
                               if c in p}
        if CTRL_ATTR_POLICY in d:
            for idx, p in attrs(d[CTRL_ATTR_POLICY]):
                for av, ad in attrs(p):
                    policies.setdefault(idx, {})[av] = adict(ad)
    print("# %d policies dumped for %d ops" % (len(policies), len(op_pol)))
    for v, op in sorted(spec.ops.items()):
        for part in ("do", "dump"):
            if part not in op:
                continue
            where = "%s %s" % (op["name"], part)
            why, notes = [], []
            idx = op_pol.get(v, {}).get(part)
            wanted = set(op[part].get("request", {}).get("attributes", []))
            if idx is None:
                why.append("%s: no policy in the dump" % where)
            else:
                compare_policy(spec, policies, idx, op["attribute-set"], wanted, ncpu,
                               where, why, notes)
            accepted = ", ".join(sorted(wanted)) or "nothing"
            ok(not why, "policy %s: accepts %s, as the spec" % (where, accepted), why)
            for note in notes:
                print("# " + note)

    # every command and notification once
    ev = Genl(groups=[groups[g] for g in groups])
    why = []
    seen = set()
    ops = {op["name"]: v for v, op in spec.ops.items()}
    hc = Genl()
    a_set = spec.sets["hcube"][0]
    r_set = spec.sets["report"][0]

    def do(name, payload=b"", dump=False):
        try:
            msgs = hc.request(fid, ops[name], payload, dump=dump)
        except NlError as e:
            why.append("%s: %s" % (name, e))
            return []
        check_msgs(spec, msgs, "dump" if dump else "do", why, seen)
        return msgs

    def A(name):
        return a_set[name]["value"]

    msgs = do("cube-get")
    cube = adict(msgs[0][1]) if msgs else {}
    do("stats-get")
    do("config-get")
    do("vertex-get", nla_u32(A("vertex-id"), 0))
    vertices = do("vertex-get", dump=True)
    child = subprocess.Popen(["sleep", "1000"])
    try:
        do("task-add", nla_u32(A("pid"), child.pid))
        do("task-get", dump=True)
        do("rebalance", nla(r_set["dry-run"]["value"], b""))
        # a CPU of the cube that is not faulty, the highest one
        cpus = []
        for _, payload in vertices:
            vx = adict(adict(payload)[A("vertex")])
            vset = spec.sets["vertex"][0]
            usable = vx.get(vset["usable-cpus"]["value"], b"\0").rstrip(b"\0").decode()
            for r in filter(None, usable.split(",")):
                lo, _, hi = r.partition("-")
                cpus += range(int(lo), int(hi or lo) + 1)
        if len(cpus) > 1:
            cpu = max(cpus)
            do("fault-add", nla_u32(A("cpu"), cpu))
            do("fault-del", nla_u32(A("cpu"), cpu))
        else:
            print("# one usable CPU: fault-add/fault-del skipped")
        # cluster 0's controller marked faulty and cleared: controller-ntf
        # (the next healthy label takes over and keeps the role)
        vset = spec.sets["vertex"][0]
        ctl = cube.get(A("controllers"), b"")
        ctl = int.from_bytes(ctl[:2], sys.byteorder) if len(ctl) >= 2 else 0xffff
        cdim = u32(cube[A("cluster-dim")]) if A("cluster-dim") in cube else 0
        others = []
        for _, payload in vertices:
            vx = adict(adict(payload)[A("vertex")])
            vid = u32(vx[vset["id"]["value"]])
            if (vid >> cdim == 0 and vid != ctl and
                    u32(vx[vset["state"]["value"]]) == 0):
                others.append(vid)
        if ctl != 0xffff and others:
            do("fault-add", nla_u32(A("vertex-id"), ctl))
            do("fault-del", nla_u32(A("vertex-id"), ctl))
        else:
            print("# cluster 0 has no second healthy vertex: controller change skipped")
    finally:
        do("task-del", nla_u32(A("pid"), child.pid))
        child.kill()
        child.wait()
    mode = u32(cube[A("mode")]) if A("mode") in cube else None
    if mode is not None and mode != 3:
        do("topo-set", nla_u32(A("mode"), mode))
    else:
        print("# custom mode: topo-set skipped")
    ntf = ev.notifications()
    check_msgs(spec, ntf, "event", why, seen)
    ok(not why, "replies and notifications: %s" % ", ".join(sorted(seen)), why)
    events = {spec.ops[v]["name"] for v, op in spec.ops.items() if "event" in op}
    missing = events - {w.split()[0] for w in seen if w.endswith(" event")}
    ok(not missing, "every notification was seen%s" %
       (": missing " + ", ".join(sorted(missing)) if missing else ""))

    print("1..%d" % n)
    print("# policy_test: %d passed, %d failed" % (n - fails, fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
