// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: rebalancing and evacuation.
 *
 * A rebalance is synchronous, under hcube.lock: snapshot the loads,
 * let the core plan, decompose the plan into routes (each task moves once,
 * straight to its final vertex, sources paired with destinations along the
 * plan's edges), move the tasks with set_cpus_allowed_ptr() and read each
 * mask back. A dry run stops after the plan. After the vertices' states
 * changed, hcube_after_change() gives tasks new masks, evacuates and
 * rebalances; the automatic trigger rebalances when loads drift apart.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/ktime.h>
#include "hcube.h"
#include "hcube_errors.h"
#include "hcube_trace.h"

void hcube_report_release(struct hcube_report *r)
{
	u32 i;

	for (i = 0; i < r->nfailures; i++)
		put_pid(r->failures[i].spid);
	for (i = 0; i < r->nchanged; i++)
		put_pid(r->changed[i].spid);
	r->nfailures = 0;
	r->nchanged = 0;
}

void hcube_report_reset(struct hcube_report *r, struct hcube *hc)
{
	hcube_report_release(r);
	r->policy = hc->cfg.policy;
	r->trigger = HCUBE_REASON_ADMIN;
	r->dry_run = false;
	r->before = hc->m.before;
	r->planned = hc->m.planned;
	r->after = hc->m.after;
	r->plan = NULL;
	r->moved = 0;
	r->failed = 0;
	r->exited = 0;
	r->evacuated = 0;
	r->changed_count = 0;
	r->duration_ns = 0;
}

/*
 * A move that did not happen: the task is exiting (its exit is on its
 * way), someone else changed its affinity (-EAGAIN: reported as changed),
 * or the move failed.
 */
static void hcube_report_failure(struct hcube *hc, struct hcube_report *r,
				 struct hcube_task *t, int err)
{
	if (err == -EAGAIN)
		return;	/* reported as changed */
	if (err == -ESRCH) {
		r->exited++;	/* its exit, on its way, unregisters it */
		return;
	}
	hc->cnt.failures++;
	r->failed++;
	if (r->nfailures < HCUBE_REPORT_TASKS)
		hcube_report_task(&r->failures[r->nfailures++], t, err);
}

/*
 * Move every task off vertices that cannot run it, nearest healthy
 * vertices first (hcube_evacuate()). Returns the number moved.
 */
u32 hcube_evacuate_all(struct hcube *hc, struct hcube_report *r)
{
	u32 *load = hc->m.load, *out = hc->m.scratch;
	u32 i, w, moved = 0;

	for (i = 0; i < hc->nv; i++)
		load[i] = hc->v[i].state == HCUBE_VERTEX_HEALTHY ? hc->v[i].load : 0;
	for (i = 0; i < hc->nv; i++) {
		struct hcube_vertex *v = &hc->v[i];
		struct hcube_task *t, *tmp;

		if (v->state == HCUBE_VERTEX_HEALTHY || !v->load)
			continue;
		memset(out, 0, hc->nv * sizeof(*out));
		if (hcube_evacuate(hc->dim, hc->m.state, load, i, v->load, out)) {
			pr_warn_ratelimited("vertex %u: %u tasks and no healthy vertex to take them\n",
					    i, v->load);
			continue;
		}
		w = 0;
		list_for_each_entry_safe(t, tmp, &v->tasks, vnode) {
			int err;

			while (w < hc->nv && !out[w])
				w++;
			if (w == hc->nv)
				break;
			err = hcube_task_move(hc, t, w, r);
			if (err == -EXDEV) {
				/* its cpuset has no CPU there: the nearest it allows */
				hcube_task_remask(hc, t, r);
				continue;
			}
			if (err) {
				hcube_report_failure(hc, r, t, err);
				continue;
			}
			out[w]--;
			load[w]++;
			moved++;
		}
	}
	hc->cnt.evacuations += moved;
	r->evacuated += moved;
	return moved;
}

/*
 * Before planning: the tasks of healthy vertices whose mask is not the one
 * hcube gave (a rebalance moves tasks, so it may look at each): changed by
 * someone else, they leave the loads; changed by their cpuset or by
 * hotplug, they get their mask again, on another vertex if their cpuset
 * left theirs.
 */
static void hcube_find_changed(struct hcube *hc, struct hcube_report *r)
{
	struct hcube_task *t, *tmp;
	u32 i;

	for (i = 0; i < hc->nv; i++) {
		if (hc->v[i].state != HCUBE_VERTEX_HEALTHY)
			continue;
		list_for_each_entry_safe(t, tmp, &hc->v[i].tasks, vnode)
			if (!(t->task->flags & PF_EXITING) &&
			    !cpumask_equal(&t->task->cpus_mask, hcube_task_given(t)))
				hcube_task_remask(hc, t, r);
	}
}

/* Move @count tasks from vertex @from to vertex @to; failures stay. */
static u32 hcube_apply_route(struct hcube *hc, struct hcube_report *r,
			     const struct hcube_route *rt)
{
	struct hcube_task *t, *tmp;
	u32 done = 0;

	list_for_each_entry_safe(t, tmp, &hc->v[rt->from].tasks, vnode) {
		int err;

		if (done == rt->count)
			break;
		err = hcube_task_move(hc, t, rt->to, r);
		if (err == -EXDEV)
			continue;	/* its cpuset: another task goes instead */
		if (err)
			hcube_report_failure(hc, r, t, err);
		else
			done++;
	}
	return done;
}

/* Vertices that are healthy now. */
u32 hcube_nhealthy(struct hcube *hc)
{
	u32 i, n = 0;

	for (i = 0; i < hc->nv; i++)
		n += hc->v[i].state == HCUBE_VERTEX_HEALTHY;
	return n;
}

/*
 * The policy a rebalance plans with on the cube as it is: a policy that
 * plans only on a fault-free cube gives way to its fallback while some
 * vertex is not healthy (the core's table says which and to what).
 */
u32 hcube_policy_for(struct hcube *hc, u32 policy)
{
	const struct hcube_policy_ops *ops = hcube_policy_lookup(policy);

	if (ops && (ops->flags & HCUBE_POLICY_F_FAULT_FREE) &&
	    hcube_nhealthy(hc) != hc->nv)
		return ops->fallback;
	return policy;
}

static void hcube_load_snapshot(struct hcube *hc, u32 *dst)
{
	u32 i;

	for (i = 0; i < hc->nv; i++)
		dst[i] = hc->v[i].state == HCUBE_VERTEX_HEALTHY ? hc->v[i].load : 0;
}

/*
 * Rebalance with @policy; the caller has reset hc->report (an evacuation
 * may already be recorded in it). @extack may be NULL.
 */
int hcube_rebalance(struct hcube *hc, u32 policy, bool dry_run, u32 trigger,
		    struct netlink_ext_ack *extack)
{
	struct hcube_report *r = &hc->report;
	u64 t0 = ktime_get_ns();
	struct hcube_cube cube;
	u32 i, nroutes;
	int err;

	r->policy = policy;
	r->trigger = trigger;
	r->dry_run = dry_run;
	hcube_bench_start();
	hcube_find_changed(hc, r);
	hcube_bench_mark(HCUBE_BENCH_FIND);
	if (!dry_run)
		hcube_evacuate_all(hc, r);
	hcube_bench_mark(HCUBE_BENCH_EVACUATE);

	hcube_load_snapshot(hc, hc->m.load);
	memcpy(r->before, hc->m.load, hc->nv * sizeof(u32));
	cube.dim = hc->dim;
	cube.state = hc->m.state;
	cube.load = hc->m.load;
	err = hcube_plan_build(&hc->plan, policy, &cube,
			       hc->topo_valid ? &hc->topo : NULL, hc->m.work);
	if (err == HCUBE_E_NEED_MCWA) {
		/* callers ask hcube_policy_for() first */
		NL_SET_ERR_MSG(extack, HCUBE_ERR_POLICY_FAULT_FREE);
		return -EINVAL;
	}
	if (err == HCUBE_E_NO_HEALTHY) {
		NL_SET_ERR_MSG(extack, HCUBE_ERR_NO_HEALTHY);
		return -ENODEV;
	}
	/* Limits of a plan, not bugs: the request cannot be met as asked. */
	if (err == HCUBE_E_PLAN_SIZE) {
		NL_SET_ERR_MSG(extack, HCUBE_ERR_POLICY_PLAN_SIZE);
		return -E2BIG;
	}
	if (err == HCUBE_E_BUDGET) {
		NL_SET_ERR_MSG(extack, HCUBE_ERR_POLICY_BUDGET);
		return -E2BIG;
	}
	if (WARN_ONCE(err, "hcube: plan failed: %s\n", hcube_strerror(err)))
		return -EIO;
	hcube_bench_mark(HCUBE_BENCH_PLAN);
	r->plan = &hc->plan;
	memcpy(r->planned, hc->plan.after, hc->nv * sizeof(u32));

	if (dry_run) {
		memcpy(r->after, r->before, hc->nv * sizeof(u32));
		hc->cnt.dry_runs++;
		goto done;
	}

	err = hcube_plan_routes(&hc->plan, r->before, hc->m.routes,
				hcube_routes_max(hc->dim), &nroutes, hc->m.work);
	if (WARN_ONCE(err, "hcube: routes failed: %s\n", hcube_strerror(err)))
		return -EIO;
	hcube_bench_mark(HCUBE_BENCH_ROUTES);
	for (i = 0; i < nroutes; i++)
		r->moved += hcube_apply_route(hc, r, &hc->m.routes[i]);
	hcube_bench_mark(HCUBE_BENCH_MOVES);
	hcube_bench_report(hc, r->moved);
	hcube_load_snapshot(hc, r->after);
	hc->cnt.rebalances++;
	if (trigger == HCUBE_REASON_AUTO)
		hc->cnt.auto_rebalances++;
	hc->cnt.migrations += hc->plan.stats.migrations;
	hc->cnt.moved += r->moved;
done:
	r->duration_ns = ktime_get_ns() - t0;
	trace_hcube_rebalance(policy, hc->plan.applied, trigger, dry_run,
			      hc->plan.ntransfers,
			      hc->plan.stats.migrations, r->moved, r->failed,
			      r->duration_ns);
	hcube_notify(hc, HCUBE_CMD_REBALANCE_NTF, &(struct hcube_ntf){
		.reason = trigger, .report = r });
	return 0;
}

/*
 * Give the tasks of healthy vertices their vertex's current mask. One that
 * fails (a CPU coming online is not active yet, say) is tried again a
 * little later.
 */
static u32 hcube_remask_all(struct hcube *hc)
{
	struct hcube_task *t, *tmp;
	u32 i, failed = 0;

	for (i = 0; i < hc->nv; i++) {
		if (hc->v[i].state != HCUBE_VERTEX_HEALTHY)
			continue;
		list_for_each_entry_safe(t, tmp, &hc->v[i].tasks, vnode)
			if (hcube_task_remask(hc, t, NULL))
				failed++;
	}
	if (failed && !hc->stopping)
		mod_delayed_work(system_wq, &hc->retry_work,
				 msecs_to_jiffies(10U << min(hc->retries, 7U)));
	else if (!failed)
		hc->retries = 0;
	return failed;
}

static void hcube_retry_workfn(struct work_struct *work)
{
	struct hcube *hc = container_of(to_delayed_work(work), struct hcube,
					retry_work);

	hcube_lock(hc);
	if (!hc->stopping && ++hc->retries <= 32)
		hcube_remask_all(hc);
	hcube_unlock(hc);
}

/*
 * After the vertex states changed: new masks for tasks on healthy vertices,
 * tasks off vertices that can no longer run them (nearest first) and, when
 * some had to move, a rebalance with the configured policy.
 */
void hcube_after_change(struct hcube *hc, u32 trigger)
{
	hcube_remask_all(hc);
	hcube_report_reset(&hc->report, hc);
	if (!hcube_evacuate_all(hc, &hc->report)) {
		hcube_auto_schedule(hc);
		return;
	}
	hcube_rebalance(hc, hcube_policy_for(hc, hc->cfg.policy), false, trigger,
			NULL);
}

void hcube_balance_init(struct hcube *hc)
{
	INIT_DELAYED_WORK(&hc->retry_work, hcube_retry_workfn);
}

/* Unload: no remask is left to retry. */
void hcube_balance_stop(struct hcube *hc)
{
	cancel_delayed_work_sync(&hc->retry_work);
}

/*
 * The automatic trigger: a healthy vertex joined to C_b has fewer tasks
 * than the threshold while some other has at least two more (so a plan can
 * change something). Due now, or in *delay jiffies when the cooldown since
 * the last automatic rebalance has not passed. It is looked at whenever
 * the loads, the vertices or the settings change; there is no timer.
 */
bool hcube_auto_due(struct hcube *hc, unsigned long *delay)
{
	u32 i, min = U32_MAX, max = 0;
	unsigned long end;

	if (!hc->cfg.autob || !hc->ntasks || !hc->topo_valid)
		return false;
	for (i = 0; i < hc->nv; i++) {
		if (hc->v[i].state != HCUBE_VERTEX_HEALTHY ||
		    hc->topo.dist[i] == HCUBE_DIST_NONE)
			continue;
		min = min(min, hc->v[i].load);
		max = max(max, hc->v[i].load);
	}
	if (min >= hc->cfg.threshold || max < min + 2)
		return false;
	end = hc->last_auto + msecs_to_jiffies(hc->cfg.cooldown_ms);
	*delay = hc->last_auto && time_before(jiffies, end) ? end - jiffies : 0;
	return true;
}

/* The automatic trigger, when it is due: now, or after the cooldown. */
void hcube_auto_schedule(struct hcube *hc)
{
	unsigned long delay;

	if (!hc->stopping && hcube_auto_due(hc, &delay))
		mod_delayed_work(hc->wq, &hc->auto_work, delay);
}

/* The automatic rebalance, from the worker, once pending tasks are linked. */
void hcube_auto_run(struct hcube *hc)
{
	unsigned long delay;
	u32 policy;

	if (!hcube_auto_due(hc, &delay))
		return;
	if (delay) {
		hcube_auto_schedule(hc);
		return;
	}
	policy = hcube_policy_for(hc, hc->cfg.policy);
	hc->last_auto = jiffies ? jiffies : 1;
	hcube_report_reset(&hc->report, hc);
	hcube_rebalance(hc, policy, false, HCUBE_REASON_AUTO, NULL);
	/* still due (a plan that could not balance): after the cooldown */
	hcube_auto_schedule(hc);
}
