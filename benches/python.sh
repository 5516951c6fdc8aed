#!/usr/bin/env bash
# The Python package's speed against the Python robots.txt packages (issue 28), in one
# run on one machine: robotscope (built from ./python as `pip install` builds it, in
# the release profile), fastrobots, texting-robots-py, urllib.robotparser, protego and
# fast-robotstxt (Google's C++ library), each in the same virtual environment
# (target/bench-venv), on the wikipedia, google and github files with 200,000 URLs each
# (benches/python_speed.py says how they are made and timed). Also checks that
# robotscope's verdicts are identical to `robotscope check` on the same URLs.
#
# Usage: benches/python.sh     (needs python3 >= 3.10 for fastrobots, and PyPI)
# Exits 1 when a target of issue 28 is missed or a verdict differs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
python=${PYTHON:-python3}
venv=target/bench-venv
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet fastrobots==0.3.0 texting-robots-py==0.2.2 protego==0.7.0 fast-robotstxt==1.1.0
"$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps ./python
cargo build --release --locked --quiet --bin robotscope
"$venv/bin/python" - <<'PY'
import platform, sys
print(f"python {sys.version.split()[0]} on {platform.machine()}, {platform.processor() or 'cpu'}")
PY
exec "$venv/bin/python" benches/python_speed.py
