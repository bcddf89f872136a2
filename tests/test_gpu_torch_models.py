"""GPU tier: matmul_opt inside PyTorch models. Both gradients of matmul() (and of run() on tensors that require
grad) against a float64 autograd reference, on plain, transposed and sliced operands; the operator matmul_opt::mm
under torch.library.opcheck (schema, fake implementation, autograd registration, AOT dispatch); a model under
torch.compile with fullgraph=True (a graph break fails it); and a two-layer MLP whose loss curve follows
torch.matmul's at fp32."""
import pytest

import matmul_opt
from matmul_opt.accuracy import tolerance

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")

LAYOUTS = ["plain", "transposed", "sliced"]


def leaf(rows, cols, layout, generator):
    """(the leaf tensor that requires grad, the rows x cols operand taken from it by `layout`)."""
    stored = {"plain": (rows, cols), "transposed": (cols, rows), "sliced": (rows, cols + 3)}[layout]
    base = (torch.rand(stored, device="cuda", generator=generator) * 2 - 1).requires_grad_()
    return base, {"plain": lambda t: t, "transposed": lambda t: t.t(), "sliced": lambda t: t[:, 1:cols + 1]}[layout]


def relative_error(x, reference):
    return ((x.double() - reference).norm() / reference.norm()).item()


@pytest.mark.parametrize("entry", ["matmul", "run"])
@pytest.mark.parametrize("layout_b", LAYOUTS)
@pytest.mark.parametrize("layout_a", LAYOUTS)
@pytest.mark.parametrize("shape", [(96, 80, 112), (5, 300, 1000), (1000, 7, 513)], ids=lambda s: "x".join(map(str, s)))
def test_both_gradients_match_a_float64_reference(shape, layout_a, layout_b, entry):
    M, K, N = shape
    generator = torch.Generator(device="cuda").manual_seed(M + 3 * K + N)
    a_base, a_view = leaf(M, K, layout_a, generator)
    b_base, b_view = leaf(K, N, layout_b, generator)
    weight = torch.rand(M, N, device="cuda", generator=generator) * 2 - 1
    C = matmul_opt.matmul(a_view(a_base), b_view(b_base)) if entry == "matmul" else \
        matmul_opt.run("best", a_view(a_base), b_view(b_base))
    (C * weight).sum().backward()

    a64, b64 = (t.detach().double().requires_grad_() for t in (a_base, b_base))
    C64 = a_view(a64) @ b_view(b64)
    (C64 * weight.double()).sum().backward()
    assert relative_error(C.detach(), C64.detach()) <= tolerance("fp32", K)
    assert relative_error(a_base.grad, a64.grad) <= tolerance("fp32", N), "dA"
    assert relative_error(b_base.grad, b64.grad) <= tolerance("fp32", M), "dB"


@pytest.mark.parametrize("precision, arithmetic", [("high", "tf32"), ("highest", "fp32_tensor")])
def test_a_precision_reaches_the_operator_and_both_gradients(precision, arithmetic):
    """The dispatcher of the precision computes the product and both gradients (on a compute-bound shape, where
    best_tf32 runs on tensor cores wherever the table says so)."""
    generator = torch.Generator(device="cuda").manual_seed(23)
    a = (torch.rand(1024, 768, device="cuda", generator=generator) * 2 - 1).requires_grad_()
    b = (torch.rand(768, 640, device="cuda", generator=generator) * 2 - 1).requires_grad_()
    C = matmul_opt.matmul(a, b, precision=precision)
    C.sum().backward()
    a64, b64 = (t.detach().double().requires_grad_() for t in (a, b))
    (a64 @ b64).sum().backward()
    assert relative_error(C.detach(), a64.detach() @ b64.detach()) <= tolerance(arithmetic, 768)
    assert relative_error(a.grad, a64.grad) <= tolerance(arithmetic, 640), "dA"
    assert relative_error(b.grad, b64.grad) <= tolerance(arithmetic, 1024), "dB"


def test_only_the_operand_that_requires_grad_gets_one():
    generator = torch.Generator(device="cuda").manual_seed(7)
    a = (torch.rand(64, 32, device="cuda", generator=generator) * 2 - 1).requires_grad_()
    b = torch.rand(32, 48, device="cuda", generator=generator) * 2 - 1
    matmul_opt.matmul(a, b).sum().backward()
    assert a.grad is not None and a.grad.shape == a.shape and b.grad is None


def test_run_on_tensors_that_require_grad_refuses_what_it_cannot_differentiate():
    a = torch.rand(8, 8, device="cuda").requires_grad_()
    b = torch.rand(8, 8, device="cuda")
    for call in (lambda: matmul_opt.run("best", a, b, alpha=2.0), lambda: matmul_opt.run("best", a, b, out=b.clone())):
        with pytest.raises(ValueError, match="requires grad.*detach"):
            call()


def test_the_operator_passes_opcheck():
    generator = torch.Generator(device="cuda").manual_seed(11)
    a = (torch.rand(70, 33, device="cuda", generator=generator) * 2 - 1).requires_grad_()
    b = (torch.rand(33, 45, device="cuda", generator=generator) * 2 - 1).requires_grad_()
    matmul_opt.matmul(a, b)  # registers the operator
    torch.library.opcheck(torch.ops.matmul_opt.mm.default, (a, b, "best"))
    torch.library.opcheck(torch.ops.matmul_opt.mm.default, (a.detach(), b.detach().t().contiguous().t(), "tma"))


def two_layers(x, w1, w2):
    return matmul_opt.matmul(torch.relu(matmul_opt.matmul(x, w1)), w2)


def test_torch_compile_traces_a_model_without_graph_breaks():
    generator = torch.Generator(device="cuda").manual_seed(13)
    x = torch.rand(128, 64, device="cuda", generator=generator) * 2 - 1
    w1, w2 = ((torch.rand(s, device="cuda", generator=generator) * 2 - 1).requires_grad_() for s in ((64, 96), (96, 10)))
    torch._dynamo.reset()
    compiled = torch.compile(two_layers, fullgraph=True)  # a graph break raises
    out = compiled(x, w1, w2)
    expected = two_layers(x, w1, w2)
    assert torch.equal(out, expected)
    out.sum().backward()
    compiled_grads = (w1.grad.clone(), w2.grad.clone())
    w1.grad, w2.grad = None, None
    expected.sum().backward()
    assert torch.equal(compiled_grads[0], w1.grad) and torch.equal(compiled_grads[1], w2.grad)


def train(product, steps=40):
    """The losses of a two-layer MLP trained by SGD, every multiplication through `product`."""
    generator = torch.Generator(device="cuda").manual_seed(17)
    x = torch.randn(512, 48, device="cuda", generator=generator)
    y = torch.randn(512, 10, device="cuda", generator=generator)
    w1 = (torch.randn(48, 96, device="cuda", generator=generator) * 0.15).requires_grad_()
    w2 = (torch.randn(96, 10, device="cuda", generator=generator) * 0.15).requires_grad_()
    b1, b2 = torch.zeros(96, device="cuda", requires_grad=True), torch.zeros(10, device="cuda", requires_grad=True)
    optimizer = torch.optim.SGD([w1, b1, w2, b2], lr=0.1)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(product(torch.relu(product(x, w1) + b1), w2) + b2, y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def test_an_mlp_trains_to_the_loss_curve_of_torch_matmul():
    tf32 = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False  # the reference in fp32
    try:
        expected = train(torch.matmul)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = tf32
    losses = train(matmul_opt.matmul)
    assert losses[-1] < 0.9 * losses[0], losses
    for step, (got, want) in enumerate(zip(losses, expected)):
        assert abs(got - want) <= 1e-4 * want, f"step {step}: loss {got} against torch.matmul's {want}"
