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
for f in $(series_new_files); do
	mkdir -p "$(dirname "$f")"
	ln -s "$REPO/$f" "$f"
done
ln -s "$REPO/patches" patches
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
msg "  quilt edit FILE && quilt refresh   # writes $REPO/patches/"
