// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: the tasks a TASK_ADD or TASK_DEL names.
 *
 * A request names pids; its unit says what each brings: the thread, the
 * process (every thread), or the process and its descendants. The set
 * holds a reference on each task, the index of the pid that brought it
 * and whether that pid names it. The named processes are kept, so that
 * the unit can be collected again (hcube_taskset_again()): what the
 * processes created while they were being registered.
 */
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "hcube.h"

/* A process of the set (its signal_struct) and the pid that named it. */
struct hcube_proc_key {
	const void *signal;
	struct task_struct *task;	/* a named thread of it, referenced */
	u32 src;
};

static int hcube_taskset_grow(struct hcube_taskset *s, u32 room)
{
	u32 cap = s->cap, n = s->n + room;
	struct task_struct **task;
	u32 *src;
	bool *named;

	if (n <= cap)
		return 0;
	while (cap < n)
		cap = cap ? 2 * cap : 64;
	task = hcube_kvrealloc(s->task, s->cap * sizeof(*task),
			       cap * sizeof(*task), GFP_KERNEL);
	if (!task)
		return -ENOMEM;
	s->task = task;
	src = hcube_kvrealloc(s->src, s->cap * sizeof(*src), cap * sizeof(*src),
			      GFP_KERNEL);
	if (!src)
		return -ENOMEM;
	s->src = src;
	named = hcube_kvrealloc(s->named, s->cap * sizeof(*named),
				cap * sizeof(*named), GFP_KERNEL);
	if (!named)
		return -ENOMEM;
	s->named = named;
	s->cap = cap;
	return 0;
}

void hcube_taskset_free(struct hcube_taskset *s)
{
	u32 i;

	for (i = 0; i < s->n; i++)
		if (s->task[i])
			put_task_struct(s->task[i]);
	for (i = 0; i < s->nkeys; i++)
		put_task_struct(s->keys[i].task);
	kvfree(s->task);
	kvfree(s->src);
	kvfree(s->named);
	kvfree(s->keys);
	memset(s, 0, sizeof(*s));
}

/*
 * Add the task that pid number @nr names in the caller's pid namespace, as
 * named by the request's pid @src. -ESRCH when it names none.
 * hcube_taskset_expand() adds the rest of the unit.
 */
int hcube_taskset_add_nr(struct hcube_taskset *s, pid_t nr, u32 src)
{
	struct pid *pid = find_get_pid(nr);
	struct task_struct *p = pid ? get_pid_task(pid, PIDTYPE_PID) : NULL;
	int err;

	put_pid(pid);
	if (!p)
		return -ESRCH;
	err = hcube_taskset_grow(s, 1);
	if (err) {
		put_task_struct(p);
		return err;
	}
	s->task[s->n] = p;
	s->src[s->n] = src;
	s->named[s->n++] = true;
	return 0;
}

static int hcube_proc_key_cmp(const void *a, const void *b)
{
	const struct hcube_proc_key *x = a, *y = b;

	if (x->signal != y->signal)
		return x->signal < y->signal ? -1 : 1;
	return x->src < y->src ? -1 : x->src > y->src;
}

/* The named process @signal belongs to, or NULL. */
static const struct hcube_proc_key *
hcube_proc_find(const struct hcube_proc_key *k, u32 n, const void *signal)
{
	u32 lo = 0, hi = n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (k[mid].signal == signal)
			return &k[mid];
		if (k[mid].signal < signal)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The named process @p descends from (by real parent), or NULL. RCU. */
static const struct hcube_proc_key *
hcube_proc_root(const struct hcube_proc_key *k, u32 n, struct task_struct *p)
{
	for (p = rcu_dereference(p->real_parent); p->pid;
	     p = rcu_dereference(p->real_parent)) {
		const struct hcube_proc_key *r = hcube_proc_find(k, n, p->signal);

		if (r)
			return r;
	}
	return NULL;
}

static void hcube_take(struct hcube_taskset *s, struct task_struct *t, u32 src,
		       u32 room, u32 *found)
{
	if (t->flags & PF_EXITING)
		return;
	if ((*found)++ < room) {
		s->task[s->n] = get_task_struct(t);
		s->src[s->n] = src;
		s->named[s->n++] = false;
	}
}

/*
 * Collect under RCU, once per named process, its threads and, for a tree,
 * every thread of every descendant process (one pass over the processes,
 * each looked up among the named ones). At most @room go into @s; returns
 * how many there were, so that a caller with too little room grows the
 * set and tries again.
 */
static u32 hcube_collect(struct hcube_taskset *s, const struct hcube_proc_key *k,
			 u32 nk, u32 room)
{
	struct task_struct *g, *t;
	u32 found = 0, i;

	rcu_read_lock();
	for (i = 0; i < nk; i++)
		for_each_thread(k[i].task, t)
			hcube_take(s, t, k[i].src, room, &found);
	if (s->unit == HCUBE_UNIT_TREE) {
		for_each_process(g) {
			const struct hcube_proc_key *r;

			if (hcube_proc_find(k, nk, g->signal))
				continue;
			r = hcube_proc_root(k, nk, g);
			if (!r)
				continue;
			for_each_thread(g, t)
				hcube_take(s, t, r->src, room, &found);
		}
	}
	rcu_read_unlock();
	return found;
}

/*
 * Collect the unit again into @s from entry @n0 on, growing it as needed;
 * -ENOMEM or 0.
 */
static int hcube_taskset_collect(struct hcube_taskset *s, u32 n0)
{
	u32 room = n0 + 16, found;
	int err;

	for (;;) {
		err = hcube_taskset_grow(s, room);
		if (err)
			return err;
		found = hcube_collect(s, s->keys, s->nkeys, room);
		if (found <= room)
			return 0;
		/* it grew meanwhile: drop what was taken and try with room */
		while (s->n > n0)
			put_task_struct(s->task[--s->n]);
		room = found + found / 4 + 16;
	}
}

/**
 * hcube_taskset_expand() - add what the unit brings beyond the named tasks
 * @s: the set, with the named tasks only
 *
 * For a job every thread of each named process, for a tree also every
 * thread of every descendant process. Each process is walked once,
 * however many of its threads the request names; hcube_tasks_register()
 * drops the repeats. The named processes are kept for
 * hcube_taskset_again().
 * Return: 0 or -ENOMEM.
 */
int hcube_taskset_expand(struct hcube_taskset *s)
{
	u32 n0 = s->n, nk = 0, i;
	struct hcube_proc_key *k;

	if (s->unit == HCUBE_UNIT_THREAD || !n0)
		return 0;
	k = kvmalloc_array(n0, sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	for (i = 0; i < n0; i++) {
		k[i].signal = s->task[i]->signal;
		k[i].task = get_task_struct(s->task[i]);
		k[i].src = s->src[i];
	}
	sort(k, n0, sizeof(*k), hcube_proc_key_cmp, NULL);
	for (i = 0; i < n0; i++) {	/* one per process: its first pid */
		if (!nk || k[nk - 1].signal != k[i].signal)
			k[nk++] = k[i];
		else
			put_task_struct(k[i].task);
	}
	s->keys = k;
	s->nkeys = nk;
	return hcube_taskset_collect(s, n0);
}

/**
 * hcube_taskset_again() - collect the unit once more
 * @s: an expanded set
 *
 * The tasks of the unit as they are now go into @s after its entries
 * (none of them named), repeats included: what the named processes
 * created since hcube_taskset_expand().
 * Return: the index of the first new entry, or -ENOMEM.
 */
int hcube_taskset_again(struct hcube_taskset *s)
{
	u32 n0 = s->n;
	int err;

	if (!s->nkeys)
		return n0;
	err = hcube_taskset_collect(s, n0);
	return err ? err : n0;
}

struct hcube_set_key {
	struct task_struct *task;
	u32 i;
};

static int hcube_set_key_cmp(const void *a, const void *b)
{
	const struct hcube_set_key *x = a, *y = b;

	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/**
 * hcube_taskset_dedup() - drop the repeats of a set
 * @s: the set
 * @bad: the later of two pids that name the same task
 *
 * Sorted, not pairwise: a request may name tens of thousands of tasks.
 * Repeats brought in as threads or descendants are dropped (their entries
 * become NULL).
 * Return: 0, -ENOTUNIQ for a task two pids name, or -ENOMEM.
 */
int hcube_taskset_dedup(struct hcube_taskset *s, u32 *bad)
{
	struct hcube_set_key *k;
	u32 i, j;

	if (s->n < 2)
		return 0;
	k = kvmalloc_array(s->n, sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	for (i = 0; i < s->n; i++) {
		k[i].task = s->task[i];
		k[i].i = i;
	}
	sort(k, s->n, sizeof(*k), hcube_set_key_cmp, NULL);
	for (i = 0; i < s->n; i = j) {
		u32 keep = k[i].i, named = s->named[keep] ? 1 : 0;

		for (j = i + 1; j < s->n && k[j].task == k[i].task; j++) {
			u32 x = k[j].i;

			if (s->named[x] && ++named > 1) {
				*bad = x;
				kvfree(k);
				return -ENOTUNIQ;
			}
			if (s->named[x])
				keep = x;
		}
		for (j = i; j < s->n && k[j].task == k[i].task; j++) {
			if (k[j].i == keep)
				continue;
			put_task_struct(s->task[k[j].i]);
			s->task[k[j].i] = NULL;
		}
	}
	kvfree(k);
	return 0;
}

/**
 * hcube_taskset_root() - is entry @i a thread of a process a pid names?
 * @s: the set
 * @i: an entry
 *
 * Return: true for a named task, and for a job or a tree for every thread
 * of a named task's process.
 */
bool hcube_taskset_root(const struct hcube_taskset *s, u32 i)
{
	if (s->named[i])
		return true;
	return s->task[i] && s->nkeys &&
	       hcube_proc_find(s->keys, s->nkeys, s->task[i]->signal);
}
