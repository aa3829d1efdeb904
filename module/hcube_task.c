// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: registered tasks.
 *
 * A registered task is a thread. Its record holds a reference on its
 * task_struct, so a thread keeps its identity when a non-leader thread's
 * exec swaps thread ids. The affinity it had at registration is saved and
 * given back when it is unregistered and when the module is unloaded; a
 * new thread or child registered with its creator (hcube_events.c) saves
 * its creator's. While registered, an active task's allowed CPUs are
 * exactly the usable CPUs of its vertex, and the record keeps the mask
 * hcube last set ("given"). Before hcube sets a mask again it compares:
 * a task whose mask someone else changed is reported as changed and left
 * alone from then on (not moved, not counted in any load, not restored).
 * The one exception is a task a CPU of whose mask went offline since: the
 * scheduler itself breaks the affinity of a task whose CPUs all left.
 *
 * Records are found by task in hcube.by_task under RCU (the tracepoint
 * probes) and are freed after a grace period. A record unregistered by a
 * command stays in the hash as a tombstone, not linked and not counted,
 * until its task exits: a fork that copied the vertex's mask just before
 * the affinity was given back still finds it, and the child gets the
 * original affinity too.
 *
 * cpusets. The module cannot read a task's cpuset (cpuset_cpus_allowed()
 * is not exported), and set_cpus_allowed_ptr() does not check it. A task
 * in the root cpuset may use every CPU. A task in another cpuset is
 * accepted only if its current allowed mask covers every CPU of the cube:
 * the cpuset keeps that mask within its own CPUs, so the cube then lies
 * inside the cpuset. hcubectl reads the cpuset itself and says which CPUs
 * are missing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/cpu.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "hcube.h"
#include "hcube_trace.h"

static struct kmem_cache *hcube_task_cache;

int hcube_tasks_init(void)
{
	hcube_task_cache = kmem_cache_create("hcube_task",
					     sizeof(struct hcube_task) +
					     3 * cpumask_size(),
					     0, 0, NULL);
	return hcube_task_cache ? 0 : -ENOMEM;
}

void hcube_tasks_exit(void)
{
	rcu_barrier();	/* hcube_task_free_rcu() is ours */
	kmem_cache_destroy(hcube_task_cache);
}

/* Unload: free the records still in the hash, tombstones. */
void hcube_tasks_sweep(struct hcube *hc)
{
	struct hlist_node *tmp;
	struct hcube_task *t;
	int bkt;

	hash_for_each_safe(hc->by_task, bkt, tmp, t, hnode)
		hcube_task_hash_del(hc, t);
}

/*
 * How many times the CPUs of @mask went offline, in all. A task's affinity
 * is hcube's to set again when this moved since hcube set it: the
 * scheduler breaks the affinity of a task whose CPUs all went offline.
 */
u32 hcube_mask_offlines(struct hcube *hc, const struct cpumask *mask)
{
	unsigned int cpu;
	u32 n = 0;

	for_each_cpu(cpu, mask)
		n += READ_ONCE(hc->cpu_offlines[cpu]);
	return n;
}

struct hcube_task *hcube_task_alloc(gfp_t gfp)
{
	struct hcube_task *t = kmem_cache_zalloc(hcube_task_cache, gfp);

	if (!t)
		return NULL;
	refcount_set(&t->ref, 1);
	INIT_LIST_HEAD(&t->vnode);
	t->vertex = HCUBE_NO_VERTEX;
	return t;
}

static void hcube_task_free_rcu(struct rcu_head *rcu)
{
	struct hcube_task *t = container_of(rcu, struct hcube_task, rcu);

	if (t->task)
		put_task_struct(t->task);
	put_pid(t->creator);
	put_pid(t->exit_pid);
	kmem_cache_free(hcube_task_cache, t);
}

/* Any context: the last reference frees the record after a grace period. */
void hcube_task_put(struct hcube_task *t)
{
	if (refcount_dec_and_test(&t->ref))
		call_rcu(&t->rcu, hcube_task_free_rcu);
}

/* The record of @p that is not gone, under RCU or hcube.lock. */
struct hcube_task *hcube_task_lookup(struct hcube *hc, struct task_struct *p)
{
	struct hcube_task *t, *found = NULL;

	rcu_read_lock();
	hash_for_each_possible_rcu(hc->by_task, t, hnode, (unsigned long)p) {
		if (t->task == p && !test_bit(HCUBE_TF_GONE, &t->flags)) {
			found = t;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/*
 * Put @t in the hash, replacing a tombstone of its task; false when a live
 * record of the task is there already. The hash owns the caller's reference.
 */
bool hcube_task_hash_add(struct hcube *hc, struct hcube_task *t)
{
	struct hcube_task *old, *tomb = NULL;

	spin_lock(&hc->hash_lock);
	hash_for_each_possible(hc->by_task, old, hnode, (unsigned long)t->task) {
		if (old->task != t->task || test_bit(HCUBE_TF_GONE, &old->flags))
			continue;
		if (!test_bit(HCUBE_TF_REMOVED, &old->flags) ||
		    test_bit(HCUBE_TF_LINKED, &old->flags)) {
			spin_unlock(&hc->hash_lock);
			return false;
		}
		tomb = old;
	}
	if (tomb) {
		set_bit(HCUBE_TF_GONE, &tomb->flags);
		hash_del_rcu(&tomb->hnode);
		atomic_dec(&hc->nhashed);
	}
	hash_add_rcu(hc->by_task, &t->hnode, (unsigned long)t->task);
	atomic_inc(&hc->nhashed);
	spin_unlock(&hc->hash_lock);
	if (tomb)
		hcube_task_put(tomb);
	return true;
}

/* Take @t out of the hash for good and drop the hash's reference. */
void hcube_task_hash_del(struct hcube *hc, struct hcube_task *t)
{
	spin_lock(&hc->hash_lock);
	if (test_and_set_bit(HCUBE_TF_GONE, &t->flags)) {
		spin_unlock(&hc->hash_lock);
		return;
	}
	hash_del_rcu(&t->hnode);
	atomic_dec(&hc->nhashed);
	spin_unlock(&hc->hash_lock);
	hcube_task_put(t);
}

/* Is @p in a cpuset other than the root one? */
bool hcube_in_cpuset(struct task_struct *p)
{
	bool child = false;

#ifdef CONFIG_CPUSETS
	rcu_read_lock();
	child = !!task_css(p, cpuset_cgrp_id)->parent;
	rcu_read_unlock();
#endif
	return child;
}

/*
 * What @p's cpuset allows, as far as hcube can know (cpuset_cpus_allowed()
 * is not exported): every possible CPU in the root cpuset, else its
 * affinity now, which its cpuset keeps within its own CPUs.
 */
static void hcube_allowed_of(struct cpumask *dst, struct task_struct *p)
{
	cpumask_copy(dst, hcube_in_cpuset(p) ? &p->cpus_mask : cpu_possible_mask);
}

/* The ownership test of sched_setaffinity(): same euid as the task's uid or euid. */
static bool hcube_owner(const struct cred *cred, const struct cred *pcred)
{
	return uid_eq(cred->euid, pcred->euid) || uid_eq(cred->euid, pcred->uid);
}

/*
 * Could the caller change @p's affinity with sched_setaffinity()? Its
 * owner, or CAP_SYS_NICE in the task's user namespace; both the sender
 * and the socket's opener must pass, as netlink_ns_capable() asks of both.
 * LSM hooks (security_task_setscheduler()) are not callable from a module.
 */
bool hcube_may_set(const struct hcube_caller *who, struct task_struct *p)
{
	const struct cred *pcred;
	bool ok;

	rcu_read_lock();
	pcred = __task_cred(p);
	ok = (hcube_owner(who->cred, pcred) ||
	      ns_capable(pcred->user_ns, CAP_SYS_NICE)) &&
	     (!who->file || hcube_owner(who->file->f_cred, pcred) ||
	      file_ns_capable(who->file, pcred->user_ns, CAP_SYS_NICE));
	rcu_read_unlock();
	return ok;
}

/* Does @p run with the effective uid of @cred (what an unprivileged reader sees)? */
bool hcube_same_euid(const struct cred *cred, struct task_struct *p)
{
	bool same;

	rcu_read_lock();
	same = uid_eq(cred->euid, __task_cred(p)->euid);
	rcu_read_unlock();
	return same;
}

/*
 * May @p be registered? 0, or the errno that tells why not:
 * -EPERM PF_NO_SETAFFINITY (on 6.1 only kernel threads bound to CPUs carry
 * it), -EINVAL other kernel thread, -ESRCH exiting, -EBUSY SCHED_DEADLINE
 * (sched_setaffinity() refuses its narrowing too).
 */
int hcube_task_check(struct hcube *hc, struct task_struct *p)
{
	if (p->flags & PF_NO_SETAFFINITY)
		return -EPERM;
	if (p->flags & PF_KTHREAD)
		return -EINVAL;
	if (p->flags & PF_EXITING)
		return -ESRCH;
	if (READ_ONCE(p->policy) == SCHED_DEADLINE)
		return -EBUSY;
	return 0;
}

/*
 * The least loaded healthy vertex attached to C_b (when there is a C_b)
 * that @allowed (NULL: anything) has a usable CPU of, or -1.
 */
int hcube_pick_vertex(struct hcube *hc, const struct cpumask *allowed)
{
	int best = -1;
	u32 i;

	for (i = 0; i < hc->nv; i++) {
		struct hcube_vertex *v = &hc->v[i];

		if (v->state != HCUBE_VERTEX_HEALTHY ||
		    (allowed && !cpumask_intersects(v->usable, allowed)))
			continue;
		if (hc->topo_valid && hc->topo.dist[i] == HCUBE_DIST_NONE)
			continue;
		if (best < 0 || v->load < hc->v[best].load)
			best = i;
	}
	return best;
}

/* The vertex whose CPU group holds all of @mask, or -1. */
int hcube_mask_vertex(struct hcube *hc, const struct cpumask *mask)
{
	unsigned int cpu = cpumask_first(mask);
	u16 v;

	if (cpu >= nr_cpu_ids)
		return -1;
	v = hc->cpu_vertex[cpu];
	if (v == HCUBE_NO_VERTEX || !cpumask_subset(mask, hc->v[v].cpus))
		return -1;
	return v;
}

/*
 * hcube's one way to set a task's mask, with the CPU hotplug lock held for
 * reading (inside hcube.lock or alone; never under the hotplug lock). On
 * 6.1, a set_cpus_allowed_ptr() of a running task that races with the
 * deactivation of the CPUs of its new mask can leave the task on a CPU
 * outside the mask with no migration pending: the stopper completes the
 * request, then __migrate_task() gives up on the inactive destination.
 * Such a task keeps running there, and on PREEMPT_RT its next
 * migrate_enable() warns in affine_move_task() (make check's stress did
 * that). The lock is held for one call, so hotplug waits for at most one
 * move.
 */
int hcube_set_cpus(struct task_struct *p, const struct cpumask *mask)
{
	int err;

	cpus_read_lock();
	err = set_cpus_allowed_ptr(p, mask);
	cpus_read_unlock();
	return err;
}

/*
 * Did someone else change @t's affinity since hcube set it? Not when a CPU
 * of its mask went offline since then: the scheduler breaks the affinity
 * of a task whose allowed CPUs all went offline.
 */
/*
 * Is a change of @t's mask its cpuset's? A cpuset other than the root one
 * sets its tasks' masks itself (on CPU hotplug, a write of cpuset.cpus, a
 * move to another cgroup), and a module cannot tell that from anyone
 * else's sched_setaffinity(): in such a cpuset every change is taken for
 * the set of CPUs the task may use from now on, and hcube keeps the task
 * on a vertex within it. In the root cpuset nothing rewrites masks: a
 * change is someone else's.
 */
static bool hcube_cpuset_rewrite(struct hcube_task *t, const struct cpumask *now)
{
	return hcube_in_cpuset(t->task) && cpumask_intersects(now, cpu_possible_mask);
}

bool hcube_task_changed(struct hcube *hc, struct hcube_task *t)
{
	const struct cpumask *given = hcube_task_given(t);
	const struct cpumask *now = &t->task->cpus_mask;

	if (cpumask_equal(now, given))
		return false;
	/*
	 * The hotplug callbacks count a CPU's offlining after the CPU left
	 * the active mask, when the scheduler may already have moved the
	 * task off it: a CPU of the mask not active counts too.
	 */
	if (hcube_mask_offlines(hc, given) != t->epoch ||
	    !cpumask_subset(given, cpu_active_mask))
		return false;
	return !hcube_cpuset_rewrite(t, now);
}

/*
 * Before hcube sets @t's mask: true when someone else changed it. A
 * cpuset's own change teaches hcube what the cpuset allows now.
 */
static bool hcube_task_sync(struct hcube *hc, struct hcube_task *t)
{
	const struct cpumask *now = &t->task->cpus_mask;

	if (cpumask_equal(now, hcube_task_given(t)))
		return false;
	if (hcube_task_changed(hc, t))
		return true;
	if (hcube_cpuset_rewrite(t, now))
		cpumask_and(hcube_task_allowed(t), now, cpu_possible_mask);
	return false;
}

/*
 * Give @t the usable CPUs of vertex @v that its cpuset allows (-EXDEV:
 * none) and remember them as hcube's, with the offline count read before:
 * a CPU that goes down meanwhile shows. Under hcube.lock.
 */
static int hcube_task_give(struct hcube *hc, struct hcube_task *t, u32 v)
{
	struct cpumask *mask = hc->scratch;
	u32 epoch;
	int err;

	if (!cpumask_and(mask, hc->v[v].usable, hcube_task_allowed(t)))
		return -EXDEV;
	epoch = hcube_mask_offlines(hc, mask);
	err = hcube_bench_set_cpus(t->task, mask);
	if (err)
		return err;
	cpumask_copy(hcube_task_given(t), mask);
	t->epoch = epoch;
	t->remask_pending = false;
	if (cpumask_equal(&t->task->cpus_mask, mask))
		return 0;
	/* read back: the kernel's own change (hotplug) is no error */
	return hcube_task_changed(hc, t) ? -EIO : 0;
}

/* A TASK_NTF about @t. */
void hcube_task_notify(struct hcube *hc, struct hcube_task *t, u32 reason)
{
	hcube_notify(hc, HCUBE_CMD_TASK_NTF, &(struct hcube_ntf){
		.reason = reason, .task = t });
}

/*
 * Link a record that is in the hash: on vertex @vertex (active, its mask
 * already that vertex's) or, with HCUBE_NO_VERTEX, on hcube.changed (its
 * vertex stays what it was: where it was created). Needs an id in
 * hcube.tasks already (t->id).
 */
void hcube_task_link(struct hcube *hc, struct hcube_task *t, u32 vertex)
{
	if (vertex == HCUBE_NO_VERTEX) {
		t->state = HCUBE_TASK_CHANGED;
		list_add_tail(&t->vnode, &hc->changed);
	} else {
		t->state = HCUBE_TASK_ACTIVE;
		t->vertex = vertex;
		list_add_tail(&t->vnode, &hc->v[vertex].tasks);
		hc->v[vertex].load++;
	}
	set_bit(HCUBE_TF_LINKED, &t->flags);
	hc->ntasks++;
	hc->cnt.registered++;
	if (t->origin != HCUBE_REASON_ADMIN)
		hc->cnt.adopted++;
}

/* The report's and the counters' side of a task found changed. */
void hcube_task_set_changed(struct hcube *hc, struct hcube_task *t,
			    struct hcube_report *r)
{
	t->state = HCUBE_TASK_CHANGED;
	hc->v[t->vertex].load--;
	list_move_tail(&t->vnode, &hc->changed);
	hc->cnt.changed++;
	if (r) {
		r->changed_count++;
		if (r->nchanged < HCUBE_REPORT_TASKS)
			hcube_report_task(&r->changed[r->nchanged++], t, 0);
	}
	hcube_task_notify(hc, t, HCUBE_REASON_CHANGED);
}

static void hcube_task_unlink(struct hcube *hc, struct hcube_task *t)
{
	list_del_init(&t->vnode);
	xa_erase(&hc->tasks, t->id);
	if (t->state == HCUBE_TASK_ACTIVE)
		hc->v[t->vertex].load--;
	clear_bit(HCUBE_TF_LINKED, &t->flags);
	hc->ntasks--;
	atomic_dec(&hc->nrecords);
}

/*
 * Unregister a linked @t. @reason: HCUBE_REASON_REMOVED (a command, or
 * 0 at unload: no event) gives an active task whose affinity nobody else
 * changed its original affinity back and leaves a tombstone in the hash;
 * HCUBE_REASON_EXITED takes it out of the hash.
 */
void hcube_task_del(struct hcube *hc, struct hcube_task *t, u32 reason)
{
	struct task_struct *p = t->task;

	if (reason != HCUBE_REASON_EXITED && t->state == HCUBE_TASK_ACTIVE &&
	    !(p->flags & PF_EXITING) && !hcube_task_sync(hc, t)) {
		int err = hcube_set_cpus(p, hcube_task_orig(t));

		if (err)
			pr_info("pid %d: original affinity %*pbl not restored: %d\n",
				task_pid_nr(p), cpumask_pr_args(hcube_task_orig(t)),
				err);
	}
	if (reason == HCUBE_REASON_EXITED) {
		hc->cnt.exited++;
		hcube_task_notify(hc, t, reason);
	} else if (reason == HCUBE_REASON_REMOVED) {
		hc->cnt.unregistered++;
		hcube_task_notify(hc, t, reason);
	} else {
		hc->cnt.unregistered++;
	}
	hcube_task_unlink(hc, t);
	if (reason == HCUBE_REASON_EXITED || (p->flags & PF_EXITING)) {
		/* its births in flight still register their children */
		hcube_task_hash_del(hc, t);
		return;
	}
	set_bit(HCUBE_TF_REMOVED, &t->flags);
}

/* Unload: every linked task unregistered, its affinity given back. */
void hcube_tasks_release_all(struct hcube *hc)
{
	struct hcube_task *t;
	unsigned long id;

	xa_for_each(&hc->tasks, id, t)
		hcube_task_del(hc, t, 0);
}

/*
 * Move an active task to vertex @to; on failure it stays where it is.
 * -EAGAIN: someone else changed its affinity, it is now changed.
 */
int hcube_task_move(struct hcube *hc, struct hcube_task *t, u32 to,
		    struct hcube_report *r)
{
	u32 from = t->vertex;
	int err;

	if (t->task->flags & PF_EXITING)
		return -ESRCH;	/* the exit probe has it */
	if (hcube_task_sync(hc, t)) {
		hcube_task_set_changed(hc, t, r);
		return -EAGAIN;
	}
	err = hcube_task_give(hc, t, to);
	trace_hcube_migrate(task_pid_nr(t->task), from, to, err);
	if (err)
		return err;
	list_move_tail(&t->vnode, &hc->v[to].tasks);
	hc->v[from].load--;
	hc->v[to].load++;
	t->vertex = to;
	return 0;
}

/*
 * The healthy vertex nearest to @t's (fewest differing label bits, then
 * the least loaded) that its cpuset allows a usable CPU of, or -1.
 */
static int hcube_task_nearest(struct hcube *hc, struct hcube_task *t)
{
	int best = -1;
	u32 i;

	for (i = 0; i < hc->nv; i++) {
		struct hcube_vertex *v = &hc->v[i];
		u32 d = hweight32(i ^ t->vertex);

		if (v->state != HCUBE_VERTEX_HEALTHY ||
		    !cpumask_intersects(v->usable, hcube_task_allowed(t)))
			continue;
		if (best < 0 || d < hweight32(best ^ t->vertex) ||
		    (d == hweight32(best ^ t->vertex) && v->load < hc->v[best].load))
			best = i;
	}
	return best;
}

/*
 * Give an active task its vertex's current mask, if it differs. A failure
 * (for instance when a CPU coming online is not active yet) is retried
 * later instead of being taken for someone else's change. A task whose
 * cpuset no longer allows a usable CPU of its vertex goes to the nearest
 * vertex that it does; with none, its cpuset's mask stays and it is
 * reported changed.
 */
int hcube_task_remask(struct hcube *hc, struct hcube_task *t,
		      struct hcube_report *r)
{
	int err, to;

	if (t->task->flags & PF_EXITING)
		return 0;
	if (hcube_task_sync(hc, t)) {
		hcube_task_set_changed(hc, t, r);
		return 0;
	}
	if (cpumask_equal(&t->task->cpus_mask, hcube_task_given(t)) &&
	    cpumask_and(hc->scratch, hc->v[t->vertex].usable, hcube_task_allowed(t)) &&
	    cpumask_equal(hc->scratch, hcube_task_given(t))) {
		t->remask_pending = false;
		return 0;
	}
	err = hcube_task_give(hc, t, t->vertex);
	if (err == -EXDEV) {
		to = hcube_task_nearest(hc, t);
		if (to < 0) {
			hcube_task_set_changed(hc, t, r);
			return 0;
		}
		err = hcube_task_move(hc, t, to, r);
	}
	t->remask_pending = err != 0;
	return err;
}

void hcube_report_task(struct hcube_report_task *rt, struct hcube_task *t,
		       int error)
{
	rt->spid = get_task_pid(t->task, PIDTYPE_PID);
	rt->pid = task_pid_nr(t->task);
	rt->vertex = t->vertex;
	rt->error = error;
	get_task_comm(rt->comm, t->task);
}

/*
 * Task sets: the tasks a request names. Each entry holds a task reference,
 * the index of the pid that brought it and whether that pid names it.
 */
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
	task = kvrealloc(s->task, s->cap * sizeof(*task), cap * sizeof(*task),
			 GFP_KERNEL);
	if (!task)
		return -ENOMEM;
	s->task = task;
	src = kvrealloc(s->src, s->cap * sizeof(*src), cap * sizeof(*src),
			GFP_KERNEL);
	if (!src)
		return -ENOMEM;
	s->src = src;
	named = kvrealloc(s->named, s->cap * sizeof(*named),
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
	kvfree(s->task);
	kvfree(s->src);
	kvfree(s->named);
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

/* A process of the set (its signal_struct) and the pid that named it. */
struct hcube_proc_key {
	const void *signal;
	struct task_struct *task;	/* a named thread of it */
	u32 src;
};

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
 * Add what the unit brings beyond the named tasks: for a job every thread
 * of each named process, for a tree also every thread of every descendant
 * process. Each process is walked once, however many of its threads the
 * request names; hcube_tasks_register() drops the repeats.
 */
int hcube_taskset_expand(struct hcube_taskset *s)
{
	u32 n0 = s->n, nk = 0, room, found, i;
	struct hcube_proc_key *k;
	int err = 0;

	if (s->unit == HCUBE_UNIT_THREAD || !n0)
		return 0;
	k = kvmalloc_array(n0, sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	for (i = 0; i < n0; i++) {
		k[i].signal = s->task[i]->signal;
		k[i].task = s->task[i];
		k[i].src = s->src[i];
	}
	sort(k, n0, sizeof(*k), hcube_proc_key_cmp, NULL);
	for (i = 0; i < n0; i++)	/* one per process: its first pid */
		if (!nk || k[nk - 1].signal != k[i].signal)
			k[nk++] = k[i];
	room = n0 + 16;
	for (;;) {
		err = hcube_taskset_grow(s, room);
		if (err)
			break;
		found = hcube_collect(s, k, nk, room);
		if (found <= room)
			break;
		/* it grew meanwhile: drop what was taken and try with room */
		while (s->n > n0)
			put_task_struct(s->task[--s->n]);
		room = found + found / 4 + 16;
	}
	kvfree(k);
	return err;
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

/*
 * Drop the repeats of a set (sorted, not pairwise: a request may name tens
 * of thousands of tasks). A task named by two pids is an error
 * (-ENOTUNIQ): *bad is the later one. Repeats brought in as threads or descendants are dropped.
 */
static int hcube_taskset_dedup(struct hcube_taskset *s, u32 *bad)
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
 * with -ENODEV, as for any task.
 */
static bool hcube_placeable(struct hcube *hc, struct task_struct *p, int vertex)
{
	hcube_allowed_of(hc->scratch, p);
	if (vertex >= 0)
		return cpumask_intersects(hc->v[vertex].usable, hc->scratch);
	return hcube_pick_vertex(hc, hc->scratch) >= 0 ||
	       hcube_pick_vertex(hc, NULL) < 0;
}

/*
 * Register one task with its allocated record @t on vertex @to, or (< 0)
 * the least loaded one its cpuset allows.
 */
static int hcube_register_one(struct hcube *hc, struct hcube_task *t,
			      struct task_struct *p, u32 unit, int to)
{
	int err;

	t->task = get_task_struct(p);
	t->origin = HCUBE_REASON_ADMIN;
	t->unit = unit == HCUBE_UNIT_THREAD ? HCUBE_UNIT_THREAD : HCUBE_UNIT_JOB;
	cpumask_copy(hcube_task_orig(t), &p->cpus_mask);
	cpumask_copy(hcube_task_given(t), &p->cpus_mask);
	hcube_allowed_of(hcube_task_allowed(t), p);
	if (to < 0)
		to = hcube_pick_vertex(hc, hcube_task_allowed(t));
	if (to < 0 || !hcube_task_hash_add(hc, t)) {
		/* no healthy vertex, or it became registered meanwhile */
		xa_erase(&hc->tasks, t->id);
		hcube_task_put(t);
		return to < 0 ? -ENODEV : -EEXIST;
	}
	/*
	 * The exit probe looks the task up after the exiting task set
	 * PF_EXITING; here the record is in the hash before the flag is
	 * read. One of the two sees the other.
	 */
	smp_mb();
	err = (p->flags & PF_EXITING) ? -ESRCH : hcube_task_give(hc, t, to);
	if (err) {
		hcube_set_cpus(p, hcube_task_orig(t));
		xa_erase(&hc->tasks, t->id);
		hcube_task_hash_del(hc, t);
		return err;
	}
	hcube_task_link(hc, t, to);
	hcube_task_notify(hc, t, HCUBE_REASON_ADDED);
	return 0;
}

/*
 * Register the tasks of @s for @who, under hcube.lock. Either nothing
 * changes and an error comes back (*bad: the entry it is about, or
 * U32_MAX), or every entry's out[i] is its registered record, NULL for a
 * repeat or a thread or descendant that was registered already, or an
 * ERR_PTR for one that could not be (it was exiting, or @who may not
 * change its affinity, say): a task a pid names itself must pass every
 * check, the threads and descendants its unit brings are left out. Each task goes to @vertex, or to
 * the least loaded healthy vertex when @vertex < 0.
 */
int hcube_tasks_register(struct hcube *hc, struct hcube_taskset *s,
			 const struct hcube_caller *who, int vertex,
			 struct hcube_task **out, u32 *bad)
{
	u32 i, n = 0;
	int err;

	*bad = U32_MAX;
	err = hcube_taskset_dedup(s, bad);
	if (err)
		return err;
	for (i = 0; i < s->n; i++) {
		struct task_struct *p = s->task[i];

		out[i] = NULL;
		if (!p)
			continue;
		err = hcube_task_check(hc, p);
		if (!err && !hcube_may_set(who, p))
			err = -EACCES;	/* EPERM to the caller: not theirs to change */
		if (!err && !hcube_placeable(hc, p, vertex))
			err = -EXDEV;
		if (!err && hcube_task_live(hc, p))
			err = -EEXIST;
		if (err && s->named[i]) {
			*bad = i;
			return err;
		}
		if (err == -EEXIST)
			continue;	/* a thread or descendant registered already */
		if (err)
			out[i] = ERR_PTR(err);
		else
			n++;
	}
	if (atomic_add_return(n, &hc->nrecords) > hc->max_tasks) {
		atomic_sub(n, &hc->nrecords);
		return -ENOSPC;
	}

	/* Allocate everything first: a request that fails changes nothing. */
	for (i = 0; i < s->n; i++) {
		struct hcube_task *t;

		if (!s->task[i] || out[i] || hcube_task_live(hc, s->task[i]))
			continue;
		t = hcube_task_alloc(GFP_KERNEL);
		out[i] = t;
		if (!t || xa_alloc(&hc->tasks, &t->id, t, xa_limit_32b,
				   GFP_KERNEL)) {
			hcube_register_undo(hc, out, i + 1);
			atomic_sub(n, &hc->nrecords);
			return -ENOMEM;
		}
	}

	for (i = 0; i < s->n; i++) {
		if (IS_ERR_OR_NULL(out[i]))
			continue;
		err = hcube_register_one(hc, out[i], s->task[i], s->unit, vertex);
		if (err) {
			atomic_dec(&hc->nrecords);
			out[i] = ERR_PTR(err);
		}
	}
	return 0;
}

/*
 * Unregister the tasks of @s for @who, under hcube.lock. A pid none of
 * whose tasks is registered is an error (-ENOENT), so is a named task
 * @who may not change (-EACCES), and then nothing changes (*bad: the
 * named entry); threads and descendants @who may not change stay.
 */
int hcube_tasks_unregister(struct hcube *hc, struct hcube_taskset *s,
			   const struct hcube_caller *who, u32 *bad)
{
	u32 i, npids = 0;
	bool *any;

	for (i = 0; i < s->n; i++)
		npids = max(npids, s->src[i] + 1);
	any = kvcalloc(npids, sizeof(*any), GFP_KERNEL);
	if (!any)
		return -ENOMEM;
	for (i = 0; i < s->n; i++) {
		struct hcube_task *t = hcube_task_lookup(hc, s->task[i]);

		if (t && test_bit(HCUBE_TF_LINKED, &t->flags))
			any[s->src[i]] = true;
	}
	for (i = 0; i < s->n; i++) {
		int err = 0;

		if (!s->named[i])
			continue;
		if (!any[s->src[i]])
			err = -ENOENT;
		else if (!hcube_may_set(who, s->task[i]))
			err = -EACCES;
		if (err) {
			*bad = i;
			kvfree(any);
			return err;
		}
	}
	kvfree(any);
	for (i = 0; i < s->n; i++) {
		struct hcube_task *t = hcube_task_lookup(hc, s->task[i]);

		if (t && test_bit(HCUBE_TF_LINKED, &t->flags) &&
		    hcube_may_set(who, t->task))
			hcube_task_del(hc, t, HCUBE_REASON_REMOVED);
	}
	return 0;
}

/*
 * Every task, when @who may change each (-EACCES and nothing changes
 * when not), under hcube.lock.
 */
int hcube_tasks_unregister_all(struct hcube *hc, const struct hcube_caller *who)
{
	struct hcube_task *t;
	unsigned long id;

	xa_for_each(&hc->tasks, id, t)
		if (!hcube_may_set(who, t->task))
			return -EACCES;
	xa_for_each(&hc->tasks, id, t)
		hcube_task_del(hc, t, HCUBE_REASON_REMOVED);
	return 0;
}
