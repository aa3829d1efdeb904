// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: what a task's cpuset allows.
 *
 * sched_setaffinity() gives a task only CPUs its cpuset allows
 * (cpuset_cpus_allowed()), then reads the cpuset again and, when a cpuset
 * write came in between, sets the task's mask once more. A module can do
 * neither directly: set_cpus_allowed_ptr() does not look at the cpuset,
 * and cpuset_cpus_allowed() is not exported. So hcube reads what the
 * cpuset's own file cpuset.cpus.effective says (cpuset.effective_cpus on
 * a v1 hierarchy): the file's kernfs node, found under the cgroup of the
 * task's cpuset, and its show function, called as a read of the file
 * calls it, under the cpuset's own callback_lock. The read is made while
 * the cpuset is online, inside one RCU read-side section: a cpuset that
 * is being removed is not read (it cannot be offlined before a grace
 * period passes). With cgroup v2 partitions the root cgroup's file shows
 * the CPUs the partitions took away, so hcube never gives those.
 *
 * An operation (hcube.lock held) reads each cpuset once and keeps what it
 * read in struct hcube_cs_cache; the masks it sets are then verified
 * against a fresh read (hcube_task.c, hcube_moves_flush()), as
 * sched_setaffinity() does: a cpuset write that came in between is seen
 * and the task gets a mask within the new CPUs.
 */
#include <linux/cgroup.h>
#include <linux/cpu.h>
#include <linux/kernfs.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include "hcube.h"

/* Room for a cpuset file's text: a cpulist of every CPU, at worst. */
static size_t hcube_cs_bufsize(void)
{
	return max_t(size_t, PAGE_SIZE, 6 * nr_cpu_ids + 2);
}

#ifdef CONFIG_CPUSETS

static bool hcube_cs_on(void)
{
	return cgroup_subsys_enabled(cpuset_cgrp_subsys);
}

/* The files, v2 then v1 (with and without the "noprefix" mount option). */
static const char *const hcube_cs_effective_v2[] = { "cpuset.cpus.effective", NULL };
static const char *const hcube_cs_effective_v1[] = {
	"cpuset.effective_cpus", "effective_cpus", NULL };
static const char *const hcube_cs_cpus_v2[] = { "cpuset.cpus", NULL };

/*
 * The CPUs that one of the files @names of @css's cgroup shows, into @dst.
 * -ENOENT: no such file (the root cgroup has no cpuset.cpus), -ENODEV:
 * the cpuset is going away, -E2BIG: @size was too small.
 */
static int hcube_cs_show(struct cgroup_subsys_state *css,
			 const char *const *names, struct cpumask *dst,
			 char *buf, size_t size)
{
	struct kernfs_open_file of = {};
	struct seq_file sf = {};
	struct kernfs_node *kn = NULL;
	struct cftype *cft;
	int err, i;

	for (i = 0; names[i] && !kn; i++)
		kn = kernfs_find_and_get(css->cgroup->kn, names[i]);
	if (!kn)
		return -ENOENT;
	cft = kn->priv;
	err = -ENOENT;
	if (kernfs_type(kn) != KERNFS_FILE || !cft || cft->ss != css->ss ||
	    !cft->seq_show)
		goto out;
	of.kn = kn;
	sf.buf = buf;
	sf.size = size - 1;
	sf.private = &of;
	rcu_read_lock();
	if (css_tryget_online(css)) {
		err = cft->seq_show(&sf, NULL);
		css_put(css);
	} else {
		err = -ENODEV;
	}
	rcu_read_unlock();
	if (err)
		goto out;
	if (sf.count >= sf.size) {
		err = -E2BIG;
		goto out;
	}
	buf[sf.count] = 0;
	if (sf.count && buf[sf.count - 1] == '\n')
		buf[sf.count - 1] = 0;
	err = cpulist_parse(buf, dst);
out:
	kernfs_put(kn);
	return err;
}

/*
 * What @css's cpuset lets its tasks use, as cpuset_cpus_allowed() sees
 * it: its effective CPUs, or those of its nearest ancestor that has one
 * online.
 */
static int hcube_cs_effective(struct cgroup_subsys_state *css,
			      struct cpumask *dst, char *buf, size_t size)
{
	const char *const *names = cgroup_subsys_on_dfl(cpuset_cgrp_subsys) ?
				   hcube_cs_effective_v2 : hcube_cs_effective_v1;
	int err;

	for (; css; css = css->parent) {
		err = hcube_cs_show(css, names, dst, buf, size);
		if (err)
			return err;
		cpumask_and(dst, dst, cpu_possible_mask);
		if (cpumask_intersects(dst, cpu_online_mask))
			return 0;
	}
	cpumask_copy(dst, cpu_online_mask);
	return 0;
}

/*
 * What the scheduler falls back to when every CPU of a task's mask went
 * offline (cpuset_cpus_allowed_fallback()): on cgroup v2 its cpuset's
 * cpuset.cpus (every possible CPU for the root cgroup); on v1, none.
 */
static int hcube_cs_fallback(struct cgroup_subsys_state *css,
			     struct cpumask *dst, char *buf, size_t size)
{
	int err;

	if (!cgroup_subsys_on_dfl(cpuset_cgrp_subsys))
		return -ENOENT;
	if (!css->parent) {
		cpumask_copy(dst, cpu_possible_mask);
		return 0;
	}
	err = hcube_cs_show(css, hcube_cs_cpus_v2, dst, buf, size);
	if (!err && !cpumask_subset(dst, cpu_possible_mask))
		err = -ENOENT;
	return err;
}

/**
 * hcube_cs_serial() - the cpuset @p is in now
 * @p: the task
 *
 * A css's serial_nr is never reused: it names the cpuset without a
 * reference, for the cache and for a record (hcube_mask.c).
 * Return: its cpuset css's serial_nr; 0 without cpusets.
 */
u64 hcube_cs_serial(struct task_struct *p)
{
	u64 serial;

	if (!hcube_cs_on())
		return 0;
	rcu_read_lock();
	serial = task_css(p, cpuset_cgrp_id)->serial_nr;
	rcu_read_unlock();
	return serial;
}

/**
 * hcube_cs_read() - read what @p's cpuset allows, now
 * @p: the task
 * @fallback: the CPUs the scheduler falls back to (see hcube_cs_fallback())
 *	instead of those sched_setaffinity() allows
 * @dst: the CPUs
 * @buf: room for the file's text
 * @size: its size
 * @id: (may be NULL) which cpuset was read
 *
 * One reference on the css, taken once, for the whole read: what is read
 * and what @id names are the same cpuset, however the task moves.
 * Return: 0, or -errno when the cpuset could not be read.
 */
int hcube_cs_read(struct task_struct *p, bool fallback, struct cpumask *dst,
		  char *buf, size_t size, struct hcube_cs_id *id)
{
	struct cgroup_subsys_state *css;
	int err;

	if (!hcube_cs_on()) {
		if (id)
			*id = (struct hcube_cs_id){ .serial = 0, .root = true };
		cpumask_copy(dst, fallback ? cpu_possible_mask : cpu_online_mask);
		return 0;
	}
	css = task_get_css(p, cpuset_cgrp_id);
	if (id)
		*id = (struct hcube_cs_id){ .serial = css->serial_nr, .root = !css->parent };
	err = fallback ? hcube_cs_fallback(css, dst, buf, size) :
			 hcube_cs_effective(css, dst, buf, size);
	css_put(css);
	return err;
}

#else	/* !CONFIG_CPUSETS */

u64 hcube_cs_serial(struct task_struct *p)
{
	return 0;
}

int hcube_cs_read(struct task_struct *p, bool fallback, struct cpumask *dst,
		  char *buf, size_t size, struct hcube_cs_id *id)
{
	if (id)
		*id = (struct hcube_cs_id){ .serial = 0, .root = true };
	cpumask_copy(dst, fallback ? cpu_possible_mask : cpu_online_mask);
	return 0;
}

#endif

/*
 * The cache holds no reference: a cpuset is named by its css's serial_nr,
 * which no other css ever has. An entry that could not be read is empty
 * (e[i].ok false) and matches nothing.
 */

/* The cache slot of the cpuset @serial, or -1. */
static int hcube_cs_index(struct hcube_cs_cache *c, u64 serial)
{
	u32 i;

	for (i = 0; i < c->n; i++)
		if (c->e[i].ok && c->e[i].serial == serial)
			return i;
	return -1;
}

/**
 * hcube_cs_lookup() - what the operation read of the cpuset @serial already
 * @hc: the cube, locked
 * @serial: a cpuset (hcube_cs_serial())
 *
 * Return: the CPUs it allows, or NULL when it was not read yet.
 */
const struct cpumask *hcube_cs_lookup(struct hcube *hc, u64 serial)
{
	int i = hcube_cs_index(&hc->cs, serial);

	return i < 0 ? NULL : hc->cs.e[i].allowed;
}

/* A cache slot, emptied: the next free, else the oldest. */
static u32 hcube_cs_slot(struct hcube_cs_cache *c)
{
	u32 i;

	if (c->n < HCUBE_CS_ENTRIES) {
		i = c->n++;
	} else {
		i = c->next;
		c->next = (c->next + 1) % HCUBE_CS_ENTRIES;
	}
	c->e[i].ok = false;
	c->e[i].fresh = c->gen - 1;
	return i;
}

/* Read @p's cpuset into slot @i; the slot stays empty on error. */
static int hcube_cs_fill(struct hcube_cs_cache *c, u32 i, struct task_struct *p)
{
	u64 t0 = hcube_bench_now();
	struct hcube_cs_id id;
	int err = hcube_cs_read(p, false, c->e[i].allowed, c->buf, c->bufsize, &id);

	hcube_bench_part(HCUBE_BENCH_CS_READ, t0);
	c->e[i].ok = !err;
	if (err)
		return err;
	c->e[i].serial = id.serial;
	c->e[i].fresh = c->gen;
	return 0;
}

/**
 * hcube_cs_allowed() - what @p's cpuset allows, read once an operation
 * @hc: the cube, locked
 * @p: the task
 * @serial: the cpuset that was read (what the CPUs are of)
 *
 * The first look-up of a cpuset in an operation reads it; the others get
 * what was read. The caller does not hold the CPU hotplug lock.
 * Return: the CPUs, or an ERR_PTR when the cpuset could not be read.
 */
const struct cpumask *hcube_cs_allowed(struct hcube *hc, struct task_struct *p,
				       u64 *serial)
{
	struct hcube_cs_cache *c = &hc->cs;
	int i = hcube_cs_index(c, hcube_cs_serial(p));
	int err;

	if (i < 0) {
		i = hcube_cs_slot(c);
		err = hcube_cs_fill(c, i, p);
		if (err)
			return ERR_PTR(err);
	}
	*serial = c->e[i].serial;
	return c->e[i].allowed;
}

/**
 * hcube_cs_new_round() - start a verification round
 * @hc: the cube, locked
 *
 * What hcube_cs_refresh() reads from now on is read again, once per cpuset:
 * after the masks the round verifies were set.
 */
void hcube_cs_new_round(struct hcube *hc)
{
	hc->cs.gen++;
}

/**
 * hcube_cs_refresh() - what @p's cpuset allows, read again this round
 * @hc: the cube, locked
 * @p: the task
 * @dst: the CPUs
 *
 * For the verification of masks set meanwhile: the first look-up of a
 * cpuset in a round (hcube_cs_new_round()) reads it afresh, and replaces
 * what the operation keeps for it; the others of the round get that.
 * Return: 0, or -errno.
 */
int hcube_cs_refresh(struct hcube *hc, struct task_struct *p, struct cpumask *dst)
{
	struct hcube_cs_cache *c = &hc->cs;
	int i = hcube_cs_index(c, hcube_cs_serial(p));
	int err;

	if (i < 0 || c->e[i].fresh != c->gen) {
		/* read again in place: the slot is emptied first, as it may fail */
		if (i < 0)
			i = hcube_cs_slot(c);
		err = hcube_cs_fill(c, i, p);
		if (err)
			return err;
	}
	cpumask_copy(dst, c->e[i].allowed);
	return 0;
}

/**
 * hcube_cs_fallback_of() - what the scheduler falls back to for @p
 * @hc: the cube, locked
 * @p: the task
 * @dst: the CPUs
 *
 * Return: 0, or -ENOENT when it falls back to every possible CPU only.
 */
int hcube_cs_fallback_of(struct hcube *hc, struct task_struct *p, struct cpumask *dst)
{
	return hcube_cs_read(p, true, dst, hc->cs.buf, hc->cs.bufsize, NULL);
}

/* The end of an operation: what it read is forgotten. */
void hcube_cs_forget(struct hcube *hc)
{
	struct hcube_cs_cache *c = &hc->cs;

	c->n = 0;
	c->next = 0;
}

/**
 * hcube_cs_within() - the CPUs of @want that @p may be given back
 * @p: the task
 * @want: an affinity it had (its original one)
 * @allowed: what its cpuset allows (hcube_cs_read())
 * @dst: the CPUs
 * @buf: room for a cpuset file's text
 * @size: its size
 *
 * Those its cpuset allows now, or all it allows when that is none of them;
 * and the CPUs of @want that are offline now, when its cpuset lists them
 * (cpuset.cpus, on cgroup v2: every possible CPU for the root cgroup), as
 * the scheduler's own fallback gives them: a CPU that is offline for a
 * moment is not taken from a task for good.
 */
void hcube_cs_within(struct task_struct *p, const struct cpumask *want,
		     const struct cpumask *allowed, struct cpumask *dst,
		     char *buf, size_t size)
{
	cpumask_var_t listed;

	if (!cpumask_and(dst, want, allowed)) {
		cpumask_copy(dst, allowed);
		return;
	}
	if (cpumask_subset(want, cpu_online_mask) ||
	    !alloc_cpumask_var(&listed, GFP_KERNEL))
		return;
	if (!hcube_cs_read(p, true, listed, buf, size, NULL)) {
		cpumask_and(listed, listed, want);
		cpumask_andnot(listed, listed, cpu_online_mask);
		cpumask_or(dst, dst, listed);
	}
	free_cpumask_var(listed);
}

/**
 * hcube_set_within() - give @p the CPUs of @want that its cpuset allows
 * @p: the task
 * @want: the CPUs; when its cpuset allows none of them, all it allows
 * @expect: the mask @p must still have: hcube's, judged before
 * @creds: its registrant's credentials, which must still allow the change
 *
 * sched_setaffinity()'s way, for a task hcube lets go of outside an
 * operation (a new child given its creator's original affinity): set,
 * read the cpuset again, and set again if it changed meanwhile. Check,
 * then set: what sleeps (the cpuset read, the CPU hotplug lock) comes
 * first, then the tests of @p (its mask against @expect, or against the
 * mask set for a second set; its registrant's right to change it; a
 * task hcube may not change), then the change; a mask someone set
 * meanwhile is kept (-ESTALE), a task its registrant may no longer
 * change is not touched (-EPERM). Process context; no lock held but
 * hcube.lock (not the CPU hotplug lock: see hcube_moves_unlock_cpus()).
 * Return: 0, or -errno.
 */
int hcube_set_within(struct task_struct *p, const struct cpumask *want,
		     const struct cpumask *expect, const struct hcube_creds *creds)
{
	size_t size = hcube_cs_bufsize();
	cpumask_var_t allowed, mask, set;
	int err = -ENOMEM, tries;
	char *buf;

	buf = kvmalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (!alloc_cpumask_var(&allowed, GFP_KERNEL))
		goto free_buf;
	if (!alloc_cpumask_var(&mask, GFP_KERNEL))
		goto free_allowed;
	if (!alloc_cpumask_var(&set, GFP_KERNEL))
		goto free_mask;
	cpumask_copy(set, expect);
	err = hcube_cs_read(p, false, allowed, buf, size, NULL);
	for (tries = 0; !err && tries < 4; tries++) {
		hcube_cs_within(p, want, allowed, mask, buf, size);
		cpus_read_lock();
		if (p->flags & PF_EXITING)
			err = -ESRCH;
		else if (!hcube_mask_is(p, set))
			err = -ESTALE;
		else if ((p->flags & (PF_KTHREAD | PF_IO_WORKER | PF_NO_SETAFFINITY)) ||
			 READ_ONCE(p->policy) == SCHED_DEADLINE ||
			 !hcube_creds_may_set(creds, p))
			err = -EPERM;
		else
			err = set_cpus_allowed_ptr(p, mask);
		cpus_read_unlock();
		cpumask_copy(set, mask);
		if (!err)
			err = hcube_cs_read(p, false, allowed, buf, size, NULL);
		if (err)
			break;
		/* the offline CPUs it was given back are none of a cpuset's */
		cpumask_and(mask, mask, cpu_online_mask);
		if (cpumask_subset(mask, allowed))
			break;
	}
	free_cpumask_var(set);
free_mask:
	free_cpumask_var(mask);
free_allowed:
	free_cpumask_var(allowed);
free_buf:
	kvfree(buf);
	return err;
}

int hcube_cs_init(struct hcube *hc)
{
	struct hcube_cs_cache *c = &hc->cs;
	u32 i;

	c->bufsize = hcube_cs_bufsize();
	c->buf = kvmalloc(c->bufsize, GFP_KERNEL);
	if (!c->buf || !zalloc_cpumask_var(&c->seen, GFP_KERNEL)) {
		hcube_cs_exit(hc);
		return -ENOMEM;
	}
	for (i = 0; i < HCUBE_CS_ENTRIES; i++) {
		if (!alloc_cpumask_var(&c->e[i].allowed, GFP_KERNEL)) {
			hcube_cs_exit(hc);
			return -ENOMEM;
		}
	}
	return 0;
}

void hcube_cs_exit(struct hcube *hc)
{
	struct hcube_cs_cache *c = &hc->cs;
	u32 i;

	hcube_cs_forget(hc);
	for (i = 0; i < HCUBE_CS_ENTRIES; i++)
		free_cpumask_var(c->e[i].allowed);
	free_cpumask_var(c->seen);
	kvfree(c->buf);
	c->buf = NULL;
}
