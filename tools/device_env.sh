# Sourced (from the repository root) by the scripts that run on the H200 from a copy of the working tree without
# network access: tools/h200_check.sh and the dated records' call scripts. It puts the development wheels that travel
# in .whl/ on the path: asv, invoke and what they need (`pip download asv invoke -d .whl`, plus the binary wheels for
# the other machine's Python, e.g. `--python-version 3.12 --only-binary=:all:`). It restores the repository's history
# from .gitcarry/repo.bundle (`git bundle create .gitcarry/repo.bundle HEAD main`; asv records commits from it),
# makes Python unbuffered, and defines `step NAME COMMAND...`, which runs a command and prints its exit status and
# seconds.
if [ -d .whl ]; then
    # By name from the folder, so that pip takes the wheels that fit this Python and skips the others.
    python3 -m pip install -q --no-index --find-links .whl --no-compile --no-cache-dir --upgrade --target /tmp/site \
        asv invoke
    export PYTHONPATH=/tmp/site PATH=/tmp/site/bin:$PATH
fi
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
if [ -f .gitcarry/repo.bundle ]; then
    rm -rf .git /tmp/clone && git clone -q --no-checkout .gitcarry/repo.bundle /tmp/clone && mv /tmp/clone/.git .git && git reset -q
    # asv.conf.json follows the branch main: a bundle made on another branch still needs it as a local branch.
    git show-ref --verify --quiet refs/heads/main || git branch -q main origin/main
fi
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
