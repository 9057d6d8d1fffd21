#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make tree [TREE=dir]: a patched git tree to hack in, managed by quilt.
#
#   base commit      the pristine base
#   quilt series     the hook patches, applied; patches/ links to the repo's
#                    patches/, so "quilt refresh" writes the repo's patch files
#   new files        symlinks to the repo's files, so edits land in the repo
#
# Edit an existing kernel file:  quilt push <patch>; quilt edit FILE; ...;
#                                 quilt refresh   (then git diff in the repo)
# New hook patch:                 quilt new NAME.patch; quilt edit FILE ...
#
# On a base with its own patches (BASE=6.12: patches/6.12/), the tree's
# patches/ is a directory of links to the files that base uses, its
# backports at the end of the series, and the new files are copies (the
# backports change them): quilt refresh writes into the tree, and what
# changed goes to patches/BASE/ by hand.
. "$(dirname "$0")/lib.sh"

tree=${1:-$CACHE/tree}
"$HARNESS/fetch-base.sh" || exit 1
[ -e "$tree" ] && die "$tree exists; remove it first (or name another TREE=)"
command -v quilt >/dev/null || "$HARNESS/deps.sh" || exit 1

msg "copying the base into $tree"
mkdir -p "$tree"
cp -a "$BASE_SRC/." "$tree/"
cd "$tree" || exit 1
git init -q && git add -A -f && git commit -q -m "base: $BASE_PKG $BASE_VERSION" ||
	die "git commit of the base failed"
own=
{ [ -n "$(backport_patches)" ] || [ -d "$REPO/patches/$BASE" ]; } && own=1
for f in $(series_new_files); do
	mkdir -p "$(dirname "$f")"
	if [ -n "$own" ]; then
		cp "$REPO/$f" "$f"
	else
		ln -s "$REPO/$f" "$f"
	fi
done
if [ -n "$own" ]; then
	mkdir patches
	for p in $(series_patches); do
		ln -s "$(patch_file "$p")" "patches/$p"
		echo "$p" >>patches/series
	done
	for pf in $(backport_patches); do
		ln -s "$pf" "patches/$(basename "$pf")"
		basename "$pf" >>patches/series
	done
else
	ln -s "$REPO/patches" patches
fi
cat >.ipcc-env <<'EOT'
# source this before using quilt here
export QUILT_PATCHES=patches QUILT_PC=.pc
export QUILT_REFRESH_ARGS="-p ab --no-timestamps --no-index --sort"
export QUILT_DIFF_ARGS="-p ab --no-timestamps --no-index"
EOT
. ./.ipcc-env
if [ -s patches/series ]; then
	quilt push -a -q --fuzz=0 || die "a hook patch does not apply (see above)"
fi
if [ -f "$REPO/MAINTAINERS" ]; then
	python3 "$HARNESS/merge-maintainers.py" MAINTAINERS "$REPO/MAINTAINERS"
fi
cat >.git/info/exclude <<EOT
/.pc/
/patches
/.ipcc-env
EOT
msg "tree ready: $tree"
msg "  cd $tree && . ./.ipcc-env && quilt series    # the hook patches (QUILT_PATCHES=patches)"
if [ -n "$own" ]; then
	msg "  quilt edit FILE && quilt refresh   # writes $tree/patches/: copy to $REPO/patches/$BASE/"
else
	msg "  quilt edit FILE && quilt refresh   # writes $REPO/patches/"
fi
