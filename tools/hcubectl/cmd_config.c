// SPDX-License-Identifier: GPL-2.0
/* hcubectl config show|set: the policy and the automatic trigger. */
#include <string.h>
#include "hcubectl.h"

static int config_reply(const struct hc_msg *m, void *arg)
{
	struct nlattr *tb[HC_TB_SIZE];

	(void)arg;
	if (!m->tb[HCUBE_A_CONFIG] || hc_parse_nested(tb, &hc_set_config, m->tb[HCUBE_A_CONFIG]))
		return -1;
	print_begin(false);
	open_json_object(NULL);
	print_attr_enum(PRINT_ANY, "policy", "policy     %s\n", hc_policy_names,
			ARRAY_SIZE(hc_policy_names), tb[HCUBE_A_CONFIG_POLICY]);
	if (tb[HCUBE_A_CONFIG_AUTO]) {
		print_bool(PRINT_JSON, "auto", NULL, nla_get_u32(tb[HCUBE_A_CONFIG_AUTO]));
		print_fp("auto       %s\n", nla_get_u32(tb[HCUBE_A_CONFIG_AUTO]) ? "on" : "off");
	} else {
		print_null(PRINT_JSON, "auto", NULL);
	}
	print_attr_u32(PRINT_ANY, "threshold", "threshold  %u\n", tb[HCUBE_A_CONFIG_THRESHOLD]);
	print_attr_u32(PRINT_ANY, "cooldown_ms", "cooldown   %u ms\n",
		       tb[HCUBE_A_CONFIG_COOLDOWN_MS]);
	print_attr_u32(PRINT_ANY, "max_tasks", "max_tasks  %u\n", tb[HCUBE_A_CONFIG_MAX_TASKS]);
	print_attr_u32(PRINT_ANY, "mce_ce_threshold", "mce_ce_threshold  %u\n",
		       tb[HCUBE_A_CONFIG_MCE_CE_THRESHOLD]);
	print_attr_u32(PRINT_ANY, "mce_ce_window", "mce_ce_window     %u s\n",
		       tb[HCUBE_A_CONFIG_MCE_CE_WINDOW]);
	if (tb[HCUBE_A_CONFIG_MCE_UC]) {
		print_bool(PRINT_JSON, "mce_uc", NULL, nla_get_u32(tb[HCUBE_A_CONFIG_MCE_UC]));
		print_fp("mce_uc            %s\n",
			 nla_get_u32(tb[HCUBE_A_CONFIG_MCE_UC]) ? "on" : "off");
	} else {
		print_null(PRINT_JSON, "mce_uc", NULL);
	}
	close_json_object();
	print_end();
	return 0;
}

static int config_show(struct hc_ctx *c, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return hc_run(c, config_reply, NULL);
}

/* The setting @key names; max_tasks and unknown keys are usage errors. */
static int key_index(const struct hc_ctx *c, const char *key)
{
	int k = hc_setting_find(key);

	if (k >= 0)
		return k;
	if (!strcmp(key, "max_tasks"))
		hc_usage(c, "max_tasks is read-only (a module parameter)");
	hc_usage(c, "unknown key '%s' (policy, auto, threshold, cooldown, mce_ce_threshold, "
		 "mce_ce_window, mce_uc)", key);
}

static int config_set(struct hc_ctx *c, int argc, char **argv)
{
	uint32_t seen = 0, val[HC_NSETTINGS];
	struct nlattr *nest;
	struct hc_req r;
	int i, k;

	if (!argc)
		hc_usage(c, "missing KEY VALUE");
	/* Check everything before talking to the kernel, which checks the ranges. */
	for (i = 0; i < argc; i += 2) {
		struct hc_str why = { 0 };

		k = key_index(c, argv[i]);
		if (i + 1 >= argc)
			hc_usage(c, "missing value for '%s'", argv[i]);
		if (seen & (1U << k))
			hc_usage(c, "'%s' given twice", argv[i]);
		seen |= 1U << k;
		if (hc_setting_parse(k, argv[i], argv[i + 1], false, &val[k], &why))
			hc_usage(c, "%s", why.s);
	}

	hc_req_init(&r, c->cmd->nlcmd, false, 128, c->what);
	nest = hc_req_nest(&r, HCUBE_A_CONFIG, "config");
	for (i = 0; i < argc; i += 2) {
		k = hc_setting_find(argv[i]);
		hc_req_u32(&r, hc_settings[k].attr, val[k], "%s %s", hc_settings[k].key,
			   argv[i + 1]);
	}
	hc_req_nest_end(&r, nest);
	return hc_req_ack(c, &r);
}

static const struct hc_cmd config_subs[] = {
	{
		.name = "show",
		.nlcmd = HCUBE_CMD_CONFIG_GET,
		.handler = config_show,
	},
	{
		.name = "set",
		.args = "KEY VALUE [KEY VALUE]...",
		.nlcmd = HCUBE_CMD_CONFIG_SET,
		.flags = HC_ARGS | HC_ACK,
		.handler = config_set,
	},
	{ 0 },
};

const struct hc_cmd hc_cmd_config = {
	.name = "config",
	.summary = "show or change the policy, the automatic trigger, machine checks",
	.help =
	"Shows or changes the settings of the module:\n"
	"  policy     P              the policy of automatic and default rebalances\n"
	"                            (the policies of 'hcubectl rebalance --help')\n"
	"  auto       on|off|1|0     rebalance automatically when a healthy vertex's\n"
	"                            load drops below the threshold\n"
	"  threshold  N              that load\n"
	"  cooldown   MS             at most one automatic rebalance per MS ms\n"
	"  max_tasks  (read-only)    the module parameter max_tasks\n"
	"  mce_ce_threshold  N       N corrected machine-check errors of a CPU\n"
	"                            within the window mark it faulty (0: off,\n"
	"                            the default; x86 kernels only)\n"
	"  mce_ce_window     SECONDS that window (default 86400)\n"
	"  mce_uc            on|off  an uncorrected recoverable error marks its\n"
	"                            CPU faulty at once (default off: counted)\n"
	"The kernel checks the ranges. set prints nothing (-j: {}) and needs\n"
	"CAP_NET_ADMIN; show -j prints {\"policy\", \"auto\", \"threshold\",\n"
	"\"cooldown_ms\", \"max_tasks\", \"mce_ce_threshold\", \"mce_ce_window\",\n"
	"\"mce_uc\"}.\n",
	.subs = config_subs,
};
