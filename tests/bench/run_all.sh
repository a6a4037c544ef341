#!/usr/bin/env bash
# Run every benchmark, one at a time (the machine is small and shared), after fetching the
# corpora and installing the peers. Results land in tests/bench/results/*.json.
#
#   tests/bench/run_all.sh            # full run
#   REPEAT=1 tests/bench/run_all.sh   # one repetition of the index benchmark
#
# A failing benchmark does not stop the others; the exit status is non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
PY=.venv/bin/python
BENCH=tests/bench
status=0

step() {
  echo
  echo "######## $* (loadavg $(cut -d' ' -f1-3 /proc/loadavg))"
  "$@" || { echo "!!!!!!!! failed: $*"; status=1; }
}

# peers: Python ones into the venv, npm ones (and the corpora) via bench_data.py
if ! $PY -c "import grimp, jedi, psutil" 2>/dev/null; then
  .venv/bin/pip install "grimp>=3.4,<4" "jedi>=0.19,<0.21" "psutil>=5.9,<8" || exit 1
fi
command -v ctags >/dev/null || echo "warning: universal-ctags not installed (bench_index ctags row will fail)"
$PY $BENCH/bench_data.py || exit 1

step $PY $BENCH/bench_index.py --repeat "${REPEAT:-3}"
step $PY $BENCH/bench_graph.py
step $PY $BENCH/bench_latency.py
step $PY $BENCH/bench_accuracy.py
if [ -f $BENCH/bench_executor.py ]; then
  step $PY $BENCH/bench_executor.py
fi
exit $status
