// Tests of the runtime layer's structural hash: compiled hooks and field tables, plug-ins.
#include <ctir/ctir.hpp>
#include <ctir/runtime/structural_equal.hpp>
#include <ctir/runtime/structural_hash.hpp>
#include <ctir/traverse/structural_hash.hpp>

#include <doctest/doctest.h>
#include <ir_generator.hpp>

#include <functional>
#include <tuple>

using namespace ctir;
using namespace ctir::testing;

namespace {

template <class... Ts>
void hash_generated(std::tuple<Ts...>*) {
  (
      [] {
        for (int k = 0; k < 6; ++k) {
          IrGenerator gen(static_cast<std::uint64_t>(k) * 17U + Ts::type_index);
          const ObjectRef x = gen.template make<Ts>(3);
          CAPTURE(Ts::type_key);
          for (const bool map_free : {false, true}) {
            CHECK(runtime::structural_hash(x, {.map_free_vars = map_free}) ==
                  structural_hash(x, {.map_free_vars = map_free}));
          }
          CHECK(runtime::structural_hash(alpha_rename(x)) == runtime::structural_hash(x));
        }
      }(),
      ...);
}

} // namespace

TEST_CASE("the runtime layer's hash is the static layer's hash") {
  CHECK(runtime::structural_hash(make_add(1)) == structural_hash(make_add(1)));
  hash_generated(static_cast<std::tuple<PrimFuncNode, FunctionNode, IRModuleNode, ForNode, CallNode,
                                        LetNode, SelectNode, TensorTypeNode>*>(nullptr));
}

TEST_CASE("the field tables alone give the compiled hooks' hash on the IR") {
  // What the runtime layer does for a node type registered at run time, here on every IR
  // type: the iterative hash through TypeInfo::fields.
  for (int k = 0; k < 8; ++k) {
    IrGenerator gen(static_cast<std::uint64_t>(k) * 11U + 3U);
    for (const ObjectRef& x :
         {ObjectRef(gen.make<IRModuleNode>(3)), ObjectRef(gen.make<PrimFuncNode>(3))}) {
      for (const bool map_free : {false, true}) {
        const StructuralHashOptions o{.map_free_vars = map_free};
        CHECK(ctir::detail::structural::hash_object<type_list<>>(x.get(), o) ==
              structural_hash(x, o));
      }
    }
  }
}

TEST_CASE("plug-in node types hash through their field tables, consistently with equality") {
  const ObjectRef a = plugin_pair(IntImm::make(1), IntImm::make(2), 7, 100);
  CHECK(runtime::structural_hash(a) ==
        runtime::structural_hash(plugin_pair(IntImm::make(1), IntImm::make(2), 7, 999)));
  CHECK(runtime::structural_hash(a) !=
        runtime::structural_hash(plugin_pair(IntImm::make(1), IntImm::make(2), 8, 100)));
  CHECK(structural_hash(a) == runtime::structural_hash(a));
  // Alpha-equivalent plug-in binders hash alike.
  auto let = [](const char* name) {
    const ObjectRef v = plugin_var(name);
    return plugin_let(v, IntImm::make(1), plugin_pair(v, v));
  };
  CHECK(runtime::structural_equal(let("v"), let("w")));
  CHECK(runtime::structural_hash(let("v")) == runtime::structural_hash(let("w")));
  const ObjectRef v = plugin_var("v");
  const ObjectRef u = plugin_var("u");
  CHECK(runtime::structural_hash(plugin_let(v, IntImm::make(1), plugin_pair(v, v))) !=
        runtime::structural_hash(plugin_let(v, IntImm::make(1), plugin_pair(v, u))));
}

TEST_CASE("shared plug-in subtrees are memoized without changing the hash") {
  ObjectRef dag = IntImm::make(1);
  ObjectRef tree = IntImm::make(1);
  for (int k = 0; k < 12; ++k) {
    dag = plugin_pair(dag, dag, k);
  }
  std::function<ObjectRef(int)> expand = [&](int k) -> ObjectRef {
    return k < 0 ? ObjectRef(IntImm::make(1)) : plugin_pair(expand(k - 1), expand(k - 1), k);
  };
  tree = expand(11);
  CHECK(runtime::structural_hash(dag) == runtime::structural_hash(tree));
  CHECK(structural_hash(dag) == runtime::structural_hash(tree));
  ObjectRef deep = IntImm::make(1);
  for (int k = 0; k < 60; ++k) {
    deep = plugin_pair(deep, deep, k);
  }
  CHECK(runtime::structural_hash(deep) == structural_hash(deep));
}

TEST_CASE("a deep chain of plug-in nodes hashes without exhausting the stack") {
  ObjectRef e = IntImm::make(1);
  for (int k = 0; k < 200000; ++k) {
    e = plugin_pair(e, ObjectRef(), k);
  }
  CHECK(runtime::structural_hash(e) == structural_hash(e));
}

TEST_CASE("a plug-in plain value without a hash function is reported, not crashed on") {
  RuntimeTypeSpec spec;
  spec.key = "test.structural.NoHash";
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
  CHECK_THROWS_WITH_AS(
      runtime::structural_hash(a),
      "ctir: structural_hash: field 'data' of test.structural.NoHash is a plain value "
      "without a hash function; give it one or mark it ignore",
      Error);
  CHECK_THROWS_AS(structural_hash(a), Error);
}

TEST_CASE("a plug-in type with more fields than a cached plan holds hashes consistently") {
  auto wide = [](std::int64_t value, std::vector<ObjectRef> array) {
    return plugin_wide({IntImm::make(1), plugin_pair(IntImm::make(2), IntImm::make(3))},
                       {{}, std::move(array)}, {0, 0, value});
  };
  const ObjectRef a = wide(5, {IntImm::make(4)});
  CHECK(runtime::structural_hash(a) == runtime::structural_hash(wide(5, {IntImm::make(4)})));
  CHECK(runtime::structural_hash(a) != runtime::structural_hash(wide(6, {IntImm::make(4)})));
  // The length of an array is part of the token: moving an element from one array to the
  // next changes the hash.
  CHECK(runtime::structural_hash(a) != runtime::structural_hash(wide(5, {})));
  const ObjectRef shared = wide(9, {IntImm::make(4)});
  const ObjectRef twice = plugin_pair(shared, shared);
  CHECK(runtime::structural_equal(
      twice, plugin_pair(wide(9, {IntImm::make(4)}), wide(9, {IntImm::make(4)}))));
  CHECK(runtime::structural_hash(twice) ==
        runtime::structural_hash(
            plugin_pair(wide(9, {IntImm::make(4)}), wide(9, {IntImm::make(4)}))));
}
