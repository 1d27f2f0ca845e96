// Tests of include/ctir/hooks/family.hpp: families and static dispatch.
#include <ctir/hooks/family.hpp>
#include <ctir/hooks/runtime_type.hpp>
#include <ctir/ir/ir.hpp>

#include <doctest/doctest.h>

#include <string>

static_assert(ctir::list_contains_v<ctir::ForNode, ctir::family_t<ctir::StmtNode>>);
static_assert(!ctir::list_contains_v<ctir::ForNode, ctir::family_t<ctir::PrimExprNode>>);
static_assert(ctir::list_contains_v<ctir::AddNode, ctir::family_t<ctir::ExprNode>>,
              "nested families are flattened");
static_assert(std::is_same_v<ctir::family_t<ctir::VarNode>, ctir::type_list<ctir::VarNode>>,
              "a concrete type is its own family");
static_assert(ctir::family_t<ctir::StmtNode>::size == 6);

TEST_CASE("dispatch calls the callback with the concrete static type") {
  ctir::Stmt stmt = ctir::SeqStmt::make({});
  std::string seen;
  ctir::dispatch<ctir::StmtNode>(
      *stmt,
      [&](const auto& node) {
        using T = std::remove_cvref_t<decltype(node)>;
        seen = std::string(T::type_key);
        if constexpr (std::is_same_v<T, ctir::SeqStmtNode>) {
          CHECK(node.seq.empty());
        }
      },
      [&](const ctir::Object&) { seen = "fallback"; });
  CHECK(seen == "ir.SeqStmt");
}

TEST_CASE("dispatch sends types outside the family to the fallback") {
  const ctir::TypeInfo& plugin =
      ctir::register_dynamic_type<ctir::StmtNode>("family_test.Plugin", {});
  ctir::Stmt stmt = ctir::make_dynamic<ctir::StmtNode>(plugin);
  std::string seen;
  ctir::dispatch<ctir::StmtNode>(
      *stmt, [&](const auto&) { seen = "static"; },
      [&](const ctir::Object& node) { seen = std::string(node.dynamic_type_key()); });
  CHECK(seen == "family_test.Plugin");
  CHECK(stmt.is<ctir::StmtNode>());
}

namespace family_test {
/// A root whose members are only known at run time: its family is declared empty.
struct PluginRootNode : ctir::Object {
  CTIR_ABSTRACT_NODE(PluginRootNode, ctir::Object, "family_test.PluginRoot");
};
} // namespace family_test

CTIR_FAMILY(family_test::PluginRootNode);

static_assert(ctir::family_t<family_test::PluginRootNode>::size == 0);

TEST_CASE("a family declared empty sends every member to the fallback") {
  const ctir::TypeInfo& member =
      ctir::register_dynamic_type<family_test::PluginRootNode>("family_test.PluginMember", {});
  ctir::Ref<family_test::PluginRootNode> node =
      ctir::make_dynamic<family_test::PluginRootNode>(member);
  std::string seen;
  ctir::dispatch<family_test::PluginRootNode>(
      *node, [&](const auto&) { seen = "static"; },
      [&](const ctir::Object& object) { seen = std::string(object.dynamic_type_key()); });
  CHECK(seen == "family_test.PluginMember");
}
