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
 * Every message: this header, @nval 64-bit values, then the packed units.
 * @src and @dst are the logical ends (a relay forwards when @dst is not
 * itself); @round and @hop place a hop in the core's step numbering.
 */
struct hm_hdr {
	u32 type;
	u32 src, dst;
	u32 round, hop;
	u32 units;
	u32 nval;
	u32 reserved;
};

#define HM_MAX_VAL	(HCUBE_MAX_DIM + 2)

struct hm_msg {
	struct hm_hdr hdr;
	s64 val[HM_MAX_VAL];
	void *buf;		/* the whole message, owned */
	size_t len;
	size_t payload;		/* offset of the packed units */
	int source;		/* the MPI sender (a relay for routed messages) */
	bool taken;		/* units unpacked or forwarded */
};

/* A transfer as logged before SBN's steps are known: round and hop. */
struct hm_log {
	u32 round, hop;		/* round 0: @step is final */
	u32 step;
	u32 from, to, count;
};

struct hcube_mpi {
	MPI_Comm comm;
	int rank, size;
	u32 dim, nv;
	const struct hcube_mpi_ops *ops;
	void *queue;
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

	/* the report of the call under way */
	struct hcube_mpi_report rep;
	struct hm_log *log;
	u32 nlog, caplog;
	struct hcube_mpi_xfer *xf, *ev;
	u32 capxf, capev, nev;

	MPI_Op agree_op;
	char errmsg[256];
};

/* base.c */
int hm_fail(struct hcube_mpi *h, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void hm_fatal(struct hcube_mpi *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
void *hm_alloc(struct hcube_mpi *h, size_t bytes);
bool hm_healthy(const struct hcube_mpi *h, u32 v);

/* msg.c */
void hm_send(struct hcube_mpi *h, u32 to, int tag, u32 type, const s64 *val,
	     u32 nval, u32 units, u32 round, u32 hop, u32 dst);
/* A message between neighbours, its units logged at @step. */
void hm_send_step(struct hcube_mpi *h, u32 to, int tag, const s64 *val,
		  u32 nval, u32 units, u32 step);
void hm_recv(struct hcube_mpi *h, u32 from, int tag, struct hm_msg *m);
void hm_take(struct hcube_mpi *h, struct hm_msg *m);
void hm_msg_free(struct hm_msg *m);
void hm_log(struct hcube_mpi *h, u32 round, u32 hop, u32 step, u32 from,
	    u32 to, u32 count);
void hm_sends_wait(struct hcube_mpi *h);
/* SBN: routed sends, relaying, waiting for one message among others. */
void hm_send_routed(struct hcube_mpi *h, u32 to, u32 type, const s64 *val,
		    u32 nval, u32 units, u32 round);
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

#endif
