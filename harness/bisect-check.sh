#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bisect-check: build every prefix of the mailed series (make series)
# with CONFIG_SCHED_IPCC on and off.  Each configuration has a build
# directory of its own, so each prefix is an incremental build.  Fails on
# the first prefix that does not build, naming it; prints the time taken.
#
# Environment: BISECT_FROM=N starts at patch N (default 1).
. "$(dirname "$0")/lib.sh"

"$HARNESS/series.sh" || exit 1
tree=$KCACHE/series-tree
frag=$HARNESS/config/bisect.config
logdir=$(new_logdir bisect-check)
start=$(date +%s)
mapfile -t commits < <(git -C "$tree" rev-list --reverse ipcc-base..ipcc)
n=${#commits[@]}
[ "$n" -gt 0 ] || die "the series is empty"

# Configure $1 (on|off) for the checked-out prefix: tinyconfig plus the
# fragment; off turns SCHED_IPCC (and what depends on it) off.
configure() {
	local b=$KCACHE/bisect-$1 f=$logdir/bisect-$1.config
	cp "$frag" "$f"
	[ "$1" = off ] && sed -i 's/^CONFIG_SCHED_IPCC=y/# CONFIG_SCHED_IPCC is not set/' "$f"
	mkdir -p "$b"
	make -s -C "$tree" O="$b" ARCH=x86_64 tinyconfig >/dev/null &&
		(cd "$b" && "$tree/scripts/kconfig/merge_config.sh" -m -O "$b" .config "$f") >/dev/null &&
		make -s -C "$tree" O="$b" ARCH=x86_64 olddefconfig >/dev/null || return 1
	# Prefixes before the series adds the option build the same both ways.
	grep -qs '^config SCHED_IPCC$' "$tree/init/Kconfig" || return 0
	local want=y
	[ "$1" = off ] && want=n
	if [ "$want" = y ]; then
		grep -q '^CONFIG_SCHED_IPCC=y' "$b/.config"
	else
		! grep -q '^CONFIG_SCHED_IPCC=y' "$b/.config"
	fi
}

fail=0
for ((i = ${BISECT_FROM:-1}; i <= n; i++)); do
	c=${commits[i - 1]}
	git -C "$tree" checkout -q -f "$c" || die "cannot check out patch $i"
	subj=$(git -C "$tree" log -1 --format=%s "$c")
	for cfg in on off; do
		t0=$(date +%s)
		log=$logdir/$(printf '%02d' "$i")-$cfg.log
		if ! configure $cfg >"$log" 2>&1; then
			msg "patch $i/$n ($subj), $cfg: cannot configure (see $log)"
			fail=1
			break 2
		fi
		if ! flock "$CACHE/build.lock" make -C "$tree" O="$KCACHE/bisect-$cfg" ARCH=x86_64 \
			CC="ccache gcc" HOSTCC="ccache gcc" -j"$JOBS" vmlinux >>"$log" 2>&1; then
			grep -E 'error|Error' "$log" | head -n 20 >&2
			msg "patch $i/$n ($subj), SCHED_IPCC $cfg: build FAILED (see $log)"
			fail=1
			break 2
		fi
		msg "patch $i/$n, SCHED_IPCC $cfg: builds ($(($(date +%s) - t0)) s)  $subj"
	done
done
git -C "$tree" checkout -q -f ipcc
msg "bisect-check: prefixes ${BISECT_FROM:-1}..$((i - 1)) of $n checked in $(($(date +%s) - start)) s; logs: $logdir"
[ $fail = 0 ] && msg "bisect-check: PASS" && exit 0
msg "bisect-check: FAIL"
exit 1
