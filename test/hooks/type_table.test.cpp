// Tests of include/ctir/hooks/type_table.hpp: runtime descriptors generated from the hooks.
#include <ctir/hooks/type_table.hpp>
#include <ctir/ir/ir.hpp>

#include <doctest/doctest.h>

#include <array>
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
  ctir::register_ir_types();
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

TEST_CASE("a node made like another has its type and descriptor, default fields and no owners") {
  ctir::Var n = ctir::Var::make("n", ctir::DataType::int32());
  ctir::Add sum = ctir::Add::make(n, 1);
  ctir::Owned<ctir::AddNode> fresh = ctir::make_object_like(*sum);
  CHECK(fresh->dynamic_type_index() == sum->dynamic_type_index());
  CHECK(&fresh->type_info() == &sum->type_info());
  CHECK(fresh->use_count() == 0);
  CHECK_FALSE(fresh->a.defined());
  fresh->a = n;
  fresh->b = sum->b;
  ctir::Add published = std::move(fresh).publish();
  CHECK(published->a.same_as(n));
  CHECK(published->type_info().key == std::string_view("ir.Add"));
}

TEST_CASE("setting a node field checks the node type") {
  ctir::Var x = ctir::Var::make("x", ctir::DataType::int32());
  ctir::PrimExpr sum = x + 1;
  auto copy = ctir::clone_object(*sum);
  const ctir::FieldInfo& a = sum->type_info().fields[1];
  REQUIRE(a.name == "a");
  ctir::Stmt stmt = ctir::SeqStmt::make({});
  CHECK_THROWS_WITH_AS(a.set(*copy, a, stmt),
                       "ctir: field 'a' holds a ir.PrimExpr, not a ir.SeqStmt",
                       ctir::bad_node_cast);
  // The failed set kept no reference, and left the field as it was.
  CHECK(stmt->use_count() == 1);
  CHECK(static_cast<const ctir::AddNode&>(*copy).a.same_as(x));
  const ctir::PrimExpr two(2);
  a.set(*copy, a, two);
  CHECK(static_cast<const ctir::AddNode&>(*copy).a.same_as(two));
  CHECK(two->use_count() == 2); // `two` and the field: the value moved in
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

namespace {

struct ChildRecord {
  std::string key;
  ctir::DefRegionKind region;
  friend bool operator==(const ChildRecord&, const ChildRecord&) = default;
};

/// A ChildVisitor that records every child (its filter skips nothing) and stops after
/// `limit` of them.
struct RecordingVisitor : ctir::ChildVisitor {
  std::array<FilterSlot, filter_slots> nothing_skipped{};
  std::vector<ChildRecord> seen;
  std::size_t limit = 1000;

  RecordingVisitor() {
    for (std::uint32_t slot = 0; slot < filter_slots; ++slot) {
      nothing_skipped[slot].index = slot ^ 1U;
    }
    filter = nothing_skipped.data();
    visit = [](ChildVisitor& self, const ctir::Object& child, ctir::DefRegionKind region) {
      auto& recorder = static_cast<RecordingVisitor&>(self);
      recorder.seen.push_back({std::string(child.dynamic_type_key()), region});
      return recorder.seen.size() < recorder.limit;
    };
  }
};

} // namespace

TEST_CASE("a static type's for_each_child reports its children in field order with their sites") {
  using namespace ctir;
  Var i = Var::make("i", DataType::int32());
  Var n = Var::make("n", DataType::int32());
  Var buffer = Var::make("B", TensorType::make({n}, DataType::float32()));
  Stmt store = TensorStore::make(buffer, {i}, 1.0f);
  For loop = For::make(i, 0, n, store);
  const TypeInfo& info = loop->type_info();
  REQUIRE((info.for_each_child != nullptr));
  RecordingVisitor visitor;
  CHECK(info.for_each_child(*loop, DefRegionKind::none, visitor));
  CHECK(visitor.seen == std::vector<ChildRecord>{{"ir.Var", DefRegionKind::def_simple},
                                                 {"ir.IntImm", DefRegionKind::none},
                                                 {"ir.Var", DefRegionKind::none},
                                                 {"ir.SeqStmt", DefRegionKind::none}});
  // A pattern region covers the whole subtree: every child is in it.
  RecordingVisitor in_pattern;
  CHECK(info.for_each_child(*loop, DefRegionKind::def_pattern, in_pattern));
  REQUIRE(in_pattern.seen.size() == 4);
  for (const ChildRecord& child : in_pattern.seen) {
    CHECK(child.region == DefRegionKind::def_pattern);
  }
  // Array fields report each element; a false from the visitor stops at once.
  RecordingVisitor stops;
  stops.limit = 2;
  CHECK_FALSE(store->type_info().for_each_child(*store, DefRegionKind::none, stops));
  CHECK(stops.seen ==
        std::vector<ChildRecord>{{"ir.Var", DefRegionKind::none}, {"ir.Var", DefRegionKind::none}});
}

TEST_CASE("a value field names its C++ value type and gives the value's address") {
  ctir::Ref<ctir::ForNode> loop =
      ctir::For::make(ctir::Var::make("i", ctir::DataType::int32()), 0, 4, ctir::SeqStmt::make({}),
                      ctir::ForKind::parallel);
  const ctir::FieldInfo& kind = ctir::type_info_v<ctir::ForNode>.fields.back();
  REQUIRE(kind.name == "kind");
  CHECK(kind.value_type == &ctir::value_type_id_v<ctir::ForKind>);
  CHECK(kind.value_type != &ctir::value_type_id_v<int>);
  REQUIRE((kind.value_address != nullptr));
  CHECK(*static_cast<const ctir::ForKind*>(kind.value_address(*loop, kind)) ==
        ctir::ForKind::parallel);

  const ctir::TypeInfo& float_imm = ctir::type_info_v<ctir::FloatImmNode>;
  for (const ctir::FieldInfo& field : float_imm.fields) {
    CAPTURE(field.name);
    if (field.kind == ctir::FieldKind::value && !field.ignored()) {
      CHECK(field.value_type != nullptr);
    } else {
      // Node fields and ignored values are never read as values.
      CHECK(field.value_type == nullptr);
      CHECK((field.value_address == nullptr));
    }
  }
}
