// Definitions of <ctir/passes/detail/legalize_reduction.hpp>.
#pragma once

#include <ctir/passes/detail/legalize_reduction.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/passes/detail/legalize_common.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ctir::passes::detail {

/// How a reduction accumulates: into a float64 buffer for float32 and float16 (the
/// kernel's float64 accumulator), into the output element otherwise.
struct Accumulation {
  DataType dtype;
  Var acc; // null: the output element itself

  explicit Accumulation(DataType element) : dtype(element) {
    if (element.is_float() && element.bits != 64) {
      acc = Var::make("acc", TensorType::make({}, DataType::float64()));
    }
  }
  /// What goes before the loops (the accumulator's allocation).
  void prologue(std::vector<Stmt>& body) const {
    if (acc.defined()) {
      body.push_back(Allocate::make(acc));
    }
  }
  PrimExpr widen(PrimExpr x) const { return acc.defined() ? cast(DataType::float64(), x) : x; }
  /// `reduce` (the loops adding into the accumulator, given a function that makes one
  /// addition) framed by the initialization and the final store into `out[idx]`.
  Stmt wrap(const Var& out, const std::vector<PrimExpr>& idx,
            const std::function<Stmt(const std::function<Stmt(PrimExpr)>&)>& reduce) const {
    const Var target = acc.defined() ? acc : out;
    const std::vector<PrimExpr> at = acc.defined() ? std::vector<PrimExpr>{} : idx;
    const DataType acc_dtype = acc.defined() ? DataType::float64() : dtype;
    std::vector<Stmt> seq;
    seq.push_back(TensorStore::make(target, at, make_const(acc_dtype, 0)));
    seq.push_back(reduce([&](PrimExpr term) -> Stmt {
      return TensorStore::make(target, at, load(target, at) + std::move(term));
    }));
    if (acc.defined()) {
      seq.push_back(TensorStore::make(out, idx, cast(dtype, load(acc, {}))));
    }
    return SeqStmt::make(std::move(seq));
  }
};

CTIR_INLINE Stmt lower_matmul(const LegalizeCall& call) {
  const auto out = call.output_shape();
  const auto a = call.input_shape(0);
  const auto b = call.input_shape(1);
  const std::size_t rank = out.size();
  const std::vector<std::int64_t> batch(out.begin(), out.end() - 2);
  const std::vector<std::int64_t> batch_a(a.begin(), a.end() - 2);
  const std::vector<std::int64_t> batch_b(b.begin(), b.end() - 2);
  const std::int64_t inner = a.back();
  const Accumulation accumulation(call.output_type->dtype);
  std::vector<Stmt> body;
  accumulation.prologue(body);
  append(body, call.loop_nest(out, "i", [&](const std::vector<PrimExpr>& idx) -> Stmt {
    const std::vector<PrimExpr> outer(idx.begin(), idx.end() - 2);
    std::vector<PrimExpr> ia = broadcast_indices(call, batch_a, batch, outer);
    std::vector<PrimExpr> ib = broadcast_indices(call, batch_b, batch, outer);
    const Var k = Var::make("k", call.index_dtype);
    ia.push_back(idx[rank - 2]);
    ia.push_back(k);
    ib.push_back(k);
    ib.push_back(idx[rank - 1]);
    return accumulation.wrap(call.output, idx, [&](const auto& add) -> Stmt {
      return For::make(k, call.index(0), call.index(inner),
                       add(accumulation.widen(load(call.inputs[0], ia)) *
                           accumulation.widen(load(call.inputs[1], ib))));
    });
  }));
  return SeqStmt::make(std::move(body));
}

CTIR_INLINE Stmt lower_sum(const LegalizeCall& call) {
  const auto in = call.input_shape(0);
  const std::size_t rank = in.size();
  std::vector<bool> reduced(rank, !call.attrs.contains("axis"));
  for (std::size_t axis : axes_attr(call, "axis", rank)) {
    reduced[axis] = true;
  }
  const bool keepdims = call.attrs.get<bool>("keepdims").value_or(false);
  const Accumulation accumulation(call.output_type->dtype);
  std::vector<Stmt> body;
  accumulation.prologue(body);
  append(body,
         call.loop_nest(call.output_shape(), "i", [&](const std::vector<PrimExpr>& idx) -> Stmt {
           // The input index: output loop variables for the kept axes, reduction variables for
           // the others; the reduction loops run in axis order, as the kernel adds.
           std::vector<PrimExpr> at(rank);
           std::vector<std::pair<Var, std::int64_t>> loops;
           for (std::size_t d = 0, kept = 0; d < rank; ++d) {
             if (reduced[d]) {
               loops.emplace_back(Var::make("r" + std::to_string(loops.size()), call.index_dtype),
                                  in[d]);
               at[d] = loops.back().first;
               kept += keepdims ? 1 : 0;
             } else {
               at[d] = idx[kept++];
             }
           }
           return accumulation.wrap(call.output, idx, [&](const auto& add) -> Stmt {
             Stmt stmt = add(accumulation.widen(load(call.inputs[0], at)));
             for (std::size_t l = loops.size(); l-- > 0;) {
               stmt = For::make(loops[l].first, call.index(0), call.index(loops[l].second), stmt);
             }
             return stmt;
           });
         }));
  return SeqStmt::make(std::move(body));
}

} // namespace ctir::passes::detail
