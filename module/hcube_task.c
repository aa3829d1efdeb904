// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: registered tasks.
 *
 * A task is held by a struct pid reference. Its affinity at registration
 * is saved and restored when it is unregistered and when the module is
 * unloaded. While registered, an active task's allowed CPUs are exactly
 * the usable CPUs of its vertex. A task whose mask someone else changed is
 * reported as changed and left alone from then on: it is not moved, not
 * counted in any load, and not restored.
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
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include "hcube.h"
#include "hcube_trace.h"

static struct kmem_cache *hcube_task_cache;

int hcube_tasks_init(void)
{
	hcube_task_cache = KMEM_CACHE(hcube_task, 0);
	return hcube_task_cache ? 0 : -ENOMEM;
}

void hcube_tasks_exit(void)
{
	kmem_cache_destroy(hcube_task_cache);
}

struct hcube_task *hcube_task_find(struct hcube *hc, struct pid *pid)
{
	struct hcube_task *t;

	hash_for_each_possible(hc->by_pid, t, hnode, (unsigned long)pid)
		if (t->pid == pid)
			return t;
	return NULL;
}

static bool hcube_cpuset_ok(struct hcube *hc, struct task_struct *p)
{
	bool root = true;

#ifdef CONFIG_CPUSETS
	rcu_read_lock();
	root = !task_css(p, cpuset_cgrp_id)->parent;
	rcu_read_unlock();
#endif
	return root || cpumask_subset(hc->cube_cpus, &p->cpus_mask);
}

/*
 * May @p be registered? 0, or the errno that tells why not:
 * -EPERM PF_NO_SETAFFINITY (on 6.1 only kernel threads bound to CPUs carry
 * it), -EINVAL other kernel thread, -ESRCH exiting, -EXDEV cpuset may
 * exclude the cube's CPUs.
 */
int hcube_task_check(struct hcube *hc, struct task_struct *p)
{
	if (p->flags & PF_NO_SETAFFINITY)
		return -EPERM;
	if (p->flags & PF_KTHREAD)
		return -EINVAL;
	if (p->flags & PF_EXITING)
		return -ESRCH;
	if (!hcube_cpuset_ok(hc, p))
		return -EXDEV;
	return 0;
}

static void hcube_task_free(struct hcube_task *t)
{
	put_pid(t->pid);
	free_cpumask_var(t->orig);
	kmem_cache_free(hcube_task_cache, t);
}

/* The least loaded healthy vertex, attached to C_b when possible. */
static int hcube_pick_vertex(struct hcube *hc)
{
	int best = -1;
	u32 i;

	for (i = 0; i < hc->nv; i++) {
		struct hcube_vertex *v = &hc->v[i];

		if (v->state != HCUBE_VERTEX_HEALTHY)
			continue;
		if (hc->topo_valid && hc->topo.dist[i] == HCUBE_DIST_NONE)
			continue;
		if (best < 0 || v->load < hc->v[best].load)
			best = i;
	}
	return best;
}

/* Set @p's mask to @mask and read it back. */
static int hcube_set_mask(struct task_struct *p, const struct cpumask *mask)
{
	int err = set_cpus_allowed_ptr(p, mask);

	if (!err && !cpumask_equal(&p->cpus_mask, mask))
		err = -EIO;
	return err;
}

/*
 * Register @pids (referenced by the caller, checked by hcube_task_check(),
 * not registered yet, no duplicates). Either every task structure is
 * allocated or nothing changes (-ENOMEM, and the caller keeps its pid
 * references). Then each task gets the CPUs of @vertex, or of the least
 * loaded healthy vertex when @vertex < 0; one that cannot (it raced with
 * exit, say) is not registered and added[i] is an ERR_PTR. When 0 is
 * returned every pid reference has been consumed.
 */
int hcube_task_add(struct hcube *hc, struct pid **pids, u32 npids, int vertex,
		   struct hcube_task **added)
{
	u32 i, n;
	int err;

	for (n = 0; n < npids; n++) {
		struct hcube_task *t;

		t = kmem_cache_zalloc(hcube_task_cache, GFP_KERNEL);
		added[n] = t;
		if (!t)
			goto nomem;
		if (!zalloc_cpumask_var(&t->orig, GFP_KERNEL) ||
		    xa_alloc(&hc->tasks, &t->id, t, xa_limit_32b, GFP_KERNEL)) {
			n++;
			goto nomem;
		}
	}

	for (i = 0; i < npids; i++) {
		struct hcube_task *t = added[i];
		struct task_struct *p;
		int to = vertex >= 0 ? vertex : hcube_pick_vertex(hc);

		p = get_pid_task(pids[i], PIDTYPE_PID);
		err = p ? hcube_task_check(hc, p) : -ESRCH;
		if (!err && to < 0)
			err = -ENODEV;
		if (!err) {
			cpumask_copy(t->orig, &p->cpus_mask);
			err = hcube_set_mask(p, hc->v[to].usable);
			if (err)
				set_cpus_allowed_ptr(p, t->orig);
		}
		if (p)
			put_task_struct(p);
		if (err) {
			xa_erase(&hc->tasks, t->id);
			free_cpumask_var(t->orig);
			kmem_cache_free(hcube_task_cache, t);
			added[i] = ERR_PTR(err);
			put_pid(pids[i]);
			continue;
		}
		t->pid = pids[i];
		t->vertex = to;
		t->state = HCUBE_TASK_ACTIVE;
		hash_add(hc->by_pid, &t->hnode, (unsigned long)t->pid);
		list_add_tail(&t->vnode, &hc->v[to].tasks);
		hc->v[to].load++;
		hc->ntasks++;
		hc->cnt.registered++;
		hcube_ntf_task(hc, t, HCUBE_REASON_ADDED);
	}
	return 0;

nomem:
	/* added[0 .. n-1] were allocated; the ids of some may be unset (0). */
	for (i = 0; i < n; i++) {
		if (added[i]->id)
			xa_erase(&hc->tasks, added[i]->id);
		free_cpumask_var(added[i]->orig);
		kmem_cache_free(hcube_task_cache, added[i]);
		added[i] = NULL;
	}
	return -ENOMEM;
}

static void hcube_task_unlink(struct hcube *hc, struct hcube_task *t)
{
	hash_del(&t->hnode);
	list_del(&t->vnode);
	xa_erase(&hc->tasks, t->id);
	if (t->state == HCUBE_TASK_ACTIVE)
		hc->v[t->vertex].load--;
	hc->ntasks--;
}

/*
 * Unregister @t and give an active task its original affinity back.
 * @reason: HCUBE_REASON_REMOVED (a command), _EXITED, or 0 at unload.
 */
void hcube_task_del(struct hcube *hc, struct hcube_task *t, u32 reason)
{
	struct task_struct *p;

	if (t->state == HCUBE_TASK_ACTIVE && reason != HCUBE_REASON_EXITED) {
		p = get_pid_task(t->pid, PIDTYPE_PID);
		if (p) {
			int err = set_cpus_allowed_ptr(p, t->orig);

			if (err)
				pr_info("pid %d: original affinity %*pbl not restored: %d\n",
					pid_nr(t->pid), cpumask_pr_args(t->orig),
					err);
			put_task_struct(p);
		}
	}
	if (reason == HCUBE_REASON_REMOVED) {
		hc->cnt.unregistered++;
		hcube_ntf_task(hc, t, reason);
	} else if (reason == HCUBE_REASON_EXITED) {
		hc->cnt.exited++;
		hcube_ntf_task(hc, t, reason);
	}
	hcube_task_unlink(hc, t);
	hcube_task_free(t);
}

void hcube_tasks_release_all(struct hcube *hc)
{
	struct hcube_task *t;
	unsigned long id;

	xa_for_each(&hc->tasks, id, t)
		hcube_task_del(hc, t, 0);
}

/* Move an active task to vertex @to; on failure it stays where it is. */
int hcube_task_move(struct hcube *hc, struct hcube_task *t, u32 to)
{
	struct task_struct *p = get_pid_task(t->pid, PIDTYPE_PID);
	u32 from = t->vertex;
	int err;

	if (!p)
		return -ESRCH;
	err = hcube_set_mask(p, hc->v[to].usable);
	put_task_struct(p);
	trace_hcube_migrate(pid_nr(t->pid), from, to, err);
	if (err)
		return err;
	list_move_tail(&t->vnode, &hc->v[to].tasks);
	hc->v[from].load--;
	hc->v[to].load++;
	t->vertex = to;
	t->remask_pending = false;
	return 0;
}

/*
 * Give an active task its vertex's current mask, if it differs. A failure
 * (for instance when a CPU coming online is not active yet) is retried at
 * the next reap instead of being taken for someone else's change.
 */
int hcube_task_remask(struct hcube *hc, struct hcube_task *t)
{
	struct task_struct *p = get_pid_task(t->pid, PIDTYPE_PID);
	const struct cpumask *mask = hc->v[t->vertex].usable;
	int err = 0;

	if (!p)
		return -ESRCH;
	if (!cpumask_equal(&p->cpus_mask, mask))
		err = hcube_set_mask(p, mask);
	put_task_struct(p);
	t->remask_pending = err != 0;
	return err;
}

void hcube_report_task(struct hcube_report_task *rt, struct hcube_task *t,
		       int error)
{
	struct task_struct *p = get_pid_task(t->pid, PIDTYPE_PID);

	rt->spid = get_pid(t->pid);
	rt->pid = pid_nr(t->pid);
	rt->vertex = t->vertex;
	rt->error = error;
	if (p) {
		get_task_comm(rt->comm, p);
		put_task_struct(p);
	} else {
		strscpy(rt->comm, "", sizeof(rt->comm));
	}
}

/*
 * Unregister tasks that exited; set aside active tasks whose affinity was
 * changed by someone else. Counts go to @r when it is not NULL. Returns
 * the number of tasks found exited.
 */
u32 hcube_reap(struct hcube *hc, struct hcube_report *r)
{
	struct hcube_task *t;
	unsigned long id;
	u32 exited = 0;

	xa_for_each(&hc->tasks, id, t) {
		struct hcube_vertex *v = &hc->v[t->vertex];
		struct task_struct *p;
		bool changed = false;
		bool gone;

		/*
		 * A look, not a reference: this runs for every task on every
		 * command and reaper pass, and the task_struct stays valid
		 * under RCU (Documentation/performance.md measures this loop).
		 */
		rcu_read_lock();
		p = pid_task(t->pid, PIDTYPE_PID);
		gone = !p || (p->flags & PF_EXITING);
		if (!gone && t->state == HCUBE_TASK_ACTIVE &&
		    v->state == HCUBE_VERTEX_HEALTHY && !t->remask_pending)
			changed = !cpumask_equal(&p->cpus_mask, v->usable);
		rcu_read_unlock();
		if (!gone && t->remask_pending && v->state == HCUBE_VERTEX_HEALTHY)
			hcube_task_remask(hc, t);
		if (gone) {
			exited++;
			hcube_task_del(hc, t, HCUBE_REASON_EXITED);
			continue;
		}
		if (!changed)
			continue;
		t->state = HCUBE_TASK_CHANGED;
		v->load--;
		list_move_tail(&t->vnode, &hc->changed);
		hc->cnt.changed++;
		if (r) {
			r->changed_count++;
			if (r->nchanged < HCUBE_REPORT_TASKS)
				hcube_report_task(&r->changed[r->nchanged++], t, 0);
		}
		hcube_ntf_task(hc, t, HCUBE_REASON_CHANGED);
	}
	if (r)
		r->exited += exited;
	return exited;
}
