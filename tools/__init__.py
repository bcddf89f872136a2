"""Developer tools of matmul-opt, apart from the asv suite (benchmarks/) and from the package (matmul_opt/): the
regression gate over committed asv results (regressions.py, with results.py, the one reader of those results), the
GFLOPS graph (graph.py), the docs' generated figures and pictures (doc_figures.py, doc_pictures.py), the GPU checks
(h200_check.sh and what it runs: sanitize.py with sanitize_driver.py, leak_check.py, paired_ratio.py, end_to_end.py,
ab_compare.py), sass_compare.py, and helpers for experiment scripts (clock_trace.py, fp32_accuracy.py). Each Python
tool runs as a module from the repository root, `python3 -m tools.NAME [--help]`, so that it imports matmul_opt and
the suite (benchmarks) from the checkout without touching sys.path; h200_check.sh runs as `tools/h200_check.sh`.
The package does not ship this folder (pyproject.toml lists matmul_opt alone).
"""
