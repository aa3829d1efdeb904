/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of mpi_test share (tq.c): TAP from rank 0, random
 * numbers, the application's queue (units of variable size and weight,
 * by count and by weight), gathering at rank 0, the scenarios, and the
 * oracle: the hcube core's own evacuation and plan.
 */
#ifndef MPI_TEST_TQ_H
#define MPI_TEST_TQ_H

#include <stdbool.h>
#include <mpi.h>
#include <linux/hcube.h>
#include "hcube_core_ext.h"
#include "hcube_mpi.h"

#define MAXV	HCUBE_MAX_VERTICES

extern int rank, size;
extern u32 dim, nv;

/* ---- TAP from rank 0 ---- */
void result(bool pass, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool shared(bool pass);		/* rank 0's verdict, on every rank */
bool all(bool pass);		/* every rank's verdict */
bool all_intact(bool mine);	/* every rank's, at rank 0 */
int tap_failures(void);
int tap_tests(void);

u64 sm64(u64 *x);
u32 below(u64 *x, u32 n);

/* ---- the application's queue ---- */

#define MAX_EXTRA	24

struct unit {
	u64 id;
	u64 check;		/* sm64 of the id, xor its weight */
	u64 weight;
	u8 nextra;		/* pattern bytes: id % 4 * 8 */
	u8 extra[MAX_EXTRA];
	bool chosen;		/* by pack_weight()'s size query */
};

struct queue {
	struct unit *u;
	u32 n, cap;
};

/*
 * The weight of a new unit: 0 all 1; 1 uniform in 1..1000; 2 mostly 1..10,
 * one in ten 200..5000; 3 in 0..3; 4 in 2^36..2^37 (totals beyond the
 * core's 31 bits: the library plans on shifted weights).
 */
extern u32 weight_kind;
#define WEIGHT_KINDS	5

extern struct queue Q;
extern const struct hcube_mpi_ops ops, ops_w;
/* The largest message pack wrote, in bytes (what the pieces see). */
extern size_t max_packed;

void q_add(struct queue *q, u64 id);
void fill(struct queue *q, u64 base, u32 n);
bool q_intact(const struct queue *q);
u64 q_weight_of(const struct queue *q, u64 *heaviest);

/* ---- gathering at rank 0 ---- */
int cmp_u64(const void *a, const void *b);
u32 *gather_u32(u32 v);
u64 *gather_u64(u64 v);
void *gatherv(const void *mine, u32 count, size_t elem, u32 *n);
/* Every rank's units' ids at rank 0, *@n of them. */
u64 *gather_ids(u32 *n);
/* The same transfers (step, from, to, count, weight), in any order. */
bool same_xfers(struct hcube_mpi_xfer *a, u32 na, struct hcube_mpi_xfer *b,
		u32 nb, char *why, size_t len);
/* Every rank's exports (xfers and evacs) and imports, the same multiset. */
bool imports_match(const struct hcube_mpi_report *r, char *why, size_t len);

/* ---- scenarios ---- */
struct scen {
	u32 load[MAXV];
	u8 faulty[MAXV];
	u32 late[MAXV];		/* units a faulty rank gets after marking */
};

void draw(struct scen *s, u64 seed, u32 idx);
const char *pname(u32 p);
/* Every rank healthy, and @n fresh units from @base in this rank's queue. */
void restart(struct hcube_mpi *h, u64 base, u32 n);
/* Every rank healthy, this rank's scenario load, then the faulty marked. */
int start_scenario(struct hcube_mpi *h, const struct scen *s, u64 base,
		   struct hcube_mpi_report *mrep);
/* Components of healthy labels (as the core finds them), by label. */
void components(const u8 *state, u16 *comp);
/*
 * @got holds the core's plan (@want) and, after its last step, only
 * transfers between healthy ranks of one component: the settle's.
 */
bool plan_then_settle(struct hcube_mpi_xfer *got, u32 ngot,
		      struct hcube_mpi_xfer *want, u32 nwant, char *why,
		      size_t len);

/* ---- the oracle (rank 0): the core alone ---- */
struct oracle {
	u8 state[MAXV];
	u32 load[MAXV];			/* after the evacuation */
	struct hcube_mpi_xfer evac[MAXV * 4];
	u32 nevac;
	struct hcube_topo topo;
	struct hcube_plan plan;
	void *topo_mem, *plan_mem, *work;
	/* CWA observer: theta messages per label */
	struct hcube_cwa_observer obs;
	u32 th_sent[MAXV], th_recv[MAXV];
};

extern struct oracle O;

void oracle_init(void);
void oracle_states(const struct scen *s);
/*
 * The module's evacuation, faulty labels in order, on @before (the
 * core's loads); by weight @count says which ranks hold units (a rank
 * of weightless units counts as one) and the amounts are shifted left
 * by @shift.
 */
void oracle_evacuate(const u32 *before, const u32 *count, bool by_weight,
		     u32 shift);
int oracle_plan(u32 policy);
/* The core's plan as the report's transfers (by weight: amounts << shift). */
struct hcube_mpi_xfer *oracle_xfers(bool by_weight, u32 shift);

#endif
