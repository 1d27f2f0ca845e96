// Tensor-level statements: blocks, loops, stores, bindings, conditionals, allocations.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/ir/expr_base.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/var.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ctir {

/// A block: statements run in order. Every `{ ... }` of the text format is one.
struct SeqStmtNode final : StmtNode {
  CTIR_NODE(SeqStmtNode, StmtNode, "ir.SeqStmt");
  std::vector<Stmt> seq;
  CTIR_FIELDS(CTIR_FIELD(seq).block());

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<SeqStmtNode> make(std::vector<Stmt> seq);
  };
};
using SeqStmt = Ref<SeqStmtNode>;

/// `body` as a block: itself if it already is a SeqStmt, else a one-statement SeqStmt.
SeqStmt as_block(Stmt body);

/// How a loop's iterations are executed.
enum class ForKind : std::uint8_t { serial, parallel, vectorized, unroll };

/// The keyword of a loop kind in the text format: `range`, `parallel`, ...
constexpr std::string_view to_string(ForKind kind) noexcept {
  switch (kind) {
  case ForKind::serial:
    return "range";
  case ForKind::parallel:
    return "parallel";
  case ForKind::vectorized:
    return "vectorized";
  case ForKind::unroll:
    return "unroll";
  }
  return "?";
}

template <>
struct value_traits<ForKind> {
  static constexpr bool equal(ForKind a, ForKind b) noexcept { return a == b; }
  static constexpr std::uint64_t hash(ForKind a) noexcept {
    return hash_combine(0xF0, static_cast<std::uint64_t>(a));
  }
  static void print(ForKind a, std::string& out) { out += to_string(a); }
};

/// `for %var in range(begin, end) { body }`: defines `var` for the body.
struct ForNode final : StmtNode {
  CTIR_NODE(ForNode, StmtNode, "ir.For");
  Var var;
  PrimExpr begin;
  PrimExpr end;
  SeqStmt body;
  ForKind kind = ForKind::serial;
  CTIR_FIELDS(CTIR_FIELD(var).def_simple().scope_over("body"), CTIR_FIELD(begin), CTIR_FIELD(end),
              CTIR_FIELD(body), CTIR_FIELD(kind).elide_default());

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<ForNode> make(Var var, PrimExpr begin, PrimExpr end, Stmt body,
                             ForKind kind = ForKind::serial);
  };
};
using For = Ref<ForNode>;

/// `%dest[indices] = value;`
struct TensorStoreNode final : StmtNode {
  CTIR_NODE(TensorStoreNode, StmtNode, "ir.TensorStore");
  Var dest;
  std::vector<PrimExpr> indices;
  PrimExpr value;
  CTIR_FIELDS(CTIR_FIELD(dest), CTIR_FIELD(indices), CTIR_FIELD(value));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<TensorStoreNode> make(Var dest, std::vector<PrimExpr> indices, PrimExpr value);
  };
};
using TensorStore = Ref<TensorStoreNode>;

/// `let %var = value;`: defines `var` for the rest of the enclosing block.
struct BindNode final : StmtNode {
  CTIR_NODE(BindNode, StmtNode, "ir.Bind");
  Var var;
  PrimExpr value;
  CTIR_FIELDS(CTIR_FIELD(var).def_simple().scope_to_block_end(), CTIR_FIELD(value));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<BindNode> make(Var var, PrimExpr value);
  };
};
using Bind = Ref<BindNode>;

/// `if (cond) { then_case } else { else_case }`; else_case may be null.
struct IfThenElseNode final : StmtNode {
  CTIR_NODE(IfThenElseNode, StmtNode, "ir.IfThenElse");
  PrimExpr cond;
  SeqStmt then_case;
  SeqStmt else_case;
  CTIR_FIELDS(CTIR_FIELD(cond), CTIR_FIELD(then_case), CTIR_FIELD(else_case));

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<IfThenElseNode> make(PrimExpr cond, Stmt then_case, Stmt else_case = {});
  };
};
using IfThenElse = Ref<IfThenElseNode>;

/// `alloc %buffer: Tensor[...];`: a local tensor for the rest of the enclosing block;
/// its shape and dtype are the buffer variable's TensorType.
struct AllocateNode final : StmtNode {
  CTIR_NODE(AllocateNode, StmtNode, "ir.Allocate");
  Var buffer;
  CTIR_FIELDS(CTIR_FIELD(buffer).def_pattern().scope_to_block_end());

  /// Factories, reached through the Ref: `For::make(...)`.
  struct ref_methods {
    static Ref<AllocateNode> make(Var buffer);
  };
};
using Allocate = Ref<AllocateNode>;

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/tensor/stmt-inl.hpp>
#endif
