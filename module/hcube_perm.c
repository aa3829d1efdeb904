// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: who may have hcube change a task's affinity.
 *
 * The rule is sched_setaffinity()'s (kernel/sched/core.c): the task's
 * owner (the caller's effective uid is the task's uid or effective uid),
 * or CAP_SYS_NICE in the task's user namespace; and then
 * security_task_setscheduler(), whose commoncap part, always there
 * (cap_task_setscheduler(), cap_safe_nice() in security/commoncap.c), asks
 * CAP_SYS_NICE in the task's user namespace of a caller whose permitted
 * capabilities do not include all of the task's: even its owner may not
 * change a task that runs with more power than itself (a file-capability
 * program it started, say). Both the sender of a request and the opener
 * of its socket must pass, as netlink_ns_capable() asks of both. The hooks
 * of other security modules are not callable from a module (the admin
 * guide says what that means).
 *
 * A registration keeps its registrant's credentials (struct hcube_creds,
 * shared by the job's records), and every later move asks the same
 * question of them again: a task its registrant may no longer change (it
 * ran a set-user-ID program that took root for good, say) is let go, not
 * moved.
 */
#include <linux/cred.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/user_namespace.h>
#include "hcube.h"

/* The ownership test of sched_setaffinity(). */
static bool hcube_owner(const struct cred *cred, const struct cred *pcred)
{
	return uid_eq(cred->euid, pcred->euid) || uid_eq(cred->euid, pcred->uid);
}

/* cap_safe_nice()'s test: has @cred every capability @pcred may use? */
static bool hcube_caps_within(const struct cred *cred, const struct cred *pcred)
{
	return cap_issubset(pcred->cap_permitted, cred->cap_permitted);
}

/*
 * Both tests for one credential of the caller, @cred (the sender's, or
 * the opener's with @file), on a task with @pcred. CAP_SYS_NICE is asked
 * for only when the first tests fail, as the kernel asks: ns_capable()
 * audits and marks the caller PF_SUPERPRIV. Under RCU.
 */
static int hcube_may_one(const struct cred *cred, struct file *file,
			 const struct cred *pcred)
{
	bool owner = hcube_owner(cred, pcred);

	if (owner && hcube_caps_within(cred, pcred))
		return 0;
	if (file ? file_ns_capable(file, pcred->user_ns, CAP_SYS_NICE) :
		   ns_capable(pcred->user_ns, CAP_SYS_NICE))
		return 0;
	return owner ? -HCUBE_ECAPS : -EACCES;
}

/**
 * hcube_may_set() - could the caller change @p's affinity itself?
 * @who: the request's sender and its socket's opener
 * @p: the task
 *
 * Return: 0 when both pass sched_setaffinity()'s tests for @p; else
 * -EACCES (not the task's owner) or -HCUBE_ECAPS (the task has permitted
 * capabilities the caller lacks), without CAP_SYS_NICE in its user
 * namespace either.
 */
int hcube_may_set(const struct hcube_caller *who, struct task_struct *p)
{
	const struct cred *pcred;
	int err;

	rcu_read_lock();
	pcred = __task_cred(p);
	err = hcube_may_one(who->cred, NULL, pcred);
	if (!err && who->file)
		err = hcube_may_one(who->file->f_cred, who->file, pcred);
	rcu_read_unlock();
	return err;
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
 * Has @cred @cap in @ns? The capability rule of the commoncap module,
 * made for kept credentials (the LSM stack is not reachable from here):
 * the capability in @ns or an ancestor of it that @cred's namespace is,
 * or @cred owns a namespace that @ns descends from.
 */
static bool hcube_cred_capable(const struct cred *cred,
			       struct user_namespace *ns, int cap)
{
	for (;;) {
		if (ns == cred->user_ns)
			return cap_raised(cred->cap_effective, cap);
		if (ns->level <= cred->user_ns->level)
			return false;
		if (ns->parent == cred->user_ns && uid_eq(ns->owner, cred->euid))
			return true;
		ns = ns->parent;
	}
}

static bool hcube_cred_may_set(const struct cred *cred, const struct cred *pcred)
{
	return (hcube_owner(cred, pcred) && hcube_caps_within(cred, pcred)) ||
	       hcube_cred_capable(cred, pcred->user_ns, CAP_SYS_NICE);
}

/**
 * hcube_creds_get() - keep a request's credentials for its registrations
 * @who: the request's sender and its socket's opener
 *
 * Return: a new reference, or NULL when out of memory.
 */
struct hcube_creds *hcube_creds_get(const struct hcube_caller *who)
{
	struct hcube_creds *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	refcount_set(&c->ref, 1);
	c->sender = get_cred(who->cred);
	c->opener = who->file ? get_cred(who->file->f_cred) : NULL;
	c->any = hcube_cred_capable(c->sender, &init_user_ns, CAP_SYS_NICE) &&
		 (!c->opener ||
		  hcube_cred_capable(c->opener, &init_user_ns, CAP_SYS_NICE));
	return c;
}

/* Drop a reference; any context. */
void hcube_creds_put(struct hcube_creds *c)
{
	if (!c || !refcount_dec_and_test(&c->ref))
		return;
	put_cred(c->sender);
	if (c->opener)
		put_cred(c->opener);
	kfree(c);
}

/**
 * hcube_creds_may_set() - may a task's registrant still change its affinity?
 * @c: the registrant's credentials
 * @p: the task
 *
 * The tests of hcube_may_set(), with the credentials kept at
 * registration: a task that since gained a capability its registrant
 * lacks (it exec'd a file-capability program) fails them, as one that
 * changed its uid does. No lock, nothing that sleeps: callable wherever
 * RCU is.
 * Return: true when both the sender and the opener still pass.
 */
bool hcube_creds_may_set(const struct hcube_creds *c, struct task_struct *p)
{
	const struct cred *pcred;
	bool ok;

	if (c->any)
		return true;
	rcu_read_lock();
	pcred = __task_cred(p);
	ok = hcube_cred_may_set(c->sender, pcred) &&
	     (!c->opener || hcube_cred_may_set(c->opener, pcred));
	rcu_read_unlock();
	return ok;
}
