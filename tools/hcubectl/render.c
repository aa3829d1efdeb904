// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl: what several commands print - the cube summary, a task, a
 * rebalance report - from the attributes the kernel sent, text and JSON by
 * the same calls. Every attribute is optional: what is absent is left out
 * of the text and is null (or left out, for tasks) in JSON.
 */
#include <stdlib.h>
#include <string.h>
#include "hcubectl.h"

void print_label(int dim, uint32_t v)
{
	char lb[HC_LABEL_MAX];

	if (dim > 0)
		print_string(PRINT_JSON, "label", NULL, hc_label(lb, dim, v));
	else if (dim == 0)
		print_string(PRINT_JSON, "label", NULL, "");	/* a 0-cube: no digits */
}

/* ", " in text before each part of a line but the first, if @a is there. */
static bool part(const char **sep, const struct nlattr *a)
{
	if (!a)
		return false;
	print_fp("%s", *sep);
	*sep = ", ";
	return true;
}

/* ---- the cube summary ---- */

/*
 * JSON: mode dim nvertices healthy attached ntasks generation
 * balancing_subcube cb_base cb_mask tree_depth (null when absent). Text:
 * "mode llc, 4-cube, 12 of 16 vertices healthy, 12 attached, 4 tasks,
 * balancing subcube X0X1, tree depth 2, generation 42", what is there.
 */
void print_cube(struct nlattr **tb)
{
	struct nlattr *nv = tb[HCUBE_A_NVERTICES], *nh = tb[HCUBE_A_NHEALTHY];
	struct nlattr *nt = tb[HCUBE_A_NTASKS], *pat = tb[HCUBE_A_CB_PATTERN];
	const char *sep = "";

	part(&sep, tb[HCUBE_A_MODE]);
	print_attr_enum(PRINT_ANY, "mode", "mode %s", hc_mode_names,
			ARRAY_SIZE(hc_mode_names), tb[HCUBE_A_MODE]);
	part(&sep, tb[HCUBE_A_DIM]);
	print_attr_u32(PRINT_ANY, "dim", "%u-cube", tb[HCUBE_A_DIM]);
	print_attr_u32(PRINT_JSON, "nvertices", NULL, nv);
	print_attr_u32(PRINT_JSON, "healthy", NULL, nh);
	if (nh && part(&sep, nv))
		print_fp("%u of %u vertices healthy", nla_get_u32(nh), nla_get_u32(nv));
	else if (part(&sep, nv))
		print_fp("%u vertices", nla_get_u32(nv));
	part(&sep, tb[HCUBE_A_NATTACHED]);
	print_attr_u32(PRINT_ANY, "attached", "%u attached", tb[HCUBE_A_NATTACHED]);
	print_attr_u32(PRINT_JSON, "ntasks", NULL, nt);
	if (part(&sep, nt))
		print_fp("%u task%s", nla_get_u32(nt), nla_get_u32(nt) == 1 ? "" : "s");
	print_attr_u32(PRINT_JSON, "generation", NULL, tb[HCUBE_A_GENERATION]);
	print_attr_str(PRINT_JSON, "balancing_subcube", NULL, pat);
	if (part(&sep, pat)) {
		char *s = hc_attr_str(pat);

		print_fp("balancing subcube %s", *s ? s : "-");
		free(s);
	}
	print_attr_u32(PRINT_JSON, "cb_base", NULL, tb[HCUBE_A_CB_BASE]);
	print_attr_u32(PRINT_JSON, "cb_mask", NULL, tb[HCUBE_A_CB_MASK]);
	part(&sep, tb[HCUBE_A_TREE_DEPTH]);
	print_attr_u32(PRINT_ANY, "tree_depth", "tree depth %u", tb[HCUBE_A_TREE_DEPTH]);
	part(&sep, tb[HCUBE_A_GENERATION]);
	print_attr_u32(PRINT_FP, NULL, "generation %u", tb[HCUBE_A_GENERATION]);
}

/* ---- tasks ---- */

/*
 * JSON: the keys the kernel sent of pid tgid comm vertex label state cpus
 * orig_cpus error error_str reason origin unit creator. Text: "pid 1234
 * (comm) tgid 1200 vertex 0101 active cpus 4-5 (was 0-31): <error>".
 */
int print_cpu_info(const struct nlattr *nest)
{
	struct nlattr *tb[HC_TB_SIZE];
	const struct nlattr *by;
	char st[32], num[16];
	uint32_t reason = 0;

	if (hc_parse_nested(tb, &hc_set_cpu_info, (struct nlattr *)nest) ||
	    !tb[HCUBE_A_CPU_INFO_CPU])
		return -1;
	by = tb[HCUBE_A_CPU_INFO_MARKED_BY];
	if (by)
		reason = nla_get_u32(by);
	print_attr_u32(PRINT_JSON, "cpu", NULL, tb[HCUBE_A_CPU_INFO_CPU]);
	print_attr_enum(PRINT_JSON, "marked_by", NULL, hc_reason_names,
			ARRAY_SIZE(hc_reason_names), by);
	print_attr_u64(PRINT_JSON, "mce_records", NULL, tb[HCUBE_A_CPU_INFO_MCE_RECORDS]);
	print_attr_u32(PRINT_JSON, "mce_count", NULL, tb[HCUBE_A_CPU_INFO_MCE_COUNT]);
	print_attr_u32(PRINT_JSON, "mce_window", NULL, tb[HCUBE_A_CPU_INFO_MCE_WINDOW]);
	print_attr_u32(PRINT_JSON, "mce_bank", NULL, tb[HCUBE_A_CPU_INFO_MCE_BANK]);
	if (tb[HCUBE_A_CPU_INFO_MCE_STATUS]) {
		/* a string: JSON numbers lose the low bits of a 64-bit status */
		snprintf(st, sizeof(st), "0x%016llx",
			 (unsigned long long)nla_get_u64(tb[HCUBE_A_CPU_INFO_MCE_STATUS]));
		print_string(PRINT_JSON, "mce_status", NULL, st);
	} else {
		print_null(PRINT_JSON, "mce_status", NULL);
	}
	print_bool(PRINT_JSON, "mce_uc", NULL, tb[HCUBE_A_CPU_INFO_MCE_UC] != NULL);

	if (by)
		print_fp("marked by %s", HC_NAME(hc_reason_names, reason, num));
	else
		print_fp("usable");
	if (tb[HCUBE_A_CPU_INFO_MCE_UC])
		print_fp(": an uncorrected recoverable error");
	else if (tb[HCUBE_A_CPU_INFO_MCE_COUNT] && tb[HCUBE_A_CPU_INFO_MCE_WINDOW] &&
		 (nla_get_u32(tb[HCUBE_A_CPU_INFO_MCE_COUNT]) || reason == HCUBE_REASON_MCE))
		print_fp(": %u corrected errors in %u s",
			 nla_get_u32(tb[HCUBE_A_CPU_INFO_MCE_COUNT]),
			 nla_get_u32(tb[HCUBE_A_CPU_INFO_MCE_WINDOW]));
	if (tb[HCUBE_A_CPU_INFO_MCE_BANK] && tb[HCUBE_A_CPU_INFO_MCE_STATUS])
		print_fp(", last bank %u status %s",
			 nla_get_u32(tb[HCUBE_A_CPU_INFO_MCE_BANK]), st);
	if (tb[HCUBE_A_CPU_INFO_MCE_RECORDS] && nla_get_u64(tb[HCUBE_A_CPU_INFO_MCE_RECORDS]))
		print_fp(", %llu records",
			 (unsigned long long)nla_get_u64(tb[HCUBE_A_CPU_INFO_MCE_RECORDS]));
	return 0;
}

void print_task(struct nlattr **tb, int dim, unsigned int flags)
{
	struct nlattr *pid = tb[HCUBE_A_TASK_PID], *tgid = tb[HCUBE_A_TASK_TGID];
	int units = PRINT_JSON | (flags & HC_TASK_UNITS ? 0 : PRINT_OPT);
	char lb[HC_LABEL_MAX];
	int i;

	if (pid)
		print_uint(PRINT_ANY, "pid", "pid %u", nla_get_u32(pid));
	else
		print_fp("pid ?");
	print_attr_u32(PRINT_JSON | PRINT_OPT, "tgid", NULL, tgid);
	print_attr_str(PRINT_ANY | PRINT_OPT, "comm", " (%s)", tb[HCUBE_A_TASK_COMM]);
	if (tgid && (!pid || nla_get_u32(tgid) != nla_get_u32(pid)))
		print_fp(" tgid %u", nla_get_u32(tgid));
	if (tb[HCUBE_A_TASK_VERTEX]) {
		uint32_t v = nla_get_u32(tb[HCUBE_A_TASK_VERTEX]);

		print_uint(PRINT_JSON, "vertex", NULL, v);
		print_label(dim, v);
		print_fp(" vertex %s", hc_label(lb, dim, v));
	}
	print_attr_enum(PRINT_ANY | PRINT_OPT, "state", " %s", hc_task_state_names,
			ARRAY_SIZE(hc_task_state_names), tb[HCUBE_A_TASK_STATE]);
	for (i = 0; i < 2; i++) {
		struct nlattr *a = tb[i ? HCUBE_A_TASK_ORIG_CPUS : HCUBE_A_TASK_CPUS];
		char *s;

		if (!a)
			continue;
		s = hc_attr_str(a);
		print_string(PRINT_JSON, i ? "orig_cpus" : "cpus", NULL, s);
		print_fp(i ? " (was %s)" : " cpus %s", *s ? s : "-");
		free(s);
	}
	if (tb[HCUBE_A_TASK_ERROR]) {
		int32_t err = nla_get_s32(tb[HCUBE_A_TASK_ERROR]);

		print_int(PRINT_JSON, "error", NULL, err);
		print_string(PRINT_ANY, "error_str", ": %s", hc_kernel_strerror(err));
	}
	print_attr_enum(PRINT_JSON | PRINT_OPT, "reason", NULL, hc_reason_names,
			ARRAY_SIZE(hc_reason_names), tb[HCUBE_A_TASK_REASON]);
	print_attr_enum(units, "origin", NULL, hc_reason_names, ARRAY_SIZE(hc_reason_names),
			tb[HCUBE_A_TASK_ORIGIN]);
	print_attr_enum(units, "unit", NULL, hc_unit_names, ARRAY_SIZE(hc_unit_names),
			tb[HCUBE_A_TASK_UNIT]);
	print_attr_u32(units, "creator", NULL, tb[HCUBE_A_TASK_CREATOR]);
}

/* ---- rebalance reports ---- */

static uint32_t u32_or0(const struct nlattr *a)
{
	return a ? nla_get_u32(a) : 0;
}

static uint32_t nloads(const struct nlattr *a)
{
	return a ? (uint32_t)nla_len(a) / sizeof(uint32_t) : 0;
}

static uint32_t load(const struct nlattr *a, uint32_t i)
{
	uint32_t v;

	memcpy(&v, (const char *)nla_data(a) + i * sizeof(v), sizeof(v));
	return v;
}

int hc_report_dim(struct nlattr **tb, int dim)
{
	static const int loads[] = {
		HCUBE_A_REPORT_LOADS_BEFORE, HCUBE_A_REPORT_LOADS_PLAN, HCUBE_A_REPORT_LOADS_AFTER,
	};
	uint32_t n = 0;
	size_t i;
	int d;

	/* The per-vertex arrays first: they have 1 << dim entries. */
	for (i = 0; i < ARRAY_SIZE(loads); i++)
		if (nloads(tb[loads[i]]))
			n = nloads(tb[loads[i]]);
	for (d = 0; n && d <= 31; d++)
		if (n == 1U << d)
			return d;
	/* Then the pattern, one letter per dimension (none without C_b). */
	if (tb[HCUBE_A_REPORT_CB_PATTERN]) {
		char *s = hc_attr_str(tb[HCUBE_A_REPORT_CB_PATTERN]);
		size_t len = strlen(s);

		free(s);
		if (len && len <= 32)
			return (int)len;
	}
	return dim;
}

/* loads_before, loads_plan, loads_after; text: "  0011: 20 -> 10 -> 10". */
static void print_loads(struct nlattr **tb, int dim)
{
	static const char *const keys[] = { "loads_before", "loads_plan", "loads_after" };
	struct nlattr *a[] = {
		tb[HCUBE_A_REPORT_LOADS_BEFORE], tb[HCUBE_A_REPORT_LOADS_PLAN],
		tb[HCUBE_A_REPORT_LOADS_AFTER],
	};
	char lb[HC_LABEL_MAX];
	uint32_t i, n = 0;
	int k;

	for (k = 0; k < 3; k++) {
		if (!a[k]) {
			print_null(PRINT_JSON, keys[k], NULL);
			continue;
		}
		open_json_array(keys[k]);
		for (i = 0; i < nloads(a[k]); i++)
			print_uint(PRINT_JSON, NULL, NULL, load(a[k], i));
		close_json_array();
		n = nloads(a[k]) > n ? nloads(a[k]) : n;
	}
	if (n)
		print_fp("loads (vertex: before -> plan%s):\n", a[2] ? " -> after" : "");
	for (i = 0; i < n; i++) {
		print_fp("  %s: ", hc_label(lb, dim, i));
		for (k = 0; k < 3; k++) {
			if (k == 2 && !a[2])
				break;
			if (i < nloads(a[k]))
				print_fp("%s%u", k ? " -> " : "", load(a[k], i));
			else
				print_fp("%s?", k ? " -> " : "");
		}
		print_fp("\n");
	}
}

/*
 * The transfers, one HCUBE_A_REPORT_TRANSFER each, in order; text by step:
 * "  step 3: 1001->0001 7 1011->0011 7".
 */
void print_transfers(const struct hc_msg *m, int dim)
{
	char lb[HC_LABEL_MAX], lb2[HC_LABEL_MAX];
	struct nlattr *a, *tb[HC_TB_SIZE];
	uint32_t k = 0, step = 0;
	int rem;

	open_json_array("transfers");
	print_fp("transfers:\n");
	nla_for_each_attr(a, m->attrs, m->len, rem) {
		uint32_t x_step, from, to;

		if (nla_type(a) != HCUBE_A_REPORT_TRANSFER)
			continue;
		if (hc_parse_nested(tb, &hc_set_transfer, a) || !tb[HCUBE_A_TRANSFER_STEP] ||
		    !tb[HCUBE_A_TRANSFER_FROM] || !tb[HCUBE_A_TRANSFER_TO] ||
		    !tb[HCUBE_A_TRANSFER_COUNT])
			continue;
		x_step = nla_get_u32(tb[HCUBE_A_TRANSFER_STEP]);
		from = nla_get_u32(tb[HCUBE_A_TRANSFER_FROM]);
		to = nla_get_u32(tb[HCUBE_A_TRANSFER_TO]);
		open_json_object(NULL);
		print_uint(PRINT_JSON, "step", NULL, x_step);
		print_uint(PRINT_JSON, "from", NULL, from);
		print_uint(PRINT_JSON, "to", NULL, to);
		print_uint(PRINT_JSON, "count", NULL, nla_get_u32(tb[HCUBE_A_TRANSFER_COUNT]));
		close_json_object();
		if (!k || x_step != step)
			print_fp("%s  step %u:", k ? "\n" : "", x_step);
		step = x_step;
		print_fp(" %s->%s %u", hc_label(lb, dim, from), hc_label(lb2, dim, to),
			 nla_get_u32(tb[HCUBE_A_TRANSFER_COUNT]));
		k++;
	}
	close_json_array();
	print_fp(k ? "\n" : "  none\n");
	/* a reply or an event lists the plan's first transfers only */
	if (m->tb && m->tb[HCUBE_A_REPORT_TRANSFERS_CUT]) {
		struct nlattr *pol = m->tb[HCUBE_A_REPORT_POLICY];
		uint32_t p = pol ? nla_get_u32(pol) : ARRAY_SIZE(hc_policy_names);
		bool dry = m->tb[HCUBE_A_REPORT_DRY_RUN];

		print_bool(PRINT_JSON, "transfers_cut", NULL, true);
		print_fp("  (the first %u of %u transfers: the list was cut; all of them: "
			 "hcubectl rebalance --transfers%s%s)\n", k,
			 u32_or0(m->tb[HCUBE_A_REPORT_NTRANSFERS]),
			 dry ? " --dry-run --policy " : "",
			 !dry ? "" : p < ARRAY_SIZE(hc_policy_names) && hc_policy_names[p] ?
			 hc_policy_names[p] : "?");
	}
}

/* "failures" or "changed": the task nests of type @type. */
static void print_tasks(const char *key, const char *title, struct hc_attrs_list *l, int dim)
{
	size_t i;

	open_json_array(key);
	if (l->n)
		print_fp("%s:\n", title);
	for (i = 0; i < l->n; i++) {
		open_json_object(NULL);
		print_fp("  ");
		print_task(l->v[i].tb, dim, 0);
		print_fp("\n");
		close_json_object();
	}
	close_json_array();
}

static void print_duration(uint64_t ns)
{
	if (ns < 1000)
		print_fp("%llu ns", (unsigned long long)ns);
	else if (ns < 1000000)
		print_fp("%.3f us", ns / 1e3);
	else
		print_fp("%.3f ms", ns / 1e6);
}

/* The one-line text of monitor, after "rebalance ... applied X". */
static void print_line_tail(struct nlattr **tb)
{
	struct nlattr *pat = tb[HCUBE_A_REPORT_CB_PATTERN];

	if (pat) {
		char *s = hc_attr_str(pat);

		print_fp(" C_b %s", *s ? s : "-");
		free(s);
	}
	print_attr_u32(PRINT_FP, NULL, " depth %u", tb[HCUBE_A_REPORT_TREE_DEPTH]);
	print_fp(" transfers %u steps %u migrations %llu", u32_or0(tb[HCUBE_A_REPORT_NTRANSFERS]),
		 u32_or0(tb[HCUBE_A_REPORT_STEPS]),
		 (unsigned long long)(tb[HCUBE_A_REPORT_MIGRATIONS] ?
				      nla_get_u64(tb[HCUBE_A_REPORT_MIGRATIONS]) : 0));
	print_fp(" moved %u failed %u exited %u evacuated %u", u32_or0(tb[HCUBE_A_REPORT_MOVED]),
		 u32_or0(tb[HCUBE_A_REPORT_FAILED]), u32_or0(tb[HCUBE_A_REPORT_EXITED]),
		 u32_or0(tb[HCUBE_A_REPORT_EVACUATED]));
	print_attr_u32(PRINT_FP, NULL, " imbalance %u", tb[HCUBE_A_REPORT_IMBALANCE]);
	if (tb[HCUBE_A_REPORT_STOPPED_SHORT])
		print_fp(" stopped-short");
	print_attr_u64(PRINT_FP, NULL, " duration %llu ns", tb[HCUBE_A_REPORT_DURATION_NS]);
}

int hc_report_check(const struct hc_msg *m)
{
	struct nlattr *a, *tb[HC_TB_SIZE];
	int rem;

	if (!m->tb[HCUBE_A_REPORT_POLICY])
		return -1;
	nla_for_each_attr(a, m->attrs, m->len, rem)
		if ((nla_type(a) == HCUBE_A_REPORT_FAILURE ||
		     nla_type(a) == HCUBE_A_REPORT_CHANGED) &&
		    hc_parse_nested(tb, &hc_set_task, a))
			return -1;
	return 0;
}

/*
 * A report: the top-level attributes (enum hcube_report_attr) of a
 * REBALANCE reply or a REBALANCE_NTF. JSON keys as in hcube-sim plan --json
 * where they mean the same. -1 when the message holds no report.
 */
int print_report(const struct hc_msg *m, int dim, bool line)
{
	struct hc_attrs_list failures = { 0 }, changed = { 0 };
	struct nlattr **tb = m->tb, *a;
	struct nlattr *pol = tb[HCUBE_A_REPORT_POLICY], *app = tb[HCUBE_A_REPORT_APPLIED];
	bool dry = tb[HCUBE_A_REPORT_DRY_RUN];
	int rem, ret = -1;

	if (!pol)
		return -1;
	nla_for_each_attr(a, m->attrs, m->len, rem) {
		if (nla_type(a) == HCUBE_A_REPORT_FAILURE &&
		    hc_attrs_add(&failures, &hc_set_task, a))
			goto out;
		if (nla_type(a) == HCUBE_A_REPORT_CHANGED &&
		    hc_attrs_add(&changed, &hc_set_task, a))
			goto out;
	}
	line = line && !is_json();
	dim = hc_report_dim(tb, dim);
	print_fp(line ? "rebalance%s policy" : "rebalance%s: policy", dry ? " (dry run)" : "");
	print_attr_enum(PRINT_ANY, "policy", " %s", hc_policy_names,
			ARRAY_SIZE(hc_policy_names), pol);
	print_bool(PRINT_JSON, "dry_run", NULL, dry);
	print_attr_enum(PRINT_ANY, "trigger", line ? " trigger %s" : ", trigger %s",
			hc_reason_names, ARRAY_SIZE(hc_reason_names), tb[HCUBE_A_REPORT_TRIGGER]);
	print_attr_enum(PRINT_JSON, "applied", NULL, hc_policy_names,
			ARRAY_SIZE(hc_policy_names), app);
	if (app && nla_get_u32(app) != nla_get_u32(pol))
		print_attr_enum(PRINT_FP, NULL, line ? " applied %s" : ", applied %s",
				hc_policy_names, ARRAY_SIZE(hc_policy_names), app);
	if (dim >= 0)
		print_uint(PRINT_JSON, "dim", NULL, (uint32_t)dim);
	else
		print_null(PRINT_JSON, "dim", NULL);
	if (line) {
		print_line_tail(tb);
		ret = 0;
		goto out;
	}

	print_attr_str(PRINT_JSON, "balancing_subcube", NULL, tb[HCUBE_A_REPORT_CB_PATTERN]);
	if (tb[HCUBE_A_REPORT_CB_PATTERN]) {
		char *s = hc_attr_str(tb[HCUBE_A_REPORT_CB_PATTERN]);

		print_fp("\nbalancing subcube %s", *s ? s : "-");
		free(s);
	} else {
		print_fp("\nbalancing subcube -");
	}
	print_attr_u32(PRINT_ANY, "tree_depth", ", tree depth %u", tb[HCUBE_A_REPORT_TREE_DEPTH]);
	print_fp("\n");
	print_loads(tb, dim);
	print_transfers(m, dim);

	print_attr_u32(PRINT_ANY | PRINT_ZERO, "ntransfers", "transfers %u, ",
		       tb[HCUBE_A_REPORT_NTRANSFERS]);
	print_attr_u32(PRINT_ANY | PRINT_ZERO, "steps", "steps %u, ", tb[HCUBE_A_REPORT_STEPS]);
	print_attr_u64(PRINT_FP | PRINT_ZERO, NULL, "migrations (task-hops) %llu, ",
		       tb[HCUBE_A_REPORT_MIGRATIONS]);
	print_attr_u32(PRINT_FP | PRINT_ZERO, NULL, "moved tasks %u, ", tb[HCUBE_A_REPORT_MOVED]);
	print_attr_u32(PRINT_ANY | PRINT_ZERO, "comm_steps", "communication steps %u\n",
		       tb[HCUBE_A_REPORT_COMM_STEPS]);
	if (tb[HCUBE_A_REPORT_MESSAGES] || tb[HCUBE_A_REPORT_IMBALANCE]) {
		print_attr_u32(PRINT_ANY | PRINT_ZERO, "messages", "messages %u, ",
			       tb[HCUBE_A_REPORT_MESSAGES]);
		print_attr_u32(PRINT_ANY | PRINT_ZERO, "imbalance", "imbalance %u",
			       tb[HCUBE_A_REPORT_IMBALANCE]);
		print_attr_u32(PRINT_ANY, "contended", ", contended receivers %u",
			       tb[HCUBE_A_REPORT_CONTENDED]);
		print_fp("\n");
	} else {
		print_null(PRINT_JSON, "messages", NULL);
		print_null(PRINT_JSON, "imbalance", NULL);
		print_attr_u32(PRINT_JSON, "contended", NULL, tb[HCUBE_A_REPORT_CONTENDED]);
	}
	/* the core cut the policy's operation before it raised the maximum */
	print_bool(PRINT_JSON, "stopped_short", NULL, tb[HCUBE_A_REPORT_STOPPED_SHORT]);
	if (tb[HCUBE_A_REPORT_STOPPED_SHORT])
		print_fp("stopped short: the policy's whole operation would have left a higher\n"
			 "  maximum load than before; the plan is its first steps only\n");
	print_attr_u64(PRINT_JSON, "migrations", NULL, tb[HCUBE_A_REPORT_MIGRATIONS]);
	print_attr_u32(PRINT_JSON, "moved_tasks", NULL, tb[HCUBE_A_REPORT_MOVED]);
	print_attr_u32(PRINT_ANY | PRINT_ZERO, "failed", "failed %u, ", tb[HCUBE_A_REPORT_FAILED]);
	print_attr_u32(PRINT_ANY | PRINT_ZERO, "exited", "exited %u, ", tb[HCUBE_A_REPORT_EXITED]);
	print_attr_u32(PRINT_ANY | PRINT_ZERO, "evacuated", "evacuated %u",
		       tb[HCUBE_A_REPORT_EVACUATED]);
	print_attr_u64(PRINT_JSON, "duration_ns", NULL, tb[HCUBE_A_REPORT_DURATION_NS]);
	if (tb[HCUBE_A_REPORT_DURATION_NS]) {
		print_fp(", duration ");
		print_duration(nla_get_u64(tb[HCUBE_A_REPORT_DURATION_NS]));
	}
	print_fp("\n");
	print_tasks("failures", "failures", &failures, dim);
	print_tasks("changed", "changed (affinity set by someone else, left alone)", &changed,
		    dim);
	ret = 0;
out:
	hc_attrs_list_free(&failures);
	hc_attrs_list_free(&changed);
	return ret;
}
