/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcube core: hypercube model, logical topology and balancing planners;
 * what the module uses of them. hcube_core_ext.h adds the rest for the
 * tests, hcube-sim and the fuzzer.
 *
 * Pure C, compiled unchanged into the kernel module and into userspace
 * programs: no kernel or libc calls, integers only, all memory provided by
 * the caller, no recursion, small stack frames.
 *
 * The algorithms are those of J. Nam, S. Seo, S. Lee, J. Kim, "Synchronous
 * Load Balancing in Hypercube Multicomputers with Faulty Nodes", JPDC 1999
 * (CWA, MCWA, DEM, RID/SID and the balancing-subcube topology); of Das,
 * Harvey, Biswas, "Adaptive Load-Balancing Algorithms using Symmetric
 * Broadcast Networks", JPDC 2002 (SBN); of Gulati, Iyengar, Barhen, "The
 * Pebble-Crunching Model for Fault-tolerant Load Balancing in Hypercube
 * Ensembles", 1989; of H. and E. Masuyama, "A Method of Fault-Tolerant
 * All-to-All Personalized Communication in Hypercubes", 2003 (AAPC); and
 * an exact minimum-cost balancing (optimal, auto) of our own.
 * Documentation/algorithms.md describes each one.
 */
#ifndef HCUBE_CORE_H
#define HCUBE_CORE_H

/*
 * In the kernel these are the kernel's own headers; userspace builds put
 * tools/include first on the include path, whose shims provide the same names.
 */
#include <linux/bitops.h>
#include <linux/types.h>
#include <linux/math64.h>
#include <linux/hcube.h>

#define HCUBE_MAX_DIM		10
#define HCUBE_MAX_VERTICES	BIT(HCUBE_MAX_DIM)
/* Sum of all loads must not exceed this (keeps signed 32-bit differences exact). */
#define HCUBE_MAX_TOTAL_LOAD	0x7fffffffU
/* dist[] value of a vertex that is not attached to the balancing subcube. */
#define HCUBE_DIST_NONE		0xffU
/* No component: an unusable vertex (hcube_settle_round()). */
#define HCUBE_COMP_NONE		0xffffU
/* No vertex (an SBN root, a cluster controller). */
#define HCUBE_VERTEX_NONE	0xffffU
/*
 * Default work bound of auto's optimal plan (units: heap and arc steps of
 * the flow, about 5 ns each on the development machine).
 */
#define HCUBE_AUTO_BUDGET	4000000ULL

enum hcube_vstate {
	HCUBE_V_HEALTHY = 0,
	HCUBE_V_FAULTY,		/* marked faulty by the administrator */
	HCUBE_V_OFFLINE,	/* every CPU of the vertex is offline */
	HCUBE_V_ABSENT,		/* the label has no CPU group at all */
	HCUBE_V_NSTATES,
};

enum hcube_err {
	HCUBE_OK = 0,
	HCUBE_E_INTERNAL,	/* a plan failed its own replay check: a bug */
	HCUBE_E_DIM,		/* dimension out of range */
	HCUBE_E_STATE,		/* unknown vertex state */
	HCUBE_E_POLICY,		/* unknown policy */
	HCUBE_E_NO_HEALTHY,	/* no healthy vertex */
	HCUBE_E_FAULTY_LOAD,	/* a faulty, offline or absent vertex has tasks */
	HCUBE_E_OVERFLOW,	/* total load above HCUBE_MAX_TOTAL_LOAD */
	HCUBE_E_NEED_MCWA,	/* CWA asked for on a cube with unusable vertices */
	HCUBE_E_TOPO,		/* topology does not match the cube */
	HCUBE_E_FLOW_TOTAL,	/* mincost: before and after hold different totals */
	HCUBE_E_FLOW_UNREACHABLE, /* mincost: no healthy path from a surplus */
	HCUBE_E_BUDGET,		/* a computation exceeded its work bound */
	HCUBE_E_PLAN_SIZE,	/* a plan needs more transfers than its room */
	HCUBE_E_AAPC_FAULTS,	/* AAPC: more than floor(n/2) faulty nodes */
	HCUBE_E_NERRORS,
};

static inline bool hcube_usable(u8 state)
{
	return state == HCUBE_V_HEALTHY;
}

/*
 * The cube: dim in [0, HCUBE_MAX_DIM], state[] and load[] have 1 << dim
 * entries, indexed by vertex label (bit i of the label = dimension i).
 */
struct hcube_cube {
	u32 dim;
	const u8 *state;
	const u32 *load;
};

/*
 * Logical topology (paper Section 5): the balancing subcube C_b is the set of
 * labels v with (v & ~cb_mask) == cb_base; every other healthy vertex that a
 * path of healthy vertices connects to C_b hangs off it in a tree.
 *
 * Healthy vertices in another connected component than C_b are *detached*:
 * parent -1, dist HCUBE_DIST_NONE, omega 0; no policy that needs the trees
 * (MCWA, CWA) moves tasks to or from them.
 */
struct hcube_topo {
	u32 dim;
	u32 cb_base;		/* fixed bits of C_b */
	u32 cb_mask;		/* free dimensions of C_b (its X positions) */
	u32 cb_dim;		/* k = popcount(cb_mask) */
	u32 depth;		/* T: the deepest tree */
	u32 total_dist;		/* sum of dist[] over attached vertices */
	u32 nhealthy;		/* healthy vertices in the cube */
	u32 nattached;		/* healthy vertices in C_b or its trees */
	u32 ncandidates;	/* maximum-size healthy subcubes considered */
	s16 *parent;		/* tree parent, -1 in C_b and where none */
	u16 *omega;		/* vertex plus its descendants; 0 if not attached */
	u8 *dist;		/* hops to C_b, HCUBE_DIST_NONE if not attached */
	u16 *order;		/* attached vertices, C_b first, by growing dist */
	u16 *cb_vertex;		/* C_b members by local index (label order) */
};

struct hcube_transfer {
	u16 step;		/* synchronous step, from 1 */
	u16 from;
	u16 to;
	u16 reserved;
	u32 count;
};

struct hcube_stats {
	u32 transfers;		/* entries in the plan */
	u64 migrations;		/* sum of counts: task-hops */
	u32 moved_tasks;	/* tasks that end elsewhere: sum of max(0, before - after) */
	u32 comm_steps;		/* communication steps, as the paper counts them */
	u32 total;		/* tasks */
	u32 nvertices;		/* vertices the statistics are taken over (healthy) */
	u32 before_max, before_min, after_max, after_min;
	u32 before_ratio_milli;	/* 1000 * max / avg (1000 when there are no tasks) */
	u32 after_ratio_milli;
	/*
	 * Messages of load information and control the policy sends, as its
	 * paper counts them (Documentation/algorithms.md); task transfers
	 * are not messages here.
	 */
	u32 messages;
	u32 job_messages;	/* SBN: J, the messages carrying jobs upwards */
	u32 contended;		/* pebble: receivers in more than one pebble */
	/* sum over vertices of the distance to their component's band */
	u32 imbalance;
};

/*
 * A plan: transfers in execution order, the loads they lead to, statistics.
 * Each transfer is along one hypercube edge between two healthy vertices, and
 * replaying the transfers in order never drives a load below zero.
 */
struct hcube_cwa_observer;

struct hcube_plan {
	u32 policy;
	u32 applied;		/* the policy whose plan this is (auto's choice) */
	u32 root;		/* SBN: root or initiator; HCUBE_VERTEX_NONE if none */
	u64 budget;		/* auto: work bound of its optimal plan, 0 = none */
	u64 work_done;		/* optimal, auto: work units the flow took */
	u32 dim;
	u32 nsteps;		/* the highest step number a plan of this shape uses */
	u32 ntransfers;
	u32 cap;		/* room in transfers[] */
	struct hcube_transfer *transfers;
	u32 *after;		/* 1 << dim final loads */
	/*
	 * false (hcube_plan_init()'s default): a plan whose final maximum
	 * load would be above the maximum before stops short, at the step
	 * that leaves the lowest maximum not above it, and @stopped_short
	 * says so; true: the paper's whole operation, whatever it leaves.
	 */
	bool whole;
	bool stopped_short;	/* the plan is a prefix of the policy's */
	struct hcube_stats stats;
	struct hcube_cwa_observer *observer;	/* optional: hcube_core_ext.h */
};

/*
 * A balancing policy: one entry of the core's table, indexed by enum
 * hcube_policy (hcube_policy_lookup()), in the manner of the kernel's
 * tcp_congestion_ops. Callers read its name and flags, for instance
 *
 *	if (hcube_policy_check(policy, nhealthy, nv) == HCUBE_E_NEED_MCWA)
 *		policy = hcube_policy_lookup(policy)->fallback;
 *
 * and only hcube_plan_build() calls its functions.
 */
struct hcube_plan_args;

struct hcube_policy_ops {
	const char *name;	/* as the tools spell it: "mcwa", "sbn-cube" */
	u32 flags;		/* HCUBE_POLICY_F_* */
	/* HCUBE_POLICY_F_FAULT_FREE: the policy to plan on a faulty cube */
	u32 fallback;
	/*
	 * HCUBE_POLICY_F_AUTO_CANDIDATE: auto plans its candidates by
	 * increasing rank, and a tie in imbalance and task-hops goes to the
	 * lower rank (the cheaper to compute).
	 */
	u32 auto_rank;
	/* scratch of the plan function; hcube_work_memsize() covers all */
	size_t (*work_memsize)(u32 dim);
	int (*plan)(struct hcube_plan *p, const struct hcube_plan_args *args);
};

/*
 * It plans only on a fault-free cube (every vertex healthy); elsewhere
 * hcube_plan_build() returns HCUBE_E_NEED_MCWA, and @fallback is the
 * policy to plan with instead (cwa -> mcwa).
 */
#define HCUBE_POLICY_F_FAULT_FREE	BIT(0)
/*
 * It plans on the balancing subcube and its trees: hcube_plan_build()
 * needs a topology built from the cube's states (else HCUBE_E_TOPO), and
 * a report of its plan carries C_b (hcube_pattern()) and the tree depth.
 */
#define HCUBE_POLICY_F_TREES		BIT(1)
/* It counts contended receivers: stats.contended means something. */
#define HCUBE_POLICY_F_CONTENTION	BIT(2)
/* auto considers its plan (see auto_rank). */
#define HCUBE_POLICY_F_AUTO_CANDIDATE	BIT(3)
/*
 * It plans other policies and keeps one of their plans: plan->applied
 * names the one kept (auto).
 */
#define HCUBE_POLICY_F_CHOOSER		BIT(4)

/**
 * hcube_policy_lookup() - Find a policy's entry.
 * @policy: an enum hcube_policy value; any u32 is accepted.
 *
 * Return: the policy's entry, or NULL if @policy is not an enum hcube_policy.
 */
const struct hcube_policy_ops *hcube_policy_lookup(u32 policy);

/**
 * hcube_policy_check() - May a policy plan on this cube?
 * @policy: an enum hcube_policy value; any u32 is accepted.
 * @nhealthy: the cube's healthy vertices.
 * @nvertices: the cube's vertices (2^dim).
 *
 * hcube_plan_build() refuses with the same answer; a caller asks first to
 * refuse a request before it changes anything.
 *
 * Return: HCUBE_OK; HCUBE_E_POLICY, no such policy; HCUBE_E_NEED_MCWA, it
 * plans only on a fault-free cube (its fallback does not).
 */
int hcube_policy_check(u32 policy, u32 nhealthy, u32 nvertices);

/**
 * hcube_topo_memsize() - Memory a topology needs.
 * @dim: the cube's dimension.
 *
 * Return: the bytes hcube_topo_init() lays a topology out in, or 0 when
 * @dim is above HCUBE_MAX_DIM.
 */
size_t hcube_topo_memsize(u32 dim);

/**
 * hcube_plan_memsize() - Memory a plan needs.
 * @dim: the cube's dimension.
 *
 * Return: the bytes hcube_plan_init() lays a plan out in, room for the
 * most transfers any policy emits on a @dim-cube, or 0 when @dim is above
 * HCUBE_MAX_DIM.
 */
size_t hcube_plan_memsize(u32 dim);

/**
 * hcube_work_memsize() - Scratch memory the core's computations need.
 * @dim: the cube's dimension.
 *
 * The largest scratch any of hcube_topo_build(), hcube_plan_build() (every
 * policy) and hcube_plan_routes() uses on a @dim-cube.
 *
 * Return: that size in bytes, or 0 when @dim is above HCUBE_MAX_DIM.
 */
size_t hcube_work_memsize(u32 dim);

/**
 * hcube_topo_init() - Lay a topology's arrays out in the caller's memory.
 * @t: the topology.
 * @dim: the cube's dimension.
 * @mem: hcube_topo_memsize(@dim) bytes, aligned to 8; they must outlive @t.
 *
 * Return: HCUBE_OK, or HCUBE_E_DIM when @dim is above HCUBE_MAX_DIM.
 */
int hcube_topo_init(struct hcube_topo *t, u32 dim, void *mem);

/**
 * hcube_plan_init() - Lay a plan's arrays out in the caller's memory.
 * @p: the plan.
 * @dim: the cube's dimension.
 * @mem: hcube_plan_memsize(@dim) bytes, aligned to 8; they must outlive @p.
 *
 * Return: HCUBE_OK, or HCUBE_E_DIM when @dim is above HCUBE_MAX_DIM.
 */
int hcube_plan_init(struct hcube_plan *p, u32 dim, void *mem);

/**
 * hcube_topo_build() - Choose the balancing subcube and build its trees.
 * @t: a topology laid out by hcube_topo_init() for @dim.
 * @dim: the cube's dimension.
 * @state: the state of each of the 1 << @dim vertices (enum hcube_vstate).
 * @work: hcube_work_memsize(@dim) bytes of scratch.
 *
 * Finds the maximum-size healthy subcubes, chooses C_b among them (the one
 * that attaches the most healthy vertices, then the shallowest trees, then
 * the smallest total distance) and builds the trees that attach the other
 * healthy vertices to it.
 *
 * Return: HCUBE_OK; HCUBE_E_DIM when @dim is above HCUBE_MAX_DIM or is not
 * @t's; HCUBE_E_STATE for an unknown state; HCUBE_E_NO_HEALTHY when no
 * vertex is healthy.
 */
int hcube_topo_build(struct hcube_topo *t, u32 dim, const u8 *state, void *work);

/**
 * hcube_plan_build() - Plan a rebalance with one policy.
 * @p: a plan laid out by hcube_plan_init() for @cube's dimension.
 * @policy: the policy.
 * @cube: the loads and states to balance.
 * @t: a topology built from @cube's states, needed by the policies with
 *     HCUBE_POLICY_F_TREES; the others accept NULL.
 * @work: hcube_work_memsize() bytes of scratch.
 *
 * Every plan is replayed before it is returned: each transfer joins two
 * healthy neighbours and never sends more than its sender holds. Unless
 * @p->whole is set, no plan ends with a higher maximum load (over the
 * healthy vertices) than the cube had: where the policy's operation would,
 * the plan is cut after the step that leaves the lowest maximum not above
 * it (possibly no step at all), and @p->stopped_short is set.
 *
 * Return: HCUBE_OK; HCUBE_E_DIM, HCUBE_E_POLICY, HCUBE_E_STATE,
 * HCUBE_E_FAULTY_LOAD, HCUBE_E_NO_HEALTHY or HCUBE_E_OVERFLOW for bad
 * input; HCUBE_E_NEED_MCWA for cwa on a cube that is not fault-free;
 * HCUBE_E_TOPO when @t is missing or built from other states;
 * HCUBE_E_INTERNAL when the plan fails its replay (a bug).
 */
int hcube_plan_build(struct hcube_plan *p, enum hcube_policy policy,
		     const struct hcube_cube *cube, const struct hcube_topo *t,
		     void *work);

/*
 * Pairs of (source, destination) that realise a plan when each task moves
 * once, straight to its final vertex: a decomposition of the plan's flow
 * into paths along its own transfers (cycles cancelled). The counts sum to
 * stats.moved_tasks; hops is the length of the path in the plan.
 */
struct hcube_route {
	u16 from;
	u16 to;
	u16 hops;
	u16 reserved;
	u32 count;
};

/**
 * hcube_routes_max() - Room hcube_plan_routes() may need.
 * @dim: the cube's dimension.
 *
 * Return: the most routes a plan of a @dim-cube decomposes into.
 */
u32 hcube_routes_max(u32 dim);

/**
 * hcube_plan_routes() - Decompose a plan into routes, each task moved once.
 * @p: a plan built by hcube_plan_build().
 * @before: the loads @p was built from (1 << @p->dim entries).
 * @routes: room for @cap routes.
 * @cap: that room; hcube_routes_max() is always enough.
 * @nroutes: set to the number of routes written.
 * @work: hcube_work_memsize(@p->dim) bytes (its previous content is not
 *        used).
 *
 * Return: HCUBE_OK, or HCUBE_E_INTERNAL when the plan's flow does not
 * decompose into at most @cap routes (a bug, or too little room).
 */
int hcube_plan_routes(const struct hcube_plan *p, const u32 *before,
		      struct hcube_route *routes, u32 cap, u32 *nroutes,
		      void *work);

/**
 * hcube_evacuate() - Choose the targets of a vertex's tasks.
 * @dim: the cube's dimension.
 * @state: the state of each vertex.
 * @load: the load of each vertex.
 * @from: the vertex the tasks leave.
 * @count: how many tasks leave it.
 * @out: 1 << @dim entries, to which each target's share is added.
 *
 * Spreads @count tasks of vertex @from over the healthy vertices nearest
 * to it (smallest Hamming distance), filling the least loaded first so
 * that their loads end as level as possible; ties go to the lower label.
 *
 * Return: HCUBE_OK, or HCUBE_E_NO_HEALTHY when no other vertex is healthy.
 */
int hcube_evacuate(u32 dim, const u8 *state, const u32 *load, u32 from,
		   u32 count, u32 *out);

/**
 * hcube_settle_round() - One round of the settle that ends a balance by
 * weight: which vertex sends how much weight to which.
 * @n: the vertices (at most HCUBE_MAX_VERTICES).
 * @comp: each vertex's component of healthy vertices; HCUBE_COMP_NONE
 *        (0xffff): the vertex takes no part.
 * @load: each vertex's weight.
 * @least: a lower bound of the weight of each vertex's lightest unit (1
 *         when nothing better is known), 0 when it holds no unit.
 * @exact: every sender sends exactly what it is asked (by count, units of
 *         one weight): a pair at distance d >= 2 sends floor(d / 2), and
 *         the rounds end with every component within one unit.
 * @order: @n entries of scratch.
 * @to: set for each vertex to the vertex it sends to this round, or
 *      HCUBE_VERTEX_NONE.
 * @ask: set for each sending vertex to the weight it should send.
 *
 * In each component the vertices sorted by weight (heaviest first, then
 * by label) pair up, the i-th heaviest with the i-th lightest. A pair
 * whose weights differ by d sends a = floor((d - 1) / 2) from the heavier
 * to the lighter when the heavier may hold a unit of weight at most 2a
 * (@least <= 2a). A sender that takes whole units while each weighs at
 * most twice what is still missing then sends t with 0 < t < d: the
 * pair's larger weight goes down and no weight ever rises above it, so
 * the sum of squared weights falls every round that moves. When a sender
 * finds no such unit, it raises its @least to 2a + 1 and the next round
 * pairs around it. The rounds end (this returns 0) when no pair may
 * move: then the heaviest vertex of each component holds no unit lighter
 * than about its distance d to the lightest (at least d - 1), so moving
 * any single unit off it cannot lower the component's maximum by more
 * than one, and max <= avg + (its lightest unit) + 1.
 *
 * Return: the pairs that send this round.
 */
u32 hcube_settle_round(u32 n, const u16 *comp, const u64 *load,
		       const u64 *least, bool exact, u16 *order, u16 *to, u64 *ask);

/*
 * Demand units (Documentation/core.md, "Demand units"). A task's demand is
 * the scheduler's PELT runnable_avg (0 .. HCUBE_DEMAND_SCALE, one CPU)
 * rounded to the nearest of HCUBE_DEMAND_Q quanta: 0 .. HCUBE_DEMAND_Q
 * units, 0 for a sleeper, HCUBE_DEMAND_Q for a spinner. A vertex is
 * described by a histogram of HCUBE_DEMAND_HIST counters, hist[d] its
 * tasks of demand d, and its load is the sum of their demands
 * (hcube_demand_load()); the policies plan on those loads unchanged.
 *
 * What bounds the sum: at most HCUBE_DEMAND_MAX_TASKS tasks in the whole
 * cube keep the total load within HCUBE_MAX_TOTAL_LOAD, so that every
 * load, every transfer and every sum of the core stays in its u32; the
 * module's max_tasks (at most PID_MAX_LIMIT, 4194304) is far below that
 * (4194304 * 32 = 2^27).
 */
#define HCUBE_DEMAND_SCALE	1024U
#define HCUBE_DEMAND_Q		32U
#define HCUBE_DEMAND_HIST	(HCUBE_DEMAND_Q + 1)
#define HCUBE_DEMAND_MAX_TASKS	(HCUBE_MAX_TOTAL_LOAD / HCUBE_DEMAND_Q)

/**
 * hcube_demand_units() - A task's demand in units.
 * @runnable_avg: its PELT runnable_avg, 0 .. HCUBE_DEMAND_SCALE (a larger
 *                value counts as HCUBE_DEMAND_SCALE).
 *
 * Return: @runnable_avg * HCUBE_DEMAND_Q / HCUBE_DEMAND_SCALE rounded to
 * the nearest (halves up), 0 .. HCUBE_DEMAND_Q.
 */
static inline u32 hcube_demand_units(u32 runnable_avg)
{
	if (runnable_avg > HCUBE_DEMAND_SCALE)
		runnable_avg = HCUBE_DEMAND_SCALE;
	return (runnable_avg * HCUBE_DEMAND_Q + HCUBE_DEMAND_SCALE / 2) /
	       HCUBE_DEMAND_SCALE;
}

/**
 * hcube_demand_load() - A vertex's load in demand units.
 * @hist: its HCUBE_DEMAND_HIST counters, at most HCUBE_DEMAND_MAX_TASKS
 *        tasks in all.
 *
 * Return: the sum of its tasks' demands.
 */
u32 hcube_demand_load(const u32 *hist);

/**
 * hcube_demand_fill() - Choose the tasks that carry a transfer of units.
 * @hist: the sending vertex's tasks by demand (HCUBE_DEMAND_HIST counters).
 * @want: the units to send.
 * @take: set to how many tasks of each demand go (HCUBE_DEMAND_HIST
 *        counters; take[0] is always 0).
 *
 * The rule: heaviest first, a task goes while it weighs at most twice the
 * units still missing; the tasks of one demand are interchangeable, so
 * the choice is deterministic. A task of demand 0 never goes: it has no
 * weight to balance (it still leaves a faulty CPU, by count).
 *
 * The bound: the result t is never farther from @want than before each
 * task went; when t < @want, every task left of demand d > 0 has
 * d > 2 (@want - t), so t > @want - d/2; when t > @want, the last task
 * taken (demand d) left t - @want <= d / 2. So |t - @want| is at most half
 * a task, HCUBE_DEMAND_Q / 2 units, unless the vertex has too little
 * (t = its load). With every demand 1 (or all equal to d and @want a
 * multiple of d), t = min(@want, load) exactly. t > 0 whenever @want > 0
 * and the vertex holds a task of demand 1 .. 2 @want.
 *
 * Return: t, the units the tasks chosen carry.
 */
u32 hcube_demand_fill(const u32 *hist, u32 want, u32 *take);

/*
 * A move of tasks: @count tasks of demand @demand from @from to @to, in
 * settle round @step (0: carrying a plan's routes).
 */
struct hcube_demand_move {
	u16 step;
	u16 from;
	u16 to;
	u16 demand;
	u32 count;
};

/**
 * hcube_demand_carry() - Carry a plan's routes out on tasks of demand.
 * @routes: the routes of a plan made on demand loads (hcube_plan_routes()),
 *          each a count of units.
 * @nroutes: their number.
 * @hist: the cube's tasks, HCUBE_DEMAND_HIST counters per vertex, vertex
 *        by vertex; updated.
 * @moves: room for @cap moves, set to the tasks moved.
 * @cap: that room; (HCUBE_DEMAND_Q) * @nroutes is always enough.
 * @nmoves: set to the moves written.
 *
 * Each route in order is filled from its sender's tasks by
 * hcube_demand_fill(). With every demand 1 the vertices end exactly at
 * the plan's loads.
 *
 * Return: HCUBE_OK, or HCUBE_E_PLAN_SIZE when @cap is too small (the
 * moves up to there are done).
 */
int hcube_demand_carry(const struct hcube_route *routes, u32 nroutes,
		       u32 *hist, struct hcube_demand_move *moves, u32 cap,
		       u32 *nmoves);

/**
 * hcube_demand_settle_memsize() - Scratch hcube_demand_settle() needs.
 * @dim: the cube's dimension.
 *
 * Return: the bytes, or 0 when @dim is above HCUBE_MAX_DIM.
 */
size_t hcube_demand_settle_memsize(u32 dim);

/**
 * hcube_demand_settle() - Settle a cube's tasks of demand.
 * @dim: the cube's dimension.
 * @state: the state of each vertex; unusable vertices take no part.
 * @hist: the cube's tasks, HCUBE_DEMAND_HIST counters per vertex; updated.
 * @max_rounds: the most rounds that may move.
 * @moves: room for @cap moves, set to the tasks moved (step = round, from 1).
 * @cap: that room; @max_rounds * (1 << @dim) / 2 * HCUBE_DEMAND_Q is enough.
 * @nmoves: set to the moves written.
 * @rounds: set to the rounds that moved.
 * @work: hcube_demand_settle_memsize(@dim) bytes of scratch.
 *
 * Rounds of hcube_settle_round() (not exact) over the components of
 * healthy vertices (joined by the cube's edges; a move goes straight from
 * one vertex of a component to another), carried out on the tasks: each
 * sender's lightest task of demand above 0 is known exactly, and
 * hcube_demand_fill() sends what the round asks. When no pair may move,
 * a round of exchanges: in each component the heaviest vertex (lowest
 * label of those) gives one task, heaviest first, to the lightest vertex
 * that gives back tasks of fewer units such that both end strictly
 * between their loads before (a fill, or a single task). A task of
 * demand 0 never moves. Each round lowers the sum of the squared loads;
 * the rounds end when no pair may move and no exchange is found (none of
 * one task for one task is left with the heaviest), and then in each
 * component
 *
 *	max <= avg + u + 1,
 *
 * u the lightest task of demand above 0 on the heaviest vertex
 * (hcube_settle_round()); with every demand 1, max - min <= 2 (a pair
 * two apart does not move: the settle is not exact).
 *
 * Return: HCUBE_OK once settled; HCUBE_E_BUDGET after @max_rounds rounds
 * that moved, not settled; HCUBE_E_PLAN_SIZE when @cap is too small;
 * HCUBE_E_DIM or HCUBE_E_STATE for bad input.
 */
int hcube_demand_settle(u32 dim, const u8 *state, u32 *hist, u32 max_rounds,
			struct hcube_demand_move *moves, u32 cap, u32 *nmoves,
			u32 *rounds, void *work);

/**
 * hcube_strerror() - Describe a core error.
 * @err: an HCUBE_E_* value, or HCUBE_OK.
 *
 * Return: a constant string; "unknown error" for a value that is none.
 */
const char *hcube_strerror(int err);

/**
 * hcube_pattern() - Write a subcube as a pattern such as "X0X1".
 * @buf: room for @dim + 1 bytes.
 * @dim: the cube's dimension.
 * @base: the subcube's fixed bits.
 * @mask: its free dimensions (an X each), highest dimension first.
 *
 * Return: @buf.
 */
char *hcube_pattern(char *buf, u32 dim, u32 base, u32 mask);

/**
 * hcube_pebble_cdim() - The dimension of pebble-crunching's clusters.
 * @dim: the cube's dimension.
 *
 * Pebble-crunching (Gulati et al. 1990): clusters are the subcubes of the
 * low min(@dim, 3) dimensions; cluster c holds the labels whose high bits
 * are c.
 *
 * Return: min(@dim, 3).
 */
u32 hcube_pebble_cdim(u32 dim);

/**
 * hcube_pebble_elect() - Elect the clusters' controllers (DCCs).
 * @dim: the cube's dimension.
 * @cdim: the clusters' dimension (hcube_pebble_cdim()).
 * @state: the state of each vertex.
 * @ctrl: 2^(@dim - @cdim) entries, one controller per cluster,
 *        HCUBE_VERTEX_NONE for none; read and updated.
 *
 * At the start a cluster's controller is its lowest healthy label; after
 * that a controller keeps its role while it is healthy, and when it is
 * not, the lowest healthy label of the cluster takes over (a recovered
 * vertex does not take its role back).
 *
 * Return: how many clusters changed controller.
 */
u32 hcube_pebble_elect(u32 dim, u32 cdim, const u8 *state, u16 *ctrl);

#endif /* HCUBE_CORE_H */
