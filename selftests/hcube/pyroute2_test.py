#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The hcube family driven by pyroute2, a netlink library this project did
not write: the family and its "events" group are resolved by pyroute2 from
the kernel's controller, requests and replies go through its marshalling.
A kselftest: the module loaded, or HCUBE_KO (hcube_module.py); prints TAP."""
import errno
import os
import select
import signal
import struct
import subprocess
import sys

from pyroute2.netlink import NLM_F_ACK, NLM_F_DUMP, NLM_F_REQUEST, genlmsg, nla
from pyroute2.netlink.exceptions import NetlinkError
from pyroute2.netlink.generic import GenericNetlinkSocket

import hcube_module

# enum hcube_cmd
CUBE_GET, VERTEX_GET, TOPO_SET, FAULT_ADD, FAULT_DEL, TASK_ADD, TASK_DEL, \
    TASK_GET, REBALANCE, STATS_GET, CONFIG_GET, CONFIG_SET, FAULT_NTF, \
    TOPO_NTF, TASK_NTF, REBALANCE_NTF = range(1, 17)


class hcubemsg(genlmsg):
    """enum hcube_attr, with its nests."""
    nla_map = (
        ('HCUBE_A_UNSPEC', 'none'),
        ('HCUBE_A_PAD', 'none'),
        ('HCUBE_A_MODE', 'uint32'),
        ('HCUBE_A_DIM', 'uint32'),
        ('HCUBE_A_NVERTICES', 'uint32'),
        ('HCUBE_A_NHEALTHY', 'uint32'),
        ('HCUBE_A_NATTACHED', 'uint32'),
        ('HCUBE_A_NTASKS', 'uint32'),
        ('HCUBE_A_CB_BASE', 'uint32'),
        ('HCUBE_A_CB_MASK', 'uint32'),
        ('HCUBE_A_CB_PATTERN', 'asciiz'),
        ('HCUBE_A_TREE_DEPTH', 'uint32'),
        ('HCUBE_A_GENERATION', 'uint32'),
        ('HCUBE_A_GROUP', 'asciiz'),
        ('HCUBE_A_VERTEX', 'vertex'),
        ('HCUBE_A_CPU', 'uint32'),
        ('HCUBE_A_VERTEX_ID', 'uint32'),
        ('HCUBE_A_PID', 'uint32'),
        ('HCUBE_A_ALL', 'flag'),
        ('HCUBE_A_TASK', 'task'),
        ('HCUBE_A_STATS', 'hex'),
        ('HCUBE_A_CONFIG', 'hex'),
        ('HCUBE_A_REASON', 'uint32'),
        ('HCUBE_A_STATE', 'uint32'),
        ('HCUBE_A_EVENT', 'uint32'),
        ('HCUBE_A_CLUSTER_DIM', 'uint32'),
        ('HCUBE_A_CONTROLLERS', 'cdata'),
        ('HCUBE_A_CLUSTER', 'uint32'),
        ('HCUBE_A_CONTROLLER_OLD', 'uint32'),
        ('HCUBE_A_CONTROLLER_NEW', 'uint32'),
    )

    class vertex(nla):
        nla_map = (
            ('HCUBE_A_VERTEX_INFO_UNSPEC', 'none'),
            ('HCUBE_A_VERTEX_INFO_ID', 'uint32'),
            ('HCUBE_A_VERTEX_INFO_STATE', 'uint32'),
            ('HCUBE_A_VERTEX_INFO_CPUS', 'asciiz'),
            ('HCUBE_A_VERTEX_INFO_USABLE_CPUS', 'asciiz'),
            ('HCUBE_A_VERTEX_INFO_FAULTY_CPUS', 'asciiz'),
            ('HCUBE_A_VERTEX_INFO_OFFLINE_CPUS', 'asciiz'),
            ('HCUBE_A_VERTEX_INFO_LOAD', 'uint32'),
            ('HCUBE_A_VERTEX_INFO_IN_CB', 'flag'),
            ('HCUBE_A_VERTEX_INFO_PARENT', 'int32'),
            ('HCUBE_A_VERTEX_INFO_DIST', 'uint32'),
            ('HCUBE_A_VERTEX_INFO_OMEGA', 'uint32'),
            ('HCUBE_A_VERTEX_INFO_DETACHED', 'flag'),
            ('HCUBE_A_VERTEX_INFO_MARKED', 'flag'),
            ('HCUBE_A_VERTEX_INFO_CONTROLLER', 'flag'),
        )

    class task(nla):
        nla_map = (
            ('HCUBE_A_TASK_UNSPEC', 'none'),
            ('HCUBE_A_TASK_PID', 'uint32'),
            ('HCUBE_A_TASK_TGID', 'uint32'),
            ('HCUBE_A_TASK_COMM', 'asciiz'),
            ('HCUBE_A_TASK_VERTEX', 'uint32'),
            ('HCUBE_A_TASK_STATE', 'uint32'),
            ('HCUBE_A_TASK_ORIG_CPUS', 'asciiz'),
            ('HCUBE_A_TASK_CPUS', 'asciiz'),
            ('HCUBE_A_TASK_ERROR', 'int32'),
            ('HCUBE_A_TASK_REASON', 'uint32'),
        )


class reportmsg(genlmsg):
    """REBALANCE messages: enum hcube_report_attr at the top level."""
    nla_map = (
        ('HCUBE_A_REPORT_UNSPEC', 'none'),
        ('HCUBE_A_REPORT_PAD', 'none'),
        ('HCUBE_A_REPORT_POLICY', 'uint32'),
        ('HCUBE_A_REPORT_DRY_RUN', 'flag'),
        ('HCUBE_A_REPORT_TRIGGER', 'uint32'),
        ('HCUBE_A_REPORT_LOADS_BEFORE', 'cdata'),
        ('HCUBE_A_REPORT_LOADS_PLAN', 'cdata'),
        ('HCUBE_A_REPORT_LOADS_AFTER', 'cdata'),
        ('HCUBE_A_REPORT_TRANSFER', 'transfer'),
        ('HCUBE_A_REPORT_NTRANSFERS', 'uint32'),
        ('HCUBE_A_REPORT_STEPS', 'uint32'),
        ('HCUBE_A_REPORT_COMM_STEPS', 'uint32'),
        ('HCUBE_A_REPORT_MIGRATIONS', 'uint64'),
        ('HCUBE_A_REPORT_MOVED', 'uint32'),
        ('HCUBE_A_REPORT_FAILED', 'uint32'),
    )

    class transfer(nla):
        nla_map = (
            ('HCUBE_A_TRANSFER_UNSPEC', 'none'),
            ('HCUBE_A_TRANSFER_STEP', 'uint32'),
            ('HCUBE_A_TRANSFER_FROM', 'uint32'),
            ('HCUBE_A_TRANSFER_TO', 'uint32'),
            ('HCUBE_A_TRANSFER_COUNT', 'uint32'),
        )


n = 0
fails = 0


def check(cond, what):
    global n, fails
    n += 1
    if not cond:
        fails += 1
    print('%s %d %s' % ('ok' if cond else 'not ok', n, what))
    sys.stdout.flush()


def request(sock, cmd, attrs=(), flags=NLM_F_REQUEST | NLM_F_ACK, cls=hcubemsg):
    msg = cls()
    msg['cmd'] = cmd
    msg['version'] = 1
    msg['attrs'] = list(attrs)
    return sock.nlm_request(msg, msg_type=sock.prid, msg_flags=flags)


def cpulist(s):
    out = set()
    for part in filter(None, s.split(',')):
        a, _, b = part.partition('-')
        out.update(range(int(a), int(b or a) + 1))
    return out


def main():
    hcube_module.need()
    print('TAP version 13')
    sock = GenericNetlinkSocket()
    sock.bind('hcube', hcubemsg)
    check(sock.prid > 0, 'family "hcube" resolved by pyroute2 (id %d)' % sock.prid)
    check('events' in sock.mcast_groups, 'multicast group "events" resolved')

    rsock = GenericNetlinkSocket()
    rsock.bind('hcube', reportmsg)
    events = GenericNetlinkSocket()
    events.bind('hcube', hcubemsg)
    events.add_membership('events')

    kids = [subprocess.Popen(['sleep', '1000']) for _ in range(6)]
    try:
        request(sock, TASK_DEL, [('HCUBE_A_ALL', True)])
        request(sock, TOPO_SET, [('HCUBE_A_MODE', 0)])
        cube = request(sock, CUBE_GET)[0]
        ncpu = os.cpu_count()
        nv = cube.get_attr('HCUBE_A_NVERTICES')
        check(nv >= ncpu and nv < 2 * ncpu and cube.get_attr('HCUBE_A_DIM') ==
              (ncpu - 1).bit_length(), 'cube of %d vertices for %d CPUs in cpu mode' % (nv, ncpu))

        verts = request(sock, VERTEX_GET, flags=NLM_F_REQUEST | NLM_F_DUMP)
        cpus = set()
        for m in verts:
            v = m.get_attr('HCUBE_A_VERTEX')
            cpus |= cpulist(v.get_attr('HCUBE_A_VERTEX_INFO_CPUS'))
        check(len(verts) == nv and cpus == set(range(ncpu)),
              'vertex dump: %d vertices cover every CPU' % len(verts))

        pids = [k.pid for k in kids]
        reply = request(sock, TASK_ADD, [('HCUBE_A_PID', p) for p in pids] +
                        [('HCUBE_A_VERTEX_ID', 0)])
        got = [t.get_attr('HCUBE_A_TASK_PID') for m in reply for t in m.get_attrs('HCUBE_A_TASK')]
        check(sorted(got) == sorted(pids), 'task add: one task nest per pid')

        rep = request(rsock, REBALANCE,
                      [('HCUBE_A_REPORT_POLICY', 0), ('HCUBE_A_REPORT_DRY_RUN', True)],
                      cls=reportmsg)[0]
        before = struct.unpack('%dI' % nv, rep.get_attr('HCUBE_A_REPORT_LOADS_BEFORE'))
        plan = struct.unpack('%dI' % nv, rep.get_attr('HCUBE_A_REPORT_LOADS_PLAN'))
        transfers = [tuple(t.get_attr('HCUBE_A_TRANSFER_' + k)
                           for k in ('STEP', 'FROM', 'TO', 'COUNT'))
                     for t in rep.get_attrs('HCUBE_A_REPORT_TRANSFER')]
        check(sum(before) == len(pids) and before[0] == len(pids) and sum(plan) == len(pids)
              and max(plan) - min(plan) <= 1,
              'dry-run report: all %d on vertex 0 before, balanced in the plan' % len(pids))
        check(len(transfers) > 0 and len(transfers) == rep.get_attr('HCUBE_A_REPORT_NTRANSFERS') and
              all(bin(f ^ t).count('1') == 1 for _, f, t, _ in transfers),
              'dry-run report: %d transfers, each along one edge' % len(transfers))

        request(sock, FAULT_ADD, [('HCUBE_A_VERTEX_ID', 1)])
        seen = set()
        for _ in range(40):
            if not select.select([events], [], [], 0.5)[0]:
                continue
            for m in events.get():
                if m['cmd'] == TASK_NTF:
                    seen.add(('task', m.get_attr('HCUBE_A_TASK').get_attr('HCUBE_A_TASK_PID')))
                if m['cmd'] == FAULT_NTF and m.get_attr('HCUBE_A_VERTEX_ID') == 1 \
                        and m.get_attr('HCUBE_A_EVENT') == 0:
                    seen.add('fault')
            if 'fault' in seen and all(('task', p) in seen for p in pids):
                break
        check('fault' in seen and all(('task', p) in seen for p in pids),
              'events: a task notification per pid and the fault, with what happened')
        loads = {}
        for m in request(sock, VERTEX_GET, flags=NLM_F_REQUEST | NLM_F_DUMP):
            v = m.get_attr('HCUBE_A_VERTEX')
            loads[v.get_attr('HCUBE_A_VERTEX_INFO_ID')] = v.get_attr('HCUBE_A_VERTEX_INFO_LOAD')
        check(loads[1] == 0 and sum(loads.values()) == len(pids),
              'after the fault: vertex 1 empty, no task lost')

        try:
            request(sock, FAULT_ADD, [('HCUBE_A_VERTEX_ID', 999)])
            code = 0
        except NetlinkError as e:
            code = e.code
        check(code == errno.ERANGE, 'a vertex id out of range: ERANGE through pyroute2')
    finally:
        try:
            request(sock, TASK_DEL, [('HCUBE_A_ALL', True)])
            request(sock, FAULT_DEL, [('HCUBE_A_VERTEX_ID', 1)])
        except NetlinkError:
            pass
        for k in kids:
            k.send_signal(signal.SIGKILL)
            k.wait()
    print('1..%d' % n)
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
