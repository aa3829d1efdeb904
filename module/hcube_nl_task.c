// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: registered tasks in the generic netlink family: TASK_ADD,
 * TASK_DEL, TASK_GET and the TASK_NTF event.
 */
#include <linux/pid_namespace.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <net/sock.h>
#include "hcube_nl.h"

static u32 hcube_pid_in(struct pid *pid, struct pid_namespace *ns)
{
	return ns ? pid_nr_ns(pid, ns) : pid_nr(pid);
}

/*
 * A task nest. @ns: the reader's pid namespace, NULL for the initial one;
 * @state: what to show (a listing reads it now, hcube_task_state(); an
 * event the record's), but for the reasons that have their own.
 */
static int hcube_fill_task(struct sk_buff *skb, int type, struct hcube *hc,
			   struct hcube_task *t, struct pid_namespace *ns, u32 reason,
			   u32 state)
{
	bool exited = reason == HCUBE_REASON_EXITED;
	struct task_struct *p = t->task;
	struct nlattr *nest = nla_nest_start(skb, type);
	char comm[TASK_COMM_LEN];
	u32 pid;

	if (!nest)
		return -EMSGSIZE;
	if (exited)
		state = HCUBE_TASK_EXITED;
	else if (reason == HCUBE_REASON_REMOVED || reason == HCUBE_REASON_REVOKED)
		state = HCUBE_TASK_REMOVED;
	pid = exited && t->exit_pid ? hcube_pid_in(t->exit_pid, ns) :
	      ns ? task_pid_nr_ns(p, ns) : task_pid_nr(p);
	get_task_comm(comm, p);
	if (nla_put_u32(skb, HCUBE_A_TASK_PID, pid) ||
	    nla_put_u32(skb, HCUBE_A_TASK_VERTEX, t->vertex) ||
	    nla_put_u32(skb, HCUBE_A_TASK_STATE, state) ||
	    hcube_nl_put_cpulist(skb, HCUBE_A_TASK_ORIG_CPUS, hcube_task_orig(t)) ||
	    (reason && nla_put_u32(skb, HCUBE_A_TASK_REASON, reason)) ||
	    nla_put_u32(skb, HCUBE_A_TASK_ORIGIN, t->origin) ||
	    nla_put_u32(skb, HCUBE_A_TASK_UNIT, t->unit) ||
	    (t->creator && hcube_pid_in(t->creator, ns) &&
	     nla_put_u32(skb, HCUBE_A_TASK_CREATOR, hcube_pid_in(t->creator, ns))) ||
	    nla_put_string(skb, HCUBE_A_TASK_COMM, comm))
		goto cancel;
	if (!exited && pid_alive(p) &&
	    (nla_put_u32(skb, HCUBE_A_TASK_TGID,
			 ns ? task_tgid_nr_ns(p, ns) : task_tgid_nr(p)) ||
	     hcube_nl_put_task_cpus(skb, HCUBE_A_TASK_CPUS, p)))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/*
 * A refused new task's nest (max_tasks): it runs with its creator's
 * original affinity.
 */
static int hcube_fill_refused(struct sk_buff *skb, struct task_struct *p,
			      struct task_struct *creator)
{
	struct nlattr *nest = nla_nest_start(skb, HCUBE_A_TASK);
	char comm[TASK_COMM_LEN];

	if (!nest)
		return -EMSGSIZE;
	get_task_comm(comm, p);
	if (nla_put_u32(skb, HCUBE_A_TASK_PID, task_pid_nr(p)) ||
	    nla_put_u32(skb, HCUBE_A_TASK_TGID, task_tgid_nr(p)) ||
	    nla_put_string(skb, HCUBE_A_TASK_COMM, comm) ||
	    nla_put_u32(skb, HCUBE_A_TASK_REASON, HCUBE_REASON_REFUSED) ||
	    nla_put_u32(skb, HCUBE_A_TASK_ORIGIN, same_thread_group(p, creator ?: p) &&
			creator ? HCUBE_REASON_THREAD : HCUBE_REASON_FORK) ||
	    (creator && nla_put_u32(skb, HCUBE_A_TASK_CREATOR, task_pid_nr(creator))) ||
	    hcube_nl_put_task_cpus(skb, HCUBE_A_TASK_CPUS, p)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* A task's event, or a new task's refusal (no record). */
static int hcube_task_ntf_fill(struct sk_buff *skb, struct hcube *hc,
			       const struct hcube_nl_data *d)
{
	const struct hcube_ntf *n = d->ntf;

	if (!n->task)
		return hcube_fill_refused(skb, n->p, n->creator);
	return hcube_fill_task(skb, HCUBE_A_TASK, hc, n->task, NULL, n->reason,
			       n->task->state);
}

const struct hcube_nl_msg_ops hcube_nl_task_ntf_msg = {
	.fill = hcube_task_ntf_fill,
};

/*
 * Is @t one the reader may see? All of them for CAP_NET_ADMIN, else those
 * running with the reader's effective uid; with pids of the reader's pid
 * namespace, and none a pid there does not name. Under RCU.
 */
static bool hcube_task_visible(struct hcube_task *t, struct pid_namespace *ns,
			       bool admin, const struct cred *cred)
{
	return task_pid_nr_ns(t->task, ns) &&
	       (admin || hcube_same_euid(cred, t->task));
}

/* The next record at or after *pos that the reader may see, referenced. */
static struct hcube_task *hcube_task_next(struct hcube *hc, unsigned long *pos,
					  struct pid_namespace *ns, bool admin)
{
	const struct cred *cred = current_cred();
	struct hcube_task *t;
	u32 looked = 0;

	for (;;) {
		rcu_read_lock();
		for (t = xa_find(&hc->tasks, pos, ULONG_MAX, XA_PRESENT);
		     t && looked < 256;
		     t = xa_find_after(&hc->tasks, pos, ULONG_MAX, XA_PRESENT), looked++)
			if (hcube_task_visible(t, ns, admin, cred) &&
			    refcount_inc_not_zero(&t->ref))
				break;
		rcu_read_unlock();
		if (!t || looked < 256)
			return t;
		/* a long stretch of others' tasks: let others run */
		looked = 0;
		cond_resched();
	}
}

/*
 * TASK_GET's dump takes no hcube.lock: the records are found under RCU and
 * each is held by a reference while its nest is filled, so a reader who
 * sees few of many tasks delays no rebalance.
 */
int hcube_nl_task_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	bool admin = netlink_capable(cb->skb, CAP_NET_ADMIN);
	struct hcube *hc = hcube_nl_hc;
	unsigned long pos = cb->args[0];
	size_t size = max_t(size_t, PAGE_SIZE, 6 * nr_cpu_ids + 2);
	struct hcube_task *t;
	char *buf;
	int err = 0;

	buf = kvmalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	while ((t = hcube_task_next(hc, &pos, ns, admin))) {
		void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, hcube_nl_family,
					NLM_F_MULTI, HCUBE_CMD_TASK_GET);

		if (!hdr ||
		    hcube_fill_task(skb, HCUBE_A_TASK, hc, t, ns, 0,
				    hcube_task_state(hc, t, buf, size))) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			hcube_task_put(t);
			err = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
		hcube_task_put(t);
		pos++;
	}
	kvfree(buf);
	/* Resume at the task that did not fit, or past the last. */
	cb->args[0] = pos;
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ? err : skb->len;
}

/*
 * The tasks a TASK_ADD or TASK_DEL names: every HCUBE_A_PID (in the
 * caller's pid namespace) with HCUBE_A_UNIT, into @s; @pa gets each pid's
 * attribute, by the index the set's entries carry.
 */
static int hcube_nl_taskset(struct hcube_taskset *s, struct genl_info *info,
			    const struct nlattr ***pa)
{
	struct nlattr *aunit = info->attrs[HCUBE_A_UNIT];
	const struct nlattr *a;
	u32 n = 0;
	int rem, err;

	s->unit = aunit ? nla_get_u32(aunit) : HCUBE_UNIT_JOB;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem)
		n += nla_type(a) == HCUBE_A_PID;
	*pa = kvcalloc(n, sizeof(**pa), GFP_KERNEL);
	if (!*pa)
		return -ENOMEM;
	n = 0;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != HCUBE_A_PID)
			continue;
		(*pa)[n] = a;
		err = hcube_taskset_add_nr(s, nla_get_u32(a), n);
		if (err == -ESRCH)
			NL_SET_ERR_MSG_ATTR(info->extack, a, HCUBE_ERR_PID_NONE);
		if (err)
			return err;
		n++;
	}
	return hcube_taskset_expand(s);
}

/* The request's sender and its socket's opener. */
static void hcube_caller_of(struct hcube_caller *who, struct sk_buff *skb)
{
	struct sock *sk = NETLINK_CB(skb).sk;

	who->cred = current_cred();
	who->file = sk && sk->sk_socket ? sk->sk_socket->file : NULL;
}

/*
 * The message of a refusal of the task set's entry @p (NULL: none in
 * particular) that came from @a.
 */
static void hcube_check_msg(struct netlink_ext_ack *extack,
			    const struct nlattr *a, struct task_struct *p,
			    int err)
{
	switch (err) {
	case -EINVAL:
		if (p && (p->flags & PF_IO_WORKER))
			NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_IO_THREAD);
		else
			NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_KTHREAD);
		break;
	case -ESRCH:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_EXITING);
		break;
	case -EPERM:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_NO_SETAFFINITY);
		break;
	case -EXDEV:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_CPUSET);
		break;
	case -EEXIST:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_REGISTERED);
		break;
	case -ENOTUNIQ:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_TWICE);
		break;
	case -ENOSPC:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_MAX_TASKS);
		break;
	case -EACCES:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_PERM);
		break;
	case -HCUBE_ECAPS:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_CAPS);
		break;
	case -EBUSY:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_DEADLINE);
		break;
	case -ENOENT:
		/* for a job or a tree: nor any thread of its process */
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_UNREGISTERED);
		break;
	}
}

/* The errno a caller sees for an internal refusal code. */
static int hcube_check_errno(int err)
{
	if (err == -ENOTUNIQ)
		return -EEXIST;
	return err == -EACCES || err == -HCUBE_ECAPS ? -EPERM : err;
}

/* Task nests a TASK_ADD reply lists: named tasks, then refused ones. */
#define HCUBE_ADD_LISTED	64

/*
 * Room for a TASK_ADD reply: its counts and HCUBE_ADD_LISTED nests of each
 * kind, each with two cpulists of any mask. Bounded: what does not fit is
 * left out of the list (the counts stay), never an error.
 */
static size_t hcube_task_add_size(void)
{
	size_t nest = 256 + 2 * nla_total_size(3 * nr_cpu_ids + 16);

	return min_t(size_t, NLMSG_GOODSIZE + 2 * HCUBE_ADD_LISTED * nest, SZ_256K);
}

/* The reply's nests: each named task, then the first refused ones. */
static void hcube_task_add_fill(struct sk_buff *msg, struct hcube *hc,
				const struct hcube_taskset *s,
				const struct hcube_added *a,
				struct pid_namespace *ns)
{
	u32 i, named = 0, refused = 0;

	for (i = 0; i < s->n && named < HCUBE_ADD_LISTED; i++) {
		if (!s->named[i] || IS_ERR_OR_NULL(a->out[i]))
			continue;
		if (hcube_fill_task(msg, HCUBE_A_TASK, hc, a->out[i], ns, 0,
				    a->out[i]->state))
			return;
		named++;
	}
	for (i = 0; i < s->n && refused < HCUBE_ADD_LISTED; i++) {
		struct nlattr *nest;
		u32 pid;

		if (!IS_ERR(a->out[i]) || !s->task[i])
			continue;
		pid = task_pid_nr_ns(s->task[i], ns);
		if (!pid)
			continue;	/* gone meanwhile: nothing to name */
		nest = nla_nest_start(msg, HCUBE_A_TASK);
		if (!nest || nla_put_u32(msg, HCUBE_A_TASK_PID, pid) ||
		    nla_put_s32(msg, HCUBE_A_TASK_ERROR,
				hcube_check_errno(PTR_ERR(a->out[i])))) {
			if (nest)
				nla_nest_cancel(msg, nest);
			return;
		}
		nla_nest_end(msg, nest);
		refused++;
	}
}

int hcube_nl_task_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	struct hcube_taskset s = {};
	const struct nlattr **pa = NULL;
	struct hcube_added a = {};
	struct hcube *hc = hcube_nl_hc;
	struct sk_buff *msg = NULL;
	struct hcube_caller who;
	int vertex = -1, err;
	void *hdr;
	u32 bad;

	hcube_caller_of(&who, skb);
	if (HCUBE_REQUIRE(info, HCUBE_A_PID, HCUBE_ERR_PID_REQUIRED))
		return -EINVAL;
	if (info->attrs[HCUBE_A_VERTEX_ID]) {
		vertex = hcube_nl_vertex_id(hc, info->attrs[HCUBE_A_VERTEX_ID],
					    info->extack);
		if (vertex < 0)
			return vertex;
		if (hc->v[vertex].state != HCUBE_VERTEX_HEALTHY) {
			NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HCUBE_A_VERTEX_ID],
					    HCUBE_ERR_VERTEX_UNHEALTHY);
			return -EINVAL;
		}
	}
	err = hcube_nl_taskset(&s, info, &pa);
	if (err)
		goto out;
	/* The reply is made before anything changes: a refusal changes nothing. */
	err = -ENOMEM;
	a.cap = s.n;
	a.out = kvcalloc(s.n, sizeof(*a.out), GFP_KERNEL);
	if (!a.out)
		goto out;
	msg = hcube_nl_reply_new(info, hcube_task_add_size(), &hdr);
	if (!msg)
		goto out;
	err = hcube_tasks_register(hc, &s, &who, vertex, &a, &bad);
	if (err) {
		hcube_check_msg(info->extack, pa[bad == U32_MAX ? 0 : s.src[bad]],
				bad == U32_MAX ? NULL : s.task[bad], err);
		err = hcube_check_errno(err);
		goto out;
	}
	/* the counts fit in any reply (sized above); the nests as far as they do */
	if (nla_put_u32(msg, HCUBE_A_NREGISTERED, a.registered) ||
	    nla_put_u32(msg, HCUBE_A_NEXITED, a.exited) ||
	    nla_put_u32(msg, HCUBE_A_NREFUSED, a.refused)) {
		err = -EMSGSIZE;
		goto out;
	}
	hcube_task_add_fill(msg, hc, &s, &a, ns);
	err = hcube_nl_reply_send(msg, hdr, info);
	msg = NULL;
out:
	nlmsg_free(msg);
	kvfree(a.out);
	kvfree(pa);
	hcube_taskset_free(&s);
	return err;
}

int hcube_nl_task_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct hcube_taskset s = {};
	const struct nlattr **pa = NULL;
	struct hcube *hc = hcube_nl_hc;
	struct hcube_caller who;
	int err;
	u32 bad;

	hcube_caller_of(&who, skb);
	if (info->attrs[HCUBE_A_ALL]) {
		if (info->attrs[HCUBE_A_PID] || info->attrs[HCUBE_A_UNIT]) {
			NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HCUBE_A_ALL],
					    HCUBE_ERR_ALL_WITH_PID);
			return -EINVAL;
		}
		err = hcube_tasks_unregister_all(hc, &who);
		if (err)
			NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HCUBE_A_ALL],
					    HCUBE_ERR_ALL_OTHERS);
		return hcube_check_errno(err);
	}
	if (HCUBE_REQUIRE(info, HCUBE_A_PID, HCUBE_ERR_PID_REQUIRED))
		return -EINVAL;
	err = hcube_nl_taskset(&s, info, &pa);
	if (!err) {
		err = hcube_tasks_unregister(hc, &s, &who, &bad);
		if (err)
			hcube_check_msg(info->extack, pa[s.src[bad]], s.task[bad], err);
		err = hcube_check_errno(err);
	}
	kvfree(pa);
	hcube_taskset_free(&s);
	return err;
}
