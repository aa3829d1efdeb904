// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: CONFIG_GET and CONFIG_SET in the generic netlink family: the
 * rebalancing and machine-check settings.
 */
#include "hcube_nl.h"

static int hcube_fill_config(struct sk_buff *skb, struct hcube *hc,
			     const struct hcube_nl_data *d)
{
	struct nlattr *nest = nla_nest_start(skb, HCUBE_A_CONFIG);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, HCUBE_A_CONFIG_POLICY, hc->cfg.policy) ||
	    nla_put_u32(skb, HCUBE_A_CONFIG_AUTO, hc->cfg.autob) ||
	    nla_put_u32(skb, HCUBE_A_CONFIG_THRESHOLD, hc->cfg.threshold) ||
	    nla_put_u32(skb, HCUBE_A_CONFIG_COOLDOWN_MS, hc->cfg.cooldown_ms) ||
	    nla_put_u32(skb, HCUBE_A_CONFIG_MAX_TASKS, hc->max_tasks) ||
	    nla_put_u32(skb, HCUBE_A_CONFIG_MCE_CE_THRESHOLD, hc->cfg.mce_ce_threshold) ||
	    nla_put_u32(skb, HCUBE_A_CONFIG_MCE_CE_WINDOW, hc->cfg.mce_ce_window) ||
	    nla_put_u32(skb, HCUBE_A_CONFIG_MCE_UC, hc->cfg.mce_uc)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

const struct hcube_nl_msg_ops hcube_nl_config_msg = {
	.fill = hcube_fill_config,
};

/*
 * The machine-check settings of a CONFIG_SET, first: refused where the
 * kernel has no machine-check records, and the only part that can fail
 * once the request is valid.
 */
static int hcube_config_mce(struct hcube *hc, struct nlattr **tb,
			    struct netlink_ext_ack *extack)
{
	struct nlattr *ath = tb[HCUBE_A_CONFIG_MCE_CE_THRESHOLD];
	struct nlattr *auc = tb[HCUBE_A_CONFIG_MCE_UC];
	u32 threshold = ath ? nla_get_u32(ath) : hc->cfg.mce_ce_threshold;
	u32 window = tb[HCUBE_A_CONFIG_MCE_CE_WINDOW] ?
		     nla_get_u32(tb[HCUBE_A_CONFIG_MCE_CE_WINDOW]) : hc->cfg.mce_ce_window;
	bool uc = auc ? nla_get_u32(auc) : hc->cfg.mce_uc;
	int err;

	if (!hcube_mce_available() && ath && threshold) {
		NL_SET_ERR_MSG_ATTR(extack, ath, HCUBE_ERR_MCE_THRESHOLD_NONE);
		return -EOPNOTSUPP;
	}
	if (!hcube_mce_available() && auc && uc) {
		NL_SET_ERR_MSG_ATTR(extack, auc, HCUBE_ERR_MCE_UC_NONE);
		return -EOPNOTSUPP;
	}
	err = hcube_mce_config(hc, threshold, window, uc);
	if (err)
		return err;
	hc->cfg.mce_ce_threshold = threshold;
	hc->cfg.mce_ce_window = window;
	hc->cfg.mce_uc = uc;
	return 0;
}

int hcube_nl_config_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[HCUBE_A_CONFIG_MAX + 1];
	struct hcube *hc = hcube_nl_hc;
	int err;

	if (HCUBE_REQUIRE(info, HCUBE_A_CONFIG, HCUBE_ERR_CONFIG_REQUIRED))
		return -EINVAL;
	/* the op's policy validated the nest (hcube_config_policy): split it only */
	err = nla_parse_nested(tb, HCUBE_A_CONFIG_MAX, info->attrs[HCUBE_A_CONFIG],
			       NULL, info->extack);
	if (err)
		return err;
	err = hcube_config_mce(hc, tb, info->extack);
	if (err)
		return err;
	if (tb[HCUBE_A_CONFIG_POLICY])
		hc->cfg.policy = nla_get_u32(tb[HCUBE_A_CONFIG_POLICY]);
	if (tb[HCUBE_A_CONFIG_AUTO])
		hc->cfg.autob = nla_get_u32(tb[HCUBE_A_CONFIG_AUTO]);
	if (tb[HCUBE_A_CONFIG_THRESHOLD])
		hc->cfg.threshold = nla_get_u32(tb[HCUBE_A_CONFIG_THRESHOLD]);
	if (tb[HCUBE_A_CONFIG_COOLDOWN_MS])
		hc->cfg.cooldown_ms = nla_get_u32(tb[HCUBE_A_CONFIG_COOLDOWN_MS]);
	return 0;
}
