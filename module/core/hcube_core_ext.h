/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcube core: the interface beyond what the module uses, for the tests,
 * hcube-sim and the fuzzer: the topology for a chosen subcube, policy
 * names, the CWA engine's observer, the minimum-cost flow, the papers'
 * formulas (RID/SID, SBN, pebble's transportation) and AAPC.
 */
#ifndef HCUBE_CORE_EXT_H
#define HCUBE_CORE_EXT_H

#include "hcube_core.h"

/**
 * hcube_topo_build_cb() - Build the trees around a given subcube.
 * @t: a topology laid out by hcube_topo_init() for @dim.
 * @dim: the cube's dimension.
 * @state: the state of each vertex.
 * @base: the subcube's fixed bits.
 * @mask: its free dimensions.
 * @work: hcube_work_memsize(@dim) bytes of scratch.
 *
 * As hcube_topo_build(), with C_b the subcube (@base, @mask) instead of
 * the chosen one: for tests and for comparing candidates.
 *
 * Return: HCUBE_OK; HCUBE_E_TOPO when the subcube is not healthy, @base
 * and @mask overlap or reach beyond @dim; else as hcube_topo_build().
 */
int hcube_topo_build_cb(struct hcube_topo *t, u32 dim, const u8 *state,
			u32 base, u32 mask, void *work);

/**
 * hcube_alg4_accepts() - Algorithm 4's test of one candidate subcube.
 * @dim: the cube's dimension.
 * @state: the state of each vertex.
 * @base: the candidate's fixed bits.
 * @mask: its free dimensions.
 *
 * Nam et al. (1999), Algorithm 4, for comparison with the core's choice.
 *
 * Return: true when the algorithm accepts the candidate.
 */
bool hcube_alg4_accepts(u32 dim, const u8 *state, u32 base, u32 mask);

/**
 * hcube_policy_name() - A policy's name.
 * @policy: an enum hcube_policy value; any u32 is accepted.
 *
 * Return: the name ("mcwa", "sbn-cube", ...), or "?" for no policy.
 */
const char *hcube_policy_name(u32 policy);

/**
 * hcube_policy_parse() - The policy of a name.
 * @name: a NUL-terminated name, as hcube_policy_name() gives it.
 *
 * Return: the enum hcube_policy value, or -1 for no policy of that name.
 */
int hcube_policy_parse(const char *name);

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

/**
 * hcube_cwa_value() - One value of the CWA engine, for an observer.
 * @cwa: the engine, as the observer's callback gets it.
 * @what: which vector.
 * @level: the level j, 0 .. hcube_cwa_dim().
 * @local_vertex: a vertex of C_b by its local index.
 *
 * Return: the value; 0 for an index out of range.
 */
s32 hcube_cwa_value(const struct hcube_cwa *cwa, enum hcube_cwa_val what,
		    u32 level, u32 local_vertex);

/**
 * hcube_cwa_dim() - The dimension k of the engine's balancing subcube.
 * @cwa: the engine.
 *
 * Return: k.
 */
u32 hcube_cwa_dim(const struct hcube_cwa *cwa);

/**
 * hcube_cwa_vertex() - The global label of a vertex of C_b.
 * @cwa: the engine.
 * @local_vertex: the vertex's local index.
 *
 * Return: its label in the cube.
 */
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

/**
 * hcube_mincost_memsize() - Scratch hcube_mincost() needs.
 * @dim: the cube's dimension.
 *
 * Return: the bytes, or 0 when @dim is above HCUBE_MAX_DIM.
 */
size_t hcube_mincost_memsize(u32 dim);

/**
 * hcube_mincost() - The optimal migration cost between two load vectors.
 * @dim: the cube's dimension.
 * @state: the state of each vertex.
 * @before: the loads before.
 * @after: the loads after, with the same total.
 * @cost: set to the fewest task-hops.
 * @work: hcube_mincost_memsize(@dim) bytes; the flow stays there
 *        (hcube_mincost_flow()).
 *
 * Return: HCUBE_OK, or one of the errors listed above.
 */
int hcube_mincost(u32 dim, const u8 *state, const u32 *before,
		  const u32 *after, u64 *cost, void *work);

/**
 * hcube_mincost_flow() - The optimal flow the last computation found.
 * @work: the scratch of an hcube_mincost() or hcube_mincost_balanced()
 *        that returned HCUBE_OK, not reused since.
 *
 * flow[v * max(dim, 1) + d] tasks go from v to v ^ BIT(d); at most one
 * direction of an edge carries tasks, and the entries sum to the cost.
 *
 * Return: the flow, inside @work.
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
/**
 * hcube_mincost_balanced() - The cheapest balanced final loads.
 * @dim: the cube's dimension.
 * @state: the state of each vertex.
 * @before: the loads before.
 * @after: set to the balanced loads that cost the fewest task-hops.
 * @cost: set to that cost.
 * @budget: work units allowed, 0 for no limit.
 * @work_done: set to the units used, or NULL.
 * @work: hcube_mincost_memsize(@dim) bytes.
 *
 * Return: HCUBE_OK; HCUBE_E_BUDGET when @budget is exceeded; else as
 * hcube_mincost().
 */
int hcube_mincost_balanced(u32 dim, const u8 *state, const u32 *before,
			   u32 *after, u64 *cost, u64 budget, u64 *work_done,
			   void *work);

/*
 * The distance of @after from balance: the sum over healthy vertices of
 * how far each load lies outside its component's [floor, ceil] average
 * band (0 when every component is balanced). @work: hcube_work_memsize().
 */
/**
 * hcube_imbalance() - How far loads are from balance.
 * @dim: the cube's dimension.
 * @state: the state of each vertex.
 * @after: the loads.
 * @work: hcube_work_memsize(@dim) bytes of scratch.
 *
 * Return: the sum over healthy vertices of how far each load lies outside
 * its component's [floor, ceil] average band; 0 when balanced.
 */
u32 hcube_imbalance(u32 dim, const u8 *state, const u32 *after, void *work);

/*
 * RID and SID (Nam et al. 1999, Sections 1 and 3.1), one vertex's view. @d
 * healthy neighbours hold @sum tasks, the vertex @own; l_avg = (sum + own)
 * / (d + 1). RID: a vertex below l_avg asks neighbour k (load @lk) for
 * floor((l_avg - own) * lk / sum). SID: a vertex above l_avg sends
 * neighbour k, below l_avg, floor((own - l_avg) * (l_avg - lk) / H) with
 * H the sum of (l_avg - lj) over the neighbours below l_avg (@hsum, scaled
 * by d + 1 as hcube_sid_deficit() returns it). Both in exact integers.
 */
/**
 * hcube_rid_phi() - What an underloaded vertex asks a neighbour for (RID).
 * @d: the vertex's healthy neighbours.
 * @sum: the tasks they hold.
 * @own: the vertex's own tasks.
 * @lk: the tasks of the neighbour asked.
 *
 * Return: floor((l_avg - @own) * @lk / @sum); 0 when the vertex is not
 * below l_avg.
 */
u32 hcube_rid_phi(u32 d, u64 sum, u32 own, u32 lk);

/**
 * hcube_sid_deficit() - A neighbour's deficit below l_avg (SID), scaled.
 * @d: the sending vertex's healthy neighbours.
 * @sum: the tasks they hold.
 * @own: the sending vertex's own tasks.
 * @lk: the neighbour's tasks.
 *
 * Return: (@d + 1) * (l_avg - @lk), or 0 when @lk is not below l_avg.
 */
u64 hcube_sid_deficit(u32 d, u64 sum, u32 own, u32 lk);

/**
 * hcube_sid_psi() - What an overloaded vertex sends a neighbour (SID).
 * @d: the vertex's healthy neighbours.
 * @sum: the tasks they hold.
 * @own: the vertex's own tasks.
 * @lk: the neighbour's tasks.
 * @hsum: the sum of hcube_sid_deficit() over the neighbours below l_avg.
 *
 * Return: floor((@own - l_avg) * (l_avg - @lk) / H), at most U32_MAX; 0
 * when the vertex is not above l_avg.
 */
u32 hcube_sid_psi(u32 d, u64 sum, u32 own, u32 lk, u64 hsum);

/*
 * Symmetric broadcast networks (Das et al. 2002). SBN(d) on P = 2^d
 * vertices has one pattern per root r: stages d (the root) down to 0.
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

/**
 * hcube_sbn_stage() - The stage of a vertex in a pattern.
 * @tpl: the template.
 * @d: SBN(@d): 2^@d vertices.
 * @root: the pattern's root.
 * @x: the vertex.
 *
 * Return: its stage, @d for the root; 0 for a bad label or @d.
 */
u32 hcube_sbn_stage(enum hcube_sbn_template tpl, u32 d, u32 root, u32 x);

/**
 * hcube_sbn_pred() - The predecessor of a vertex in a pattern.
 * @tpl: the template.
 * @d: SBN(@d).
 * @root: the pattern's root.
 * @x: the vertex.
 *
 * Return: for XOR and TREE, the predecessor; for CUBE, the broadcast
 * (binomial) parent; HCUBE_VERTEX_NONE for the root or a bad label.
 */
u32 hcube_sbn_pred(enum hcube_sbn_template tpl, u32 d, u32 root, u32 x);

/**
 * hcube_sbn_succ() - The successors of a vertex in a pattern.
 * @tpl: the template.
 * @d: SBN(@d).
 * @root: the pattern's root.
 * @x: the vertex.
 * @succ: room for max(@d, 2) labels: for XOR and TREE, Succ1 then Succ2; for
 *        CUBE, the binomial children.
 *
 * Return: how many were written.
 */
u32 hcube_sbn_succ(enum hcube_sbn_template tpl, u32 d, u32 root, u32 x,
		   u32 *succ);

/**
 * hcube_sbn_gather_parent() - The gather parent in the hypercube embedding.
 * @d: SBN(@d).
 * @root: the pattern's root.
 * @x: the vertex.
 *
 * Return: the parent, or HCUBE_VERTEX_NONE at the destination or for a
 * bad label.
 */
u32 hcube_sbn_gather_parent(u32 d, u32 root, u32 x);

/**
 * hcube_sbn_cube_preds() - Every predecessor in the embedding's DAG.
 * @d: SBN(@d).
 * @root: the pattern's root.
 * @x: the vertex.
 * @preds: room for @d labels.
 *
 * Return: how many were written.
 */
u32 hcube_sbn_cube_preds(u32 d, u32 root, u32 x, u32 *preds);

/* UpdateLoad (Das et al. 2002, ConstParam 2). */
struct hcube_sbn_th {
	u32 sysll;		/* ceil(TotalJQ / P) */
	s32 minth;		/* SysLL - 1, or 2 when SysLL > 2 */
	u32 maxth;		/* SysLL + 2^floor(SysLL/2), capped at U32 max */
};

/**
 * hcube_sbn_update_load() - UpdateLoad: the thresholds of a total load.
 * @total: TotalJQ, the jobs queued on all processors.
 * @nproc: P, the processors.
 * @th: set to SysLL, MinTh and MaxTh.
 */
void hcube_sbn_update_load(u64 total, u32 nproc, struct hcube_sbn_th *th);
/*
 * The heuristic's overload push (its Distribute and GetDistribute away
 * from the root). The pusher, at @sysll with @qlen jobs: its new SysLL =
 * sysll + ceil((qlen - sysll) / nproc) goes to @new_sysll; returns the
 * jobs it sends down. A receiver at @stage that had @queued jobs and gets
 * @recv: SysLL = queued + ceil(recv / (2^(stage+1) - 1)); returns what it
 * forwards, queued + recv - SysLL (0 when that is negative).
 */
/**
 * hcube_sbz_push() - The heuristic's overload push, at the pusher.
 * @sysll: the pusher's SysLL.
 * @qlen: its jobs.
 * @nproc: the processors.
 * @new_sysll: set to its new SysLL.
 *
 * Return: the jobs it sends down.
 */
u32 hcube_sbz_push(u32 sysll, u32 qlen, u32 nproc, u32 *new_sysll);

/**
 * hcube_sbz_forward() - The heuristic's overload push, at a receiver.
 * @queued: the jobs the receiver had.
 * @recv: the jobs it gets.
 * @stage: its stage in the pattern.
 * @new_sysll: set to its new SysLL.
 *
 * Return: the jobs it forwards down.
 */
u32 hcube_sbz_forward(u32 queued, u32 recv, u32 stage, u32 *new_sysll);

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
/**
 * hcube_assign_memsize() - Scratch hcube_assign() needs.
 * @ns: the sources.
 * @nr: the sinks.
 *
 * Return: the bytes.
 */
size_t hcube_assign_memsize(u32 ns, u32 nr);

/**
 * hcube_assign() - Exact minimum-cost transportation.
 * @ns: the sources, at most HCUBE_ASSIGN_MAX.
 * @nr: the sinks, at most HCUBE_ASSIGN_MAX.
 * @supply: the tasks of each source.
 * @cap: the room of each sink.
 * @cost: cost[i * @nr + j] per task from i to j, HCUBE_NO_ARC for none.
 * @flow: set to the assignment, flow[i * @nr + j].
 * @total_cost: set to its cost.
 * @work: hcube_assign_memsize(@ns, @nr) bytes.
 *
 * Return: HCUBE_OK; HCUBE_E_DIM when @ns or @nr is too large;
 * HCUBE_E_INTERNAL when it fails to converge (a bug).
 */
int hcube_assign(u32 ns, u32 nr, const u32 *supply, const u32 *cap,
		 const u32 *cost, u32 *flow, u64 *total_cost, void *work);

/*
 * Fault-tolerant all-to-all personalized communication (Masuyama and
 * Masuyama 2003): every
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

/**
 * hcube_aapc_memsize() - Scratch hcube_aapc() needs.
 * @dim: the cube's dimension.
 *
 * Return: the bytes, or 0 when @dim is above HCUBE_MAX_DIM.
 */
size_t hcube_aapc_memsize(u32 dim);

/**
 * hcube_aapc_max_hops() - Room for the hops of a schedule.
 * @dim: the cube's dimension.
 *
 * Return: the most hops a @dim-cube's schedule has.
 */
u64 hcube_aapc_max_hops(u32 dim);

/**
 * hcube_aapc() - Build the fault-tolerant AAPC schedule.
 * @dim: the cube's dimension.
 * @state: the state of each vertex (usable or not).
 * @flags: 0 or HCUBE_AAPC_FORCE_AF.
 * @hops: NULL to compute @info only, else room for @cap hops; the hops of
 *        one datum come in unit order, data after data (not sorted by unit).
 * @cap: that room.
 * @info: set to the schedule's algorithm and counts.
 * @work: hcube_aapc_memsize(@dim) bytes.
 *
 * Return: HCUBE_OK; HCUBE_E_DIM, HCUBE_E_STATE, or HCUBE_E_AAPC_FAULTS for
 * more than floor(@dim/2) faulty nodes; HCUBE_E_PLAN_SIZE when @cap is too
 * small; HCUBE_E_INTERNAL when the schedule breaks a rule (a bug).
 */
int hcube_aapc(u32 dim, const u8 *state, u32 flags, struct hcube_aapc_hop *hops,
	       u64 cap, struct hcube_aapc_info *info, void *work);

#endif /* HCUBE_CORE_EXT_H */
