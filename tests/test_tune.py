"""CPU tier: the table generator of `best` turns measurements into the whole of best_table.h, every row of which
names a configuration the library has, and into precision_table.h (the dispatchers per accuracy)."""
import ctypes
import json
import re
from pathlib import Path

import pytest

from matmul_opt import LibraryNotFoundError, NoDeviceError, _library, tune
from generated_tables import constant
from matmul_opt.accuracy import FP32_ACCURATE_CONTRACT
from matmul_opt.tune import (TABLE, candidate, cut_rates, long_k_rule, panel_rows, render, shortk_max_k,
                             skinny_max_side, sweeps, table_rows, tables)

MEASUREMENTS = Path(__file__).resolve().parent.parent / "results" / "latest" / "tune-h200.json"


def square(size, ms_by_config):
    return {"M": size, "N": size, "K": size, "ms": ms_by_config}


def test_rows_follow_the_fastest_config_and_merge_runs():
    measurements = [
        square(256, {"a": 3.0, "b": 2.0, "c": 1.5, "d": 1.0}),
        square(512, {"a": 3.0, "b": 2.0, "c": 1.0, "d": 1.2}),
        square(1024, {"a": 3.0, "b": 2.0, "c": 1.0, "d": 2.0}),
        square(4096, {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0}),
    ]
    rows = table_rows(measurements, sms=132)
    assert [config for _, config, _ in rows] == ["d", "c", "a"]
    assert [sizes for _, _, sizes in rows] == [[256], [512, 1024], [4096]]
    assert rows[-1][0] == "INT64_MAX"
    # Bounds lie between the per-SM sizes where the winner changes.
    assert 256**2 / 132 < rows[0][0] < 512**2 / 132
    assert 1024**2 / 132 < rows[1][0] < 4096**2 / 132


def test_a_winner_within_the_tie_fraction_keeps_the_configuration_of_the_size_below():
    close = 1 + tune.TIE_FRACTION / 2
    measurements = [
        square(1024, {"a": 1.0, "b": 2.0}),
        square(2048, {"a": close, "b": 1.0}),  # b wins by less than the tie fraction: a stays
        square(4096, {"a": 1.1, "b": 1.0}),  # b wins by more: a new row
    ]
    rows = table_rows(measurements, sms=132)
    assert [(config, sizes) for _, config, sizes in rows] == [("a", [1024, 2048]), ("b", [4096])]


def test_the_skinny_kernel_takes_the_sides_below_the_first_it_loses():
    def row(M, N, winner):
        return {"sweep": "skinny", "M": M, "N": N, "K": 4096, "ms": {"skinny": 1.0, "other": 0.5 if winner else 2.0}}

    rows = [row(1, 4096, False), row(4096, 1, False), row(8, 4096, False), row(4096, 8, True), row(16, 4096, False),
            row(4096, 16, False)]
    assert skinny_max_side(rows) == 1  # at 8 the few-columns shape went to another configuration
    assert skinny_max_side(rows[:2]) == 1 and skinny_max_side([row(2, 4096, True)]) == 0


def test_the_shortk_kernel_takes_the_ks_below_the_first_it_loses_to_the_short_k_tables_choice():
    sms = 100
    table = [(3072 * 3072 // sms, "small", [3072]), ("INT64_MAX", "large", [6144])]  # table_rows' form

    def row(size, K, winner, faster_elsewhere=0.5):
        chosen = "small" if size == 3072 else "large"
        other = "large" if chosen == "small" else "small"
        return {"sweep": "shortk", "M": size, "N": size, "K": K,
                "ms": {"shortk": 1.0, chosen: 2.0 if winner else 0.5, other: faster_elsewhere}}

    rows = [row(3072, 1, True), row(6144, 1, True), row(3072, 4, True), row(6144, 4, True), row(3072, 8, True),
            row(6144, 8, False), row(3072, 16, True), row(6144, 16, True)]
    assert shortk_max_k(rows, table, sms) == 4  # at 8 the larger square's table choice beat it
    assert shortk_max_k(rows[:4], table, sms) == 4 and shortk_max_k([row(3072, 2, False)], table, sms) == 0
    # A configuration faster than shortk that the table does not name there does not take the K from shortk.
    assert shortk_max_k([row(3072, 8, True, faster_elsewhere=0.1), row(6144, 8, True, faster_elsewhere=0.1)],
                        table, sms) == 8


def test_the_long_k_rule_takes_skinny_up_to_its_first_loss_and_every_rate_at_the_largest_square():
    def row(side, skinny_ms, other_ms):
        ms = {"other": other_ms} if skinny_ms is None else {"skinny": skinny_ms, "other": other_ms}
        return {"sweep": "long_k", "M": side, "N": side, "K": 1000, "ms": ms}

    rule = long_k_rule([row(64, None, 2.0), row(1, 1.0, 2.0), row(16, 1.0, 2.0), row(32, 3.0, 2.0), row(48, 1.0, 2.0)],
                       sms=100)
    assert rule["skinny_sides"] == [1, 16] and 16**2 / 100 < rule["skinny_max_mn_per_sm"] < 32**2 / 100
    assert rule["max_mn_per_sm"] == 41 and rule["largest"] == 64
    assert rule["rates"] == [("other", round(2 * 64 * 64 * 1000 / 2.0e9, 2))]


def test_the_long_k_thin_sweep_times_skinny_against_longk_on_c_that_one_longk_tile_covers():
    thin = [(M, N) for sweep, M, N, _, _ in sweeps() if sweep == "long_k_thin"]
    assert thin and all(max(M, N) == 32 for M, N in thin) and {min(M, N) for M, N in thin} >= {1, 2, 4, 8, 16, 32}
    assert candidate("longk", "long_k_thin", 4, 32) and candidate("skinny", "long_k_thin", 32, 4)
    assert not candidate("pipelined 64x64x16", "long_k_thin", 4, 32)
    assert not candidate("longk", "long_k", 32, 32) and not candidate("longk", "squares", 1024, 1024)
    assert candidate("skinny", "long_k", 32, 32) and not candidate("skinny", "long_k", 48, 48)
    assert candidate("shortk", "shortk", 3072, 3072) and not candidate("shortk", "squares", 3072, 3072)
    assert candidate("tma 128x256x32", "squares", 4096, 4096)


def test_the_table_leaves_to_skinny_the_small_sides_where_it_beats_longk():
    def row(M, N, skinny_wins):
        return {"sweep": "long_k_thin", "M": M, "N": N, "K": 131072,
                "ms": {"skinny": 1.0, "longk": 2.0 if skinny_wins else 0.5}}

    saved = json.loads(MEASUREMENTS.read_text())
    thin = [row(1, 32, True), row(32, 1, True), row(2, 32, True), row(32, 2, False), row(4, 32, False)]
    assert tables(saved["measurements"] + thin, saved["sms"])["longk_min_small_side"] == 1
    assert "inline constexpr int kLongkMinSmallSide = 1;" in render(tables(saved["measurements"] + thin, saved["sms"]))


def test_the_long_k_thin_sweep_fits_one_longk_tile():
    """tune's copy of longk.h's largest tile side, which the long-K-thin sweep and best_table.h's comment use."""
    assert tune.LONGK_MAX_SIDE == constant("kMaxTileSide", "longk.h")


def test_the_long_k_tiny_sweep_times_skinny_against_longk_on_c_of_two_small_sides():
    tiny = {(M, N) for sweep, M, N, _, _ in sweeps() if sweep == "long_k_tiny"}
    sides = {M for M, _ in tiny}
    assert sides >= {1, 2, 4, 8} and max(sides) <= 8
    assert tiny == {(M, N) for M in sides for N in sides}, "every C of the sides swept, both ways round"
    assert candidate("longk", "long_k_tiny", 1, 1) and candidate("skinny", "long_k_tiny", 8, 8)
    assert not candidate("pipelined 64x64x16", "long_k_tiny", 8, 8)


def test_the_table_gives_longk_the_tiny_c_up_to_the_larger_side_where_skinny_wins_one_and_the_k_per_sm_swept():
    def row(M, N, longk_wins):
        return {"sweep": "long_k_tiny", "M": M, "N": N, "K": 131072,
                "ms": {"skinny": 1.0, "longk": 0.5 if longk_wins else 2.0}}

    saved = json.loads(MEASUREMENTS.read_text())
    saved["measurements"] = [row for row in saved["measurements"] if row.get("sweep") != "long_k_tiny"]
    won = [row(1, 1, True), row(1, 2, True), row(2, 1, True), row(2, 2, True), row(4, 4, True), row(1, 4, False),
           row(8, 8, True)]
    t = tables(saved["measurements"] + won, saved["sms"])
    assert t["longk_tiny"] == (2, -(-131072 // saved["sms"]))
    assert "inline constexpr int kLongkTinyMaxSide = 2;" in render(t)
    assert f"inline constexpr int kLongkTinyMaxKPerSm = {-(-131072 // saved['sms'])};" in render(t)
    lost = [row(1, 1, False), row(2, 2, True)]
    assert tables(saved["measurements"] + lost, saved["sms"])["longk_tiny"] == (0, 0)


def test_a_sweep_of_best_measured_on_another_gpu_is_named_in_best_table_h_alone():
    saved = json.loads(MEASUREMENTS.read_text())
    t = tables(saved["measurements"], saved["sms"], saved.get("accuracy"),
               {**saved.get("measured_on", {}), "long_k_tiny": "Another GPU"})
    assert "The long_k_tiny sweep ran on Another GPU" in render(t)
    assert "long_k_tiny" not in tune.render_precision(t)
    assert "The precision sweep ran on" not in render(t)


def panel_row(M, N, fastest, K=4096):
    return {"sweep": "panels", "M": M, "N": N, "K": K, "ms": {fastest: 1.0, "slow": 3.0}}


def test_panel_rows_merge_sides_with_the_same_winners():
    rows = [panel_row(24, 4096, "a"), panel_row(4096, 24, "b"), panel_row(32, 4096, "a"), panel_row(4096, 32, "b"),
            panel_row(64, 4096, "c"), panel_row(4096, 64, "b")]
    assert panel_rows(rows) == [("INT_MAX", 32, "a", "b"), ("INT_MAX", 64, "c", "b")]


def test_panel_rows_per_k_apply_up_to_halfway_to_the_next_k():
    """Each K keeps its own winners (merged within that K only); a K's rows end halfway, geometrically, to the next
    K swept, and the last K's rows are open."""
    rows = [panel_row(32, 4096, "a", K=1024), panel_row(4096, 32, "b", K=1024),
            panel_row(64, 4096, "a", K=1024), panel_row(4096, 64, "b", K=1024),
            panel_row(32, 4096, "c", K=4096), panel_row(4096, 32, "b", K=4096),
            panel_row(64, 4096, "a", K=4096), panel_row(4096, 64, "b", K=4096)]
    assert panel_rows(rows) == [(2048, 64, "a", "b"), ("INT_MAX", 32, "c", "b"), ("INT_MAX", 64, "a", "b")]
    text = render({**tables(json.loads(MEASUREMENTS.read_text())["measurements"], 132), "panels": panel_rows(rows),
                   "panel_ks": [1024, 4096]})
    assert '{2048, 64, "a", "b"},' in text and '{INT_MAX, 32, "c", "b"},' in text and "at K = 1024 and 4096" in text


def test_the_cut_rates_are_the_lowest_of_the_winners_and_of_the_skinny_kernel_on_few_rows():
    squares = [square(512, {"a": 0.001}), square(1024, {"a": 2.0, "b": 1.0}), square(2048, {"a": 4.0, "b": 8.0})]
    per_sm_per_us = [1024**3 / 100 / 1e3, 2048**3 / 100 / 4e3]  # the winners from 1024 up; 512 is left out

    def skinny_row(M, N, ms):
        return {"sweep": "skinny", "M": M, "N": N, "K": 4096, "ms": {"skinny": ms, "other": 0.1}}

    skinny = [skinny_row(1, 4096, 0.02), skinny_row(4096, 4, 0.03), skinny_row(8, 4096, 1.0)]
    streamed = 4 * (4096 * 4 + 4096 * 4096 + 4096 * 4) / 0.03e3  # the slower of the two up to 4; 8 is left out
    rates = cut_rates(squares, skinny, sms=100)
    assert rates["tile_fmas_per_sm_per_us"] == round(min(per_sm_per_us), -2)
    assert rates["edge_bytes_per_us"] == round(streamed, -4)


def test_the_rendered_file_holds_the_rows_by_name():
    text = render({"skinny_max_rows": 12, "skinny_max_columns": 3, "shortk_max_k": 9, "longk_min_small_side": 2,
                   "longk_tiny": (4, 993),
                   "panels": [("INT_MAX", 32, "pipelined 32x128x16", "pipelined 128x32x16")], "panel_ks": [4096],
                   "long_k": {"max_mn_per_sm": 1986, "skinny_max_mn_per_sm": 11, "largest": 512, "skinny_sides": [1, 32],
                              "rates": [("pipelined 64x64x16", 35.92)]},
                   "cut": {"tile_fmas_per_sm_per_us": 141800.0, "edge_bytes_per_us": 2900000.0},
                   "short_k": [("INT64_MAX", "pipelined 128x128x16", [4096])],
                   "squares": [(100, "pipelined 64x64x16", [256]), ("INT64_MAX", "tma 128x256x32", [4096])]})
    assert "inline constexpr int kShortkMaxK = 9;" in text and "kLongkMinSmallSide = 2;" in text
    assert "inline constexpr int kLongkTinyMaxSide = 4;" in text and "kLongkTinyMaxKPerSm = 993;" in text
    assert "inline constexpr int kSkinnyMaxRows = 12;" in text and "inline constexpr int kSkinnyMaxColumns = 3;" in text
    assert '{INT_MAX, 32, "pipelined 32x128x16", "pipelined 128x32x16"},' in text
    assert '{INT64_MAX, "pipelined 128x128x16"},  // fastest at 4096^2, K = 32' in text
    assert '{"pipelined 64x64x16", 35.92},' in text and "kLongKSkinnyMaxMnPerSm = 11;" in text
    assert "inline constexpr int kLongKMin = 16384;" in text and "kLongKMaxMnPerSm = 1986;" in text
    assert '{100, "pipelined 64x64x16"},  // fastest at 256^2' in text
    assert '{INT64_MAX, "tma 128x256x32"},  // fastest at 4096^2' in text
    assert "kCutTileFmasPerSmPerUs = 141800;" in text and "kCutEdgeBytesPerUs = 2900000;" in text
    assert text.startswith("// Generated by")


def test_the_committed_table_is_the_one_the_committed_measurements_give():
    saved = json.loads(MEASUREMENTS.read_text())
    assert TABLE.read_text() == render(tables(saved["measurements"], saved["sms"], saved.get("accuracy"),
                                              saved.get("measured_on")))


def test_every_row_names_a_configuration_of_best():
    lib = _library.library()
    names = set()
    for config in range(lib.mm_best_config_count()):
        name = ctypes.c_char_p()
        _library.check(lib.mm_best_config_name(config, ctypes.byref(name)))
        names.add(name.value.decode())
    text = TABLE.read_text()
    rows = re.findall(r'\{\w+, "([^"]+)"\}', text)
    panels = [name for pair in re.findall(r'\{\w+, \d+, "([^"]+)", "([^"]+)"\}', text) for name in pair]
    rates = re.findall(r'\{"([^"]+)", [0-9.]+\}', text)
    assert rows and panels and rates and set(rows + panels + rates) <= names, set(rows + panels + rates) - names


def test_write_outside_a_checkout_says_so(tmp_path, monkeypatch, capsys):
    saved = tmp_path / "timings.json"
    saved.write_text(MEASUREMENTS.read_text())
    monkeypatch.setattr(tune, "TABLE", tmp_path / "site-packages" / "cuda" / "kernels" / "best_table.h")
    assert tune.main(["--write", "--from-json", str(saved)]) == 2
    assert "needs a checkout of the repository" in capsys.readouterr().err


def test_without_a_gpu_the_tuner_says_so_in_one_line_and_exits_2(monkeypatch, capsys):
    """As the report does (python3 -m matmul_opt): one line on stderr, exit status 2, nothing measured or printed."""
    def no_device():
        raise NoDeviceError("no usable CUDA device: is an NVIDIA GPU with its driver present? cudaGetDeviceCount: "
                            "CUDA driver version is insufficient for CUDA runtime version (cudaErrorInsufficientDriver)")

    def never(*args, **kwargs):
        raise AssertionError("measured without a device")

    monkeypatch.setattr(tune, "device_info", no_device)
    monkeypatch.setattr(tune, "measure", never)
    assert tune.main([]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("matmul_opt.tune: cannot measure without a usable GPU: no usable")


def test_without_the_library_the_tuner_says_so_in_one_line_and_exits_2(monkeypatch, capsys):
    def no_library():
        raise LibraryNotFoundError("libmatmul.so not found at /nowhere. Build it with `invoke build`.")

    monkeypatch.setattr(tune, "device_info", no_library)
    assert tune.main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invoke build" in err


def precision_row(M, N, K, best_ms, tensor_ms):
    return {"sweep": "precision", "M": M, "N": N, "K": K, "ms": {"best": best_ms, "wgmma_tf32": tensor_ms}}


def test_the_intensity_threshold_loses_the_least_time_and_lies_between_the_measured_intensities():
    # Intensities of about 8, 31 and 114 FLOPs per byte, the tensor-core kernel faster from 31 up: the threshold
    # lies halfway, geometrically, between 8 and 31; the operands' intensity, the same for the three, stays below it.
    rows = [precision_row(4096, 4096, 16, 1.0, 3.0), precision_row(4096, 4096, 64, 1.0, 0.5),
            precision_row(4096, 4096, 256, 4.0, 1.0)]
    levels = [tune.flops_per_byte(row) for row in rows]
    assert levels[0] < levels[1] < levels[2]
    whole, operands = tune.min_intensities(rows, "wgmma_tf32")
    assert whole == pytest.approx((levels[0] * levels[1]) ** 0.5)
    assert operands < min(tune.operand_flops_per_byte(row) for row in rows)
    # Slower everywhere: never (inf); faster everywhere: below the least intensities; nothing measured: never.
    assert float("inf") in tune.min_intensities([precision_row(64, 64, 4096, 1.0, 2.0)], "wgmma_tf32")
    faster = precision_row(64, 64, 4096, 2.0, 1.0)
    assert tune.min_intensities([faster], "wgmma_tf32") < (tune.flops_per_byte(faster),
                                                           tune.operand_flops_per_byte(faster))
    assert tune.min_intensities([], "wgmma_tf32") == (float("inf"), float("inf"))


def test_the_operand_intensity_sends_a_short_side_to_best_where_the_whole_intensity_cannot():
    # Both products have an intensity of about 60 FLOPs per byte; the tensor-core kernel wins the one whose operands
    # are dense in FLOPs (a short K over a large C) and loses the one with a short side of C (128 rows), so only the
    # operands' intensity separates them: its threshold falls between the two, and the whole intensity's below both.
    short_side, short_k = precision_row(128, 4096, 4096, 1.0, 1.4), precision_row(4096, 4096, 128, 3.0, 1.0)
    assert tune.flops_per_byte(short_side) == pytest.approx(tune.flops_per_byte(short_k), rel=0.01)
    whole, operands = tune.min_intensities([short_side, short_k], "wgmma_tf32")
    assert whole <= min(tune.flops_per_byte(short_side), tune.flops_per_byte(short_k))
    assert tune.operand_flops_per_byte(short_side) < operands <= tune.operand_flops_per_byte(short_k)


def test_the_accurate_min_k_is_the_least_k_from_which_every_larger_k_keeps_the_contract():
    def errors(ratios):
        return {"wgmma_3xtf32": {k: r * 1e-7 for k, r in ratios.items()}, "cublas": {k: 1e-7 for k in ratios}}

    uniform = errors({4: 0.9, 16: 1.5, 64: 0.9, 256: 0.8, 1024: 0.7})
    spread = errors({4: 3.0, 16: 2.5, 64: 1.9, 256: 1.8, 1024: 1.2})
    kinds = list(FP32_ACCURATE_CONTRACT)
    draw = {kinds[0]: uniform, kinds[1]: spread}
    assert tune.accurate_min_k([draw]) == 64  # 16 fails uniform's 1.0x
    assert tune.accurate_min_k([{kinds[0]: uniform, kinds[1]: errors({4: 1, 16: 1, 64: 1, 256: 1, 1024: 2.1})}]) == \
        "INT_MAX"
    assert tune.accurate_min_k([]) == tune.accurate_min_k([{}]) == "INT_MAX"
    # Per kernel: another kernel's errors beside them, and a kernel that was not measured.
    both = {kind: {**by_kernel,
                   "wgmma_3xtf32_register_split": {k: e * 1.3 for k, e in by_kernel["wgmma_3xtf32"].items()}}
            for kind, by_kernel in draw.items()}
    assert tune.accurate_min_k([both], "wgmma_3xtf32_register_split") == 1024  # 256 fails uniform's 1.0x (1.04)
    assert tune.accurate_min_k([both]) == 64
    assert tune.accurate_min_k([draw], "wgmma_3xtf32_register_split") == "INT_MAX"
    # Every draw: a second draw whose spread error at K = 64 is over 2.0x moves the bound to 256; a draw that did
    # not measure a K leaves that K to the others.
    edge = {kinds[0]: uniform, kinds[1]: errors({64: 2.04, 256: 1.6})}
    assert tune.accurate_min_k([draw, edge]) == tune.accurate_min_k([edge, draw]) == 256
    assert tune.accurate_min_k([draw, {kinds[1]: errors({1024: 1.1})}]) == 64


def test_saved_accuracy_reads_as_draws_with_integer_k():
    draw = {"uniform [-1, 1]": {"cublas": {"16": 1e-7, "1024": 2e-7}}}
    as_integers = {"uniform [-1, 1]": {"cublas": {16: 1e-7, 1024: 2e-7}}}
    assert tune.accuracy_draws([draw, draw]) == [as_integers, as_integers]
    assert tune.accuracy_draws(draw) == [as_integers]  # one draw, saved as a dict
    assert tune.accuracy_draws(None) == tune.accuracy_draws([]) == []


def test_the_precision_table_holds_the_thresholds():
    text = tune.render_precision({"precision": {"tf32": (17.25, 40.0), "fp32_accurate": (float("inf"), float("inf")),
                                                "register_split": (13.6, 20.0)},
                                  "register_split_max_side": 48, "accurate_min_k": 256,
                                  "register_split_min_k": 4096, "ozaki": (1448.15, 11585.2)})
    assert "kTf32MinFlopsPerByte = 17.2;" in text or "kTf32MinFlopsPerByte = 17.3;" in text
    assert "kTf32MinOperandFlopsPerByte = 40.0;" in text
    assert "kFp32AccurateMinFlopsPerByte = INFINITY;" in text and "kFp32AccurateMinK = 256;" in text
    assert "kFp32AccurateMinOperandFlopsPerByte = INFINITY;" in text and "kRegisterSplitMaxSide = 48;" in text
    assert "kRegisterSplitMinK = 4096;" in text and "kRegisterSplitMinFlopsPerByte = 13.6;" in text
    assert "kRegisterSplitMinOperandFlopsPerByte = 20.0;" in text
    assert "kOzakiMinOperandFlopsPerByte = 1448.2;" in text and "kOzakiMinK = 11585.2;" in text
    assert f"kLongkTf32MaxOutputs = {tune.LONGK_TF32_MAX_OUTPUTS};" in text
    never = tune.render_precision({"precision": {"tf32": (1.0, 1.0), "fp32_accurate": (1.0, 1.0),
                                                 "register_split": (1.0, 1.0)},
                                   "register_split_max_side": 0, "accurate_min_k": 256,
                                   "register_split_min_k": "INT_MAX", "ozaki": (float("inf"), float("inf"))})
    assert "kOzakiMinOperandFlopsPerByte = INFINITY;" in never and "kOzakiMinK = INFINITY;" in never


def ozaki_row(M, N, K, ozaki_ms, tf32x3_ms):
    return {"sweep": "ozaki", "M": M, "N": N, "K": K, "ms": {"ozaki_int8": ozaki_ms, "wgmma_3xtf32": tf32x3_ms}}


def test_the_ozaki_bounds_take_the_operands_intensity_and_the_k_where_ozaki_wins():
    # ozaki_int8 wins the large squares of C over a long K, and loses a panel over a long K (its passes over the long
    # operand outweigh its product) and a large square over a short K. The panel has more FLOPs than a winner, so no
    # FLOPs bound separates them; the operands' intensity does. Each bound lies halfway (geometrically) between the
    # losers' and the winners' values.
    panel = ozaki_row(1024, 32768, 32768, 30.0, 25.0)
    rows = [ozaki_row(8192, 8192, 8192, 6.0, 8.0), ozaki_row(16384, 16384, 16384, 48.0, 70.0), panel,
            ozaki_row(16384, 16384, 2048, 9.0, 8.0)]
    assert 2 * 1024 * 32768 * 32768 > 2 * 8192**3
    least_intensity, least_k = tune.ozaki_bounds(rows)
    assert least_intensity == pytest.approx((tune.operand_flops_per_byte(panel) * 8192 / 4) ** 0.5)
    assert least_k == pytest.approx((2048 * 8192) ** 0.5)
    chosen = ["ozaki_int8" if tune.operand_flops_per_byte(r) >= least_intensity and r["K"] >= least_k
              else "wgmma_3xtf32" for r in rows]
    assert chosen == [min(r["ms"], key=r["ms"].get) for r in rows]
    # Slower everywhere, or nothing measured: never.
    assert float("inf") in tune.ozaki_bounds([ozaki_row(16384, 16384, 16384, 70.0, 60.0)])
    assert tune.ozaki_bounds([]) == (float("inf"), float("inf"))


def test_the_committed_precision_table_is_the_one_the_committed_measurements_give():
    saved = json.loads(MEASUREMENTS.read_text())
    t = tables(saved["measurements"], saved["sms"], saved.get("accuracy"), saved.get("measured_on"))
    assert tune.PRECISION_TABLE.read_text() == tune.render_precision(t)


def test_remeasure_keeps_the_saved_rows_of_the_other_sweeps_and_measures_the_named_ones(tmp_path, monkeypatch):
    saved = json.loads(MEASUREMENTS.read_text())
    source, out = tmp_path / "saved.json", tmp_path / "merged.json"
    source.write_text(json.dumps(saved))
    asked = []
    # The precision sweep measured anew: the saved rows with best twice as slow.
    fresh = [dict(row, ms={k: v * (2 if k == "best" else 1) for k, v in row["ms"].items()})
             for row in saved["measurements"] if row["sweep"] == "precision"]

    def measure(repetitions, only=None):
        asked.append(only)
        return fresh

    def accuracy_never():
        raise AssertionError("the accuracy sweep was not named")

    info = type("Info", (), {"name": saved["device"], "sm_count": saved["sms"]})()
    monkeypatch.setattr(tune, "device_info", lambda: info)
    monkeypatch.setattr(tune, "measure", measure)
    monkeypatch.setattr(tune, "measure_accuracy", accuracy_never)
    assert tune.main(["--from-json", str(source), "--remeasure", "precision", "--json", str(out)]) == 0
    merged = json.loads(out.read_text())
    assert asked == [{"precision"}]
    others = [row for row in saved["measurements"] if row["sweep"] != "precision"]
    assert merged["measurements"] == others + fresh
    assert merged["accuracy"] == saved["accuracy"] and merged["sms"] == saved["sms"]


def test_remeasure_refuses_unknown_sweeps_another_gpu_and_no_saved_timings(tmp_path, monkeypatch, capsys):
    source = tmp_path / "saved.json"
    source.write_text(MEASUREMENTS.read_text())
    assert tune.main(["--remeasure", "precision"]) == 2
    assert "--remeasure needs --from-json" in capsys.readouterr().err
    assert tune.main(["--from-json", str(source), "--remeasure", "precision,tiles"]) == 2
    assert "'precision,tiles'" in capsys.readouterr().err
    monkeypatch.setattr(tune, "device_info", lambda: type("Info", (), {"name": "NVIDIA H100", "sm_count": 132})())
    monkeypatch.setattr(tune, "measure", lambda *args: pytest.fail("measured on another GPU"))
    assert tune.main(["--from-json", str(source), "--remeasure", "precision"]) == 2
    assert "this GPU is NVIDIA H100" in capsys.readouterr().err


def test_other_gpu_remeasures_on_another_model_and_names_it(tmp_path, monkeypatch):
    saved = json.loads(MEASUREMENTS.read_text())
    source, out = tmp_path / "saved.json", tmp_path / "merged.json"
    source.write_text(json.dumps(saved))
    fresh = [row for row in saved["measurements"] if row["sweep"] == "precision"]
    monkeypatch.setattr(tune, "device_info", lambda: type("Info", (), {"name": "Another GPU", "sm_count": saved["sms"]})())
    monkeypatch.setattr(tune, "measure", lambda repetitions, only=None: fresh)
    monkeypatch.setattr(tune, "PRECISION_TABLE", tmp_path / "precision_table.h")
    monkeypatch.setattr(tune, "TABLE", tmp_path / "best_table.h")
    tune.TABLE.write_text("")
    assert tune.main(["--from-json", str(source), "--remeasure", "precision", "--other-gpu", "--json", str(out),
                      "--write"]) == 0
    merged = json.loads(out.read_text())
    assert merged["device"] == saved["device"] and merged["measured_on"]["precision"] == "Another GPU"
    assert "The precision sweep ran on Another GPU" in tune.PRECISION_TABLE.read_text()
    # Another SM count is refused even so.
    monkeypatch.setattr(tune, "device_info", lambda: type("Info", (), {"name": "Another GPU", "sm_count": 7})())
    assert tune.main(["--from-json", str(source), "--remeasure", "precision", "--other-gpu"]) == 2


def fp32_accurate_row(M, N, K, ffma_ms, split_both_ms, register_split_ms):
    return {"sweep": "precision", "M": M, "N": N, "K": K,
            "ms": {"best": 1.0, "wgmma_tf32": 1.0, "wgmma_3xtf32": split_both_ms,
                   "wgmma_3xtf32_register_split": register_split_ms, "fp32_accurate_ffma": ffma_ms}}


def test_the_register_split_kernel_takes_the_smaller_sides_up_to_the_least_loss():
    rows = [fp32_accurate_row(16, 4096, 1024, 9.0, 2.0, 1.0), fp32_accurate_row(48, 4096, 4096, 9.0, 2.0, 1.0),
            fp32_accurate_row(96, 4096, 1024, 9.0, 2.0, 1.0), fp32_accurate_row(96, 4096, 4096, 9.0, 1.0, 2.0),
            fp32_accurate_row(192, 4096, 1024, 9.0, 2.0, 1.0)]
    assert tune.register_split_max_side(rows) == 192  # past one loss at 96, two wins: up to 192 loses the least
    assert tune.register_split_max_side(rows[:4]) == 48  # 48 and 96 lose the same: the smaller
    slower = [fp32_accurate_row(16, 4096, 1024, 9.0, 1.0, 2.0)]
    assert tune.register_split_max_side(slower) == 0  # slower everywhere: never
    assert tune.register_split_max_side([precision_row(16, 4096, 1024, 2.0, 1.0)]) == 0  # not measured
    # best's long-K products do not count: there the class never takes the register split.
    long_k = [fp32_accurate_row(16, 4096, 1024, 9.0, 2.0, 1.0), fp32_accurate_row(64, 64, 131072, 9.0, 2.0, 1.0)]
    assert tune.register_split_max_side(long_k) == 64
    assert tune.register_split_max_side(long_k, long_k_max_mn_per_sm=2000, sms=132) == 16
    assert [tune.takes_register_split(row, 48, 1) for row in rows] == [True, True, False, False, False]
    # From a K where its error keeps the contract only.
    assert [tune.takes_register_split(row, 48, 4096) for row in rows] == [False, True, False, False, False]
    assert not any(tune.takes_register_split(row, 48, "INT_MAX") for row in rows)


def tf32_row(M, N, K, best_ms, wgmma_ms):
    fp32_accurate = {"wgmma_3xtf32": 1.0, "wgmma_3xtf32_register_split": 1.0, "fp32_accurate_ffma": 1.0}
    return {"sweep": "precision", "M": M, "N": N, "K": K,
            "ms": {"best": best_ms, "wgmma_tf32": wgmma_ms, **fp32_accurate}}


def test_the_tf32_thresholds_leave_aside_the_products_best_tf32_gives_longk_tf32():
    """A long K over a small C goes to longk_tf32, whatever the thresholds say: its times of best and wgmma_tf32
    would only move the thresholds on the products that take them. Past LONGK_TF32_MAX_OUTPUTS, or with a smaller
    side that best leaves to the skinny kernel, the long K is the thresholds' again."""
    panels = [tf32_row(16, 4096, 4096, 1.0, 2.0), tf32_row(32, 4096, 4096, 2.0, 1.0)]
    longk_tf32 = tf32_row(64, 64, 131072, 1.0, 3.0)  # intensity 16, past the 32-row panel's
    assert tune.takes_longk_tf32(longk_tf32, 1986, 8, 132)
    assert not tune.takes_longk_tf32(longk_tf32, 1986, 64, 132) and not tune.takes_longk_tf32(longk_tf32, None, 8, 132)
    assert not tune.takes_longk_tf32(tf32_row(256, 256, 131072, 1.0, 1.0), 1986, 8, 132)  # more outputs
    thresholds = tune.precision_thresholds(panels + [longk_tf32], long_k_max_mn_per_sm=1986, sms=132,
                                           longk_min_small_side=8)["tf32"]
    assert thresholds == tune.min_intensities(panels, "wgmma_tf32")
    assert tune.flops_per_byte(panels[1]) >= thresholds[0] and tune.operand_flops_per_byte(panels[1]) >= thresholds[1]
    # Counted, the long-K product would have kept the panel it loses to off the tensor cores.
    counted = tune.precision_thresholds(panels + [longk_tf32])["tf32"]
    assert tune.operand_flops_per_byte(panels[1]) < counted[1]


def test_each_fp32_accurate_kernel_has_thresholds_from_the_shapes_it_would_take():
    """The register-split kernel, faster than the FMAs on a panel that the other 3xTF32 kernel loses, comes in at
    the panel's intensity; the other kernel's thresholds come from the shapes past the register split's sides alone,
    against the class's time off the tensor cores (fp32_accurate_ffma), not best's."""
    rows = [fp32_accurate_row(16, 4096, 1024, 1.0, 4.0, 2.0), fp32_accurate_row(48, 4096, 1024, 2.0, 4.0, 1.0),
            fp32_accurate_row(384, 4096, 1024, 2.0, 1.0, 3.0), fp32_accurate_row(3072, 3072, 3072, 4.0, 1.0, 2.0)]
    thresholds = tune.precision_thresholds(rows)
    assert tune.register_split_max_side(rows) == 48
    split_from, both_from = thresholds["register_split"], thresholds["fp32_accurate"]
    panel_48, panel_16, panel_384 = ({"M": side, "N": 4096, "K": 1024} for side in (48, 16, 384))

    def reaches(shape, pair):
        return tune.flops_per_byte(shape) >= pair[0] and tune.operand_flops_per_byte(shape) >= pair[1]
    assert reaches(panel_48, split_from) and not reaches(panel_16, split_from)
    assert reaches(panel_384, both_from)  # best's time (1.0) would have kept it off the tensor cores
    assert thresholds["fp32_accurate"] == tune.min_intensities(rows[2:], "wgmma_3xtf32", "fp32_accurate_ffma")
