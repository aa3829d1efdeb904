/* SPDX-License-Identifier: GPL-2.0 */
/* hcube core: helpers shared by the core's files, not part of its API. */
#ifndef HCUBE_INTERNAL_H
#define HCUBE_INTERNAL_H

#include <linux/log2.h>
#include "hcube_core_ext.h"

/* Hands out consecutive 8-byte-aligned pieces of a caller's buffer. */
struct hcube_carver {
	void *pos;
};

static inline size_t hcube_align(size_t bytes)
{
	return (bytes + 7) & ~(size_t)7;
}

static inline void *hcube_carve(struct hcube_carver *c, size_t bytes)
{
	void *p = c->pos;

	c->pos = (char *)c->pos + hcube_align(bytes);
	return p;
}

/*
 * hcube_cube.c: the connected components of healthy vertices (joined by
 * paths of healthy vertices along hypercube edges), by breadth-first
 * search from the lowest label of each: comp[v] is the component of v,
 * numbered from 0 in order of their lowest labels, HCUBE_COMP_NONE for an
 * unusable vertex; size[c] the vertices of component c (@size may be
 * NULL). @queue: 1 << dim entries of scratch, left holding the healthy
 * vertices component by component. Returns the number of components.
 */
#define HCUBE_COMP_NONE		0xffffU
u32 hcube_components(u32 dim, const u8 *state, u16 *comp, u16 *size,
		     u16 *queue);

size_t hcube_topo_work_memsize(u32 dim);
/* The most transfers any policy can emit on a dim-cube. */
u32 hcube_plan_max_transfers(u32 dim);
size_t hcube_route_work_memsize(u32 dim);

/*
 * The plan builder (hcube_plan.c), below every policy. A policy's plan
 * function gets its arguments in struct hcube_plan_args, appends its
 * transfers with hcube_plan_emit() and sets nsteps and its statistics
 * (comm_steps, messages, ...); hcube_plan_build() starts and finishes the
 * plan around it (hcube_policy.c).
 */
struct hcube_plan_args {
	u32 policy;		/* the one planned: variants share a function */
	const struct hcube_cube *cube;
	/* a topology of the cube's states; checked with HCUBE_POLICY_F_TREES */
	const struct hcube_topo *topo;
	u64 budget;		/* work bound (auto's optimal), 0 = none */
	void *work;		/* hcube_work_memsize() bytes of scratch */
};

/* Reset @p for a plan of @policy: no transfers, statistics cleared. */
void hcube_plan_start(struct hcube_plan *p, u32 policy);
/* Append a transfer (count 0 is dropped); HCUBE_E_PLAN_SIZE when full. */
int hcube_plan_emit(struct hcube_plan *p, u32 step, u32 from, u32 to, u32 count);
/*
 * Replay @p from @cube's loads, checking every rule of a plan
 * (HCUBE_E_INTERNAL when one is broken), then fill in its final loads,
 * its statistics and its imbalance. @work: hcube_plan_work_memsize().
 */
int hcube_plan_finish(struct hcube_plan *p, const struct hcube_cube *cube,
		      void *work);
size_t hcube_plan_work_memsize(u32 dim);
/* Fill @stats' before/after fields from loads over the healthy vertices. */
void hcube_stats_loads(struct hcube_stats *s, u32 dim, const u8 *state,
		       const u32 *before, const u32 *after);

/* Whether @t was built from @cube's states (false for NULL). */
bool hcube_topo_matches(const struct hcube_topo *t,
			const struct hcube_cube *cube);

/*
 * A logical plan (hcube_lplan.c): transfers between any two healthy
 * vertices of one component, by logical round. Each is routed along a
 * shortest healthy path (direct when adjacent); hcube_lplan_emit() writes
 * the hops as plan transfers, round r taking steps (r - 1) * L + 1 ..
 * r * L with L the longest route, hop j of a route at step (r - 1) * L +
 * j + 1. If every vertex sends in a round at most what it held at the end
 * of the round before, the replay never goes negative: a relay forwards
 * in the step after it received.
 */
struct hcube_lxfer {
	u16 from, to;
	u16 round, len;		/* logical round (from 1); hops */
	u32 count;
	u32 path;		/* index in the pool of the len vertices after from */
};

struct hcube_lplan {
	u32 dim;
	const u8 *state;
	struct hcube_lxfer *x;
	u32 nx, cap;
	u16 *pool;
	u32 npool;
	u16 *dist, *queue;	/* breadth-first search towards bfs_to */
	u32 *order;		/* emit: transfers by round */
	u32 bfs_to;
	u32 max_len, max_round;
	u64 hops;		/* sum of count * len */
};

#define HCUBE_LPLAN_MAX_ROUND	(4 * HCUBE_MAX_DIM + 8)

size_t hcube_lplan_memsize(u32 dim);
void hcube_lplan_init(struct hcube_lplan *lp, u32 dim, const u8 *state,
		      void *mem);
/* Healthy hops from @u to @v, HCUBE_DIST_NONE if no healthy path. */
u32 hcube_lplan_dist(struct hcube_lplan *lp, u32 u, u32 v);
int hcube_lplan_add(struct hcube_lplan *lp, u32 from, u32 to, u32 count,
		    u32 round);
int hcube_lplan_emit(struct hcube_lplan *lp, struct hcube_plan *p);

/*
 * The policies, one struct hcube_policy_ops each, defined in the policy's
 * own file and listed in hcube_policies[] (hcube_policy.c); auto is
 * defined there.
 */
extern const struct hcube_policy_ops hcube_mcwa_ops;		/* hcube_cwa.c */
extern const struct hcube_policy_ops hcube_cwa_ops;		/* hcube_cwa.c */
extern const struct hcube_policy_ops hcube_dem_ops;		/* hcube_dem.c */
extern const struct hcube_policy_ops hcube_optimal_ops;		/* hcube_opt.c */
extern const struct hcube_policy_ops hcube_rid_ops;		/* hcube_diffuse.c */
extern const struct hcube_policy_ops hcube_sid_ops;		/* hcube_diffuse.c */
extern const struct hcube_policy_ops hcube_sbn_ops;		/* hcube_sbn.c */
extern const struct hcube_policy_ops hcube_sbn_cube_ops;	/* hcube_sbn.c */
extern const struct hcube_policy_ops hcube_sbn_heur_ops;	/* hcube_sbn.c */
extern const struct hcube_policy_ops hcube_pebble_ops;		/* hcube_pebble.c */

#endif
