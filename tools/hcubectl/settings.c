// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl: the module's settings as config set and apply read them, and
 * the one parser of a policy's name (rebalance -P, config set, apply).
 */
#include <string.h>
#include "hcubectl.h"

const struct hc_setting hc_settings[HC_NSETTINGS] = {
	[HC_SET_POLICY] = { "policy", NULL, HCUBE_A_CONFIG_POLICY },
	[HC_SET_AUTO] = { "auto", NULL, HCUBE_A_CONFIG_AUTO },
	[HC_SET_THRESHOLD] = { "threshold", NULL, HCUBE_A_CONFIG_THRESHOLD },
	[HC_SET_COOLDOWN] = { "cooldown", "cooldown_ms", HCUBE_A_CONFIG_COOLDOWN_MS },
	[HC_SET_MCE_CE_THRESHOLD] = { "mce_ce_threshold", NULL, HCUBE_A_CONFIG_MCE_CE_THRESHOLD },
	[HC_SET_MCE_CE_WINDOW] = { "mce_ce_window", NULL, HCUBE_A_CONFIG_MCE_CE_WINDOW },
	[HC_SET_MCE_UC] = { "mce_uc", NULL, HCUBE_A_CONFIG_MCE_UC },
};

int hc_setting_find(const char *key)
{
	int k;

	for (k = 0; k < HC_NSETTINGS; k++)
		if (!strcmp(key, hc_settings[k].key) ||
		    (hc_settings[k].alias && !strcmp(key, hc_settings[k].alias)))
			return k;
	return -1;
}

int hc_policy_parse(const char *s, struct hc_str *why)
{
	const char *const *pol = hc_policy_names;
	unsigned int npol = ARRAY_SIZE(hc_policy_names);
	int p = hc_enum_parse(pol, npol, s);

	if (p < 0)
		hc_str_printf(why, "unknown policy '%s' (%s)", s, hc_enum_list(pol, npol, ", "));
	return p;
}

int hc_setting_parse(int k, const char *key, const char *val, bool range,
		     uint32_t *out, struct hc_str *why)
{
	int p;

	switch (k) {
	case HC_SET_POLICY:
		p = hc_policy_parse(val, why);
		if (p < 0)
			return -1;
		*out = (uint32_t)p;
		return 0;
	case HC_SET_AUTO:
	case HC_SET_MCE_UC:
		if (strcmp(val, "on") && strcmp(val, "off") && strcmp(val, "1") && strcmp(val, "0")) {
			hc_str_printf(why, "%s: '%s' is not on, off, 1 or 0", key, val);
			return -1;
		}
		*out = !strcmp(val, "on") || !strcmp(val, "1");
		return 0;
	case HC_SET_THRESHOLD:
		if (range && (!hc_parse_u32(val, out) || *out > HCUBE_THRESHOLD_MAX)) {
			hc_str_printf(why, "%s: '%s' is out of range (valid range 0..%d)", key, val,
				      HCUBE_THRESHOLD_MAX);
			return -1;
		}
		break;
	case HC_SET_COOLDOWN:
		if (range && (!hc_parse_u32(val, out) || *out < HCUBE_COOLDOWN_MS_MIN ||
			      *out > HCUBE_COOLDOWN_MS_MAX)) {
			hc_str_printf(why, "%s: '%s' is out of range (valid range %d..%d milliseconds)",
				      key, val, HCUBE_COOLDOWN_MS_MIN, HCUBE_COOLDOWN_MS_MAX);
			return -1;
		}
		break;
	case HC_SET_MCE_CE_THRESHOLD:
		if (range && (!hc_parse_u32(val, out) || *out > HCUBE_MCE_CE_THRESHOLD_MAX)) {
			hc_str_printf(why, "%s: '%s' is out of range (valid range 0..%d errors; 0 off)",
				      key, val, HCUBE_MCE_CE_THRESHOLD_MAX);
			return -1;
		}
		break;
	case HC_SET_MCE_CE_WINDOW:
		if (range && (!hc_parse_u32(val, out) || *out < 1 ||
			      *out > HCUBE_MCE_CE_WINDOW_MAX)) {
			hc_str_printf(why, "%s: '%s' is out of range (valid range 1..%d seconds)",
				      key, val, HCUBE_MCE_CE_WINDOW_MAX);
			return -1;
		}
		break;
	}
	if (!hc_parse_u32(val, out)) {
		hc_str_printf(why, "%s: '%s' is not a non-negative integer%s", key, val,
			      k == HC_SET_COOLDOWN ? " (milliseconds)" :
			      k == HC_SET_MCE_CE_WINDOW ? " (seconds)" : "");
		return -1;
	}
	return 0;
}

void hc_setting_format(struct hc_str *b, int k, uint32_t v)
{
	char num[16];

	if (k == HC_SET_POLICY)
		hc_str_printf(b, "%s", hc_name(hc_policy_names, ARRAY_SIZE(hc_policy_names), v,
					       num, sizeof(num)));
	else if (k == HC_SET_AUTO || k == HC_SET_MCE_UC)
		hc_str_printf(b, "%s", v ? "on" : "off");
	else
		hc_str_printf(b, "%u", v);
}
