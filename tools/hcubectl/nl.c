// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl: the generic netlink socket, requests that remember what each of
 * their attributes means, and the receive loop that ends at the ack, at the
 * end of a dump or at an error (whose extended ack it decodes).
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

void hc_nl_open(struct hc_nl *nl)
{
	int one = 1, fd, err;

	nl->sk = nl_socket_alloc();
	if (!nl->sk)
		hc_fatal("out of memory");
	err = genl_connect(nl->sk);
	if (err < 0)
		hc_fatal("cannot open a generic netlink socket: %s", nl_geterror(err));
	fd = nl_socket_get_fd(nl->sk);
	/*
	 * Error messages, offsets and policies; no echo of the request. Best
	 * effort: without them errors still come, with less to say.
	 */
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	/* Reports on big cubes are ~100 KB: peek at the size before reading. */
	nl_socket_enable_msg_peek(nl->sk);
	nl_socket_set_msg_buf_size(nl->sk, 32768);
	nl_socket_set_buffer_size(nl->sk, 4 << 20, 1 << 20);	/* best effort */

	nl->family = genl_ctrl_resolve(nl->sk, HCUBE_FAMILY_NAME);
	if (nl->family == -NLE_OBJ_NOTFOUND) {
		fflush(stdout);
		fputs("hcubectl: the hcube module is not loaded (genl family \"hcube\" not found); "
		      "load it with insmod hcube.ko\n", stderr);
		exit(HC_EXIT_ERROR);
	}
	if (nl->family < 0)
		hc_fatal("cannot resolve the genl family \"%s\": %s",
			 HCUBE_FAMILY_NAME, nl_geterror(nl->family));
}

void hc_nl_close(struct hc_nl *nl)
{
	nl_socket_free(nl->sk);
	nl->sk = NULL;
}

void hc_req_init(struct hc_req *r, const struct hc_nl *nl, uint8_t cmd,
		 bool dump, size_t size, const char *what)
{
	memset(r, 0, sizeof(*r));
	r->what = what;
	r->cmd = cmd;
	/* REBALANCE's top-level attributes are the report's. */
	if (cmd == HCUBE_CMD_REBALANCE) {
		r->attr_names = hc_report_attr_names;
		r->nattr_names = hc_report_attr_nnames;
	} else {
		r->attr_names = hc_attr_names;
		r->nattr_names = hc_attr_nnames;
	}
	r->msg = nlmsg_alloc_size(size + 256);
	if (!r->msg)
		hc_fatal("out of memory");
	if (!genlmsg_put(r->msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
			 NLM_F_ACK | (dump ? NLM_F_DUMP : 0), cmd,
			 HCUBE_FAMILY_VERSION))
		hc_fatal("%s: cannot build the request", what);
}

void hc_req_free(struct hc_req *r)
{
	nlmsg_free(r->msg);
	r->msg = NULL;
	hc_attrmap_free(&r->map);
}

/* Where the next attribute goes, from the start of the nlmsghdr. */
static uint32_t next_offs(const struct hc_req *r)
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

void hc_req_u32(struct hc_req *r, int type, uint32_t v, const char *fmt, ...)
{
	uint32_t offs = next_offs(r);
	va_list ap;
	int err;

	err = nla_put_u32(r->msg, type, v);
	va_start(ap, fmt);
	put_done(r, err, offs, fmt, ap);
	va_end(ap);
}

void hc_req_u8(struct hc_req *r, int type, uint8_t v, const char *fmt, ...)
{
	uint32_t offs = next_offs(r);
	va_list ap;
	int err;

	err = nla_put_u8(r->msg, type, v);
	va_start(ap, fmt);
	put_done(r, err, offs, fmt, ap);
	va_end(ap);
}

void hc_req_flag(struct hc_req *r, int type, const char *fmt, ...)
{
	uint32_t offs = next_offs(r);
	va_list ap;
	int err;

	err = nla_put_flag(r->msg, type);
	va_start(ap, fmt);
	put_done(r, err, offs, fmt, ap);
	va_end(ap);
}

void hc_req_str(struct hc_req *r, int type, const char *v, const char *fmt, ...)
{
	uint32_t offs = next_offs(r);
	va_list ap;
	int err;

	err = nla_put_string(r->msg, type, v);
	va_start(ap, fmt);
	put_done(r, err, offs, fmt, ap);
	va_end(ap);
}

struct nlattr *hc_req_nest(struct hc_req *r, int type, const char *fmt, ...)
{
	uint32_t offs = next_offs(r);
	struct nlattr *nest;
	va_list ap;

	/* Strict validation wants NLA_F_NESTED on every nest. */
	nest = nla_nest_start(r->msg, type | NLA_F_NESTED);
	va_start(ap, fmt);
	put_done(r, nest ? 0 : -1, offs, fmt, ap);
	va_end(ap);
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

struct run_state {
	struct hc_req *req;
	hc_reply_fn fn;
	void *arg;
	int family;
	unsigned long nmsgs;	/* messages seen */
	bool done;		/* ack, end of dump or error */
	bool failed;		/* the kernel said no */
	bool malformed;		/* a reply @fn could not decode */
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
	struct run_state *st = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gh;

	if (nlh->nlmsg_type != st->family)
		return NL_SKIP;
	if (!genlmsg_valid_hdr(nlh, 0)) {
		st->malformed = true;
		return NL_SKIP;
	}
	gh = nlmsg_data(nlh);
	if (st->fn && st->fn(gh->cmd, genlmsg_attrdata(gh, 0),
			     genlmsg_attrlen(gh, 0), st->arg) < 0)
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

static void print_warning(const struct hc_req *r, const struct hc_extack *ext)
{
	if (ext->has_msg)
		fprintf(stderr, "hcubectl: %s: warning: %s\n", r->what, ext->msg);
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct run_state *st = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct hc_extack ext;

	if (!hc_extack_parse(nlh, nlh->nlmsg_len, &ext))
		print_warning(st->req, &ext);
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

static void print_kernel_error(const struct hc_req *r, const struct hc_extack *ext)
{
	char buf[1024];

	hc_extack_describe(ext, &r->map, r->attr_names, r->nattr_names, buf,
			   sizeof(buf));
	fflush(stdout);
	fprintf(stderr, "hcubectl: %s: %s%s\n", r->what, buf,
		ext->error == EPERM && !ext->has_msg ?
		" (this command needs CAP_NET_ADMIN)" : "");
}

int hc_req_run(struct hc_nl *nl, struct hc_req *r, hc_reply_fn fn, void *arg)
{
	struct run_state st = {
		.req = r, .fn = fn, .arg = arg, .family = nl->family,
	};
	struct nl_cb *cb;
	int err;

	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		hc_fatal("out of memory");
	nl_cb_set(cb, NL_CB_MSG_IN, NL_CB_CUSTOM, on_msg_in, &st);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &st);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &st);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &st);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &st);

	err = nl_send_auto(nl->sk, r->msg);
	if (err < 0) {
		nl_cb_put(cb);
		hc_fatal("%s: cannot send the request: %s", r->what, nl_geterror(err));
	}
	while (!st.done) {
		unsigned long seen = st.nmsgs;

		err = nl_recvmsgs(nl->sk, cb);
		if (st.done)
			break;
		if (err < 0 || st.nmsgs == seen) {
			nl_cb_put(cb);
			hc_fatal("%s: receiving the reply: %s", r->what,
				 err < 0 ? nl_geterror(err) : "no reply");
		}
	}
	nl_cb_put(cb);
	if (st.failed) {
		print_kernel_error(r, &st.ext);
		return HC_EXIT_ERROR;
	}
	if (st.malformed) {
		fflush(stdout);
		fprintf(stderr, "hcubectl: %s: malformed reply from the kernel\n",
			r->what);
		return HC_EXIT_ERROR;
	}
	return 0;
}

int hc_simple_get(struct hc_nl *nl, uint8_t cmd, bool dump, const char *what,
		  hc_reply_fn fn, void *arg)
{
	struct hc_req r;
	int ret;

	hc_req_init(&r, nl, cmd, dump, 0, what);
	ret = hc_req_run(nl, &r, fn, arg);
	hc_req_free(&r);
	return ret;
}

bool hc_get_u8(const struct nlattr *a, uint8_t *v)
{
	if (!a || nla_len(a) < (int)sizeof(*v))
		return false;
	memcpy(v, nla_data(a), sizeof(*v));
	return true;
}

bool hc_get_u32(const struct nlattr *a, uint32_t *v)
{
	if (!a || nla_len(a) < (int)sizeof(*v))
		return false;
	memcpy(v, nla_data(a), sizeof(*v));
	return true;
}

bool hc_get_s32(const struct nlattr *a, int32_t *v)
{
	if (!a || nla_len(a) < (int)sizeof(*v))
		return false;
	memcpy(v, nla_data(a), sizeof(*v));
	return true;
}

bool hc_get_u64(const struct nlattr *a, uint64_t *v)
{
	if (!a || nla_len(a) < (int)sizeof(*v))
		return false;
	memcpy(v, nla_data(a), sizeof(*v));
	return true;
}

char *hc_get_str(const struct nlattr *a)
{
	const char *data;
	size_t len;
	char *s;

	if (!a)
		return NULL;
	data = nla_data(a);
	len = strnlen(data, (size_t)nla_len(a));
	s = hc_malloc(len + 1);
	memcpy(s, data, len);
	s[len] = '\0';
	return s;
}

void hc_parse(struct nlattr **tb, int max, struct nlattr *head, int len)
{
	struct nlattr *a;
	int rem;

	memset(tb, 0, sizeof(*tb) * (size_t)(max + 1));
	nla_for_each_attr(a, head, len, rem) {
		int type = nla_type(a);

		if (type <= max)
			tb[type] = a;
	}
}

void hc_parse_nested(struct nlattr **tb, int max, const struct nlattr *nest)
{
	hc_parse(tb, max, nla_data(nest), nla_len(nest));
}
