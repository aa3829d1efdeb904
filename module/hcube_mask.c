// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: whose is a registered task's mask, decided by what happened to
 * it, never by what the mask looks like.
 *
 * - A task's mask is hcube's only while it equals the mask hcube gave it
 *   (the record's given mask). hcube then may set it again.
 * - A mask that differs is the kernel's own when the kernel can be shown to
 *   have set it since hcube did: the task's cpuset rewrote it (the mask is
 *   the cpuset's CPUs, and since hcube set the mask the task moved to
 *   another cpuset, or the cpuset's effective CPUs are not those hcube
 *   checked the mask against (for the root's, whose effective CPUs follow
 *   hotplug while its tasks are not rewritten, by more than hotplug
 *   explains), or, for a cpuset other than the root's, one of its CPUs
 *   went off or online); or it is the cpuset's CPUs but for CPUs that were
 *   offline at some time since hcube set the mask (the cpuset rewrote it
 *   while they were, and the root cgroup's tasks are not rewritten when
 *   they come back); or the scheduler fell back to every CPU (or on
 *   cgroup v2 the cpuset's cpuset.cpus) after every CPU of the given mask
 *   was offline at some time since hcube gave it. hcube sets such a mask
 *   again too.
 * - Any other mask is someone else's: the task is "changed" (hcube_task.c
 *   leaves it alone from then on). So is a mask equal to the cpuset's CPUs
 *   when nothing changed the cpuset: `taskset -p <all CPUs>` is kept.
 *   Limit: a cpuset whose CPUs changed and came back to what they were
 *   between two looks of hcube at the task (a partition made and removed,
 *   say) leaves no trace hcube can read on 6.1, which has no cpuset
 *   generation nor hook; such a task is taken for changed.
 * - A new thread or child is its creator's job's only when the mask it
 *   inherited is one hcube gave its creator (hcube_mask_inherited()); a
 *   creator's own pin, and anything an unregistered task creates, is not.
 *
 * This file only tells which, for a move (hcube_task.c), a birth or the
 * scan (hcube_events.c) and a listing (hcube_task_state()).
 */
#include <linux/sched.h>
#include <linux/slab.h>
#include "hcube.h"

/**
 * hcube_mask_vertex() - the vertex whose CPU group holds all of @mask
 * @hc: the cube, locked or not (reads hcube.cpu_vertex only)
 * @mask: a mask
 *
 * A mask hcube gives is within one vertex: a task whose mask is not
 * cannot carry one. Stops at the first CPU of another vertex.
 * Return: the vertex, or -1.
 */
int hcube_mask_vertex(struct hcube *hc, const struct cpumask *mask)
{
	unsigned int cpu = cpumask_first(mask);
	u16 v;

	if (cpu >= nr_cpu_ids)
		return -1;
	v = READ_ONCE(hc->cpu_vertex[cpu]);
	if (v == HCUBE_NO_VERTEX)
		return -1;
	for_each_cpu(cpu, mask)
		if (READ_ONCE(hc->cpu_vertex[cpu]) != v)
			return -1;
	return v;
}

/*
 * Was every CPU of @cpus offline at some time since hcube's hotplug count
 * was @gen: it went offline since, or it came online since (it was
 * offline then)?
 */
static bool hcube_was_offline(struct hcube *hc, const struct cpumask *cpus, u32 gen)
{
	unsigned int cpu;

	for_each_cpu(cpu, cpus)
		if ((s32)(READ_ONCE(hc->cpu_off_gen[cpu]) - gen) <= 0 &&
		    (s32)(READ_ONCE(hc->cpu_on_gen[cpu]) - gen) <= 0)
			return false;
	return !cpumask_empty(cpus);
}

/*
 * Did a CPU of @cpus go off or online since hcube's hotplug count was
 * @gen? On cgroup v2 a child cpuset rewrites its tasks both ways.
 */
static bool hcube_any_hotplugged(struct hcube *hc, const struct cpumask *cpus, u32 gen)
{
	unsigned int cpu;

	for_each_cpu(cpu, cpus)
		if ((s32)(READ_ONCE(hc->cpu_off_gen[cpu]) - gen) > 0 ||
		    (s32)(READ_ONCE(hc->cpu_on_gen[cpu]) - gen) > 0)
			return true;
	return false;
}

/*
 * Is every difference between a cpuset's CPUs @then, when hcube's hotplug
 * count was @gen, and @now CPU hotplug's doing? A CPU it lost is offline
 * now; a CPU it gained came online since. @diff: scratch.
 */
static bool hcube_hotplug_explains(struct hcube *hc, const struct cpumask *now,
				   const struct cpumask *then, struct cpumask *diff, u32 gen)
{
	unsigned int cpu;

	if (cpumask_andnot(diff, then, now) && cpumask_intersects(diff, cpu_online_mask))
		return false;
	cpumask_andnot(diff, now, then);
	for_each_cpu(cpu, diff)
		if ((s32)(READ_ONCE(hc->cpu_on_gen[cpu]) - gen) <= 0)
			return false;
	return true;
}

/*
 * Did the scheduler fall back for a task whose mask was @given at hcube's
 * hotplug count @gen? Only when every CPU of it went offline: since then,
 * or it was offline already (hcube gave the mask before it applied the
 * offline).
 */
static bool hcube_fell_back(struct hcube *hc, const struct cpumask *given, u32 gen)
{
	unsigned int cpu;

	for_each_cpu(cpu, given)
		if ((s32)(READ_ONCE(hc->cpu_off_gen[cpu]) - gen) <= 0 && cpu_online(cpu))
			return false;
	return !cpumask_empty(given);
}

/**
 * hcube_mask_whose() - whose is a task's mask, which is not the one hcube gave
 * @hc: the cube
 * @w: the task, its mask now (hcube_mask_snap()) and the record's fields
 *
 * See the top of this file. May sleep (reads the task's cpuset).
 * Return: HCUBE_MASK_KERNEL or HCUBE_MASK_OTHER.
 */
int hcube_mask_whose(struct hcube *hc, const struct hcube_whose *w)
{
	struct hcube_cs_id id;
	bool offline;

	if (!hcube_cs_read(w->p, false, w->tmp, w->buf, w->size, &id)) {
		bool moved = id.serial != w->cs_serial;
		/*
		 * The root cpuset's effective CPUs follow hotplug, but its
		 * tasks are not rewritten then: only a partition counts.
		 */
		bool cs_changed = !cpumask_equal(w->tmp, w->cs) &&
				  (!id.root ||
				   !hcube_hotplug_explains(hc, w->tmp, w->cs, w->tmp2, w->hp_gen));
		/* a child cpuset rewrites its tasks when one of its CPUs comes or goes */
		bool hotplug = !id.root &&
			       (hcube_any_hotplugged(hc, w->cs, w->hp_gen) ||
				hcube_any_hotplugged(hc, w->tmp, w->hp_gen));

		cpumask_and(w->tmp, w->tmp, cpu_online_mask);
		cpumask_and(w->tmp2, w->now, cpu_online_mask);
		if (cpumask_equal(w->tmp, w->tmp2) &&
		    cpumask_subset(w->now, cpu_possible_mask) &&
		    (moved || cs_changed || hotplug))
			return HCUBE_MASK_KERNEL;
		/*
		 * What it allows but for CPUs that were offline since: the
		 * cpuset rewrote it while they were (the root's tasks are
		 * not rewritten when they come back).
		 */
		if (cpumask_subset(w->tmp2, w->tmp) &&
		    cpumask_andnot(w->tmp, w->tmp, w->tmp2) &&
		    hcube_was_offline(hc, w->tmp, w->hp_gen))
			return HCUBE_MASK_KERNEL;
	}
	/*
	 * The scheduler's fallback, which it takes only when no CPU of the
	 * mask is active: every CPU of the given mask went offline, or was
	 * offline at some time since hcube set the mask (it may have come
	 * back before this look), or none is active now (going offline
	 * before hcube counted it).
	 */
	offline = hcube_fell_back(hc, w->given, w->hp_gen) ||
		  hcube_was_offline(hc, w->given, w->hp_gen) ||
		  !cpumask_intersects(w->given, cpu_active_mask);
	if (!offline)
		return HCUBE_MASK_OTHER;
	if (cpumask_equal(w->now, cpu_possible_mask))
		return HCUBE_MASK_KERNEL;
	if (!hcube_cs_read(w->p, true, w->tmp, w->buf, w->size, NULL) &&
	    cpumask_equal(w->now, w->tmp))
		return HCUBE_MASK_KERNEL;
	return HCUBE_MASK_OTHER;
}

/**
 * hcube_mask_inherited() - is a new task's mask one hcube gave its creator?
 * @c: the creator's record (RCU or referenced)
 * @inherited: the new task's mask at its creation
 * @creator_now: the creator's mask now
 *
 * Yes when it is the creator's given mask (a registered creator: not for
 * one unregistered since, whose given mask is its original affinity
 * given back), or the one hcube gave the creator before that while the
 * creator no longer has it (the task was created while hcube changed its
 * creator's mask: a move, or the restore of an unregistration). A mask
 * the creator set itself, and the same mask it still has, are not.
 * Any context; a torn read of @c's masks while hcube changes them (above
 * BITS_PER_LONG CPUs) answers no: the task is left alone.
 */
bool hcube_mask_inherited(struct hcube_task *c, const struct cpumask *inherited,
			  const struct cpumask *creator_now)
{
	if (!test_bit(HCUBE_TF_REMOVED, &c->flags) &&
	    hcube_mask_equal(inherited, hcube_task_given(c)))
		return true;
	return hcube_mask_equal(inherited, hcube_task_prev(c)) &&
	       !hcube_mask_equal(inherited, creator_now);
}

/**
 * hcube_mask_inherited_at() - did a task created at @start inherit a mask
 *	hcube gave its creator?
 * @c: the creator's record, under hcube.lock (its masks and times stable)
 * @mask: the task's mask now
 * @start: the task's start time (task_struct.start_time)
 *
 * For the lost-creation scan, which looks at a task after its creation,
 * when its creator's mask may have changed since: which mask the creator
 * had when the task was created is told by when hcube gave its masks, not
 * by the creator's mask now. Yes when @mask is the creator's given mask,
 * given since before @start (for a creator still registered), or the mask
 * hcube gave before that, given before @start and replaced after it. A
 * task created while hcube changed its creator's mask (copied before the
 * change, its start time taken after) is not shown to be one, nor is a
 * task created after its creator's unregistration that pinned itself to
 * the creator's old mask: they are left alone.
 */
bool hcube_mask_inherited_at(struct hcube_task *c, const struct cpumask *mask,
			     u64 start)
{
	if (!c->given_ns)
		return false;
	if (!test_bit(HCUBE_TF_REMOVED, &c->flags) && start >= c->given_ns &&
	    hcube_mask_equal(mask, hcube_task_given(c)))
		return true;
	return c->prev_ns && start >= c->prev_ns && start < c->given_ns &&
	       hcube_mask_equal(mask, hcube_task_prev(c));
}

/**
 * hcube_task_state() - the state a listing shows for @t
 * @hc: the cube (not locked: a dump)
 * @t: the record, referenced
 * @buf: room for a cpuset file's text
 * @size: its size
 *
 * An active task whose mask someone else changed shows as changed before
 * hcube acts on it.
 * Return: enum hcube_task_state.
 */
u32 hcube_task_state(struct hcube *hc, struct hcube_task *t, char *buf, size_t size)
{
	struct hcube_whose w = { .p = t->task, .buf = buf, .size = size };
	cpumask_var_t given, now, a, b, cs;
	u32 state = READ_ONCE(t->state);

	if (state != HCUBE_TASK_ACTIVE)
		return state;
	if (!alloc_cpumask_var(&given, GFP_KERNEL))
		return state;
	if (!alloc_cpumask_var(&now, GFP_KERNEL))
		goto free_given;
	if (!alloc_cpumask_var(&a, GFP_KERNEL))
		goto free_now;
	if (!alloc_cpumask_var(&b, GFP_KERNEL))
		goto free_a;
	if (!alloc_cpumask_var(&cs, GFP_KERNEL))
		goto free_b;
	/* a move may change them meanwhile: a snapshot */
	cpumask_copy(given, hcube_task_given(t));
	cpumask_copy(cs, hcube_task_cs(t));
	w.vertex = READ_ONCE(t->vertex);
	w.epoch = READ_ONCE(t->epoch);
	w.hp_gen = READ_ONCE(t->hp_gen);
	w.cs_serial = READ_ONCE(t->cs_serial);
	hcube_mask_snap(t->task, now);
	w.given = given;
	w.now = now;
	w.cs = cs;
	w.tmp = a;
	w.tmp2 = b;
	if (!cpumask_equal(now, given) &&
	    hcube_mask_whose(hc, &w) == HCUBE_MASK_OTHER)
		state = HCUBE_TASK_CHANGED;
	free_cpumask_var(cs);
free_b:
	free_cpumask_var(b);
free_a:
	free_cpumask_var(a);
free_now:
	free_cpumask_var(now);
free_given:
	free_cpumask_var(given);
	return state;
}
