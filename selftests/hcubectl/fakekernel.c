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
 *                       HCUBE_V_A_ISOLATED_CPUS, not usable; a vertex of
 *                       isolated CPUs only is in state isolated
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
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/hcube.h>
#include "hcube_core.h"
#include "hcube_errors.h"
#include "hcube_nl_gen.h"

#define FAKE_FAMILY	0x7ff0
#define FAKE_GROUP	0x3ff0
#define CPUS_PER_VERTEX	2
/* CPU ids: 0 .. nr_cpu_ids - 1; those past the cube's are not present. */
#define FAKE_NR_CPU_IDS	(cube.n * CPUS_PER_VERTEX + 8)
#define FAKE_NR_CPU_IDS_MAX	((1 << HCUBE_MAX_DIM) * CPUS_PER_VERTEX + 8)

/* ---- the real functions ---- */

static int (*real_socket)(int, int, int);
static int (*real_setsockopt)(int, int, int, const void *, socklen_t);
static ssize_t (*real_sendmsg)(int, const struct msghdr *, int);
static ssize_t (*real_recvmsg)(int, struct msghdr *, int);
static int (*real_poll)(struct pollfd *, nfds_t, int);
static int (*real_ppoll)(struct pollfd *, nfds_t, const struct timespec *,
			 const sigset_t *);
static FILE *(*real_fopen)(const char *, const char *);
static int (*real_statfs)(const char *, struct statfs *);
static int (*real_close)(int);

static void resolve(void)
{
	if (real_socket)
		return;
	real_socket = dlsym(RTLD_NEXT, "socket");
	real_setsockopt = dlsym(RTLD_NEXT, "setsockopt");
	real_sendmsg = dlsym(RTLD_NEXT, "sendmsg");
	real_recvmsg = dlsym(RTLD_NEXT, "recvmsg");
	real_poll = dlsym(RTLD_NEXT, "poll");
	real_ppoll = dlsym(RTLD_NEXT, "ppoll");
	real_fopen = dlsym(RTLD_NEXT, "fopen");
	real_statfs = dlsym(RTLD_NEXT, "statfs");
	real_close = dlsym(RTLD_NEXT, "close");
}

/* ---- the generic netlink socket and its queue of messages to read ---- */

struct qmsg {
	struct qmsg *next;
	size_t len;
	uint8_t data[];
};

/*
 * The generic netlink sockets (hcubectl top has two: requests and events),
 * each with its own queue; @cur is the one whose request or membership is
 * being answered.
 */
#define MAX_GSOCKS	8

struct gsock {
	int fd;			/* -1: a free slot */
	bool cap_ack;
	struct qmsg *qhead, **qtail;
};

static struct gsock gsocks[MAX_GSOCKS] = { [0 ... MAX_GSOCKS - 1] = { .fd = -1 } };
static struct gsock *cur;

static struct gsock *gsock_of(int fd)
{
	size_t i;

	for (i = 0; fd >= 0 && i < MAX_GSOCKS; i++)
		if (gsocks[i].fd == fd)
			return &gsocks[i];
	return NULL;
}

static void enqueue(const void *data, size_t len)
{
	struct qmsg *m = malloc(sizeof(*m) + len);

	if (!m)
		abort();
	m->next = NULL;
	m->len = len;
	memcpy(m->data, data, len);
	*cur->qtail = m;
	cur->qtail = &m->next;
}

static void dequeue(struct gsock *g)
{
	struct qmsg *m = g->qhead;

	g->qhead = m->next;
	if (!g->qhead)
		g->qtail = &g->qhead;
	free(m);
}

/* A new socket on @fd (a number the kernel may have given out before). */
static void gsock_new(int fd)
{
	struct gsock *g = gsock_of(fd);
	size_t i;

	for (i = 0; !g && i < MAX_GSOCKS; i++)
		if (gsocks[i].fd < 0)
			g = &gsocks[i];
	if (!g) {
		fprintf(stderr, "fake kernel: more than %d generic netlink sockets\n", MAX_GSOCKS);
		abort();
	}
	while (g->qhead)
		dequeue(g);
	*g = (struct gsock){ .fd = fd };
	g->qtail = &g->qhead;
}

/* ---- building messages ---- */

struct mb {
	uint8_t *d;
	size_t len, cap;
	size_t msg;	/* start of the current message */
};

static void mb_room(struct mb *b, size_t n)
{
	if (b->len + n <= b->cap)
		return;
	b->cap = 2 * (b->len + n) + 4096;
	b->d = realloc(b->d, b->cap);
	if (!b->d)
		abort();
}

static void mb_put(struct mb *b, const void *p, size_t n)
{
	mb_room(b, n + 4);
	memcpy(b->d + b->len, p, n);
	b->len += n;
	while (b->len % 4)
		b->d[b->len++] = 0;
}

static void msg_begin(struct mb *b, uint16_t type, uint16_t flags, uint32_t seq,
		      uint32_t pid, int cmd)
{
	struct nlmsghdr nlh = {
		.nlmsg_type = type, .nlmsg_flags = flags, .nlmsg_seq = seq,
		.nlmsg_pid = pid,
	};

	b->len = 0;
	b->msg = 0;
	mb_put(b, &nlh, sizeof(nlh));
	if (cmd >= 0) {
		struct genlmsghdr gh = { .cmd = (uint8_t)cmd, .version = 1 };

		mb_put(b, &gh, sizeof(gh));
	}
}

static void msg_end_queue(struct mb *b)
{
	uint32_t len = (uint32_t)b->len;

	memcpy(b->d, &len, sizeof(len));
	enqueue(b->d, b->len);
}

static size_t nest_begin(struct mb *b, uint16_t type)
{
	struct nlattr nla = { .nla_type = type };
	size_t off = b->len;

	mb_put(b, &nla, sizeof(nla));
	return off;
}

static void nest_end(struct mb *b, size_t off)
{
	size_t len = b->len - off;

	if (len > 0xffff) {
		fprintf(stderr, "fake kernel: attribute %u of %zu bytes does not fit nla_len\n",
			b->d[off + 2] | b->d[off + 3] << 8, len);
		abort();
	}
	memcpy(b->d + off, &(uint16_t){ (uint16_t)len }, 2);
}

static void put_attr(struct mb *b, uint16_t type, const void *p, size_t n)
{
	struct nlattr nla = { .nla_len = (uint16_t)(NLA_HDRLEN + n), .nla_type = type };

	if (NLA_HDRLEN + n > 0xffff) {
		fprintf(stderr, "fake kernel: attribute %u of %zu bytes does not fit nla_len\n",
			type, n);
		abort();
	}
	mb_room(b, NLA_HDRLEN + n + 4);
	memcpy(b->d + b->len, &nla, sizeof(nla));
	memcpy(b->d + b->len + NLA_HDRLEN, p, n);
	b->len += NLA_HDRLEN + n;
	while (b->len % 4)
		b->d[b->len++] = 0;
}

static void put_u32(struct mb *b, uint16_t type, uint32_t v)
{
	put_attr(b, type, &v, sizeof(v));
}

static void put_str(struct mb *b, uint16_t type, const char *s)
{
	put_attr(b, type, s, strlen(s) + 1);
}

/* Like nla_put_64bit(): a pad attribute first when the value would be unaligned. */
static void put_u64(struct mb *b, uint16_t type, uint64_t v, uint16_t pad)
{
	if ((b->len + NLA_HDRLEN) % 8)
		put_attr(b, pad, NULL, 0);
	put_attr(b, type, &v, sizeof(v));
}

/* ---- acks and errors ---- */

struct ext {
	const char *msg;
	bool has_offs;
	uint32_t offs;
	const struct nla_policy *pol;	/* the bad attribute's policy, or */
	bool has_range;			/* a u32 range of the fake's own */
	uint64_t min, max;
	bool has_miss;
	uint32_t miss_type;
};

/* The range an integer policy allows (nla_get_range_unsigned()). */
static void policy_range(const struct nla_policy *pt, uint64_t *min, uint64_t *max)
{
	static const uint64_t type_max[__NLA_TYPE_MAX] = {
		[NLA_U8] = UINT8_MAX, [NLA_U16] = UINT16_MAX, [NLA_U32] = UINT32_MAX,
		[NLA_U64] = UINT64_MAX,
	};

	*min = 0;
	*max = type_max[pt->type];
	switch (pt->validation_type) {
	case NLA_VALIDATE_RANGE:
		*min = (uint64_t)pt->min;
		*max = (uint64_t)pt->max;
		break;
	case NLA_VALIDATE_RANGE_PTR:
		*min = pt->range->min;
		*max = pt->range->max;
		break;
	case NLA_VALIDATE_MIN:
		*min = (uint64_t)pt->min;
		break;
	case NLA_VALIDATE_MAX:
		*max = (uint64_t)pt->max;
		break;
	default:
		break;
	}
}

static void put_range(struct mb *b, u32 type, uint64_t min, uint64_t max)
{
	size_t n = nest_begin(b, NLMSGERR_ATTR_POLICY | NLA_F_NESTED);

	put_u32(b, NL_POLICY_TYPE_ATTR_TYPE, type);
	put_u64(b, NL_POLICY_TYPE_ATTR_MIN_VALUE_U, min, NL_POLICY_TYPE_ATTR_PAD);
	put_u64(b, NL_POLICY_TYPE_ATTR_MAX_VALUE_U, max, NL_POLICY_TYPE_ATTR_PAD);
	nest_end(b, n);
}

/* An attribute's policy in an ack, as netlink_policy_dump_write_attr(). */
static void put_policy(struct mb *b, const struct nla_policy *pt)
{
	static const u32 nl_type[__NLA_TYPE_MAX] = {
		[NLA_U8] = NL_ATTR_TYPE_U8, [NLA_U16] = NL_ATTR_TYPE_U16,
		[NLA_U32] = NL_ATTR_TYPE_U32, [NLA_U64] = NL_ATTR_TYPE_U64,
		[NLA_STRING] = NL_ATTR_TYPE_STRING, [NLA_NUL_STRING] = NL_ATTR_TYPE_NUL_STRING,
		[NLA_BINARY] = NL_ATTR_TYPE_BINARY, [NLA_FLAG] = NL_ATTR_TYPE_FLAG,
		[NLA_NESTED] = NL_ATTR_TYPE_NESTED,
	};
	uint64_t min, max;
	size_t n;

	switch (pt->type) {
	case NLA_U8: case NLA_U16: case NLA_U32: case NLA_U64:
		policy_range(pt, &min, &max);
		put_range(b, nl_type[pt->type], min, max);
		break;
	case NLA_STRING: case NLA_NUL_STRING: case NLA_BINARY: case NLA_FLAG: case NLA_NESTED:
		n = nest_begin(b, NLMSGERR_ATTR_POLICY | NLA_F_NESTED);
		put_u32(b, NL_POLICY_TYPE_ATTR_TYPE, nl_type[pt->type]);
		if (pt->type != NLA_FLAG && pt->type != NLA_NESTED && pt->len)
			put_u32(b, NL_POLICY_TYPE_ATTR_MAX_LENGTH, pt->len);
		nest_end(b, n);
		break;
	default:
		break;	/* NLA_REJECT, NLA_UNSPEC: no policy to show */
	}
}

static void queue_error(const struct nlmsghdr *req, int error, const struct ext *x)
{
	bool tlvs = x && (x->msg || x->has_offs || x->pol || x->has_range || x->has_miss);
	bool capped = cur->cap_ack || !error;
	struct nlmsgerr e = { .error = error };
	struct mb b = { 0 };

	msg_begin(&b, NLMSG_ERROR, (capped ? NLM_F_CAPPED : 0) |
		  (tlvs ? NLM_F_ACK_TLVS : 0), req->nlmsg_seq, req->nlmsg_pid, -1);
	memcpy(&e.msg, req, sizeof(*req));
	mb_put(&b, &e, sizeof(e));
	if (!capped)
		mb_put(&b, (const uint8_t *)req + NLMSG_HDRLEN,
		       req->nlmsg_len - NLMSG_HDRLEN);
	if (tlvs && x->msg)
		put_str(&b, NLMSGERR_ATTR_MSG, x->msg);
	if (tlvs && x->has_offs)
		put_u32(&b, NLMSGERR_ATTR_OFFS, x->offs);
	if (tlvs && x->has_miss)
		put_u32(&b, NLMSGERR_ATTR_MISS_TYPE, x->miss_type);
	if (tlvs && x->pol)
		put_policy(&b, x->pol);
	else if (tlvs && x->has_range)
		put_range(&b, NL_ATTR_TYPE_U32, x->min, x->max);
	msg_end_queue(&b);
	free(b.d);
}

static void queue_ack(const struct nlmsghdr *req)
{
	if (req->nlmsg_flags & NLM_F_ACK)
		queue_error(req, 0, NULL);
}

static void queue_done(const struct nlmsghdr *req)
{
	struct mb b = { 0 };
	int32_t zero = 0;

	msg_begin(&b, NLMSG_DONE, NLM_F_MULTI, req->nlmsg_seq, req->nlmsg_pid, -1);
	mb_put(&b, &zero, sizeof(zero));
	msg_end_queue(&b);
	free(b.d);
}

/* ---- the fake cube ---- */

static struct {
	bool ready;
	u32 dim, n;
	u8 *core_state;		/* hcube_vstate for the core */
	u32 *vstate;		/* the uAPI's state */
	bool *marked;
	bool *cpu_faulty;	/* FAKE_NR_CPU_IDS */
	bool *cpu_isolated;	/* FAKE_NR_CPU_IDS */
	u32 *env_state;		/* the state the environment gives (offline, absent) */
	u32 mode;
	u32 cfg[7];		/* policy, auto, threshold, cooldown_ms, mce_ce_threshold,
				 * mce_ce_window, mce_uc */
	u16 *ctrl;		/* pebble controllers per cluster */
	u32 *load;
	struct hcube_topo topo;
	void *topo_mem, *work;
} cube;

static const u32 ex2_loads[16] = { 6, 2, 4, 20, 4, 0, 0, 10, 0, 10, 0, 5, 15, 12, 14, 18 };

static size_t parse_list(const char *s, u32 *out, size_t cap)
{
	size_t n = 0;

	while (s && *s && n < cap) {
		char *end;

		out[n++] = (u32)strtoul(s, &end, 10);
		s = *end == ',' ? end + 1 : end;
		if (!*end)
			break;
	}
	return n;
}

/* HCUBE_FAKE_STATE: "mode M", "cpus C,C", "marked V,V", "config P A T C". */
static void state_load(void)
{
	const char *path = getenv("HCUBE_FAKE_STATE");
	char line[8192];
	u32 list[1024], v;
	size_t n, i;
	FILE *f;

	if (!path)
		return;
	f = real_fopen ? real_fopen(path, "r") : NULL;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "mode ", 5)) {
			cube.mode = (u32)atoi(line + 5);
		} else if (!strncmp(line, "cpus", 4)) {
			n = parse_list(line[4] ? line + 5 : "", list, 1024);
			memset(cube.cpu_faulty, 0, FAKE_NR_CPU_IDS);
			for (i = 0; i < n; i++)
				if (list[i] < FAKE_NR_CPU_IDS)
					cube.cpu_faulty[list[i]] = true;
		} else if (!strncmp(line, "marked", 6)) {
			n = parse_list(line[6] ? line + 7 : "", list, 1024);
			memset(cube.marked, 0, cube.n * sizeof(bool));
			for (i = 0; i < n; i++)
				if (list[i] < cube.n)
					cube.marked[list[i]] = true;
		} else if (!strncmp(line, "config ", 7)) {
			sscanf(line + 7, "%u %u %u %u %u %u %u", &cube.cfg[0], &cube.cfg[1],
			       &cube.cfg[2], &cube.cfg[3], &cube.cfg[4], &cube.cfg[5],
			       &cube.cfg[6]);
		}
	}
	fclose(f);
	for (v = 0; v < cube.n; v++) {
		bool all = cube.env_state[v] != HCUBE_VERTEX_ABSENT;

		for (i = 0; i < CPUS_PER_VERTEX; i++)
			all = all && cube.cpu_faulty[v * CPUS_PER_VERTEX + i];
		cube.vstate[v] = cube.marked[v] || all ? HCUBE_VERTEX_FAULTY : cube.env_state[v];
	}
}

static void state_save(void)
{
	const char *path = getenv("HCUBE_FAKE_STATE");
	const char *sep = " ";
	FILE *f;
	u32 i;

	if (!path || !(f = real_fopen(path, "w")))
		return;
	fprintf(f, "mode %u\ncpus", cube.mode);
	for (i = 0; i < FAKE_NR_CPU_IDS; i++)
		if (cube.cpu_faulty[i]) {
			fprintf(f, "%s%u", sep, i);
			sep = ",";
		}
	fprintf(f, "\nmarked");
	sep = " ";
	for (i = 0; i < cube.n; i++)
		if (cube.marked[i]) {
			fprintf(f, "%s%u", sep, i);
			sep = ",";
		}
	fprintf(f, "\nconfig %u %u %u %u %u %u %u\n", cube.cfg[0], cube.cfg[1], cube.cfg[2],
		cube.cfg[3], cube.cfg[4], cube.cfg[5], cube.cfg[6]);
	fclose(f);
}

static void cube_init(void)
{
	const char *s;
	u32 v, i, list[1024];
	size_t nl;
	unsigned int seed = 7;

	if (cube.ready)
		return;
	s = getenv("HCUBE_FAKE_DIM");
	cube.dim = s ? (u32)atoi(s) : 4;
	if (cube.dim > HCUBE_MAX_DIM)
		cube.dim = HCUBE_MAX_DIM;
	cube.n = 1U << cube.dim;
	cube.core_state = calloc(cube.n, 1);
	cube.vstate = calloc(cube.n, sizeof(u32));
	cube.marked = calloc(cube.n, sizeof(bool));
	cube.load = calloc(cube.n, sizeof(u32));

	s = getenv("HCUBE_FAKE_FAULTY");
	if (!s && cube.dim == 4) {
		cube.vstate[5] = HCUBE_VERTEX_FAULTY;
		cube.marked[5] = true;
		cube.vstate[6] = HCUBE_VERTEX_FAULTY;
		cube.vstate[8] = HCUBE_VERTEX_OFFLINE;
		cube.vstate[10] = HCUBE_VERTEX_ABSENT;
	} else {
		nl = parse_list(s, list, 1024);
		for (i = 0; i < nl; i++)
			if (list[i] < cube.n) {
				cube.vstate[list[i]] = HCUBE_VERTEX_FAULTY;
				cube.marked[list[i]] = true;
			}
	}
	/* vertices offline (all their CPUs), which no file can know of */
	s = getenv("HCUBE_FAKE_OFFLINE");
	nl = s ? parse_list(s, list, 1024) : 0;
	for (i = 0; i < nl; i++)
		if (list[i] < cube.n)
			cube.vstate[list[i]] = HCUBE_VERTEX_OFFLINE;
	cube.cpu_faulty = calloc(FAKE_NR_CPU_IDS, sizeof(bool));
	cube.cpu_isolated = calloc(FAKE_NR_CPU_IDS, sizeof(bool));
	s = getenv("HCUBE_FAKE_ISOLATED");
	nl = s ? parse_list(s, list, 1024) : 0;
	for (i = 0; i < nl; i++)
		if (list[i] < cube.n * CPUS_PER_VERTEX)
			cube.cpu_isolated[list[i]] = true;
	for (v = 0; v < cube.n; v++)
		if (cube.vstate[v] == HCUBE_VERTEX_HEALTHY &&
		    cube.cpu_isolated[v * CPUS_PER_VERTEX] &&
		    cube.cpu_isolated[v * CPUS_PER_VERTEX + 1])
			cube.vstate[v] = HCUBE_VERTEX_ISOLATED;
	cube.env_state = calloc(cube.n, sizeof(u32));
	for (v = 0; v < cube.n; v++) {
		/* a faulty vertex not marked: all its CPUs are faulty */
		if (cube.vstate[v] == HCUBE_VERTEX_FAULTY && !cube.marked[v]) {
			cube.cpu_faulty[v * CPUS_PER_VERTEX] = true;
			cube.cpu_faulty[v * CPUS_PER_VERTEX + 1] = true;
		}
		cube.env_state[v] = cube.vstate[v] == HCUBE_VERTEX_FAULTY ?
				    HCUBE_VERTEX_HEALTHY : cube.vstate[v];
	}
	cube.mode = HCUBE_MODE_LLC;
	cube.cfg[0] = HCUBE_POLICY_DEM;
	cube.cfg[1] = 1;
	cube.cfg[2] = 3;
	cube.cfg[3] = 250;
	cube.cfg[5] = 86400;
	state_load();
	for (v = 0; v < cube.n; v++)
		cube.core_state[v] = cube.vstate[v] == HCUBE_VERTEX_HEALTHY ? HCUBE_V_HEALTHY :
				     cube.vstate[v] == HCUBE_VERTEX_OFFLINE ? HCUBE_V_OFFLINE :
				     cube.vstate[v] == HCUBE_VERTEX_ABSENT ? HCUBE_V_ABSENT :
				     HCUBE_V_FAULTY;

	s = getenv("HCUBE_FAKE_LOADS");
	if (s) {
		parse_list(s, cube.load, cube.n);
	} else {
		for (v = 0; v < cube.n; v++)
			cube.load[v] = cube.dim == 4 ? ex2_loads[v] :
				       (u32)(rand_r(&seed) % 50);
	}
	for (v = 0; v < cube.n; v++)
		if (cube.core_state[v] != HCUBE_V_HEALTHY)
			cube.load[v] = 0;

	/* as the module: the initial election, lowest healthy label */
	cube.ctrl = malloc((1U << cube.dim) * sizeof(uint16_t));
	for (v = 0; v < cube.n; v++)
		cube.ctrl[v] = HCUBE_VERTEX_NONE;
	hcube_pebble_elect(cube.dim, hcube_pebble_cdim(cube.dim), cube.core_state,
			   cube.ctrl);
	cube.topo_mem = malloc(hcube_topo_memsize(cube.dim));
	cube.work = malloc(hcube_work_memsize(cube.dim));
	if (hcube_topo_init(&cube.topo, cube.dim, cube.topo_mem) ||
	    hcube_topo_build(&cube.topo, cube.dim, cube.core_state, cube.work))
		fprintf(stderr, "fake kernel: no topology for this cube\n");
	hcube_cpu_ids.max = FAKE_NR_CPU_IDS - 1;	/* as hcube_nl_init() */
	cube.ready = true;
}

static bool usable(u32 v)
{
	return cube.vstate[v] == HCUBE_VERTEX_HEALTHY;
}

/* HCUBE_FAKE_STATE: the states and the topology after a change; saved. */
static void cube_refresh(void)
{
	u32 v, i;

	for (v = 0; v < cube.n; v++) {
		bool all = cube.env_state[v] != HCUBE_VERTEX_ABSENT;

		for (i = 0; i < CPUS_PER_VERTEX; i++)
			all = all && cube.cpu_faulty[v * CPUS_PER_VERTEX + i];
		cube.vstate[v] = cube.marked[v] || all ? HCUBE_VERTEX_FAULTY : cube.env_state[v];
		cube.core_state[v] = cube.vstate[v] == HCUBE_VERTEX_HEALTHY ? HCUBE_V_HEALTHY :
				     cube.vstate[v] == HCUBE_VERTEX_OFFLINE ? HCUBE_V_OFFLINE :
				     cube.vstate[v] == HCUBE_VERTEX_ABSENT ? HCUBE_V_ABSENT :
				     HCUBE_V_FAULTY;
		if (!usable(v))
			cube.load[v] = 0;
	}
	hcube_topo_build(&cube.topo, cube.dim, cube.core_state, cube.work);
	state_save();
}

/* Would a vertex stay healthy with CPU @cpu (or vertex @vx) marked too? */
static bool any_healthy_with(int cpu, int vx)
{
	u32 v, i;

	for (v = 0; v < cube.n; v++) {
		bool all = true;

		if (cube.env_state[v] != HCUBE_VERTEX_HEALTHY || cube.marked[v] || (int)v == vx)
			continue;
		for (i = v * CPUS_PER_VERTEX; i < (v + 1) * CPUS_PER_VERTEX; i++)
			all = all && (cube.cpu_faulty[i] || (int)i == cpu);
		if (!all)
			return true;
	}
	return false;
}

static void put_pattern(struct mb *b, uint16_t type)
{
	char pat[HCUBE_MAX_DIM + 2];

	put_str(b, type, hcube_pattern(pat, cube.dim, cube.topo.cb_base, cube.topo.cb_mask));
}

static void put_summary(struct mb *b)
{
	put_u32(b, HCUBE_A_MODE, cube.mode);
	put_u32(b, HCUBE_A_DIM, cube.dim);
	put_u32(b, HCUBE_A_NVERTICES, cube.n);
	put_u32(b, HCUBE_A_NHEALTHY, cube.topo.nhealthy);
	put_u32(b, HCUBE_A_NATTACHED, cube.topo.nattached);
	put_u32(b, HCUBE_A_NTASKS, 4);
	put_u32(b, HCUBE_A_CB_BASE, cube.topo.cb_base);
	put_u32(b, HCUBE_A_CB_MASK, cube.topo.cb_mask);
	put_pattern(b, HCUBE_A_CB_PATTERN);
	put_u32(b, HCUBE_A_TREE_DEPTH, cube.topo.depth);
	put_u32(b, HCUBE_A_GENERATION, 42);
	put_u32(b, HCUBE_A_CLUSTER_DIM, hcube_pebble_cdim(cube.dim));
	put_attr(b, HCUBE_A_CONTROLLERS, cube.ctrl,
		 (1U << (cube.dim - hcube_pebble_cdim(cube.dim))) * sizeof(uint16_t));
}

static void cpus_of(u32 v, char *buf, size_t size)
{
	snprintf(buf, size, "%u-%u", v * CPUS_PER_VERTEX, v * CPUS_PER_VERTEX + 1);
}

/* The CPUs of vertex @v (CPUS_PER_VERTEX is 2) in @set: "a-b", "a", "b" or "". */
static void cpus_in(u32 v, const bool *set, char *buf, size_t size)
{
	u32 c0 = v * CPUS_PER_VERTEX;

	if (set[c0] && set[c0 + 1])
		snprintf(buf, size, "%u-%u", c0, c0 + 1);
	else if (set[c0] || set[c0 + 1])
		snprintf(buf, size, "%u", c0 + !set[c0]);
	else
		buf[0] = '\0';
}

static void put_vertex(struct mb *b, u32 v)
{
	size_t n = nest_begin(b, HCUBE_A_VERTEX | NLA_F_NESTED);
	char cpus[32];

	cpus_of(v, cpus, sizeof(cpus));
	put_u32(b, HCUBE_V_A_ID, v);
	put_u32(b, HCUBE_V_A_STATE, cube.vstate[v]);
	if (cube.vstate[v] != HCUBE_VERTEX_ABSENT) {
		put_str(b, HCUBE_V_A_CPUS, cpus);
		u32 c0 = v * CPUS_PER_VERTEX;
		char faulty[32], isolated[32], use[32] = "";

		cpus_in(v, cube.cpu_faulty, faulty, sizeof(faulty));
		cpus_in(v, cube.cpu_isolated, isolated, sizeof(isolated));
		/* a healthy vertex has one isolated CPU at most */
		if (usable(v))
			snprintf(use, sizeof(use), "%s", cpus);
		if (usable(v) && *isolated)
			snprintf(use, sizeof(use), "%u", cube.cpu_isolated[c0] ? c0 + 1 : c0);
		put_str(b, HCUBE_V_A_USABLE_CPUS, use);
		put_str(b, HCUBE_V_A_FAULTY_CPUS, faulty);
		put_str(b, HCUBE_V_A_OFFLINE_CPUS,
			cube.vstate[v] == HCUBE_VERTEX_OFFLINE ? cpus : "");
		put_str(b, HCUBE_V_A_ISOLATED_CPUS, isolated);
	}
	put_u32(b, HCUBE_V_A_LOAD, cube.load[v]);
	if (cube.topo.dist[v] == 0 && usable(v))
		put_attr(b, HCUBE_V_A_IN_CB, NULL, 0);
	put_attr(b, HCUBE_V_A_PARENT, &(int32_t){ cube.topo.parent[v] }, 4);
	if (cube.topo.dist[v] != HCUBE_DIST_NONE)
		put_u32(b, HCUBE_V_A_DIST, cube.topo.dist[v]);
	put_u32(b, HCUBE_V_A_OMEGA, cube.topo.omega[v]);
	if (usable(v) && cube.topo.dist[v] == HCUBE_DIST_NONE)
		put_attr(b, HCUBE_V_A_DETACHED, NULL, 0);
	if (cube.marked[v])
		put_attr(b, HCUBE_V_A_MARKED, NULL, 0);
	if (cube.ctrl[v >> hcube_pebble_cdim(cube.dim)] == v)
		put_attr(b, HCUBE_V_A_CONTROLLER, NULL, 0);
	nest_end(b, n);
}

struct task_desc {
	u32 pid, tgid, vertex, state, reason;
	const char *comm, *cpus, *orig;
	bool has_error, has_reason;
	int32_t error;
	bool has_units;		/* origin and unit */
	u32 origin, unit;
	u32 creator;		/* 0: not sent */
	bool no_vertex;		/* nor state */
};

static void put_task(struct mb *b, uint16_t type, const struct task_desc *t)
{
	size_t n = nest_begin(b, type | NLA_F_NESTED);

	put_u32(b, HCUBE_T_A_PID, t->pid);
	if (t->tgid)
		put_u32(b, HCUBE_T_A_TGID, t->tgid);
	if (t->comm)
		put_str(b, HCUBE_T_A_COMM, t->comm);
	if (!t->no_vertex)
		put_u32(b, HCUBE_T_A_VERTEX, t->vertex);
	if (type != HCUBE_R_A_FAILURE && !t->no_vertex)
		put_u32(b, HCUBE_T_A_STATE, t->state);
	if (t->cpus)
		put_str(b, HCUBE_T_A_CPUS, t->cpus);
	if (t->orig)
		put_str(b, HCUBE_T_A_ORIG_CPUS, t->orig);
	if (t->has_error)
		put_attr(b, HCUBE_T_A_ERROR, &t->error, sizeof(t->error));
	if (t->has_reason)
		put_u32(b, HCUBE_T_A_REASON, t->reason);
	if (t->has_units)
		put_u32(b, HCUBE_T_A_ORIGIN, t->origin);
	if (t->has_units)
		put_u32(b, HCUBE_T_A_UNIT, t->unit);
	if (t->creator)
		put_u32(b, HCUBE_T_A_CREATOR, t->creator);
	nest_end(b, n);
}

/*
 * The processes the unit semantics apply to: 500 with threads 501 and 502,
 * its children 510 and 520 (with thread 521), 510's child 530. Any other
 * pid is a one-thread process without children.
 */
static const struct fake_proc {
	u32 pid, tgid, ppid;
	const char *comm;
} procs[] = {
	{ 500, 500, 1, "job" }, { 501, 500, 1, "job" }, { 502, 500, 1, "job" },
	{ 510, 510, 500, "child" }, { 520, 520, 500, "child" }, { 521, 520, 500, "child" },
	{ 530, 530, 510, "grandchild" },
};

static u32 tgid_of(u32 pid)
{
	size_t i;

	for (i = 0; i < sizeof(procs) / sizeof(procs[0]); i++)
		if (procs[i].pid == pid)
			return procs[i].tgid;
	return pid;
}

/* Is @pid in the comma-separated list of environment variable @var? */
static bool listed(const char *var, u32 pid)
{
	u32 list[256];
	size_t n = parse_list(getenv(var), list, 256), i;

	for (i = 0; i < n; i++)
		if (list[i] == pid)
			return true;
	return false;
}

/* The n-th healthy vertex, cyclically. */
static u32 healthy_vertex(u32 k)
{
	u32 v, seen = 0;

	for (;;)
		for (v = 0; v < cube.n; v++)
			if (usable(v) && seen++ == k)
				return v;
}

/* ---- requests ---- */

struct req {
	const struct nlmsghdr *nlh;
	uint8_t cmd;
	const struct nlattr *a[HCUBE_A_MAX + 1];
	const struct nlattr *pids[4096];
	u32 npids;
	const struct nlattr *groups[1024];
	u32 ngroups;
};

static uint32_t offs_of(const struct req *r, const void *attr)
{
	return (uint32_t)((const uint8_t *)attr - (const uint8_t *)r->nlh);
}

static u32 get_u32(const struct nlattr *a)
{
	u32 v;

	memcpy(&v, (const uint8_t *)a + NLA_HDRLEN, sizeof(v));
	return v;
}

static bool fail(const struct req *r, int error, const char *msg, const void *attr,
		 bool range, uint64_t min, uint64_t max)
{
	struct ext x = {
		.msg = msg, .has_offs = attr != NULL,
		.offs = attr ? offs_of(r, attr) : 0,
		.has_range = range, .min = min, .max = max,
	};

	queue_error(r->nlh, -error, &x);
	return false;
}

/* The error of an attribute against its policy: the policy goes in the ack. */
static bool fail_pol(const struct req *r, int error, const char *msg, const void *attr,
		     const struct nla_policy *pol)
{
	struct ext x = {
		.msg = msg, .has_offs = attr != NULL,
		.offs = attr ? offs_of(r, attr) : 0, .pol = pol,
	};

	queue_error(r->nlh, -error, &x);
	return false;
}

/*
 * The policy of each command, as the module's ops table (module/hcube_nl.c)
 * gives them; the others get genetlink's reject-all policy (6.1,
 * genl_op_fill_in_reject_policy()).
 */
#define OP_POLICY(cmd, p)	[cmd] = { p, ARRAY_SIZE(p) - 1 }
static const struct {
	const struct nla_policy *policy;
	int maxattr;
} op_policy[HCUBE_CMD_MAX + 1] = {
	OP_POLICY(HCUBE_CMD_VERTEX_GET, hcube_vertex_get_policy),
	OP_POLICY(HCUBE_CMD_TOPO_SET, hcube_topo_set_policy),
	OP_POLICY(HCUBE_CMD_FAULT_ADD, hcube_fault_add_policy),
	OP_POLICY(HCUBE_CMD_FAULT_DEL, hcube_fault_del_policy),
	OP_POLICY(HCUBE_CMD_TASK_ADD, hcube_task_add_policy),
	OP_POLICY(HCUBE_CMD_TASK_DEL, hcube_task_del_policy),
	OP_POLICY(HCUBE_CMD_REBALANCE, hcube_rebalance_policy),
	OP_POLICY(HCUBE_CMD_CONFIG_SET, hcube_config_set_policy),
};

static const struct nla_policy reject_all[] = {
	{ .type = NLA_REJECT }, { .type = NLA_REJECT },
};

/* Exact payload lengths (nla_attr_len[]); also the minimum of these types. */
static const uint8_t attr_len[__NLA_TYPE_MAX] = {
	[NLA_U8] = 1, [NLA_U16] = 2, [NLA_U32] = 4, [NLA_U64] = 8, [NLA_MSECS] = 8,
	[NLA_S8] = 1, [NLA_S16] = 2, [NLA_S32] = 4, [NLA_S64] = 8, [NLA_BE16] = 2,
	[NLA_BE32] = 4,
};

static bool validate_attrs(const struct req *r, const uint8_t *p, size_t len,
			   const struct nla_policy *policy, int maxtype);

/* validate_nla() of lib/nlattr.c, with NL_VALIDATE_STRICT. */
static bool validate_attr(const struct req *r, const struct nlattr *a,
			  const struct nla_policy *pt)
{
	const uint8_t *d = (const uint8_t *)a + NLA_HDRLEN;
	size_t len = a->nla_len - NLA_HDRLEN, m;
	bool nested = a->nla_type & NLA_F_NESTED;
	int err = ERANGE;
	uint64_t v = 0, min, max;

	if (attr_len[pt->type] && len != attr_len[pt->type])
		return fail_pol(r, EINVAL, "invalid attribute length", a, pt);
	if (pt->type == NLA_NESTED && !nested)
		return fail_pol(r, EINVAL, "NLA_F_NESTED is missing", a, pt);
	if (pt->type != NLA_NESTED && pt->type != NLA_UNSPEC && nested)
		return fail_pol(r, EINVAL, "NLA_F_NESTED not expected", a, pt);
	switch (pt->type) {
	case NLA_REJECT:
		if (pt->reject_message)
			return fail(r, EINVAL, pt->reject_message, a, false, 0, 0);
		err = EINVAL;
		goto out_err;
	case NLA_FLAG:
		if (len)
			goto out_err;
		break;
	case NLA_NUL_STRING:
		m = pt->len && len > pt->len + 1U ? pt->len + 1U : len;
		if (!m || !memchr(d, '\0', m)) {
			err = EINVAL;
			goto out_err;
		}
		break;
	case NLA_STRING:
		m = len && !d[len - 1] ? len - 1 : len;
		if (pt->len && m > pt->len)
			goto out_err;
		break;
	case NLA_BINARY:
		if (pt->len && len > pt->len)
			goto out_err;
		break;
	case NLA_NESTED:
		if (!len)
			break;
		if (len < NLA_HDRLEN)
			goto out_err;
		if (pt->nested_policy)
			return validate_attrs(r, d, len, pt->nested_policy, pt->len);
		break;
	case NLA_UNSPEC:
		return fail(r, EINVAL, "Unsupported attribute", a, false, 0, 0);
	default:
		if (len < (pt->len ? pt->len : attr_len[pt->type]))
			goto out_err;
	}
	if (pt->validation_type != NLA_VALIDATE_NONE && pt->type >= NLA_U8 &&
	    pt->type <= NLA_U64) {
		memcpy(&v, d, attr_len[pt->type]);	/* little-endian */
		policy_range(pt, &min, &max);
		if (v < min || v > max)
			return fail_pol(r, ERANGE, "integer out of range", a, pt);
	}
	return true;
out_err:
	return fail_pol(r, err, "Attribute failed policy validation", a, pt);
}

/* __nla_validate_parse() with NL_VALIDATE_STRICT. */
static bool validate_attrs(const struct req *r, const uint8_t *p, size_t len,
			   const struct nla_policy *policy, int maxtype)
{
	long rem = (long)len;

	while (rem >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)p;
		uint16_t type = a->nla_type & NLA_TYPE_MASK;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > rem)
			break;
		if (!type || type > maxtype)
			return fail(r, EINVAL, "Unknown attribute type", a, false, 0, 0);
		if (!validate_attr(r, a, &policy[type]))
			return false;
		rem -= NLA_ALIGN(a->nla_len);
		p += NLA_ALIGN(a->nla_len);
	}
	if (rem > 0)
		return fail(r, EINVAL, "bytes leftover after parsing attributes", NULL,
			    false, 0, 0);
	return true;
}

/* The request validated by its command's policy, then its attributes noted. */
static bool parse_req(struct req *r, const struct nlmsghdr *nlh)
{
	const uint8_t *p = (const uint8_t *)nlh + NLMSG_HDRLEN + GENL_HDRLEN;
	size_t left = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	const struct nla_policy *policy;
	int maxattr;

	memset(r, 0, sizeof(*r));
	r->nlh = nlh;
	r->cmd = ((const struct genlmsghdr *)NLMSG_DATA(nlh))->cmd;
	policy = r->cmd <= HCUBE_CMD_MAX ? op_policy[r->cmd].policy : NULL;
	maxattr = policy ? op_policy[r->cmd].maxattr : 1;
	if (!validate_attrs(r, p, left, policy ? policy : reject_all, maxattr))
		return false;
	while (left >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)p;
		uint16_t type = a->nla_type & NLA_TYPE_MASK;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > left)
			break;
		if (type == HCUBE_A_PID && r->npids < 4096)
			r->pids[r->npids++] = a;
		else if (type == HCUBE_A_GROUP && r->ngroups < 1024)
			r->groups[r->ngroups++] = a;
		else
			r->a[type] = a;
		p += NLA_ALIGN(a->nla_len);
		left = left > (size_t)NLA_ALIGN(a->nla_len) ? left - NLA_ALIGN(a->nla_len) : 0;
	}
	return true;
}

static bool mutating(uint8_t cmd)
{
	return cmd == HCUBE_CMD_TOPO_SET || cmd == HCUBE_CMD_FAULT_ADD ||
	       cmd == HCUBE_CMD_FAULT_DEL || cmd == HCUBE_CMD_TASK_ADD ||
	       cmd == HCUBE_CMD_TASK_DEL || cmd == HCUBE_CMD_REBALANCE ||
	       cmd == HCUBE_CMD_CONFIG_SET;
}

/* A command of the module's ops table (notifications are not). */
static bool op(uint8_t cmd)
{
	return cmd >= HCUBE_CMD_CUBE_GET && cmd <= HCUBE_CMD_CONFIG_SET;
}

static void reply_begin(struct mb *b, const struct req *r, uint16_t flags)
{
	msg_begin(b, FAKE_FAMILY, flags, r->nlh->nlmsg_seq, r->nlh->nlmsg_pid, r->cmd);
}

/* As the module: the cube's range (the policy's came first), -ERANGE. */
static bool check_vertex(const struct req *r, const struct nlattr *a)
{
	if (get_u32(a) >= cube.n)
		return fail(r, ERANGE, HCUBE_ERR_VERTEX_RANGE, a, true, 0, cube.n - 1);
	return true;
}

static void do_fault(const struct req *r)
{
	const struct nlattr *cpu = r->a[HCUBE_A_CPU], *v = r->a[HCUBE_A_VERTEX_ID];

	if (!cpu == !v) {
		fail(r, EINVAL, cpu ? HCUBE_ERR_CPU_AND_VERTEX : HCUBE_ERR_CPU_OR_VERTEX,
		     cpu ? v : NULL, false, 0, 0);
		return;
	}
	/* the policy checked the range of CPU ids; presence: -ENODEV */
	if (cpu && get_u32(cpu) >= cube.n * CPUS_PER_VERTEX) {
		fail(r, ENODEV, HCUBE_ERR_CPU_ABSENT, cpu, false, 0, 0);
		return;
	}
	if (v && !check_vertex(r, v))
		return;
	if (getenv("HCUBE_FAKE_STATE")) {	/* as hcube_fault_change() */
		bool add = r->cmd == HCUBE_CMD_FAULT_ADD, was;
		u32 id = get_u32(cpu ? cpu : v);

		if (!cpu && cube.env_state[id] == HCUBE_VERTEX_ABSENT) {
			fail(r, EINVAL, HCUBE_ERR_VERTEX_ABSENT, v, false, 0, 0);
			return;
		}
		was = cpu ? cube.cpu_faulty[id] : cube.marked[id];
		if (add && was) {
			fail(r, EEXIST, cpu ? HCUBE_ERR_CPU_MARKED : HCUBE_ERR_VERTEX_MARKED,
			     cpu ? cpu : v, false, 0, 0);
			return;
		}
		if (!add && !was) {
			fail(r, ENOENT, cpu ? HCUBE_ERR_CPU_UNMARKED : HCUBE_ERR_VERTEX_UNMARKED,
			     cpu ? cpu : v, false, 0, 0);
			return;
		}
		if (add && !any_healthy_with(cpu ? (int)id : -1, cpu ? -1 : (int)id)) {
			fail(r, EBUSY, cpu ? HCUBE_ERR_CPU_LAST : HCUBE_ERR_VERTEX_LAST,
			     cpu ? cpu : v, false, 0, 0);
			return;
		}
		if (cpu)
			cube.cpu_faulty[id] = add;
		else
			cube.marked[id] = add;
		cube_refresh();
	}
	queue_ack(r->nlh);
}

/*
 * What a TASK_ADD reply counts (as the module: every task registered, the
 * threads and descendants left out) besides the tasks it lists.
 */
static u32 add_registered, add_refused;

/*
 * One registered task of a unit: counted, and listed when a pid names it
 * (@named), as the module lists them.
 */
static void put_unit_task(struct mb *b, const struct fake_proc *p, u32 unit,
			  const struct nlattr *va, u32 *k, u32 named)
{
	struct task_desc d = {
		.pid = p->pid, .tgid = p->tgid, .comm = p->comm,
		.vertex = va ? get_u32(va) : healthy_vertex((*k)++),
		.state = HCUBE_TASK_ACTIVE, .orig = "0-31", .has_units = true,
		.origin = HCUBE_REASON_ADMIN, .unit = unit,
	};
	char cpus[32];

	add_registered++;
	if (p->pid != named)
		return;
	cpus_of(d.vertex, cpus, sizeof(cpus));
	d.cpus = cpus;
	put_task(b, HCUBE_A_TASK, &d);
}

/* The threads of process @tgid (and with @tree, of its descendants). */
static void put_job(struct mb *b, u32 tgid, bool tree, const struct nlattr *va, u32 *k,
		    u32 named)
{
	struct fake_proc one = { tgid, tgid, 1, "worker" };
	bool known = false;
	size_t i;

	for (i = 0; i < sizeof(procs) / sizeof(procs[0]); i++)
		if (procs[i].tgid == tgid) {
			put_unit_task(b, &procs[i], HCUBE_UNIT_JOB, va, k, named);
			known = true;
		}
	if (!known)
		put_unit_task(b, &one, HCUBE_UNIT_JOB, va, k, named);
	for (i = 0; tree && i < sizeof(procs) / sizeof(procs[0]); i++)
		if (procs[i].ppid == tgid && procs[i].pid == procs[i].tgid)
			put_job(b, procs[i].pid, true, va, k, named);
}

/* TASK_ADD with HCUBE_A_UNIT: what the unit names of @pid. */
static void put_unit(struct mb *b, u32 pid, u32 unit, const struct nlattr *va, u32 *k)
{
	struct fake_proc one = { pid, tgid_of(pid), 1, "worker" };
	size_t i;

	if (unit != HCUBE_UNIT_THREAD) {
		put_job(b, tgid_of(pid), unit == HCUBE_UNIT_TREE, va, k, pid);
		return;
	}
	for (i = 0; i < sizeof(procs) / sizeof(procs[0]); i++)
		if (procs[i].pid == pid)
			one = procs[i];
	put_unit_task(b, &one, HCUBE_UNIT_THREAD, va, k, pid);
}

static void do_task_add(const struct req *r)
{
	const struct nlattr *va = r->a[HCUBE_A_VERTEX_ID];
	struct mb b = { 0 };
	u32 i, k = 0, t;

	if (!r->npids) {
		struct ext x = { .msg = HCUBE_ERR_PID_REQUIRED, .has_miss = true,
				 .miss_type = HCUBE_A_PID };

		queue_error(r->nlh, -EINVAL, &x);
		return;
	}
	for (i = 0; i < r->npids; i++) {
		u32 pid = get_u32(r->pids[i]);

		if (pid == 999999 || listed("HCUBE_FAKE_GONE", pid)) {
			fail(r, ESRCH, HCUBE_ERR_PID_NONE, r->pids[i], false, 0, 0);
			return;
		}
	}
	if (va && !check_vertex(r, va))
		return;
	if (va && !usable(get_u32(va))) {
		fail(r, EINVAL, HCUBE_ERR_VERTEX_UNHEALTHY, va, false, 0, 0);
		return;
	}
	reply_begin(&b, r, 0);
	add_registered = 0;
	add_refused = 0;
	for (i = 0; i < r->npids; i++) {
		u32 pid = get_u32(r->pids[i]);

		if (pid == 888888) {	/* as the module: the pid and its error */
			add_refused++;
			size_t nest = nest_begin(&b, HCUBE_A_TASK | NLA_F_NESTED);

			put_u32(&b, HCUBE_T_A_PID, pid);
			put_attr(&b, HCUBE_T_A_ERROR, &(int32_t){ -EPERM }, 4);
			nest_end(&b, nest);
			continue;
		}
		if (r->a[HCUBE_A_UNIT]) {
			put_unit(&b, pid, get_u32(r->a[HCUBE_A_UNIT]), va, &k);
			continue;
		}
		for (t = 0; t < 1U; t++) {
			struct task_desc d = {
				.pid = pid + t, .tgid = pid, .comm = "worker",
				.vertex = va ? get_u32(va) : healthy_vertex(k++),
				.state = HCUBE_TASK_ACTIVE, .orig = "0-31",
			};
			char cpus[32];

			add_registered++;
			if (t)
				continue;	/* a thread the pid does not name */
			cpus_of(d.vertex, cpus, sizeof(cpus));
			d.cpus = cpus;
			put_task(&b, HCUBE_A_TASK, &d);
		}
	}
	put_u32(&b, HCUBE_A_NREGISTERED, add_registered);
	put_u32(&b, HCUBE_A_NEXITED, 0);
	put_u32(&b, HCUBE_A_NREFUSED, add_refused);
	msg_end_queue(&b);
	free(b.d);
	queue_ack(r->nlh);
}

static void do_task_del(const struct req *r)
{
	u32 i;

	if (!!r->a[HCUBE_A_ALL] == !!r->npids) {
		fail(r, EINVAL, r->npids ? HCUBE_ERR_ALL_WITH_PID : HCUBE_ERR_PID_REQUIRED,
		     r->a[HCUBE_A_ALL], false, 0, 0);
		return;
	}
	for (i = 0; i < r->npids; i++)
		if (get_u32(r->pids[i]) == 999999 || listed("HCUBE_FAKE_GONE", get_u32(r->pids[i]))) {
			fail(r, ENOENT, HCUBE_ERR_PID_UNREGISTERED, r->pids[i], false, 0, 0);
			return;
		}
	queue_ack(r->nlh);
}

static void do_task_get(const struct req *r)
{
	static const struct task_desc tasks[] = {
		{ .pid = 100, .tgid = 100, .comm = "stress", .vertex = 0,
		  .state = HCUBE_TASK_ACTIVE, .cpus = "0-1", .orig = "0-31" },
		{ .pid = 101, .tgid = 100, .comm = "stress", .vertex = 1,
		  .state = HCUBE_TASK_ACTIVE, .cpus = "2-3", .orig = "0-31" },
		{ .pid = 200, .tgid = 200, .comm = "bad\xff\xfe\tname", .vertex = 3,
		  .state = HCUBE_TASK_CHANGED, .cpus = "5", .orig = "0-31" },
		{ .pid = 300, .tgid = 300, .comm = "caf\xc3\xa9", .vertex = 15,
		  .state = HCUBE_TASK_ACTIVE, .cpus = "30-31", .orig = "" },
	};
	struct mb b = { 0 };
	size_t i;

	if (!(r->nlh->nlmsg_flags & NLM_F_DUMP)) {
		fail(r, EOPNOTSUPP, NULL, NULL, false, 0, 0);
		return;
	}
	/* with units: 101 a thread 100 created, 200 one thread, 300 a child of 100 */
	static const struct { u32 origin, unit, creator; } units[] = {
		{ HCUBE_REASON_ADMIN, HCUBE_UNIT_JOB, 0 },
		{ HCUBE_REASON_THREAD, HCUBE_UNIT_JOB, 100 },
		{ HCUBE_REASON_ADMIN, HCUBE_UNIT_THREAD, 0 },
		{ HCUBE_REASON_FORK, HCUBE_UNIT_JOB, 100 },
	};
	for (i = 0; i < sizeof(tasks) / sizeof(tasks[0]); i++) {
		struct task_desc d = tasks[i];

		d.vertex %= cube.n;
		if (getenv("HCUBE_FAKE_UNITS")) {
			d.has_units = true;
			d.origin = units[i].origin;
			d.unit = units[i].unit;
			d.creator = units[i].creator;
		}
		reply_begin(&b, r, NLM_F_MULTI);
		put_task(&b, HCUBE_A_TASK, &d);
		msg_end_queue(&b);
	}
	free(b.d);
	queue_done(r->nlh);
}

/*
 * A report from the core's plan, as the module lays it out: the report's
 * attributes at the top level of the message, one HCUBE_R_A_TRANSFER nest
 * per transfer (none for a plan without any).
 */
static bool put_report(struct mb *b, u32 policy, bool dry_run, u32 trigger)
{
	struct hcube_cube c = { .dim = cube.dim, .state = cube.core_state, .load = cube.load };
	struct hcube_plan p;
	void *mem = malloc(hcube_plan_memsize(cube.dim));
	size_t i;
	int err;

	hcube_plan_init(&p, cube.dim, mem);
	err = hcube_plan_build(&p, policy, &c, &cube.topo, cube.work);
	if (err) {
		free(mem);
		return false;
	}
	put_u32(b, HCUBE_R_A_POLICY, policy);
	if (dry_run)
		put_attr(b, HCUBE_R_A_DRY_RUN, NULL, 0);
	put_u32(b, HCUBE_R_A_TRIGGER, trigger);
	put_attr(b, HCUBE_R_A_LOADS_BEFORE, cube.load, cube.n * 4);
	/* as the module: a dry run moves nothing, after = before */
	put_attr(b, HCUBE_R_A_LOADS_AFTER, dry_run ? cube.load : p.after, cube.n * 4);
	put_u32(b, HCUBE_R_A_MOVED, dry_run ? 0 : p.stats.moved_tasks);
	put_u32(b, HCUBE_R_A_FAILED, dry_run ? 0 : 1);
	put_u32(b, HCUBE_R_A_EXITED, dry_run ? 0 : 2);
	put_u32(b, HCUBE_R_A_EVACUATED, 0);
	put_u64(b, HCUBE_R_A_DURATION_NS, 123456, HCUBE_R_A_PAD);
	put_attr(b, HCUBE_R_A_LOADS_PLAN, p.after, cube.n * 4);
	put_u32(b, HCUBE_R_A_NTRANSFERS, p.ntransfers);
	put_u32(b, HCUBE_R_A_STEPS, p.nsteps);
	put_u32(b, HCUBE_R_A_COMM_STEPS, p.stats.comm_steps);
	put_u64(b, HCUBE_R_A_MIGRATIONS, p.stats.migrations, HCUBE_R_A_PAD);
	put_u32(b, HCUBE_R_A_APPLIED, p.applied);
	put_u32(b, HCUBE_R_A_MESSAGES, p.stats.messages);
	put_u32(b, HCUBE_R_A_IMBALANCE, p.stats.imbalance);
	if (p.applied == HCUBE_POLICY_PEBBLE)
		put_u32(b, HCUBE_R_A_CONTENDED, p.stats.contended);
	for (i = 0; i < p.ntransfers; i++) {
		size_t nest = nest_begin(b, HCUBE_R_A_TRANSFER | NLA_F_NESTED);

		put_u32(b, HCUBE_X_A_STEP, p.transfers[i].step);
		put_u32(b, HCUBE_X_A_FROM, p.transfers[i].from);
		put_u32(b, HCUBE_X_A_TO, p.transfers[i].to);
		put_u32(b, HCUBE_X_A_COUNT, p.transfers[i].count);
		nest_end(b, nest);
	}
	if (p.applied == HCUBE_POLICY_MCWA || p.applied == HCUBE_POLICY_CWA) {
		put_pattern(b, HCUBE_R_A_CB_PATTERN);
		put_u32(b, HCUBE_R_A_TREE_DEPTH, cube.topo.depth);
	}
	if (!dry_run) {
		struct task_desc f = {
			.pid = 4242, .comm = "stuck", .vertex = healthy_vertex(0),
			.has_error = true, .error = -EPERM,
		};
		struct task_desc ch = {
			.pid = 4343, .tgid = 4343, .comm = "pinned", .vertex = healthy_vertex(1),
			.state = HCUBE_TASK_CHANGED, .cpus = "0", .orig = "0-31",
		};

		put_task(b, HCUBE_R_A_FAILURE, &f);
		put_task(b, HCUBE_R_A_CHANGED, &ch);
	}
	free(mem);
	return true;
}

static void do_rebalance(const struct req *r)
{
	const struct nlattr *pa = r->a[HCUBE_R_A_POLICY];
	u32 policy = pa ? get_u32(pa) : HCUBE_POLICY_MCWA;
	struct mb b = { 0 };

	reply_begin(&b, r, 0);
	if (!put_report(&b, policy, r->a[HCUBE_R_A_DRY_RUN], HCUBE_REASON_ADMIN)) {
		const struct hcube_policy_ops *ops = hcube_policy_lookup(policy);
		static char msg[128];

		free(b.d);
		if (ops->flags & HCUBE_POLICY_F_FAULT_FREE) {
			snprintf(msg, sizeof(msg), HCUBE_ERR_POLICY_FAULT_FREE_FMT, ops->name,
				 hcube_policy_lookup(ops->fallback)->name);
			fail(r, EINVAL, msg, pa, false, 0, 0);
		} else {
			fail(r, EIO, "the plan failed", NULL, false, 0, 0);
		}
		return;
	}
	msg_end_queue(&b);
	free(b.d);
	queue_ack(r->nlh);
}

static void do_config_set(const struct req *r)
{
	const struct nlattr *nest = r->a[HCUBE_A_CONFIG];

	if (!nest) {
		struct ext x = { .msg = HCUBE_ERR_CONFIG_REQUIRED, .has_miss = true,
				 .miss_type = HCUBE_A_CONFIG };

		queue_error(r->nlh, -EINVAL, &x);
		return;
	}
	/* the nested policy checked each key and its range */
	if (nest->nla_len <= NLA_HDRLEN) {
		fail(r, EINVAL, "HCUBE_A_CONFIG: nothing to change", nest, false, 0, 0);
		return;
	}
	if (getenv("HCUBE_FAKE_STATE")) {
		const struct nlattr *a = (const void *)((const uint8_t *)nest + NLA_HDRLEN);
		int left = nest->nla_len - NLA_HDRLEN;

		for (; left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= left;
		     left -= NLA_ALIGN(a->nla_len),
		     a = (const void *)((const uint8_t *)a + NLA_ALIGN(a->nla_len))) {
			u16 t = a->nla_type & NLA_TYPE_MASK;

			if (t == HCUBE_C_A_AUTO)
				cube.cfg[1] = get_u32(a);
			else if (t == HCUBE_C_A_POLICY)
				cube.cfg[0] = get_u32(a);
			else if (t == HCUBE_C_A_THRESHOLD)
				cube.cfg[2] = get_u32(a);
			else if (t == HCUBE_C_A_COOLDOWN_MS)
				cube.cfg[3] = get_u32(a);
			else if (t >= HCUBE_C_A_MCE_CE_THRESHOLD && t <= HCUBE_C_A_MCE_UC)
				cube.cfg[4 + t - HCUBE_C_A_MCE_CE_THRESHOLD] = get_u32(a);
		}
		state_save();
	}
	queue_ack(r->nlh);
}

/*
 * A cpulist ("0-3,8", "0-7:2/4") into @cpus (FAKE_NR_CPU_IDS entries):
 * false if it is not one, or names a CPU past nr_cpu_ids.
 */
static bool parse_cpulist(const char *s, bool *cpus)
{
	while (*s) {
		unsigned long a, b, used = 1, group = 1, c;
		char *end;

		if (*s < '0' || *s > '9')
			return false;
		a = b = strtoul(s, &end, 10);
		if (*end == '-') {
			b = strtoul(end + 1, &end, 10);
			if (*end == ':') {
				used = strtoul(end + 1, &end, 10);
				if (*end++ != '/')
					return false;
				group = strtoul(end, &end, 10);
				if (!used || !group || used > group)
					return false;
			}
		}
		if (b < a || b >= FAKE_NR_CPU_IDS)
			return false;
		for (c = a; c <= b; c++)
			if ((c - a) % group < used)
				cpus[c] = true;
		if (*end == ',')
			end++;
		else if (*end)
			return false;
		s = end;
	}
	return true;
}

/* Mode custom as the module checks it: non-empty, present, disjoint groups. */
static bool check_groups(const struct req *r)
{
	bool *all = calloc(FAKE_NR_CPU_IDS, 1), *g = calloc(FAKE_NR_CPU_IDS, 1);
	const char *msg = NULL;
	const struct nlattr *bad = NULL;
	u32 i, c, n;

	for (i = 0; i < r->ngroups && !msg; i++) {
		bad = r->groups[i];
		memset(g, 0, FAKE_NR_CPU_IDS);
		if (!parse_cpulist((const char *)bad + NLA_HDRLEN, g)) {
			msg = HCUBE_ERR_GROUP_CPULIST;
			break;
		}
		for (c = n = 0; c < FAKE_NR_CPU_IDS; c++)
			n += g[c];
		if (!n)
			msg = HCUBE_ERR_GROUP_EMPTY;
		for (c = 0; c < FAKE_NR_CPU_IDS && !msg; c++) {
			if (g[c] && c >= cube.n * CPUS_PER_VERTEX)
				msg = HCUBE_ERR_GROUP_ABSENT;
			else if (g[c] && all[c])
				msg = HCUBE_ERR_GROUP_OVERLAP;
			all[c] |= g[c];
		}
	}
	free(all);
	free(g);
	if (msg)
		return fail(r, EINVAL, msg, bad, false, 0, 0);
	return true;
}

static void do_topo_set(const struct req *r)
{
	const struct nlattr *m = r->a[HCUBE_A_MODE];
	u32 mode;

	if (!m) {
		struct ext x = { .msg = HCUBE_ERR_MODE_REQUIRED, .has_miss = true,
				 .miss_type = HCUBE_A_MODE };

		queue_error(r->nlh, -EINVAL, &x);
		return;
	}
	mode = get_u32(m);
	if (mode != HCUBE_MODE_CUSTOM && r->ngroups) {
		fail(r, EINVAL, HCUBE_ERR_GROUP_NOT_CUSTOM, r->groups[0], false, 0, 0);
		return;
	}
	if (mode == HCUBE_MODE_CUSTOM && !r->ngroups) {
		struct ext x = {
			.msg = HCUBE_ERR_GROUP_REQUIRED,
			.has_miss = true, .miss_type = HCUBE_A_GROUP,
		};

		queue_error(r->nlh, -EINVAL, &x);
		return;
	}
	if (mode == HCUBE_MODE_CUSTOM && !check_groups(r))
		return;
	if (getenv("HCUBE_FAKE_STATE")) {
		u32 i, v;

		/* the fake's groups are fixed: custom must give exactly them */
		for (i = 0, v = 0; mode == HCUBE_MODE_CUSTOM && i < r->ngroups; i++, v++) {
			bool g[FAKE_NR_CPU_IDS_MAX] = { 0 };
			u32 c, same = 0, n = 0;

			parse_cpulist((const char *)r->groups[i] + NLA_HDRLEN, g);
			for (c = 0; c < FAKE_NR_CPU_IDS; c++) {
				n += g[c];
				same += g[c] && c / CPUS_PER_VERTEX == v;
			}
			if (v >= cube.n || cube.env_state[v] == HCUBE_VERTEX_ABSENT ||
			    n != CPUS_PER_VERTEX || same != CPUS_PER_VERTEX) {
				fail(r, EINVAL, "fake kernel: custom groups must be its own (2 CPUs per vertex)",
				     r->groups[i], false, 0, 0);
				return;
			}
		}
		if (mode == HCUBE_MODE_CUSTOM && r->ngroups != cube.n) {
			fail(r, EINVAL, "fake kernel: custom groups must be its own (2 CPUs per vertex)",
			     r->groups[0], false, 0, 0);
			return;
		}
		cube.mode = mode;
		memset(cube.marked, 0, cube.n * sizeof(bool));
		cube_refresh();
	}
	queue_ack(r->nlh);
}

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

static void handle_hcube(const struct nlmsghdr *nlh)
{
	struct mb b = { 0 };
	struct req *r;
	u32 v;

	cube_init();
	r = calloc(1, sizeof(*r));
	/* genetlink: the op, then GENL_ADMIN_PERM, then the policy */
	if (!op(((const struct genlmsghdr *)NLMSG_DATA(nlh))->cmd)) {
		fake_log(nlh, NULL);
		queue_error(nlh, -EOPNOTSUPP, NULL);
		goto out;
	}
	if (mutating(((const struct genlmsghdr *)NLMSG_DATA(nlh))->cmd) &&
	    getenv("HCUBE_FAKE_NOADMIN")) {
		fake_log(nlh, NULL);
		queue_error(nlh, -EPERM, NULL);
		goto out;
	}
	if (!parse_req(r, nlh)) {
		fake_log(nlh, NULL);
		goto out;
	}
	fake_log(nlh, r);
	switch (r->cmd) {
	case HCUBE_CMD_CUBE_GET:
		reply_begin(&b, r, 0);
		put_summary(&b);
		msg_end_queue(&b);
		queue_ack(nlh);
		break;
	case HCUBE_CMD_VERTEX_GET:
		if ((nlh->nlmsg_flags & NLM_F_DUMP) && r->a[HCUBE_A_VERTEX_ID]) {
			/* as the module: a dump of the one vertex it names */
			if (check_vertex(r, r->a[HCUBE_A_VERTEX_ID])) {
				reply_begin(&b, r, NLM_F_MULTI);
				put_vertex(&b, get_u32(r->a[HCUBE_A_VERTEX_ID]));
				msg_end_queue(&b);
				queue_done(nlh);
			}
		} else if (nlh->nlmsg_flags & NLM_F_DUMP) {
			for (v = 0; v < cube.n; v++) {
				reply_begin(&b, r, NLM_F_MULTI);
				put_vertex(&b, v);
				msg_end_queue(&b);
			}
			queue_done(nlh);
		} else if (r->a[HCUBE_A_VERTEX_ID] && check_vertex(r, r->a[HCUBE_A_VERTEX_ID])) {
			reply_begin(&b, r, 0);
			put_vertex(&b, get_u32(r->a[HCUBE_A_VERTEX_ID]));
			msg_end_queue(&b);
			queue_ack(nlh);
		}
		break;
	case HCUBE_CMD_FAULT_ADD:
	case HCUBE_CMD_FAULT_DEL:
		do_fault(r);
		break;
	case HCUBE_CMD_TASK_ADD:
		do_task_add(r);
		break;
	case HCUBE_CMD_TASK_DEL:
		do_task_del(r);
		break;
	case HCUBE_CMD_TASK_GET:
		do_task_get(r);
		break;
	case HCUBE_CMD_REBALANCE:
		do_rebalance(r);
		break;
	case HCUBE_CMD_STATS_GET: {
		size_t n;
		int i;

		reply_begin(&b, r, 0);
		n = nest_begin(&b, HCUBE_A_STATS | NLA_F_NESTED);
		for (i = HCUBE_S_A_PAD + 1; i <= HCUBE_S_A_MAX; i++)
			put_u64(&b, (uint16_t)i, 1000ULL * i + 7, HCUBE_S_A_PAD);
		nest_end(&b, n);
		msg_end_queue(&b);
		queue_ack(nlh);
		break;
	}
	case HCUBE_CMD_CONFIG_GET: {
		size_t n;

		reply_begin(&b, r, 0);
		n = nest_begin(&b, HCUBE_A_CONFIG | NLA_F_NESTED);
		put_u32(&b, HCUBE_C_A_POLICY, cube.cfg[0]);
		put_u32(&b, HCUBE_C_A_AUTO, cube.cfg[1]);
		put_u32(&b, HCUBE_C_A_THRESHOLD, cube.cfg[2]);
		put_u32(&b, HCUBE_C_A_COOLDOWN_MS, cube.cfg[3]);
		put_u32(&b, HCUBE_C_A_MAX_TASKS, 4096);
		put_u32(&b, HCUBE_C_A_MCE_CE_THRESHOLD, cube.cfg[4]);
		put_u32(&b, HCUBE_C_A_MCE_CE_WINDOW, cube.cfg[5]);
		put_u32(&b, HCUBE_C_A_MCE_UC, cube.cfg[6]);
		nest_end(&b, n);
		msg_end_queue(&b);
		queue_ack(nlh);
		break;
	}
	case HCUBE_CMD_CONFIG_SET:
		do_config_set(r);
		break;
	case HCUBE_CMD_TOPO_SET:
		do_topo_set(r);
		break;
	default:
		queue_error(nlh, -EOPNOTSUPP, NULL);
		break;
	}
out:
	free(b.d);
	free(r);
}

/* CTRL_CMD_GETFAMILY by name: answer for "hcube", else let the kernel. */
static bool handle_ctrl(const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *gh = NLMSG_DATA(nlh);
	const uint8_t *p = (const uint8_t *)gh + GENL_HDRLEN;
	size_t left = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	const char *name = NULL;
	struct mb b = { 0 };
	size_t grps, grp;

	if (gh->cmd != CTRL_CMD_GETFAMILY || (nlh->nlmsg_flags & NLM_F_DUMP))
		return false;
	while (left >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)p;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > left)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_NAME)
			name = (const char *)a + NLA_HDRLEN;
		p += NLA_ALIGN(a->nla_len);
		left = left > (size_t)NLA_ALIGN(a->nla_len) ? left - NLA_ALIGN(a->nla_len) : 0;
	}
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

/* A FAULT_NTF about @cpu (its vertex), or about vertex n - 1 if @cpu < 0. */
static void queue_fault_event(struct mb *b, int cpu, u32 event, u32 state, u32 reason,
			      bool summary)
{
	msg_begin(b, FAKE_FAMILY, 0, 0, 0, HCUBE_CMD_FAULT_NTF);
	if (cpu >= 0)
		put_u32(b, HCUBE_A_CPU, (u32)cpu);
	put_u32(b, HCUBE_A_VERTEX_ID, cpu >= 0 ? (u32)cpu / CPUS_PER_VERTEX : cube.n - 1);
	put_u32(b, HCUBE_A_EVENT, event);
	put_u32(b, HCUBE_A_STATE, state);
	put_u32(b, HCUBE_A_REASON, reason);
	if (summary)
		put_summary(b);
	msg_end_queue(b);
}

/* What "monitor" gets once it joins the events group. */
static void queue_events(void)
{
	struct mb b = { 0 };

	cube_init();
	/* as the module: the CPU, its vertex, the event, the state, the cube */
	queue_fault_event(&b, 3, HCUBE_FAULT_ADDED, HCUBE_VERTEX_FAULTY,
			  HCUBE_REASON_ADMIN, true);
	/* a vertex, and without the summary (a module that sends less) */
	queue_fault_event(&b, -1, HCUBE_FAULT_CLEARED, HCUBE_VERTEX_HEALTHY,
			  HCUBE_REASON_ADMIN, false);
	/* CPU hotplug */
	queue_fault_event(&b, 5, HCUBE_CPU_OFFLINE, HCUBE_VERTEX_OFFLINE,
			  HCUBE_REASON_HOTPLUG, true);
	queue_fault_event(&b, 5, HCUBE_CPU_ONLINE, HCUBE_VERTEX_HEALTHY,
			  HCUBE_REASON_HOTPLUG, true);

	msg_begin(&b, FAKE_FAMILY, 0, 0, 0, HCUBE_CMD_TOPO_NTF);
	put_summary(&b);
	put_u32(&b, HCUBE_A_REASON, HCUBE_REASON_HOTPLUG);
	msg_end_queue(&b);

	msg_begin(&b, FAKE_FAMILY, 0, 0, 0, HCUBE_CMD_TASK_NTF);
	{
		struct task_desc d = {
			.pid = 777, .tgid = 777, .comm = "sleep", .vertex = cube.n - 1,
			.state = HCUBE_TASK_EXITED, .has_reason = true,
			.reason = HCUBE_REASON_EXITED,
		};

		put_task(&b, HCUBE_A_TASK, &d);
	}
	msg_end_queue(&b);

	msg_begin(&b, FAKE_FAMILY, 0, 0, 0, HCUBE_CMD_REBALANCE_NTF);
	put_report(&b, HCUBE_POLICY_MCWA, false, HCUBE_REASON_AUTO);
	msg_end_queue(&b);

	/* vertex 1 (the controller of cluster 0 here) failed: 2 took over */
	msg_begin(&b, FAKE_FAMILY, 0, 0, 0, HCUBE_CMD_CONTROLLER_NTF);
	put_u32(&b, HCUBE_A_CLUSTER, 0);
	put_u32(&b, HCUBE_A_CLUSTER_DIM, hcube_pebble_cdim(cube.dim));
	put_u32(&b, HCUBE_A_CONTROLLER_OLD, 1);
	put_u32(&b, HCUBE_A_CONTROLLER_NEW, 2);
	put_u32(&b, HCUBE_A_REASON, HCUBE_REASON_ADMIN);
	put_u32(&b, HCUBE_A_GENERATION, 43);
	msg_end_queue(&b);

	if (getenv("HCUBE_FAKE_UNITS")) {
		/* 800's new child 801 and its thread 802; 803 refused over max_tasks */
		static const struct task_desc created[] = {
			{ .pid = 801, .tgid = 801, .comm = "worker", .vertex = 1,
			  .state = HCUBE_TASK_ACTIVE, .cpus = "2-3", .orig = "0-31",
			  .has_reason = true, .reason = HCUBE_REASON_FORK, .has_units = true,
			  .origin = HCUBE_REASON_FORK, .unit = HCUBE_UNIT_JOB, .creator = 800 },
			{ .pid = 802, .tgid = 801, .comm = "worker", .vertex = 1,
			  .state = HCUBE_TASK_ACTIVE, .cpus = "2-3", .orig = "0-31",
			  .has_reason = true, .reason = HCUBE_REASON_THREAD, .has_units = true,
			  .origin = HCUBE_REASON_THREAD, .unit = HCUBE_UNIT_JOB, .creator = 801 },
			{ .pid = 803, .tgid = 803, .comm = "worker", .no_vertex = true,
			  .cpus = "0-31", .has_reason = true, .reason = HCUBE_REASON_REFUSED,
			  .creator = 800 },
		};
		size_t i;

		for (i = 0; i < sizeof(created) / sizeof(created[0]); i++) {
			msg_begin(&b, FAKE_FAMILY, 0, 0, 0, HCUBE_CMD_TASK_NTF);
			put_task(&b, HCUBE_A_TASK, &created[i]);
			msg_end_queue(&b);
		}
	}

	msg_begin(&b, FAKE_FAMILY, 0, 0, 0, 99);	/* from a newer module */
	put_u32(&b, HCUBE_A_DIM, 1);
	msg_end_queue(&b);

	if (getenv("HCUBE_FAKE_UNLOAD")) {
		msg_begin(&b, GENL_ID_CTRL, 0, 0, 0, CTRL_CMD_DELFAMILY);
		put_attr(&b, CTRL_ATTR_FAMILY_ID, &(uint16_t){ FAKE_FAMILY }, 2);
		put_str(&b, CTRL_ATTR_FAMILY_NAME, HCUBE_FAMILY_NAME);
		msg_end_queue(&b);
	}
	free(b.d);
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
	struct gsock *g;

	resolve();
	g = gsock_of(fd);
	if (g) {
		while (g->qhead)
			dequeue(g);
		g->fd = -1;
	}
	return real_close(fd);
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	resolve();
	cur = gsock_of(fd);
	if (cur && level == SOL_NETLINK && len >= sizeof(int)) {
		int v;

		memcpy(&v, val, sizeof(v));
		if (name == NETLINK_CAP_ACK)
			cur->cap_ack = v;
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
	cur = gsock_of(fd);
	if (!cur)
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
