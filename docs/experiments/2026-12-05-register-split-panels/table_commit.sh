# Sourced by call3.sh on the GPU machine and by hand on the developer's: `table_commit GPU CALL` commits what is
# staged (the tuner's precision_table.h and tune-h200.json) under fixed author, committer, dates and a message naming
# the GPU model and the record's call, so that the same files on the same parent give the same commit hash on both
# machines.
table_commit() {
    GIT_AUTHOR_NAME="Seed d4781817 maintainers" GIT_AUTHOR_EMAIL="maintainers@users.noreply.a-seed-d4781817.example" \
    GIT_COMMITTER_NAME="Seed d4781817 maintainers" \
    GIT_COMMITTER_EMAIL="maintainers@users.noreply.a-seed-d4781817.example" \
    GIT_AUTHOR_DATE="2026-12-05T23:00:00+0000" GIT_COMMITTER_DATE="2026-12-05T23:00:00+0000" \
        git -c commit.gpgsign=false commit -q -m "precision_table.h from the tuner's precision sweep (both panel \
orientations, sides of 16 to 768, the class's choice off the tensor cores timed as fp32_accurate_ffma) and two \
fresh draws of its accuracy sweep (the register split's slices of at least 256 measured anew), on the $1; \
results/latest/tune-h200.json holds them, the sweeps measured there named in measured_on \
(docs/experiments/2026-12-05-register-split-panels.md, call $2)"
}
