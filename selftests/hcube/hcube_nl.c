// SPDX-License-Identifier: GPL-2.0
/*
 * The raw generic netlink client of the hcube kselftests and hcube_bench
 * (hcube_nl.h): building requests, gathering replies and their extended
 * ack, resolving the family.
 */
#include "hcube_nl.h"

void hnl_msg_init(struct nlmsghdr *nlh, uint16_t type, uint8_t cmd,
		  uint16_t flags, uint32_t seq)
{
	struct genlmsghdr *g;

	memset(nlh, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	nlh->nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = seq;
	g = NLMSG_DATA(nlh);
	g->cmd = cmd;
	g->version = 1;
}

struct nlattr *hnl_msg_put(struct nlmsghdr *nlh, uint16_t type,
			   const void *data, uint16_t len)
{
	struct nlattr *a = (struct nlattr *)((char *)nlh + NLMSG_ALIGN(nlh->nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy(hnl_data(a), data, len);
	memset((char *)a + a->nla_len, 0, NLA_ALIGN(a->nla_len) - a->nla_len);
	nlh->nlmsg_len = NLMSG_ALIGN(nlh->nlmsg_len) + NLA_ALIGN(a->nla_len);
	return a;
}

void hreq_init(struct hreq *r, struct hnl *h, uint16_t type, uint8_t cmd,
	       uint16_t flags)
{
	r->nlh = (struct nlmsghdr *)r->buf;
	hnl_msg_init(r->nlh, type, cmd, flags, ++h->seq);
	r->nest = NULL;
}

uint32_t hreq_put(struct hreq *r, uint16_t type, const void *data, uint16_t len)
{
	return (char *)hnl_msg_put(r->nlh, type, data, len) - r->buf;
}

uint32_t hreq_nest_start(struct hreq *r, uint16_t type)
{
	uint32_t off = hreq_put(r, type | NLA_F_NESTED, NULL, 0);

	r->nest = (struct nlattr *)(r->buf + off);
	return off;
}

void hreq_nest_end(struct hreq *r)
{
	r->nest->nla_len = r->buf + r->nlh->nlmsg_len - (char *)r->nest;
	r->nest = NULL;
}

void hreply_free(struct hreply *rp)
{
	free(rp->buf);
	memset(rp, 0, sizeof(*rp));
}

void hnl_parse_ext_ack(struct hreply *rp, struct nlmsghdr *nlh)
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

int hnl_do(struct hnl *h, struct hreq *r, struct hreply *rp)
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

int hnl_open(struct hnl *h)
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

void hnl_close(struct hnl *h)
{
	close(h->fd);
}
