# Sourced (from the repository root) by the scripts that run on the H200 from a copy of the working tree without
# network access: tools/h200_check.sh and the dated records' call scripts. It puts the development wheels that travel
# in .whl/ on the path: asv, invoke and what they need (`pip download asv invoke -d .whl`, plus the binary wheels for
# the other machine's Python, e.g. `--python-version 3.12 --only-binary=:all:`). It restores the repository's history
# from .gitcarry/repo.bundle (`git bundle create .gitcarry/repo.bundle HEAD main`; asv records commits from it),
# makes Python unbuffered, and defines `step NAME COMMAND...`, which runs a command and prints its exit status and
# seconds; `unxz_to FILE.xz OUT`, for the libraries that calls carry compressed; `compile_objects SOURCE...`
# (sources under cuda/ into their objects under build/, with the Makefile's flags for sm_90; not the *_sm90a.cu
# sources, which it builds for sm_90a) and `link_library`
# (matmul_opt/libmatmul.so from the objects under build/ of this tree's sources), for calls that carry the objects
# built here and rebuild only what the call changes, such as best after the tuner rewrites its table. A repository
# that already holds the bundle's commits (the checkout the bundle was made in) is left alone: the restore replaces
# .git.
if [ -d .whl ]; then
    # By name from the folder, so that pip takes the wheels that fit this Python and skips the others.
    python3 -m pip install -q --no-index --find-links .whl --no-compile --no-cache-dir --upgrade --target /tmp/site \
        asv invoke
    export PYTHONPATH=/tmp/site PATH=/tmp/site/bin:$PATH
fi
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
bundle_commits_present() {
    git bundle list-heads .gitcarry/repo.bundle | while read -r commit ref; do
        git cat-file -e "$commit^{commit}" 2>/dev/null || return 1
    done
}
if [ -f .gitcarry/repo.bundle ] && ! bundle_commits_present; then
    rm -rf .git /tmp/clone && git clone -q --no-checkout .gitcarry/repo.bundle /tmp/clone && mv /tmp/clone/.git .git && git reset -q
    # asv.conf.json follows the branch main: a bundle made on another branch still needs it as a local branch.
    git show-ref --verify --quiet refs/heads/main || git branch -q main origin/main
fi
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
# `unxz_to FILE.xz OUT`: a library carried compressed (.gitcarry), unpacked by Python's lzma rather than an xz tool.
unxz_to() {
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$@"
}
MM_NVCC_FLAGS="-O3 -std=c++20 -lineinfo --default-stream per-thread -Xcompiler -fPIC,-fvisibility=hidden"
MM_NVCC_FLAGS+=" -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -Icuda"
MM_NVCC_FLAGS+=" -gencode arch=compute_90,code=[sm_90,compute_90]"
compile_objects() {
    local source object
    for source in "$@"; do
        object=build/${source#cuda/}
        nvcc $MM_NVCC_FLAGS -c "$source" -o "${object%.cu}.o" || return
    done
}
# The objects under build/ whose sources this tree has (an object left by another branch's build is not linked).
library_objects() {
    local source object
    for source in $(find cuda -name '*.cu' | sort); do
        object=build/${source#cuda/}
        echo "${object%.cu}.o"
    done
}
link_library() {
    nvcc -gencode 'arch=compute_90,code=[sm_90,compute_90]' -shared -o matmul_opt/libmatmul.so $(library_objects) -ldl
}
# Exported, so that `step NAME bash -c "compile_objects ... && link_library"` finds them in its child shell.
export MM_NVCC_FLAGS
export -f step unxz_to compile_objects library_objects link_library
