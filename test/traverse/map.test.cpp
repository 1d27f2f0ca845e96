// Tests of include/ctir/traverse/map.hpp: seed 003's specialize and rename, path rebuilding,
// allocation-free "unchanged", Mapped views, variable repointing and the error cases.
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/walk.hpp>

#include "counting_new.hpp"
#include "deep_nesting.hpp"
#include "traverse_testing.hpp"

#include <doctest/doctest.h>

#include <string>
#include <unordered_map>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

bool is_zero(const PrimExpr& e) {
  const auto* imm = e.as<IntImmNode>();
  return imm != nullptr && imm->value == 0;
}

/// Every node of a tree, in pre-order.
std::vector<const Object*> nodes_of(const ObjectRef& root) {
  std::vector<const Object*> nodes;
  walk(
      root, [&](const Object& node) { nodes.push_back(&node); }, pre_order);
  return nodes;
}

} // namespace

TEST_CASE("map specializes n to 128 in both parameter shapes and the loop bound") {
  AddOne add_one;
  PrimFunc add_128 = map(add_one.func, [&](const Var& v) -> PrimExpr {
    return v.same_as(add_one.n) ? PrimExpr(IntImm::make(128)) : PrimExpr(v);
  });
  REQUIRE(add_128.defined());
  CHECK_FALSE(add_128.same_as(add_one.func));
  const Var& A = add_128->params[0];
  const Var& B = add_128->params[1];
  // The parameters are new variables, since their types changed.
  CHECK_FALSE(A.same_as(add_one.A));
  CHECK_FALSE(B.same_as(add_one.B));
  CHECK(A->name == "A");
  CHECK(dim_of(A).as<IntImmNode>()->value == 128);
  CHECK(dim_of(B).as<IntImmNode>()->value == 128);
  CHECK(loop_of(add_128).end.as<IntImmNode>()->value == 128);
  // The body refers to the new A and B.
  CHECK(store_of(add_128).dest.same_as(B));
  CHECK(load_of(add_128).source.same_as(A));
  // The loop variable is untouched.
  CHECK(loop_of(add_128).var.same_as(add_one.i));
  // The original is unchanged.
  CHECK(dim_of(add_one.A).same_as(add_one.n));
  CHECK(loop_of(add_one.func).end.same_as(add_one.n));
  CHECK(store_of(add_one.func).dest.same_as(add_one.B));
}

TEST_CASE("no occurrence of n survives the specialization") {
  AddOne add_one;
  PrimFunc add_128 = map(add_one.func, [&](const Var& v) -> MapResult<PrimExpr> {
    if (v.same_as(add_one.n)) {
      return IntImm::make(128);
    }
    return unchanged;
  });
  int n_left = 0;
  walk(add_128, [&](const Var& v) { n_left += v.same_as(add_one.n) ? 1 : 0; });
  CHECK(n_left == 0);
}

TEST_CASE("map returns the same object when nothing changed") {
  AddOne add_one;
  PrimFunc same = map(add_one.func, [](const Var& v) { return v; });
  CHECK(same.same_as(add_one.func));
  PrimFunc kept = map(add_one.func, [](const Add&) { return unchanged; });
  CHECK(kept.same_as(add_one.func));
  PrimFunc none = map(add_one.func, [](const Object& node) { return ref_of(&node); });
  CHECK(none.same_as(add_one.func));
}

TEST_CASE("map that changes nothing allocates nothing" * doctest::skip(!counts_allocations)) {
  AddOne add_one;
  const long before = allocation_count.load();
  PrimFunc kept = map(add_one.func, [](const Add&) { return unchanged; });
  PrimFunc same = map(add_one.func, [](const Var& v) -> MapResult<PrimExpr> {
    if (v->name == "nothing") {
      return IntImm::make(0);
    }
    return unchanged;
  });
  const long after = allocation_count.load();
  CHECK(after == before);
  CHECK(kept.same_as(add_one.func));
  CHECK(same.same_as(add_one.func));
}

TEST_CASE("map never modifies its input") {
  AddOne add_one;
  const std::vector<const Object*> before = nodes_of(add_one.func);
  PrimFunc add_128 = map(
      add_one.func, [&](const IntImm& imm) -> PrimExpr { return IntImm::make(imm->value + 1); });
  CHECK(nodes_of(add_one.func) == before);
  CHECK(loop_of(add_one.func).begin.as<IntImmNode>()->value == 0);
  CHECK(loop_of(add_128).begin.as<IntImmNode>()->value == 1);
}

TEST_CASE("map rebuilds only the path from a replacement to the root") {
  Var x = Var::make("x", DataType::int32());
  Var y = Var::make("y", DataType::int32());
  PrimExpr left = x * 2;
  PrimExpr right = y * 3;
  PrimExpr root = (left + 1) - right;
  PrimExpr out = map(root, [&](const IntImm& imm) -> PrimExpr {
    return imm->value == 1 ? PrimExpr(IntImm::make(10)) : PrimExpr(imm);
  });
  const auto* sub = out.as<SubNode>();
  REQUIRE(sub != nullptr);
  CHECK_FALSE(out.same_as(root));
  CHECK(sub->b.same_as(right)); // the untouched sibling is shared
  const auto* add = sub->a.as<AddNode>();
  REQUIRE(add != nullptr);
  CHECK(add->a.same_as(left)); // shared too
  CHECK(add->b.as<IntImmNode>()->value == 10);
}

TEST_CASE("a callback on BinaryExprNode sees every binary operator, each rebuilt as itself") {
  Var x = Var::make("x", DataType::int32());
  Var y = Var::make("y", DataType::int32());
  PrimExpr root = ((x + 1) * (x - 2)) / 3;
  int operators = 0;
  walk(root, [&](const Ref<BinaryExprNode>&) { ++operators; });
  CHECK(operators == 4);
  CHECK(map(root, [](const Ref<BinaryExprNode>& e) -> PrimExpr { return e; }).same_as(root));
  // No callback matches an operator here: they share one copy of the map's code, which
  // must still rebuild each with its own type.
  PrimExpr out = map(root, [&](const Var& v) -> PrimExpr { return v.same_as(x) ? y : v; });
  const auto* div = out.as<DivNode>();
  REQUIRE(div != nullptr);
  const auto* mul = div->a.as<MulNode>();
  REQUIRE(mul != nullptr);
  REQUIRE(mul->a.as<AddNode>() != nullptr);
  REQUIRE(mul->b.as<SubNode>() != nullptr);
  CHECK(mul->a.as<AddNode>()->a.same_as(y));
  CHECK(mul->b.as<SubNode>()->a.same_as(y));
  CHECK(div->b.same_as(root.as<DivNode>()->b));
}

TEST_CASE("a changed leaf costs one allocation per node on its path" *
          doctest::skip(!counts_allocations)) {
  AddOne add_one;
  const long before = allocation_count.load();
  PrimFunc out = map(add_one.func, [&](const FloatImm& imm) -> PrimExpr {
    return FloatImm::make(imm->value + 1);
  });
  const long after = allocation_count.load();
  // The FloatImm, then the Add, the TensorStore (+ a copy of its index vector), the SeqStmt
  // (+ its new vector), the For, the SeqStmt (+ its new vector) and the PrimFunc (+ a copy
  // of its parameter vector): what a hand-written rebuild allocates too.
  CHECK(after - before == 11);
  CHECK(out->params[0].same_as(add_one.A));
  CHECK(loop_of(out).var.same_as(add_one.i));
  CHECK(store_of(out).value.as<AddNode>()->b.as<FloatImmNode>()->value == 2.0);
}

TEST_CASE("a post-order callback sees its node with the children already mapped") {
  Var x = Var::make("x", DataType::int32());
  PrimExpr e = (x + 0) * (x + 0);
  int adds_seen = 0;
  PrimExpr out = map(
      e, [&](const Add& add) -> PrimExpr { return is_zero(add->b) ? add->a : PrimExpr(add); },
      [&](const Mul& mul) -> PrimExpr {
        // Both operands were folded before the Mul is seen.
        adds_seen += mul->a.same_as(x) && mul->b.same_as(x) ? 1 : 0;
        return mul;
      });
  CHECK(adds_seen == 1);
  const auto* mul = out.as<MulNode>();
  REQUIRE(mul != nullptr);
  CHECK(mul->a.same_as(x));
  CHECK(mul->b.same_as(x));
}

TEST_CASE("a rule taking Mapped<Add> drops x + 0 without building the dropped node") {
  Var x = Var::make("x", DataType::int32());
  Var y = Var::make("y", DataType::int32());
  // (x * 1 + 0): the inner rule changes the Add's child, the outer drops the Add.
  PrimExpr e = (x * 1) + 0;
  auto fold_mul = [](const Mul& mul) -> PrimExpr {
    const auto* one = mul->b.as<IntImmNode>();
    return one != nullptr && one->value == 1 ? mul->a : PrimExpr(mul);
  };
  auto fold_add = [](const Mapped<Add>& add) -> MapResult<PrimExpr> {
    if (is_zero(add[&AddNode::b])) {
      return add[&AddNode::a];
    }
    return unchanged;
  };
  const long before = allocation_count.load();
  PrimExpr out = map(e, fold_mul, fold_add);
  const long after = allocation_count.load();
  CHECK(out.same_as(x));
  if (counts_allocations) {
    CHECK(after == before); // no Add(x, 0) was built only to be dropped
  }

  // When the rule keeps the node, "unchanged" keeps it with its mapped children.
  PrimExpr kept = map((x * 1) + y, fold_mul, fold_add);
  const auto* add = kept.as<AddNode>();
  REQUIRE(add != nullptr);
  CHECK(add->a.same_as(x));
  CHECK(add->b.same_as(y));
}

TEST_CASE("Mapped shows the original node, the mapped fields and the rebuilt node") {
  Var x = Var::make("x", DataType::int32());
  Var y = Var::make("y", DataType::int32());
  PrimExpr e = x + 1;
  PrimExpr seen_original;
  PrimExpr seen_a;
  PrimExpr seen_b;
  bool changed = false;
  PrimExpr out = map(
      e, [&](const Var& v) -> PrimExpr { return v.same_as(x) ? PrimExpr(y) : PrimExpr(v); },
      [&](const Mapped<AddNode>& add) -> PrimExpr {
        seen_original = add.original();
        seen_a = add.get<&AddNode::a>();
        seen_b = add[&AddNode::b];
        changed = add.changed();
        const Ref<AddNode>& rebuilt = add.node();
        CHECK(rebuilt.same_as(add.node())); // built once
        CHECK(rebuilt->a.same_as(y));
        return rebuilt;
      });
  CHECK(seen_original.same_as(e));
  CHECK(seen_a.same_as(y));
  CHECK(seen_b.same_as(e.as<AddNode>()->b));
  CHECK(changed);
  CHECK(out.as<AddNode>()->a.same_as(y));
}

TEST_CASE("a changed definition makes a new variable that every later use refers to") {
  Var m = Var::make("m", DataType::int32());
  Var buf = Var::make("buf", TensorType::make({m}, DataType::float32()));
  Var out_var = Var::make("out", TensorType::make({4}, DataType::float32()));
  PrimFunc f =
      PrimFunc::make("f", {out_var},
                     SeqStmt::make({Allocate::make(buf), TensorStore::make(buf, {0}, 1.0f),
                                    TensorStore::make(out_var, {0}, TensorLoad::make(buf, {0}))}));
  PrimFunc g = map(f, [&](const Var& v) -> PrimExpr {
    return v.same_as(m) ? PrimExpr(IntImm::make(8)) : PrimExpr(v);
  });
  const auto& block = g->body->seq;
  const Var& new_buf = block[0].as<AllocateNode>()->buffer;
  CHECK_FALSE(new_buf.same_as(buf));
  CHECK(new_buf->name == "buf");
  CHECK(dim_of(new_buf).as<IntImmNode>()->value == 8);
  CHECK(block[1].as<TensorStoreNode>()->dest.same_as(new_buf));
  CHECK(block[2].as<TensorStoreNode>()->value.as<TensorLoadNode>()->source.same_as(new_buf));
  CHECK(block[2].as<TensorStoreNode>()->dest.same_as(out_var)); // unchanged variable kept
}

TEST_CASE("a callback sees the new variable at the uses of a changed definition") {
  AddOne add_one;
  std::vector<const Object*> sources;
  PrimFunc out = map(
      add_one.func,
      [&](const Var& v) -> PrimExpr {
        return v.same_as(add_one.n) ? PrimExpr(IntImm::make(16)) : PrimExpr(v);
      },
      [&](const TensorLoad& load) -> PrimExpr {
        sources.push_back(load->source.get());
        return load;
      });
  REQUIRE(sources.size() == 1);
  CHECK(sources[0] == out->params[0].get());
}

TEST_CASE("rename in pre-order: new variables at definitions, the same object at uses") {
  AddOne add_one;
  std::unordered_map<const Object*, Var> new_vars;
  PrimFunc renamed =
      map(add_one.func, with_def_region_kind([&](const Var& var, DefRegionKind kind) -> Var {
            if (kind != DefRegionKind::none) {
              if (!new_vars.contains(var.get())) {
                new_vars[var.get()] = Var::make(var->name + "1", var->ty);
              }
              return new_vars[var.get()];
            }
            auto it = new_vars.find(var.get());
            return it == new_vars.end() ? var : it->second;
          }),
          pre_order);
  const Var& A1 = renamed->params[0];
  const Var& B1 = renamed->params[1];
  CHECK(A1->name == "A1");
  CHECK(B1->name == "B1");
  // Both shapes share n1.
  const PrimExpr& n1 = dim_of(A1);
  CHECK(n1.as<VarNode>()->name == "n1");
  CHECK(dim_of(B1).same_as(n1));
  const ForNode& loop = loop_of(renamed);
  CHECK(loop.var->name == "i1");
  CHECK(loop.end.same_as(n1));
  CHECK(store_of(renamed).dest.same_as(B1));
  CHECK(store_of(renamed).indices[0].same_as(loop.var));
  CHECK(load_of(renamed).source.same_as(A1));
  CHECK(load_of(renamed).indices[0].same_as(loop.var));
  // Nothing of the original is left.
  int old_vars = 0;
  walk(renamed, [&](const Var& v) {
    old_vars += (v.same_as(add_one.n) || v.same_as(add_one.A) || v.same_as(add_one.B) ||
                 v.same_as(add_one.i))
                    ? 1
                    : 0;
  });
  CHECK(old_vars == 0);
}

TEST_CASE("a pre-order callback sees the original node, and its result's children are mapped") {
  Var x = Var::make("x", DataType::int32());
  Var y = Var::make("y", DataType::int32());
  PrimExpr e = (x + 1) * 2;
  std::vector<std::string> order;
  PrimExpr out = map(
      e,
      [&](const Mul& mul) -> PrimExpr {
        order.push_back("Mul");
        return mul->a - mul->b; // its children (x + 1, 2) are mapped next
      },
      [&](const Var& v) -> PrimExpr {
        order.push_back("Var");
        return v.same_as(x) ? PrimExpr(y) : PrimExpr(v);
      },
      pre_order);
  CHECK(order == std::vector<std::string>{"Mul", "Var"});
  const auto* sub = out.as<SubNode>();
  REQUIRE(sub != nullptr);
  CHECK(sub->a.as<AddNode>()->a.same_as(y));
}

TEST_CASE("a pre-order rule whose result contains its input is an error, not a hang") {
  Var x = Var::make("x", DataType::int32());
  PrimExpr e = (x + 1) * 2;
  auto wrap = [](const Mul& mul) -> PrimExpr { return mul * 1; };
  CHECK_THROWS_AS(map(e, wrap, pre_order), NodeError);
  try {
    map(e, wrap, pre_order);
  } catch (const NodeError& error) {
    CHECK(std::string(error.what()).find("post-order") != std::string::npos);
    CHECK(error.node().same_as(e));
  }
  // The same rule is fine in post-order: a result is not mapped again.
  PrimExpr out = map(e, wrap);
  CHECK(out.as<MulNode>()->a.same_as(e));
}

TEST_CASE("in pre-order, what replaces a leaf or a variable use stands as it is") {
  Var x = Var::make("x", DataType::int32());
  PrimExpr e = x * 2;
  PrimExpr out = map(
      e, [](const Var& v) -> PrimExpr { return v + 1; },
      [](const IntImm& imm) -> PrimExpr { return imm + imm; }, pre_order);
  const auto* mul = out.as<MulNode>();
  REQUIRE(mul != nullptr);
  CHECK(mul->a.as<AddNode>()->a.same_as(x));
  CHECK(mul->b.as<AddNode>()->a.same_as(e.as<MulNode>()->b));
}

TEST_CASE("a replacement that cannot stand where its node was is an error naming both types") {
  AddOne add_one;
  auto bad = [&] {
    return map(add_one.func, [&](const TensorStore&) -> ObjectRef { return IntImm::make(1); });
  };
  CHECK_THROWS_AS(bad(), NodeError);
  try {
    bad();
  } catch (const NodeError& error) {
    const std::string message = error.what();
    CHECK(message.find("ir.TensorStore") != std::string::npos);
    CHECK(message.find("ir.IntImm") != std::string::npos);
    CHECK(message.find("ir.Stmt") != std::string::npos);
  }
  // A replacement of the root that is not the root's static type.
  CHECK_THROWS_AS(map(add_one.func, [](const PrimFunc&) -> Expr { return Op::make("x"); }),
                  NodeError);
}

TEST_CASE("a callback returning an expression of a wider static type is checked at run time") {
  Var x = Var::make("x", DataType::int32());
  PrimExpr e = x + 1;
  // Returns Expr (graph-level root) holding a PrimExpr: fine where a PrimExpr goes.
  PrimExpr out = map(e, [](const IntImm&) -> Expr { return IntImm::make(2); });
  CHECK(out.as<AddNode>()->b.as<IntImmNode>()->value == 2);
}

TEST_CASE("map may replace a node by null where the field allows it") {
  Var c = Var::make("c", DataType::boolean());
  Var out_var = Var::make("out", TensorType::make({1}, DataType::int32()));
  Stmt branch =
      IfThenElse::make(c, TensorStore::make(out_var, {0}, 1), TensorStore::make(out_var, {0}, 2));
  const SeqStmt else_case = branch.as<IfThenElseNode>()->else_case;
  Stmt out = map(branch, [&](const SeqStmt& block) -> Stmt {
    return block.same_as(else_case) ? Stmt() : Stmt(block);
  });
  const auto* node = out.as<IfThenElseNode>();
  REQUIRE(node != nullptr);
  CHECK_FALSE(node->else_case.defined());
  CHECK(node->then_case.defined());
}

TEST_CASE("map rewrites inside a type registered at run time") {
  AddOne add_one;
  Stmt block = plugin_block({add_one.func->body, add_one.n}, "kept tag");
  PrimFunc f = PrimFunc::make("f", {add_one.A, add_one.B}, block);
  PrimFunc g = map(f, [&](const Var& v) -> PrimExpr {
    return v.same_as(add_one.n) ? PrimExpr(IntImm::make(32)) : PrimExpr(v);
  });
  const ObjectRef new_block = g->body->seq[0];
  CHECK(new_block->dynamic_type_key() == "test.PluginBlock");
  CHECK_FALSE(new_block.same_as(block));
  CHECK(static_cast<const PluginBlockNode&>(*new_block).tag == "kept tag");
  const auto& children = block_children(new_block);
  REQUIRE(children.size() == 2);
  CHECK(children[1].as<IntImmNode>()->value == 32);
  const auto* seq = children[0].as<SeqStmtNode>();
  REQUIRE(seq != nullptr);
  CHECK(seq->seq[0].as<ForNode>()->end.as<IntImmNode>()->value == 32);
  // The original block is intact.
  CHECK(block_children(block)[1].same_as(add_one.n));
  // Unchanged, a block comes back as itself.
  PrimFunc same = map(f, [](const IntImm& imm) { return imm; });
  CHECK(same.same_as(f));
}

TEST_CASE("a replacement a run-time type's field cannot hold is an error") {
  AddOne add_one;
  // The probe's operands hold any node; a block's children too. A callback replacing the
  // block by an expression breaks the SeqStmt that holds it.
  Stmt block = plugin_block({add_one.n});
  Stmt seq = SeqStmt::make({block});
  CHECK_THROWS_AS(map(seq, on<StmtNode>([&](const Stmt& s) -> ObjectRef {
                        return s->dynamic_type_key() == "test.PluginBlock" ? ObjectRef(add_one.n)
                                                                           : ObjectRef(s);
                      })),
                  NodeError);
}

TEST_CASE("map handles a chain of expressions far deeper than native recursion could go") {
  Var x = Var::make("x", DataType::int32());
  Var y = Var::make("y", DataType::int32());
  PrimExpr chain = x;
  for (int k = 0; k < deep_nesting; ++k) {
    chain = chain + 1;
  }
  PrimExpr same = map(chain, [](const IntImm& imm) { return imm; });
  CHECK(same.same_as(chain));
  PrimExpr renamed = map(
      chain, [&](const Var& v) -> PrimExpr { return v.same_as(x) ? PrimExpr(y) : PrimExpr(v); });
  CHECK_FALSE(renamed.same_as(chain));
  const PrimExprNode* node = renamed.get();
  std::size_t depth = 0;
  while (node->dynamic_type_index() == AddNode::type_index) {
    node = static_cast<const AddNode*>(node)->a.get();
    ++depth;
  }
  CHECK(depth == deep_nesting);
  CHECK(node == y.get());
  // Folding x + 0 all the way down through the explicit stack.
  PrimExpr zeros = x;
  for (int k = 0; k < deep_nesting; ++k) {
    zeros = zeros + 0;
  }
  PrimExpr folded = map(zeros, [](const Mapped<Add>& add) -> MapResult<PrimExpr> {
    if (is_zero(add[&AddNode::b])) {
      return add[&AddNode::a];
    }
    return unchanged;
  });
  CHECK(folded.same_as(x));
}

TEST_CASE("past the stack budget a Mapped callback sees the input node as original()") {
  // Renaming the variable at the bottom rebuilds every Add above it on the explicit stack;
  // each callback must still see the node of the input as original() and the rebuilt one
  // as node(), as on the recursive path.
  Var x = Var::make("x", DataType::int32());
  Var y = Var::make("y", DataType::int32());
  PrimExpr chain = x;
  std::unordered_map<const Object*, int> input;
  for (int k = 0; k < 200'000; ++k) {
    chain = chain + k;
    input.emplace(chain.get(), k);
  }
  std::size_t seen = 0;
  std::size_t wrong = 0;
  PrimExpr out = map(
      chain, [&](const Var& v) -> PrimExpr { return v.same_as(x) ? PrimExpr(y) : PrimExpr(v); },
      [&](const Mapped<Add>& add) -> MapResult<PrimExpr> {
        ++seen;
        const auto it = input.find(add.original().get());
        const bool rebuilt = add.changed() && !add.node().same_as(add.original());
        if (it == input.end() || !rebuilt ||
            add[&AddNode::b].as<IntImmNode>()->value != it->second) {
          ++wrong;
        }
        return unchanged;
      });
  CHECK(seen == 200'000);
  CHECK(wrong == 0);
  CHECK_FALSE(out.same_as(chain));
  CHECK(input.count(out.get()) == 0);
}

TEST_CASE("map handles loops nested far deeper than native recursion could go") {
  Var out_var = Var::make("out", TensorType::make({1}, DataType::int32()));
  Stmt nest = TensorStore::make(out_var, {0}, 1);
  for (int k = 0; k < deep_nesting; ++k) {
    nest = For::make(Var::make("i", DataType::int32()), 0, 2, nest);
  }
  Stmt doubled = map(nest, [](const For& loop) -> Stmt {
    return For::make(loop->var, loop->begin, loop->end * 2, loop->body);
  });
  std::size_t muls = 0;
  walk(doubled, [&](const Mul&) { ++muls; });
  CHECK(muls == deep_nesting);
}

TEST_CASE("a pre-order replacement of a type no callback handles is mapped past the stack budget") {
  // The replacement (a For) is rebuilt through its field table; its fields that cannot lead to
  // a matched node (the loop variable, the bounds) must be read as unchanged, not as results.
  Var x = Var::make("x", DataType::int32());
  Var out_var = Var::make("out", TensorType::make({1}, DataType::int32()));
  const Stmt store = TensorStore::make(out_var, {0}, 1);
  Stmt nest = IfThenElse::make(LT::make(x, IntImm::make(1)), store);
  for (int k = 0; k < 200'000; ++k) {
    nest = For::make(Var::make("i", DataType::int32()), 0, 2, nest);
  }
  int replaced = 0;
  const Stmt out = map(
      nest,
      [&](const IfThenElse& branch) -> Stmt {
        ++replaced;
        return For::make(Var::make("j", DataType::int32()), 0, 4, branch->then_case);
      },
      pre_order);
  CHECK(replaced == 1);
  const StmtNode* node = out.get();
  std::size_t depth = 0;
  const ForNode* loop = nullptr;
  // Each loop's body is a block of one statement, down to the then-block of the branch.
  while (node->dynamic_type_index() == ForNode::type_index) {
    loop = static_cast<const ForNode*>(node);
    node = loop->body.get();
    ++depth;
    if (loop->body->seq.size() == 1 &&
        loop->body->seq[0]->dynamic_type_index() == ForNode::type_index) {
      node = loop->body->seq[0].get();
    }
  }
  CHECK(depth == 200'001);
  REQUIRE(loop != nullptr);
  CHECK(loop->var->name == "j");
  const auto* end = loop->end.as<IntImmNode>();
  REQUIRE(end != nullptr);
  CHECK(end->value == 4);
  REQUIRE(node->dynamic_type_index() == SeqStmtNode::type_index);
  CHECK(static_cast<const SeqStmtNode*>(node)->seq[0].same_as(store));
}

TEST_CASE("map returns a node handle of the type it was given") {
  AddOne add_one;
  IRModule mod{add_one.func};
  IRModule same = map(mod, [](const IntImm& imm) { return imm; });
  CHECK(same.same_as(mod));
  IRModule out = map(mod, [&](const Var& v) -> PrimExpr {
    return v.same_as(add_one.n) ? PrimExpr(IntImm::make(64)) : PrimExpr(v);
  });
  CHECK_FALSE(out.same_as(mod));
  const BaseFunc f = out.lookup("add_one");
  CHECK(loop_of(downcast<PrimFuncNode>(f)).end.as<IntImmNode>()->value == 64);
  CHECK(loop_of(downcast<PrimFuncNode>(mod.lookup("add_one"))).end.same_as(add_one.n));
}

TEST_CASE("map takes the order as a run-time WalkOrder too") {
  Var x = Var::make("x", DataType::int32());
  PrimExpr e = x * 2;
  std::vector<std::string> order;
  auto record = [&](const Object& node) {
    order.push_back(short_key(node));
    return ref_of(&node);
  };
  map(e, record, WalkOrder::pre);
  CHECK(order == std::vector<std::string>{"Mul", "Var", "IntImm"});
  order.clear();
  map(e, record, WalkOrder::post);
  CHECK(order == std::vector<std::string>{"Var", "IntImm", "Mul"});
}
