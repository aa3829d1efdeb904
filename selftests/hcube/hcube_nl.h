/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal raw generic netlink client for the hcube kselftests and
 * hcube_bench: requests built by hand, every reply and the extended ack
 * (message, offset of the bad attribute, policy range, missing attribute)
 * kept for the tests. The functions are in hcube_nl.c, which every test
 * program and the bench link; the attribute accessors are inline here.
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

/*
 * A request in a buffer of the caller's (the bench's can be larger than
 * struct hreq's): @nlh gets the headers of command @cmd of family @type,
 * with NLM_F_REQUEST | NLM_F_ACK | @flags and sequence number @seq.
 */
void hnl_msg_init(struct nlmsghdr *nlh, uint16_t type, uint8_t cmd,
		  uint16_t flags, uint32_t seq);
/* Append an attribute to @nlh, which has room for it; returns it. */
struct nlattr *hnl_msg_put(struct nlmsghdr *nlh, uint16_t type,
			   const void *data, uint16_t len);

void hreq_init(struct hreq *r, struct hnl *h, uint16_t type, uint8_t cmd,
	       uint16_t flags);
/* Append an attribute; returns its offset from the start of the message. */
uint32_t hreq_put(struct hreq *r, uint16_t type, const void *data, uint16_t len);
uint32_t hreq_nest_start(struct hreq *r, uint16_t type);
void hreq_nest_end(struct hreq *r);

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

void hreply_free(struct hreply *rp);
/* The extended ack of the error or done message @nlh, into @rp. */
void hnl_parse_ext_ack(struct hreply *rp, struct nlmsghdr *nlh);
/* Send @r and gather everything up to its ack, error or end of dump. */
int hnl_do(struct hnl *h, struct hreq *r, struct hreply *rp);
/* Resolve the "hcube" family and its "events" group. */
int hnl_open(struct hnl *h);
void hnl_close(struct hnl *h);

#endif
