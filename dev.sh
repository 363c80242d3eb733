#!/usr/bin/env bash
# The project's two entry points; each bootstraps the machine first (idempotent).
#   ./dev.sh render [render.py options]   build the clips into media/
#   ./dev.sh test   [pytest options]      run the whole test suite
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$ROOT"
usage() { echo "usage: ./dev.sh render|test [args...]" >&2; exit 2; }
[ $# -ge 1 ] || usage
command="$1"; shift
case "$command" in
    render|test) ;;
    *) echo "unknown command '$command'; valid: render, test" >&2; exit 2 ;;
esac
bash scripts/bootstrap.sh
case "$command" in
    render) exec .venv/bin/python render.py "$@" ;;
    test)   exec .venv/bin/python -m pytest "$@" ;;
esac
