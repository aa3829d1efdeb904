// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl: decode what the kernel sends (cube summary, vertices, tasks,
 * rebalance reports) and print it, as text and as JSON. Every attribute is
 * optional here: what is absent is left out of the text and is null (or
 * left out, for tasks) in JSON.
 */
#include <stdlib.h>
#include <string.h>
#include "hcubectl.h"

struct hc_opts hc_opts;

void hc_json_begin(struct json *j)
{
	json_init(j, stdout, hc_opts.pretty);
}

void hc_json_label(struct json *j, int dim, uint32_t v)
{
	char lb[HC_LABEL_MAX];

	if (dim > 0)
		json_str(j, "label", hc_label(lb, dim, v));
	else if (dim == 0)
		json_str(j, "label", "");	/* a 0-cube: no digits */
}

void hc_json_empty(void)
{
	struct json j;

	hc_json_begin(&j);
	json_obj_open(&j, NULL);
	json_obj_close(&j);
	json_end(&j);
}

void hc_json_u32(struct json *j, const char *key, bool has, uint64_t v)
{
	if (has)
		json_uint(j, key, v);
	else
		json_null(j, key);
}

static void json_name_or_null(struct json *j, const char *key, bool has,
			      const char *name, uint32_t v)
{
	char num[16];

	if (has)
		json_str(j, key, hc_name_or_num(name, v, num, sizeof(num)));
	else
		json_null(j, key);
}

static void copy_str(char *dst, size_t size, const struct nlattr *a)
{
	char *s = hc_get_str(a);

	snprintf(dst, size, "%s", s ? s : "");
	free(s);
	hc_sanitize(dst);
}

static char *get_clean_str(const struct nlattr *a)
{
	char *s = hc_get_str(a);

	if (s)
		hc_sanitize(s);
	return s;
}

/* ---- cube summary ---- */

static const int cube_u32_attrs[] = {
	HCUBE_A_MODE, HCUBE_A_DIM, HCUBE_A_NVERTICES, HCUBE_A_NHEALTHY,
	HCUBE_A_NATTACHED, HCUBE_A_NTASKS, HCUBE_A_CB_BASE, HCUBE_A_CB_MASK,
	HCUBE_A_TREE_DEPTH, HCUBE_A_GENERATION, HCUBE_A_REASON,
	HCUBE_A_CLUSTER_DIM,
};

static uint32_t *cube_field(struct hc_cube *c, int type)
{
	switch (type) {
	case HCUBE_A_MODE: return &c->mode;
	case HCUBE_A_DIM: return &c->dim;
	case HCUBE_A_NVERTICES: return &c->nvertices;
	case HCUBE_A_NHEALTHY: return &c->nhealthy;
	case HCUBE_A_NATTACHED: return &c->nattached;
	case HCUBE_A_NTASKS: return &c->ntasks;
	case HCUBE_A_CB_BASE: return &c->cb_base;
	case HCUBE_A_CB_MASK: return &c->cb_mask;
	case HCUBE_A_TREE_DEPTH: return &c->tree_depth;
	case HCUBE_A_GENERATION: return &c->generation;
	case HCUBE_A_CLUSTER_DIM: return &c->cluster_dim;
	default: return &c->reason;
	}
}

void hc_cube_parse(struct hc_cube *c, struct nlattr **tb)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < ARRAY_SIZE(cube_u32_attrs); i++) {
		int type = cube_u32_attrs[i];

		if (hc_get_u32(tb[type], cube_field(c, type)))
			c->has |= 1U << type;
	}
	if (tb[HCUBE_A_CB_PATTERN]) {
		copy_str(c->cb_pattern, sizeof(c->cb_pattern), tb[HCUBE_A_CB_PATTERN]);
		c->has |= 1U << HCUBE_A_CB_PATTERN;
	}
	if (tb[HCUBE_A_CONTROLLERS]) {
		c->nctrl = (uint32_t)nla_len(tb[HCUBE_A_CONTROLLERS]) / sizeof(uint16_t);
		if (c->nctrl > HC_MAX_CLUSTERS)
			c->nctrl = HC_MAX_CLUSTERS;
		memcpy(c->ctrl, nla_data(tb[HCUBE_A_CONTROLLERS]),
		       c->nctrl * sizeof(uint16_t));
		c->has |= 1U << HCUBE_A_CONTROLLERS;
	}
}

int hc_cube_dim(const struct hc_cube *c)
{
	return HC_HAS(c, HCUBE_A_DIM) && c->dim <= 32 ? (int)c->dim : -1;
}

void hc_cube_json(struct json *j, const struct hc_cube *c)
{
	json_name_or_null(j, "mode", HC_HAS(c, HCUBE_A_MODE), hc_mode_name(c->mode),
			  c->mode);
	hc_json_u32(j, "dim", HC_HAS(c, HCUBE_A_DIM), c->dim);
	hc_json_u32(j, "nvertices", HC_HAS(c, HCUBE_A_NVERTICES), c->nvertices);
	hc_json_u32(j, "healthy", HC_HAS(c, HCUBE_A_NHEALTHY), c->nhealthy);
	hc_json_u32(j, "attached", HC_HAS(c, HCUBE_A_NATTACHED), c->nattached);
	hc_json_u32(j, "ntasks", HC_HAS(c, HCUBE_A_NTASKS), c->ntasks);
	hc_json_u32(j, "generation", HC_HAS(c, HCUBE_A_GENERATION), c->generation);
	if (HC_HAS(c, HCUBE_A_CB_PATTERN))
		json_str(j, "balancing_subcube", c->cb_pattern);
	else
		json_null(j, "balancing_subcube");
	hc_json_u32(j, "cb_base", HC_HAS(c, HCUBE_A_CB_BASE), c->cb_base);
	hc_json_u32(j, "cb_mask", HC_HAS(c, HCUBE_A_CB_MASK), c->cb_mask);
	hc_json_u32(j, "tree_depth", HC_HAS(c, HCUBE_A_TREE_DEPTH), c->tree_depth);
}

void hc_cube_line(struct hc_str *b, const struct hc_cube *c)
{
	char num[16];
	const char *sep = "";

#define PART(...) do {				\
		hc_str_printf(b, "%s", sep);	\
		hc_str_printf(b, __VA_ARGS__);	\
		sep = ", ";			\
	} while (0)
	if (HC_HAS(c, HCUBE_A_MODE))
		PART("mode %s", hc_name_or_num(hc_mode_name(c->mode), c->mode, num,
					       sizeof(num)));
	if (HC_HAS(c, HCUBE_A_DIM))
		PART("%u-cube", c->dim);
	if (HC_HAS(c, HCUBE_A_NHEALTHY) && HC_HAS(c, HCUBE_A_NVERTICES))
		PART("%u of %u vertices healthy", c->nhealthy, c->nvertices);
	else if (HC_HAS(c, HCUBE_A_NVERTICES))
		PART("%u vertices", c->nvertices);
	if (HC_HAS(c, HCUBE_A_NATTACHED))
		PART("%u attached", c->nattached);
	if (HC_HAS(c, HCUBE_A_NTASKS))
		PART("%u task%s", c->ntasks, c->ntasks == 1 ? "" : "s");
	if (HC_HAS(c, HCUBE_A_CB_PATTERN))
		PART("balancing subcube %s", c->cb_pattern[0] ? c->cb_pattern : "-");
	if (HC_HAS(c, HCUBE_A_TREE_DEPTH))
		PART("tree depth %u", c->tree_depth);
	if (HC_HAS(c, HCUBE_A_GENERATION))
		PART("generation %u", c->generation);
#undef PART
}

/* ---- vertices ---- */

int hc_vertex_parse(struct hc_vertex *v, const struct nlattr *nest)
{
	struct nlattr *tb[HCUBE_V_A_MAX + 1];

	memset(v, 0, sizeof(*v));
	v->parent = -1;
	hc_parse_nested(tb, HCUBE_V_A_MAX, nest);
	if (!hc_get_u32(tb[HCUBE_V_A_ID], &v->id))
		return -1;	/* a vertex without its label is useless */
	v->has |= 1U << HCUBE_V_A_ID;
#define U32(attr, field) do {					\
		if (hc_get_u32(tb[attr], &v->field))		\
			v->has |= 1U << (attr);			\
	} while (0)
	U32(HCUBE_V_A_STATE, state);
	U32(HCUBE_V_A_LOAD, load);
	U32(HCUBE_V_A_DIST, dist);
	U32(HCUBE_V_A_OMEGA, omega);
#undef U32
	if (hc_get_s32(tb[HCUBE_V_A_PARENT], &v->parent))
		v->has |= 1U << HCUBE_V_A_PARENT;
	v->in_cb = tb[HCUBE_V_A_IN_CB];
	v->detached = tb[HCUBE_V_A_DETACHED];
	v->marked = tb[HCUBE_V_A_MARKED];
	v->controller = tb[HCUBE_V_A_CONTROLLER];
	v->cpus = get_clean_str(tb[HCUBE_V_A_CPUS]);
	v->usable = get_clean_str(tb[HCUBE_V_A_USABLE_CPUS]);
	v->faulty = get_clean_str(tb[HCUBE_V_A_FAULTY_CPUS]);
	v->offline = get_clean_str(tb[HCUBE_V_A_OFFLINE_CPUS]);
	return 0;
}

void hc_vertex_free(struct hc_vertex *v)
{
	free(v->cpus);
	free(v->usable);
	free(v->faulty);
	free(v->offline);
}

/* ---- tasks ---- */

int hc_task_parse(struct hc_task *t, const struct nlattr *nest)
{
	struct nlattr *tb[HCUBE_T_A_MAX + 1];

	memset(t, 0, sizeof(*t));
	hc_parse_nested(tb, HCUBE_T_A_MAX, nest);
#define U32(attr, field) do {					\
		if (hc_get_u32(tb[attr], &t->field))		\
			t->has |= 1U << (attr);			\
	} while (0)
	U32(HCUBE_T_A_PID, pid);
	U32(HCUBE_T_A_TGID, tgid);
	U32(HCUBE_T_A_VERTEX, vertex);
	U32(HCUBE_T_A_STATE, state);
	U32(HCUBE_T_A_REASON, reason);
#undef U32
	if (hc_get_s32(tb[HCUBE_T_A_ERROR], &t->error))
		t->has |= 1U << HCUBE_T_A_ERROR;
	if (tb[HCUBE_T_A_COMM]) {
		copy_str(t->comm, sizeof(t->comm), tb[HCUBE_T_A_COMM]);
		t->has |= 1U << HCUBE_T_A_COMM;
	}
	t->cpus = get_clean_str(tb[HCUBE_T_A_CPUS]);
	if (t->cpus)
		t->has |= 1U << HCUBE_T_A_CPUS;
	t->orig_cpus = get_clean_str(tb[HCUBE_T_A_ORIG_CPUS]);
	if (t->orig_cpus)
		t->has |= 1U << HCUBE_T_A_ORIG_CPUS;
	return 0;
}

void hc_task_free(struct hc_task *t)
{
	free(t->cpus);
	free(t->orig_cpus);
	t->cpus = t->orig_cpus = NULL;
}

struct hc_task *hc_tasks_add(struct hc_tasks *l)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = hc_realloc(l->v, l->cap * sizeof(*l->v));
	}
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	return &l->v[l->n++];
}

void hc_tasks_free(struct hc_tasks *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		hc_task_free(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

/* strerror() of a -errno from the kernel. */
static const char *kernel_strerror(int32_t err)
{
	if (err == 0)
		return "Success";
	return strerror(err < 0 && err != INT32_MIN ? -err : err);
}

void hc_task_json(struct json *j, const char *key, const struct hc_task *t, int dim)
{
	json_obj_open(j, key);
	hc_task_json_members(j, t, dim);
	json_obj_close(j);
}

void hc_task_json_members(struct json *j, const struct hc_task *t, int dim)
{
	char num[16];

	if (HC_HAS(t, HCUBE_T_A_PID))
		json_uint(j, "pid", t->pid);
	if (HC_HAS(t, HCUBE_T_A_TGID))
		json_uint(j, "tgid", t->tgid);
	if (HC_HAS(t, HCUBE_T_A_COMM))
		json_str(j, "comm", t->comm);
	if (HC_HAS(t, HCUBE_T_A_VERTEX)) {
		json_uint(j, "vertex", t->vertex);
		hc_json_label(j, dim, t->vertex);
	}
	if (HC_HAS(t, HCUBE_T_A_STATE))
		json_str(j, "state", hc_name_or_num(hc_tstate_name(t->state),
						    t->state, num, sizeof(num)));
	if (t->cpus)
		json_str(j, "cpus", t->cpus);
	if (t->orig_cpus)
		json_str(j, "orig_cpus", t->orig_cpus);
	if (HC_HAS(t, HCUBE_T_A_ERROR)) {
		json_int(j, "error", t->error);
		json_str(j, "error_str", kernel_strerror(t->error));
	}
	if (HC_HAS(t, HCUBE_T_A_REASON))
		json_str(j, "reason", hc_name_or_num(hc_reason_name(t->reason),
						     t->reason, num, sizeof(num)));
}

void hc_task_text(struct hc_str *b, const struct hc_task *t, int dim)
{
	char lb[HC_LABEL_MAX], num[16];

	hc_str_printf(b, "pid ");
	if (HC_HAS(t, HCUBE_T_A_PID))
		hc_str_printf(b, "%u", t->pid);
	else
		hc_str_printf(b, "?");
	if (HC_HAS(t, HCUBE_T_A_COMM))
		hc_str_printf(b, " (%s)", t->comm);
	if (HC_HAS(t, HCUBE_T_A_TGID) && (!HC_HAS(t, HCUBE_T_A_PID) || t->tgid != t->pid))
		hc_str_printf(b, " tgid %u", t->tgid);
	if (HC_HAS(t, HCUBE_T_A_VERTEX))
		hc_str_printf(b, " vertex %s", hc_label(lb, dim, t->vertex));
	if (HC_HAS(t, HCUBE_T_A_STATE))
		hc_str_printf(b, " %s", hc_name_or_num(hc_tstate_name(t->state),
						       t->state, num, sizeof(num)));
	if (t->cpus)
		hc_str_printf(b, " cpus %s", t->cpus[0] ? t->cpus : "-");
	if (t->orig_cpus)
		hc_str_printf(b, " (was %s)", t->orig_cpus[0] ? t->orig_cpus : "-");
	if (HC_HAS(t, HCUBE_T_A_ERROR))
		hc_str_printf(b, ": %s", kernel_strerror(t->error));
}

/* ---- rebalance reports ---- */

static uint32_t *copy_u32_array(const struct nlattr *a, uint32_t *n)
{
	uint32_t *v;

	*n = (uint32_t)nla_len(a) / sizeof(uint32_t);
	v = hc_malloc(*n * sizeof(uint32_t));
	memcpy(v, nla_data(a), *n * sizeof(uint32_t));
	return v;
}

int hc_report_parse(struct hc_report *r, struct nlattr *attrs, int len)
{
	static const int load_attrs[3] = {
		HCUBE_R_A_LOADS_BEFORE, HCUBE_R_A_LOADS_PLAN, HCUBE_R_A_LOADS_AFTER,
	};
	struct nlattr *tb[HCUBE_R_A_MAX + 1], *a;
	int i, rem;

	memset(r, 0, sizeof(*r));
	hc_parse(tb, HCUBE_R_A_MAX, attrs, len);
#define U32(attr, field) do {					\
		if (hc_get_u32(tb[attr], &r->field))		\
			r->has |= 1U << (attr);			\
	} while (0)
#define U64(attr, field) do {					\
		if (hc_get_u64(tb[attr], &r->field))		\
			r->has |= 1U << (attr);			\
	} while (0)
	U32(HCUBE_R_A_POLICY, policy);
	U32(HCUBE_R_A_TRIGGER, trigger);
	U32(HCUBE_R_A_NTRANSFERS, ntransfers);
	U32(HCUBE_R_A_STEPS, steps);
	U32(HCUBE_R_A_COMM_STEPS, comm_steps);
	U32(HCUBE_R_A_MOVED, moved);
	U32(HCUBE_R_A_FAILED, failed);
	U32(HCUBE_R_A_EXITED, exited);
	U32(HCUBE_R_A_EVACUATED, evacuated);
	U32(HCUBE_R_A_TREE_DEPTH, tree_depth);
	U32(HCUBE_R_A_APPLIED, applied);
	U32(HCUBE_R_A_MESSAGES, messages);
	U32(HCUBE_R_A_IMBALANCE, imbalance);
	U32(HCUBE_R_A_CONTENDED, contended);
	U64(HCUBE_R_A_MIGRATIONS, migrations);
	U64(HCUBE_R_A_DURATION_NS, duration_ns);
#undef U32
#undef U64
	r->dry_run = tb[HCUBE_R_A_DRY_RUN];
	if (tb[HCUBE_R_A_CB_PATTERN]) {
		copy_str(r->cb_pattern, sizeof(r->cb_pattern), tb[HCUBE_R_A_CB_PATTERN]);
		r->has |= 1U << HCUBE_R_A_CB_PATTERN;
	}
	for (i = 0; i < 3; i++)
		if (tb[load_attrs[i]]) {
			r->loads[i] = copy_u32_array(tb[load_attrs[i]], &r->nloads[i]);
			r->has |= 1U << load_attrs[i];
		}
	nla_for_each_attr(a, attrs, len, rem) {
		int type = nla_type(a);

		if (type == HCUBE_R_A_TRANSFERS) {
			/*
			 * At most HCUBE_TRANSFERS_PER_ATTR to an attribute (a
			 * 10-cube's plan has up to 6144): join them in order.
			 */
			uint32_t n = (uint32_t)nla_len(a) / sizeof(*r->xfers);

			r->xfers = hc_realloc(r->xfers, (r->nxfers + n) * sizeof(*r->xfers));
			memcpy(r->xfers + r->nxfers, nla_data(a), n * sizeof(*r->xfers));
			r->nxfers += n;
			r->has |= 1U << HCUBE_R_A_TRANSFERS;
		} else if (type == HCUBE_R_A_FAILURE) {
			hc_task_parse(hc_tasks_add(&r->failures), a);
		} else if (type == HCUBE_R_A_CHANGED) {
			hc_task_parse(hc_tasks_add(&r->changed), a);
		}
	}
	return HC_HAS(r, HCUBE_R_A_POLICY) ? 0 : -1;
}

void hc_report_free(struct hc_report *r)
{
	int i;

	for (i = 0; i < 3; i++)
		free(r->loads[i]);
	free(r->xfers);
	hc_tasks_free(&r->failures);
	hc_tasks_free(&r->changed);
}

int hc_report_dim(const struct hc_report *r, int dim)
{
	uint32_t n = 0;
	int i, d;

	/* The per-vertex arrays first: they have 1 << dim entries. */
	for (i = 0; i < 3; i++)
		if (r->loads[i] && r->nloads[i])
			n = r->nloads[i];
	for (d = 0; n && d <= 31; d++)
		if (n == 1U << d)
			return d;
	/* Then the pattern, one letter per dimension (none without C_b). */
	if (HC_HAS(r, HCUBE_R_A_CB_PATTERN) && r->cb_pattern[0] &&
	    strlen(r->cb_pattern) <= 32)
		return (int)strlen(r->cb_pattern);
	return dim;
}

static void json_loads(struct json *j, const char *key, const uint32_t *v, uint32_t n)
{
	uint32_t i;

	if (!v) {
		json_null(j, key);
		return;
	}
	json_arr_open(j, key);
	for (i = 0; i < n; i++)
		json_uint(j, NULL, v[i]);
	json_arr_close(j);
}

void hc_report_json(struct json *j, const struct hc_report *r, int dim)
{
	uint32_t i;
	size_t k;

	dim = hc_report_dim(r, dim);
	json_name_or_null(j, "policy", HC_HAS(r, HCUBE_R_A_POLICY),
			  hc_policy_name(r->policy), r->policy);
	json_bool(j, "dry_run", r->dry_run);
	json_name_or_null(j, "trigger", HC_HAS(r, HCUBE_R_A_TRIGGER),
			  hc_reason_name(r->trigger), r->trigger);
	json_name_or_null(j, "applied", HC_HAS(r, HCUBE_R_A_APPLIED),
			  hc_policy_name(r->applied), r->applied);
	hc_json_u32(j, "dim", dim >= 0, (uint32_t)dim);
	if (HC_HAS(r, HCUBE_R_A_CB_PATTERN))
		json_str(j, "balancing_subcube", r->cb_pattern);
	else
		json_null(j, "balancing_subcube");
	hc_json_u32(j, "tree_depth", HC_HAS(r, HCUBE_R_A_TREE_DEPTH), r->tree_depth);
	json_loads(j, "loads_before", r->loads[0], r->nloads[0]);
	json_loads(j, "loads_plan", r->loads[1], r->nloads[1]);
	json_loads(j, "loads_after", r->loads[2], r->nloads[2]);
	if (HC_HAS(r, HCUBE_R_A_TRANSFERS) || !r->ntransfers) {
		json_arr_open(j, "transfers");
		for (i = 0; i < r->nxfers; i++) {
			json_obj_open(j, NULL);
			json_uint(j, "step", r->xfers[i].step);
			json_uint(j, "from", r->xfers[i].from);
			json_uint(j, "to", r->xfers[i].to);
			json_uint(j, "count", r->xfers[i].count);
			json_obj_close(j);
		}
		json_arr_close(j);
	} else {
		json_null(j, "transfers");
	}
	hc_json_u32(j, "ntransfers", HC_HAS(r, HCUBE_R_A_NTRANSFERS), r->ntransfers);
	hc_json_u32(j, "steps", HC_HAS(r, HCUBE_R_A_STEPS), r->steps);
	hc_json_u32(j, "comm_steps", HC_HAS(r, HCUBE_R_A_COMM_STEPS), r->comm_steps);
	hc_json_u32(j, "messages", HC_HAS(r, HCUBE_R_A_MESSAGES), r->messages);
	hc_json_u32(j, "imbalance", HC_HAS(r, HCUBE_R_A_IMBALANCE), r->imbalance);
	hc_json_u32(j, "contended", HC_HAS(r, HCUBE_R_A_CONTENDED), r->contended);
	hc_json_u32(j, "migrations", HC_HAS(r, HCUBE_R_A_MIGRATIONS), r->migrations);
	hc_json_u32(j, "moved_tasks", HC_HAS(r, HCUBE_R_A_MOVED), r->moved);
	hc_json_u32(j, "failed", HC_HAS(r, HCUBE_R_A_FAILED), r->failed);
	hc_json_u32(j, "exited", HC_HAS(r, HCUBE_R_A_EXITED), r->exited);
	hc_json_u32(j, "evacuated", HC_HAS(r, HCUBE_R_A_EVACUATED), r->evacuated);
	hc_json_u32(j, "duration_ns", HC_HAS(r, HCUBE_R_A_DURATION_NS), r->duration_ns);
	json_arr_open(j, "failures");
	for (k = 0; k < r->failures.n; k++)
		hc_task_json(j, NULL, &r->failures.v[k], dim);
	json_arr_close(j);
	json_arr_open(j, "changed");
	for (k = 0; k < r->changed.n; k++)
		hc_task_json(j, NULL, &r->changed.v[k], dim);
	json_arr_close(j);
}

static void print_duration(FILE *f, uint64_t ns)
{
	if (ns < 1000)
		fprintf(f, "%llu ns", (unsigned long long)ns);
	else if (ns < 1000000)
		fprintf(f, "%.3f us", ns / 1e3);
	else
		fprintf(f, "%.3f ms", ns / 1e6);
}

static void print_load(FILE *f, const uint32_t *v, uint32_t n, uint32_t i)
{
	if (i < n)
		fprintf(f, "%u", v[i]);
	else
		fputc('?', f);
}

void hc_report_text(FILE *f, const struct hc_report *r, int dim)
{
	char lb[HC_LABEL_MAX], lb2[HC_LABEL_MAX], num[16];
	uint32_t i, n = 0, step = 0;
	size_t k;
	int l;

	dim = hc_report_dim(r, dim);
	fprintf(f, "rebalance%s: policy %s", r->dry_run ? " (dry run)" : "",
		HC_HAS(r, HCUBE_R_A_POLICY) ?
		hc_name_or_num(hc_policy_name(r->policy), r->policy, num, sizeof(num)) :
		"?");
	if (HC_HAS(r, HCUBE_R_A_TRIGGER))
		fprintf(f, ", trigger %s",
			hc_name_or_num(hc_reason_name(r->trigger), r->trigger, num,
				       sizeof(num)));
	if (HC_HAS(r, HCUBE_R_A_APPLIED) &&
	    (!HC_HAS(r, HCUBE_R_A_POLICY) || r->applied != r->policy))
		fprintf(f, ", applied %s",
			hc_name_or_num(hc_policy_name(r->applied), r->applied, num,
				       sizeof(num)));
	fputc('\n', f);
	fprintf(f, "balancing subcube %s",
		HC_HAS(r, HCUBE_R_A_CB_PATTERN) && r->cb_pattern[0] ? r->cb_pattern : "-");
	if (HC_HAS(r, HCUBE_R_A_TREE_DEPTH))
		fprintf(f, ", tree depth %u", r->tree_depth);
	fputc('\n', f);

	for (l = 0; l < 3; l++)
		if (r->loads[l] && r->nloads[l] > n)
			n = r->nloads[l];
	if (n) {
		fprintf(f, "loads (vertex: before -> plan%s):\n",
			r->loads[2] ? " -> after" : "");
		for (i = 0; i < n; i++) {
			fprintf(f, "  %s: ", hc_label(lb, dim, i));
			print_load(f, r->loads[0], r->nloads[0], i);
			fputs(" -> ", f);
			print_load(f, r->loads[1], r->nloads[1], i);
			if (r->loads[2]) {
				fputs(" -> ", f);
				print_load(f, r->loads[2], r->nloads[2], i);
			}
			fputc('\n', f);
		}
	}

	fprintf(f, "transfers:\n");
	if (!r->nxfers)
		fprintf(f, "  none\n");
	for (i = 0; i < r->nxfers; i++) {
		const struct hcube_transfer_info *x = &r->xfers[i];

		if (!i || x->step != step) {
			step = x->step;
			fprintf(f, "%s  step %u:", i ? "\n" : "", step);
		}
		fprintf(f, " %s->%s %u", hc_label(lb, dim, x->from),
			hc_label(lb2, dim, x->to), x->count);
	}
	if (r->nxfers)
		fputc('\n', f);

	fprintf(f, "transfers %u, steps %u, migrations (task-hops) %llu, ", r->ntransfers,
		r->steps, (unsigned long long)r->migrations);
	fprintf(f, "moved tasks %u, communication steps %u\n", r->moved, r->comm_steps);
	if (HC_HAS(r, HCUBE_R_A_MESSAGES) || HC_HAS(r, HCUBE_R_A_IMBALANCE)) {
		fprintf(f, "messages %u, imbalance %u", r->messages, r->imbalance);
		if (HC_HAS(r, HCUBE_R_A_CONTENDED))
			fprintf(f, ", contended receivers %u", r->contended);
		fputc('\n', f);
	}
	fprintf(f, "failed %u, exited %u, evacuated %u", r->failed, r->exited,
		r->evacuated);
	if (HC_HAS(r, HCUBE_R_A_DURATION_NS)) {
		fputs(", duration ", f);
		print_duration(f, r->duration_ns);
	}
	fputc('\n', f);
	if (r->failures.n) {
		fprintf(f, "failures:\n");
		for (k = 0; k < r->failures.n; k++) {
			struct hc_str b = { 0 };

			hc_task_text(&b, &r->failures.v[k], dim);
			fprintf(f, "  %s\n", b.s);
			hc_str_free(&b);
		}
	}
	if (r->changed.n) {
		fprintf(f, "changed (affinity set by someone else, left alone):\n");
		for (k = 0; k < r->changed.n; k++) {
			struct hc_str b = { 0 };

			hc_task_text(&b, &r->changed.v[k], dim);
			fprintf(f, "  %s\n", b.s);
			hc_str_free(&b);
		}
	}
}

void hc_report_line(struct hc_str *b, const struct hc_report *r, int dim)
{
	char num[16];

	(void)dim;
	hc_str_printf(b, "rebalance%s policy %s", r->dry_run ? " (dry run)" : "",
		      HC_HAS(r, HCUBE_R_A_POLICY) ?
		      hc_name_or_num(hc_policy_name(r->policy), r->policy, num,
				     sizeof(num)) : "?");
	if (HC_HAS(r, HCUBE_R_A_TRIGGER))
		hc_str_printf(b, " trigger %s",
			      hc_name_or_num(hc_reason_name(r->trigger), r->trigger,
					     num, sizeof(num)));
	if (HC_HAS(r, HCUBE_R_A_APPLIED) &&
	    (!HC_HAS(r, HCUBE_R_A_POLICY) || r->applied != r->policy))
		hc_str_printf(b, " applied %s",
			      hc_name_or_num(hc_policy_name(r->applied), r->applied,
					     num, sizeof(num)));
	if (HC_HAS(r, HCUBE_R_A_CB_PATTERN))
		hc_str_printf(b, " C_b %s", r->cb_pattern[0] ? r->cb_pattern : "-");
	if (HC_HAS(r, HCUBE_R_A_TREE_DEPTH))
		hc_str_printf(b, " depth %u", r->tree_depth);
	hc_str_printf(b, " transfers %u steps %u migrations %llu", r->ntransfers,
		      r->steps, (unsigned long long)r->migrations);
	hc_str_printf(b, " moved %u failed %u exited %u evacuated %u", r->moved,
		      r->failed, r->exited, r->evacuated);
	if (HC_HAS(r, HCUBE_R_A_IMBALANCE))
		hc_str_printf(b, " imbalance %u", r->imbalance);
	if (HC_HAS(r, HCUBE_R_A_DURATION_NS))
		hc_str_printf(b, " duration %llu ns",
			      (unsigned long long)r->duration_ns);
}
