// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: registered tasks, and the one way hcube changes their masks.
 *
 * A registered task is a thread. Its record holds a reference on its
 * task_struct, so a thread keeps its identity when a non-leader thread's
 * exec swaps thread ids. The affinity it had at registration is saved and
 * given back when it is unregistered and when the module is unloaded; a
 * new thread or child registered with its creator (hcube_events.c) saves
 * its creator's. While registered, an active task's allowed CPUs are
 * exactly the usable CPUs of its vertex within what its cpuset allows,
 * and the record keeps the mask hcube last gave it.
 *
 * Whose mask (hcube_mask.c): a mask that is neither hcube's nor the
 * kernel's is someone else's, and the task is "changed": left alone from
 * then on, not moved, not counted in any load, not restored, until it is
 * registered again.
 *
 * Moves. Each change of a mask is checked first: the task must not be
 * exiting, nor changed, its registrant must still be allowed to change
 * its affinity and it must not be SCHED_DEADLINE (else it is let go:
 * unregistered, its original affinity back, never moved). The masks are
 * set in batches, under the CPU hotplug lock, and each batch is verified
 * against a fresh read of the cpusets before hcube.lock is released
 * (hcube_moves_flush()): a cpuset write that came in between is not
 * overwritten.
 *
 * Records (hcube_record.c) are found by task in hcube.by_task under RCU
 * (the tracepoint probes) and freed after a grace period. A record
 * unregistered by a command stays in the hash as a tombstone, not linked
 * and not counted, until its task exits: a fork that copied the vertex's
 * mask just before the affinity was given back still finds it, and the
 * child gets the original affinity too.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include "hcube.h"
#include "hcube_trace.h"

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

/*
 * Batches. A mask is set with the CPU hotplug lock held for reading: on
 * 6.1, a set_cpus_allowed_ptr() of a running task that races with the
 * deactivation of the CPUs of its new mask can leave the task on a CPU
 * outside the mask with no migration pending (the stopper completes the
 * request, then __migrate_task() gives up on the inactive destination),
 * and on PREEMPT_RT its next migrate_enable() warns in affine_move_task().
 * A batch holds the lock over at most HCUBE_BATCH changes, so hotplug
 * waits for at most that many; it is dropped to read a cpuset.
 */
static void hcube_batch_unlock_cpus(struct hcube *hc)
{
	if (hc->batch.cpus_locked) {
		cpus_read_unlock();
		hc->batch.cpus_locked = false;
	}
}

/**
 * hcube_moves_unlock_cpus() - before a change outside the batch
 * @hc: the cube, locked
 *
 * hcube_set_within() takes the CPU hotplug lock itself: the batch's is
 * dropped first (a second read lock waits behind a waiting writer).
 */
void hcube_moves_unlock_cpus(struct hcube *hc)
{
	hcube_batch_unlock_cpus(hc);
}

/*
 * Whose is @t's mask now? Under hcube.lock. The mask it judged is kept in
 * hcube.cs.seen for the last check before a change (hcube_batch_set()).
 */
static int hcube_task_owner(struct hcube *hc, struct hcube_task *t)
{
	struct task_struct *p = t->task;
	struct hcube_whose w = {
		.p = p, .given = hcube_task_given(t), .now = hc->cs.seen,
		.cs = hcube_task_cs(t), .cs_serial = t->cs_serial,
		.vertex = t->vertex, .epoch = t->epoch, .hp_gen = t->hp_gen,
		.tmp = hc->scratch2, .tmp2 = hc->scratch3,
		.buf = hc->cs.buf, .size = hc->cs.bufsize,
	};

	hcube_mask_snap(p, hc->cs.seen);
	if (hcube_mask_equal(hc->cs.seen, hcube_task_given(t)))
		return HCUBE_MASK_OURS;
	/* the cpuset is read outside the hotplug lock */
	hcube_batch_unlock_cpus(hc);
	return hcube_mask_whose(hc, &w);
}

/**
 * hcube_task_others() - is @t's mask someone else's now?
 * @hc: the cube, locked
 * @t: an active (or pending) task
 *
 * Return: true when neither hcube nor the kernel set it.
 */
bool hcube_task_others(struct hcube *hc, struct hcube_task *t)
{
	return hcube_task_owner(hc, t) == HCUBE_MASK_OTHER;
}

/* A TASK_NTF about @t. */
void hcube_task_notify(struct hcube *hc, struct hcube_task *t, u32 reason)
{
	hcube_notify(hc, HCUBE_CMD_TASK_NTF, &(struct hcube_ntf){
		.reason = reason, .task = t });
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
 * What @p's cpuset allows (and which cpuset, @serial), outside the hotplug
 * lock when it must be read.
 */
static const struct cpumask *hcube_allowed(struct hcube *hc, struct task_struct *p,
					   u64 *serial)
{
	const struct cpumask *m;

	*serial = hcube_cs_serial(p);
	m = hcube_cs_lookup(hc, *serial);
	if (m)
		return m;
	hcube_batch_unlock_cpus(hc);
	return hcube_cs_allowed(hc, p, serial);
}

static void hcube_batch_verify(struct hcube *hc);

/* Room in the batch for one more change: a full batch is verified first. */
static void hcube_batch_room(struct hcube *hc)
{
	if (hc->batch.n == HCUBE_BATCH && !hc->batch.verifying)
		hcube_batch_verify(hc);
}

/*
 * The same before looking at the active task @t: the verification may move
 * or let go any task of the batch, @t among them. True when @t is no longer
 * where it was (it may be freed then: not to be touched).
 */
static bool hcube_batch_room_for(struct hcube *hc, struct hcube_task *t)
{
	u32 v = t->vertex;
	bool gone;

	if (hc->batch.n < HCUBE_BATCH || hc->batch.verifying)
		return false;
	refcount_inc(&t->ref);
	hcube_batch_verify(hc);
	gone = t->state != HCUBE_TASK_ACTIVE || t->vertex != v ||
	       !test_bit(HCUBE_TF_LINKED, &t->flags);
	hcube_task_put(t);
	return gone;
}

/*
 * May hcube still move @t? Not when its registrant could no longer change
 * its affinity, nor when it became SCHED_DEADLINE (sched_setaffinity()
 * refuses to narrow such a task's mask).
 */
static bool hcube_task_revoked(struct hcube_task *t)
{
	return READ_ONCE(t->task->policy) == SCHED_DEADLINE ||
	       !hcube_creds_may_set(t->creds, t->task);
}

/*
 * Set @mask on @t's task (it is hcube's from then on: the given mask),
 * within the current batch, which has room (hcube_batch_room()).
 *
 * Check, then set: what may sleep (the cpuset read, the CPU hotplug lock,
 * the batch's room) is taken before; the last check of the task is here,
 * and nothing sleeps between it and the change. The task's mask must
 * still be the given one, or @seen, the one its owner check judged the
 * kernel's (hcube_task_owner()): a sched_setaffinity() since is not
 * overwritten, and, for a move (not @restore: hcube's own mask undone),
 * its registrant must still be allowed to change it (-ESTALE: check it
 * again, hcube_task_prepare() lets it go).
 */
static int hcube_batch_set(struct hcube *hc, struct hcube_task *t,
			   const struct cpumask *mask, const struct cpumask *seen,
			   u32 epoch, bool restore)
{
	struct hcube_batch *b = &hc->batch;
	struct task_struct *p = t->task;
	u64 now;
	int err;

	if (!b->cpus_locked) {
		cpus_read_lock();
		b->cpus_locked = true;
	}
	if (p->flags & PF_EXITING)
		return -ESRCH;
	if ((!hcube_mask_is(p, hcube_task_given(t)) &&
	     (!seen || !hcube_mask_is(p, seen))) ||
	    (!restore && hcube_task_revoked(t)))
		return -ESTALE;
	now = ktime_get_ns();
	err = hcube_set_cpus_allowed(p, mask);
	if (err)
		return err;
	if (!hcube_mask_equal(mask, hcube_task_given(t))) {
		cpumask_copy(hcube_task_prev(t), hcube_task_given(t));
		cpumask_copy(hcube_task_given(t), mask);
		t->prev_ns = t->given_ns;
		t->given_ns = now;
	}
	t->epoch = epoch;
	t->remask_pending = false;
	if (!WARN_ON_ONCE(b->n == HCUBE_BATCH) &&
	    !test_and_set_bit(HCUBE_TF_MOVED, &t->flags)) {
		refcount_inc(&t->ref);
		b->t[b->n++] = t;
	}
	return 0;
}

/**
 * hcube_task_give() - give @t the usable CPUs of vertex @v its cpuset allows
 * @hc: the cube, locked
 * @t: the record
 * @v: a vertex
 *
 * @seen: the task's mask its last check judged (see hcube_batch_set())
 *
 * They become hcube's mask of the task, with the vertex's offline count
 * and hcube's hotplug count read before (a CPU that goes down meanwhile
 * shows), and the cpuset they were checked against (which, and its CPUs:
 * hcube_mask.c). The checks of the task (hcube_task_move()) come before:
 * for a registration, and within moves.
 * Return: 0, -EXDEV when its cpuset allows none of them, -ESTALE when the
 * task's mask changed since @seen, or -errno.
 */
int hcube_task_give(struct hcube *hc, struct hcube_task *t, u32 v,
		    const struct cpumask *seen)
{
	const struct cpumask *allowed;
	u32 epoch = READ_ONCE(hc->voff[v]);
	u32 hp_gen = READ_ONCE(hc->hp_gen);
	u64 serial;
	int err;

	hcube_batch_room(hc);
	allowed = hcube_allowed(hc, t->task, &serial);
	if (IS_ERR(allowed))
		return PTR_ERR(allowed);
	if (!cpumask_and(hc->scratch, hc->v[v].usable, allowed))
		return -EXDEV;
	err = hcube_batch_set(hc, t, hc->scratch, seen, epoch, false);
	if (err)
		return err;
	cpumask_copy(hcube_task_cs(t), allowed);
	t->cs_serial = serial;
	t->hp_gen = hp_gen;
	return 0;
}

/*
 * Give @t back its original affinity, within what its cpuset allows now
 * (all of that when it allows none of the original CPUs), as
 * sched_setaffinity() of the original mask would, but for its CPUs that
 * are offline for now (hcube_cs_within()).
 */
static int hcube_task_restore(struct hcube *hc, struct hcube_task *t,
			      const struct cpumask *seen)
{
	const struct cpumask *allowed;
	u64 serial;

	hcube_batch_room(hc);
	allowed = hcube_allowed(hc, t->task, &serial);
	if (IS_ERR(allowed))
		return PTR_ERR(allowed);
	hcube_batch_unlock_cpus(hc);
	hcube_cs_within(t->task, hcube_task_orig(t), allowed, hc->scratch,
			hc->cs.buf, hc->cs.bufsize);
	return hcube_batch_set(hc, t, hc->scratch, seen, t->epoch, true);
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
	WARN_ON_ONCE(atomic_dec_return(&hc->nrecords) < 0);
}

/*
 * The restore of an unregistration: @t's original affinity back unless
 * its mask is someone else's. The owner check and the change are apart
 * (the cpuset read between them may sleep): a mask that changed in that
 * window (-ESTALE) is judged again, for it may be the scheduler's
 * fallback of a CPU that went offline meanwhile, which is hcube's to
 * undo, not a user's to keep. Bounded: a mask that keeps changing is left
 * to whoever changes it.
 */
static void hcube_task_give_back(struct hcube *hc, struct hcube_task *t)
{
	int tries, err = -ESTALE;

	for (tries = 0; tries < 3 && err == -ESTALE; tries++) {
		if (hcube_task_owner(hc, t) == HCUBE_MASK_OTHER)
			return;
		err = hcube_task_restore(hc, t, hc->cs.seen);
	}
	if (err && err != -ESTALE)
		pr_info("pid %d: original affinity %*pbl not restored: %d\n",
			task_pid_nr(t->task), cpumask_pr_args(hcube_task_orig(t)), err);
}

/**
 * hcube_task_del() - unregister a linked task
 * @hc: the cube, locked
 * @t: the record
 * @reason: HCUBE_REASON_REMOVED (a command), HCUBE_REASON_REVOKED (let go
 *	instead of moved), 0 (the unload: no event), or HCUBE_REASON_EXITED
 *
 * But for an exit, an active task whose mask is hcube's (or the kernel's)
 * gets its original affinity back, and a tombstone stays in the hash
 * while the task lives; an exited task leaves the hash.
 */
void hcube_task_del(struct hcube *hc, struct hcube_task *t, u32 reason)
{
	struct task_struct *p = t->task;

	/*
	 * A full batch is verified before the checks below, not inside the
	 * restore after them: the verification may itself let @t go (it is
	 * then not to be unlinked again) and judges masks into hcube.cs.seen.
	 */
	if (reason != HCUBE_REASON_EXITED && hc->batch.n == HCUBE_BATCH &&
	    !hc->batch.verifying) {
		bool linked;

		refcount_inc(&t->ref);
		hcube_batch_verify(hc);
		linked = test_bit(HCUBE_TF_LINKED, &t->flags);
		hcube_task_put(t);	/* when still linked, the hash holds it */
		if (!linked)
			return;
	}
	if (reason != HCUBE_REASON_EXITED && t->state == HCUBE_TASK_ACTIVE &&
	    !(p->flags & PF_EXITING))
		hcube_task_give_back(hc, t);
	switch (reason) {
	case HCUBE_REASON_EXITED:
		hc->cnt.exited++;
		break;
	case HCUBE_REASON_REVOKED:
		hc->cnt.revoked++;
		break;
	default:
		hc->cnt.unregistered++;
	}
	if (reason)
		hcube_task_notify(hc, t, reason);
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

	xa_for_each(&hc->tasks, id, t) {
		hcube_task_del(hc, t, 0);
		cond_resched();
	}
}

/*
 * Before hcube changes an active task's mask: 0 when it may, else the
 * task is dealt with (-EAGAIN: changed by someone else; -EPERM: let go;
 * -ESRCH: exiting, its exit on its way).
 */
static int hcube_task_prepare(struct hcube *hc, struct hcube_task *t,
			      struct hcube_report *r)
{
	if (t->task->flags & PF_EXITING)
		return -ESRCH;
	if (hcube_task_owner(hc, t) == HCUBE_MASK_OTHER) {
		hcube_task_set_changed(hc, t, r);
		return -EAGAIN;
	}
	if (hcube_task_revoked(t)) {
		hcube_task_del(hc, t, HCUBE_REASON_REVOKED);
		return -EPERM;
	}
	return 0;
}

/**
 * hcube_task_move() - move an active task to vertex @to
 * @hc: the cube, locked
 * @t: the task
 * @to: a healthy vertex
 * @r: the report, or NULL
 *
 * On failure it stays where it is.
 * Return: 0; -EAGAIN, -EPERM or -ESRCH (hcube_task_prepare()); -EXDEV when
 * its cpuset allows no usable CPU of @to; or set_cpus_allowed_ptr()'s error.
 */
int hcube_task_move(struct hcube *hc, struct hcube_task *t, u32 to,
		    struct hcube_report *r)
{
	u32 from = t->vertex;
	int err, tries;
	u64 t0;

	if (hcube_batch_room_for(hc, t))
		return -EAGAIN;
	/* its mask changed between its check and the change: once more */
	for (tries = 0; tries < 2; tries++) {
		t0 = hcube_bench_now();
		err = hcube_task_prepare(hc, t, r);
		hcube_bench_part(HCUBE_BENCH_PREPARE, t0);
		if (err)
			return err;
		err = hcube_task_give(hc, t, to, hc->cs.seen);
		if (err != -ESTALE)
			break;
	}
	if (err == -ESTALE)
		err = -EAGAIN;	/* the next rebalance looks at it again */
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
	u64 serial;
	const struct cpumask *allowed = hcube_allowed(hc, t->task, &serial);
	int best = -1;
	u32 i;

	if (IS_ERR(allowed))
		return -1;
	for (i = 0; i < hc->nv; i++) {
		struct hcube_vertex *v = &hc->v[i];
		u32 d = hweight32(i ^ t->vertex);

		if (v->state != HCUBE_VERTEX_HEALTHY ||
		    !cpumask_intersects(v->usable, allowed))
			continue;
		if (best < 0 || d < hweight32(best ^ t->vertex) ||
		    (d == hweight32(best ^ t->vertex) && v->load < hc->v[best].load))
			best = i;
	}
	return best;
}

/**
 * hcube_task_evacuate() - move a task off its vertex to the nearest one
 * @hc: the cube, locked
 * @t: an active task of a vertex that is not healthy, or whose cpuset
 *	allows none of its CPUs
 * @r: the report, or NULL
 *
 * The nearest healthy vertex its cpuset allows a usable CPU of; with
 * none, it gets what its cpuset allows and becomes changed; but while its
 * vertex's CPUs go offline (the cpuset may have dropped them before hcube
 * applies it) it is left for that offline's evacuation, and while the
 * cpusets settle after hotplug (a CPU that came online is not in them
 * yet) for the settle's passes.
 * Return: 0, -EBUSY when left for the offline, or the error of the move.
 */
int hcube_task_evacuate(struct hcube *hc, struct hcube_task *t,
			struct hcube_report *r)
{
	int to = hcube_task_nearest(hc, t), err;

	/*
	 * While cpusets settle after hotplug (hcube_after_change()), a CPU
	 * that came online is not in them yet: the settle's passes try again.
	 */
	if (to < 0 && (hc->settle ||
		       !cpumask_subset(hc->v[t->vertex].usable, cpu_active_mask)))
		return -EBUSY;
	if (to >= 0)
		err = hcube_task_move(hc, t, to, r);
	else
		err = hcube_task_restore(hc, t, hc->cs.seen) ?: -EXDEV;
	if (err == -EXDEV) {
		hcube_task_set_changed(hc, t, r);
		return 0;
	}
	return err;
}

/**
 * hcube_task_remask() - give an active task its vertex's current mask
 * @hc: the cube, locked
 * @t: the task
 * @r: the report, or NULL
 *
 * When its mask is someone else's the task becomes changed; when its
 * registrant may no longer change it, it is let go. A failure (for
 * instance when a CPU coming online is not active yet) is retried later.
 * A task whose cpuset no longer allows a usable CPU of its vertex goes to
 * the nearest vertex that it does; with none, it gets what its cpuset
 * allows and becomes changed. The tasks of a vertex that is not healthy
 * are left to the evacuation.
 * Return: 0, or the error of a change to retry.
 */
int hcube_task_remask(struct hcube *hc, struct hcube_task *t,
		      struct hcube_report *r)
{
	const struct cpumask *allowed;
	bool evacuated, pending;
	int err, tries = 0;
	u64 serial;

	/* a vertex that is not healthy: its tasks are evacuation's */
	if (hcube_batch_room_for(hc, t) ||
	    hc->v[t->vertex].state != HCUBE_VERTEX_HEALTHY)
		return 0;
again:
	err = hcube_task_prepare(hc, t, r);
	if (err)
		return 0;
	allowed = hcube_allowed(hc, t->task, &serial);
	if (IS_ERR(allowed))
		return PTR_ERR(allowed);
	if (hcube_mask_equal(hc->cs.seen, hcube_task_given(t)) &&
	    cpumask_and(hc->scratch, hc->v[t->vertex].usable, allowed) &&
	    cpumask_equal(hc->scratch, hcube_task_given(t))) {
		t->remask_pending = false;
		return 0;
	}
	err = hcube_task_give(hc, t, t->vertex, hc->cs.seen);
	if (err == -ESTALE && !tries++)
		goto again;
	if (err == -ESTALE)
		return 0;	/* the next look at it decides */
	evacuated = err == -EXDEV;
	if (evacuated) {
		/* the evacuation may let it go: hold it until it is told */
		refcount_inc(&t->ref);
		err = hcube_task_evacuate(hc, t, r);
	}
	pending = err && err != -EAGAIN && err != -EPERM && err != -ESRCH;
	t->remask_pending = pending;
	if (evacuated)
		hcube_task_put(t);
	return pending ? err : 0;
}

/*
 * Verify the batch: each task's mask against what its cpuset allows now
 * (read again, after the masks were set: a cpuset write that came in
 * between shows). A task whose mask is not within it gets a mask that is:
 * its vertex's, the nearest vertex's, or at worst its cpuset's own, and
 * the new masks are verified in turn.
 */
static void hcube_batch_verify(struct hcube *hc)
{
	struct hcube_batch *b = &hc->batch;
	struct hcube_task *t[HCUBE_BATCH];
	u64 t0 = hcube_bench_now();
	u32 n, i, fix, round;

	b->verifying = true;
	b->verifies++;
	for (round = 0; b->n; round++) {
		hcube_batch_unlock_cpus(hc);
		/* each cpuset of the batch read once, after its masks were set */
		hcube_cs_new_round(hc);
		n = b->n;
		memcpy(t, b->t, n * sizeof(*t));
		b->n = 0;
		for (i = 0, fix = 0; i < n; i++) {
			struct task_struct *p = t[i]->task;

			clear_bit(HCUBE_TF_MOVED, &t[i]->flags);
			/* on the online CPUs: a restore keeps offline ones */
			cpumask_and(hc->scratch3, hcube_task_given(t[i]), cpu_online_mask);
			if ((p->flags & PF_EXITING) ||
			    hcube_cs_refresh(hc, p, hc->scratch2) ||
			    cpumask_subset(hc->scratch3, hc->scratch2)) {
				hcube_task_put(t[i]);
				continue;
			}
			t[fix++] = t[i];
		}
		for (i = 0; i < fix; i++) {
			struct hcube_task *x = t[i];

			bool active = test_bit(HCUBE_TF_LINKED, &x->flags) &&
				      x->state == HCUBE_TASK_ACTIVE;

			if (round < 3 && active) {
				hcube_task_remask(hc, x, NULL);
			} else if (round < 3) {
				hcube_task_restore(hc, x, NULL);
			} else {
				/* a cpuset that keeps changing: as the kernel would */
				hcube_batch_unlock_cpus(hc);
				hcube_set_within(x->task, hcube_task_given(x),
						 hcube_task_given(x), x->creds);
				if (active)
					hcube_task_set_changed(hc, x, NULL);
			}
			hcube_task_put(x);
		}
	}
	b->verifying = false;
	hcube_batch_unlock_cpus(hc);
	hcube_bench_part(HCUBE_BENCH_VERIFY, t0);
}

/**
 * hcube_moves_flush() - verify the masks set since the last verification
 * @hc: the cube, locked
 */
void hcube_moves_flush(struct hcube *hc)
{
	if (hc->batch.n || hc->batch.cpus_locked)
		hcube_batch_verify(hc);
}

/**
 * hcube_moves_done() - the end of an operation
 * @hc: the cube, locked
 *
 * Its masks verified, what it read of the cpusets forgotten.
 */
void hcube_moves_done(struct hcube *hc)
{
	hcube_moves_flush(hc);
	hcube_cs_forget(hc);
}
