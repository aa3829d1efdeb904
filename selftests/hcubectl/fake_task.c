// SPDX-License-Identifier: GPL-2.0
/*
 * The fake kernel's tasks: TASK_ADD (with HCUBE_A_UNIT, a test double of
 * the registration units: the unit applied to the processes of procs[]),
 * TASK_DEL and TASK_GET, answered as the module does, and the task nest
 * the replies, the reports and the events share. HCUBE_FAKE_GONE names
 * processes that have exited; pid 999999 has too, and pid 888888 is refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include "fake.h"

void put_task(struct mb *b, uint16_t type, const struct task_desc *t)
{
	size_t n = nest_begin(b, type | NLA_F_NESTED);

	put_u32(b, HCUBE_A_TASK_PID, t->pid);
	if (t->tgid)
		put_u32(b, HCUBE_A_TASK_TGID, t->tgid);
	if (t->comm)
		put_str(b, HCUBE_A_TASK_COMM, t->comm);
	if (!t->no_vertex)
		put_u32(b, HCUBE_A_TASK_VERTEX, t->vertex);
	if (type != HCUBE_A_REPORT_FAILURE && !t->no_vertex)
		put_u32(b, HCUBE_A_TASK_STATE, t->state);
	if (t->cpus)
		put_str(b, HCUBE_A_TASK_CPUS, t->cpus);
	if (t->orig)
		put_str(b, HCUBE_A_TASK_ORIG_CPUS, t->orig);
	if (t->has_error)
		put_attr(b, HCUBE_A_TASK_ERROR, &t->error, sizeof(t->error));
	if (t->has_reason)
		put_u32(b, HCUBE_A_TASK_REASON, t->reason);
	if (t->has_units) {
		put_u32(b, HCUBE_A_TASK_ORIGIN, t->origin);
		put_u32(b, HCUBE_A_TASK_UNIT, t->unit);
	}
	if (t->creator)
		put_u32(b, HCUBE_A_TASK_CREATOR, t->creator);
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

	for (i = 0; i < ARRAY_SIZE(procs); i++)
		if (procs[i].pid == pid)
			return procs[i].tgid;
	return pid;
}

/* Has process @pid exited: 999999, or in HCUBE_FAKE_GONE? */
static bool gone(u32 pid)
{
	u32 list[256];
	size_t n, i;

	if (pid == 999999)
		return true;
	n = parse_list(getenv("HCUBE_FAKE_GONE"), list, 256);
	for (i = 0; i < n; i++)
		if (list[i] == pid)
			return true;
	return false;
}

/*
 * What a TASK_ADD reply counts (as the module: every task registered, the
 * threads and descendants left out) besides the tasks it lists.
 */
static u32 add_registered, add_refused;

/*
 * One registered task: counted, and listed when a pid names it (@named), as
 * the module lists them; with @units, of the unit @unit. On vertex @va, else
 * on the next healthy one (*@k).
 */
static void put_added(struct mb *b, const struct fake_proc *p, bool units, u32 unit,
		      const struct nlattr *va, u32 *k, u32 named)
{
	struct task_desc d = {
		.pid = p->pid, .tgid = p->tgid, .comm = p->comm,
		.vertex = va ? get_u32(va) : healthy_vertex((*k)++),
		.state = HCUBE_TASK_ACTIVE, .orig = "0-31", .has_units = units,
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

	for (i = 0; i < ARRAY_SIZE(procs); i++)
		if (procs[i].tgid == tgid) {
			put_added(b, &procs[i], true, HCUBE_UNIT_JOB, va, k, named);
			known = true;
		}
	if (!known)
		put_added(b, &one, true, HCUBE_UNIT_JOB, va, k, named);
	for (i = 0; tree && i < ARRAY_SIZE(procs); i++)
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
	for (i = 0; i < ARRAY_SIZE(procs); i++)
		if (procs[i].pid == pid)
			one = procs[i];
	put_added(b, &one, true, HCUBE_UNIT_THREAD, va, k, pid);
}

void do_task_add(const struct req *r)
{
	const struct nlattr *va = r->a[HCUBE_A_VERTEX_ID];
	struct mb b = { 0 };
	u32 i, k = 0;

	if (!r->npids) {
		fail_miss(r, HCUBE_ERR_PID_REQUIRED, HCUBE_A_PID);
		return;
	}
	for (i = 0; i < r->npids; i++)
		if (gone(get_u32(r->pids[i]))) {
			fail(r, ESRCH, HCUBE_ERR_PID_NONE, r->pids[i], false, 0, 0);
			return;
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
		struct fake_proc one = { pid, pid, 1, "worker" };

		if (pid == 888888) {	/* as the module: the pid and its error */
			struct task_desc d = {
				.pid = pid, .has_error = true, .error = -EPERM, .no_vertex = true,
			};

			add_refused++;
			put_task(&b, HCUBE_A_TASK, &d);
		} else if (r->a[HCUBE_A_UNIT]) {
			put_unit(&b, pid, get_u32(r->a[HCUBE_A_UNIT]), va, &k);
		} else {
			put_added(&b, &one, false, 0, va, &k, pid);
		}
	}
	put_u32(&b, HCUBE_A_NREGISTERED, add_registered);
	put_u32(&b, HCUBE_A_NEXITED, 0);
	put_u32(&b, HCUBE_A_NREFUSED, add_refused);
	msg_end_queue(&b);
	free(b.d);
	queue_ack(r->nlh);
}

void do_task_del(const struct req *r)
{
	u32 i;

	if (!!r->a[HCUBE_A_ALL] == !!r->npids) {
		fail(r, EINVAL, r->npids ? HCUBE_ERR_ALL_WITH_PID : HCUBE_ERR_PID_REQUIRED,
		     r->a[HCUBE_A_ALL], false, 0, 0);
		return;
	}
	for (i = 0; i < r->npids; i++)
		if (gone(get_u32(r->pids[i]))) {
			fail(r, ENOENT, HCUBE_ERR_PID_UNREGISTERED, r->pids[i], false, 0, 0);
			return;
		}
	queue_ack(r->nlh);
}

void do_task_get(const struct req *r)
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
	for (i = 0; i < ARRAY_SIZE(tasks); i++) {
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

