#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# QEMU side of the series as git history:
#
#   qemu-tree.sh DIR     a git tree of the pinned QEMU source (tag
#                        ipcc-qemu-base) with qemu/patches/series applied
#                        by git am, to hack in (make qemu-tree)
#   qemu-tree.sh --check git am of the series on the files it touches,
#                        taken from the pristine source: the mailed
#                        patches apply as mail (make test)
. "$(dirname "$0")/lib.sh"

"$HARNESS/fetch-qemu.sh" || exit 1
patches=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$REPO/qemu/patches/series" | grep -v '^$')

gitq() { git -c user.name=ipcc -c user.email=ipcc@localhost "$@"; }

if [ "${1:-}" = --check ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	for p in $patches; do
		sed -n 's|^--- a/\([^[:space:]]*\).*|\1|p' "$REPO/qemu/patches/$p"
	done | sort -u | while read -r f; do
		[ -f "$QEMU_BASE_SRC/$f" ] || continue
		mkdir -p "$tmp/$(dirname "$f")"
		cp "$QEMU_BASE_SRC/$f" "$tmp/$f"
	done
	(cd "$tmp" && git init -q && gitq add -A && gitq commit -qm base) || exit 1
	for p in $patches; do
		(cd "$tmp" && gitq am -q "$REPO/qemu/patches/$p") >"$tmp.log" 2>&1 ||
			{ cat "$tmp.log" >&2; rm -f "$tmp.log"; die "git am of qemu/patches/$p failed"; }
	done
	rm -f "$tmp.log"
	msg "the QEMU series applies with git am: $(echo "$patches" | grep -c .) patches"
	exit 0
fi

dest=${1:-}
[ -n "$dest" ] || die "usage: qemu-tree.sh DIR | --check"
[ -e "$dest" ] && die "$dest exists; remove it first"
cp -a "$QEMU_BASE_SRC" "$dest" || exit 1
rm -rf "$dest/debian" "$dest/.pc"
(cd "$dest" && git init -q && gitq add -A && gitq commit -qm "$QEMU_PKG $QEMU_VERSION (Debian source)" &&
	git tag ipcc-qemu-base) >/dev/null || die "cannot create the git tree"
for p in $patches; do
	(cd "$dest" && git am -q "$REPO/qemu/patches/$p") || die "git am of qemu/patches/$p failed"
done
msg "QEMU tree with the series in $dest (base: tag ipcc-qemu-base)"
