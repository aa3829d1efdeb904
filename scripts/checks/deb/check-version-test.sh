#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-deb-version: debian/changelog and dkms.conf agree in the tree;
# and scripts/check-deb-version.sh and debian/rules both refuse copies of
# dkms.conf and debian/ where they do not. Host only, about a second.
# Prints TAP.
set -u
cd "$(dirname "$0")/../../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n $1"; sed 's/^/#   /' "$tmp/log"; }

# copy NAME: dkms.conf and debian/ into $tmp/NAME
copy() {
	rm -rf "${tmp:?}/$1" && mkdir -p "$tmp/$1" && cp -r dkms.conf debian "$tmp/$1/"
}
# changelog_version DIR VERSION: the first entry's version becomes VERSION
changelog_version() {
	sed -i "1s/^hcube ([^)]*)/hcube ($2)/" "$1/debian/changelog"
}
# refused NAME DIR WORDS...: check-deb-version.sh and debian/rules fail on DIR,
# and the script's message holds every one of WORDS
refused() {
	local name=$1 dir=$2 w msg
	shift 2
	if msg=$(scripts/check-deb-version.sh "$dir" 2>&1); then
		echo "$msg" >"$tmp/log"; not_ok "$name: check-deb-version.sh accepted it"; return
	fi
	for w in "$@"; do
		case $msg in
		*"$w"*) ;;
		*) echo "$msg" >"$tmp/log"; not_ok "$name: the message does not say '$w'"; return ;;
		esac
	done
	ok "$name: check-deb-version.sh refuses: ${msg#not ok }"
}
rules_refuse() {
	local name=$1 dir=$2
	if (cd "$dir" && make -s -n -f debian/rules clean) >"$tmp/log" 2>&1; then
		not_ok "$name: debian/rules accepted it"
	elif grep -q 'make them agree' "$tmp/log"; then
		ok "$name: debian/rules refuses to run"
	else
		not_ok "$name: debian/rules failed for another reason"
	fi
}

echo "TAP version 13"
if scripts/check-deb-version.sh >"$tmp/log" 2>&1; then
	ok "the tree: $(sed 's/^ok //' "$tmp/log")"
else
	not_ok "the tree: debian/changelog and dkms.conf disagree"
fi
copy same
if (cd "$tmp/same" && make -s -n -f debian/rules clean) >"$tmp/log" 2>&1; then
	ok "a copy of the tree: debian/rules runs (make -n clean)"
else
	not_ok "a copy of the tree: debian/rules fails"
fi

dkms=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
copy newer
changelog_version "$tmp/newer" "$dkms.1"
refused "changelog $dkms.1, dkms.conf $dkms" "$tmp/newer" "$dkms.1" "\"$dkms\""
rules_refuse "changelog $dkms.1, dkms.conf $dkms" "$tmp/newer"

copy revision
changelog_version "$tmp/revision" "$dkms-1"
refused "changelog $dkms-1 (a Debian revision)" "$tmp/revision" "$dkms-1"

copy dkms
sed -i 's/^PACKAGE_VERSION=.*/PACKAGE_VERSION="9.9"/' "$tmp/dkms/dkms.conf"
refused "dkms.conf 9.9, changelog $dkms" "$tmp/dkms" '"9.9"' "$dkms"
rules_refuse "dkms.conf 9.9, changelog $dkms" "$tmp/dkms"

copy noversion
sed -i '/^PACKAGE_VERSION=/d' "$tmp/noversion/dkms.conf"
refused "no PACKAGE_VERSION in dkms.conf" "$tmp/noversion" "PACKAGE_VERSION" "dkms.conf"

echo "1..$n"
echo "# deb version: $((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
