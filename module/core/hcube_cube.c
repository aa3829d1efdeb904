// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: the cube: errors, patterns, state checks, components of
 * healthy vertices.
 */
#include "hcube_core.h"
#include "hcube_internal.h"

static const char *const hcube_errors[HCUBE_E_NERRORS] = {
	[HCUBE_OK] = "success",
	[HCUBE_E_INTERNAL] = "internal error: the plan failed its replay check",
	[HCUBE_E_DIM] = "dimension out of range (0..10)",
	[HCUBE_E_STATE] = "unknown vertex state",
	[HCUBE_E_POLICY] = "unknown policy",
	[HCUBE_E_NO_HEALTHY] = "no healthy vertex",
	[HCUBE_E_FAULTY_LOAD] = "a faulty, offline or absent vertex has tasks",
	[HCUBE_E_OVERFLOW] = "total load above 2147483647",
	[HCUBE_E_NEED_MCWA] = "cwa needs a fault-free cube: use mcwa",
	[HCUBE_E_TOPO] = "topology does not match the cube",
	[HCUBE_E_FLOW_TOTAL] = "before and after hold different numbers of tasks",
	[HCUBE_E_FLOW_UNREACHABLE] =
		"a vertex that needs tasks has no healthy path from one that has them",
	[HCUBE_E_BUDGET] = "the computation exceeded its work bound",
	[HCUBE_E_PLAN_SIZE] = "the plan needs more transfers than its room",
	[HCUBE_E_AAPC_FAULTS] = "more than floor(n/2) faulty nodes for AAPC",
};

const char *hcube_strerror(int err)
{
	if (err < 0 || err >= HCUBE_E_NERRORS)
		return "unknown error";
	return hcube_errors[err];
}

char *hcube_pattern(char *buf, u32 dim, u32 base, u32 mask)
{
	u32 i;

	for (i = 0; i < dim; i++) {
		u32 bit = 1U << (dim - 1 - i);

		buf[i] = (mask & bit) ? 'X' : ((base & bit) ? '1' : '0');
	}
	buf[dim] = '\0';
	return buf;
}

int hcube_check_states(u32 dim, const u8 *state)
{
	u32 v;

	if (dim > HCUBE_MAX_DIM)
		return HCUBE_E_DIM;
	for (v = 0; v < (1U << dim); v++)
		if (state[v] >= HCUBE_V_NSTATES)
			return HCUBE_E_STATE;
	return HCUBE_OK;
}

u32 hcube_components(u32 dim, const u8 *state, u16 *comp, u16 *size,
		     u16 *queue)
{
	u32 n = 1U << dim, v, d, head = 0, tail = 0, ncomp = 0;

	for (v = 0; v < n; v++)
		comp[v] = HCUBE_COMP_NONE;
	for (v = 0; v < n; v++) {
		u32 start = tail;

		if (!hcube_usable(state[v]) || comp[v] != HCUBE_COMP_NONE)
			continue;
		comp[v] = ncomp;
		queue[tail++] = v;
		while (head < tail) {
			u32 u = queue[head++];

			for (d = 0; d < dim; d++) {
				u32 x = u ^ (1U << d);

				if (hcube_usable(state[x]) &&
				    comp[x] == HCUBE_COMP_NONE) {
					comp[x] = ncomp;
					queue[tail++] = x;
				}
			}
		}
		if (size)
			size[ncomp] = tail - start;
		ncomp++;
	}
	return ncomp;
}
