// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: TASK_ADD and TASK_DEL, on the tasks a request names
 * (hcube_taskset.c).
 *
 * Registration. A task a pid names must pass every check (else the request
 * fails and nothing changes); the threads and descendants its unit brings
 * are left out when they cannot be registered, counted (exited, refused),
 * but for io_uring's threads, which are left alone and not counted.
 * Then, as the processes may have created threads and children while
 * they were registered, before the probes could see their creator, the
 * unit is collected once more and what is new is registered too: a task
 * whose mask is not within one vertex (it was created before its creator
 * was given one, with its creator's original affinity: its own original
 * affinity). One created later carries a vertex's mask and belongs to its
 * birth (hcube_events.c).
 *
 * Each pid that names a process starts a job: its threads are the job's
 * root, and every thread and child that joins later belongs to it. task
 * del of a root unregisters the whole job.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "hcube.h"

/* Free what hcube_tasks_register() allocated and did not use. */
static void hcube_register_undo(struct hcube *hc, struct hcube_task **out,
				u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		struct hcube_task *t = out[i];

		if (IS_ERR_OR_NULL(t))
			continue;
		if (t->id)
			xa_erase(&hc->tasks, t->id);
		hcube_task_put(t);
		out[i] = NULL;
	}
}

/* The record of @p unless it is a tombstone, or NULL. */
static struct hcube_task *hcube_task_live(struct hcube *hc,
					  struct task_struct *p)
{
	struct hcube_task *t = hcube_task_lookup(hc, p);

	return t && !test_bit(HCUBE_TF_REMOVED, &t->flags) ? t : NULL;
}

/*
 * Does @p's cpuset allow a usable CPU of @vertex (< 0: of a vertex a task
 * would go to)? With no such vertex at all, the registration fails later
 * with -ENODEV, as for any task. -errno when its cpuset cannot be read.
 */
static int hcube_placeable(struct hcube *hc, struct task_struct *p, int vertex)
{
	u64 serial;
	const struct cpumask *allowed;

	hcube_moves_unlock_cpus(hc);	/* a cpuset is read without it */
	allowed = hcube_cs_allowed(hc, p, &serial);
	if (IS_ERR(allowed))
		return PTR_ERR(allowed);
	if (vertex >= 0)
		return cpumask_intersects(hc->v[vertex].usable, allowed) ? 0 : -EXDEV;
	return hcube_pick_vertex(hc, allowed) >= 0 ||
	       hcube_pick_vertex(hc, NULL) < 0 ? 0 : -EXDEV;
}

/* What a registration gives a record: the registrant, the job. */
struct hcube_reg {
	struct hcube_creds *creds;
	u32 unit;
	int vertex;
	u32 *jobs;		/* per request pid index */
};

/*
 * Register one task with its allocated record @t on @g->vertex, or (< 0)
 * the least loaded one its cpuset allows.
 */
static int hcube_register_one(struct hcube *hc, struct hcube_task *t,
			      struct task_struct *p, const struct hcube_reg *g,
			      u32 src, bool root)
{
	const struct cpumask *allowed;
	int to = g->vertex, err;
	u64 serial, now;

	t->task = get_task_struct(p);
	t->origin = HCUBE_REASON_ADMIN;
	t->unit = g->unit == HCUBE_UNIT_THREAD ? HCUBE_UNIT_THREAD : HCUBE_UNIT_JOB;
	t->job = g->jobs[src];
	refcount_inc(&g->creds->ref);
	t->creds = g->creds;
	if (root)
		set_bit(HCUBE_TF_ROOT, &t->flags);
	hcube_mask_snap(p, hcube_task_orig(t));
	/* until hcube gives it one, its mask is not hcube's: no other */
	cpumask_copy(hcube_task_given(t), hcube_task_orig(t));
	cpumask_copy(hcube_task_prev(t), hcube_task_orig(t));
	hcube_moves_unlock_cpus(hc);	/* a cpuset is read without it */
	allowed = hcube_cs_allowed(hc, p, &serial);
	err = PTR_ERR_OR_ZERO(allowed);
	if (!err && to < 0)
		to = hcube_pick_vertex(hc, allowed);
	if (!err && to < 0)
		err = -ENODEV;	/* no healthy vertex */
	if (!err)
		err = hcube_task_hash_add(hc, t);	/* -EEXIST: registered meanwhile */
	if (err) {
		xa_erase(&hc->tasks, t->id);
		hcube_task_put(t);
		return err;
	}
	/*
	 * The exit probe looks the task up after the exiting task set
	 * PF_EXITING; here the record is in the hash before the flag is
	 * read. One of the two sees the other.
	 */
	smp_mb();
	t->vertex = to;
	/*
	 * Its mask must still be the one saved (hcube_batch_set()): one its
	 * owner set meanwhile fails the registration (-EAGAIN).
	 */
	now = ktime_get_ns();
	err = (p->flags & PF_EXITING) ? -ESRCH : hcube_task_give(hc, t, to, NULL);
	if (err == -ESTALE)
		err = -EAGAIN;
	if (err) {
		/* its mask was not changed: nothing to give back */
		xa_erase(&hc->tasks, t->id);
		hcube_task_hash_del(hc, t);
		return err;
	}
	/* no mask hcube gave before: a child that copied the original is not hcube's */
	cpumask_copy(hcube_task_prev(t), hcube_task_given(t));
	t->prev_ns = 0;
	/* its mask was the vertex's already: given now all the same */
	if (!t->given_ns)
		t->given_ns = now;
	hcube_task_link(hc, t, to);
	hcube_task_notify(hc, t, HCUBE_REASON_ADDED);
	return 0;
}

/*
 * The checks of entry @i of @s: 0, or the errno that refuses it (-EEXIST
 * for a task registered already). An io_uring thread (PF_IO_WORKER: the
 * SQPOLL thread, io-wq workers) is no task to balance: 6.1 lets
 * sched_setaffinity() change it, but io_uring sets its affinity itself
 * (IORING_SETUP_SQ_AFF, IORING_REGISTER_IOWQ_AFF), and later kernels mark
 * it PF_NO_SETAFFINITY (-EINVAL, as a kernel thread).
 */
static int hcube_register_check(struct hcube *hc, struct hcube_taskset *s,
				u32 i, const struct hcube_caller *who, int vertex)
{
	struct task_struct *p = s->task[i];
	int err = hcube_task_check(hc, p);

	if (!err && (p->flags & PF_IO_WORKER))
		err = -EINVAL;
	if (!err)
		err = hcube_may_set(who, p);	/* EPERM to the caller */
	if (!err)
		err = hcube_placeable(hc, p, vertex);
	if (!err && hcube_task_live(hc, p))
		err = -EEXIST;
	return err;
}

/*
 * Count @err of an entry the unit brought: it exited (and leaves the set),
 * or it is refused.
 */
static void hcube_register_left_out(struct hcube_taskset *s,
				    struct hcube_added *a, u32 i, int err)
{
	if (err == -ESRCH) {
		a->exited++;
		a->out[i] = NULL;
		put_task_struct(s->task[i]);
		s->task[i] = NULL;
	} else {
		a->refused++;
		a->out[i] = ERR_PTR(err);
	}
}

/* Allocate the records of @s's entries from @from on that pass (out[i] unset). */
static int hcube_register_alloc(struct hcube *hc, struct hcube_taskset *s,
				struct hcube_added *a, u32 from, u32 n)
{
	u32 i;

	if (atomic_add_return(n, &hc->nrecords) > hc->max_tasks) {
		atomic_sub(n, &hc->nrecords);
		return -ENOSPC;
	}
	for (i = from; i < s->n; i++) {
		struct hcube_task *t;

		if (!s->task[i] || a->out[i])
			continue;
		t = hcube_task_alloc(GFP_KERNEL);
		a->out[i] = t;
		if (!t || xa_alloc(&hc->tasks, &t->id, t, xa_limit_32b,
				   GFP_KERNEL)) {
			hcube_register_undo(hc, a->out + from, i + 1 - from);
			atomic_sub(n, &hc->nrecords);
			return -ENOMEM;
		}
	}
	return 0;
}

/* Register the allocated records of entries @from.. of @s. */
static void hcube_register_all(struct hcube *hc, struct hcube_taskset *s,
			       struct hcube_added *a, const struct hcube_reg *g,
			       u32 from)
{
	u32 i;

	for (i = from; i < s->n; i++) {
		int err;

		if (IS_ERR_OR_NULL(a->out[i]))
			continue;
		err = hcube_register_one(hc, a->out[i], s->task[i], g, s->src[i],
					 hcube_taskset_root(s, i));
		if (err) {
			atomic_dec(&hc->nrecords);
			if (err == -EEXIST)
				a->out[i] = NULL;
			else
				hcube_register_left_out(s, a, i, err);
			continue;
		}
		a->registered++;
		cond_resched();
	}
}

/*
 * The late pass: what the unit's processes created since they were
 * collected, entries from @from on (see the top of this file).
 */
static void hcube_register_late(struct hcube *hc, struct hcube_taskset *s,
				const struct hcube_caller *who,
				struct hcube_added *a, const struct hcube_reg *g,
				u32 from)
{
	u32 i, n = 0;

	for (i = from; i < s->n; i++) {
		struct task_struct *p = s->task[i];
		int err;

		a->out[i] = NULL;
		hcube_mask_snap(p, hc->scratch);
		if (hcube_task_lookup(hc, p) || hcube_mask_vertex(hc, hc->scratch) >= 0 ||
		    (p->flags & PF_IO_WORKER))
			goto skip;	/* registered, a birth's, or io_uring's */
		err = hcube_register_check(hc, s, i, who, g->vertex);
		if (err == -EEXIST)
			goto skip;
		if (err) {
			hcube_register_left_out(s, a, i, err);
			continue;
		}
		n++;
		continue;
skip:
		put_task_struct(p);
		s->task[i] = NULL;
	}
	if (n && !hcube_register_alloc(hc, s, a, from, n))
		hcube_register_all(hc, s, a, g, from);
}

/* Room in a->out for @n entries. */
static int hcube_added_grow(struct hcube_added *a, u32 n)
{
	struct hcube_task **out;

	if (n <= a->cap)
		return 0;
	out = hcube_kvrealloc(a->out, a->cap * sizeof(*out), n * sizeof(*out),
			      GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	memset(out + a->cap, 0, (n - a->cap) * sizeof(*out));
	a->out = out;
	a->cap = n;
	return 0;
}

/**
 * hcube_tasks_register() - TASK_ADD
 * @hc: the cube, locked
 * @s: the tasks the request names, expanded by its unit
 * @who: the request's sender and opener
 * @vertex: the vertex to place them on, or -1: the least loaded
 * @a: the outcome; a->out has room for every entry of @s (a->cap), and
 *	grows with the late pass
 * @bad: the entry an error is about, or U32_MAX
 *
 * Either nothing changes and an error comes back, or every named task is
 * registered and a->out[i] is each entry's record, NULL for a repeat, a
 * task registered already or one that exited (counted), or an ERR_PTR for
 * one that could not be registered (counted).
 * Return: 0 or -errno.
 */
int hcube_tasks_register(struct hcube *hc, struct hcube_taskset *s,
			 const struct hcube_caller *who, int vertex,
			 struct hcube_added *a, u32 *bad)
{
	struct hcube_reg g = { .unit = s->unit, .vertex = vertex };
	u32 i, n = 0, npids = 0;
	int err, from;

	*bad = U32_MAX;
	err = hcube_taskset_dedup(s, bad);
	if (err)
		return err;
	for (i = 0; i < s->n; i++) {
		a->out[i] = NULL;
		if (!s->task[i])
			continue;
		npids = max(npids, s->src[i] + 1);
		if (!s->named[i] && (s->task[i]->flags & PF_IO_WORKER)) {
			/* io_uring's (hcube_register_check()): not counted */
			put_task_struct(s->task[i]);
			s->task[i] = NULL;
			continue;
		}
		err = hcube_register_check(hc, s, i, who, vertex);
		if (err && s->named[i]) {
			*bad = i;
			return err;
		}
		if (err == -EEXIST) {
			/* a thread or descendant registered already */
			put_task_struct(s->task[i]);
			s->task[i] = NULL;
			continue;
		}
		if (err)
			hcube_register_left_out(s, a, i, err);
		else
			n++;
	}
	g.creds = hcube_creds_get(who);
	g.jobs = kvcalloc(npids, sizeof(*g.jobs), GFP_KERNEL);
	err = -ENOMEM;
	if (!g.creds || !g.jobs)
		goto out;
	for (i = 0; i < npids; i++)
		g.jobs[i] = ++hc->next_job;
	/* Allocate everything first: a request that fails changes nothing. */
	err = hcube_register_alloc(hc, s, a, 0, n);
	if (err)
		goto out;
	hcube_register_all(hc, s, a, &g, 0);
	if (s->unit != HCUBE_UNIT_THREAD) {
		from = hcube_taskset_again(s);
		if (from >= 0 && s->n > (u32)from && !hcube_added_grow(a, s->n))
			hcube_register_late(hc, s, who, a, &g, from);
	}
	err = 0;
out:
	kvfree(g.jobs);
	hcube_creds_put(g.creds);
	return err;
}

/* Does a linked record of one of the jobs @jobs (@n, sorted) hold @t? */
static bool hcube_in_jobs(const u32 *jobs, u32 n, const struct hcube_task *t)
{
	u32 lo = 0, hi = n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (jobs[mid] == t->job)
			return true;
		if (jobs[mid] < t->job)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int hcube_u32_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/**
 * hcube_tasks_unregister() - TASK_DEL
 * @hc: the cube, locked
 * @s: the tasks the request names, expanded by its unit
 * @who: the request's sender and opener
 * @bad: the named entry an error is about
 *
 * A pid none of whose tasks is registered is an error (-ENOENT), so is a
 * named task @who may not change (-EACCES, -HCUBE_ECAPS), and then nothing
 * changes.
 * Unless the unit is a thread, a named job's root takes its whole job
 * with it: every thread and child that joined it. Threads, descendants
 * and members of a job that @who may not change stay.
 * Return: 0 or -errno.
 */
int hcube_tasks_unregister(struct hcube *hc, struct hcube_taskset *s,
			   const struct hcube_caller *who, u32 *bad)
{
	u32 i, npids = 0, njobs = 0, *jobs = NULL;
	struct hcube_task *t;
	unsigned long id;
	bool *any;

	for (i = 0; i < s->n; i++)
		npids = max(npids, s->src[i] + 1);
	any = kvcalloc(npids, sizeof(*any), GFP_KERNEL);
	if (s->unit != HCUBE_UNIT_THREAD)
		jobs = kvmalloc_array(s->n, sizeof(*jobs), GFP_KERNEL);
	if (!any || (s->unit != HCUBE_UNIT_THREAD && !jobs)) {
		kvfree(any);
		kvfree(jobs);
		return -ENOMEM;
	}
	for (i = 0; i < s->n; i++) {
		t = hcube_task_lookup(hc, s->task[i]);
		if (!t || !test_bit(HCUBE_TF_LINKED, &t->flags))
			continue;
		any[s->src[i]] = true;
		if (jobs && test_bit(HCUBE_TF_ROOT, &t->flags) &&
		    hcube_taskset_root(s, i))
			jobs[njobs++] = t->job;
	}
	for (i = 0; i < s->n; i++) {
		int err = 0;

		if (!s->named[i])
			continue;
		if (!any[s->src[i]])
			err = -ENOENT;
		else
			err = hcube_may_set(who, s->task[i]);
		if (err) {
			*bad = i;
			kvfree(any);
			kvfree(jobs);
			return err;
		}
	}
	kvfree(any);
	for (i = 0; i < s->n; i++) {
		t = hcube_task_lookup(hc, s->task[i]);
		if (t && test_bit(HCUBE_TF_LINKED, &t->flags) &&
		    !hcube_may_set(who, t->task))
			hcube_task_del(hc, t, HCUBE_REASON_REMOVED);
	}
	if (njobs) {
		sort(jobs, njobs, sizeof(*jobs), hcube_u32_cmp, NULL);
		xa_for_each(&hc->tasks, id, t) {
			if (hcube_in_jobs(jobs, njobs, t) && !hcube_may_set(who, t->task))
				hcube_task_del(hc, t, HCUBE_REASON_REMOVED);
			cond_resched();
		}
	}
	kvfree(jobs);
	return 0;
}

/**
 * hcube_tasks_unregister_all() - TASK_DEL of every task
 * @hc: the cube, locked
 * @who: the request's sender and opener
 *
 * Return: 0, or -EACCES (and nothing changes) when @who may not change
 * some task's affinity.
 */
int hcube_tasks_unregister_all(struct hcube *hc, const struct hcube_caller *who)
{
	struct hcube_task *t;
	unsigned long id;

	xa_for_each(&hc->tasks, id, t) {
		if (hcube_may_set(who, t->task))
			return -EACCES;
		cond_resched();
	}
	xa_for_each(&hc->tasks, id, t) {
		hcube_task_del(hc, t, HCUBE_REASON_REMOVED);
		cond_resched();
	}
	return 0;
}
