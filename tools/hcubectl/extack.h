/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcubectl: the netlink extended ack of an error (or of a dump's NLMSG_DONE),
 * parsed from the raw message, and the attribute map that turns the offset
 * of a rejected attribute back into what the request said.
 *
 * Pure C over bytes (no libnl), so that it can be unit tested: every read
 * stays inside the buffer it is given, whatever that buffer holds.
 */
#ifndef HCUBECTL_EXTACK_H
#define HCUBECTL_EXTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HC_EXTACK_MSG_MAX	256

/* What NLMSGERR_ATTR_POLICY said about the rejected attribute. */
struct hc_policy {
	bool has_type, has_min_s, has_max_s, has_min_u, has_max_u;
	bool has_min_len, has_max_len, has_mask;
	uint32_t type;			/* enum netlink_attribute_type */
	int64_t min_s, max_s;
	uint64_t min_u, max_u;
	uint32_t min_len, max_len;
	uint64_t mask;
};

struct hc_extack {
	int error;		/* positive errno; 0 for a plain ack */
	bool done;		/* it was an NLMSG_DONE (a dump's end) */
	bool capped;		/* the request was not echoed */
	bool has_msg, has_offs, has_miss_type, has_miss_nest, has_policy;
	char msg[HC_EXTACK_MSG_MAX];	/* control characters replaced */
	uint32_t offs;		/* of the bad attribute, from the request's nlmsghdr */
	uint32_t miss_type;	/* type of a missing attribute */
	uint32_t miss_nest;	/* offset of the nest it is missing from */
	struct hc_policy policy;
};

/*
 * Parse an NLMSG_ERROR or NLMSG_DONE message: @len bytes at @buf (the message
 * may claim more than @len; only @len bytes are read). Returns 0, or -EINVAL
 * if the buffer does not hold such a message's fixed part. Malformed TLVs
 * end the parse silently: what was parsed before them is kept.
 */
int hc_extack_parse(const void *buf, size_t len, struct hc_extack *ext);

/*
 * The valid values from the policy, like " (valid range 0..15)", or "" when
 * the policy says nothing useful (no policy, or the full range of its type).
 * Returns the length written (snprintf semantics, truncated to @size).
 */
int hc_extack_range(const struct hc_extack *ext, char *buf, size_t size);

/* One attribute the request carries: where it is and what it means. */
struct hc_attr_label {
	uint32_t offs;		/* from the start of the request's nlmsghdr */
	uint32_t len;		/* nla_len, header included */
	char label[64];		/* e.g. "pid 1234" */
};

struct hc_attrmap {
	struct hc_attr_label *v;
	size_t n, cap;
};

/* Returns 0 or -ENOMEM. The label is truncated to fit. */
int hc_attrmap_add(struct hc_attrmap *m, uint32_t offs, uint32_t len,
		   const char *label);
/*
 * The label of the attribute at @offs: an exact match, else the smallest
 * attribute (a nest) that contains @offs; NULL if none does.
 */
const char *hc_attrmap_find(const struct hc_attrmap *m, uint32_t offs);
void hc_attrmap_free(struct hc_attrmap *m);

/*
 * Everything after "hcubectl: <what failed>: " on the error line:
 *   [<label>: ]<strerror>[: <kernel message>][ (valid range a..b)]
 *   [ (missing attribute <name>)]
 * @map (may be NULL) names the attribute at the offset; @attr_names (may be
 * NULL, @nnames entries) names the top-level attribute types for a missing
 * attribute. Returns the length written (snprintf semantics).
 */
int hc_extack_describe(const struct hc_extack *ext, const struct hc_attrmap *map,
		       const char *const *attr_names, size_t nnames,
		       char *buf, size_t size);

#endif
