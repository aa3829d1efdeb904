/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fake hcube kernel (fakekernel.c describes it), shared by its files:
 *
 *   fakekernel.c      the interposed libc functions, and the dispatch of
 *                     each request to its command
 *   fake_events.c     the events "monitor" gets once it joins the group
 *   fake_rebalance.c  REBALANCE (plans from the core), STATS_GET, CONFIG_GET/SET
 *   fake_task.c       TASK_ADD (and the registration units), TASK_DEL, TASK_GET
 *   fake_cube.c       the fake cube and its state file; CUBE_GET,
 *                     VERTEX_GET, FAULT_ADD/DEL, TOPO_SET
 *   fake_policy.c     requests validated with the module's policies, parsed
 *   fake_nl.c         the real functions, the sockets and their queues,
 *                     building messages, acks and errors
 *
 * Each calls only files below it in this list (fakekernel.c all of them,
 * fake_nl.c none). What they share is hidden: the library, preloaded into
 * hcubectl, exports only the functions it interposes.
 */
#ifndef FAKE_H
#define FAKE_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/hcube.h>
#include "hcube_core.h"
#include "hcube_errors.h"
#include "hcube_nl_gen.h"

#pragma GCC visibility push(hidden)

#define FAKE_FAMILY	0x7ff0
#define FAKE_GROUP	0x3ff0
#define CPUS_PER_VERTEX	2
/* CPU ids: 0 .. nr_cpu_ids - 1; those past the cube's are not present. */
#define FAKE_NR_CPU_IDS	(cube.n * CPUS_PER_VERTEX + 8)
#define FAKE_NR_CPU_IDS_MAX	((1 << HCUBE_MAX_DIM) * CPUS_PER_VERTEX + 8)

/*
 * The attributes in [@head, @head + @len) while they are well formed, as
 * nla_for_each_attr(): @rem is what is left, > 0 after a malformed one.
 */
#define for_each_attr(a, head, len, rem)					\
	for ((a) = (const struct nlattr *)(head), (rem) = (long)(len);		\
	     (rem) >= NLA_HDRLEN && (a)->nla_len >= NLA_HDRLEN && (a)->nla_len <= (rem); \
	     (rem) -= NLA_ALIGN((a)->nla_len),					\
	     (a) = (const void *)((const uint8_t *)(a) + NLA_ALIGN((a)->nla_len)))

/* ---- fake_nl.c: the real functions ---- */

extern typeof(socket) *real_socket;
extern typeof(setsockopt) *real_setsockopt;
extern typeof(sendmsg) *real_sendmsg;
extern typeof(recvmsg) *real_recvmsg;
extern typeof(poll) *real_poll;
extern typeof(ppoll) *real_ppoll;
extern typeof(fopen) *real_fopen;
extern typeof(statfs) *real_statfs;
extern typeof(close) *real_close;
/* The real functions found (RTLD_NEXT), once. */
void resolve(void);

/* ---- fake_nl.c: the generic netlink sockets and their queues of messages to read ---- */

struct qmsg {
	struct qmsg *next;
	size_t len;
	uint8_t data[];
};

struct gsock {
	int fd;			/* -1: a free slot */
	bool cap_ack;
	struct qmsg *qhead, **qtail;
};

/* The socket whose request or membership is being answered. */
extern struct gsock *cur_gsock;

/* The socket on @fd, NULL when it is not a generic netlink one. */
struct gsock *gsock_of(int fd);
/* A new socket on @fd (a number the kernel may have given out before). */
void gsock_new(int fd);
/* The socket on @fd is closed: its queue is dropped. */
void gsock_close(int fd);
/* The first message of @g's queue is read. */
void dequeue(struct gsock *g);

/* ---- fake_nl.c: building messages ---- */

struct mb {
	uint8_t *d;
	size_t len, cap;
	size_t msg;	/* start of the current message */
};

void mb_put(struct mb *b, const void *p, size_t n);
/* A message (@cmd < 0: no genetlink header) into @b, emptied first. */
void msg_begin(struct mb *b, uint16_t type, uint16_t flags, uint32_t seq, uint32_t pid,
	       int cmd);
/* The message of @b to the queue of cur_gsock. */
void msg_end_queue(struct mb *b);
size_t nest_begin(struct mb *b, uint16_t type);
void nest_end(struct mb *b, size_t off);
void put_attr(struct mb *b, uint16_t type, const void *p, size_t n);
void put_u32(struct mb *b, uint16_t type, uint32_t v);
void put_str(struct mb *b, uint16_t type, const char *s);
/* Like nla_put_64bit(): a pad attribute first when the value would be unaligned. */
void put_u64(struct mb *b, uint16_t type, uint64_t v, uint16_t pad);

/* ---- fake_nl.c: requests, acks and errors ---- */

/* A request to the fake family, its attributes noted (fake_policy.c). */
struct req {
	const struct nlmsghdr *nlh;
	uint8_t cmd;
	const struct nlattr *a[HCUBE_A_MAX + 1];
	const struct nlattr *pids[4096];
	u32 npids;
	const struct nlattr *groups[1024];
	u32 ngroups;
};

/* The extended ack of an error. */
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
void policy_range(const struct nla_policy *pt, uint64_t *min, uint64_t *max);
void queue_error(const struct nlmsghdr *req, int error, const struct ext *x);
/* The ack, when the request asks for one. */
void queue_ack(const struct nlmsghdr *req);
/* The end of a dump. */
void queue_done(const struct nlmsghdr *req);
/* A reply to @r: its command, sequence number and port. */
void reply_begin(struct mb *b, const struct req *r, uint16_t flags);
/* A u32 attribute's value. */
u32 get_u32(const struct nlattr *a);
/*
 * The error @error (positive) with @msg, the offset of @attr (NULL: none)
 * and the range [@min, @max] when @range: false.
 */
bool fail(const struct req *r, int error, const char *msg, const void *attr, bool range,
	  uint64_t min, uint64_t max);
/* The error of an attribute against its policy: the policy goes in the ack. */
bool fail_pol(const struct req *r, int error, const char *msg, const void *attr,
	      const struct nla_policy *pol);
/* -EINVAL with @msg for the missing attribute @type. */
void fail_miss(const struct req *r, const char *msg, uint32_t type);

/* ---- fake_policy.c ---- */

/* The request validated by its command's policy, then its attributes noted. */
bool parse_req(struct req *r, const struct nlmsghdr *nlh);

/* ---- fake_cube.c ---- */

struct fake_cube {
	bool ready;
	u32 dim, n;
	u8 *core_state;		/* hcube_vstate for the core */
	u32 *vstate;		/* the uAPI's state */
	bool *marked;
	bool *cpu_faulty;	/* FAKE_NR_CPU_IDS */
	bool *cpu_isolated;	/* FAKE_NR_CPU_IDS */
	bool *cpu_mce;		/* FAKE_NR_CPU_IDS: of the faulty, by machine checks */
	bool cpu_info;		/* HCUBE_FAKE_MCE given: CPU_INFO nests in vertices */
	u32 *env_state;		/* the state the environment gives (offline, absent) */
	u32 mode;
	u32 cfg[7];		/* policy, auto, threshold, cooldown_ms, mce_ce_threshold,
				 * mce_ce_window, mce_uc */
	u16 *ctrl;		/* pebble controllers per cluster */
	u32 *load;
	struct hcube_topo topo;
	void *topo_mem, *work;
};

extern struct fake_cube cube;

/* The cube from the environment (and HCUBE_FAKE_STATE), once. */
void cube_init(void);
/* HCUBE_FAKE_STATE: written again. */
void state_save(void);
/* Comma-separated numbers into @out: how many. */
size_t parse_list(const char *s, u32 *out, size_t cap);
bool usable(u32 v);
/* The n-th healthy vertex, cyclically. */
u32 healthy_vertex(u32 k);
/* The CPUs of vertex @v: "a-b". */
void cpus_of(u32 v, char *buf, size_t size);
/* As the module: the cube's range (the policy's came first), -ERANGE. */
bool check_vertex(const struct req *r, const struct nlattr *a);
void put_pattern(struct mb *b, uint16_t type);
/* The cube summary's attributes. */
void put_summary(struct mb *b);
void do_cube_get(const struct req *r);
void do_vertex_get(const struct req *r);
void do_fault(const struct req *r);
void do_topo_set(const struct req *r);

/* ---- fake_task.c ---- */

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

/* A task in a nest of @type. */
void put_task(struct mb *b, uint16_t type, const struct task_desc *t);
void do_task_add(const struct req *r);
void do_task_del(const struct req *r);
void do_task_get(const struct req *r);

/* ---- fake_rebalance.c ---- */

/*
 * A report from the core's plan, as the module lays it out: false when the
 * plan fails.
 */
bool put_report(struct mb *b, u32 policy, bool dry_run, u32 trigger);
void do_rebalance(const struct req *r);
void do_stats_get(const struct req *r);
void do_config_get(const struct req *r);
void do_config_set(const struct req *r);

/* ---- fake_events.c ---- */

/* What "monitor" gets once it joins the events group. */
void queue_events(void);

#pragma GCC visibility pop

#endif
