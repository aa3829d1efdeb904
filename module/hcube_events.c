// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: a job is the unit. New threads and children of registered tasks
 * are registered with their creator, and exits are seen when they happen,
 * through the scheduler's tracepoints instead of a periodic pass.
 *
 * Creation. The sched_process_fork probe runs in the creator, after the
 * child is complete and before it is first woken, with preemption
 * disabled. When the creator is registered and the child inherited a
 * mask hcube gave the creator (hcube_mask_inherited(): not one the
 * creator set itself), it takes a "birth" from a preallocated pool and
 * queues it as task_work on the child: the birth runs in the child itself,
 * before its first user instruction, and there it may sleep. It registers
 * the child on its creator's vertex (a pending record, put in the hash at
 * once so that what the child creates is seen too, and linked by the
 * worker under hcube.lock), or, when the creator is a thread unit,
 * unregistered, or max_tasks is reached, gives the child its creator's
 * original affinity. So no child keeps a mask hcube set unless hcube
 * manages it, and no other child is touched. When the pool is empty (a
 * fork storm) a birth is allocated on the spot, but on PREEMPT_RT, where
 * the slab takes sleeping locks and the probe runs with preemption
 * disabled: nothing is allocated or freed in a probe there. A creation
 * without a birth is counted as lost, and the worker finds such tasks by
 * a scan, in bounded slices: tasks created after their creator was
 * registered, with no record, that carry a mask hcube gave their creator,
 * that hcube may change (no kernel or io_uring thread, no
 * PF_NO_SETAFFINITY) and whose registrant may change them.
 *
 * Exit. The sched_process_exit probe marks a registered task's record and
 * queues it for the worker, which unregisters it.
 *
 * Nothing here runs while nothing is registered but the two probes, which
 * return at the first test; there is no timer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/tracepoint.h>
#include <linux/wait.h>
#include "hcube.h"

/* One creation in flight: the task_work queued on a new child. */
struct hcube_birth {
	struct callback_head cb;
	struct hcube *hc;
	struct hcube_task *creator;	/* referenced */
	bool thread;			/* a thread of the creator's process */
	bool pooled;			/* from the pool, else allocated */
	unsigned long inherited[];	/* the child's mask at creation */
};

struct hcube_events {
	struct tracepoint *tp_fork, *tp_exit;
	bool fork_on, exit_on;
	raw_spinlock_t pool_lock;	/* probes take births with it */
	void *pool;
	size_t bsize;
	u32 *free, nfree;
	bool pool_only;			/* no birth allocated (tests) */
	atomic_t lost_pending;		/* births that could not be made */
};

/*
 * Births in flight, and who waits for them at unload. Static: a birth's
 * last act touches them, after which the module may go.
 */
static atomic_t hcube_inflight = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(hcube_births_idle);

static struct hcube_birth *hcube_birth_at(struct hcube_events *ev, u32 i)
{
	return ev->pool + (size_t)i * ev->bsize;
}

/* A birth from the pool or, when it is empty, allocated; NULL when neither. */
static struct hcube_birth *hcube_birth_get(struct hcube_events *ev)
{
	struct hcube_birth *b = NULL;
	unsigned long flags;

	raw_spin_lock_irqsave(&ev->pool_lock, flags);
	if (ev->nfree)
		b = hcube_birth_at(ev, ev->free[--ev->nfree]);
	raw_spin_unlock_irqrestore(&ev->pool_lock, flags);
	if (b) {
		b->pooled = true;
		return b;
	}
	if (ev->pool_only || IS_ENABLED(CONFIG_PREEMPT_RT))
		return NULL;
	b = kmalloc(ev->bsize, GFP_ATOMIC | __GFP_NOWARN);
	if (b)
		b->pooled = false;
	return b;
}

static void hcube_birth_put(struct hcube_events *ev, struct hcube_birth *b)
{
	unsigned long flags;

	if (!b->pooled) {
		kfree(b);
		return;
	}
	raw_spin_lock_irqsave(&ev->pool_lock, flags);
	ev->free[ev->nfree++] = ((void *)b - ev->pool) / ev->bsize;
	raw_spin_unlock_irqrestore(&ev->pool_lock, flags);
}

/*
 * Give @p, whose mask is @inherited, hcube's, its creator's original
 * affinity (within what its cpuset allows).
 */
static void hcube_release(struct hcube *hc, struct hcube_task *c,
			  struct task_struct *p, const struct cpumask *inherited)
{
	if (!cpumask_equal(inherited, hcube_task_orig(c)))
		hcube_set_within(p, hcube_task_orig(c));
}

/*
 * @p was created by the registered @c with the mask @inherited; @p is the
 * task running this (a birth) or, for the lost-creation scan, any task.
 * Registers it (a pending record), or gives it @c's original affinity.
 */
static bool hcube_born(struct hcube *hc, struct hcube_task *c,
		       struct task_struct *p, bool thread,
		       const struct cpumask *inherited)
{
	struct hcube_task *t;
	int v;

	v = hcube_mask_vertex(hc, inherited);
	if ((p->flags & (PF_EXITING | PF_KTHREAD | PF_IO_WORKER | PF_NO_SETAFFINITY)) ||
	    !hcube_mask_is(p, inherited) || v < 0)
		return false;	/* exiting, or its mask is not (or no longer) hcube's */
	/* the checks of a move: a child that exec'd a setuid program is not */
	if (!hcube_creds_may_set(c->creds, p))
		return false;
	if (READ_ONCE(hc->stopping) || c->unit == HCUBE_UNIT_THREAD ||
	    test_bit(HCUBE_TF_REMOVED, &c->flags)) {
		hcube_release(hc, c, p, inherited);
		atomic64_inc(&hc->released);
		return true;
	}
	t = NULL;
	if (atomic_inc_return(&hc->nrecords) <= hc->max_tasks)
		t = hcube_task_alloc(GFP_KERNEL);
	if (!t) {
		atomic_dec(&hc->nrecords);
		hcube_release(hc, c, p, inherited);
		atomic64_inc(&hc->refused);
		hcube_notify(hc, HCUBE_CMD_TASK_NTF, &(struct hcube_ntf){
			.reason = HCUBE_REASON_REFUSED, .p = p, .creator = c->task });
		return true;
	}
	t->task = get_task_struct(p);
	t->creator = get_task_pid(c->task, PIDTYPE_PID);
	refcount_inc(&c->ref);
	t->creator_rec = c;
	refcount_inc(&c->creds->ref);
	t->creds = c->creds;
	t->job = c->job;
	t->vertex = v;	/* reported if it is found changed */
	t->origin = thread ? HCUBE_REASON_THREAD : HCUBE_REASON_FORK;
	t->unit = HCUBE_UNIT_JOB;
	cpumask_copy(hcube_task_orig(t), hcube_task_orig(c));
	cpumask_copy(hcube_task_given(t), inherited);
	cpumask_copy(hcube_task_prev(t), inherited);
	/* what its creator's mask was checked against: the cpuset it inherited */
	cpumask_copy(hcube_task_cs(t), hcube_task_cs(c));
	t->cs_serial = READ_ONCE(c->cs_serial);
	t->hp_gen = READ_ONCE(c->hp_gen);
	t->epoch = READ_ONCE(hc->voff[v]);
	if (hcube_task_hash_add(hc, t)) {
		/* an admin registered it meanwhile (or no memory: the scan) */
		atomic_dec(&hc->nrecords);
		hcube_task_put(t);
		return false;
	}
	/* as in hcube_register_one(): the exit probe or this sees the other */
	smp_mb();
	if (p->flags & PF_EXITING)
		set_bit(HCUBE_TF_EXITED, &t->flags);
	refcount_inc(&t->ref);	/* the adopts list's */
	llist_add(&t->adopt_node, &hc->adopts);
	hcube_events_kick(hc);
	return true;
}

static void hcube_birth_fn(struct callback_head *cb)
{
	struct hcube_birth *b = container_of(cb, struct hcube_birth, cb);
	struct hcube *hc = b->hc;

	hcube_born(hc, b->creator, current, b->thread, to_cpumask(b->inherited));
	hcube_task_put(b->creator);
	hcube_birth_put(hc->ev, b);
	if (atomic_dec_and_test(&hcube_inflight))
		wake_up(&hcube_births_idle);
}

/* sched_process_fork: @parent is current, @child not yet woken. */
static void hcube_probe_fork(void *data, struct task_struct *parent,
			     struct task_struct *child)
{
	struct hcube *hc = data;
	struct hcube_birth *b;
	struct hcube_task *c;

	if (!atomic_read(&hc->nhashed) || (child->flags & (PF_KTHREAD | PF_IO_WORKER)) ||
	    hcube_mask_vertex(hc, &child->cpus_mask) < 0)
		return;	/* no record, or the child has no mask hcube gives */
	rcu_read_lock();
	c = hcube_task_lookup(hc, parent);
	/* the job's child only when it inherited a mask hcube gave its creator */
	if (c && (READ_ONCE(c->state) == HCUBE_TASK_CHANGED ||
		  !hcube_mask_inherited(c, &child->cpus_mask, &parent->cpus_mask) ||
		  !refcount_inc_not_zero(&c->ref)))
		c = NULL;
	rcu_read_unlock();
	if (!c)
		return;
	b = hcube_birth_get(hc->ev);
	if (!b) {
		hcube_task_put(c);
		atomic_inc(&hc->ev->lost_pending);
		atomic64_inc(&hc->events_lost);
		hcube_events_kick(hc);
		return;
	}
	b->hc = hc;
	b->creator = c;
	b->thread = same_thread_group(parent, child);
	hcube_mask_snap(child, to_cpumask(b->inherited));
	init_task_work(&b->cb, hcube_birth_fn);
	atomic_inc(&hcube_inflight);
	if (task_work_add(child, &b->cb, TWA_RESUME)) {
		hcube_task_put(c);
		hcube_birth_put(hc->ev, b);
		atomic_dec(&hcube_inflight);
	}
}

/* sched_process_exit: @p is current, PF_EXITING set. */
static void hcube_probe_exit(void *data, struct task_struct *p)
{
	struct hcube *hc = data;
	struct hcube_task *t;

	if (!atomic_read(&hc->nhashed))
		return;
	smp_mb();	/* PF_EXITING before the look-up; see hcube_born() */
	rcu_read_lock();
	t = hcube_task_lookup(hc, p);
	if (t && !test_and_set_bit(HCUBE_TF_EXIT_QUEUED, &t->flags) &&
	    refcount_inc_not_zero(&t->ref)) {
		t->exit_pid = get_task_pid(p, PIDTYPE_PID);
		set_bit(HCUBE_TF_EXITED, &t->flags);
		llist_add(&t->exit_node, &hc->exits);
		hcube_events_kick(hc);
	}
	rcu_read_unlock();
}

/*
 * Link a pending record, under hcube.lock. True when a task was evacuated.
 * A record whose creator was unregistered since its birth (task del of
 * its job) is let go instead: the child gets its creator's original
 * affinity.
 */
static bool hcube_adopt(struct hcube *hc, struct hcube_task *t)
{
	struct task_struct *p = t->task;
	struct hcube_task *c = t->creator_rec;
	bool gone = test_bit(HCUBE_TF_GONE, &t->flags);
	bool let_go = c && test_bit(HCUBE_TF_REMOVED, &c->flags);
	int u;

	if (hc->stopping || gone || let_go ||
	    xa_alloc(&hc->tasks, &t->id, t, xa_limit_32b, GFP_KERNEL)) {
		if (!hc->stopping && !gone && !let_go) {
			atomic64_inc(&hc->refused);
			hcube_notify(hc, HCUBE_CMD_TASK_NTF, &(struct hcube_ntf){
				.reason = HCUBE_REASON_REFUSED, .p = p });
		} else {
			atomic64_inc(&hc->released);
		}
		/* its mask still the one it inherited: hcube's to give back */
		if (!(p->flags & PF_EXITING) &&
		    hcube_mask_is(p, hcube_task_given(t)) &&
		    !cpumask_equal(hcube_task_given(t), hcube_task_orig(t)))
			hcube_set_within(p, hcube_task_orig(t));
		atomic_dec(&hc->nrecords);
		hcube_task_hash_del(hc, t);
		return false;
	}
	if (c) {
		t->creator_rec = NULL;
		hcube_task_put(c);
	}
	if (test_bit(HCUBE_TF_EXITED, &t->flags)) {
		/* it was gone before it could be linked: both events */
		hcube_task_link(hc, t, HCUBE_NO_VERTEX);
		hcube_task_notify(hc, t, t->origin);
		hcube_task_del(hc, t, HCUBE_REASON_EXITED);
		return false;
	}
	/*
	 * Its mask at creation, and its vertex's offline count then, are its
	 * given mask and epoch: a change since is the kernel's (it is hcube's
	 * to set again) or someone else's.
	 */
	u = hcube_mask_vertex(hc, hcube_task_given(t));
	if (u < 0 || hcube_task_others(hc, t)) {
		hcube_task_link(hc, t, HCUBE_NO_VERTEX);
		hc->cnt.changed++;
		hcube_task_notify(hc, t, t->origin);
		hcube_task_notify(hc, t, HCUBE_REASON_CHANGED);
		return false;
	}
	hcube_task_link(hc, t, u);
	hcube_task_notify(hc, t, t->origin);
	if (hc->v[u].state != HCUBE_VERTEX_HEALTHY)
		return true;
	hcube_task_remask(hc, t, NULL);
	return false;
}

/* Link the pending records and unregister the exited ones. */
static void hcube_drain(struct hcube *hc)
{
	struct llist_node *exits = llist_del_all(&hc->exits);
	struct llist_node *adopts = llist_del_all(&hc->adopts);
	struct hcube_task *t, *tmp;
	bool evacuate = false;

	/* what was set before is verified first: no batch spans this */
	hcube_moves_flush(hc);
	/*
	 * Exits first, then adopts: a record's adoption was queued before its
	 * exit, so an exit taken here has its adoption taken too.
	 */
	adopts = llist_reverse_order(adopts);
	llist_for_each_entry_safe(t, tmp, adopts, adopt_node) {
		evacuate |= hcube_adopt(hc, t);
		hcube_task_put(t);
		cond_resched();
	}
	llist_for_each_entry_safe(t, tmp, exits, exit_node) {
		if (test_bit(HCUBE_TF_LINKED, &t->flags))
			hcube_task_del(hc, t, HCUBE_REASON_EXITED);
		else if (test_bit(HCUBE_TF_REMOVED, &t->flags))
			hcube_task_hash_del(hc, t);	/* a tombstone */
		hcube_task_put(t);
		cond_resched();
	}
	if (evacuate && !hc->stopping)
		hcube_after_change(hc, HCUBE_REASON_FORK);
}

/* Link the pending records and unregister the exited ones; under hcube.lock. */
void hcube_events_drain(struct hcube *hc)
{
	hcube_drain(hc);
}

/*
 * The lost-creation scan: tasks with no record whose creator (its
 * process's leader for a thread, else its parent) has one, that were
 * created after it was registered and carry a mask hcube gave it
 * (hcube_mask_inherited()); never kernel or io threads (io_uring's are
 * made by create_io_thread(), which the fork tracepoint never sees, and
 * pin themselves) nor PF_NO_SETAFFINITY tasks, and only those the
 * registrant may change (hcube_born()). A task the user pinned, before or
 * after, is not one. Each pass finds one more generation; the scan stops
 * at a pass that finds none. A pass walks the threads in slices of
 * HCUBE_SCAN_SLICE, each in one RCU read-side section, resumed from the
 * last process looked at (held by a reference; from the start again when
 * it is gone). Without hcube.lock but to link what it found.
 */
#define HCUBE_SCAN_SLICE	1024
#define HCUBE_SCAN_ROOM		64
/* slices of a pass, at most: resumed walks whose process keeps exiting */
#define HCUBE_SCAN_SLICES	65536

struct hcube_orphan {
	struct task_struct *p;
	struct hcube_task *c;
	bool thread;
};

/* Is @p a lost creation of a registered task? Its creator's record, or NULL. */
static struct hcube_task *hcube_scan_one(struct hcube *hc, struct task_struct *p)
{
	struct task_struct *cp;
	struct hcube_task *c;

	if ((p->flags & (PF_KTHREAD | PF_IO_WORKER | PF_NO_SETAFFINITY | PF_EXITING)) ||
	    hcube_mask_vertex(hc, &p->cpus_mask) < 0 || hcube_task_lookup(hc, p))
		return NULL;
	cp = thread_group_leader(p) ? rcu_dereference(p->real_parent) : p->group_leader;
	c = hcube_task_lookup(hc, cp);
	if (!c || READ_ONCE(c->state) == HCUBE_TASK_CHANGED ||
	    p->start_time < c->reg_ns ||
	    !hcube_mask_inherited(c, &p->cpus_mask, &cp->cpus_mask))
		return NULL;
	return c;
}

/*
 * One slice of a pass: from the process after *@cursor (NULL: the first),
 * at most HCUBE_SCAN_SLICE threads and HCUBE_SCAN_ROOM finds into @o.
 * *@cursor becomes the last process looked at, referenced, or NULL at the
 * end of the walk. Returns the number found.
 */
static u32 hcube_scan_slice(struct hcube *hc, struct hcube_orphan *o,
			    struct task_struct **cursor)
{
	struct task_struct *g, *p, *last = *cursor;
	u32 n = 0, looked = 0;

	rcu_read_lock();
	g = last && pid_alive(last) ? last : &init_task;
	*cursor = NULL;
	while ((g = next_task(g)) != &init_task) {
		for_each_thread(g, p) {
			struct hcube_task *c = hcube_scan_one(hc, p);

			looked++;
			if (c && n < HCUBE_SCAN_ROOM && refcount_inc_not_zero(&c->ref)) {
				o[n].p = get_task_struct(p);
				o[n].c = c;
				o[n].thread = !thread_group_leader(p);
				n++;
			}
		}
		if (looked >= HCUBE_SCAN_SLICE || n == HCUBE_SCAN_ROOM) {
			*cursor = get_task_struct(g);
			break;
		}
	}
	rcu_read_unlock();
	if (last)
		put_task_struct(last);
	return n;
}

static void hcube_scan_lost(struct hcube *hc)
{
	struct task_struct *cursor;
	u32 n, i, pass, slices, acted = 1;
	struct hcube_orphan *o;
	cpumask_var_t mask;

	o = kcalloc(HCUBE_SCAN_ROOM, sizeof(*o), GFP_KERNEL);
	if (!o || !alloc_cpumask_var(&mask, GFP_KERNEL)) {
		kfree(o);
		pr_warn_ratelimited("lost-creation scan: out of memory\n");
		return;
	}
	for (pass = 0; acted && pass < 64; pass++) {
		acted = 0;
		cursor = NULL;
		slices = 0;
		do {
			n = hcube_scan_slice(hc, o, &cursor);
			for (i = 0; i < n; i++) {
				hcube_mask_snap(o[i].p, mask);
				acted += hcube_born(hc, o[i].c, o[i].p, o[i].thread, mask);
				hcube_task_put(o[i].c);
				put_task_struct(o[i].p);
			}
			cond_resched();
		} while (cursor && ++slices < HCUBE_SCAN_SLICES);
		if (cursor)
			put_task_struct(cursor);	/* a walk that keeps restarting */
		hcube_lock(hc);
		hcube_drain(hc);
		hcube_unlock(hc);
	}
	free_cpumask_var(mask);
	kfree(o);
	if (acted)
		pr_warn_ratelimited("lost-creation scan: still finding tasks after %u passes\n",
				    pass);
}

/*
 * Unload, once the probes are gone and the births done: a task created
 * from a registered one whose birth was lost, or whose fork reached the
 * probe after the probes went, still has a vertex's mask; it gets its
 * creator's original affinity.
 */
void hcube_events_last_pass(struct hcube *hc)
{
	atomic_set(&hc->ev->lost_pending, 0);
	hcube_scan_lost(hc);
}

static void hcube_events_workfn(struct work_struct *work)
{
	struct hcube *hc = container_of(work, struct hcube, work);

	/*
	 * A hotplug change is applied once the operation that recorded it
	 * is over (a CPU coming up is then active): wait for one in progress
	 * here, not under hcube.lock.
	 */
	cpus_read_lock();
	cpus_read_unlock();
	hcube_lock(hc);
	if (!hc->stopping) {
		hcube_hotplug_apply(hc);
		hcube_mce_apply(hc);
	}
	hcube_drain(hc);
	hcube_auto_schedule(hc);
	hcube_unlock(hc);
	if (atomic_xchg(&hc->ev->lost_pending, 0) && !READ_ONCE(hc->stopping))
		hcube_scan_lost(hc);
}

/*
 * Link the pending records and unregister the exited ones, then let the
 * automatic trigger rebalance if the loads drifted apart.
 */
static void hcube_auto_workfn(struct work_struct *work)
{
	struct hcube *hc = container_of(to_delayed_work(work), struct hcube,
					auto_work);

	hcube_lock(hc);
	if (!hc->stopping) {
		hcube_drain(hc);
		hcube_auto_run(hc);
	}
	hcube_unlock(hc);
}

static void hcube_find_tp(struct tracepoint *tp, void *priv)
{
	struct hcube_events *ev = priv;

	if (!strcmp(tp->name, "sched_process_fork"))
		ev->tp_fork = tp;
	else if (!strcmp(tp->name, "sched_process_exit"))
		ev->tp_exit = tp;
}

/*
 * The probes, with a pool of @births creations in flight (more are
 * allocated, unless @pool_only), and the worker.
 */
int hcube_events_init(struct hcube *hc, u32 births, bool pool_only)
{
	struct hcube_events *ev;
	u32 i;
	int err;

	ev = kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return -ENOMEM;
	raw_spin_lock_init(&ev->pool_lock);
	ev->pool_only = pool_only;
	INIT_WORK(&hc->work, hcube_events_workfn);
	INIT_DELAYED_WORK(&hc->auto_work, hcube_auto_workfn);
	ev->bsize = ALIGN(sizeof(struct hcube_birth) + cpumask_size(),
			  sizeof(long));
	ev->pool = kvcalloc(births, ev->bsize, GFP_KERNEL);
	ev->free = kvcalloc(births, sizeof(*ev->free), GFP_KERNEL);
	hc->wq = alloc_ordered_workqueue("hcube", WQ_HIGHPRI);
	err = -ENOMEM;
	if (!ev->pool || !ev->free || !hc->wq)
		goto free;
	for (i = 0; i < births; i++)
		ev->free[i] = i;
	ev->nfree = births;

	for_each_kernel_tracepoint(hcube_find_tp, ev);
	err = -ENOENT;
	if (!ev->tp_fork || !ev->tp_exit) {
		pr_err("the sched_process_fork and sched_process_exit tracepoints are needed\n");
		goto free;
	}
	hc->ev = ev;
	err = tracepoint_probe_register(ev->tp_fork, hcube_probe_fork, hc);
	if (err)
		goto free;
	ev->fork_on = true;
	err = tracepoint_probe_register(ev->tp_exit, hcube_probe_exit, hc);
	if (err)
		goto unregister;
	ev->exit_on = true;
	return 0;

unregister:
	tracepoint_probe_unregister(ev->tp_fork, hcube_probe_fork, hc);
	tracepoint_synchronize_unregister();
free:
	if (hc->wq)
		destroy_workqueue(hc->wq);
	hc->wq = NULL;
	kvfree(ev->free);
	kvfree(ev->pool);
	kfree(ev);
	hc->ev = NULL;
	return err;
}

/*
 * Unload, after every task was given its affinity back: no more probes,
 * every birth finished (each gave its child the original affinity, since
 * hcube.stopping is set), every pending record released, no work left.
 */
void hcube_events_stop(struct hcube *hc)
{
	struct hcube_events *ev = hc->ev;

	tracepoint_probe_unregister(ev->tp_exit, hcube_probe_exit, hc);
	tracepoint_probe_unregister(ev->tp_fork, hcube_probe_fork, hc);
	tracepoint_synchronize_unregister();
	wait_event(hcube_births_idle, !atomic_read(&hcube_inflight));
	/* each birth is past its last instruction of this module */
	synchronize_rcu_tasks();
	cancel_delayed_work_sync(&hc->auto_work);
	flush_work(&hc->work);
	hcube_lock(hc);
	hcube_drain(hc);
	hcube_unlock(hc);
}

void hcube_events_exit(struct hcube *hc)
{
	struct hcube_events *ev = hc->ev;

	if (!ev)
		return;
	destroy_workqueue(hc->wq);
	kvfree(ev->free);
	kvfree(ev->pool);
	kfree(ev);
	hc->ev = NULL;
}
