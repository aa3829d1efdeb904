// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl apply FILE: bring the module to the state a configuration file
 * describes (/etc/hcube/hcube.conf): the topology mode, the settings and
 * the fault marks. The whole file is checked first (apply_parse.c); then
 * the module's state is read, and only what differs is changed
 * (apply_diff.c), each change reported. The file is the whole truth about
 * faults: a mark it does not list is cleared, but for the marks of machine
 * checks (mce_ce_threshold, mce_uc), which only `fault del` clears. A
 * setting it does not name is left as it is.
 *
 * This file is the command: it sends the changes, one request each, stops
 * at the first the kernel refuses, and reports them all (apply.h).
 */
#include <stdlib.h>
#include <string.h>
#include "apply.h"

static const char *const status_names[] = { "planned", "applied", "failed", "skipped" };

/* ---- applying ---- */

static void where(struct hc_str *b, const struct apply *a, const struct change *ch)
{
	if (ch->line)
		hc_str_printf(b, "%s:%u", a->w.name, ch->line);
	else
		hc_str_printf(b, "%s", a->w.name);
}

static int send_change(struct apply *a, struct change *ch)
{
	struct hc_str what = { 0 };
	struct hc_extack ext;
	struct nlattr *nest;
	struct hc_req r;
	char buf[1024];
	uint32_t i;
	int ret;

	hc_str_printf(&what, "apply: ");
	where(&what, a, ch);
	switch (ch->kind) {
	case C_MODE:
		hc_str_printf(&what, ": topology set");
		hc_req_init(&r, HCUBE_CMD_TOPO_SET, false, 64 + a->w.ngroups * 64, what.s);
		hc_req_u32(&r, HCUBE_A_MODE, ch->new, "mode %s", hc_mode_names[ch->new]);
		for (i = 0; ch->new == HCUBE_MODE_CUSTOM && i < a->w.ngroups; i++)
			hc_req_str(&r, HCUBE_A_GROUP, a->w.group_str[i], "group %u ('%s')", i,
				   a->w.group_str[i]);
		break;
	case C_SET:
		hc_str_printf(&what, ": config set");
		hc_req_init(&r, HCUBE_CMD_CONFIG_SET, false, 64, what.s);
		nest = hc_req_nest(&r, HCUBE_A_CONFIG, "config");
		hc_req_u32(&r, hc_settings[ch->key].attr, ch->new, "%s %u",
			   hc_settings[ch->key].key, ch->new);
		hc_req_nest_end(&r, nest);
		break;
	default:
		hc_str_printf(&what, ": fault %s", ch->add ? "add" : "del");
		hc_req_init(&r, ch->add ? HCUBE_CMD_FAULT_ADD : HCUBE_CMD_FAULT_DEL, false, 64,
			    what.s);
		if (ch->f.cpu)
			hc_req_u32(&r, HCUBE_A_CPU, ch->f.id, "cpu %u", ch->f.id);
		else
			hc_req_u32(&r, HCUBE_A_VERTEX_ID, ch->f.id, "vertex %u", ch->f.id);
		break;
	}
	ret = hc_req_send(a->c, &r, NULL, NULL, &ext);
	if (ret) {
		const struct hc_attr_set *set = hc_cmd_set[r.cmd];

		hc_req_error(&r, &ext);
		hc_extack_describe(&ext, &r.map, set->names, (size_t)set->max + 1, buf,
				   sizeof(buf));
		ch->error = strdup(buf);
	}
	hc_req_free(&r);
	hc_str_free(&what);
	return ret;
}

static int run_changes(struct apply *a)
{
	size_t i, j;
	int ret = 0;

	for (i = 0; i < a->nch; i++) {
		struct change *ch = &a->ch[i];

		if (ret) {
			ch->status = ST_SKIPPED;
			continue;
		}
		ret = send_change(a, ch);
		ch->status = ret ? ST_FAILED : ST_APPLIED;
		if (ret || ch->kind != C_MODE)
			continue;
		/* the new vertices: the fault changes from what the module has now */
		ret = ap_read_state(a->c, &a->s);
		if (ret)
			continue;
		for (j = i + 1; j < a->nch; j++)
			free(a->ch[j].error);
		for (j = i + 1; j < a->nch && a->ch[j].kind != C_FAULT; j++)
			;
		a->nch = j;
		ap_fault_changes(a, &a->s, false);
	}
	return ret;
}

/* ---- the report ---- */

static void print_value(const struct apply *a, const struct change *ch, const char *key,
			uint32_t v, bool has, bool new)
{
	struct hc_str s = { 0 };

	if (!has || ch->kind == C_FAULT) {
		print_null(PRINT_JSON, key, NULL);
		return;
	}
	if (ch->kind == C_SET && (ch->key == HC_SET_AUTO || ch->key == HC_SET_MCE_UC)) {
		print_bool(PRINT_JSON, key, NULL, v);
	} else if (ch->kind == C_SET && ch->key != HC_SET_POLICY) {
		print_uint(PRINT_JSON, key, NULL, v);
	} else {
		ap_value_str(a, ch, v, new, &s);
		print_string(PRINT_JSON, key, NULL, s.s);
	}
	hc_str_free(&s);
}

/* @v under @key in the JSON document when @has, else null. */
static void print_uint_or_null(const char *key, bool has, unsigned int v)
{
	if (has)
		print_uint(PRINT_JSON, key, NULL, v);
	else
		print_null(PRINT_JSON, key, NULL);
}

static void print_change(const struct apply *a, const struct change *ch)
{
	static const char *const done[] = { "", "", " (failed)", " (not tried)" };
	struct hc_str old = { 0 }, new = { 0 }, at = { 0 };

	open_json_object(NULL);
	print_string(PRINT_JSON, "key", NULL, ch->kind == C_MODE ? "mode" :
		     ch->kind == C_SET ? hc_settings[ch->key].key : "fault");
	print_string(PRINT_JSON, "action", NULL, ch->kind != C_FAULT ? "set" :
		     ch->add ? "add" : "del");
	print_value(a, ch, "old", ch->old, ch->has_old, false);
	print_value(a, ch, "new", ch->new, true, true);
	print_uint_or_null("cpu", ch->kind == C_FAULT && ch->f.cpu, ch->f.id);
	print_uint_or_null("vertex", ch->kind == C_FAULT && !ch->f.cpu, ch->f.id);
	print_uint_or_null("line", ch->line, ch->line);
	print_string(PRINT_JSON, "status", NULL, status_names[ch->status]);
	print_string(PRINT_JSON, "error", NULL, ch->error);
	close_json_object();

	if (ch->line)
		hc_str_printf(&at, "%s:%u", a->w.name, ch->line);
	else
		hc_str_printf(&at, "not in %s", a->w.name);
	if (ch->kind == C_FAULT) {
		print_fp("fault %s %u: %s (%s)%s\n", ch->f.cpu ? "cpu" : "vertex", ch->f.id,
			 ch->add ? "added" : "cleared", at.s, done[ch->status]);
	} else {
		if (ch->has_old)
			ap_value_str(a, ch, ch->old, false, &old);
		else
			hc_str_printf(&old, "-");
		ap_value_str(a, ch, ch->new, true, &new);
		print_fp("%s: %s -> %s (%s)%s\n",
			 ch->kind == C_MODE ? "mode" : hc_settings[ch->key].key, old.s, new.s, at.s,
			 done[ch->status]);
	}
	hc_str_free(&old);
	hc_str_free(&new);
	hc_str_free(&at);
}

static void report(const struct apply *a)
{
	size_t i, n = 0;

	for (i = 0; i < a->nch; i++)
		n += a->ch[i].status == ST_APPLIED;
	print_begin(false);
	open_json_object(NULL);
	print_string(PRINT_JSON, "file", NULL, a->w.name);
	print_bool(PRINT_JSON, "dry_run", NULL, a->dry_run);
	open_json_array("changes");
	for (i = 0; i < a->nch; i++)
		print_change(a, &a->ch[i]);
	close_json_array();
	print_uint(PRINT_JSON, "applied", NULL, (unsigned int)n);
	print_uint(PRINT_JSON, "total", NULL, (unsigned int)a->nch);
	close_json_object();
	if (!a->nch)
		print_fp("%s: nothing to change\n", a->w.name);
	else if (a->dry_run)
		print_fp("%s: %zu change%s to make (dry run: none made)\n", a->w.name, a->nch,
			 a->nch > 1 ? "s" : "");
	else
		print_fp("%s: %zu of %zu change%s made\n", a->w.name, n, a->nch,
			 a->nch > 1 ? "s" : "");
	print_end();
}

static int apply(struct hc_ctx *c, int argc, char **argv)
{
	struct apply a = { .c = c, .dry_run = hc_opt(c, 'n') != NULL };
	size_t k;
	int ret;

	if (argc < 1)
		hc_usage(c, "missing FILE (the configuration file, - for stdin)");
	if (argc > 1)
		hc_usage(c, "unexpected argument '%s'", argv[1]);
	ret = ap_parse_file(&a.w, argv[0]);
	if (!ret)
		ret = ap_read_state(c, &a.s);
	if (!ret)
		ret = ap_plan(&a);
	if (!ret) {
		if (!a.dry_run)
			ret = run_changes(&a);
		report(&a);
	}
	for (k = 0; k < a.nch; k++) {
		free(a.ch[k].error);
		free(a.ch[k].old_text);
	}
	free(a.ch);
	ap_want_free(&a.w);
	ap_state_free(&a.s);
	return ret;
}

static const struct hc_opt apply_opts[] = {
	{ "dry-run", 'n', NULL, "say what would change, change nothing" },
	{ 0 },
};

const struct hc_cmd hc_cmd_apply = {
	.name = "apply",
	.args = "FILE [--dry-run]",
	.summary = "make the module's state that of a configuration file",
	.help =
	"Makes the module's topology mode, settings and fault marks those of\n"
	"FILE (/etc/hcube/hcube.conf; '-': stdin), one 'key value' per line:\n"
	"  mode       cpu|node|llc|auto | custom CPULIST...   (topology set)\n"
	"  policy     P                  (config set)\n"
	"  auto       on|off|1|0\n"
	"  threshold  N\n"
	"  cooldown   MS\n"
	"  fault      cpu N | vertex V   (one per line)\n"
	"'#' starts a comment. The whole file is checked first: a bad line is\n"
	"named with FILE:LINE and the reason, and then nothing is changed (exit\n"
	"2). Only what differs from the module is changed, in that order, and\n"
	"each change is printed; a second run prints 'nothing to change'. The\n"
	"file lists every fault: a mark it does not list is cleared. A setting\n"
	"it does not name is left alone. If the kernel refuses a change, the\n"
	"later ones are not tried, the report says which were made, exit 1.\n"
	"-j prints {\"file\", \"dry_run\", \"changes\": [{\"key\", \"action\", \"old\",\n"
	"\"new\", \"cpu\", \"vertex\", \"line\", \"status\", \"error\"}], \"applied\",\n"
	"\"total\"}. Needs CAP_NET_ADMIN (not with --dry-run).\n",
	.opts = apply_opts,
	.flags = HC_ARGS,
	.handler = apply,
};
