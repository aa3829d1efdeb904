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

/**
 * hcube_check_states() - The checks every entry point taking a cube's
 * states starts with (hcube_cube.c).
 * @dim: the cube's dimension.
 * @state: the state of each of its 1 << @dim vertices.
 *
 * Return: HCUBE_E_DIM when @dim is above HCUBE_MAX_DIM, HCUBE_E_STATE when
 * a vertex's state is none of enum hcube_vstate's, else HCUBE_OK.
 */
int hcube_check_states(u32 dim, const u8 *state);

/**
 * hcube_components() - The connected components of healthy vertices.
 * @dim: the cube's dimension.
 * @state: the state of each vertex.
 * @comp: set for each vertex v to its component (joined by paths of healthy
 *        vertices along hypercube edges), numbered from 0 in order of their
 *        lowest labels; HCUBE_COMP_NONE for an unusable vertex.
 * @size: set for each component c to its vertices; may be NULL.
 * @queue: 1 << @dim entries of scratch, left holding the healthy vertices
 *         component by component.
 *
 * A breadth-first search from the lowest label of each (hcube_cube.c).
 *
 * Return: the number of components.
 */
u32 hcube_components(u32 dim, const u8 *state, u16 *comp, u16 *size,
		     u16 *queue);

/**
 * hcube_topo_work_memsize() - Scratch hcube_topo_build() needs.
 * @dim: the cube's dimension.
 *
 * Return: the bytes.
 */
size_t hcube_topo_work_memsize(u32 dim);

/**
 * hcube_plan_max_transfers() - Room for any policy's transfers.
 * @dim: the cube's dimension.
 *
 * Return: the most transfers any policy can emit on a @dim-cube.
 */
u32 hcube_plan_max_transfers(u32 dim);

/**
 * hcube_route_work_memsize() - Scratch hcube_plan_routes() needs.
 * @dim: the cube's dimension.
 *
 * Return: the bytes.
 */
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

/**
 * hcube_plan_start() - Reset a plan before a policy fills it.
 * @p: the plan.
 * @policy: the policy that plans: no transfers, statistics cleared.
 */
void hcube_plan_start(struct hcube_plan *p, u32 policy);

/**
 * hcube_plan_emit() - Append a transfer to a plan.
 * @p: the plan.
 * @step: the transfer's step.
 * @from: the sending vertex.
 * @to: the receiving vertex, a neighbour of @from.
 * @count: the tasks; a transfer of 0 is dropped.
 *
 * Return: HCUBE_OK, or HCUBE_E_PLAN_SIZE when the plan is full.
 */
int hcube_plan_emit(struct hcube_plan *p, u32 step, u32 from, u32 to, u32 count);

/**
 * hcube_plan_finish() - Check a plan and fill in its results.
 * @p: the plan a policy filled.
 * @cube: the loads and states it was planned for.
 * @work: hcube_plan_work_memsize() bytes of scratch.
 *
 * Replays @p from @cube's loads, checking every rule of a plan, then fills
 * in its final loads, its statistics and its imbalance.
 *
 * Return: HCUBE_OK, or HCUBE_E_INTERNAL when a rule is broken.
 */
int hcube_plan_finish(struct hcube_plan *p, const struct hcube_cube *cube,
		      void *work);

/**
 * hcube_plan_work_memsize() - Scratch hcube_plan_finish() needs.
 * @dim: the cube's dimension.
 *
 * Return: the bytes.
 */
size_t hcube_plan_work_memsize(u32 dim);

/**
 * hcube_stats_loads() - Fill the load fields of a plan's statistics.
 * @s: the statistics; their before and after fields are set.
 * @dim: the cube's dimension.
 * @state: the state of each vertex; only healthy vertices count.
 * @before: the loads before the plan.
 * @after: the loads after it.
 */
void hcube_stats_loads(struct hcube_stats *s, u32 dim, const u8 *state,
		       const u32 *before, const u32 *after);

/**
 * hcube_topo_matches() - Whether a topology fits a cube.
 * @t: the topology, or NULL.
 * @cube: the cube.
 *
 * Return: true when @t was built from @cube's states; false for NULL.
 */
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

/**
 * hcube_lplan_memsize() - Memory a logical plan needs.
 * @dim: the cube's dimension.
 *
 * Return: the bytes hcube_lplan_init() lays a logical plan out in.
 */
size_t hcube_lplan_memsize(u32 dim);

/**
 * hcube_lplan_init() - Start an empty logical plan.
 * @lp: the logical plan.
 * @dim: the cube's dimension.
 * @state: the state of each vertex; it must outlive @lp.
 * @mem: hcube_lplan_memsize(@dim) bytes, aligned to 8.
 */
void hcube_lplan_init(struct hcube_lplan *lp, u32 dim, const u8 *state,
		      void *mem);

/**
 * hcube_lplan_dist() - Healthy hops between two vertices.
 * @lp: the logical plan, whose states count.
 * @u: one vertex.
 * @v: the other.
 *
 * Return: the length of a shortest path of healthy vertices, or
 * HCUBE_DIST_NONE when there is none.
 */
u32 hcube_lplan_dist(struct hcube_lplan *lp, u32 u, u32 v);

/**
 * hcube_lplan_add() - Add a logical transfer, routed at once.
 * @lp: the logical plan.
 * @from: the sending vertex.
 * @to: the receiving vertex, of the same component.
 * @count: the tasks; 0 (or @from equal to @to) adds nothing.
 * @round: its logical round, 1 .. HCUBE_LPLAN_MAX_ROUND.
 *
 * Return: HCUBE_OK; HCUBE_E_PLAN_SIZE when the plan is full;
 * HCUBE_E_INTERNAL for a bad round or no healthy path (a bug).
 */
int hcube_lplan_add(struct hcube_lplan *lp, u32 from, u32 to, u32 count,
		    u32 round);

/**
 * hcube_lplan_emit() - Write a logical plan's hops as plan transfers.
 * @lp: the logical plan.
 * @p: the plan to append to, by round as described above.
 *
 * Return: HCUBE_OK, or the error of hcube_plan_emit().
 */
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
