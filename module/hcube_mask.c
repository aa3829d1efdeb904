// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: whose is a registered task's mask.
 *
 * The mask hcube gave a task is hcube's; one the kernel set itself (the
 * task's cpuset rewrote it, or the scheduler widened it after the CPUs of
 * the given mask went offline) is hcube's to set again; any other is
 * someone else's, and the task is "changed" (hcube_task.c acts on it).
 * This file only tells which, for a move (hcube_task.c) and for a listing
 * (hcube_task_state()).
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

/**
 * hcube_mask_read() - a task's mask, read as the scheduler writes it
 * @p: the task
 * @dst: its mask, copied under its pi_lock
 */
void hcube_mask_read(struct task_struct *p, struct cpumask *dst)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	cpumask_copy(dst, &p->cpus_mask);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
}

/**
 * hcube_mask_whose() - whose is a task's mask, which is not the one hcube gave
 * @hc: the cube
 * @w: the task, its mask now (read under its pi_lock) and the record's fields
 *
 * The kernel's when it is what the task's cpuset sets
 * (its CPUs, on the online CPUs: a cpuset.cpus write, a partition, a move
 * to another cgroup), or, after a CPU of the given mask went offline, what
 * the scheduler falls back to (every possible CPU, or on cgroup v2 the
 * cpuset's cpuset.cpus). Anyone else's otherwise. An affinity set by hand
 * to exactly the cpuset's CPUs cannot be told from the cpuset's own.
 *
 * Return: HCUBE_MASK_KERNEL or HCUBE_MASK_OTHER.
 */
int hcube_mask_whose(struct hcube *hc, const struct hcube_whose *w)
{
	bool offline;

	if (!hcube_cs_read(w->p, false, w->tmp, w->buf, w->size)) {
		cpumask_and(w->tmp, w->tmp, cpu_online_mask);
		cpumask_and(w->tmp2, w->now, cpu_online_mask);
		if (cpumask_equal(w->tmp, w->tmp2) &&
		    cpumask_subset(w->now, cpu_possible_mask))
			return HCUBE_MASK_KERNEL;
	}
	offline = w->vertex < hc->nv &&
		  (READ_ONCE(hc->voff[w->vertex]) != w->epoch ||
		   !cpumask_subset(w->given, cpu_active_mask));
	if (!offline)
		return HCUBE_MASK_OTHER;
	if (cpumask_equal(w->now, cpu_possible_mask))
		return HCUBE_MASK_KERNEL;
	if (!hcube_cs_read(w->p, true, w->tmp, w->buf, w->size) &&
	    cpumask_equal(w->now, w->tmp))
		return HCUBE_MASK_KERNEL;
	return HCUBE_MASK_OTHER;
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
	cpumask_var_t given, now, a, b;
	u32 state = READ_ONCE(t->state);

	if (state != HCUBE_TASK_ACTIVE ||
	    hcube_mask_equal(&t->task->cpus_mask, hcube_task_given(t)))
		return state;
	if (!alloc_cpumask_var(&given, GFP_KERNEL))
		return state;
	if (!alloc_cpumask_var(&now, GFP_KERNEL))
		goto free_given;
	if (!alloc_cpumask_var(&a, GFP_KERNEL))
		goto free_now;
	if (!alloc_cpumask_var(&b, GFP_KERNEL))
		goto free_a;
	/* a move may change them meanwhile: a snapshot */
	cpumask_copy(given, hcube_task_given(t));
	w.vertex = READ_ONCE(t->vertex);
	w.epoch = READ_ONCE(t->epoch);
	hcube_mask_read(t->task, now);
	w.given = given;
	w.now = now;
	w.tmp = a;
	w.tmp2 = b;
	if (!cpumask_equal(now, given) &&
	    hcube_mask_whose(hc, &w) == HCUBE_MASK_OTHER)
		state = HCUBE_TASK_CHANGED;
	free_cpumask_var(b);
free_a:
	free_cpumask_var(a);
free_now:
	free_cpumask_var(now);
free_given:
	free_cpumask_var(given);
	return state;
}
