"""matmul_opt's product as a PyTorch operator, `matmul_opt::mm` (torch.library): autograd and torch.compile.

Imported only when a PyTorch tensor reaches matmul() or, requiring grad, run(); importing it registers the operator
once per process. The operator's real implementation is run() on the tensors, detached (the library's checks and
errors, enqueued on PyTorch's current stream); its fake implementation gives torch.compile the result's shape without
touching the GPU, so a compiled model traces through it without a graph break. Its backward computes both gradients
with the same kernel: dA = dC·Bᵀ and dB = Aᵀ·dC, each transposed operand passed as PyTorch's transposed view, which
the library reads as stored (op = T) instead of copying it.
"""
from __future__ import annotations

import torch

from . import api


@torch.library.custom_op("matmul_opt::mm", mutates_args=())
def _mm(a: torch.Tensor, b: torch.Tensor, kernel: str) -> torch.Tensor:
    return api.run(kernel, a.detach(), b.detach())


@_mm.register_fake
def _mm_fake(a: torch.Tensor, b: torch.Tensor, kernel: str) -> torch.Tensor:
    torch._check(a.dim() == 2 and b.dim() == 2, lambda: f"matmul_opt::mm multiplies matrices, got {a.dim()}-D and "
                 f"{b.dim()}-D tensors")
    torch._check(a.shape[1] == b.shape[0], lambda: f"matmul_opt::mm: A is {tuple(a.shape)} and B is "
                 f"{tuple(b.shape)}; A's columns must equal B's rows")
    torch._check(a.dtype == torch.float32 and b.dtype == torch.float32,
                 lambda: f"matmul_opt::mm takes float32 tensors, got {a.dtype} and {b.dtype}")
    return a.new_empty((a.shape[0], b.shape[1]))


def _setup_context(ctx, inputs, output) -> None:
    a, b, kernel = inputs
    ctx.save_for_backward(a, b)
    ctx.kernel = kernel


def _backward(ctx, grad: torch.Tensor):
    a, b = ctx.saved_tensors
    grad_a = product(grad, b.t(), ctx.kernel) if ctx.needs_input_grad[0] else None
    grad_b = product(a.t(), grad, ctx.kernel) if ctx.needs_input_grad[1] else None
    return grad_a, grad_b, None


_mm.register_autograd(_backward, setup_context=_setup_context)


def product(a: torch.Tensor, b: torch.Tensor, kernel: str) -> torch.Tensor:
    """a @ b through the operator (what matmul() and run() call for tensors)."""
    return torch.ops.matmul_opt.mm(a, b, kernel)
