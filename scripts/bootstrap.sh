#!/usr/bin/env bash
# Idempotent setup for a bare Debian machine: system packages, .venv, CPU torch, the project.
# Sourced by ./dev.sh; quick when everything is already in place (a stamp records what was installed).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="${PYTHON:-python3}"
# libreoffice-impress: the test that opens deck.pptx converts it to PDF headless (~85 MB download, 260 MB installed)
# fonts-noto-cjk, fonts-noto-core: glyphs for the scripts users type in their examples (CJK, Hebrew, Arabic, ...);
#   Typst falls back to them where DejaVu has no glyph, and render.py refuses a word no installed font can draw
# espeak-ng: the French narration's voice (render.py --narrate --language fr), run as a separate program (GPL-3.0,
#   never linked); with its data and two small libraries ~4.8 MB to download, ~13.5 MB installed
APT_PACKAGES=(pkg-config libcairo2-dev libpango1.0-dev chromium libreoffice-impress openssl fonts-noto-cjk
              fonts-noto-core espeak-ng)
TORCH_PIN="torch==2.13.0"

log() { printf '[bootstrap] %s\n' "$*" >&2; }

missing_apt_packages() {
    local pkg missing=()
    for pkg in "${APT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    echo "${missing[@]:-}"
}

ensure_system_packages() {
    local missing
    missing="$(missing_apt_packages)"
    [ -z "$missing" ] && return 0
    local cmd="apt-get update && apt-get install -y --no-install-recommends $missing"
    if [ "$(id -u)" -ne 0 ]; then
        log "missing Debian packages: $missing"
        log "run as root:  $cmd"
        exit 1
    fi
    log "installing Debian packages: $missing"
    DEBIAN_FRONTEND=noninteractive bash -c "$cmd" >/dev/null
}

stamp_value() {
    # Everything that should trigger a reinstall when it changes.
    cat "$ROOT/pyproject.toml" "$ROOT/attention_math/pyproject.toml" "$ROOT/scripts/bootstrap.sh" | sha256sum | cut -d' ' -f1
}

ensure_venv() {
    if [ ! -x "$VENV/bin/python" ]; then
        log "creating $VENV"
        "$PY" -m venv "$VENV"
    fi
    local stamp="$VENV/.bootstrap-stamp"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(stamp_value)" ]; then
        return 0
    fi
    # CPU torch first: with torch already present, the project's torch==2.13.0 pin installs nothing more.
    if ! "$VENV/bin/python" -c "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '2.13.0')" 2>/dev/null; then
        log "installing $TORCH_PIN (CPU wheel)"
        "$VENV/bin/python" -m pip install -q "$TORCH_PIN"
    fi
    # The math package is a distribution of its own (attention-math, not on PyPI): installed from its folder in the
    # same command, so pip takes the project's attention-math requirement from there.
    log "installing the math package (attention_math) and the project with its extras: test, narration, cluster, slides"
    "$VENV/bin/python" -m pip install -q -e "$ROOT/attention_math" -e "$ROOT[test,narration,cluster,slides]"
    stamp_value > "$stamp"
}

AXE_DIR="$ROOT/tests/a11y"

ensure_axe_core() {
    # axe-core audits the page and the decks for WCAG 2.2 A/AA in headless Chromium; npm installs the version
    # tests/a11y/package.json pins into tests/a11y/node_modules (git-ignored), once, for offline use after.
    local wanted installed
    wanted="$(sed -n 's/.*"axe-core": "\(.*\)".*/\1/p' "$AXE_DIR/package.json")"
    installed="$(sed -n 's/^  "version": "\(.*\)".*/\1/p' "$AXE_DIR/node_modules/axe-core/package.json" 2>/dev/null || true)"
    [ "$installed" = "$wanted" ] && return 0
    if ! command -v npm >/dev/null 2>&1; then
        local cmd="apt-get update && apt-get install -y --no-install-recommends nodejs npm"
        if [ "$(id -u)" -ne 0 ]; then
            log "npm is missing; run as root:  $cmd"
            exit 1
        fi
        log "installing Debian packages: nodejs npm"
        DEBIAN_FRONTEND=noninteractive bash -c "$cmd" >/dev/null
    fi
    log "installing axe-core $wanted (npm) into tests/a11y"
    npm install --prefix "$AXE_DIR" --no-audit --no-fund --no-save --silent >/dev/null
}

ensure_system_packages
ensure_venv
ensure_axe_core
