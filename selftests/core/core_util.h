/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers for the host tests of the hcube core: memory for one cube size. */
#ifndef HCUBE_CORE_UTIL_H
#define HCUBE_CORE_UTIL_H

#include <stdlib.h>
#include <string.h>
#include "hcube_core_ext.h"

/*
 * The harness kills a test after 30 s; the sanitizer builds of the
 * exhaustive tests need more than that on a loaded two-CPU machine.
 * (TEST() reads the macro where it is used, so redefining it here works.)
 */
#ifdef TEST_TIMEOUT_DEFAULT
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 600
#endif

/*
 * The tests' random numbers (xorshift64*), for a file that defines
 * CORE_RNG_SEED before it includes this header: reproducible from that
 * seed, or from what a test assigns to rng_state. The harness runs each
 * TEST in a child of its own, so each starts from the seed.
 */
#ifdef CORE_RNG_SEED
static u64 rng_state = CORE_RNG_SEED;

static inline u32 rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (u32)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

/* Uniform in [0, n). */
static inline u32 rnd_below(u32 n)
{
	return (u32)(((u64)rnd() * n) >> 32);
}
#endif

struct ctx {
	u32 dim;
	struct hcube_topo topo;
	struct hcube_plan plan;
	void *topo_mem, *plan_mem, *work;
	u8 state[HCUBE_MAX_VERTICES];
	u32 load[HCUBE_MAX_VERTICES];
	struct hcube_cube cube;
};

static inline int ctx_init(struct ctx *c, u32 dim)
{
	memset(c, 0, sizeof(*c));
	c->dim = dim;
	c->topo_mem = malloc(hcube_topo_memsize(dim));
	c->plan_mem = malloc(hcube_plan_memsize(dim));
	c->work = malloc(hcube_work_memsize(dim));
	if (!c->topo_mem || !c->plan_mem || !c->work)
		return -1;
	if (hcube_topo_init(&c->topo, dim, c->topo_mem) ||
	    hcube_plan_init(&c->plan, dim, c->plan_mem))
		return -1;
	c->cube.dim = dim;
	c->cube.state = c->state;
	c->cube.load = c->load;
	return 0;
}

static inline void ctx_free(struct ctx *c)
{
	free(c->topo_mem);
	free(c->plan_mem);
	free(c->work);
}

/* Every vertex healthy, vertex v with @load[v] tasks. */
static inline void ctx_healthy(struct ctx *c, const u32 *load)
{
	u32 v;

	for (v = 0; v < 1U << c->dim; v++) {
		c->state[v] = HCUBE_V_HEALTHY;
		c->load[v] = load[v];
	}
}

/* Tasks the plan moves from @from to @to, over all its transfers. */
static inline u32 ctx_moved(const struct ctx *c, u32 from, u32 to)
{
	u32 i, sum = 0;

	for (i = 0; i < c->plan.ntransfers; i++)
		if (c->plan.transfers[i].from == from && c->plan.transfers[i].to == to)
			sum += c->plan.transfers[i].count;
	return sum;
}

/* "0101" -> 5: a label written highest dimension first, as in the paper. */
static inline u32 lbl(const char *bits)
{
	u32 v = 0;

	while (*bits)
		v = v * 2 + (u32)(*bits++ - '0');
	return v;
}

static inline int ctx_plan(struct ctx *c, enum hcube_policy pol)
{
	int err = hcube_topo_build(&c->topo, c->dim, c->state, c->work);

	if (err && pol != HCUBE_POLICY_DEM)
		return err;
	return hcube_plan_build(&c->plan, pol, &c->cube,
				err ? NULL : &c->topo, c->work);
}

/*
 * The premise of many plan tests: ctx_init() for a @dim-cube, every vertex
 * healthy with @load[v] tasks (ctx_healthy()), planned with @pol. Returns
 * what ctx_plan() returns, or -1 when out of memory.
 */
static inline int ctx_plan_healthy(struct ctx *c, u32 dim, const u32 *load,
				   enum hcube_policy pol)
{
	if (ctx_init(c, dim))
		return -1;
	ctx_healthy(c, load);
	return ctx_plan(c, pol);
}

#endif
