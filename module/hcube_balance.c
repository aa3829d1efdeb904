// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: rebalancing and evacuation.
 *
 * A rebalance is synchronous, under hcube.lock: snapshot the loads that
 * hcube keeps as tasks come, go and move, let the core plan, decompose the
 * plan into routes (each task moves once, straight to its final vertex,
 * sources paired with destinations along the plan's edges) and move the
 * tasks. Each move checks its task first (hcube_task_move()): a task whose
 * affinity someone else changed leaves its route (another task of the
 * vertex goes instead), and when any did, the loads were off by them:
 * hcube plans again from the loads without them, at most twice. Nothing
 * looks at every task, before planning or after: a rebalance costs what
 * its moves cost. A task someone else changed and no move looked at stays
 * in its vertex's load until hcube next touches it (a move, a remask when
 * its vertex's CPUs change, the passes after hotplug, unregistration);
 * a listing shows it changed at once (hcube_task_state()). A dry run
 * (hcube_dry_run()) plans into memory of its own for its caller alone:
 * the last report, the trigger and the tasks stay as they were, and no
 * event is sent.
 *
 * After the vertices' states changed, hcube_after_change() gives the
 * tasks of the vertices whose CPUs changed their new masks, evacuates and
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
	/* a dump of its transfers that spans this sees it (never 0: no check) */
	if (!++hc->report_seq)
		hc->report_seq = 1;
	hcube_report_release(r);
	/* every field but the task lists, which nfailures and nchanged empty */
	memset(r, 0, offsetof(struct hcube_report, failures));
	r->policy = hc->cfg.policy;
	r->trigger = HCUBE_REASON_ADMIN;
	r->before = hc->m.before;
	r->planned = hc->m.planned;
	r->after = hc->m.after;
}

/*
 * A move that did not happen: the task is exiting (its exit is on its
 * way), someone else changed its affinity (-EAGAIN: reported as changed),
 * or the move failed.
 */
static void hcube_report_failure(struct hcube *hc, struct hcube_report *r,
				 struct hcube_task *t, int err)
{
	if (err == -EAGAIN || err == -EPERM)
		return;	/* reported as changed, or let go (its event) */
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
	struct hcube_walk walk;
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
		hcube_walk_start(hc, &walk);
again:
		list_for_each_entry_safe(t, tmp, &v->tasks, vnode) {
			int err;

			while (w < hc->nv && !out[w])
				w++;
			if (w == hc->nv)
				break;
			if (hcube_walk_seen(&walk, t))
				continue;
			err = hcube_task_move(hc, t, w, r);
			cond_resched();
			if (err == -EXDEV) {
				/* its cpuset has no CPU there: the nearest it allows */
				if (!hcube_task_evacuate(hc, t, r) &&
				    t->state == HCUBE_TASK_ACTIVE && t->vertex != i) {
					load[t->vertex]++;
					moved++;
				}
			} else if (err) {
				hcube_report_failure(hc, r, t, err);
			} else {
				out[w]--;
				load[w]++;
				moved++;
			}
			if (hcube_walk_again(hc, &walk))
				goto again;
		}
	}
	hc->cnt.evacuations += moved;
	r->evacuated += moved;
	return moved;
}

/* Move @count tasks from vertex @from to vertex @to; failures stay. */
static u32 hcube_apply_route(struct hcube *hc, struct hcube_report *r,
			     const struct hcube_route *rt)
{
	struct hcube_task *t, *tmp;
	struct hcube_walk walk;
	u32 done = 0;

	hcube_walk_start(hc, &walk);
again:
	list_for_each_entry_safe(t, tmp, &hc->v[rt->from].tasks, vnode) {
		int err;

		if (done == rt->count)
			break;
		if (hcube_walk_seen(&walk, t))
			continue;
		err = hcube_task_move(hc, t, rt->to, r);
		cond_resched();
		/*
		 * -EXDEV (its cpuset), -EAGAIN (changed, or moved by a
		 * verification), -EPERM (let go): another task goes instead
		 */
		if (!err)
			done++;
		else if (err != -EXDEV && err != -EAGAIN && err != -EPERM)
			hcube_report_failure(hc, r, t, err);
		if (hcube_walk_again(hc, &walk))
			goto again;
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
 * The policy the automatic trigger plans with on the cube as it is: a
 * policy the core refuses on this cube (one that plans only on a fault-free
 * cube, while some vertex is not healthy) gives way to its fallback. A
 * command's rebalance is refused instead (hcube_rebalance()).
 */
u32 hcube_policy_for(struct hcube *hc, u32 policy)
{
	if (hcube_policy_check(policy, hcube_nhealthy(hc), hc->nv) ==
	    HCUBE_E_NEED_MCWA)
		return hcube_policy_lookup(policy)->fallback;
	return policy;
}

/*
 * The refusal of a policy that plans only on a fault-free cube, such as
 * "HCUBE_A_REPORT_POLICY: cwa needs a fault-free cube (every vertex healthy);
 * use mcwa": written at load from the core's table, since an extended
 * ack's message is not copied.
 */
static char hcube_fault_free_msg[__HCUBE_POLICY_MAX][128] __ro_after_init;

/* NL_SET_ERR_MSG() for a message that is not a literal. */
static void hcube_set_err_msg(struct netlink_ext_ack *extack, const char *msg)
{
	if (!extack)
		return;
	do_trace_netlink_extack(msg);
	extack->_msg = msg;
}

/* The errno and the message of the core's refusal @err of a plan. */
static int hcube_plan_refused(u32 policy, int err, struct netlink_ext_ack *extack)
{
	switch (err) {
	case HCUBE_E_NEED_MCWA:
		hcube_set_err_msg(extack, hcube_fault_free_msg[policy]);
		return -EINVAL;
	case HCUBE_E_NO_HEALTHY:
		NL_SET_ERR_MSG(extack, HCUBE_ERR_NO_HEALTHY);
		return -ENODEV;
	/* Limits of a plan, not bugs: the request cannot be met as asked. */
	case HCUBE_E_PLAN_SIZE:
		NL_SET_ERR_MSG(extack, HCUBE_ERR_POLICY_PLAN_SIZE);
		return -E2BIG;
	case HCUBE_E_BUDGET:
		NL_SET_ERR_MSG(extack, HCUBE_ERR_POLICY_BUDGET);
		return -E2BIG;
	}
	WARN_ONCE(1, "hcube: plan failed: %s\n", hcube_strerror(err));
	return -EIO;
}

static void hcube_load_snapshot(struct hcube *hc, u32 *dst)
{
	u32 i;

	for (i = 0; i < hc->nv; i++)
		dst[i] = hc->v[i].state == HCUBE_VERTEX_HEALTHY ? hc->v[i].load : 0;
}

/* Plan with @policy from the loads in hc->m.load into @plan; 0 or -errno. */
static int hcube_plan(struct hcube *hc, struct hcube_plan *plan, u32 policy,
		      struct netlink_ext_ack *extack)
{
	struct hcube_cube cube = {
		.dim = hc->dim, .state = hc->m.state, .load = hc->m.load,
	};
	int err;

	err = hcube_plan_build(plan, policy, &cube,
			       hc->topo_valid ? &hc->topo : NULL, hc->m.work);
	return err ? hcube_plan_refused(policy, err, extack) : 0;
}

/* Apply the plan made from @before; the tasks moved. */
static u32 hcube_apply(struct hcube *hc, struct hcube_report *r, const u32 *before)
{
	u32 i, nroutes, moved = 0;
	int err;

	err = hcube_plan_routes(&hc->plan, before, hc->m.routes,
				hcube_routes_max(hc->dim), &nroutes, hc->m.work);
	if (WARN_ONCE(err, "hcube: routes failed: %s\n", hcube_strerror(err)))
		return 0;
	hcube_bench_mark(HCUBE_BENCH_ROUTES);
	for (i = 0; i < nroutes; i++)
		moved += hcube_apply_route(hc, r, &hc->m.routes[i]);
	return moved;
}

/* Replans of a rebalance whose moves found tasks changed or let go. */
#define HCUBE_REPLANS	2

/**
 * hcube_rebalance() - evacuate, plan and move
 * @hc: the cube, locked
 * @policy: the policy to plan with
 * @trigger: HCUBE_REASON_*: what asked for it
 * @extack: where a refusal goes, or NULL
 *
 * The caller has reset hc->report (an evacuation may already be in it).
 * A policy the core refuses on this cube is refused before anything
 * changes, with -EINVAL and the core's reason.
 * Return: 0 or -errno.
 */
int hcube_rebalance(struct hcube *hc, u32 policy, u32 trigger,
		    struct netlink_ext_ack *extack)
{
	struct hcube_report *r = &hc->report;
	u64 t0 = ktime_get_ns(), gone;
	u32 round;
	int err;

	err = hcube_policy_check(policy, hcube_nhealthy(hc), hc->nv);
	if (err)
		return hcube_plan_refused(policy, err, extack);
	r->policy = policy;
	r->trigger = trigger;
	r->dry_run = false;
	hcube_bench_start();
	hcube_evacuate_all(hc, r);
	hcube_bench_mark(HCUBE_BENCH_EVACUATE);
	hcube_load_snapshot(hc, hc->m.load);
	memcpy(r->before, hc->m.load, hc->nv * sizeof(u32));
	for (round = 0;; round++) {
		err = hcube_plan(hc, &hc->plan, policy, extack);
		if (err)
			return err;
		if (!round)
			hcube_bench_mark(HCUBE_BENCH_PLAN);
		r->plan = &hc->plan;
		memcpy(r->planned, hc->plan.after, hc->nv * sizeof(u32));
		gone = hc->cnt.changed + hc->cnt.revoked;
		memcpy(hc->m.scratch, hc->m.load, hc->nv * sizeof(u32));
		r->moved += hcube_apply(hc, r, hc->m.scratch);
		hc->cnt.migrations += hc->plan.stats.migrations;
		if (gone == hc->cnt.changed + hc->cnt.revoked || round == HCUBE_REPLANS)
			break;
		/* some tasks were not where the loads said: plan again without them */
		hcube_load_snapshot(hc, hc->m.load);
	}
	hcube_moves_flush(hc);
	hcube_bench_mark(HCUBE_BENCH_MOVES);
	hcube_bench_report(hc, r->moved);
	hcube_load_snapshot(hc, r->after);
	hc->cnt.rebalances++;
	if (trigger == HCUBE_REASON_AUTO)
		hc->cnt.auto_rebalances++;
	hc->cnt.moved += r->moved;
	r->duration_ns = ktime_get_ns() - t0;
	trace_hcube_rebalance(policy, hc->plan.applied, trigger, false,
			      hc->plan.ntransfers,
			      hc->plan.stats.migrations, r->moved, r->failed,
			      r->duration_ns);
	hcube_notify(hc, HCUBE_CMD_REBALANCE_NTF, &(struct hcube_ntf){
		.reason = trigger, .report = r });
	return 0;
}

void hcube_dry_run_free(struct hcube_dry_run *dr)
{
	if (!dr)
		return;
	kvfree(dr->plan_mem);
	kfree(dr);
}

/**
 * hcube_dry_run() - plan with @policy on the loads of now, for the caller
 * @hc: the cube, locked
 * @policy: the policy to plan with
 * @count: a dry run of its own (counted, traced), not a dump's next part
 * @extack: where a refusal goes
 *
 * The plan and its report are the caller's alone: the last rebalance's
 * report and plan stay as they were, no event is sent, no task is looked
 * at, and nothing else changes but the dry-run counter. Free the result
 * with hcube_dry_run_free().
 * Return: the dry run, or an ERR_PTR(): the policy refused on this cube
 * (-EINVAL, with the core's reason), -ENOMEM.
 */
struct hcube_dry_run *hcube_dry_run(struct hcube *hc, u32 policy, bool count,
				    struct netlink_ext_ack *extack)
{
	size_t vbytes = hc->nv * sizeof(u32);
	u64 t0 = ktime_get_ns();
	struct hcube_dry_run *dr;
	struct hcube_report *r;
	int err;

	err = hcube_policy_check(policy, hcube_nhealthy(hc), hc->nv);
	if (err)
		return ERR_PTR(hcube_plan_refused(policy, err, extack));
	dr = kzalloc(struct_size(dr, loads, 3 * hc->nv), GFP_KERNEL);
	if (!dr)
		return ERR_PTR(-ENOMEM);
	dr->plan_mem = kvzalloc(hcube_plan_memsize(hc->dim), GFP_KERNEL);
	if (!dr->plan_mem) {
		kfree(dr);
		return ERR_PTR(-ENOMEM);
	}
	hcube_plan_init(&dr->plan, hc->dim, dr->plan_mem);
	r = &dr->report;
	r->policy = policy;
	r->trigger = HCUBE_REASON_ADMIN;
	r->dry_run = true;
	r->before = dr->loads;
	r->planned = dr->loads + hc->nv;
	r->after = dr->loads + 2 * hc->nv;
	hcube_load_snapshot(hc, hc->m.load);
	memcpy(r->before, hc->m.load, vbytes);
	err = hcube_plan(hc, &dr->plan, policy, extack);
	if (err) {
		hcube_dry_run_free(dr);
		return ERR_PTR(err);
	}
	r->plan = &dr->plan;
	memcpy(r->planned, dr->plan.after, vbytes);
	memcpy(r->after, r->before, vbytes);
	r->duration_ns = ktime_get_ns() - t0;
	if (!count)
		return dr;
	hc->cnt.dry_runs++;
	trace_hcube_rebalance(policy, dr->plan.applied, HCUBE_REASON_ADMIN, true,
			      dr->plan.ntransfers, dr->plan.stats.migrations,
			      0, 0, r->duration_ns);
	return dr;
}

/*
 * Give the tasks of the healthy vertices whose usable CPUs changed their
 * new masks. One that fails (a CPU coming online is not active yet, say)
 * is tried again a little later, by a pass.
 */
static void hcube_remask_dirty(struct hcube *hc)
{
	struct hcube_task *t, *tmp;
	struct hcube_walk walk;
	u32 i, failed = 0;

	for (i = 0; i < hc->nv; i++) {
		if (!hc->v[i].dirty)
			continue;
		hc->v[i].dirty = false;
		if (hc->v[i].state != HCUBE_VERTEX_HEALTHY)
			continue;
		hcube_walk_start(hc, &walk);
again:
		list_for_each_entry_safe(t, tmp, &hc->v[i].tasks, vnode) {
			if (hcube_walk_seen(&walk, t))
				continue;
			if (hcube_task_remask(hc, t, NULL))
				failed++;
			cond_resched();
			if (hcube_walk_again(hc, &walk))
				goto again;
		}
	}
	if (failed && !hc->stopping)
		mod_delayed_work(hc->wq, &hc->retry_work,
				 msecs_to_jiffies(10U << min(hc->retries, 7U)));
	else if (!failed)
		hc->retries = 0;
}

/*
 * Passes after a remask failed (a CPU coming online not active yet), and
 * after hotplug while the cpusets settle: a cpuset learns of a CPU that
 * came online in its own work, after hcube's, and until then it does not
 * allow it; the passes at 10, 20, ... 1280 ms give the tasks the CPU once
 * their cpuset has it. Bounded: then nothing runs until the next event.
 */
#define HCUBE_SETTLE_PASSES	8

static void hcube_retry_workfn(struct work_struct *work)
{
	struct hcube *hc = container_of(to_delayed_work(work), struct hcube,
					retry_work);

	hcube_lock(hc);
	if (!hc->stopping && (hc->settle || ++hc->retries <= 32))
		hcube_pass_start(hc);
	if (!hc->stopping && hc->settle) {
		hc->settle--;
		/*
		 * Tasks an evacuation left on their vertex because no cpuset
		 * had the CPUs that came online yet; at the last settle pass
		 * (hc->settle 0) they get what their cpuset allows.
		 */
		hcube_report_reset(&hc->report, hc);
		if (hcube_evacuate_all(hc, &hc->report))
			hcube_rebalance(hc, hcube_policy_for(hc, hc->cfg.policy),
					HCUBE_REASON_HOTPLUG, NULL);
		mod_delayed_work(hc->wq, &hc->retry_work,
				 msecs_to_jiffies(10U << (HCUBE_SETTLE_PASSES - hc->settle)));
	}
	hcube_unlock(hc);
}

/* The tasks one slice of the pass looks at. */
#define HCUBE_PASS_SLICE	256

/**
 * hcube_pass_start() - look at every task again, in slices
 * @hc: the cube, locked
 *
 * Each active task whose mask is not what hcube gave is dealt with as a
 * move would: changed by someone else (it leaves its vertex's load),
 * rewritten by its cpuset or by the scheduler (it gets its vertex's mask
 * again), or no longer the registrant's to move (let go). The pass runs
 * on the module's workqueue, HCUBE_PASS_SLICE tasks at a time, taking
 * hcube.lock for each slice only. It follows hotplug (cpusets rewrite
 * their tasks' masks then) and remasks that failed; not a rebalance.
 */
void hcube_pass_start(struct hcube *hc)
{
	if (hc->stopping)
		return;
	hc->pass_pos = 0;
	if (!hc->pass_on) {
		hc->pass_on = true;
		queue_work(hc->wq, &hc->pass_work);
	}
}

static void hcube_pass_workfn(struct work_struct *work)
{
	struct hcube *hc = container_of(work, struct hcube, pass_work);
	struct hcube_task *t;
	unsigned long id;
	u32 n = 0, failed = 0;

	hcube_lock(hc);
	if (hc->stopping) {
		hc->pass_on = false;
		hcube_unlock(hc);
		return;
	}
	xa_for_each_start(&hc->tasks, id, t, hc->pass_pos) {
		if (t->state == HCUBE_TASK_ACTIVE && hcube_task_remask(hc, t, NULL))
			failed++;
		if (++n == HCUBE_PASS_SLICE) {
			hc->pass_pos = id + 1;
			break;
		}
	}
	if (n < HCUBE_PASS_SLICE)
		hc->pass_on = false;
	else
		queue_work(hc->wq, &hc->pass_work);
	if (failed)
		mod_delayed_work(hc->wq, &hc->retry_work,
				 msecs_to_jiffies(10U << min(hc->retries, 7U)));
	hcube_auto_schedule(hc);
	hcube_unlock(hc);
}

/*
 * After the vertices' states changed: new masks for the tasks of the
 * vertices whose CPUs changed, tasks off vertices that can no longer run
 * them (nearest first) and, when some had to move, a rebalance with the
 * configured policy. After hotplug, a pass, and a few more while the
 * cpusets settle: cpusets rewrite their tasks' masks then, and learn of a
 * CPU that came online after hcube does.
 */
void hcube_after_change(struct hcube *hc, u32 trigger)
{
	hcube_remask_dirty(hc);
	if (trigger == HCUBE_REASON_HOTPLUG && !hc->stopping) {
		hcube_pass_start(hc);
		hc->settle = HCUBE_SETTLE_PASSES;
		mod_delayed_work(hc->wq, &hc->retry_work, msecs_to_jiffies(10));
	}
	hcube_report_reset(&hc->report, hc);
	if (!hcube_evacuate_all(hc, &hc->report)) {
		hcube_auto_schedule(hc);
		return;
	}
	hcube_rebalance(hc, hcube_policy_for(hc, hc->cfg.policy), trigger, NULL);
}

void hcube_balance_init(struct hcube *hc)
{
	u32 i;

	INIT_DELAYED_WORK(&hc->retry_work, hcube_retry_workfn);
	INIT_WORK(&hc->pass_work, hcube_pass_workfn);
	for (i = 0; i < __HCUBE_POLICY_MAX; i++) {
		const struct hcube_policy_ops *ops = hcube_policy_lookup(i);

		if (ops->flags & HCUBE_POLICY_F_FAULT_FREE)
			snprintf(hcube_fault_free_msg[i], sizeof(hcube_fault_free_msg[i]),
				 HCUBE_ERR_POLICY_FAULT_FREE_FMT, ops->name,
				 hcube_policy_lookup(ops->fallback)->name);
	}
}

/* Unload: no remask is left to retry, no pass to run. */
void hcube_balance_stop(struct hcube *hc)
{
	cancel_delayed_work_sync(&hc->retry_work);
	cancel_work_sync(&hc->pass_work);
	hc->pass_on = false;
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
	hcube_rebalance(hc, policy, HCUBE_REASON_AUTO, NULL);
	/* still due (a plan that could not balance): after the cooldown */
	hcube_auto_schedule(hc);
}
