// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of hcubectl's extended-ack parser: netlink error (and dump-end)
 * messages built by hand, byte by byte, as the kernel lays them out -
 * capped and uncapped, with and without each TLV - plus truncated and
 * garbage ones. Every message lives in a malloc'ed buffer of exactly its
 * size, so that AddressSanitizer catches any read past it.
 *
 * Prints TAP; exits 1 if a check failed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>
#include "extack.h"

static int ntests, nfailed;

static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	ntests++;
	if (!ok)
		nfailed++;
	printf("%s %d - ", ok ? "ok" : "not ok", ntests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static void check_str(const char *got, const char *want, const char *what)
{
	check(!strcmp(got, want), "%s: got \"%s\", want \"%s\"", what, got, want);
}

/* ---- a byte buffer to build messages in ---- */

struct buf {
	uint8_t d[8192];
	size_t len;
};

static void put(struct buf *b, const void *p, size_t n)
{
	memcpy(b->d + b->len, p, n);
	b->len += n;
}

static void pad4(struct buf *b)
{
	while (b->len % 4)
		b->d[b->len++] = 0;
}

static size_t nest_begin(struct buf *b, uint16_t type)
{
	struct nlattr nla = { .nla_len = 0, .nla_type = type };
	size_t off = b->len;

	put(b, &nla, sizeof(nla));
	return off;
}

static void nest_end(struct buf *b, size_t off)
{
	uint16_t len = (uint16_t)(b->len - off);

	memcpy(b->d + off, &len, sizeof(len));
	pad4(b);
}

static void attr(struct buf *b, uint16_t type, const void *p, size_t n)
{
	size_t off = nest_begin(b, type);

	put(b, p, n);
	nest_end(b, off);
}

static void attr_u32(struct buf *b, uint16_t type, uint32_t v)
{
	attr(b, type, &v, sizeof(v));
}

static void attr_u64(struct buf *b, uint16_t type, uint64_t v)
{
	attr(b, type, &v, sizeof(v));
}

static void attr_s64(struct buf *b, uint16_t type, int64_t v)
{
	attr(b, type, &v, sizeof(v));
}

static void attr_str(struct buf *b, uint16_t type, const char *s)
{
	attr(b, type, s, strlen(s) + 1);
}

/*
 * The start of an NLMSG_ERROR for a request of @req_len bytes (header
 * included); unless @capped, @req_len - 16 bytes of request payload
 * (filled with @echo_fill) follow, padded to 4.
 */
static void error_begin(struct buf *b, int error, uint16_t flags, uint32_t req_len,
			bool capped, uint8_t echo_fill)
{
	struct nlmsghdr nlh = {
		.nlmsg_type = NLMSG_ERROR,
		.nlmsg_flags = flags | (capped ? NLM_F_CAPPED : 0),
		.nlmsg_seq = 7, .nlmsg_pid = 1234,
	};
	struct nlmsgerr e = {
		.error = error,
		.msg = { .nlmsg_len = req_len, .nlmsg_type = 0x20, .nlmsg_flags = 5,
			 .nlmsg_seq = 7, .nlmsg_pid = 1234 },
	};

	b->len = 0;
	put(b, &nlh, sizeof(nlh));
	put(b, &e, sizeof(e));
	if (!capped) {
		size_t i;

		for (i = 0; i < req_len - sizeof(struct nlmsghdr); i++)
			b->d[b->len++] = echo_fill;
		pad4(b);
	}
}

static void done_begin(struct buf *b, int32_t error, uint16_t flags)
{
	struct nlmsghdr nlh = {
		.nlmsg_type = NLMSG_DONE, .nlmsg_flags = NLM_F_MULTI | flags,
	};

	b->len = 0;
	put(b, &nlh, sizeof(nlh));
	put(b, &error, sizeof(error));
}

/* Set nlmsg_len and return an exact-size heap copy. */
static uint8_t *finish(struct buf *b)
{
	uint32_t len = (uint32_t)b->len;
	uint8_t *p = malloc(b->len);

	memcpy(b->d, &len, sizeof(len));
	memcpy(p, b->d, b->len);
	return p;
}

static int parse(struct buf *b, struct hc_extack *ext)
{
	uint8_t *p = finish(b);
	int ret = hc_extack_parse(p, b->len, ext);

	free(p);
	return ret;
}

/* A policy nest as netlink_policy_dump_write_attr() writes it for a u32. */
static void policy_u32(struct buf *b, uint64_t min, uint64_t max)
{
	size_t n = nest_begin(b, NLMSGERR_ATTR_POLICY | NLA_F_NESTED);

	attr_u32(b, NL_POLICY_TYPE_ATTR_TYPE, NL_ATTR_TYPE_U32);
	attr_u64(b, NL_POLICY_TYPE_ATTR_MIN_VALUE_U, min);
	attr_u64(b, NL_POLICY_TYPE_ATTR_MAX_VALUE_U, max);
	nest_end(b, n);
}

static const char *const names[] = {
	[0] = "HCUBE_A_UNSPEC", [15] = "HCUBE_A_CPU", [17] = "HCUBE_A_PID",
};

static void describe(const struct hc_extack *ext, const struct hc_attrmap *map,
		     char *out, size_t size)
{
	hc_extack_describe(ext, map, names, sizeof(names) / sizeof(names[0]), out, size);
}

static void test_plain(void)
{
	struct hc_extack ext;
	struct buf b;
	char out[512];

	/* A plain ack: error 0, capped (the kernel always caps acks). */
	error_begin(&b, 0, 0, 36, true, 0);
	check(parse(&b, &ext) == 0, "ack: parses");
	check(ext.error == 0 && !ext.has_msg && !ext.has_offs && !ext.has_policy &&
	      !ext.done, "ack: error 0, nothing else");

	/* An error without extended ack. */
	error_begin(&b, -EINVAL, 0, 36, true, 0);
	check(parse(&b, &ext) == 0 && ext.error == EINVAL && ext.capped,
	      "capped error without TLVs: EINVAL, capped");
	check(!ext.has_msg && !ext.has_offs && !ext.has_policy && !ext.has_miss_type,
	      "capped error without TLVs: no TLV found");
	describe(&ext, NULL, out, sizeof(out));
	check_str(out, strerror(EINVAL), "capped error without TLVs: description");

	/* Uncapped, without TLVs: only the echo follows. */
	error_begin(&b, -EPERM, 0, 44, false, 0x41);
	check(parse(&b, &ext) == 0 && ext.error == EPERM && !ext.capped && !ext.has_msg,
	      "uncapped error without TLVs: EPERM, no message");
}

static void test_full(bool capped)
{
	const char *kind = capped ? "capped" : "uncapped";
	struct hc_attrmap map = { 0 };
	struct hc_extack ext;
	char out[512], want[512];
	struct buf b;

	/* A u32 out of range: message, offset, policy. */
	error_begin(&b, -ERANGE, NLM_F_ACK_TLVS, 44, capped, 0x55);
	attr_str(&b, NLMSGERR_ATTR_MSG, "integer out of range");
	attr_u32(&b, NLMSGERR_ATTR_OFFS, 36);
	policy_u32(&b, 0, 15);
	check(parse(&b, &ext) == 0, "%s full: parses", kind);
	check(ext.error == ERANGE, "%s full: error %d", kind, ext.error);
	check(ext.has_msg, "%s full: has message", kind);
	check_str(ext.msg, "integer out of range", kind);
	check(ext.has_offs && ext.offs == 36, "%s full: offset %u", kind, ext.offs);
	check(ext.has_policy && ext.policy.has_type &&
	      ext.policy.type == NL_ATTR_TYPE_U32, "%s full: policy type u32", kind);
	check(ext.policy.has_min_u && ext.policy.min_u == 0 &&
	      ext.policy.has_max_u && ext.policy.max_u == 15,
	      "%s full: policy range 0..15", kind);
	check(!ext.policy.has_min_s && !ext.policy.has_max_s && !ext.policy.has_max_len,
	      "%s full: nothing else in the policy", kind);

	hc_attrmap_add(&map, 20, 8, "pid 1");
	hc_attrmap_add(&map, 28, 8, "pid 2");
	hc_attrmap_add(&map, 36, 8, "cpu 99");
	describe(&ext, &map, out, sizeof(out));
	snprintf(want, sizeof(want), "cpu 99: %s: integer out of range (valid range 0..15)",
		 strerror(ERANGE));
	check_str(out, want, "full: description names the attribute");
	describe(&ext, NULL, out, sizeof(out));
	snprintf(want, sizeof(want), "%s: integer out of range (valid range 0..15)",
		 strerror(ERANGE));
	check_str(out, want, "full: description without a map");
	hc_attrmap_free(&map);
}

static void test_echo_is_skipped(void)
{
	struct hc_extack ext;
	struct buf b;
	size_t i;

	/*
	 * An uncapped error whose echoed request (37 bytes of payload: padded
	 * to 40) looks like TLVs itself: a MSG attribute "WRONG" and an OFFS.
	 * The parser must skip the whole echo.
	 */
	error_begin(&b, -ENOENT, NLM_F_ACK_TLVS, 16 + 37, false, 0);
	{
		size_t echo = b.len - 40;
		struct buf fake = { .len = 0 };

		attr_str(&fake, NLMSGERR_ATTR_MSG, "WRONG");
		attr_u32(&fake, NLMSGERR_ATTR_OFFS, 999);
		for (i = 0; i < fake.len && i < 37; i++)
			b.d[echo + i] = fake.d[i];
	}
	attr_str(&b, NLMSGERR_ATTR_MSG, "HCUBE_A_PID: no such process");
	attr_u32(&b, NLMSGERR_ATTR_OFFS, 24);
	check(parse(&b, &ext) == 0 && ext.error == ENOENT, "echo skipped: parses");
	check_str(ext.msg, "HCUBE_A_PID: no such process", "echo skipped: message");
	check(ext.offs == 24, "echo skipped: offset %u (not the echo's 999)", ext.offs);

	/* The same bytes read as capped would find the fake TLVs: flags matter. */
	{
		uint16_t flags = NLM_F_ACK_TLVS | NLM_F_CAPPED;

		memcpy(b.d + 6, &flags, sizeof(flags));
		check(parse(&b, &ext) == 0 && ext.has_msg && !strcmp(ext.msg, "WRONG"),
		      "NLM_F_CAPPED decides where the TLVs start");
	}
}

static void test_flags(void)
{
	struct hc_extack ext;
	struct buf b;

	/* TLV bytes present, NLM_F_ACK_TLVS not set: not TLVs. */
	error_begin(&b, -EINVAL, 0, 36, true, 0);
	attr_str(&b, NLMSGERR_ATTR_MSG, "ignored");
	check(parse(&b, &ext) == 0 && ext.error == EINVAL && !ext.has_msg,
	      "no NLM_F_ACK_TLVS: trailing bytes ignored");

	/* Success with a warning message. */
	error_begin(&b, 0, NLM_F_ACK_TLVS, 36, true, 0);
	attr_str(&b, NLMSGERR_ATTR_MSG, "policy ignored for this cube");
	check(parse(&b, &ext) == 0 && ext.error == 0 && ext.has_msg &&
	      !strcmp(ext.msg, "policy ignored for this cube"), "ack with a warning");
}

static void test_done(void)
{
	struct hc_extack ext;
	char out[512], want[512];
	struct buf b;

	done_begin(&b, 0, 0);
	check(parse(&b, &ext) == 0 && ext.done && ext.error == 0 && !ext.has_msg,
	      "DONE: success");

	done_begin(&b, -ENOENT, NLM_F_ACK_TLVS);
	attr_str(&b, NLMSGERR_ATTR_MSG, "the cube changed during the dump");
	check(parse(&b, &ext) == 0 && ext.done && ext.error == ENOENT,
	      "DONE with an error: ENOENT");
	describe(&ext, NULL, out, sizeof(out));
	snprintf(want, sizeof(want), "%s: the cube changed during the dump",
		 strerror(ENOENT));
	check_str(out, want, "DONE with an error: description");

	/* DONE shorter than its int */
	done_begin(&b, 0, 0);
	b.len = 18;
	check(parse(&b, &ext) == -EINVAL, "DONE of 18 bytes: rejected");
}

static void test_policies(void)
{
	struct hc_extack ext;
	char out[512];
	struct buf b;
	size_t n;

	/* A signed range. */
	error_begin(&b, -ERANGE, NLM_F_ACK_TLVS, 36, true, 0);
	n = nest_begin(&b, NLMSGERR_ATTR_POLICY);
	attr_u32(&b, NL_POLICY_TYPE_ATTR_TYPE, NL_ATTR_TYPE_S32);
	attr_s64(&b, NL_POLICY_TYPE_ATTR_MIN_VALUE_S, -5);
	attr_s64(&b, NL_POLICY_TYPE_ATTR_MAX_VALUE_S, 5);
	nest_end(&b, n);
	check(parse(&b, &ext) == 0 && ext.policy.has_min_s && ext.policy.min_s == -5 &&
	      ext.policy.has_max_s && ext.policy.max_s == 5, "signed policy: -5..5");
	hc_extack_range(&ext, out, sizeof(out));
	check_str(out, " (valid range -5..5)", "signed policy: range text");

	/* The full range of a u32 says nothing: no range printed. */
	error_begin(&b, -EINVAL, NLM_F_ACK_TLVS, 36, true, 0);
	policy_u32(&b, 0, UINT32_MAX);
	check(parse(&b, &ext) == 0 && ext.policy.max_u == UINT32_MAX,
	      "full u32 policy: parsed");
	hc_extack_range(&ext, out, sizeof(out));
	check_str(out, "", "full u32 policy: no range text");

	/* A string's maximum length. */
	error_begin(&b, -EINVAL, NLM_F_ACK_TLVS, 36, true, 0);
	n = nest_begin(&b, NLMSGERR_ATTR_POLICY | NLA_F_NESTED);
	attr_u32(&b, NL_POLICY_TYPE_ATTR_TYPE, NL_ATTR_TYPE_NUL_STRING);
	attr_u32(&b, NL_POLICY_TYPE_ATTR_MAX_LENGTH, 4095);
	nest_end(&b, n);
	check(parse(&b, &ext) == 0 && ext.policy.has_max_len &&
	      ext.policy.max_len == 4095 && !ext.policy.has_min_len,
	      "string policy: max length 4095");
	hc_extack_range(&ext, out, sizeof(out));
	check_str(out, " (maximum length 4095)", "string policy: text");

	/* Only a maximum; a mask. */
	error_begin(&b, -EINVAL, NLM_F_ACK_TLVS, 36, true, 0);
	n = nest_begin(&b, NLMSGERR_ATTR_POLICY);
	attr_u64(&b, NL_POLICY_TYPE_ATTR_MAX_VALUE_U, 1000000);
	attr_u64(&b, NL_POLICY_TYPE_ATTR_MASK, 0x3);
	nest_end(&b, n);
	check(parse(&b, &ext) == 0, "max and mask: parses");
	hc_extack_range(&ext, out, sizeof(out));
	check_str(out, " (maximum 1000000, valid bits 0x3)", "max and mask: text");

	/* 32-bit values where 64-bit ones are expected are taken too. */
	error_begin(&b, -ERANGE, NLM_F_ACK_TLVS, 36, true, 0);
	n = nest_begin(&b, NLMSGERR_ATTR_POLICY);
	attr_u32(&b, NL_POLICY_TYPE_ATTR_MIN_VALUE_U, 10);
	attr_u32(&b, NL_POLICY_TYPE_ATTR_MAX_VALUE_U, 3600000);
	nest_end(&b, n);
	check(parse(&b, &ext) == 0, "32-bit policy values: parses");
	hc_extack_range(&ext, out, sizeof(out));
	check_str(out, " (valid range 10..3600000)", "32-bit policy values: text");

	/* A policy value too short to be one: ignored. */
	error_begin(&b, -ERANGE, NLM_F_ACK_TLVS, 36, true, 0);
	n = nest_begin(&b, NLMSGERR_ATTR_POLICY);
	attr(&b, NL_POLICY_TYPE_ATTR_MAX_VALUE_U, "\x01\x02", 2);
	nest_end(&b, n);
	check(parse(&b, &ext) == 0 && ext.has_policy && !ext.policy.has_max_u,
	      "2-byte policy value: ignored");
}

static void test_missing(void)
{
	struct hc_attrmap map = { 0 };
	struct hc_extack ext;
	char out[512], want[512];
	struct buf b;

	error_begin(&b, -EINVAL, NLM_F_ACK_TLVS, 36, true, 0);
	attr_str(&b, NLMSGERR_ATTR_MSG, "missing attribute");
	attr_u32(&b, NLMSGERR_ATTR_MISS_TYPE, 17);
	check(parse(&b, &ext) == 0 && ext.has_miss_type && ext.miss_type == 17 &&
	      !ext.has_miss_nest, "missing attribute: type 17");
	describe(&ext, NULL, out, sizeof(out));
	snprintf(want, sizeof(want), "%s: missing attribute (missing attribute HCUBE_A_PID)",
		 strerror(EINVAL));
	check_str(out, want, "missing attribute: named");

	error_begin(&b, -EINVAL, NLM_F_ACK_TLVS, 36, true, 0);
	attr_u32(&b, NLMSGERR_ATTR_MISS_TYPE, 3);
	attr_u32(&b, NLMSGERR_ATTR_MISS_NEST, 20);
	hc_attrmap_add(&map, 20, 16, "config");
	check(parse(&b, &ext) == 0 && ext.has_miss_nest && ext.miss_nest == 20,
	      "missing in a nest: nest offset 20");
	describe(&ext, &map, out, sizeof(out));
	snprintf(want, sizeof(want), "%s (missing attribute 3 in config)", strerror(EINVAL));
	check_str(out, want, "missing in a nest: named");

	/* a type beyond the names table */
	error_begin(&b, -EINVAL, NLM_F_ACK_TLVS, 36, true, 0);
	attr_u32(&b, NLMSGERR_ATTR_MISS_TYPE, 300);
	parse(&b, &ext);
	describe(&ext, NULL, out, sizeof(out));
	snprintf(want, sizeof(want), "%s (missing attribute 300)", strerror(EINVAL));
	check_str(out, want, "missing attribute beyond the names: number");
	hc_attrmap_free(&map);
}

static void test_messages(void)
{
	struct hc_extack ext;
	char long_msg[600];
	struct buf b;
	size_t off;

	/* No NUL: the message runs to the end of the attribute. */
	error_begin(&b, -EINVAL, NLM_F_ACK_TLVS, 36, true, 0);
	attr(&b, NLMSGERR_ATTR_MSG, "abcdefg", 7);
	check(parse(&b, &ext) == 0 && ext.has_msg && !strcmp(ext.msg, "abcdefg"),
	      "message without NUL: bounded by the attribute");

	/* Control characters do not reach the terminal. */
	error_begin(&b, -EINVAL, NLM_F_ACK_TLVS, 36, true, 0);
	attr_str(&b, NLMSGERR_ATTR_MSG, "bad\n\x1b[31mred");
	check(parse(&b, &ext) == 0 && !strcmp(ext.msg, "bad??[31mred"),
	      "message with control characters: replaced (%s)", ext.msg);

	/* A long message is cut. */
	memset(long_msg, 'x', sizeof(long_msg) - 1);
	long_msg[sizeof(long_msg) - 1] = '\0';
	error_begin(&b, -EINVAL, NLM_F_ACK_TLVS, 36, true, 0);
	attr_str(&b, NLMSGERR_ATTR_MSG, long_msg);
	check(parse(&b, &ext) == 0 && strlen(ext.msg) == HC_EXTACK_MSG_MAX - 1,
	      "long message: cut to %d bytes", HC_EXTACK_MSG_MAX - 1);

	/* An empty message is no message. */
	error_begin(&b, -EINVAL, NLM_F_ACK_TLVS, 36, true, 0);
	attr(&b, NLMSGERR_ATTR_MSG, "", 0);
	attr_u32(&b, NLMSGERR_ATTR_OFFS, 20);
	check(parse(&b, &ext) == 0 && !ext.has_msg && ext.has_offs && ext.offs == 20,
	      "empty message: none, offset still read");

	/* Unknown TLVs (a cookie, a future type) are skipped. */
	error_begin(&b, -EINVAL, NLM_F_ACK_TLVS, 36, true, 0);
	attr(&b, NLMSGERR_ATTR_COOKIE, "\x01\x02\x03\x04\x05", 5);
	attr_u32(&b, 77, 1);
	attr_str(&b, NLMSGERR_ATTR_MSG, "after unknown");
	check(parse(&b, &ext) == 0 && !strcmp(ext.msg, "after unknown"),
	      "unknown TLVs skipped");

	/* An OFFS of 2 bytes is not an offset. */
	error_begin(&b, -EINVAL, NLM_F_ACK_TLVS, 36, true, 0);
	off = nest_begin(&b, NLMSGERR_ATTR_OFFS);
	b.d[b.len++] = 1;
	b.d[b.len++] = 2;
	nest_end(&b, off);
	check(parse(&b, &ext) == 0 && !ext.has_offs, "short OFFS: ignored");
}

static void test_errors(void)
{
	struct hc_extack ext;
	uint8_t *p;
	struct buf b;

	/* Odd error values. */
	error_begin(&b, INT32_MIN, 0, 36, true, 0);
	check(parse(&b, &ext) == 0 && ext.error == EPROTO, "error INT_MIN: EPROTO");
	error_begin(&b, 5, 0, 36, true, 0);
	check(parse(&b, &ext) == 0 && ext.error == 5, "positive error: kept");

	/* Too short for the fixed parts. */
	check(hc_extack_parse(NULL, 0, &ext) == -EINVAL, "NULL: rejected");
	error_begin(&b, -EINVAL, 0, 36, true, 0);
	p = finish(&b);
	check(hc_extack_parse(p, 15, &ext) == -EINVAL, "15 bytes: rejected");
	check(hc_extack_parse(p, 35, &ext) == -EINVAL, "error of 35 bytes: rejected");
	free(p);
	b.len = 35;
	check(parse(&b, &ext) == -EINVAL, "error whose nlmsg_len is 35: rejected");

	/* nlmsg_len below the header size */
	error_begin(&b, -EINVAL, 0, 36, true, 0);
	p = finish(&b);
	{
		uint32_t bad = 8;

		memcpy(p, &bad, sizeof(bad));
	}
	check(hc_extack_parse(p, b.len, &ext) == -EINVAL, "nlmsg_len 8: rejected");
	free(p);

	/* Not an error message at all */
	error_begin(&b, -EINVAL, 0, 36, true, 0);
	b.d[4] = 0x20;
	b.d[5] = 0;
	check(parse(&b, &ext) == -EINVAL, "type 0x20: rejected");
}

static void test_truncated(void)
{
	struct hc_extack ext;
	struct buf b;
	size_t full, cut, n;
	uint8_t *p;

	/* A TLV that claims more than there is: parsing stops there. */
	error_begin(&b, -ERANGE, NLM_F_ACK_TLVS, 36, true, 0);
	attr_str(&b, NLMSGERR_ATTR_MSG, "kept");
	n = nest_begin(&b, NLMSGERR_ATTR_OFFS);
	attr_u32(&b, 0, 0);
	nest_end(&b, n);
	{
		uint16_t lie = 200;

		memcpy(b.d + n, &lie, sizeof(lie));
	}
	check(parse(&b, &ext) == 0 && ext.has_msg && !strcmp(ext.msg, "kept") &&
	      !ext.has_offs, "TLV longer than the message: earlier TLVs kept");

	/* A TLV with nla_len < 4 (would loop forever if trusted). */
	error_begin(&b, -ERANGE, NLM_F_ACK_TLVS, 36, true, 0);
	attr_str(&b, NLMSGERR_ATTR_MSG, "first");
	{
		struct nlattr z = { .nla_len = 2, .nla_type = NLMSGERR_ATTR_OFFS };

		put(&b, &z, sizeof(z));
	}
	attr_u32(&b, NLMSGERR_ATTR_OFFS, 40);
	check(parse(&b, &ext) == 0 && !strcmp(ext.msg, "first") && !ext.has_offs,
	      "TLV with nla_len 2: stop");

	/* A policy nest whose inner TLV overruns the nest. */
	error_begin(&b, -ERANGE, NLM_F_ACK_TLVS, 36, true, 0);
	n = nest_begin(&b, NLMSGERR_ATTR_POLICY);
	attr_u64(&b, NL_POLICY_TYPE_ATTR_MIN_VALUE_U, 1);
	attr_u64(&b, NL_POLICY_TYPE_ATTR_MAX_VALUE_U, 9);
	nest_end(&b, n);
	{
		uint16_t nest_len = 4 + 12 + 6;	/* cuts the second value */

		memcpy(b.d + n, &nest_len, sizeof(nest_len));
	}
	attr_u32(&b, NLMSGERR_ATTR_OFFS, 20);
	check(parse(&b, &ext) == 0 && ext.policy.has_min_u && !ext.policy.has_max_u,
	      "policy nest cut inside: first value only");

	/* A full message cut at every length: never reads past the cut. */
	error_begin(&b, -ERANGE, NLM_F_ACK_TLVS, 16 + 20, false, 0x33);
	attr_str(&b, NLMSGERR_ATTR_MSG, "integer out of range");
	attr_u32(&b, NLMSGERR_ATTR_OFFS, 20);
	policy_u32(&b, 1, 64);
	attr_u32(&b, NLMSGERR_ATTR_MISS_TYPE, 4);
	full = b.len;
	p = finish(&b);
	for (cut = 0; cut <= full; cut++) {
		uint8_t *q = malloc(cut ? cut : 1);

		memcpy(q, p, cut);
		hc_extack_parse(q, cut, &ext);
		free(q);
	}
	check(hc_extack_parse(p, full, &ext) == 0 && ext.has_miss_type &&
	      ext.policy.max_u == 64, "message cut at every length: no overread, whole one parses");

	/* nlmsg_len larger than the buffer: only the buffer is read. */
	{
		uint32_t big = 60000;
		char out[64];

		memcpy(p, &big, sizeof(big));
		check(hc_extack_parse(p, full, &ext) == 0 && ext.has_msg,
		      "nlmsg_len beyond the buffer: buffer bounds the parse");
		n = (size_t)hc_extack_describe(&ext, NULL, NULL, 0, out, sizeof(out));
		check(n > sizeof(out) - 1 && strlen(out) == sizeof(out) - 1,
		      "describe into a small buffer: cut, full length returned");
		check(hc_extack_range(&ext, NULL, 0) > 0, "range into no buffer: length only");
	}
	free(p);
}

/* Random bytes, and random bit flips of a good message: must not crash. */
static void test_garbage(void)
{
	static const char *const no_names[1];
	struct hc_attrmap map = { 0 };
	struct hc_extack ext;
	unsigned int seed = 12345;
	char out[1024];
	struct buf b;
	uint8_t *good;
	size_t good_len;
	int i, parsed = 0;

	hc_attrmap_add(&map, 20, 8, "a");
	hc_attrmap_add(&map, 28, 100, "b");
	for (i = 0; i < 20000; i++) {
		size_t len = (size_t)(rand_r(&seed) % 200), k;
		uint8_t *p = malloc(len ? len : 1);

		for (k = 0; k < len; k++)
			p[k] = (uint8_t)rand_r(&seed);
		if (len >= 6 && i % 2) {	/* make it look like an error */
			uint32_t l = (uint32_t)len;
			uint16_t t = i % 4 == 1 ? NLMSG_ERROR : NLMSG_DONE;

			memcpy(p, &l, sizeof(l));
			memcpy(p + 4, &t, sizeof(t));
		}
		if (!hc_extack_parse(p, len, &ext)) {
			parsed++;
			hc_extack_describe(&ext, &map, no_names, 1, out, sizeof(out));
		}
		free(p);
	}
	check(parsed > 0, "random messages: %d of 20000 parsed, no crash", parsed);

	error_begin(&b, -ERANGE, NLM_F_ACK_TLVS, 40, false, 0x11);
	attr_str(&b, NLMSGERR_ATTR_MSG, "integer out of range");
	attr_u32(&b, NLMSGERR_ATTR_OFFS, 28);
	policy_u32(&b, 0, 15);
	good_len = b.len;
	good = finish(&b);
	for (i = 0; i < 20000; i++) {
		uint8_t *p = malloc(good_len);
		int flips = 1 + rand_r(&seed) % 4, f;

		memcpy(p, good, good_len);
		for (f = 0; f < flips; f++)
			p[rand_r(&seed) % good_len] ^= (uint8_t)(1U << (rand_r(&seed) % 8));
		if (!hc_extack_parse(p, good_len, &ext))
			hc_extack_describe(&ext, &map, no_names, 1, out, sizeof(out));
		free(p);
	}
	free(good);
	check(1, "bit-flipped messages: no crash");
	hc_attrmap_free(&map);
}

static void test_attrmap(void)
{
	struct hc_attrmap map = { 0 };
	char long_label[100];
	const char *l;
	int i;

	check(hc_attrmap_find(NULL, 20) == NULL, "attrmap: NULL map");
	check(hc_attrmap_find(&map, 20) == NULL, "attrmap: empty map");
	hc_attrmap_add(&map, 20, 8, "pid 10");
	hc_attrmap_add(&map, 28, 28, "config");		/* a nest: 28..55 */
	hc_attrmap_add(&map, 32, 8, "threshold 7");	/* inside it */
	hc_attrmap_add(&map, 40, 8, "cooldown 5");
	l = hc_attrmap_find(&map, 20);
	check(l && !strcmp(l, "pid 10"), "attrmap: exact offset");
	l = hc_attrmap_find(&map, 40);
	check(l && !strcmp(l, "cooldown 5"), "attrmap: exact offset inside a nest");
	l = hc_attrmap_find(&map, 28);
	check(l && !strcmp(l, "config"), "attrmap: the nest itself");
	l = hc_attrmap_find(&map, 52);
	check(l && !strcmp(l, "config"), "attrmap: inside the nest, past its members");
	l = hc_attrmap_find(&map, 36);
	check(l && !strcmp(l, "threshold 7"), "attrmap: inside a member: the member");
	check(hc_attrmap_find(&map, 56) == NULL, "attrmap: past everything");
	check(hc_attrmap_find(&map, 4) == NULL, "attrmap: in the headers");

	memset(long_label, 'y', sizeof(long_label) - 1);
	long_label[sizeof(long_label) - 1] = '\0';
	hc_attrmap_add(&map, 100, 8, long_label);
	l = hc_attrmap_find(&map, 100);
	check(l && strlen(l) == sizeof(map.v[0].label) - 1, "attrmap: long label cut");
	for (i = 0; i < 1000; i++)
		hc_attrmap_add(&map, 200 + 8 * (uint32_t)i, 8, "many");
	l = hc_attrmap_find(&map, 200 + 8 * 999);
	check(l && !strcmp(l, "many") && map.n == 1005, "attrmap: grows");
	hc_attrmap_free(&map);
	check(map.n == 0 && map.v == NULL, "attrmap: freed");
}

int main(void)
{
	printf("TAP version 13\n");
	test_plain();
	test_full(true);
	test_full(false);
	test_echo_is_skipped();
	test_flags();
	test_done();
	test_policies();
	test_missing();
	test_messages();
	test_errors();
	test_truncated();
	test_garbage();
	test_attrmap();
	printf("1..%d\n", ntests);
	if (nfailed)
		printf("# %d of %d failed\n", nfailed, ntests);
	return nfailed ? 1 : 0;
}
