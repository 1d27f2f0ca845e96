#!/usr/bin/python3
"""Writes one generated module in the ctir text format and in MLIR 14, op for op.

    /usr/bin/python3 bench/peers/gen.py OPS OUT_PREFIX [SEED]
    /usr/bin/python3 bench/peers/gen.py --fibonacci OPS OUT_PREFIX

writes OUT_PREFIX.ctir and OUT_PREFIX.mlir. With --fibonacci the function is instead
`%k = add(%k-1, %k-2)`, OPS times (each value used twice: a DAG with 2^OPS paths, the
shape on which a pass that does not share work over the DAG never finishes). The function takes two
Tensor[(2), float32] / tensor<2xf32> parameters and is a chain of blocks of five
binary operator calls (ctir graph-level add/subtract/multiply, MLIR
arith.addf/subf/mulf), each bound to a value:

    a = add(prev, x)          the chain
    b = multiply(r_j, r_k)    two earlier block results: values used many times
    d = multiply(a, b)
    c = add(prev, x)          a duplicate of a: work for CSE
    r = subtract(d, c)        the block's result, prev of the next block

(in the order ctir-opt prints them, so that parsing and printing the .ctir file
gives the file back).

A quarter of the blocks reuse the (j, k) of an earlier block, so b repeats an
expression computed far above: CSE must find duplicates across the whole
function, not only next to each other. OPS is rounded down to a multiple of five;
both files hold exactly that many operator calls (MLIR: arith ops; the func and
return ops come on top). The draws come from a fixed-seed linear congruential
generator, so a size always gives the same module.
"""

import sys

OPS_PER_BLOCK = 5
WINDOW = 64


class Lcg:
    """A 64-bit linear congruential generator: the same numbers on every platform."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def below(self, bound):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return (self.state >> 33) % bound


def blocks(count, seed):
    """Yields per block the operand value numbers of b (results of earlier blocks)."""
    rng = Lcg(seed)
    pairs = []
    for i in range(count):
        if pairs and rng.below(4) == 0:
            j, k = pairs[rng.below(len(pairs))]
        else:
            # -1 and -2 stand for the parameters; block results come from a recent window.
            lo = max(-2, i - WINDOW)
            j = lo + rng.below(i - lo) if i > lo else -1
            k = lo + rng.below(i - lo) if i > lo else -2
        pairs.append((j, k))
        yield j, k


def write_fibonacci(ops, prefix):
    """Writes `%k = add(%k-1, %k-2)` (and arith.addf) OPS times."""
    tensor_ctir = "Tensor[(2), float32]"
    tensor_mlir = "tensor<2xf32>"
    with open(prefix + ".ctir", "w", encoding="utf-8") as ctir, open(
        prefix + ".mlir", "w", encoding="utf-8"
    ) as mlir:
        ctir.write(f"def @main(%x: {tensor_ctir}, %p: {tensor_ctir}) -> {tensor_ctir} {{\n")
        mlir.write(f"func @main(%x: {tensor_mlir}, %p: {tensor_mlir}) -> {tensor_mlir} {{\n")
        older, old = "%x", "%p"
        for k in range(ops):
            if k == ops - 1:
                ctir.write(f"  add({old}, {older})\n")
            else:
                ctir.write(f"  %{k} = add({old}, {older});\n")
            mlir.write(f"  %{k} = arith.addf {old}, {older} : {tensor_mlir}\n")
            older, old = old, f"%{k}"
        ctir.write("}\n")
        mlir.write(f"  return {old} : {tensor_mlir}\n}}\n")


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--fibonacci":
        write_fibonacci(int(sys.argv[2]), sys.argv[3])
        return
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    ops = int(sys.argv[1])
    prefix = sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) == 4 else 1
    count = ops // OPS_PER_BLOCK
    if count < 1:
        sys.exit("gen.py: OPS must be at least 5")

    # Value numbers: block i binds 5*i .. 5*i+4; its result is 5*i+4.
    def ctir_value(block):
        return {-1: "%x", -2: "%p"}[block] if block < 0 else f"%{OPS_PER_BLOCK * block + 4}"

    tensor_ctir = "Tensor[(2), float32]"
    tensor_mlir = "tensor<2xf32>"
    with open(prefix + ".ctir", "w", encoding="utf-8") as ctir, open(
        prefix + ".mlir", "w", encoding="utf-8"
    ) as mlir:
        ctir.write(f"def @main(%x: {tensor_ctir}, %p: {tensor_ctir}) -> {tensor_ctir} {{\n")
        mlir.write(f"func @main(%x: {tensor_mlir}, %p: {tensor_mlir}) -> {tensor_mlir} {{\n")
        prev = "%p"
        for i, (j, k) in enumerate(blocks(count, seed)):
            n = OPS_PER_BLOCK * i
            a, b, d, c, r = (f"%{n + m}" for m in range(OPS_PER_BLOCK))
            rows = [
                (a, "add", "arith.addf", prev, "%x"),
                (b, "multiply", "arith.mulf", ctir_value(j), ctir_value(k)),
                (d, "multiply", "arith.mulf", a, b),
                (c, "add", "arith.addf", prev, "%x"),
                (r, "subtract", "arith.subf", d, c),
            ]
            last = i == count - 1
            for m, (name, ctir_op, mlir_op, lhs, rhs) in enumerate(rows):
                if last and m == OPS_PER_BLOCK - 1:
                    # ctir: the body's result expression is the last call itself.
                    ctir.write(f"  {ctir_op}({lhs}, {rhs})\n")
                else:
                    ctir.write(f"  {name} = {ctir_op}({lhs}, {rhs});\n")
                mlir.write(f"  {name} = {mlir_op} {lhs}, {rhs} : {tensor_mlir}\n")
            prev = r
        ctir.write("}\n")
        mlir.write(f"  return {prev} : {tensor_mlir}\n}}\n")


if __name__ == "__main__":
    main()
