"""CPU check of the index arithmetic of branch bulk-fold-mul's copies (the bulk mainloop's Y, the staged mainloop's X
and Y) against main's copy functions: for every thread and tile of random shapes, slices and offsets, the same set of
(shared-memory word, source element or zero fill). The C++ of both is mirrored by hand (no GPU).

    python3 copy_check.py
"""
import random

T = 256

def staged_old(L, S, K_len, l0, s0, kb, ke, kRows, kTileK, stride, kY, xvec, t):
    out = set()
    k0 = kb + t * kTileK
    block_rows = 64
    for tid in range(T):
        if xvec:
            chunks = kTileK // 4; step = T // chunks; c = tid % chunks; k = k0 + 4 * c
            for p in range(block_rows // step):
                row = tid // chunks + p * step; inside = l0 + row < L
                for j in range(4):
                    ok = inside and k + j < ke
                    out.add(('x', row * stride + 4 * c + j, (l0 + row, k + j) if ok else None))
        else:
            step = T // kTileK; k = tid % kTileK
            for p in range(block_rows // step):
                row = tid // kTileK + p * step; ok = l0 + row < L and k0 + k < ke
                out.add(('x', row * stride + k, (l0 + row, k0 + k) if ok else None))
        E = kRows * kTileK
        for p in range((E + T - 1) // T):
            e = tid + p * T
            if E % T and e >= E: break
            s = e // kTileK if kY == 'K' else e % kRows
            k = e % kTileK if kY == 'K' else e // kRows
            ok = s0 + s < S and k0 + k < ke
            out.add(('y', s * stride + k, (s0 + s, k0 + k) if ok else None))
    return out

def staged_new(L, S, K_len, l0, s0, kb, ke, kRows, kTileK, stride, kY, xvec, t):
    out = set()
    width = 4 if xvec else 1; pieces = kTileK // width; xstep = T // pieces; xpasses = 64 // xstep
    sfast = kY == 'S'; E = kRows * kTileK; ypasses = (E + T - 1) // T
    pass_s = 0 if sfast else T // kTileK; pass_k = T // kRows if sfast else 0
    length = ke - kb; k_at = t * kTileK
    for tid in range(T):
        x_row = tid // pieces; x_k = width * (tid % pieces)
        rows_left = min(L - l0, 64) - x_row; k_left = length - x_k
        for p in range(xpasses):
            row = x_row + p * xstep; inside = p * xstep < rows_left
            if xvec and inside and k_at + 3 < k_left:
                for j in range(4): out.add(('x', row * stride + x_k + j, (l0 + row, kb + x_k + k_at + j)))
            else:
                for j in range(width):
                    ok = inside and k_at + j < k_left
                    out.add(('x', row * stride + x_k + j, (l0 + row, kb + x_k + k_at + j) if ok else None))
        s = tid % kRows if sfast else tid // kTileK; k = tid // kRows if sfast else tid % kTileK
        s_left = S - s0 - s; yk_left = length - k
        for p in range(ypasses):
            if E % T and tid + p * T >= E: break
            ds, dk = p * pass_s, p * pass_k
            ok = ds < s_left and k_at + dk < yk_left
            out.add(('y', (s + ds) * stride + k + dk, (s0 + s + ds, kb + k + k_at + dk) if ok else None))
    return out

def bulk_old(S, s0, kb, ke, kRows, kTileK, kY, by_k, t):
    out = set(); k0 = kb + t * kTileK; E = kRows * kTileK
    for tid in range(T):
        for p in range((E + T - 1) // T):
            e = tid + p * T
            if E % T and e >= E: break
            s = e % kRows if by_k else e // kTileK; k = e // kRows if by_k else e % kTileK
            ok = s0 + s < S and k0 + k < ke
            out.add((e, (s0 + s, k0 + k) if ok else None))
    return out

def bulk_new(S, s0, kb, ke, kRows, kTileK, kY, by_k, t):
    out = set(); E = kRows * kTileK; passes = (E + T - 1) // T
    for tid in range(T):
        for p in range(passes):
            e = tid + p * T
            s = e % kRows if by_k else e // kTileK; k = e // kRows if by_k else e % kTileK
            k_left = -1 if e >= E else (ke - kb - k if s0 + s < S and ke - kb - k > 0 else 0)
            if E % T and p == passes - 1 and k_left < 0: break
            ok = t * kTileK < k_left
            out.add((e, (s0 + s, kb + k + t * kTileK) if ok else None))
    return out

random.seed(1)
n = 0
for _ in range(300):
    kRows = random.choice([4, 8, 16]); kY = random.choice('KS'); xvec = random.choice([True, False])
    L = random.randint(1, 300); S = random.randint(1, 40); l0 = 64 * random.randint(0, (L - 1) // 64)
    s0 = kRows * random.randint(0, (S - 1) // kRows); kb = 64 * random.randint(0, 5); ke = kb + random.randint(1, 300)
    tiles = (ke - kb - 1) // 64 + 1
    for t in range(tiles):
        a = staged_old(L, S, 0, l0, s0, kb, ke, kRows, 64, 68, kY, xvec, t)
        b = staged_new(L, S, 0, l0, s0, kb, ke, kRows, 64, 68, kY, xvec, t)
        assert a == b, (kRows, kY, xvec, L, S, l0, s0, kb, ke, t, len(a ^ b))
        n += 1
for _ in range(300):
    kRows = random.choice([4, 8, 12, 16, 20, 24]); by_k = random.choice([True, False])
    S = random.randint(1, 30); s0 = 0; kb = 32 * random.randint(0, 5); ke = kb + random.randint(1, 300)
    for t in range((ke - kb - 1) // 32 + 1):
        assert bulk_old(S, s0, kb, ke, kRows, 32, 'S', by_k, t) == bulk_new(S, s0, kb, ke, kRows, 32, 'S', by_k, t)
        n += 1
print(n, "tile copies identical")
