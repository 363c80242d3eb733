"""attention_math must stay importable without manim (render-free tests and tools rely on it)."""

import subprocess
import sys


def test_import_attention_math_does_not_import_manim():
    code = (
        "import sys, attention_math, attention_math.examples as e; "
        "e.load('coffee'); "
        "assert 'manim' not in sys.modules, sorted(m for m in sys.modules if 'manim' in m); print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_the_four_post_modules_import_from_the_package_without_manim():
    code = (
        "import sys; "
        "from attention_math import SelfAttention, CausalSelfAttention, MultiHeadCausalAttentionStacked, "
        "MultiHeadCausalAttention; "
        "import attention_math.modules as m; "
        "assert (SelfAttention, CausalSelfAttention, MultiHeadCausalAttentionStacked, MultiHeadCausalAttention) == "
        "(m.SelfAttention, m.CausalSelfAttention, m.MultiHeadCausalAttentionStacked, m.MultiHeadCausalAttention); "
        "assert 'manim' not in sys.modules, sorted(m for m in sys.modules if 'manim' in m); print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
