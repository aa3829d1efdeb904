/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal raw generic netlink client for the hcube kselftests: requests
 * built by hand, every reply and the extended ack (message, offset of the
 * bad attribute, policy range, missing attribute) kept for the tests.
 */
#ifndef HCUBE_SELFTEST_NL_H
#define HCUBE_SELFTEST_NL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/hcube.h>

#ifndef NLMSGERR_ATTR_MISS_TYPE
#define NLMSGERR_ATTR_MISS_TYPE 5
#endif

#define HNL_BUF		(1 << 21)
#define HNL_MAX_MSGS	4096

struct hnl {
	int fd;
	uint16_t family;
	uint32_t mcgrp;
	uint32_t seq;
};

struct hreq {
	char buf[1 << 16];
	struct nlmsghdr *nlh;
	struct nlattr *nest;
};

/* What came back: data messages, then the ack or error. */
struct hreply {
	int err;			/* 0 or -errno */
	char msg[512];			/* extack message */
	int has_off;
	uint32_t off;			/* offset of the bad attribute */
	int has_policy;
	int64_t pmin, pmax;		/* policy range, when given */
	int has_miss;
	uint32_t miss_type;
	int nmsgs;
	struct nlmsghdr *msgs[HNL_MAX_MSGS];
	char *buf;
	size_t used;
};

static inline struct nlattr *hnl_next(struct nlattr *a, int *rem)
{
	*rem -= NLA_ALIGN(a->nla_len);
	return (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len));
}

#define hnl_for_each_attr(a, head, len, rem)				\
	for (a = (struct nlattr *)(head), rem = (int)(len);		\
	     rem >= (int)sizeof(*a) && a->nla_len >= sizeof(*a) &&	\
	     a->nla_len <= rem;						\
	     a = hnl_next(a, &rem))

static inline void *hnl_data(const struct nlattr *a)
{
	return (char *)a + NLA_HDRLEN;
}

static inline int hnl_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

/* The first attribute of @type among the attributes at @head. */
static inline struct nlattr *hnl_find(void *head, int len, int type)
{
	struct nlattr *a;
	int rem;

	hnl_for_each_attr(a, head, len, rem)
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
	return NULL;
}

static inline struct nlattr *hnl_nested(struct nlattr *nest, int type)
{
	return nest ? hnl_find(hnl_data(nest), hnl_len(nest), type) : NULL;
}

/* The attributes of a generic netlink message. */
static inline void *hnl_attrs(struct nlmsghdr *nlh, int *len)
{
	*len = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	return (char *)NLMSG_DATA(nlh) + GENL_HDRLEN;
}

static inline struct nlattr *hnl_msg_attr(struct nlmsghdr *nlh, int type)
{
	int len;
	void *head = hnl_attrs(nlh, &len);

	return hnl_find(head, len, type);
}

static inline uint32_t hnl_u32(const struct nlattr *a)
{
	uint32_t v;

	memcpy(&v, hnl_data(a), sizeof(v));
	return v;
}

static inline uint64_t hnl_u64(const struct nlattr *a)
{
	uint64_t v;

	memcpy(&v, hnl_data(a), sizeof(v));
	return v;
}

static inline void hreq_init(struct hreq *r, struct hnl *h, uint16_t type,
			     uint8_t cmd, uint16_t flags)
{
	struct genlmsghdr *g;

	memset(r->buf, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	r->nlh = (struct nlmsghdr *)r->buf;
	r->nlh->nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	r->nlh->nlmsg_type = type;
	r->nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	r->nlh->nlmsg_seq = ++h->seq;
	g = NLMSG_DATA(r->nlh);
	g->cmd = cmd;
	g->version = 1;
	r->nest = NULL;
}

/* Append an attribute; returns its offset from the start of the message. */
static inline uint32_t hreq_put(struct hreq *r, uint16_t type, const void *data,
				uint16_t len)
{
	struct nlattr *a = (struct nlattr *)(r->buf + NLMSG_ALIGN(r->nlh->nlmsg_len));
	uint32_t off = (char *)a - r->buf;

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy(hnl_data(a), data, len);
	memset((char *)a + a->nla_len, 0, NLA_ALIGN(a->nla_len) - a->nla_len);
	r->nlh->nlmsg_len = NLMSG_ALIGN(r->nlh->nlmsg_len) + NLA_ALIGN(a->nla_len);
	return off;
}

static inline uint32_t hreq_u32(struct hreq *r, uint16_t type, uint32_t v)
{
	return hreq_put(r, type, &v, sizeof(v));
}

static inline uint32_t hreq_u8(struct hreq *r, uint16_t type, uint8_t v)
{
	return hreq_put(r, type, &v, sizeof(v));
}

static inline uint32_t hreq_flag(struct hreq *r, uint16_t type)
{
	return hreq_put(r, type, NULL, 0);
}

static inline uint32_t hreq_str(struct hreq *r, uint16_t type, const char *s)
{
	return hreq_put(r, type, s, strlen(s) + 1);
}

static inline uint32_t hreq_nest_start(struct hreq *r, uint16_t type)
{
	uint32_t off = hreq_put(r, type | NLA_F_NESTED, NULL, 0);

	r->nest = (struct nlattr *)(r->buf + off);
	return off;
}

static inline void hreq_nest_end(struct hreq *r)
{
	r->nest->nla_len = r->buf + r->nlh->nlmsg_len - (char *)r->nest;
	r->nest = NULL;
}

static inline void hreply_free(struct hreply *rp)
{
	free(rp->buf);
	memset(rp, 0, sizeof(*rp));
}

static inline void hnl_parse_ext_ack(struct hreply *rp, struct nlmsghdr *nlh)
{
	struct nlmsgerr *e = NLMSG_DATA(nlh);
	size_t hdr = sizeof(*e);
	struct nlattr *a, *p;
	int rem, prem;

	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		hdr += e->msg.nlmsg_len - sizeof(e->msg);
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    NLMSG_HDRLEN + hdr > nlh->nlmsg_len)
		return;
	hnl_for_each_attr(a, (char *)e + NLA_ALIGN(hdr),
			  nlh->nlmsg_len - NLMSG_HDRLEN - NLA_ALIGN(hdr), rem) {
		switch (a->nla_type & NLA_TYPE_MASK) {
		case NLMSGERR_ATTR_MSG:
			snprintf(rp->msg, sizeof(rp->msg), "%.*s", hnl_len(a),
				 (char *)hnl_data(a));
			break;
		case NLMSGERR_ATTR_OFFS:
			rp->has_off = 1;
			rp->off = hnl_u32(a);
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			rp->has_miss = 1;
			rp->miss_type = hnl_u32(a);
			break;
		case NLMSGERR_ATTR_POLICY:
			hnl_for_each_attr(p, hnl_data(a), hnl_len(a), prem) {
				switch (p->nla_type & NLA_TYPE_MASK) {
				case NL_POLICY_TYPE_ATTR_MIN_VALUE_U:
				case NL_POLICY_TYPE_ATTR_MIN_VALUE_S:
					rp->has_policy = 1;
					rp->pmin = (int64_t)hnl_u64(p);
					break;
				case NL_POLICY_TYPE_ATTR_MAX_VALUE_U:
				case NL_POLICY_TYPE_ATTR_MAX_VALUE_S:
					rp->has_policy = 1;
					rp->pmax = (int64_t)hnl_u64(p);
					break;
				}
			}
			break;
		}
	}
}

/* Send @r and gather everything up to its ack, error or end of dump. */
static inline int hnl_do(struct hnl *h, struct hreq *r, struct hreply *rp)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	bool done = false;

	memset(rp, 0, sizeof(*rp));
	rp->buf = malloc(HNL_BUF);
	if (!rp->buf)
		return -ENOMEM;
	if (sendto(h->fd, r->buf, r->nlh->nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		return -errno;
	while (!done) {
		char *at = rp->buf + rp->used;
		ssize_t n;
		struct nlmsghdr *nlh;

		if (rp->used + 65536 * 4 > HNL_BUF)
			return -ENOBUFS;
		n = recv(h->fd, at, HNL_BUF - rp->used, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		rp->used += NLMSG_ALIGN(n);
		for (nlh = (struct nlmsghdr *)at; NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_seq != r->nlh->nlmsg_seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				rp->err = ((struct nlmsgerr *)NLMSG_DATA(nlh))->error;
				hnl_parse_ext_ack(rp, nlh);
				done = true;
				break;
			}
			if (nlh->nlmsg_type == NLMSG_DONE) {
				int *e = NLMSG_DATA(nlh);

				rp->err = *e;
				/* a failed dump's error travels with DONE */
				if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
					hnl_parse_ext_ack(rp, nlh);
				if (!(r->nlh->nlmsg_flags & NLM_F_ACK) ||
				    (r->nlh->nlmsg_flags & NLM_F_DUMP))
					done = true;
				continue;
			}
			if (rp->nmsgs < HNL_MAX_MSGS)
				rp->msgs[rp->nmsgs++] = nlh;
		}
	}
	return rp->err;
}

/* Resolve the "hcube" family and its "events" group. */
static inline int hnl_open(struct hnl *h)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1, rcv = 4 << 20;
	struct nlattr *a, *g, *grp;
	struct hreply rp;
	struct hreq *r;
	int rem, grem;

	memset(h, 0, sizeof(*h));
	h->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (h->fd < 0)
		return -errno;
	setsockopt(h->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(h->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(h->fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	if (bind(h->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -errno;
	r = malloc(sizeof(*r));
	if (!r)
		return -ENOMEM;
	hreq_init(r, h, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	hreq_str(r, CTRL_ATTR_FAMILY_NAME, HCUBE_FAMILY_NAME);
	if (hnl_do(h, r, &rp) || !rp.nmsgs) {
		int err = rp.err ? rp.err : -ENOENT;

		hreply_free(&rp);
		free(r);
		return err;
	}
	a = hnl_msg_attr(rp.msgs[0], CTRL_ATTR_FAMILY_ID);
	h->family = a ? *(uint16_t *)hnl_data(a) : 0;
	grp = hnl_msg_attr(rp.msgs[0], CTRL_ATTR_MCAST_GROUPS);
	if (grp) {
		hnl_for_each_attr(g, hnl_data(grp), hnl_len(grp), rem) {
			struct nlattr *name = NULL, *id = NULL, *x;

			hnl_for_each_attr(x, hnl_data(g), hnl_len(g), grem) {
				if (x->nla_type == CTRL_ATTR_MCAST_GRP_NAME)
					name = x;
				if (x->nla_type == CTRL_ATTR_MCAST_GRP_ID)
					id = x;
			}
			if (name && id && !strcmp(hnl_data(name), HCUBE_MCGRP_EVENTS))
				h->mcgrp = hnl_u32(id);
		}
	}
	hreply_free(&rp);
	free(r);
	return h->family ? 0 : -ENOENT;
}

static inline void hnl_close(struct hnl *h)
{
	close(h->fd);
}

#endif
