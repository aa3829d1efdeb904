// SPDX-License-Identifier: GPL-2.0
/*
 * A fake hcube kernel module for testing hcubectl without one: an LD_PRELOAD
 * library that answers the generic netlink requests hcubectl sends, with
 * messages laid out as the kernel lays them out (genl replies, NLM_F_MULTI
 * dumps ending in NLMSG_DONE, capped acks and errors with extended-ack TLVs
 * and policy nests), and plays a few multicast events to "monitor".
 *
 * It intercepts socket(), setsockopt(), sendmsg(), recvmsg(), poll(),
 * ppoll() and close() on NETLINK_GENERIC sockets (each has its own queue of
 * answers). Requests for the controller about
 * "hcube", and all requests to the fake family, are answered from a queue;
 * everything else goes to the real kernel. Plans come from the project's
 * own core (module/core), the code the module runs.
 *
 * The fake cube (environment):
 *   HCUBE_FAKE_DIM      dimension (default 4)
 *   HCUBE_FAKE_LOADS    comma-separated loads, 1 << dim of them (default:
 *                       the paper's Example 2 for dim 4, else pseudo-random)
 *   HCUBE_FAKE_FAULTY   comma-separated unusable vertices (default for dim 4:
 *                       5 marked faulty, 6 all CPUs faulty, 8 offline,
 *                       10 absent; else none)
 *   HCUBE_FAKE_ISOLATED comma-separated isolated CPUs (isolcpus=): in
 *                       HCUBE_A_VERTEX_INFO_ISOLATED_CPUS, not usable; a
 *                       vertex of isolated CPUs only is in state isolated
 *   HCUBE_FAKE_MCE      comma-separated CPUs a machine check marked faulty;
 *                       given (even empty), each vertex has a CPU_INFO nest
 *                       per faulty or offline CPU with what marked it
 *   HCUBE_FAKE_NOADMIN  set: every mutating command fails with EPERM, and
 *                       joining the events group too (as the module's
 *                       group, GENL_MCAST_CAP_NET_ADMIN)
 *   HCUBE_FAKE_UNLOAD   set: after its events, "monitor" sees the family go
 *   HCUBE_FAKE_LOG      a file that gets one line per request received (its
 *                       command, flags, length, pids and unit)
 *   HCUBE_FAKE_UNITS    set: registration units in replies and events (the
 *                       origin, unit and creator of tasks; new threads and
 *                       children in the events)
 *   HCUBE_FAKE_GONE     comma-separated pids of processes that have exited:
 *                       TASK_ADD answers -ESRCH, TASK_DEL -ENOENT, at the
 *                       first one's HCUBE_A_PID
 *   HCUBE_FAKE_CGROOT   a directory the fake calls the cgroup2 mount: it is
 *                       in /proc/self/mountinfo, and statfs() says cgroup2
 *                       for every directory under it
 *   HCUBE_FAKE_STATE    a file that keeps the fake's state between runs of
 *                       hcubectl (for hcubectl apply and -batch): the mode,
 *                       the faulty CPUs, the marked vertices and the
 *                       settings. With it, FAULT_ADD/DEL, CONFIG_SET and
 *                       TOPO_SET change that state as the module does
 *                       (EEXIST, ENOENT, EBUSY for the last healthy vertex;
 *                       a new topology clears the vertex marks, keeps the
 *                       CPU marks) and write it back. Every mode groups the
 *                       CPUs as the fake always does (2 per vertex): custom
 *                       takes exactly those groups, else EINVAL.
 *
 * Requests are validated as generic netlink does in the 6.1 kernel, with
 * the module's own policies: module/hcube_nl_gen.c, generated from the YNL
 * spec, is compiled into this library, and validate_attrs() follows
 * lib/nlattr.c's strict validation (unknown and unsupported types, lengths,
 * NLA_F_NESTED, string lengths, ranges; -ERANGE with the policy in the ack,
 * as netlink_policy_dump_write_attr() writes it). CPU ids go to nr_cpu_ids -
 * 1 = 2 * (1 << dim) + 7; the last 8 are not present (-ENODEV).
 *
 * A test double of the registration units (HCUBE_A_UNIT, issue 12), enough
 * to test hcubectl: a TASK_ADD without HCUBE_A_UNIT gets the answer of a
 * module without units (one task per pid); with
 * it, the fake applies the unit to the processes of procs[] (job: the
 * process's threads; tree: also its descendants' threads, each a job;
 * thread: that one thread) and answers with each task's origin and unit.
 * Without HCUBE_FAKE_STATE it keeps no state between requests.
 *
 * This file holds the interposed functions and hands each request to its
 * command; fake.h lists the other files, one purpose each.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include "fake.h"

/*
 * The module's ops table: each command's handler, and whether it needs
 * CAP_NET_ADMIN (GENL_ADMIN_PERM). Notifications are not ops.
 */
static const struct {
	void (*doit)(const struct req *r);
	bool admin;
} ops[HCUBE_CMD_MAX + 1] = {
	[HCUBE_CMD_CUBE_GET] = { do_cube_get },
	[HCUBE_CMD_VERTEX_GET] = { do_vertex_get },
	[HCUBE_CMD_TOPO_SET] = { do_topo_set, true },
	[HCUBE_CMD_FAULT_ADD] = { do_fault, true },
	[HCUBE_CMD_FAULT_DEL] = { do_fault, true },
	[HCUBE_CMD_TASK_ADD] = { do_task_add, true },
	[HCUBE_CMD_TASK_DEL] = { do_task_del, true },
	[HCUBE_CMD_TASK_GET] = { do_task_get },
	[HCUBE_CMD_REBALANCE] = { do_rebalance, true },
	[HCUBE_CMD_STATS_GET] = { do_stats_get },
	[HCUBE_CMD_CONFIG_GET] = { do_config_get },
	[HCUBE_CMD_CONFIG_SET] = { do_config_set, true },
};

/* A line about a request; @r: what it carries, when it validated. */
static void fake_log(const struct nlmsghdr *nlh, const struct req *r)
{
	const char *path = getenv("HCUBE_FAKE_LOG");
	FILE *f;
	u32 i;

	if (!path)
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f, "cmd %u flags 0x%x len %u",
		((const struct genlmsghdr *)NLMSG_DATA(nlh))->cmd, nlh->nlmsg_flags,
		nlh->nlmsg_len);
	if (r) {
		fprintf(f, " pids");
		for (i = 0; i < r->npids; i++)
			fprintf(f, "%s%u", i ? "," : " ", get_u32(r->pids[i]));
		fprintf(f, " unit %s", !r->a[HCUBE_A_UNIT] ? "none" :
			get_u32(r->a[HCUBE_A_UNIT]) == HCUBE_UNIT_JOB ? "job" :
			get_u32(r->a[HCUBE_A_UNIT]) == HCUBE_UNIT_TREE ? "tree" : "thread");
	}
	fputc('\n', f);
	fclose(f);
}

/* A request to the fake family: genetlink's checks, then its command's handler. */
static void handle_hcube(const struct nlmsghdr *nlh)
{
	uint8_t cmd = ((const struct genlmsghdr *)NLMSG_DATA(nlh))->cmd;
	struct req *r;

	cube_init();
	r = calloc(1, sizeof(*r));
	/* genetlink: the op, then GENL_ADMIN_PERM, then the policy */
	if (cmd > HCUBE_CMD_MAX || !ops[cmd].doit) {
		fake_log(nlh, NULL);
		queue_error(nlh, -EOPNOTSUPP, NULL);
	} else if (ops[cmd].admin && getenv("HCUBE_FAKE_NOADMIN")) {
		fake_log(nlh, NULL);
		queue_error(nlh, -EPERM, NULL);
	} else if (!parse_req(r, nlh)) {
		fake_log(nlh, NULL);
	} else {
		fake_log(nlh, r);
		ops[cmd].doit(r);
	}
	free(r);
}

/* CTRL_CMD_GETFAMILY by name: answer for "hcube", else let the kernel. */
static bool handle_ctrl(const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *gh = NLMSG_DATA(nlh);
	const char *name = NULL;
	const struct nlattr *a;
	struct mb b = { 0 };
	size_t grps, grp;
	long rem;

	if (gh->cmd != CTRL_CMD_GETFAMILY || (nlh->nlmsg_flags & NLM_F_DUMP))
		return false;
	for_each_attr(a, (const uint8_t *)gh + GENL_HDRLEN,
		      nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, rem)
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_NAME)
			name = (const char *)a + NLA_HDRLEN;
	if (!name || strcmp(name, HCUBE_FAMILY_NAME))
		return false;
	msg_begin(&b, GENL_ID_CTRL, 0, nlh->nlmsg_seq, nlh->nlmsg_pid, CTRL_CMD_NEWFAMILY);
	put_str(&b, CTRL_ATTR_FAMILY_NAME, HCUBE_FAMILY_NAME);
	put_attr(&b, CTRL_ATTR_FAMILY_ID, &(uint16_t){ FAKE_FAMILY }, 2);
	put_u32(&b, CTRL_ATTR_VERSION, HCUBE_FAMILY_VERSION);
	put_u32(&b, CTRL_ATTR_HDRSIZE, 0);
	put_u32(&b, CTRL_ATTR_MAXATTR, HCUBE_A_MAX);
	grps = nest_begin(&b, CTRL_ATTR_MCAST_GROUPS | NLA_F_NESTED);
	grp = nest_begin(&b, 1 | NLA_F_NESTED);
	put_u32(&b, CTRL_ATTR_MCAST_GRP_ID, FAKE_GROUP);
	put_str(&b, CTRL_ATTR_MCAST_GRP_NAME, HCUBE_MCGRP_EVENTS);
	nest_end(&b, grp);
	nest_end(&b, grps);
	msg_end_queue(&b);
	free(b.d);
	queue_ack(nlh);
	return true;
}

/* ---- the interposed functions ---- */

/* /proc/self/mountinfo with HCUBE_FAKE_CGROOT as the cgroup2 mount. */
FILE *fopen(const char *path, const char *mode)
{
	const char *root = getenv("HCUBE_FAKE_CGROOT");
	static char info[4096];
	int n;

	resolve();
	if (!root || strcmp(path, "/proc/self/mountinfo"))
		return real_fopen(path, mode);
	n = snprintf(info, sizeof(info),
		     "22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
		     "30 1 0:26 / %s rw,nosuid,nodev shared:4 - cgroup2 cgroup2 rw\n", root);
	return fmemopen(info, (size_t)n, "r");
}

/* Every directory under HCUBE_FAKE_CGROOT is on a cgroup2 file system. */
int statfs(const char *path, struct statfs *buf)
{
	const char *root = getenv("HCUBE_FAKE_CGROOT");
	int ret;

	resolve();
	ret = real_statfs(path, buf);
	if (!ret && root && !strncmp(path, root, strlen(root)) &&
	    (path[strlen(root)] == '/' || !path[strlen(root)]))
		buf->f_type = CGROUP2_SUPER_MAGIC;
	return ret;
}

int socket(int domain, int type, int protocol)
{
	int fd;

	resolve();
	fd = real_socket(domain, type, protocol);
	if (fd >= 0 && domain == AF_NETLINK && protocol == NETLINK_GENERIC)
		gsock_new(fd);
	return fd;
}

int close(int fd)
{
	resolve();
	gsock_close(fd);
	return real_close(fd);
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	resolve();
	cur_gsock = gsock_of(fd);
	if (cur_gsock && level == SOL_NETLINK && len >= sizeof(int)) {
		int v;

		memcpy(&v, val, sizeof(v));
		if (name == NETLINK_CAP_ACK)
			cur_gsock->cap_ack = v;
		/* as the module's group (GENL_MCAST_CAP_NET_ADMIN) */
		if (name == NETLINK_ADD_MEMBERSHIP && v == FAKE_GROUP &&
		    getenv("HCUBE_FAKE_NOADMIN")) {
			errno = EPERM;
			return -1;
		}
		if (name == NETLINK_ADD_MEMBERSHIP && v == FAKE_GROUP) {
			queue_events();
			return 0;
		}
	}
	return real_setsockopt(fd, level, name, val, len);
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	const struct nlmsghdr *nlh;
	uint8_t *buf;
	size_t len = 0, i;
	bool mine;

	resolve();
	cur_gsock = gsock_of(fd);
	if (!cur_gsock)
		return real_sendmsg(fd, msg, flags);
	for (i = 0; i < msg->msg_iovlen; i++)
		len += msg->msg_iov[i].iov_len;
	buf = malloc(len ? len : 1);
	for (len = 0, i = 0; i < msg->msg_iovlen; i++) {
		memcpy(buf + len, msg->msg_iov[i].iov_base, msg->msg_iov[i].iov_len);
		len += msg->msg_iov[i].iov_len;
	}
	nlh = (const struct nlmsghdr *)buf;
	mine = len >= NLMSG_HDRLEN + GENL_HDRLEN && nlh->nlmsg_len <= len &&
	       nlh->nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN &&
	       (nlh->nlmsg_type == FAKE_FAMILY ||
		(nlh->nlmsg_type == GENL_ID_CTRL && handle_ctrl(nlh)));
	if (mine && nlh->nlmsg_type == FAKE_FAMILY)
		handle_hcube(nlh);
	free(buf);
	if (!mine)
		return real_sendmsg(fd, msg, flags);
	return (ssize_t)len;
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct gsock *g = gsock_of(fd);
	struct qmsg *qhead = g ? g->qhead : NULL;
	size_t room = 0, copied = 0, i;

	resolve();
	if (!qhead)
		return real_recvmsg(fd, msg, flags);
	for (i = 0; i < msg->msg_iovlen; i++) {
		size_t n = msg->msg_iov[i].iov_len;

		if (n > qhead->len - copied)
			n = qhead->len - copied;
		memcpy(msg->msg_iov[i].iov_base, qhead->data + copied, n);
		copied += n;
		room += msg->msg_iov[i].iov_len;
	}
	if (msg->msg_name && msg->msg_namelen >= sizeof(kernel)) {
		memcpy(msg->msg_name, &kernel, sizeof(kernel));
		msg->msg_namelen = sizeof(kernel);
	}
	msg->msg_controllen = 0;
	msg->msg_flags = qhead->len > room ? MSG_TRUNC : 0;
	{
		size_t full = qhead->len;

		if (!(flags & MSG_PEEK))
			dequeue(g);
		return (ssize_t)((flags & MSG_TRUNC) ? full : copied);
	}
}

static int queued_poll(struct pollfd *fds, nfds_t n)
{
	nfds_t i;
	int ready = 0;

	for (i = 0; i < n; i++) {
		struct gsock *g = gsock_of(fds[i].fd);

		fds[i].revents = 0;
		if (g && g->qhead && (fds[i].events & POLLIN)) {
			fds[i].revents = POLLIN;
			ready++;
		}
	}
	return ready;
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	int ready;

	resolve();
	ready = queued_poll(fds, n);
	return ready ? ready : real_poll(fds, n, timeout);
}

int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask)
{
	int ready;

	resolve();
	ready = queued_poll(fds, n);
	return ready ? ready : real_ppoll(fds, n, ts, mask);
}
