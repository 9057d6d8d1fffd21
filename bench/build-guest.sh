#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the benchmark's guest tools (static, no dependencies) into
# $CACHE/build/guest-bin/, which harness/build.sh initramfs copies into the
# guest's /bin.  Rebuilds only what changed: a tool is rebuilt when the
# checksum of its source and the shared headers differs from the one it
# was built from (kept in guest-bin.sums/, beside the directory the guest
# gets), not by timestamps, since clones of the
# repository share the cache and an older clone's build is newer than a
# later edit.
#
# It also stages the real programs the scenarios can run (stress-ng, from
# Debian's package on this host, with the shared libraries it loads) in
# $CACHE/build/guest-root/, a tree at the guest's root that only the boots
# of scenarios with such tasks add to their initramfs (about 25 MB).
#
# usage: bench/build-guest.sh
. "$(dirname "$0")/../harness/lib.sh"

"$HARNESS/deps.sh" bench || exit 1

dest=$CACHE/build/guest-bin
sums=$CACHE/build/guest-bin.sums
mkdir -p "$dest" "$sums"
CC=${CC:-gcc}
CFLAGS=${CFLAGS:--static -O2 -Wall -Wextra -Wno-unused-parameter}
# Headers they include: a change rebuilds them all (ipcc-qmp takes its QMP
# client from the selftests).
headers="$REPO/bench/overhead/calib.h $REPO/tools/testing/selftests/sched/ipcc_qmp.h"
for src in "$REPO"/bench/src/*.c "$REPO"/bench/overhead/*.c; do
	bin=$dest/$(basename "$src" .c)
	# shellcheck disable=SC2086
	sum=$( { echo "$CC $CFLAGS"; cat "$src" $headers; } | sha256sum | cut -d' ' -f1)
	sumf=$sums/$(basename "$bin")
	if [ ! -x "$bin" ] || [ "$(cat "$sumf" 2>/dev/null)" != "$sum" ]; then
		msg "guest tool $(basename "$bin")"
		# shellcheck disable=SC2086
		$CC $CFLAGS -o "$bin.tmp" "$src" || die "cannot build $src"
		strip "$bin.tmp" && mv "$bin.tmp" "$bin" && echo "$sum" >"$sumf"
	fi
done

# Real programs: the binary and every library the dynamic loader maps for
# it, at the paths ldd names (/lib/x86_64-linux-gnu, /lib64 for the
# loader): the guest's initramfs has no /lib, so these become real
# directories there.
root=$CACHE/build/guest-root
prog=$(command -v stress-ng) || die "no stress-ng on this host"
libs=$(ldd "$prog" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }') ||
	die "ldd $prog failed"
[ -n "$libs" ] || die "ldd found no libraries for $prog"
rm -rf "$root.tmp"
mkdir -p "$root.tmp/usr/bin"
cp "$prog" "$root.tmp/usr/bin/stress-ng" || die "cannot copy $prog"
for lib in $libs; do
	mkdir -p "$root.tmp$(dirname "$lib")"
	cp -L "$lib" "$root.tmp$lib" || die "cannot copy $lib"
done
# Replaced only when something changed.
if [ ! -d "$root" ] || ! diff -r -q "$root" "$root.tmp" >/dev/null 2>&1; then
	msg "guest programs: $prog ($(stress-ng --version | head -n 1)) and $(echo "$libs" | wc -w) libraries"
	rm -rf "$root" && mv "$root.tmp" "$root"
else
	rm -rf "$root.tmp"
fi
