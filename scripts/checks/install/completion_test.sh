#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hcubectl's bash completion, without the module: the completions of
# typical command lines, in plain bash and, when it is installed, with the
# bash-completion library (_init_completion). Prints TAP.
# Usage: completion_test.sh COMPLETION_FILE HCUBECTL
set -u
file=$1
hc=$2
n=0
fails=0

# comp WORD... : the completions of the line WORD..., the last word being
# the one under the cursor, sorted, on one line
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_hcubectl
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}

# expect WANT WORD...: exactly WANT; has WANT WORD...: WANT's words among them
check() {
	local how=$1 want=$2 got w miss=
	shift 2
	got=$(comp "$@")
	if [ "$how" = expect ]; then
		[ "$got" = "$want" ] || miss=1
	else
		for w in $want; do
			[[ " $got " == *" $w "* ]] || miss=1
		done
	fi
	n=$((n + 1))
	if [ -z "$miss" ]; then
		echo "ok $n $mode: '${*:2}' -> $how '$want'"
	else
		fails=$((fails + 1))
		echo "not ok $n $mode: '${*:2}' -> $how '$want'"
		echo "#   got: '$got'"
	fi
}

cases() {
	local cpus
	cpus=$(_hcubectl_cpus | tr ' ' '\n' | grep . | sort | tr '\n' ' ' | sed 's/ $//')
	check expect "apply config fault health help metrics monitor rebalance show stats task top topology" "$hc" ""
	check expect "fault" "$hc" fa
	check expect "apply config fault health help metrics monitor rebalance show stats task top topology" "$hc" -j ""
	check expect "--batch --help --json --pretty --version -V -b -h -j -p" "$hc" -
	check expect "apply config fault health help metrics monitor rebalance show stats task top topology" "$hc" help ""
	check expect "/etc/hostname" "$hc" -b /etc/hostnam
	check expect "/etc/hostname" "$hc" -batch /etc/hostnam
	check expect "/etc/hostname" "$hc" apply /etc/hostnam
	check expect "" "$hc" apply /etc/hostname ""
	check has "--dry-run -n" "$hc" apply -
	check expect "add del" "$hc" fault ""
	check expect "cpu vertex" "$hc" fault add ""
	check expect "$cpus" "$hc" fault del cpu ""
	check expect "" "$hc" fault add cpu 1 ""
	check has "cwa dem mcwa" "$hc" rebalance --policy ""
	check expect "mcwa" "$hc" rebalance -P mc
	check has "--dry-run --policy -n -P" "$hc" rebalance -
	check expect "add del list" "$hc" task ""
	check has "--thread --vertex" "$hc" task add --
	check has "--all --cgroup" "$hc" task del --
	check has "--tree --thread --cgroup --vertex" "$hc" task add --
	check has "--tree --thread --cgroup --all" "$hc" task del --
	check expect "/proc" "$hc" task add --cgroup /pro
	check has "$$" "$hc" task add ""
	check expect "" "$hc" task del ""
	check expect "set show" "$hc" config ""
	check expect "auto cooldown mce_ce_threshold mce_ce_window mce_uc policy threshold" "$hc" config set ""
	check expect "off on" "$hc" config set auto ""
	check has "mcwa" "$hc" config set policy ""
	check expect "auto cooldown mce_ce_threshold mce_ce_window mce_uc policy threshold" "$hc" config set auto on ""
	check expect "set" "$hc" topology ""
	check expect "cpu custom llc node" "$hc" topology set ""
	check has "--count" "$hc" monitor --
	check has "--dot --plan" "$hc" show --
	check has "--min-healthy-cpus --min-healthy-vertices --config" "$hc" health --
	check expect "" "$hc" health -v ""
	check has "--textfile --once --count" "$hc" metrics --
	check has "--delay --frames -d -n" "$hc" top -
	check has "--dry-run" "$hc" rebalance -n -
}

# shellcheck source=/dev/null
. "$file"
complete -p hcubectl >/dev/null || { echo "not ok 1 complete -p hcubectl"; exit 1; }
echo "TAP version 13"
mode=bash
cases
bc=/usr/share/bash-completion/bash_completion
if [ -r "$bc" ]; then
	# shellcheck source=/dev/null
	# shellcheck source=/dev/null
	. "$bc"
	# shellcheck source=/dev/null
	. "$file"
	mode=bash-completion
	cases
else
	echo "# $bc not installed: the _init_completion path is not tested"
fi
echo "1..$n"
echo "# completion: $((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
