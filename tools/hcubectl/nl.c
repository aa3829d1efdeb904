// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl: the generic netlink socket of a command, requests that remember
 * what each of their attributes means, the receive loop that ends at the
 * ack, at the end of a dump or at an error (whose extended ack it decodes),
 * and the parsing of what the kernel sends with the generated policies.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include "hcubectl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

_Static_assert(HCUBE_A_MAX < HC_TB_SIZE && HCUBE_A_REPORT_MAX < HC_TB_SIZE &&
	       HCUBE_A_TASK_MAX < HC_TB_SIZE && HCUBE_A_VERTEX_INFO_MAX < HC_TB_SIZE &&
	       HCUBE_A_STATS_MAX < HC_TB_SIZE && HCUBE_A_CONFIG_MAX < HC_TB_SIZE,
	       "HC_TB_SIZE holds every attribute set");

/* The socket of @c; @try: NULL when the family is not there, else exit. */
static struct nl_sock *sock_open(struct hc_ctx *c, bool try)
{
	int one = 1, fd, err;

	if (c->sk)
		return c->sk;
	c->sk = nl_socket_alloc();
	if (!c->sk)
		hc_fatal("out of memory");
	err = genl_connect(c->sk);
	if (err < 0)
		hc_fatal("cannot open a generic netlink socket: %s", nl_geterror(err));
	fd = nl_socket_get_fd(c->sk);
	/*
	 * Error messages, offsets and policies; no echo of the request. Best
	 * effort: without them errors still come, with less to say.
	 */
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	/* Reports on big cubes are ~100 KB: peek at the size before reading. */
	nl_socket_enable_msg_peek(c->sk);
	nl_socket_set_msg_buf_size(c->sk, 32768);
	nl_socket_set_buffer_size(c->sk, 4 << 20, 1 << 20);	/* best effort */

	c->family = genl_ctrl_resolve(c->sk, HCUBE_FAMILY_NAME);
	if (c->family == -NLE_OBJ_NOTFOUND && try) {
		nl_socket_free(c->sk);
		c->sk = NULL;
		return NULL;
	}
	if (c->family == -NLE_OBJ_NOTFOUND) {
		fflush(stdout);
		fputs("hcubectl: the hcube module is not loaded (genl family \"hcube\" not found); "
		      "load it with insmod hcube.ko\n", stderr);
		exit(HC_EXIT_ERROR);
	}
	if (c->family < 0)
		hc_fatal("cannot resolve the genl family \"%s\": %s",
			 HCUBE_FAMILY_NAME, nl_geterror(c->family));
	return c->sk;
}

struct nl_sock *hc_sock(struct hc_ctx *c)
{
	return sock_open(c, false);
}

struct nl_sock *hc_sock_try(struct hc_ctx *c)
{
	return sock_open(c, true);
}

void hc_close(struct hc_ctx *c)
{
	if (c->sk)
		nl_socket_free(c->sk);
	c->sk = NULL;
}

void hc_req_init(struct hc_req *r, uint8_t nlcmd, bool dump, size_t size, const char *what)
{
	memset(r, 0, sizeof(*r));
	r->what = what;
	r->cmd = nlcmd;
	r->msg = nlmsg_alloc_size(size + 256);
	if (!r->msg)
		hc_fatal("out of memory");
	/* The family's id goes in when the request is sent. */
	if (!genlmsg_put(r->msg, NL_AUTO_PORT, NL_AUTO_SEQ, 0, 0,
			 NLM_F_ACK | (dump ? NLM_F_DUMP : 0), nlcmd, HCUBE_FAMILY_VERSION))
		hc_fatal("%s: cannot build the request", what);
}

void hc_req_free(struct hc_req *r)
{
	nlmsg_free(r->msg);
	r->msg = NULL;
	hc_attrmap_free(&r->map);
}

/* From the start of the nlmsghdr. */
uint32_t hc_req_next_offs(const struct hc_req *r)
{
	return NLMSG_ALIGN(nlmsg_hdr(r->msg)->nlmsg_len);
}

/* After a put at @offs: check it and record its label. */
static void put_done(struct hc_req *r, int err, uint32_t offs,
		     const char *fmt, va_list ap)
{
	struct nlmsghdr *nlh = nlmsg_hdr(r->msg);
	struct nlattr *a;
	char label[64];

	if (err < 0)
		hc_fatal("%s: the request does not fit in one netlink message",
			 r->what);
	a = (struct nlattr *)((char *)nlh + offs);
	if (vsnprintf(label, sizeof(label), fmt, ap) < 0)
		label[0] = '\0';
	if (hc_attrmap_add(&r->map, offs, a->nla_len, label))
		hc_fatal("out of memory");
}

#define HC_PUT(r, call, fmt) do {			\
		uint32_t __offs = hc_req_next_offs(r);		\
		int __err = (call);			\
		va_list ap;				\
							\
		va_start(ap, fmt);			\
		put_done(r, __err, __offs, fmt, ap);	\
		va_end(ap);				\
	} while (0)

void hc_req_u32(struct hc_req *r, int type, uint32_t v, const char *fmt, ...)
{
	HC_PUT(r, nla_put_u32(r->msg, type, v), fmt);
}

void hc_req_flag(struct hc_req *r, int type, const char *fmt, ...)
{
	HC_PUT(r, nla_put_flag(r->msg, type), fmt);
}

void hc_req_str(struct hc_req *r, int type, const char *v, const char *fmt, ...)
{
	HC_PUT(r, nla_put_string(r->msg, type, v), fmt);
}

struct nlattr *hc_req_nest(struct hc_req *r, int type, const char *fmt, ...)
{
	struct nlattr *nest = NULL;

	/* Strict validation wants NLA_F_NESTED on every nest. */
	HC_PUT(r, (nest = nla_nest_start(r->msg, type | NLA_F_NESTED)) ? 0 : -1, fmt);
	return nest;
}

void hc_req_nest_end(struct hc_req *r, struct nlattr *nest)
{
	uint32_t offs = (uint32_t)((char *)nest - (char *)nlmsg_hdr(r->msg));
	size_t i;

	nla_nest_end(r->msg, nest);
	for (i = r->map.n; i-- > 0;)
		if (r->map.v[i].offs == offs) {
			r->map.v[i].len = nest->nla_len;
			break;
		}
}

bool hc_family_deleted(struct nl_msg *msg, int family)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct genlmsghdr *gh;

	if (nlh->nlmsg_type != GENL_ID_CTRL || !genlmsg_valid_hdr(nlh, 0))
		return false;
	gh = nlmsg_data(nlh);
	if (gh->cmd != CTRL_CMD_DELFAMILY ||
	    nla_parse(tb, CTRL_ATTR_MAX, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0), NULL))
		return false;
	return tb[CTRL_ATTR_FAMILY_ID] && nla_len(tb[CTRL_ATTR_FAMILY_ID]) >= 2 &&
	       nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]) == family;
}

int hc_parse(struct nlattr **tb, const struct hc_attr_set *set, struct nlattr *head, int len)
{
	memset(tb, 0, sizeof(*tb) * HC_TB_SIZE);
	return nla_parse(tb, set->max, head, len, set->policy) < 0 ? -1 : 0;
}

int hc_tb_dim(struct nlattr **tb)
{
	uint32_t dim;

	if (!tb[HCUBE_A_DIM])
		return -1;
	dim = nla_get_u32(tb[HCUBE_A_DIM]);
	return dim <= 32 ? (int)dim : -1;
}

int hc_parse_nested(struct nlattr **tb, const struct hc_attr_set *set,
		    const struct nlattr *nest)
{
	return hc_parse(tb, set, nla_data(nest), nla_len(nest));
}

int hc_attrs_copy(struct hc_attrs *a, const struct hc_attr_set *set,
		  const struct nlattr *head, int len)
{
	a->buf = hc_malloc((size_t)len);
	a->len = len;
	memcpy(a->buf, head, (size_t)len);
	return hc_parse(a->tb, set, a->buf, len);
}

void hc_attrs_free(struct hc_attrs *a)
{
	free(a->buf);
	a->buf = NULL;
}

int hc_attrs_add(struct hc_attrs_list *l, const struct hc_attr_set *set,
		 const struct nlattr *a)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = hc_realloc(l->v, l->cap * sizeof(*l->v));
	}
	return hc_attrs_copy(&l->v[l->n++], set, nla_data(a), nla_len(a));
}

void hc_attrs_list_free(struct hc_attrs_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		hc_attrs_free(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

int hc_msg_from(struct nl_msg *msg, int family, struct hc_msg *m, struct nlattr **tb)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gh;

	if (nlh->nlmsg_type != family)
		return 1;
	if (!genlmsg_valid_hdr(nlh, 0))
		return -1;
	gh = nlmsg_data(nlh);
	m->cmd = gh->cmd;
	m->attrs = genlmsg_attrdata(gh, 0);
	m->len = genlmsg_attrlen(gh, 0);
	m->tb = tb;
	memset(tb, 0, sizeof(*tb) * HC_TB_SIZE);
	/* A command of a newer module: its attributes are not known here. */
	if (m->cmd > HCUBE_CMD_MAX || !hc_cmd_set[m->cmd])
		return 0;
	return hc_parse(tb, hc_cmd_set[m->cmd], m->attrs, m->len);
}

struct run_state {
	struct hc_req *req;
	hc_reply_fn fn;
	void *arg;
	int family;
	unsigned long nmsgs;	/* messages seen */
	bool done;		/* ack, end of dump or error */
	bool failed;		/* the kernel said no */
	bool malformed;		/* a reply that does not parse */
	struct hc_extack ext;
};

static int on_msg_in(struct nl_msg *msg, void *arg)
{
	struct run_state *st = arg;

	(void)msg;
	st->nmsgs++;
	return NL_OK;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[HC_TB_SIZE];
	struct run_state *st = arg;
	struct hc_msg m;
	int ret = hc_msg_from(msg, st->family, &m, tb);

	if (ret > 0)
		return NL_SKIP;
	if (ret < 0 || (st->fn && st->fn(&m, st->arg) < 0))
		st->malformed = true;
	return NL_OK;
}

/* NLMSG_DONE: the end of a dump, which may carry the dump's error. */
static int on_finish(struct nl_msg *msg, void *arg)
{
	struct run_state *st = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct hc_extack ext;

	if (!hc_extack_parse(nlh, nlh->nlmsg_len, &ext) && ext.error) {
		st->ext = ext;
		st->failed = true;
	}
	st->done = true;
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct run_state *st = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct hc_extack ext;

	if (!hc_extack_parse(nlh, nlh->nlmsg_len, &ext) && ext.has_msg)
		fprintf(stderr, "hcubectl: %s: warning: %s\n", st->req->what, ext.msg);
	st->done = true;
	return NL_STOP;
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	/* libnl hands out the nlmsgerr inside the received message. */
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct run_state *st = arg;

	(void)nla;
	if (hc_extack_parse(nlh, nlh->nlmsg_len, &st->ext)) {
		memset(&st->ext, 0, sizeof(st->ext));
		st->ext.error = e->error < 0 ? -e->error : EPROTO;
	}
	st->failed = true;
	st->done = true;
	return NL_STOP;
}

void hc_req_error(const struct hc_req *r, const struct hc_extack *ext)
{
	const struct hc_attr_set *set = hc_cmd_set[r->cmd];
	char buf[1024];

	hc_extack_describe(ext, &r->map, set->names, (size_t)set->max + 1, buf, sizeof(buf));
	fflush(stdout);
	fprintf(stderr, "hcubectl: %s: %s%s\n", r->what, buf,
		ext->error == EPERM && !ext->has_msg ?
		" (this command needs CAP_NET_ADMIN)" : "");
}

int hc_req_send(struct hc_ctx *c, struct hc_req *r, hc_reply_fn fn, void *arg,
		struct hc_extack *ext)
{
	struct nl_sock *sk = hc_sock(c);
	struct run_state st = {
		.req = r, .fn = fn, .arg = arg, .family = c->family,
	};
	struct nl_cb *cb;
	int err;

	nlmsg_hdr(r->msg)->nlmsg_type = (uint16_t)c->family;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		hc_fatal("out of memory");
	nl_cb_set(cb, NL_CB_MSG_IN, NL_CB_CUSTOM, on_msg_in, &st);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &st);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &st);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &st);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &st);

	err = nl_send_auto(sk, r->msg);
	if (err < 0) {
		nl_cb_put(cb);
		hc_fatal("%s: cannot send the request: %s", r->what, nl_geterror(err));
	}
	while (!st.done) {
		unsigned long seen = st.nmsgs;

		err = nl_recvmsgs(sk, cb);
		if (st.done)
			break;
		if (err < 0 || st.nmsgs == seen) {
			nl_cb_put(cb);
			hc_fatal("%s: receiving the reply: %s", r->what,
				 err < 0 ? nl_geterror(err) : "no reply");
		}
	}
	nl_cb_put(cb);
	if (st.failed && ext) {
		*ext = st.ext;
		return HC_EXIT_ERROR;
	}
	if (st.failed) {
		hc_req_error(r, &st.ext);
		return HC_EXIT_ERROR;
	}
	if (st.malformed) {
		fflush(stdout);
		fprintf(stderr, "hcubectl: %s: malformed reply from the kernel\n", r->what);
		return HC_EXIT_ERROR;
	}
	return 0;
}

int hc_req_ack(struct hc_ctx *c, struct hc_req *r)
{
	int ret = hc_req_send(c, r, NULL, NULL, NULL);

	hc_req_free(r);
	return ret;
}

int hc_get(struct hc_ctx *c, uint8_t nlcmd, bool dump, const char *what,
	   hc_reply_fn fn, void *arg)
{
	struct hc_req r;
	int ret;

	hc_req_init(&r, nlcmd, dump, 0, what ? what : c->what);
	ret = hc_req_send(c, &r, fn, arg, NULL);
	hc_req_free(&r);
	return ret;
}

int hc_run(struct hc_ctx *c, hc_reply_fn fn, void *arg)
{
	return hc_get(c, c->cmd->nlcmd, c->cmd->flags & HC_DUMP, NULL, fn, arg);
}

static int dim_reply(const struct hc_msg *m, void *arg)
{
	*(int *)arg = hc_tb_dim(m->tb);
	return 0;
}

int hc_cube_dim(struct hc_ctx *c, int *dim)
{
	int ret = 0;

	if (c->dim == -2) {
		c->dim = -1;
		ret = hc_get(c, HCUBE_CMD_CUBE_GET, false, NULL, dim_reply, &c->dim);
	}
	*dim = c->dim;
	return ret;
}
