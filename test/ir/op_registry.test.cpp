// Tests of the operator registry: registration, lookup, attribute schemas and arity.
#include <ctir/ir/op_registry.hpp>

#include <ctir/ir/ops.hpp> // a second translation unit with the built-ins: must not re-register

#include <doctest/doctest.h>
#include <error_testing.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace ctir;
using ctir::testing::contains;
using ctir::testing::error_of;

namespace {

TensorType float_tensor(std::vector<PrimExpr> shape) {
  return TensorType::make(std::move(shape), DataType::float32());
}

/// The identity relation on one input.
Type same_as_input(const std::vector<Type>& inputs, const Attrs&) { return inputs.at(0); }

OpDef identity_op(std::string name) {
  return OpDef(std::move(name)).set_num_inputs(1).set_type_relation(same_as_input);
}

/// `scale(x, factor=...)`: the type relation and a reference kernel, as a user writes them.
TensorData scale_kernel(const std::vector<TensorData>& inputs, const Attrs& attrs) {
  const double factor = attrs.get<double>("factor").value_or(1.0);
  TensorData result(inputs.at(0).dtype(), inputs.at(0).shape());
  for (std::size_t i = 0; i < result.size(); ++i) {
    result.set(i, inputs[0].get(i) * factor);
  }
  return result;
}

} // namespace

// Static registration of a user operator, before main.
CTIR_REGISTER_OP("ops_test.pad_last")
    .describe("pads the last axis by `amount` elements")
    .set_num_inputs(1)
    .add_attr("amount", AttrKind::int_, "how many elements to add")
    .set_type_relation([](const std::vector<Type>& inputs, const Attrs& attrs) -> Type {
      const TensorType x = ops::expect_tensor("ops_test.pad_last", inputs, 0);
      std::vector<PrimExpr> shape = x->shape;
      if (shape.empty()) {
        throw Error("ctir: operator 'ops_test.pad_last' cannot pad " + type_str(x));
      }
      shape.back() = Add::make(shape.back(), IntImm::make(*attrs.get<std::int64_t>("amount")));
      return TensorType::make(std::move(shape), x->dtype);
    });

TEST_CASE("attribute kinds have names and match the alternatives of AttrValue") {
  CHECK(to_string(AttrKind::bool_) == "bool");
  CHECK(to_string(AttrKind::int_) == "int");
  CHECK(to_string(AttrKind::float_) == "float");
  CHECK(to_string(AttrKind::string) == "string");
  CHECK(to_string(AttrKind::int_list) == "int list");
  CHECK(attr_kind_of(AttrValue(true)) == AttrKind::bool_);
  CHECK(attr_kind_of(AttrValue(std::int64_t{3})) == AttrKind::int_);
  CHECK(attr_kind_of(AttrValue(0.5)) == AttrKind::float_);
  CHECK(attr_kind_of(AttrValue(std::string("s"))) == AttrKind::string);
  CHECK(attr_kind_of(AttrValue(std::vector<std::int64_t>{1})) == AttrKind::int_list);
}

TEST_CASE("arity accepts exact counts or a minimum and describes itself") {
  CHECK(Arity::exactly(2).accepts(2));
  CHECK_FALSE(Arity::exactly(2).accepts(3));
  CHECK(Arity::at_least(1).accepts(5));
  CHECK_FALSE(Arity::at_least(1).accepts(0));
  CHECK(Arity::exactly(0).str() == "no inputs");
  CHECK(Arity::exactly(1).str() == "1 input");
  CHECK(Arity::exactly(2).str() == "2 inputs");
  CHECK(Arity::at_least(1).str() == "at least 1 input");
  CHECK(Arity::at_least(0).str() == "at least 0 inputs");
}

TEST_CASE("normalization fills defaults and leaves optional attributes absent") {
  auto& registry = OpRegistry::global();
  const Attrs sum = registry.normalize_attrs("sum", {});
  CHECK(sum.get<bool>("keepdims") == false);
  CHECK_FALSE(sum.contains("axis"));
  const Attrs zeros = registry.normalize_attrs("zeros", {{"shape", std::vector<std::int64_t>{2}}});
  CHECK(zeros.get<std::string>("dtype") == "float32");
  CHECK(zeros.get<std::vector<std::int64_t>>("shape") == std::vector<std::int64_t>{2});
  CHECK(registry.normalize_attrs("concatenate", {}).get<std::int64_t>("axis") == 0);
  // Given values win over defaults.
  CHECK(registry.normalize_attrs("sum", {{"keepdims", true}}).get<bool>("keepdims") == true);
  CHECK(registry.normalize_attrs("transpose", {}).empty());
}

TEST_CASE("normalization names an unknown attribute, the nearest valid one and all valid ones") {
  const std::string message = error_of([] {
    OpRegistry::global().normalize_attrs("transpose", {{"axis", std::vector<std::int64_t>{0}}});
  });
  CHECK(contains(message, "operator 'transpose' has no attribute 'axis'"));
  CHECK(contains(message, "did you mean 'axes'?"));
  CHECK(contains(message, "(its attributes: axes)"));

  const std::string far = error_of([] {
    OpRegistry::global().normalize_attrs("sum", {{"zzzzzzzz", true}});
  });
  CHECK_FALSE(contains(far, "did you mean"));
  CHECK(contains(far, "(its attributes: axis, keepdims)"));

  const std::string none = error_of([] {
    OpRegistry::global().normalize_attrs("relu", {{"alpha", 0.1}});
  });
  CHECK(contains(none, "operator 'relu' takes no attributes, but was given 'alpha'"));
}

TEST_CASE("normalization names the expected and the actual kind of a wrong value") {
  const std::string message = error_of([] {
    OpRegistry::global().normalize_attrs("sum", {{"keepdims", std::int64_t{1}}});
  });
  CHECK(contains(message, "attribute 'keepdims' of operator 'sum' must be a bool, not an int (1)"));
  const std::string text = error_of([] {
    OpRegistry::global().normalize_attrs(
        "zeros", {{"shape", std::vector<std::int64_t>{1}}, {"dtype", std::int64_t{32}}});
  });
  CHECK(contains(text, "must be a string, not an int"));
}

TEST_CASE("normalization reports a missing required attribute with its description") {
  const std::string message = error_of([] { OpRegistry::global().normalize_attrs("reshape", {}); });
  CHECK(contains(message, "operator 'reshape' requires the attribute 'newshape'"));
  CHECK(contains(message, "an int list"));
  CHECK(contains(message, "output shape"));
}

TEST_CASE("an int is accepted where a float is expected and normalized to a float") {
  OpRegistry registry;
  registry.register_op(OpDef("scale")
                           .set_num_inputs(1)
                           .add_attr("factor", AttrKind::float_, std::int64_t{1}, "the factor")
                           .set_type_relation(same_as_input));
  const Attrs given = registry.normalize_attrs("scale", {{"factor", std::int64_t{3}}});
  CHECK(given.get<double>("factor") == 3.0);
  // The integer default is widened too.
  CHECK(registry.normalize_attrs("scale", {}).get<double>("factor") == 1.0);
  // A float is not accepted where an int is expected.
  CHECK(contains(error_of([] {
                   OpRegistry::global().normalize_attrs("concatenate", {{"axis", 1.0}});
                 }),
                 "must be an int, not a float (1f64)"));
}

TEST_CASE("check_attrs accepts what normalization accepts and throws what it throws") {
  const auto& registry = OpRegistry::global();
  const std::vector<std::pair<std::string, Attrs>> cases = {
      {"sum", {}},
      {"sum", {{"keepdims", true}}},
      {"concatenate", {{"axis", std::int64_t{1}}}},
      {"transpose", {{"axis", std::vector<std::int64_t>{0}}}},
      {"sum", {{"zzzzzzzz", true}}},
      {"relu", {{"alpha", 0.1}}},
      {"sum", {{"keepdims", std::int64_t{1}}}},
      {"zeros", {{"shape", std::vector<std::int64_t>{1}}, {"dtype", std::int64_t{32}}}},
      {"zeros", {{"shape", std::int64_t{2}}}},
      {"reshape", {}},
      {"concatenate", {{"axis", 1.0}}},
  };
  std::size_t rejected = 0;
  for (const auto& entry : cases) {
    const std::string& op = entry.first;
    const Attrs& attrs = entry.second;
    CAPTURE(op);
    const OpDef& def = registry.get(op);
    const std::string normalizing = error_of([&] { (void)def.normalize_attrs(attrs); });
    const std::string checking = error_of([&] { def.check_attrs(attrs); });
    CHECK(checking == normalizing);
    rejected += checking == "<no error>" ? 0U : 1U;
  }
  CHECK(rejected == 8);
}

TEST_CASE("infer_type checks the number of inputs first") {
  const std::string few =
      error_of([] { OpRegistry::global().infer_type("add", {float_tensor({2})}); });
  CHECK(contains(few, "operator 'add' takes 2 inputs, but 1 was given"));
  const std::string many = error_of([] {
    OpRegistry::global().infer_type("relu",
                                    {float_tensor({2}), float_tensor({2}), float_tensor({2})});
  });
  CHECK(contains(many, "operator 'relu' takes 1 input, but 3 were given"));
}

TEST_CASE("infer_type reports an input without a type") {
  const std::string message = error_of([] {
    OpRegistry::global().infer_type("add", {float_tensor({2}), Type()});
  });
  CHECK(contains(message, "input 1 of operator 'add' has no type"));
}

TEST_CASE("an unknown operator is named together with the nearest registered names") {
  auto& registry = OpRegistry::global();
  CHECK(registry.find("ad") == nullptr);
  CHECK_FALSE(registry.contains("ad"));
  CHECK(registry.contains("add"));
  const std::string typo = error_of([&] { registry.get("ad"); });
  CHECK(contains(typo, "unknown operator 'ad'"));
  CHECK(contains(typo, "'add'"));
  CHECK(contains(error_of([&] { registry.get("transpos"); }), "did you mean 'transpose'?"));
  CHECK(
      contains(error_of([&] { registry.infer_type("nn.rel", {float_tensor({2})}); }), "'nn.relu'"));
  // The same name in another namespace counts as near.
  CHECK(contains(error_of([&] { registry.get("nn.sigmoid"); }), "'sigmoid'"));
  const std::string far = error_of([&] { registry.get("completely_unrelated_name"); });
  CHECK(contains(far, "unknown operator 'completely_unrelated_name'"));
  CHECK(contains(far, "none is close"));
  CHECK(registry.nearest_names("mutliply").at(0) == "multiply");
  CHECK(contains(error_of([&] { registry.normalize_attrs("sume", {}); }), "did you mean 'sum'"));
}

TEST_CASE("names lists every operator once, sorted") {
  const auto names = OpRegistry::global().names();
  CHECK(std::is_sorted(names.begin(), names.end()));
  CHECK(std::adjacent_find(names.begin(), names.end()) == names.end());
  CHECK(names.size() == OpRegistry::global().size());
  CHECK(std::count(names.begin(), names.end(), "ops_test.pad_last") == 1);
  CHECK(std::count(names.begin(), names.end(), "add") == 1);
  CHECK(names.size() >= 22);
}

TEST_CASE("an operator registered statically by a user is used like a built-in") {
  const OpDef& def = OpRegistry::global().get("ops_test.pad_last");
  CHECK(def.description == "pads the last axis by `amount` elements");
  CHECK(def.arity == Arity::exactly(1));
  REQUIRE(def.find_attr("amount") != nullptr);
  CHECK(def.find_attr("amount")->required());
  auto n = Var::make("n", DataType::int32());
  const Type out = OpRegistry::global().infer_type("ops_test.pad_last", {float_tensor({2, n})},
                                                   {{"amount", std::int64_t{3}}});
  CHECK(type_str(out) == "Tensor[(2, %n + 3), float32]");
  CHECK(contains(
      error_of([] { OpRegistry::global().infer_type("ops_test.pad_last", {float_tensor({2})}); }),
      "requires the attribute 'amount'"));
  CHECK(contains(error_of([] {
                   OpRegistry::global().infer_type("ops_test.pad_last", {float_tensor({})},
                                                   {{"amount", std::int64_t{1}}});
                 }),
                 "cannot pad Tensor[(), float32]"));
}

TEST_CASE("an operator registered at run time gets a type relation and a kernel") {
  auto& registry = OpRegistry::global();
  const OpDef& def =
      registry.register_op(OpDef("ops_test.scale")
                               .describe("multiplies by a constant")
                               .set_num_inputs(1)
                               .add_attr("factor", AttrKind::float_, 1.0, "the factor")
                               .set_type_relation(same_as_input));
  CHECK(&def == registry.find("ops_test.scale"));
  CHECK_FALSE(def.has_kernel());
  CHECK(type_str(registry.infer_type("ops_test.scale", {float_tensor({4})})) ==
        "Tensor[(4), float32]");

  registry.set_kernel("ops_test.scale", scale_kernel);
  CHECK(def.has_kernel());
  const Attrs attrs = registry.normalize_attrs("ops_test.scale", {{"factor", std::int64_t{2}}});
  const TensorData out =
      def.kernel({TensorData::from_doubles(DataType::float32(), {3}, {1.0, 2.0, 3.0})}, attrs);
  CHECK(out == TensorData::from_doubles(DataType::float32(), {3}, {2.0, 4.0, 6.0}));
  CHECK(contains(error_of([&] { registry.set_kernel("ops_test.scal", scale_kernel); }),
                 "did you mean 'ops_test.scale'"));
}

TEST_CASE("a variadic user operator accepts any count above its minimum") {
  OpRegistry registry;
  registry.register_op(OpDef("pack").set_variadic(2).set_type_relation(
      [](const std::vector<Type>& inputs, const Attrs&) -> Type {
        return TupleType::make(inputs);
      }));
  CHECK(type_str(registry.infer_type("pack",
                                     {float_tensor({1}), float_tensor({2}), float_tensor({3})})) ==
        "Tuple[Tensor[(1), float32], Tensor[(2), float32], Tensor[(3), float32]]");
  CHECK(contains(error_of([&] { registry.infer_type("pack", {float_tensor({1})}); }),
                 "takes at least 2 inputs, but 1 was given"));
}

TEST_CASE("registering a name twice is an error and keeps the first definition") {
  OpRegistry registry;
  registry.register_op(identity_op("twice").describe("first"));
  const std::string message =
      error_of([&] { registry.register_op(identity_op("twice").describe("second")); });
  CHECK(contains(message, "operator 'twice' is already registered"));
  CHECK(registry.get("twice").description == "first");
  CHECK(registry.size() == 1);
  CHECK(contains(error_of([] { OpRegistry::global().register_op(identity_op("add")); }),
                 "'add' is already registered"));
}

TEST_CASE("registration rejects bad names, missing relations and inconsistent schemas") {
  OpRegistry registry;
  for (const char* bad : {"", "1abc", "a..b", ".a", "a.", "a-b", "a b", "a.1b"}) {
    CAPTURE(bad);
    CHECK(contains(error_of([&] { registry.register_op(identity_op(bad)); }),
                   "invalid operator name"));
  }
  for (const char* good : {"a", "_x", "nn.relu", "a.b_c1.d2", "A9"}) {
    CAPTURE(good);
    CHECK_NOTHROW(registry.register_op(identity_op(good)));
  }
  CHECK(contains(error_of([&] { registry.register_op(OpDef("no_relation").set_num_inputs(1)); }),
                 "operator 'no_relation' needs a type relation"));
  CHECK(contains(error_of([&] {
                   registry.register_op(identity_op("dup_attr")
                                            .add_attr("k", AttrKind::int_, "one")
                                            .add_attr("k", AttrKind::bool_, "two"));
                 }),
                 "declares the attribute 'k' twice"));
  CHECK(contains(error_of([&] {
                   registry.register_op(
                       identity_op("bad_default").add_attr("k", AttrKind::bool_, 1.5, "k"));
                 }),
                 "the default of attribute 'k' of operator 'bad_default' is a float, but the "
                 "attribute is a bool"));
  CHECK(contains(error_of([&] {
                   registry.register_op(identity_op("empty_key").add_attr("", AttrKind::int_, ""));
                 }),
                 "empty key"));
  CHECK_FALSE(registry.contains("dup_attr"));
  CHECK_FALSE(registry.contains("bad_default"));
}

TEST_CASE("a type relation that returns no type is reported") {
  OpRegistry registry;
  registry.register_op(OpDef("broken").set_num_inputs(0).set_type_relation(
      [](const std::vector<Type>&, const Attrs&) { return Type(); }));
  CHECK(contains(error_of([&] { registry.infer_type("broken", {}); }),
                 "the type relation of operator 'broken' returned no type"));
}

TEST_CASE("definitions chain on lvalues and move out of temporaries") {
  OpDef def("chained");
  def.describe("d").set_num_inputs(3).add_optional_attr("o", AttrKind::string, "optional");
  CHECK(def.description == "d");
  CHECK(def.arity == Arity::exactly(3));
  REQUIRE(def.find_attr("o") != nullptr);
  CHECK(def.find_attr("o")->optional);
  CHECK_FALSE(def.find_attr("o")->required());
  CHECK(def.find_attr("missing") == nullptr);
  OpDef moved = OpDef("temp").describe("t").set_variadic(1);
  CHECK(moved.name == "temp");
  CHECK(moved.arity == Arity::at_least(1));
}

TEST_CASE("lookups and type inference are safe while other threads register operators") {
  OpRegistry registry;
  ops::register_builtin_ops(registry);
  std::atomic<bool> failed{false};
  std::atomic<int> registered{0};
  std::vector<std::thread> threads;
  threads.emplace_back([&] {
    for (int i = 0; i < 300; ++i) {
      registry.register_op(identity_op("user_op_" + std::to_string(i)));
      ++registered;
    }
  });
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 300; ++i) {
        const Type out = registry.infer_type("add", {float_tensor({2, 3}), float_tensor({3})});
        if (type_str(out) != "Tensor[(2, 3), float32]") {
          failed = true;
        }
        const int seen = registered.load();
        if (seen > 0 && registry.find("user_op_" + std::to_string(seen - 1)) == nullptr) {
          failed = true;
        }
        (void)registry.names();
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  CHECK_FALSE(failed.load());
  CHECK(registry.size() == 21 + 300);
}

TEST_CASE("a lookup answers with the definition of the registry asked, for many names") {
  // More names than a thread's cache of lookups has slots, looked up in turn in two
  // registries that define the same names differently: every answer is that registry's own.
  OpRegistry first;
  OpRegistry second;
  std::vector<const OpDef*> in_first;
  std::vector<const OpDef*> in_second;
  for (int i = 0; i < 200; ++i) {
    const std::string name = "cached_" + std::to_string(i);
    in_first.push_back(&first.register_op(identity_op(name).describe("first")));
    in_second.push_back(&second.register_op(identity_op(name).describe("second")));
  }
  bool all_right = true;
  for (int round = 0; round < 3; ++round) {
    for (std::size_t i = 0; i < in_first.size(); ++i) {
      const std::string name = "cached_" + std::to_string(i);
      all_right = all_right && first.find(name) == in_first[i] &&
                  second.find(name) == in_second[i] && first.find(name + "x") == nullptr;
    }
  }
  for (int round = 0; round < 3; ++round) {
    for (std::size_t i = 0; i < in_first.size(); ++i) {
      all_right = all_right && first.find("cached_" + std::to_string(i)) == in_first[i];
    }
  }
  CHECK(all_right);
  CHECK(first.get("cached_7").description == "first");
  CHECK(second.get("cached_7").description == "second");
}

TEST_CASE("a name looked up before it is registered is found once it is") {
  OpRegistry registry;
  CHECK(registry.find("late") == nullptr);
  CHECK(registry.find("late") == nullptr);
  const OpDef& def = registry.register_op(identity_op("late"));
  CHECK(registry.find("late") == &def);
}

TEST_CASE("a registry made after another one was destroyed never answers with its definitions") {
  // The second registry may well take the first one's memory; the thread's cached lookup of
  // "gone" in the first must not answer for it.
  auto lookup_in_fresh_registry = [](const char* description) {
    OpRegistry registry;
    const OpDef& def = registry.register_op(identity_op("gone").describe(description));
    const OpDef* found = registry.find("gone");
    return found == &def && found->description == description;
  };
  CHECK(lookup_in_fresh_registry("one"));
  CHECK(lookup_in_fresh_registry("two"));
  OpRegistry empty;
  CHECK(empty.find("gone") == nullptr);
}
