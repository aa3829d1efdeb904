/* SPDX-License-Identifier: GPL-2.0 */
/* libhcube-mpi: declarations shared by the library's files. */
#ifndef HCUBE_MPI_HM_H
#define HCUBE_MPI_HM_H

#include <stdbool.h>
#include <linux/bitops.h>
#include "hcube_core_ext.h"
#include "hcube_mpi.h"

/* Message tags on the library's own communicator, one per kind. */
enum hm_tag {
	HM_TAG_EVAC = 1,	/* a faulty rank's units */
	HM_TAG_LT,		/* MCWA: l_t up a tree */
	HM_TAG_L,		/* CWA/MCWA: l^j across a dimension of C_b */
	HM_TAG_QT,		/* MCWA: q_t down a tree */
	HM_TAG_UP,		/* MCWA: excess units up a tree */
	HM_TAG_THETA,		/* CWA/MCWA: theta vector and theta^0 units */
	HM_TAG_DOWN,		/* MCWA: units down a tree */
	HM_TAG_LOAD,		/* DEM: load across a dimension */
	HM_TAG_DEM,		/* DEM: units across a dimension */
	HM_TAG_SBN,		/* SBN: every message, relays included */
	HM_TAG_PLAN,		/* a gathered plan's transfers */
	HM_TAG_SETTLE,		/* by weight: the settle's transfers */
};

/* SBN message kinds (struct hm_hdr.type). */
enum hm_sbn_type {
	HM_SBN_DOWN = 1,	/* balancing message down: the sender's QLen */
	HM_SBN_EARLY,		/* early transfer of jobs to a predecessor */
	HM_SBN_SUM,		/* partial sum up: sum, QLen, early give */
	HM_SBN_DIST,		/* distribution: TotalJQ, the sender's QLen, jobs */
	HM_SBN_GIVE,		/* jobs up to a predecessor below SysLL */
};

/*
 * A message goes to MPI in pieces of at most HM_CHUNK bytes (MPI counts
 * are ints), all on its tag, the first holding the header; the tests
 * build the sanitizer flavour with a small HM_CHUNK.
 */
#ifndef HM_CHUNK
#define HM_CHUNK	((size_t)1 << 30)
#endif

/* An amount that asks for every unit (evacuation by weight). */
#define HM_ALL		((u64)-1)
/* The most weight the library balances: quotas stay exact in 64 bits. */
#define HM_MAX_WEIGHT	((u64)1 << 62)
/* The settle's rounds at most (Documentation/mpi.md). */
#define HM_SETTLE_MAX	256

/*
 * Every message: this header, @nval 64-bit values, then the packed units;
 * @bytes is the whole. @src and @dst are the logical ends (a relay
 * forwards when @dst is not itself); @round and @hop place a hop in the
 * core's step numbering.
 */
struct hm_hdr {
	u32 type;
	u32 src, dst;
	u32 round, hop;
	u32 units;
	u32 nval;
	u32 reserved;
	u64 weight;		/* the units' weight (by count: their number) */
	u64 bytes;
};

_Static_assert(HM_CHUNK >= sizeof(struct hm_hdr), "a message's first piece holds its header");

#define HM_MAX_VAL	(HCUBE_MAX_DIM + 2)

struct hm_msg {
	struct hm_hdr hdr;
	s64 val[HM_MAX_VAL];
	void *buf;		/* the whole message, owned */
	size_t len;
	size_t payload;		/* offset of the packed units */
	int source;		/* the MPI sender (a relay for routed messages) */
	int tag;
	bool taken;		/* units unpacked or forwarded */
};

/* A transfer as logged before SBN's steps are known: round and hop. */
struct hm_log {
	u32 round, hop;		/* round 0: @step is final */
	u32 step;
	u32 from, to, count;
	u64 weight;
};

/* A list of logged transfers. */
struct hm_logs {
	struct hm_log *l;
	u32 n, cap;
};

struct hcube_mpi {
	MPI_Comm comm;		/* MPI_COMM_NULL: this rank takes no part */
	int rank, size;
	u32 dim, nv;
	const struct hcube_mpi_ops *ops;
	void *queue;
	bool by_weight;
	double tolerance;
	/* hcube_mpi_set_sizer(): the queue's payload bytes, or NULL */
	uint64_t (*sizer)(void *queue);
	u8 state[HCUBE_MAX_VERTICES];
	u16 comp[HCUBE_MAX_VERTICES];	/* component of a healthy label */
	u32 ncomp;

	struct hcube_topo topo;
	struct hcube_plan plan;
	void *topo_mem, *plan_mem, *work;

	/* sends in flight, their buffers */
	MPI_Request *req;
	void **sbuf;
	u32 nreq, capreq;

	/* messages received but not yet wanted (SBN) */
	struct hm_msg *stash;
	u32 nstash, capstash;

	/* route lengths and next hops (SBN): distances to @bfs_to */
	u16 bfs_dist[HCUBE_MAX_VERTICES];
	u16 bfs_queue[HCUBE_MAX_VERTICES];
	u32 bfs_to;
	u32 max_len;		/* longest route of a transfer sent (SBN) */

	/*
	 * By weight, where a protocol plans amounts ahead (CWA, MCWA, the
	 * gathered plans): what this rank holds beyond its plan, added to
	 * its next send.
	 */
	s64 carry;

	/* hcube_mpi_plan(): this rank's planned loads, for the report */
	bool planned;
	u32 plan_after;
	u64 plan_weight_after;

	/* the report of the call under way */
	struct hcube_mpi_report rep;
	u64 payload_sent;	/* its units' bytes sent (hcube_mpi_payload_sent()) */
	struct hm_logs sent, recvd;
	struct hcube_mpi_xfer *xf, *ev, *im;
	u32 capxf, capev, capim, nev;

	MPI_Op agree_op;
	char errmsg[256];
};

/* base.c */
int hm_fail(struct hcube_mpi *h, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void hm_fatal(struct hcube_mpi *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
void *hm_alloc(struct hcube_mpi *h, size_t bytes);
void hm_grow(struct hcube_mpi *h, void **p, u32 *cap, u32 need, size_t elem);
bool hm_healthy(const struct hcube_mpi *h, u32 v);
/* This rank's load: units, or their weight (and its heaviest unit's). */
u64 hm_load(struct hcube_mpi *h, u64 *heaviest);
/*
 * The report's imbalance: max / avg, avg the total over the healthy
 * ranks, 1 with nothing; of every rank's load (@load[r * @stride]).
 */
double hm_ratio(u64 max, u64 total, u32 healthy);
double hm_imbalance(const struct hcube_mpi *h, const u64 *load, u32 stride);

/* msg.c */
/*
 * Send @amount of the queue (units, or weight by weight; HM_ALL: every
 * unit) to rank @to with @nval values; returns the amount that went.
 * The transfer is logged as (round, hop) for SBN (@round > 0), else as
 * step @hop. @dst is the logical destination (the same as @to unless
 * routed).
 */
u64 hm_send(struct hcube_mpi *h, u32 to, int tag, u32 type, const s64 *val,
	    u32 nval, u64 amount, u32 round, u32 hop, u32 dst);
/*
 * What the application chose to send, before it takes it: the first of
 * the two calls of pack() or pack_weight() (hm_pack_size()), so that the
 * caller can look at @t.taken before it sends (hm_send_chosen()). Units of
 * 0 bytes are taken at the first call: @need 0 with @t.units > 0.
 */
struct hm_pack {
	struct hcube_mpi_take t;
	ssize_t need;
	u32 before;		/* count() before the first call */
};

void hm_pack_size(struct hcube_mpi *h, u32 to, u64 amount, struct hm_pack *p);
/* Send what hm_pack_size() chose to rank @p->t.to, logged at @step. */
u64 hm_send_chosen(struct hcube_mpi *h, const struct hm_pack *p, int tag, u32 step);
/* Send a message back to its sender unchanged, its units not taken. */
void hm_bounce(struct hcube_mpi *h, struct hm_msg *m, u32 step);
/* A message between neighbours, its units logged at @step. */
u64 hm_send_step(struct hcube_mpi *h, u32 to, int tag, const s64 *val,
		 u32 nval, u64 amount, u32 step);
void hm_recv(struct hcube_mpi *h, u32 from, int tag, struct hm_msg *m);
/* Hand the message's units to the application; returns their amount. */
u64 hm_take(struct hcube_mpi *h, struct hm_msg *m);
/*
 * A planned amount (CWA, MCWA, gathered plans, evacuation): by count the
 * message must carry exactly @planned units; by weight what came is
 * accepted and the difference carried to this rank's next hm_give().
 */
u64 hm_accept(struct hcube_mpi *h, struct hm_msg *m, u64 planned);
u64 hm_give(struct hcube_mpi *h, u32 to, int tag, const s64 *val, u32 nval,
	    u64 planned, u32 step);
void hm_msg_free(struct hm_msg *m);
void hm_log(struct hcube_mpi *h, struct hm_logs *logs, u32 round, u32 hop,
	    u32 step, u32 from, u32 to, u32 count, u64 weight);
void hm_sends_wait(struct hcube_mpi *h);
/* SBN: routed sends, relaying, waiting for one message among others. */
u64 hm_send_routed(struct hcube_mpi *h, u32 to, u32 type, const s64 *val,
		   u32 nval, u64 amount, u32 round);
typedef bool (*hm_match_fn)(const struct hm_msg *m, const void *arg);
void hm_wait(struct hcube_mpi *h, hm_match_fn match, const void *arg,
	     struct hm_msg *m);
u32 hm_route_len(struct hcube_mpi *h, u32 from, u32 to);
void hm_finish_relays(struct hcube_mpi *h, u32 *max_len);

/* the policies */
void hm_cwa(struct hcube_mpi *h);
void hm_dem(struct hcube_mpi *h);
void hm_sbn(struct hcube_mpi *h, u32 root, const u64 *comp_total);
int hm_gathered(struct hcube_mpi *h, u32 policy);

/* plan.c: the core's plan on every rank's load (by weight, scaled) */
struct hm_view {
	u64 *load;		/* every rank's load */
	u32 *count;		/* every rank's units */
	u32 *scaled;		/* load >> shift: what the core plans on */
	u32 shift;
};

void hm_view_gather(struct hcube_mpi *h, struct hm_view *v);
void hm_view_free(struct hm_view *v);
int hm_plan_only(struct hcube_mpi *h, u32 policy, struct hm_view *v);
/* The module's evacuation on @v, faulty ranks in label order. */
typedef void (*hm_evac_fn)(struct hcube_mpi *h, u32 from, u32 to, u64 amount,
			   bool last);
void hm_evac_plan(struct hcube_mpi *h, struct hm_view *v, hm_evac_fn fn);

/*
 * settle.c: the closing pairwise exchanges, by weight after every policy,
 * by count after an SBN operation that raised the maximum.
 */
void hm_settle(struct hcube_mpi *h, u32 first_step);

#endif
