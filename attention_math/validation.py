"""Input checks shared by every attention function and module.

Each check raises ``ValueError`` with a message that names the offending argument, its shape or value,
and what would have been valid, so a wrong call fails at the boundary instead of deep inside a matmul.
"""

from __future__ import annotations

from collections.abc import Iterable

import torch


def _shape(t: torch.Tensor) -> tuple[int, ...]:
    return tuple(t.shape)


def check_tensor(name: str, t: object) -> torch.Tensor:
    """Require a torch tensor (with a floating dtype) and return it."""
    if not isinstance(t, torch.Tensor):
        raise ValueError(f"{name} must be a torch.Tensor, got {type(t).__name__}")
    if not t.is_floating_point():
        raise ValueError(f"{name} must have a floating dtype, got {t.dtype}")
    return t


def check_dtype(name: str, t: object, expected: torch.dtype, what: str) -> torch.Tensor:
    """Require a tensor of exactly ``expected`` dtype; ``what`` says where that dtype comes from.

    torch's matmul does not promote: float64 (or float16, or int64) input against float32 weights fails deep
    inside with a RuntimeError, so the dtype is checked at the boundary instead.
    """
    if not isinstance(t, torch.Tensor):
        raise ValueError(f"{name} must be a torch.Tensor of dtype {expected} ({what}), got {type(t).__name__}")
    if t.dtype != expected:
        raise ValueError(f"{name} has dtype {t.dtype}, expected {expected} ({what}); convert it with "
                         f"{name}.to({expected})")
    return t


def check_rank(name: str, t: object, ranks: int | Iterable[int]) -> torch.Tensor:
    """Require ``t.dim()`` to be one of ``ranks``."""
    t = check_tensor(name, t)
    allowed = (ranks,) if isinstance(ranks, int) else tuple(ranks)
    if t.dim() not in allowed:
        want = " or ".join(str(r) for r in allowed)
        raise ValueError(f"{name} must have rank {want}, got rank {t.dim()} with shape {_shape(t)}")
    return t


def check_min_rank(name: str, t: object, min_rank: int) -> torch.Tensor:
    """Require at least ``min_rank`` dimensions (extra leading dims are batch dims)."""
    t = check_tensor(name, t)
    if t.dim() < min_rank:
        raise ValueError(f"{name} must have at least {min_rank} dims, got shape {_shape(t)}")
    return t


def check_size(name: str, t: torch.Tensor, dim: int, size: int, what: str) -> torch.Tensor:
    """Require ``t.shape[dim] == size``; ``what`` says where ``size`` comes from."""
    if t.shape[dim] != size:
        raise ValueError(f"{name} has size {t.shape[dim]} in dim {dim} (shape {_shape(t)}), expected {size} ({what})")
    return t


def check_positive_int(name: str, value: object) -> int:
    """Require a positive Python int (bools are rejected)."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    return value


def check_dropout(p: object) -> float:
    """Dropout probability must lie in [0, 1): p == 1 would divide by zero in the 1/(1-p) rescale."""
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not (0.0 <= float(p) < 1.0):
        raise ValueError(f"dropout must be a number in [0, 1), got {p!r}")
    return float(p)


def check_heads(d_out: int, n_heads: int) -> int:
    """Require ``d_out`` to split evenly into ``n_heads`` heads; return head_dim."""
    check_positive_int("d_out", d_out)
    check_positive_int("n_heads", n_heads)
    if d_out % n_heads != 0:
        valid = [h for h in range(1, d_out + 1) if d_out % h == 0]
        raise ValueError(f"d_out={d_out} is not divisible by n_heads={n_heads}; valid n_heads: {valid}")
    return d_out // n_heads


def check_context(T: int, context_length: int) -> None:
    """The causal mask buffer is context_length x context_length; longer inputs cannot be masked."""
    if T > context_length:
        raise ValueError(f"sequence length T={T} exceeds context_length={context_length}")


def check_index(name: str, index: object, length: int) -> int:
    """Require ``0 <= index < length``."""
    if isinstance(index, bool) or not isinstance(index, int) or not (0 <= index < length):
        raise ValueError(f"{name} must be an int in [0, {length}), got {index!r}")
    return index


def check_qkv(Q: object, K: object, V: object) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Q (..., T_q, d_k), K (..., T_k, d_k), V (..., T_k, d_v): matching d_k, matching T_k, same batch dims."""
    Q = check_min_rank("Q", Q, 2)
    K = check_min_rank("K", K, 2)
    V = check_min_rank("V", V, 2)
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(f"query/key size mismatch: Q {_shape(Q)} and K {_shape(K)} must share the last dim d_k")
    if K.shape[-2] != V.shape[-2]:
        raise ValueError(f"key/value length mismatch: K {_shape(K)} and V {_shape(V)} must share dim -2 (T_k)")
    if not (Q.shape[:-2] == K.shape[:-2] == V.shape[:-2]):
        raise ValueError(f"batch dims differ: Q {_shape(Q)}, K {_shape(K)}, V {_shape(V)}")
    return Q, K, V


def check_projection(name: str, W: object, d_in: int) -> torch.Tensor:
    """A math-layout projection matrix (d_in, d_out), applied as ``X @ W``."""
    W = check_rank(name, W, 2)
    if W.shape[0] != d_in:
        raise ValueError(f"{name} has shape {_shape(W)} but the input width is {d_in}; expected ({d_in}, d_out)")
    return W


def check_bias(name: str, b: object, width: int) -> torch.Tensor | None:
    """Optional bias of shape (width,)."""
    if b is None:
        return None
    b = check_rank(name, b, 1)
    if b.shape[0] != width:
        raise ValueError(f"{name} has shape {_shape(b)}, expected ({width},)")
    return b
