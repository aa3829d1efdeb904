// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube: the requests of hcube_client.h over libnl-genl-3.
 *
 * One request at a time: build it, send it with NLM_F_ACK, read until its
 * ack, the end of its dump or its error. The error's extended ack is read
 * with libnl's own attribute parser: its message, and its offset, which
 * says which HCUBE_A_PID of the request the kernel refused.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/netlink.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <linux/hcube.h>
#include "hcube_client.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

struct hcl {
	struct nl_sock *sk;
	int family;
	char msg[256];		/* the last error's extack message */
	long bad_pid;		/* the index of the pid it named, or -1 */
	/* where each HCUBE_A_PID of the request is, from its nlmsghdr */
	uint32_t *pid_offs;
	size_t npids;
};

/* What one request gathers while its replies come in. */
struct exchange {
	struct hcl *c;
	int (*on_reply)(struct nlattr **tb, void *arg);	/* NULL: none expected */
	void *arg;
	int err;		/* 0, or the negative errno that ends it */
	bool done;
};

static int errno_of_nl(int nlerr)
{
	switch (-nlerr) {
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_AGAIN:
		return -ETIMEDOUT;	/* SO_RCVTIMEO ran out */
	case NLE_PERM:
		return -EPERM;
	default:
		return -EIO;
	}
}

int hcl_open(struct hcl **out, unsigned int timeout_ms)
{
	struct hcl *c = calloc(1, sizeof(*c));
	int one = 1, err;

	*out = NULL;
	if (!c)
		return -ENOMEM;
	c->bad_pid = -1;
	c->sk = nl_socket_alloc();
	if (!c->sk) {
		free(c);
		return -ENOMEM;
	}
	err = genl_connect(c->sk);
	if (err < 0)
		goto fail;
	/* the error's own message, without an echo of the request */
	setsockopt(nl_socket_get_fd(c->sk), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl_socket_get_fd(c->sk), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	if (timeout_ms) {
		struct timeval tv = {
			.tv_sec = timeout_ms / 1000,
			.tv_usec = (timeout_ms % 1000) * 1000,
		};

		setsockopt(nl_socket_get_fd(c->sk), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	/* vertex dumps of a big cube: let libnl size its buffer to the message */
	nl_socket_enable_msg_peek(c->sk);
	c->family = genl_ctrl_resolve(c->sk, HCUBE_FAMILY_NAME);
	if (c->family < 0) {
		err = c->family;
		goto fail;
	}
	*out = c;
	return 0;
fail:
	nl_socket_free(c->sk);
	free(c);
	return errno_of_nl(err);
}

void hcl_close(struct hcl *c)
{
	if (!c)
		return;
	nl_socket_free(c->sk);
	free(c->pid_offs);
	free(c);
}

const char *hcl_message(const struct hcl *c)
{
	return c->msg;
}

long hcl_bad_pid(const struct hcl *c)
{
	return c->bad_pid;
}

/* The extended ack after an NLMSG_ERROR's fixed part: its message and offset. */
static void read_extack(struct hcl *c, struct nlmsgerr *e)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t fixed = NLMSG_HDRLEN + sizeof(*e);
	size_t i;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) && e->msg.nlmsg_len > NLMSG_HDRLEN)
		fixed += e->msg.nlmsg_len - NLMSG_HDRLEN;
	fixed = NLMSG_ALIGN(fixed);
	if (nlh->nlmsg_len <= fixed ||
	    nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((char *)nlh + fixed),
		      (int)(nlh->nlmsg_len - fixed), NULL) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG]) {
		size_t n = strnlen(nla_data(tb[NLMSGERR_ATTR_MSG]),
				   (size_t)nla_len(tb[NLMSGERR_ATTR_MSG]));

		if (n >= sizeof(c->msg))
			n = sizeof(c->msg) - 1;
		memcpy(c->msg, nla_data(tb[NLMSGERR_ATTR_MSG]), n);
		c->msg[n] = '\0';
		for (i = 0; i < n; i++)
			if ((unsigned char)c->msg[i] < 0x20)
				c->msg[i] = '?';
	}
	if (tb[NLMSGERR_ATTR_OFFS] && nla_len(tb[NLMSGERR_ATTR_OFFS]) >= 4)
		for (i = 0; i < c->npids; i++)
			if (c->pid_offs[i] == nla_get_u32(tb[NLMSGERR_ATTR_OFFS]))
				c->bad_pid = (long)i;
}

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct exchange *x = arg;

	(void)who;
	x->err = e->error < 0 ? e->error : -EPROTO;
	read_extack(x->c, e);
	x->done = true;
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct exchange *x = arg;

	(void)msg;
	x->done = true;
	return NL_STOP;
}

/* A dump's NLMSG_DONE: its int is the dump's error, if any. */
static int on_finish(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct exchange *x = arg;
	int err;

	if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(err)) {
		memcpy(&err, nlmsg_data(nlh), sizeof(err));
		if (err < 0)
			x->err = err;
	}
	x->done = true;
	return NL_STOP;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[HCUBE_A_MAX + 1];
	struct exchange *x = arg;

	if (nlh->nlmsg_type != x->c->family || !x->on_reply)
		return NL_SKIP;
	if (genlmsg_parse(nlh, 0, tb, HCUBE_A_MAX, NULL) < 0) {
		x->err = -EPROTO;
		return NL_SKIP;
	}
	if (!x->err && x->on_reply(tb, x->arg) < 0)
		x->err = -EPROTO;
	return NL_OK;
}

/* A new request of @cmd with room for @size bytes of attributes; NULL: no memory. */
static struct nl_msg *request(struct hcl *c, uint8_t cmd, int flags, size_t size)
{
	struct nl_msg *m = nlmsg_alloc_size(size + 256);

	if (m && !genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, c->family, 0,
			      NLM_F_ACK | flags, cmd, HCUBE_FAMILY_VERSION)) {
		nlmsg_free(m);
		m = NULL;
	}
	return m;
}

/* Send @m (and free it); pass each reply to @on_reply; 0 or a negative errno. */
static int exchange(struct hcl *c, struct nl_msg *m,
		    int (*on_reply)(struct nlattr **tb, void *arg), void *arg)
{
	struct exchange x = { .c = c, .on_reply = on_reply, .arg = arg };
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int err;

	c->msg[0] = '\0';
	c->bad_pid = -1;
	if (!cb) {
		nlmsg_free(m);
		return -ENOMEM;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &x);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &x);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &x);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &x);
	err = nl_send_auto(c->sk, m);
	nlmsg_free(m);
	while (err >= 0 && !x.done)
		err = nl_recvmsgs(c->sk, cb);
	nl_cb_put(cb);
	if (x.err)
		return x.err;
	return err < 0 ? errno_of_nl(err) : 0;
}

/* ---- tasks ---- */

static int put_pids(struct hcl *c, struct nl_msg *m, const pid_t *pids, size_t n)
{
	uint32_t *offs = realloc(c->pid_offs, (n ? n : 1) * sizeof(*offs));
	size_t i;

	if (!offs)
		return -ENOMEM;
	c->pid_offs = offs;
	c->npids = 0;
	for (i = 0; i < n; i++) {
		offs[i] = NLMSG_ALIGN(nlmsg_hdr(m)->nlmsg_len);
		if (nla_put_u32(m, HCUBE_A_PID, (uint32_t)pids[i]) < 0)
			return -E2BIG;
		c->npids = i + 1;
	}
	return 0;
}

/* A TASK_ADD or TASK_DEL of @pids (no unit: a job each). */
static int tasks_request(struct hcl *c, uint8_t cmd, const pid_t *pids,
			 size_t n, int vertex)
{
	/* 8 bytes a pid: a request of many pids needs more than a page */
	struct nl_msg *m = request(c, cmd, 0, n * 8 + 8);
	int err;

	if (!m)
		return -ENOMEM;
	err = put_pids(c, m, pids, n);
	if (!err && vertex >= 0 && nla_put_u32(m, HCUBE_A_VERTEX_ID, (uint32_t)vertex) < 0)
		err = -E2BIG;
	if (err) {
		nlmsg_free(m);
		return err;
	}
	/* the reply's contents are not relied on: its error code is */
	return exchange(c, m, NULL, NULL);
}

int hcl_task_add(struct hcl *c, const pid_t *pids, size_t n, int vertex)
{
	return tasks_request(c, HCUBE_CMD_TASK_ADD, pids, n, vertex);
}

int hcl_task_del(struct hcl *c, const pid_t *pids, size_t n)
{
	return tasks_request(c, HCUBE_CMD_TASK_DEL, pids, n, -1);
}

/* ---- vertices ---- */

struct vertex_list {
	struct hcl_vertex *v;
	size_t n, cap;
};

static bool get_u32(const struct nlattr *a, uint32_t *v)
{
	if (!a || nla_len(a) < (int)sizeof(*v))
		return false;
	*v = nla_get_u32(a);
	return true;
}

/* A string attribute's CPU list into @set: false when absent or not one. */
static bool get_cpus(const struct nlattr *a, cpu_set_t *set)
{
	char buf[4096];
	int len;

	if (!a)
		return false;
	len = nla_len(a);
	if (len <= 0 || len > (int)sizeof(buf))
		return false;
	memcpy(buf, nla_data(a), (size_t)len);
	buf[len - 1] = '\0';
	/* a CPU past CPU_SETSIZE is left out of the set */
	return hcl_cpulist_parse(buf, set) != -EINVAL;
}

static int vertex_reply(struct nlattr **tb, void *arg)
{
	struct nlattr *vt[HCUBE_A_VERTEX_INFO_MAX + 1];
	struct vertex_list *l = arg;
	struct hcl_vertex *v;

	if (!tb[HCUBE_A_VERTEX] ||
	    nla_parse_nested(vt, HCUBE_A_VERTEX_INFO_MAX, tb[HCUBE_A_VERTEX], NULL) < 0)
		return -1;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;

		v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	v = &l->v[l->n];
	memset(v, 0, sizeof(*v));
	if (!get_u32(vt[HCUBE_A_VERTEX_INFO_ID], &v->id) ||
	    !get_u32(vt[HCUBE_A_VERTEX_INFO_STATE], &v->state))
		return -1;
	get_u32(vt[HCUBE_A_VERTEX_INFO_LOAD], &v->load);
	/* an absent vertex has no CPUs */
	if (vt[HCUBE_A_VERTEX_INFO_CPUS] && !get_cpus(vt[HCUBE_A_VERTEX_INFO_CPUS], &v->cpus))
		return -1;
	if (vt[HCUBE_A_VERTEX_INFO_USABLE_CPUS] &&
	    !get_cpus(vt[HCUBE_A_VERTEX_INFO_USABLE_CPUS], &v->usable))
		return -1;
	l->n++;
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const struct hcl_vertex *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int hcl_vertices(struct hcl *c, struct hcl_vertex **v, size_t *n)
{
	struct vertex_list l = { 0 };
	struct nl_msg *m = request(c, HCUBE_CMD_VERTEX_GET, NLM_F_DUMP, 8);
	int err;

	*v = NULL;
	*n = 0;
	if (!m)
		return -ENOMEM;
	err = exchange(c, m, vertex_reply, &l);
	if (err) {
		free(l.v);
		return err;
	}
	qsort(l.v, l.n, sizeof(*l.v), by_id);
	*v = l.v;
	*n = l.n;
	return 0;
}

/* ---- the policy ---- */

static int config_reply(struct nlattr **tb, void *arg)
{
	struct nlattr *ct[HCUBE_A_CONFIG_MAX + 1];

	if (!tb[HCUBE_A_CONFIG] ||
	    nla_parse_nested(ct, HCUBE_A_CONFIG_MAX, tb[HCUBE_A_CONFIG], NULL) < 0 ||
	    !get_u32(ct[HCUBE_A_CONFIG_POLICY], arg))
		return -1;
	return 0;
}

int hcl_policy_get(struct hcl *c, uint32_t *policy)
{
	struct nl_msg *m = request(c, HCUBE_CMD_CONFIG_GET, 0, 0);
	uint32_t p = UINT32_MAX;
	int err;

	if (!m)
		return -ENOMEM;
	err = exchange(c, m, config_reply, &p);
	if (!err && p == UINT32_MAX)
		err = -EPROTO;	/* acked without a configuration */
	if (!err)
		*policy = p;
	return err;
}

int hcl_policy_set(struct hcl *c, uint32_t policy)
{
	struct nl_msg *m = request(c, HCUBE_CMD_CONFIG_SET, 0, 16);
	struct nlattr *nest;

	if (!m)
		return -ENOMEM;
	nest = nla_nest_start(m, HCUBE_A_CONFIG | NLA_F_NESTED);
	if (!nest || nla_put_u32(m, HCUBE_A_CONFIG_POLICY, policy) < 0) {
		nlmsg_free(m);
		return -E2BIG;
	}
	nla_nest_end(m, nest);
	return exchange(c, m, NULL, NULL);
}
