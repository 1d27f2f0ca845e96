// Tests of include/ctir/hooks/type_table.hpp: runtime descriptors generated from the hooks.
#include <ctir/hooks/type_table.hpp>
#include <ctir/ir/ir.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

struct FieldSummary {
  std::string name;
  ctir::FieldKind kind;
  ctir::DefRegionKind def_kind;
  std::uint32_t flags;
  std::uint32_t element_type_index;
  friend bool operator==(const FieldSummary&, const FieldSummary&) = default;
};

template <class T>
std::vector<FieldSummary> static_fields() {
  std::vector<FieldSummary> result;
  ctir::for_each_field<T>([&](const auto& field) {
    using F = std::remove_cvref_t<decltype(field)>;
    std::uint32_t element = 0;
    if constexpr (F::kind != ctir::FieldKind::value) {
      element = F::element_type::type_index;
    }
    result.push_back({std::string(field.name), F::kind, F::def_kind, F::flags, element});
  });
  return result;
}

std::vector<FieldSummary> runtime_fields(const ctir::TypeInfo& info) {
  std::vector<FieldSummary> result;
  for (const ctir::FieldInfo& field : info.fields) {
    result.push_back({std::string(field.name), field.kind, field.def_kind, field.flags,
                      field.element_type_index});
  }
  return result;
}

template <class... Ts>
void check_all(ctir::type_list<Ts...>) {
  (
      [] {
        CAPTURE(Ts::type_key);
        const ctir::TypeInfo* info = ctir::TypeRegistry::global().find(Ts::type_key);
        REQUIRE(info != nullptr);
        CHECK(info == &ctir::type_info_v<Ts>);
        CHECK(runtime_fields(*info) == static_fields<Ts>());
        CHECK(info->index == Ts::type_index);
        CHECK(info->depth == Ts::type_depth);
        CHECK_FALSE(info->is_abstract);
        CHECK((info->destroy != nullptr));
        CHECK((info->clone != nullptr));
      }(),
      ...);
}

} // namespace

TEST_CASE("the runtime hook table equals the static one for every IR node type") {
  check_all(ctir::ir_node_types{});
}

TEST_CASE("ancestry in the descriptor follows the class hierarchy") {
  const ctir::TypeInfo& var = ctir::type_info_v<ctir::VarNode>;
  CHECK(var.derives_from(ctir::type_info_v<ctir::PrimExprNode>));
  CHECK(var.derives_from(ctir::type_info_v<ctir::ExprNode>));
  CHECK(var.derives_from(ctir::type_info_v<ctir::Object>));
  CHECK_FALSE(var.derives_from(ctir::type_info_v<ctir::StmtNode>));
  CHECK(var.parent == &ctir::type_info_v<ctir::PrimExprNode>);
  CHECK(var.is_variable);
  CHECK((var.variable_name != nullptr));
  CHECK_FALSE(ctir::type_info_v<ctir::GlobalVarNode>.is_variable);
  CHECK(ctir::type_info_v<ctir::ExprNode>.is_abstract);
}

TEST_CASE("a cloned node has the same fields, the same type and no owners") {
  ctir::Var n = ctir::Var::make("n", ctir::DataType::int32());
  ctir::PrimExpr sum = n + 1;
  ctir::Owned<ctir::Object> copy = ctir::clone_object(*sum);
  CHECK(copy->dynamic_type_index() == sum->dynamic_type_index());
  CHECK(copy->use_count() == 0);
  const auto& add = static_cast<const ctir::AddNode&>(*copy);
  CHECK(add.a.same_as(n));
  ctir::ObjectRef published = std::move(copy);
  CHECK(published->use_count() == 1);
  CHECK(n->use_count() == 3); // n, sum.a, the clone's a
}

TEST_CASE("setting a node field checks the node type") {
  ctir::Var x = ctir::Var::make("x", ctir::DataType::int32());
  ctir::PrimExpr sum = x + 1;
  auto copy = ctir::clone_object(*sum);
  const ctir::FieldInfo& a = sum->type_info().fields[1];
  REQUIRE(a.name == "a");
  ctir::Stmt stmt = ctir::SeqStmt::make({});
  CHECK_THROWS_AS(a.set(*copy, a, stmt), ctir::bad_node_cast);
  a.set(*copy, a, ctir::PrimExpr(2));
  CHECK(static_cast<const ctir::AddNode&>(*copy).a.is<ctir::IntImmNode>());
}

TEST_CASE("elided defaults compare against a default-constructed node") {
  ctir::IntImm i32 = ctir::IntImm::make(3);
  ctir::IntImm i64 = ctir::IntImm::make(3, ctir::DataType::int64());
  const ctir::FieldInfo& dtype = i32->type_info().fields[1];
  REQUIRE(dtype.name == "dtype");
  CHECK(dtype.is_default(*i32, dtype));
  CHECK_FALSE(dtype.is_default(*i64, dtype));
  ctir::FloatImm f32 = ctir::FloatImm::make(1.0);
  CHECK(f32->type_info().fields[1].is_default(*f32, f32->type_info().fields[1]));
}
