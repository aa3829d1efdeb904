// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl: parse the extended ack of a netlink error by hand (libnl 3.7
 * does not), and describe it on one line.
 *
 * Layout of an NLMSG_ERROR (see netlink_ack() in the kernel):
 *   struct nlmsghdr          flags: NLM_F_CAPPED, NLM_F_ACK_TLVS
 *   struct nlmsgerr          error, and the request's nlmsghdr
 *   [request payload]        unless NLM_F_CAPPED, NLMSG_ALIGN'ed
 *   [TLVs]                   if NLM_F_ACK_TLVS: NLMSGERR_ATTR_*
 * and of a dump's NLMSG_DONE: struct nlmsghdr, int error, [TLVs].
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>
#include "extack.h"

typedef void (*tlv_fn)(uint16_t type, const uint8_t *data, size_t len,
		       void *arg);

/* Call @fn for each well-formed TLV in [p, p + len); stop at the first bad one. */
static void walk_tlvs(const uint8_t *p, size_t len, tlv_fn fn, void *arg)
{
	size_t off = 0;

	while (off + NLA_HDRLEN <= len) {
		struct nlattr nla;

		memcpy(&nla, p + off, sizeof(nla));
		if (nla.nla_len < NLA_HDRLEN || nla.nla_len > len - off)
			return;
		fn(nla.nla_type & NLA_TYPE_MASK, p + off + NLA_HDRLEN,
		   nla.nla_len - NLA_HDRLEN, arg);
		off += NLA_ALIGN(nla.nla_len);
	}
}

static bool get_u32(const uint8_t *data, size_t len, uint32_t *v)
{
	if (len < sizeof(*v))
		return false;
	memcpy(v, data, sizeof(*v));
	return true;
}

/* A 64-bit policy value; a 32-bit one is accepted too. */
static bool get_u64(const uint8_t *data, size_t len, uint64_t *v)
{
	uint32_t v32;

	if (len >= sizeof(*v)) {
		memcpy(v, data, sizeof(*v));
		return true;
	}
	if (!get_u32(data, len, &v32))
		return false;
	*v = v32;
	return true;
}

static bool get_s64(const uint8_t *data, size_t len, int64_t *v)
{
	int32_t v32;

	if (len >= sizeof(*v)) {
		memcpy(v, data, sizeof(*v));
		return true;
	}
	if (len < sizeof(v32))
		return false;
	memcpy(&v32, data, sizeof(v32));
	*v = v32;
	return true;
}

static void policy_tlv(uint16_t type, const uint8_t *data, size_t len, void *arg)
{
	struct hc_policy *p = arg;
	uint32_t u32;

	switch (type) {
	case NL_POLICY_TYPE_ATTR_TYPE:
		p->has_type = get_u32(data, len, &p->type);
		break;
	case NL_POLICY_TYPE_ATTR_MIN_VALUE_S:
		p->has_min_s = get_s64(data, len, &p->min_s);
		break;
	case NL_POLICY_TYPE_ATTR_MAX_VALUE_S:
		p->has_max_s = get_s64(data, len, &p->max_s);
		break;
	case NL_POLICY_TYPE_ATTR_MIN_VALUE_U:
		p->has_min_u = get_u64(data, len, &p->min_u);
		break;
	case NL_POLICY_TYPE_ATTR_MAX_VALUE_U:
		p->has_max_u = get_u64(data, len, &p->max_u);
		break;
	case NL_POLICY_TYPE_ATTR_MIN_LENGTH:
		p->has_min_len = get_u32(data, len, &p->min_len);
		break;
	case NL_POLICY_TYPE_ATTR_MAX_LENGTH:
		p->has_max_len = get_u32(data, len, &p->max_len);
		break;
	case NL_POLICY_TYPE_ATTR_MASK:
		p->has_mask = get_u64(data, len, &p->mask);
		break;
	case NL_POLICY_TYPE_ATTR_BITFIELD32_MASK:
		if (get_u32(data, len, &u32)) {
			p->has_mask = true;
			p->mask = u32;
		}
		break;
	default:
		break;
	}
}

static void copy_msg(char *dst, const uint8_t *src, size_t len)
{
	size_t i;

	for (i = 0; i < len && i < HC_EXTACK_MSG_MAX - 1 && src[i]; i++)
		dst[i] = (src[i] < 0x20 || src[i] == 0x7f) ? '?' : (char)src[i];
	dst[i] = '\0';
}

static void err_tlv(uint16_t type, const uint8_t *data, size_t len, void *arg)
{
	struct hc_extack *ext = arg;

	switch (type) {
	case NLMSGERR_ATTR_MSG:
		copy_msg(ext->msg, data, len);
		ext->has_msg = ext->msg[0] != '\0';
		break;
	case NLMSGERR_ATTR_OFFS:
		ext->has_offs = get_u32(data, len, &ext->offs);
		break;
	case NLMSGERR_ATTR_MISS_TYPE:
		ext->has_miss_type = get_u32(data, len, &ext->miss_type);
		break;
	case NLMSGERR_ATTR_MISS_NEST:
		ext->has_miss_nest = get_u32(data, len, &ext->miss_nest);
		break;
	case NLMSGERR_ATTR_POLICY:
		memset(&ext->policy, 0, sizeof(ext->policy));
		walk_tlvs(data, len, policy_tlv, &ext->policy);
		ext->has_policy = true;
		break;
	default:
		break;
	}
}

/* The errno of a kernel error value (negative errno; anything else is odd). */
static int to_errno(int32_t v)
{
	if (v == INT32_MIN)
		return EPROTO;
	return v < 0 ? -v : v;
}

int hc_extack_parse(const void *buf, size_t len, struct hc_extack *ext)
{
	const uint8_t *p = buf;
	struct nlmsghdr nlh;
	size_t mlen, off;

	memset(ext, 0, sizeof(*ext));
	if (!buf || len < NLMSG_HDRLEN)
		return -EINVAL;
	memcpy(&nlh, p, sizeof(nlh));
	if (nlh.nlmsg_len < NLMSG_HDRLEN)
		return -EINVAL;
	mlen = nlh.nlmsg_len < len ? nlh.nlmsg_len : len;

	if (nlh.nlmsg_type == NLMSG_ERROR) {
		struct nlmsgerr e;

		if (mlen < NLMSG_HDRLEN + sizeof(e))
			return -EINVAL;
		memcpy(&e, p + NLMSG_HDRLEN, sizeof(e));
		ext->error = to_errno(e.error);
		ext->capped = nlh.nlmsg_flags & NLM_F_CAPPED;
		off = NLMSG_HDRLEN + sizeof(e);
		/* The echoed request: its payload follows the copied header. */
		if (!ext->capped && e.msg.nlmsg_len > NLMSG_HDRLEN)
			off += NLMSG_ALIGN((size_t)e.msg.nlmsg_len - NLMSG_HDRLEN);
	} else if (nlh.nlmsg_type == NLMSG_DONE) {
		int32_t v;

		if (mlen < NLMSG_HDRLEN + sizeof(v))
			return -EINVAL;
		memcpy(&v, p + NLMSG_HDRLEN, sizeof(v));
		ext->done = true;
		ext->capped = true;
		ext->error = v < 0 ? to_errno(v) : 0;
		off = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(v));
	} else {
		return -EINVAL;
	}

	if ((nlh.nlmsg_flags & NLM_F_ACK_TLVS) && off < mlen)
		walk_tlvs(p + off, mlen - off, err_tlv, ext);
	return 0;
}

/* Is [min, max] the whole range of the policy's integer type? */
static bool full_range_u(const struct hc_policy *p)
{
	uint64_t max;

	if (!p->has_type)
		return false;
	switch (p->type) {
	case NL_ATTR_TYPE_U8:
		max = UINT8_MAX;
		break;
	case NL_ATTR_TYPE_U16:
		max = UINT16_MAX;
		break;
	case NL_ATTR_TYPE_U32:
		max = UINT32_MAX;
		break;
	case NL_ATTR_TYPE_U64:
		max = UINT64_MAX;
		break;
	default:
		return false;
	}
	return p->min_u == 0 && p->max_u == max;
}

static bool full_range_s(const struct hc_policy *p)
{
	int64_t min, max;

	if (!p->has_type)
		return false;
	switch (p->type) {
	case NL_ATTR_TYPE_S8:
		min = INT8_MIN;
		max = INT8_MAX;
		break;
	case NL_ATTR_TYPE_S16:
		min = INT16_MIN;
		max = INT16_MAX;
		break;
	case NL_ATTR_TYPE_S32:
		min = INT32_MIN;
		max = INT32_MAX;
		break;
	case NL_ATTR_TYPE_S64:
		min = INT64_MIN;
		max = INT64_MAX;
		break;
	default:
		return false;
	}
	return p->min_s == min && p->max_s == max;
}

/* snprintf that appends at *pos and never lets *pos pass size - 1 in writes. */
struct sbuf {
	char *buf;
	size_t size;
	size_t pos;	/* the length it would have, untruncated */
};

static void sb_printf(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	size_t room = b->pos < b->size ? b->size - b->pos : 0;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? b->buf + b->pos : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->pos += (size_t)n;
}

static void sb_init(struct sbuf *b, char *buf, size_t size)
{
	b->buf = buf;
	b->size = size;
	b->pos = 0;
	if (size)
		buf[0] = '\0';
}

static int sb_len(const struct sbuf *b)
{
	return b->pos > INT_MAX ? INT_MAX : (int)b->pos;
}

/* Items of the parenthesis: "valid range 0..15", "maximum length 4096"... */
static void range_items(const struct hc_policy *p, struct sbuf *b)
{
	const char *sep = "";

#define ITEM(...) do {				\
		sb_printf(b, "%s", sep);	\
		sb_printf(b, __VA_ARGS__);	\
		sep = ", ";			\
	} while (0)
	if (p->has_min_u && p->has_max_u) {
		if (!full_range_u(p))
			ITEM("valid range %" PRIu64 "..%" PRIu64, p->min_u, p->max_u);
	} else if (p->has_min_u) {
		ITEM("minimum %" PRIu64, p->min_u);
	} else if (p->has_max_u) {
		ITEM("maximum %" PRIu64, p->max_u);
	}
	if (p->has_min_s && p->has_max_s) {
		if (!full_range_s(p))
			ITEM("valid range %" PRId64 "..%" PRId64, p->min_s, p->max_s);
	} else if (p->has_min_s) {
		ITEM("minimum %" PRId64, p->min_s);
	} else if (p->has_max_s) {
		ITEM("maximum %" PRId64, p->max_s);
	}
	if (p->has_min_len && p->has_max_len)
		ITEM("valid length %" PRIu32 "..%" PRIu32, p->min_len, p->max_len);
	else if (p->has_min_len)
		ITEM("minimum length %" PRIu32, p->min_len);
	else if (p->has_max_len)
		ITEM("maximum length %" PRIu32, p->max_len);
	if (p->has_mask)
		ITEM("valid bits 0x%" PRIx64, p->mask);
#undef ITEM
}

int hc_extack_range(const struct hc_extack *ext, char *buf, size_t size)
{
	char items[192];
	struct sbuf b, ib;

	sb_init(&b, buf, size);
	if (!ext->has_policy)
		return 0;
	sb_init(&ib, items, sizeof(items));
	range_items(&ext->policy, &ib);
	if (items[0])
		sb_printf(&b, " (%s)", items);
	return sb_len(&b);
}

int hc_attrmap_add(struct hc_attrmap *m, uint32_t offs, uint32_t len,
		   const char *label)
{
	struct hc_attr_label *e;

	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;
		void *v = realloc(m->v, cap * sizeof(*m->v));

		if (!v)
			return -ENOMEM;
		m->v = v;
		m->cap = cap;
	}
	e = &m->v[m->n++];
	e->offs = offs;
	e->len = len;
	snprintf(e->label, sizeof(e->label), "%s", label ? label : "");
	return 0;
}

const char *hc_attrmap_find(const struct hc_attrmap *m, uint32_t offs)
{
	const struct hc_attr_label *best = NULL;
	size_t i;

	if (!m)
		return NULL;
	for (i = 0; i < m->n; i++) {
		const struct hc_attr_label *e = &m->v[i];

		if (e->offs == offs)
			return e->label;
		if (offs > e->offs && offs - e->offs < e->len &&
		    (!best || e->len < best->len))
			best = e;
	}
	return best ? best->label : NULL;
}

void hc_attrmap_free(struct hc_attrmap *m)
{
	free(m->v);
	m->v = NULL;
	m->n = m->cap = 0;
}

int hc_extack_describe(const struct hc_extack *ext, const struct hc_attrmap *map,
		       const char *const *attr_names, size_t nnames,
		       char *buf, size_t size)
{
	const char *label = NULL;
	char range[224];
	struct sbuf b;

	sb_init(&b, buf, size);
	if (ext->has_offs)
		label = hc_attrmap_find(map, ext->offs);
	if (label && *label)
		sb_printf(&b, "%s: ", label);
	sb_printf(&b, "%s", strerror(ext->error));
	if (ext->has_msg)
		sb_printf(&b, ": %s", ext->msg);
	hc_extack_range(ext, range, sizeof(range));
	sb_printf(&b, "%s", range);
	if (ext->has_miss_type) {
		const char *nest = NULL;

		if (ext->has_miss_nest)
			nest = hc_attrmap_find(map, ext->miss_nest);
		if (ext->has_miss_nest)
			sb_printf(&b, " (missing attribute %" PRIu32 " in %s)",
				  ext->miss_type, nest && *nest ? nest : "a nest");
		else if (attr_names && ext->miss_type < nnames &&
			 attr_names[ext->miss_type])
			sb_printf(&b, " (missing attribute %s)",
				  attr_names[ext->miss_type]);
		else
			sb_printf(&b, " (missing attribute %" PRIu32 ")",
				  ext->miss_type);
	}
	return sb_len(&b);
}
