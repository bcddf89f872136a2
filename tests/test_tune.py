"""CPU tier: the table generator of `best` turns measurements into rows best_table.h can hold."""
import re

from matmul_opt.tune import TABLE, render, table_rows


def square(size, ms_by_config):
    return {"M": size, "N": size, "K": size, "ms": ms_by_config}


def test_rows_follow_the_fastest_config_and_merge_runs():
    measurements = [
        square(256, {0: 3.0, 1: 2.0, 2: 1.5, 3: 1.0}),
        square(512, {0: 3.0, 1: 2.0, 2: 1.0, 3: 1.2}),
        square(1024, {0: 3.0, 1: 2.0, 2: 1.0, 3: 2.0}),
        square(4096, {0: 1.0, 1: 2.0, 2: 3.0, 3: 4.0}),
    ]
    rows = table_rows(measurements, sms=132)
    assert [config for _, config in rows] == [3, 2, 0]
    assert rows[-1][0] == "INT64_MAX"
    # Bounds lie between the per-SM sizes where the winner changes.
    assert 256**2 / 132 < rows[0][0] < 512**2 / 132
    assert 1024**2 / 132 < rows[1][0] < 4096**2 / 132


def test_rendered_table_replaces_the_one_in_the_header():
    text = TABLE.read_text()
    pattern = re.compile(r"constexpr Row kRows\[\] = \{.*?\};", re.S)
    assert len(pattern.findall(text)) == 1
    table = render([(100, 3), ("INT64_MAX", 0)], ["128x256", "128x128", "128x64", "64x64"])
    rewritten = pattern.sub(lambda _: table, text)
    assert "{100, 3},  // 64x64" in rewritten and "{INT64_MAX, 0},  // 128x256" in rewritten
