// Tests of the runtime layer's structural equality: compiled hooks and field tables, plug-ins.
#include <ctir/ctir.hpp>
#include <ctir/runtime/structural_equal.hpp>
#include <ctir/traverse/structural_equal.hpp>

#include <doctest/doctest.h>
#include <ir_generator.hpp>

#include <string>
#include <tuple>

using namespace ctir;
using namespace ctir::testing;

namespace {

/// Compares with both layers, checks that they agree (answer and first mismatch), and
/// returns the path of the mismatch ("" when equal).
std::string compare_both(const ObjectRef& a, const ObjectRef& b,
                         StructuralEqualOptions options = {}) {
  const bool erased = runtime::structural_equal(a, b, options);
  CHECK(structural_equal(a, b, options) == erased);
  const auto erased_mismatch = runtime::find_structural_mismatch(a, b, options);
  const auto static_mismatch = find_structural_mismatch(a, b, options);
  REQUIRE(erased_mismatch.has_value() == !erased);
  REQUIRE(static_mismatch.has_value() == !erased);
  if (erased) {
    return "";
  }
  CHECK(erased_mismatch->lhs_path == static_mismatch->lhs_path);
  CHECK(erased_mismatch->rhs_path == static_mismatch->rhs_path);
  CHECK(erased_mismatch->lhs_node.same_as(static_mismatch->lhs_node));
  CHECK(erased_mismatch->rhs_node.same_as(static_mismatch->rhs_node));
  CHECK(erased_mismatch->reason == static_mismatch->reason);
  return erased_mismatch->lhs_path.str();
}

template <class... Ts>
void compare_generated(std::tuple<Ts...>*) {
  (
      [] {
        for (int k = 0; k < 6; ++k) {
          IrGenerator gen(static_cast<std::uint64_t>(k) * 31U + Ts::type_index);
          const ObjectRef x = gen.template make<Ts>(3);
          const ObjectRef y = gen.template make<Ts>(3);
          CAPTURE(Ts::type_key);
          CHECK(compare_both(x, alpha_rename(x)).empty());
          compare_both(x, y);
          compare_both(x, y, {.map_free_vars = true});
          if (const auto change = change_first_leaf(x)) {
            CHECK(compare_both(x, change->changed) == change->path);
          }
        }
      }(),
      ...);
}

} // namespace

TEST_CASE("the runtime layer gives the static layer's answers and mismatches") {
  CHECK(compare_both(make_add(1), make_add(1)).empty());
  CHECK(compare_both(make_add(1), make_add(2)) == "<root>.body.seq[0].body.seq[0].value.b.value");
  compare_generated(
      static_cast<std::tuple<PrimFuncNode, FunctionNode, IRModuleNode, ForNode, CallNode, LetNode,
                             SelectNode, TensorTypeNode>*>(nullptr));
}

TEST_CASE("the field tables alone give the compiled hooks' answers on the IR") {
  // What the runtime layer does for a node type registered at run time, here on every IR
  // type: the iterative comparison through TypeInfo::fields.
  const auto by_fields = [](const ObjectRef& a, const ObjectRef& b, StructuralEqualOptions o) {
    return ctir::detail::structural::equal_objects<type_list<>>(a.get(), b.get(), o);
  };
  CHECK(by_fields(make_add(1), make_add(1), {}));
  CHECK_FALSE(by_fields(make_add(1), make_add(2), {}));
  for (int k = 0; k < 8; ++k) {
    IrGenerator gen(static_cast<std::uint64_t>(k) * 13U + 5U);
    const ObjectRef x = gen.make<IRModuleNode>(3);
    const ObjectRef y = gen.make<IRModuleNode>(3);
    const ObjectRef f = gen.make<PrimFuncNode>(3);
    for (const bool map_free : {false, true}) {
      const StructuralEqualOptions o{.map_free_vars = map_free};
      CHECK(by_fields(x, alpha_rename(x), o));
      CHECK(by_fields(x, y, o) == structural_equal(x, y, o));
      CHECK(by_fields(f, alpha_rename(f), o));
      if (const auto change = change_first_leaf(f)) {
        CHECK_FALSE(by_fields(f, change->changed, o));
      }
    }
  }
}

TEST_CASE("plug-in node types registered at run time compare through their field tables") {
  const ObjectRef a = plugin_pair(IntImm::make(1), IntImm::make(2), 7, 100);
  CHECK(compare_both(a, plugin_pair(IntImm::make(1), IntImm::make(2), 7, 100)).empty());
  // The ignored field takes no part; the plain value does.
  CHECK(compare_both(a, plugin_pair(IntImm::make(1), IntImm::make(2), 7, 999)).empty());
  CHECK(compare_both(a, plugin_pair(IntImm::make(1), IntImm::make(2), 8, 100)) == "<root>.tag");
  CHECK(compare_both(a, plugin_pair(IntImm::make(1), IntImm::make(3), 7, 100)) ==
        "<root>.second.value");
  CHECK(compare_both(a, plugin_pair(IntImm::make(1), ObjectRef(), 7, 100)) == "<root>.second");
  // Mixed with IR nodes, in both directions.
  const ObjectRef nested = plugin_pair(make_add(1), plugin_pair(FloatImm::make(1.5), ObjectRef()));
  CHECK(compare_both(nested,
                     plugin_pair(make_add(2), plugin_pair(FloatImm::make(1.5), ObjectRef()))) ==
        "<root>.first.body.seq[0].body.seq[0].value.b.value");
  const auto mismatch =
      runtime::find_structural_mismatch(a, plugin_pair(IntImm::make(1), IntImm::make(2), 8, 100));
  REQUIRE(mismatch);
  CHECK(mismatch->reason == "field 'tag' differs: 7 vs 8");
  CHECK(mismatch->lhs_node.same_as(a));
}

TEST_CASE("plug-in definition sites bind plug-in variables: alpha equivalence at run time") {
  const ObjectRef v = plugin_var("v");
  const ObjectRef w = plugin_var("w");
  const ObjectRef u = plugin_var("u");
  const ObjectRef lhs = plugin_let(v, IntImm::make(1), plugin_pair(v, v));
  CHECK(compare_both(lhs, plugin_let(w, IntImm::make(1), plugin_pair(w, w))).empty());
  CHECK(compare_both(lhs, plugin_let(w, IntImm::make(1), plugin_pair(w, u))) ==
        "<root>.body.second");
  // Free plug-in variables equal only themselves unless mapped.
  CHECK(compare_both(plugin_pair(v, v), plugin_pair(w, w)) == "<root>.first");
  CHECK(compare_both(plugin_pair(v, v), plugin_pair(w, w), {.map_free_vars = true}).empty());
  const auto mismatch = runtime::find_structural_mismatch(plugin_pair(v, v), plugin_pair(w, w));
  REQUIRE(mismatch);
  CHECK(mismatch->reason ==
        "free variables 'v' and 'w' are different objects (map_free_vars is off)");
}

TEST_CASE("a plug-in pattern region defines the variables in its parameters' types") {
  auto lambda = [](bool same_size) {
    const Var n = Var::make("n", DataType::int32());
    const Var m = Var::make("m", DataType::int32());
    const ObjectRef a = plugin_var("a", TensorType::make({n}, DataType::float32()));
    const ObjectRef b = plugin_var("b", TensorType::make({same_size ? n : m}, DataType::float32()));
    return plugin_lambda({a, b}, plugin_pair(a, b));
  };
  CHECK(compare_both(lambda(true), lambda(true)).empty());
  CHECK(compare_both(lambda(false), lambda(false)).empty());
  CHECK(compare_both(lambda(true), lambda(false)) == "<root>.params[1].ty.shape[0]");
}

TEST_CASE("a plug-in type under ir.Expr compares as a graph node: its sharing must match") {
  auto lambda = [] {
    const ObjectRef p = plugin_var("p");
    return plugin_lambda({p}, p);
  };
  const ObjectRef shared = lambda();
  CHECK(compare_both(plugin_pair(shared, shared), plugin_pair(lambda(), lambda())) ==
        "<root>.second");
  const ObjectRef other = lambda();
  CHECK(compare_both(plugin_pair(shared, shared), plugin_pair(other, other)).empty());
  // test.structural.Pair is not an expression: it compares as a tree.
  const ObjectRef pair = plugin_pair(IntImm::make(1), IntImm::make(2));
  CHECK(compare_both(plugin_pair(pair, pair),
                     plugin_pair(plugin_pair(IntImm::make(1), IntImm::make(2)),
                                 plugin_pair(IntImm::make(1), IntImm::make(2))))
            .empty());
}

TEST_CASE("a deep chain of plug-in nodes compares without exhausting the stack") {
  auto chain = [](std::int64_t bottom) {
    ObjectRef e = IntImm::make(bottom);
    for (int k = 0; k < 200000; ++k) {
      e = plugin_pair(e, ObjectRef(), k);
    }
    return e;
  };
  const ObjectRef a = chain(1);
  CHECK(runtime::structural_equal(a, chain(1)));
  CHECK(structural_equal(a, chain(1)));
  const auto mismatch = runtime::find_structural_mismatch(a, chain(2));
  REQUIRE(mismatch);
  CHECK(mismatch->lhs_path.size() == 200001);
  CHECK(mismatch->lhs_path.steps().back().name == "value");
}

TEST_CASE("a plug-in plain value without an equal function is reported, not crashed on") {
  RuntimeTypeSpec spec;
  spec.key = "test.structural.NoEqual";
  FieldInfo field;
  field.name = "data";
  field.kind = FieldKind::value;
  spec.own_fields.push_back(field);
  spec.destroy = [](Object* o) noexcept { delete static_cast<DynamicNode*>(o); };
  spec.clone = [](const Object& o) -> Object* {
    return new DynamicNode(static_cast<const DynamicNode&>(o));
  };
  register_ir_types(); // the parent, Object, named by key
  static const TypeInfo& type = TypeRegistry::global().add_runtime_type(spec);
  const ObjectRef a = make_dynamic(type, {});
  const ObjectRef b = make_dynamic(type, {});
  CHECK_THROWS_WITH_AS(
      runtime::structural_equal(a, b),
      "ctir: structural_equal: field 'data' of test.structural.NoEqual is a plain value "
      "without an equal function; give it one or mark it ignore",
      Error);
  CHECK_THROWS_AS(structural_equal(a, b), Error);
  CHECK_THROWS_AS(runtime::find_structural_mismatch(a, b), Error);
}

TEST_CASE("a plug-in type with more fields than a cached plan holds compares field by field") {
  auto wide = [](std::int64_t last_value, std::int64_t array_leaf) {
    return plugin_wide({IntImm::make(1), plugin_pair(IntImm::make(2), IntImm::make(3))},
                       {{}, {}, {}, {IntImm::make(4), IntImm::make(array_leaf)}},
                       {0, 0, 0, 0, 0, last_value});
  };
  CHECK(compare_both(wide(7, 5), wide(7, 5)).empty());
  CHECK(compare_both(wide(7, 5), wide(8, 5)) == "<root>.v5");
  CHECK(compare_both(wide(7, 5), wide(7, 6)) == "<root>.a3[1].value");
  // Wide nodes between nodes whose plans are cached: each lookup of the wide type rebuilds
  // its plan while the other plans stay valid.
  auto nest = [&](std::int64_t leaf) {
    ObjectRef e = IntImm::make(leaf);
    for (int k = 0; k < 1000; ++k) {
      e = k % 2 == 0 ? plugin_wide({e, IntImm::make(k)}, {{IntImm::make(k)}}, {k})
                     : plugin_pair(e, IntImm::make(k), k);
    }
    return e;
  };
  CHECK(compare_both(nest(1), nest(1)).empty());
  const std::string path = compare_both(nest(1), nest(2));
  CHECK(path.starts_with("<root>.first.n0.first.n0"));
  CHECK(path.ends_with(".n0.value"));
}
