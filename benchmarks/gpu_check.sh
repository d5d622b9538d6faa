#!/usr/bin/env bash
# The checks for a lent GPU, as one command (≤ 8 minutes on an H200):
#
#     bash benchmarks/gpu_check.sh OUT_DIR [bench_gpu.py --only CASES...]
#
# 1. peers carried as wheels in .whl/ (interpax and its jaxkd) are installed to /tmp/site;
# 2. benchmarks/bench_gpu.py (all cases, or those after OUT_DIR) writes its table to OUT_DIR;
# 3. the tests of the solve kernels, the lowering and the transformations run on the GPU
#    (the default backend there), with a log in OUT_DIR/tests.log.
# Each step has its own time limit, so that a slow step leaves the others their time.
set -u
out=${1:?usage: gpu_check.sh OUT_DIR [CASES...]}
shift
export PYTHONUNBUFFERED=1 XLA_PYTHON_CLIENT_PREALLOCATE=false
if compgen -G ".whl/*.whl" >/dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
fi
export PYTHONPATH="${PYTHONPATH:+$PYTHONPATH:}$PWD"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$out/gpu.txt"
only=()
if [ $# -gt 0 ]; then only=(--only "$@"); fi
timeout 300 python3 benchmarks/bench_gpu.py --results-dir "$out" "${only[@]}" >"$out/bench.log" 2>&1
echo "bench_gpu rc=$?"
timeout 170 python3 -m pytest -v -p no:cacheprovider -n 8 tests/test_tridiagonal.py \
    tests/test_kernels.py tests/test_thomas_inplace.py tests/test_lineax.py tests/test_lowering.py \
    tests/test_grad.py tests/test_vmap.py tests/test_dtypes.py tests/test_interp_scipy.py \
    tests/test_interp_grid.py >"$out/tests.log" 2>&1
echo "tests rc=$?"
grep -E "^(FAILED|ERROR)" "$out/tests.log" | cut -c1-160 | head -30
tail -1 "$out/tests.log"
grep -E "^(device|\| kernel)" "$out/bench.log" || tail -5 "$out/bench.log"
