// SPDX-License-Identifier: GPL-2.0
/*
 * The fake kernel's generic netlink side (fakekernel.c describes the
 * fake): the real libc functions it passes on to, its generic netlink
 * sockets each with a queue of messages to read, messages built as the
 * kernel lays them out, and acks and errors with extended-ack TLVs and
 * policy nests, as netlink_ack() writes them.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fake.h"

/* ---- the real functions ---- */

typeof(socket) *real_socket;
typeof(setsockopt) *real_setsockopt;
typeof(sendmsg) *real_sendmsg;
typeof(recvmsg) *real_recvmsg;
typeof(poll) *real_poll;
typeof(ppoll) *real_ppoll;
typeof(fopen) *real_fopen;
typeof(statfs) *real_statfs;
typeof(close) *real_close;

void resolve(void)
{
	if (real_socket)
		return;
	real_socket = dlsym(RTLD_NEXT, "socket");
	real_setsockopt = dlsym(RTLD_NEXT, "setsockopt");
	real_sendmsg = dlsym(RTLD_NEXT, "sendmsg");
	real_recvmsg = dlsym(RTLD_NEXT, "recvmsg");
	real_poll = dlsym(RTLD_NEXT, "poll");
	real_ppoll = dlsym(RTLD_NEXT, "ppoll");
	real_fopen = dlsym(RTLD_NEXT, "fopen");
	real_statfs = dlsym(RTLD_NEXT, "statfs");
	real_close = dlsym(RTLD_NEXT, "close");
}

/* ---- the generic netlink sockets and their queues of messages to read ---- */

/*
 * The generic netlink sockets (hcubectl top has two: requests and events),
 * each with its own queue; @cur_gsock is the one whose request or
 * membership is being answered.
 */
#define MAX_GSOCKS	8

static struct gsock gsocks[MAX_GSOCKS] = { [0 ... MAX_GSOCKS - 1] = { .fd = -1 } };
struct gsock *cur_gsock;

struct gsock *gsock_of(int fd)
{
	size_t i;

	for (i = 0; fd >= 0 && i < MAX_GSOCKS; i++)
		if (gsocks[i].fd == fd)
			return &gsocks[i];
	return NULL;
}

static void enqueue(const void *data, size_t len)
{
	struct qmsg *m = malloc(sizeof(*m) + len);

	if (!m)
		abort();
	m->next = NULL;
	m->len = len;
	memcpy(m->data, data, len);
	*cur_gsock->qtail = m;
	cur_gsock->qtail = &m->next;
}

void dequeue(struct gsock *g)
{
	struct qmsg *m = g->qhead;

	g->qhead = m->next;
	if (!g->qhead)
		g->qtail = &g->qhead;
	free(m);
}

void gsock_new(int fd)
{
	struct gsock *g = gsock_of(fd);
	size_t i;

	for (i = 0; !g && i < MAX_GSOCKS; i++)
		if (gsocks[i].fd < 0)
			g = &gsocks[i];
	if (!g) {
		fprintf(stderr, "fake kernel: more than %d generic netlink sockets\n", MAX_GSOCKS);
		abort();
	}
	while (g->qhead)
		dequeue(g);
	*g = (struct gsock){ .fd = fd };
	g->qtail = &g->qhead;
}

void gsock_close(int fd)
{
	struct gsock *g = gsock_of(fd);

	if (!g)
		return;
	while (g->qhead)
		dequeue(g);
	g->fd = -1;
}

/* ---- building messages ---- */

static void mb_room(struct mb *b, size_t n)
{
	if (b->len + n <= b->cap)
		return;
	b->cap = 2 * (b->len + n) + 4096;
	b->d = realloc(b->d, b->cap);
	if (!b->d)
		abort();
}

void mb_put(struct mb *b, const void *p, size_t n)
{
	mb_room(b, n + 4);
	memcpy(b->d + b->len, p, n);
	b->len += n;
	while (b->len % 4)
		b->d[b->len++] = 0;
}

void msg_begin(struct mb *b, uint16_t type, uint16_t flags, uint32_t seq, uint32_t pid,
	       int cmd)
{
	struct nlmsghdr nlh = {
		.nlmsg_type = type, .nlmsg_flags = flags, .nlmsg_seq = seq,
		.nlmsg_pid = pid,
	};

	b->len = 0;
	b->msg = 0;
	mb_put(b, &nlh, sizeof(nlh));
	if (cmd >= 0) {
		struct genlmsghdr gh = { .cmd = (uint8_t)cmd, .version = 1 };

		mb_put(b, &gh, sizeof(gh));
	}
}

void msg_end_queue(struct mb *b)
{
	uint32_t len = (uint32_t)b->len;

	memcpy(b->d, &len, sizeof(len));
	enqueue(b->d, b->len);
}

size_t nest_begin(struct mb *b, uint16_t type)
{
	struct nlattr nla = { .nla_type = type };
	size_t off = b->len;

	mb_put(b, &nla, sizeof(nla));
	return off;
}

/* An attribute of @len bytes must fit nla_len: else it says so (@said bytes), aborts. */
static void check_nla_len(unsigned int type, size_t len, size_t said)
{
	if (len <= 0xffff)
		return;
	fprintf(stderr, "fake kernel: attribute %u of %zu bytes does not fit nla_len\n", type,
		said);
	abort();
}

void nest_end(struct mb *b, size_t off)
{
	size_t len = b->len - off;

	check_nla_len(b->d[off + 2] | b->d[off + 3] << 8, len, len);
	memcpy(b->d + off, &(uint16_t){ (uint16_t)len }, 2);
}

void put_attr(struct mb *b, uint16_t type, const void *p, size_t n)
{
	struct nlattr nla = { .nla_len = (uint16_t)(NLA_HDRLEN + n), .nla_type = type };

	check_nla_len(type, NLA_HDRLEN + n, n);
	mb_put(b, &nla, sizeof(nla));
	mb_put(b, p, n);
}

void put_u32(struct mb *b, uint16_t type, uint32_t v)
{
	put_attr(b, type, &v, sizeof(v));
}

void put_str(struct mb *b, uint16_t type, const char *s)
{
	put_attr(b, type, s, strlen(s) + 1);
}

void put_u64(struct mb *b, uint16_t type, uint64_t v, uint16_t pad)
{
	if ((b->len + NLA_HDRLEN) % 8)
		put_attr(b, pad, NULL, 0);
	put_attr(b, type, &v, sizeof(v));
}

/* ---- acks and errors ---- */

void policy_range(const struct nla_policy *pt, uint64_t *min, uint64_t *max)
{
	static const uint64_t type_max[__NLA_TYPE_MAX] = {
		[NLA_U8] = UINT8_MAX, [NLA_U16] = UINT16_MAX, [NLA_U32] = UINT32_MAX,
		[NLA_U64] = UINT64_MAX,
	};

	*min = 0;
	*max = type_max[pt->type];
	switch (pt->validation_type) {
	case NLA_VALIDATE_RANGE:
		*min = (uint64_t)pt->min;
		*max = (uint64_t)pt->max;
		break;
	case NLA_VALIDATE_RANGE_PTR:
		*min = pt->range->min;
		*max = pt->range->max;
		break;
	case NLA_VALIDATE_MIN:
		*min = (uint64_t)pt->min;
		break;
	case NLA_VALIDATE_MAX:
		*max = (uint64_t)pt->max;
		break;
	default:
		break;
	}
}

static void put_range(struct mb *b, u32 type, uint64_t min, uint64_t max)
{
	size_t n = nest_begin(b, NLMSGERR_ATTR_POLICY | NLA_F_NESTED);

	put_u32(b, NL_POLICY_TYPE_ATTR_TYPE, type);
	put_u64(b, NL_POLICY_TYPE_ATTR_MIN_VALUE_U, min, NL_POLICY_TYPE_ATTR_PAD);
	put_u64(b, NL_POLICY_TYPE_ATTR_MAX_VALUE_U, max, NL_POLICY_TYPE_ATTR_PAD);
	nest_end(b, n);
}

/* An attribute's policy in an ack, as netlink_policy_dump_write_attr(). */
static void put_policy(struct mb *b, const struct nla_policy *pt)
{
	static const u32 nl_type[__NLA_TYPE_MAX] = {
		[NLA_U8] = NL_ATTR_TYPE_U8, [NLA_U16] = NL_ATTR_TYPE_U16,
		[NLA_U32] = NL_ATTR_TYPE_U32, [NLA_U64] = NL_ATTR_TYPE_U64,
		[NLA_STRING] = NL_ATTR_TYPE_STRING, [NLA_NUL_STRING] = NL_ATTR_TYPE_NUL_STRING,
		[NLA_BINARY] = NL_ATTR_TYPE_BINARY, [NLA_FLAG] = NL_ATTR_TYPE_FLAG,
		[NLA_NESTED] = NL_ATTR_TYPE_NESTED,
	};
	uint64_t min, max;
	size_t n;

	switch (pt->type) {
	case NLA_U8: case NLA_U16: case NLA_U32: case NLA_U64:
		policy_range(pt, &min, &max);
		put_range(b, nl_type[pt->type], min, max);
		break;
	case NLA_STRING: case NLA_NUL_STRING: case NLA_BINARY: case NLA_FLAG: case NLA_NESTED:
		n = nest_begin(b, NLMSGERR_ATTR_POLICY | NLA_F_NESTED);
		put_u32(b, NL_POLICY_TYPE_ATTR_TYPE, nl_type[pt->type]);
		if (pt->type != NLA_FLAG && pt->type != NLA_NESTED && pt->len)
			put_u32(b, NL_POLICY_TYPE_ATTR_MAX_LENGTH, pt->len);
		nest_end(b, n);
		break;
	default:
		break;	/* NLA_REJECT, NLA_UNSPEC: no policy to show */
	}
}

void queue_error(const struct nlmsghdr *req, int error, const struct ext *x)
{
	bool tlvs = x && (x->msg || x->has_offs || x->pol || x->has_range || x->has_miss);
	bool capped = cur_gsock->cap_ack || !error;
	struct nlmsgerr e = { .error = error };
	struct mb b = { 0 };

	msg_begin(&b, NLMSG_ERROR, (capped ? NLM_F_CAPPED : 0) |
		  (tlvs ? NLM_F_ACK_TLVS : 0), req->nlmsg_seq, req->nlmsg_pid, -1);
	memcpy(&e.msg, req, sizeof(*req));
	mb_put(&b, &e, sizeof(e));
	if (!capped)
		mb_put(&b, (const uint8_t *)req + NLMSG_HDRLEN,
		       req->nlmsg_len - NLMSG_HDRLEN);
	if (tlvs && x->msg)
		put_str(&b, NLMSGERR_ATTR_MSG, x->msg);
	if (tlvs && x->has_offs)
		put_u32(&b, NLMSGERR_ATTR_OFFS, x->offs);
	if (tlvs && x->has_miss)
		put_u32(&b, NLMSGERR_ATTR_MISS_TYPE, x->miss_type);
	if (tlvs && x->pol)
		put_policy(&b, x->pol);
	else if (tlvs && x->has_range)
		put_range(&b, NL_ATTR_TYPE_U32, x->min, x->max);
	msg_end_queue(&b);
	free(b.d);
}

void queue_ack(const struct nlmsghdr *req)
{
	if (req->nlmsg_flags & NLM_F_ACK)
		queue_error(req, 0, NULL);
}

void queue_done(const struct nlmsghdr *req)
{
	struct mb b = { 0 };
	int32_t zero = 0;

	msg_begin(&b, NLMSG_DONE, NLM_F_MULTI, req->nlmsg_seq, req->nlmsg_pid, -1);
	mb_put(&b, &zero, sizeof(zero));
	msg_end_queue(&b);
	free(b.d);
}

void reply_begin(struct mb *b, const struct req *r, uint16_t flags)
{
	msg_begin(b, FAKE_FAMILY, flags, r->nlh->nlmsg_seq, r->nlh->nlmsg_pid, r->cmd);
}

u32 get_u32(const struct nlattr *a)
{
	u32 v;

	memcpy(&v, (const uint8_t *)a + NLA_HDRLEN, sizeof(v));
	return v;
}

static uint32_t offs_of(const struct req *r, const void *attr)
{
	return (uint32_t)((const uint8_t *)attr - (const uint8_t *)r->nlh);
}

bool fail(const struct req *r, int error, const char *msg, const void *attr, bool range,
	  uint64_t min, uint64_t max)
{
	struct ext x = {
		.msg = msg, .has_offs = attr != NULL,
		.offs = attr ? offs_of(r, attr) : 0,
		.has_range = range, .min = min, .max = max,
	};

	queue_error(r->nlh, -error, &x);
	return false;
}

bool fail_pol(const struct req *r, int error, const char *msg, const void *attr,
	      const struct nla_policy *pol)
{
	struct ext x = {
		.msg = msg, .has_offs = attr != NULL,
		.offs = attr ? offs_of(r, attr) : 0, .pol = pol,
	};

	queue_error(r->nlh, -error, &x);
	return false;
}

void fail_miss(const struct req *r, const char *msg, uint32_t type)
{
	struct ext x = { .msg = msg, .has_miss = true, .miss_type = type };

	queue_error(r->nlh, -EINVAL, &x);
}
