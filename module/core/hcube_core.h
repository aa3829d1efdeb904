/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcube core: hypercube model, logical topology and balancing planners.
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
	struct hcube_stats stats;
	struct hcube_cwa_observer *observer;	/* optional, see below */
};

/*
 * A balancing policy: one entry of the core's table, indexed by enum
 * hcube_policy (hcube_policy_lookup()), in the manner of the kernel's
 * tcp_congestion_ops. Callers read its name and flags; only
 * hcube_plan_build() calls its functions.
 */
struct hcube_plan_args;

struct hcube_policy_ops {
	const char *name;	/* as the tools spell it: "mcwa", "sbn-cube" */
	u32 flags;		/* HCUBE_POLICY_F_* */
	/* HCUBE_POLICY_F_FAULT_FREE: the policy that plans instead on a faulty cube */
	u32 fallback;
	/*
	 * HCUBE_POLICY_F_AUTO_CANDIDATE: auto plans its candidates by
	 * increasing rank, and a tie in imbalance and task-hops goes to the
	 * lower rank (the cheaper to compute).
	 */
	u32 auto_rank;
	/* the scratch the plan function needs; hcube_work_memsize() covers all */
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

/* The policy's entry, or NULL if @policy is not an enum hcube_policy. */
const struct hcube_policy_ops *hcube_policy_lookup(u32 policy);

/* Memory sizes (bytes) the caller provides, for a cube of dimension dim. */
size_t hcube_topo_memsize(u32 dim);
size_t hcube_plan_memsize(u32 dim);
size_t hcube_work_memsize(u32 dim);
/* The most transfers any policy can emit on a dim-cube. */
u32 hcube_plan_max_transfers(u32 dim);

/*
 * Lay the arrays of @t / @p out in @mem (hcube_*_memsize(dim) bytes, aligned
 * to 8). Returns HCUBE_OK or HCUBE_E_DIM.
 */
int hcube_topo_init(struct hcube_topo *t, u32 dim, void *mem);
int hcube_plan_init(struct hcube_plan *p, u32 dim, void *mem);

/*
 * Find the maximum-size healthy subcubes, choose C_b and build the trees.
 * @work: hcube_work_memsize(dim) bytes of scratch.
 */
int hcube_topo_build(struct hcube_topo *t, u32 dim, const u8 *state, void *work);

/*
 * Build the trees around a given healthy subcube (base, mask) instead of the
 * chosen one: for tests and for comparing candidates. HCUBE_E_TOPO if the
 * subcube is not healthy or base and mask overlap.
 */
int hcube_topo_build_cb(struct hcube_topo *t, u32 dim, const u8 *state,
			u32 base, u32 mask, void *work);

/*
 * Compute the plan of @policy for @cube on topology @t (built from the same
 * states; DEM does not use it and accepts NULL).
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

/* Room hcube_plan_routes() may need. */
u32 hcube_routes_max(u32 dim);

/*
 * Decompose plan @p (built from loads @before) into at most @cap routes.
 * @work: hcube_work_memsize(p->dim) bytes (its previous content is not used).
 */
int hcube_plan_routes(const struct hcube_plan *p, const u32 *before,
		      struct hcube_route *routes, u32 cap, u32 *nroutes,
		      void *work);

/*
 * Evacuation targets: spread @count tasks of vertex @from over the healthy
 * vertices nearest to it (smallest Hamming distance), filling the least
 * loaded first so that their loads end as level as possible; ties go to the
 * lower label. Adds each target's share to @out[] (1 << dim entries).
 * Returns HCUBE_E_NO_HEALTHY when no other vertex is healthy.
 */
int hcube_evacuate(u32 dim, const u8 *state, const u32 *load, u32 from,
		   u32 count, u32 *out);

/* Paper Algorithm 4's test of one candidate subcube (true: accepted). */
bool hcube_alg4_accepts(u32 dim, const u8 *state, u32 base, u32 mask);

const char *hcube_strerror(int err);
const char *hcube_policy_name(u32 policy);
/* Returns the policy for @name (NUL-terminated), or -1. */
int hcube_policy_parse(const char *name);

/*
 * Write C_b as a pattern such as "X0X1" (highest dimension first) into @buf,
 * which has room for dim + 1 bytes. Returns @buf.
 */
char *hcube_pattern(char *buf, u32 dim, u32 base, u32 mask);

/*
 * CWA engine observation, for tests and tracing: called at each migration
 * dimension of the balancing subcube, after the theta vectors are computed
 * and before the tasks move. Values are per vertex of C_b, local index v
 * (bits of v = free dimensions of C_b, lowest first); level j in [0, k].
 */
struct hcube_cwa;

struct hcube_cwa_observer {
	void (*fn)(struct hcube_cwa_observer *obs, const struct hcube_cwa *cwa,
		   u32 local_dim);
};

enum hcube_cwa_val {
	HCUBE_CWA_L,		/* l^j */
	HCUBE_CWA_Q,		/* q^j */
	HCUBE_CWA_DELTA,	/* delta^j */
	HCUBE_CWA_THETA,	/* theta^j (0 outside the sending half) */
	HCUBE_CWA_GAMMA,	/* gamma^j = delta^j - theta^j */
};

s32 hcube_cwa_value(const struct hcube_cwa *cwa, enum hcube_cwa_val what,
		    u32 level, u32 local_vertex);
u32 hcube_cwa_dim(const struct hcube_cwa *cwa);
/* Global label of C_b's local vertex / local dimension. */
u32 hcube_cwa_vertex(const struct hcube_cwa *cwa, u32 local_vertex);

/*
 * The optimal migration cost: the fewest task-hops that take the loads
 * @before to the loads @after (1 << dim entries each) moving tasks only
 * along edges between healthy vertices, each task along a shortest healthy
 * path. A minimum-cost flow on the healthy subgraph, exact and in integers.
 * A plan's stats.migrations is never below the cost for its own final loads.
 * @work: hcube_mincost_memsize(dim) bytes. At most D phases, D the largest
 * healthy distance within a component (<= N - 1, usually n or n + 1);
 * each is one Dijkstra and a maximum flow on the arcs of reduced cost 0
 * (see hcube_flow.c).
 *
 * Errors: HCUBE_E_DIM, HCUBE_E_STATE, HCUBE_E_FAULTY_LOAD (an unusable
 * vertex with tasks before or after), HCUBE_E_OVERFLOW, HCUBE_E_FLOW_TOTAL
 * and HCUBE_E_FLOW_UNREACHABLE.
 */

size_t hcube_mincost_memsize(u32 dim);
int hcube_mincost(u32 dim, const u8 *state, const u32 *before,
		  const u32 *after, u64 *cost, void *work);
/*
 * After hcube_mincost() returned HCUBE_OK: the optimal flow it found, kept
 * in its @work until that is reused. flow[v * max(dim, 1) + d] tasks go
 * from v to v ^ BIT(d); at most one direction of an edge carries tasks, and
 * the entries sum to the cost.
 */
const u32 *hcube_mincost_flow(const void *work);

/*
 * The balanced final loads that cost the fewest task-hops: within each
 * connected component of healthy vertices (c vertices, T tasks) every
 * vertex ends with floor(T/c) or floor(T/c) + 1 tasks, exactly T mod c of
 * them with the extra task, and which ones is left to the optimisation: a
 * minimum-cost flow whose super-sink takes a vertex's mandatory deficit at
 * cost 0 and its optional extra task at cost N (more than any path), so
 * every deficit is met first. Writes @after and @cost; the flow stays in
 * @work (hcube_mincost_flow()). @budget: work units allowed, 0 for no
 * limit (HCUBE_E_BUDGET when exceeded); @work_done: units used, or NULL.
 * @work: hcube_mincost_memsize(dim) bytes.
 */
int hcube_mincost_balanced(u32 dim, const u8 *state, const u32 *before,
			   u32 *after, u64 *cost, u64 budget, u64 *work_done,
			   void *work);

/*
 * The distance of @after from balance: the sum over healthy vertices of
 * how far each load lies outside its component's [floor, ceil] average
 * band (0 when every component is balanced). @work: hcube_work_memsize().
 */
u32 hcube_imbalance(u32 dim, const u8 *state, const u32 *after, void *work);

/*
 * RID and SID (paper 000, Sections 1 and 3.1), one vertex's view. @d
 * healthy neighbours hold @sum tasks, the vertex @own; l_avg = (sum + own)
 * / (d + 1). RID: a vertex below l_avg asks neighbour k (load @lk) for
 * floor((l_avg - own) * lk / sum). SID: a vertex above l_avg sends
 * neighbour k, below l_avg, floor((own - l_avg) * (l_avg - lk) / H) with
 * H the sum of (l_avg - lj) over the neighbours below l_avg (@hsum, scaled
 * by d + 1 as hcube_sid_deficit() returns it). Both in exact integers.
 */
u32 hcube_rid_phi(u32 d, u64 sum, u32 own, u32 lk);
u64 hcube_sid_deficit(u32 d, u64 sum, u32 own, u32 lk);
u32 hcube_sid_psi(u32 d, u64 sum, u32 own, u32 lk, u64 hsum);

/*
 * Symmetric broadcast networks (paper 003). SBN(d) on P = 2^d vertices has
 * one pattern per root r: stages d (the root) down to 0.
 * - HCUBE_SBN_XOR: the root-0 template relabelled by XOR with r; for a label
 *   n = x ^ r at stage s: Pred = ((n - 2^s) | 2^(s+1)) mod 2^d (s < d),
 *   Succ1 = n + 2^(s-1) (1 <= s <= d), Succ2 = n - 2^(s-1) (1 <= s < d).
 * - HCUBE_SBN_TREE: the binary-tree template, Pred = n / 2, Succ1 = 2n + 1,
 *   Succ2 = 2n, also relabelled by XOR.
 * - HCUBE_SBN_CUBE: the hypercube embedding (two binomial trees back to
 *   back): stage d - popcount(n); the broadcast parent of n clears its
 *   highest set bit, its gather parent sets its highest clear bit, and the
 *   destination is r ^ (P - 1). Every link is a hypercube edge.
 * Labels outside [0, 2^d) and d > HCUBE_MAX_DIM give HCUBE_VERTEX_NONE / 0.
 */
enum hcube_sbn_template {
	HCUBE_SBN_XOR,
	HCUBE_SBN_TREE,
	HCUBE_SBN_CUBE,
};

u32 hcube_sbn_stage(enum hcube_sbn_template tpl, u32 d, u32 root, u32 x);
/* XOR/TREE: the predecessor; CUBE: the broadcast (binomial) parent. */
u32 hcube_sbn_pred(enum hcube_sbn_template tpl, u32 d, u32 root, u32 x);
/* XOR/TREE: Succ1 then Succ2 into @succ; CUBE: the binomial children. */
u32 hcube_sbn_succ(enum hcube_sbn_template tpl, u32 d, u32 root, u32 x,
		   u32 *succ);
/* CUBE: the gather parent (HCUBE_VERTEX_NONE at the destination). */
u32 hcube_sbn_gather_parent(u32 d, u32 root, u32 x);
/* CUBE: every predecessor of @x in the embedding's DAG; returns the count. */
u32 hcube_sbn_cube_preds(u32 d, u32 root, u32 x, u32 *preds);

/* UpdateLoad (paper 003, ConstParam 2). */
struct hcube_sbn_th {
	u32 sysll;		/* ceil(TotalJQ / P) */
	s32 minth;		/* SysLL - 1, or 2 when SysLL > 2 */
	u32 maxth;		/* SysLL + 2^floor(SysLL/2), capped at U32 max */
};

void hcube_sbn_update_load(u64 total, u32 nproc, struct hcube_sbn_th *th);
/*
 * The heuristic's overload push (its Distribute and GetDistribute away
 * from the root). The pusher, at @sysll with @qlen jobs: its new SysLL =
 * sysll + ceil((qlen - sysll) / nproc) goes to @new_sysll; returns the
 * jobs it sends down. A receiver at @stage that had @queued jobs and gets
 * @recv: SysLL = queued + ceil(recv / (2^(stage+1) - 1)); returns what it
 * forwards, queued + recv - SysLL (0 when that is negative).
 */
u32 hcube_sbz_push(u32 sysll, u32 qlen, u32 nproc, u32 *new_sysll);
u32 hcube_sbz_forward(u32 queued, u32 recv, u32 stage, u32 *new_sysll);

/*
 * Pebble-crunching (paper 001): clusters are the subcubes of the
 * hcube_pebble_cdim() low dimensions; cluster c holds the labels whose
 * high bits are c. Each has a controller (DCC): the lowest healthy label
 * at the start, and after that a controller keeps its role while it is
 * healthy; when it is not, the lowest healthy label of the cluster takes
 * over (a recovered vertex does not take its role back). @ctrl has
 * 2^(dim - cdim) entries, HCUBE_VERTEX_NONE for none; it is read and
 * updated. Returns how many clusters changed controller.
 */
u32 hcube_pebble_cdim(u32 dim);
u32 hcube_pebble_elect(u32 dim, u32 cdim, const u8 *state, u16 *ctrl);

/*
 * Exact minimum-cost transportation (pebble-crunching's line 12): @ns
 * sources with @supply, @nr sinks with room @cap, cost[i * nr + j] per
 * task from i to j (HCUBE_NO_ARC: not allowed). Moves as many tasks as
 * the arcs allow and, among those, the cheapest assignment; flow[i * nr +
 * j] receives it. Successive shortest paths (Bellman-Ford on the small
 * residual graph), exact in integers. @ns, @nr <= HCUBE_ASSIGN_MAX.
 */
#define HCUBE_NO_ARC		0xffffffffU
#define HCUBE_ASSIGN_MAX	256
size_t hcube_assign_memsize(u32 ns, u32 nr);
int hcube_assign(u32 ns, u32 nr, const u32 *supply, const u32 *cap,
		 const u32 *cost, u32 *flow, u64 *total_cost, void *work);

/*
 * Fault-tolerant all-to-all personalized communication (paper 002): every
 * healthy node sends one datum to every other healthy node. Multiport, one
 * datum per link direction per time unit; a datum may cross several links
 * in one unit (a circuit). Up to floor(n/2) faulty nodes (HCUBE_E_AAPC_FAULTS
 * beyond). f = 0: the XOR exchange, 2^n - 1 units. f = 1: A_1 on the whole
 * cube, 5*2^(n-1) - 2 units. f = 2: A_2 (two halves with one fault each).
 * f >= 3 (or f = 2 with HCUBE_AAPC_FORCE_AF): A_f on subcubes of dimension
 * f + 1 with at most one fault each. Data of sources whose exchange path
 * meets a faulty node (the paper's Phase 2 Step 1) go on circuits placed in
 * the free links of the schedule, adding units only when none are free.
 */
struct hcube_aapc_hop {
	u16 unit;		/* time unit, from 1 */
	u16 from, to;		/* one hypercube edge */
	u16 src, dst;		/* the datum: its source and destination */
	u16 reserved;
};

enum hcube_aapc_alg {
	HCUBE_AAPC_XOR,
	HCUBE_AAPC_A1,
	HCUBE_AAPC_A2,
	HCUBE_AAPC_AF,
};

#define HCUBE_AAPC_FORCE_AF	1U

struct hcube_aapc_info {
	u32 alg;		/* enum hcube_aapc_alg */
	u32 faults;
	u32 inner_mask;		/* dimensions of the subcubes */
	u32 windows;		/* exchange windows (subcubes' XOR offsets) */
	u32 window_units;	/* units per window */
	u32 units;		/* time units of the whole schedule */
	u32 main_units;		/* windows * window_units */
	u32 special_data;	/* data of Phase 2 Step 1 */
	u64 hops;		/* link crossings */
	u64 data;		/* data delivered */
	u32 paper_units;	/* the paper's formula for this n and f */
};

size_t hcube_aapc_memsize(u32 dim);
/* Room hcube_aapc() needs for the hops of a dim-cube's schedule. */
u64 hcube_aapc_max_hops(u32 dim);
/*
 * Build the schedule. @hops may be NULL (only @info is computed), else it
 * has room for @cap hops; the hops of one datum come in unit order, data
 * after data (not sorted by unit).
 */
int hcube_aapc(u32 dim, const u8 *state, u32 flags, struct hcube_aapc_hop *hops,
	       u64 cap, struct hcube_aapc_info *info, void *work);

#endif /* HCUBE_CORE_H */
