// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: the records of registered tasks, their lifetime and their hash.
 *
 * A record is referenced (hcube_task_put() drops a reference) and freed
 * after a grace period, so the tracepoint probes find records by task in
 * hcube.by_task, a resizable hash, under RCU. A record unregistered by a
 * command stays in the hash as a tombstone, not linked and not counted,
 * until its task exits (hcube_task.c says why).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/rhashtable.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include "hcube.h"

static struct kmem_cache *hcube_task_cache;
static atomic_t hcube_task_objs;	/* records not yet freed */
static DECLARE_WAIT_QUEUE_HEAD(hcube_task_idle);	/* woken at the last free */

static const struct rhashtable_params hcube_hash_params = {
	.head_offset = offsetof(struct hcube_task, hnode),
	.key_offset = offsetof(struct hcube_task, task),
	.key_len = sizeof(struct task_struct *),
	.automatic_shrinking = true,
};

int hcube_tasks_init(struct hcube *hc)
{
	int err;

	hcube_task_cache = kmem_cache_create("hcube_task",
					     sizeof(struct hcube_task) +
					     HCUBE_TASK_NMASKS * cpumask_size(),
					     0, SLAB_HWCACHE_ALIGN, NULL);
	if (!hcube_task_cache)
		return -ENOMEM;
	err = rhashtable_init(&hc->by_task, &hcube_hash_params);
	if (err)
		kmem_cache_destroy(hcube_task_cache);
	return err;
}

/*
 * Unload, after everything that takes or drops a reference has stopped:
 * the cache goes only once its last record is freed. A record's free may
 * queue another (a pending record's put of its creator's), so no number
 * of rcu_barrier() calls is known to be enough: wait for the count to
 * reach zero, then one barrier for the callback that woke us to return
 * (it runs this module's code). A reference that is never dropped is a
 * bug; it keeps the unload waiting, saying so, rather than destroying a
 * cache whose objects a later put would free.
 */
void hcube_tasks_exit(struct hcube *hc)
{
	while (!wait_event_timeout(hcube_task_idle,
				   !atomic_read(&hcube_task_objs), 10 * HZ))
		pr_warn("unload: waiting for %d task records still referenced\n",
			atomic_read(&hcube_task_objs));
	rcu_barrier();
	kmem_cache_destroy(hcube_task_cache);
}

static void hcube_task_sweep_one(void *ptr, void *arg)
{
	struct hcube_task *t = ptr;

	set_bit(HCUBE_TF_GONE, &t->flags);
	hcube_task_put(t);
}

/* Unload: the records still in the hash (tombstones) go with it. */
void hcube_tasks_sweep(struct hcube *hc)
{
	rhashtable_free_and_destroy(&hc->by_task, hcube_task_sweep_one, hc);
	atomic_set(&hc->nhashed, 0);
}

struct hcube_task *hcube_task_alloc(gfp_t gfp)
{
	struct hcube_task *t = kmem_cache_zalloc(hcube_task_cache, gfp);

	if (!t)
		return NULL;
	atomic_inc(&hcube_task_objs);
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
	hcube_creds_put(t->creds);
	if (t->creator_rec)
		hcube_task_put(t->creator_rec);
	kmem_cache_free(hcube_task_cache, t);
	if (atomic_dec_and_test(&hcube_task_objs))
		wake_up(&hcube_task_idle);
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
	struct hcube_task *t;

	rcu_read_lock();
	t = rhashtable_lookup(&hc->by_task, &p, hcube_hash_params);
	if (t && test_bit(HCUBE_TF_GONE, &t->flags))
		t = NULL;
	rcu_read_unlock();
	return t;
}

/**
 * hcube_task_hash_add() - put a record in the hash
 * @hc: the cube
 * @t: the record, its task set
 *
 * A tombstone of the task is replaced. The hash owns the caller's
 * reference on success.
 * Return: 0, -EEXIST when a live record of the task is there, -ENOMEM.
 */
int hcube_task_hash_add(struct hcube *hc, struct hcube_task *t)
{
	struct hcube_task *old;
	int err;

	t->reg_ns = ktime_get_ns();
	spin_lock(&hc->hash_lock);
	old = rhashtable_lookup_fast(&hc->by_task, &t->task, hcube_hash_params);
	if (old && (!test_bit(HCUBE_TF_REMOVED, &old->flags) ||
		    test_bit(HCUBE_TF_LINKED, &old->flags))) {
		spin_unlock(&hc->hash_lock);
		return -EEXIST;
	}
	if (old) {
		err = rhashtable_replace_fast(&hc->by_task, &old->hnode, &t->hnode,
					      hcube_hash_params);
		if (!err)
			set_bit(HCUBE_TF_GONE, &old->flags);
	} else {
		err = rhashtable_insert_fast(&hc->by_task, &t->hnode,
					     hcube_hash_params);
		if (!err)
			atomic_inc(&hc->nhashed);
	}
	spin_unlock(&hc->hash_lock);
	if (err)
		return -ENOMEM;
	if (old)
		hcube_task_put(old);
	return 0;
}

/* Take @t out of the hash for good and drop the hash's reference. */
void hcube_task_hash_del(struct hcube *hc, struct hcube_task *t)
{
	spin_lock(&hc->hash_lock);
	if (test_and_set_bit(HCUBE_TF_GONE, &t->flags)) {
		spin_unlock(&hc->hash_lock);
		return;
	}
	rhashtable_remove_fast(&hc->by_task, &t->hnode, hcube_hash_params);
	atomic_dec(&hc->nhashed);
	spin_unlock(&hc->hash_lock);
	hcube_task_put(t);
}
