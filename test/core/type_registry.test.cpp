// Tests of include/ctir/core/type_registry.hpp: lookups and run-time registration errors.
#include <ctir/core/type_registry.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/ir/ir.hpp>

#include <doctest/doctest.h>

TEST_CASE("static types are found by key and by index with their ancestors") {
  ctir::register_ir_types();
  const ctir::TypeInfo* loop = ctir::TypeRegistry::global().find("ir.For");
  REQUIRE(loop != nullptr);
  CHECK(loop->index == ctir::ForNode::type_index);
  CHECK(ctir::TypeRegistry::global().find(ctir::ForNode::type_index) == loop);
  CHECK(ctir::TypeRegistry::global().find("ir.Stmt") == &ctir::type_info_v<ctir::StmtNode>);
  CHECK(ctir::TypeRegistry::global().find("Object") == &ctir::type_info_v<ctir::Object>);
  CHECK(ctir::TypeRegistry::global().find("no.such.Type") == nullptr);
}

TEST_CASE("type indices are the hash of the key, the same in every build") {
  CHECK(ctir::ForNode::type_index == ctir::type_index_of_key("ir.For"));
  CHECK(ctir::type_index_of_key("") == 2166136261U);
}

TEST_CASE("every registered type is listed, sorted by key") {
  ctir::register_ir_types();
  auto all = ctir::TypeRegistry::global().all();
  REQUIRE(all.size() >= 40);
  for (std::size_t i = 1; i < all.size(); ++i) {
    CHECK(all[i - 1]->key < all[i]->key);
  }
}

TEST_CASE("registering a runtime type twice or under an unknown parent is an error") {
  ctir::register_ir_types();
  ctir::RuntimeTypeSpec spec;
  spec.key = "registry_test.Abstract";
  spec.parent_key = "ir.Stmt";
  spec.is_abstract = true;
  const ctir::TypeInfo& info = ctir::TypeRegistry::global().add_runtime_type(spec);
  CHECK(info.parent == &ctir::type_info_v<ctir::StmtNode>);
  CHECK(info.depth == ctir::StmtNode::type_depth + 1);
  CHECK(info.derives_from(ctir::type_info_v<ctir::StmtNode>));
  CHECK_THROWS_WITH_AS(ctir::TypeRegistry::global().add_runtime_type(spec),
                       "ctir: type key 'registry_test.Abstract' is registered twice",
                       ctir::type_registration_error);
  ctir::RuntimeTypeSpec orphan;
  orphan.key = "registry_test.Orphan";
  orphan.parent_key = "registry_test.Missing";
  CHECK_THROWS_WITH_AS(ctir::TypeRegistry::global().add_runtime_type(orphan),
                       "ctir: cannot register type 'registry_test.Orphan': its parent "
                       "'registry_test.Missing' is not a registered type (static types "
                       "register when their first node is created, or with "
                       "ctir::register_type<T>(); the IR's all at once with "
                       "ctir::register_ir_types())",
                       ctir::type_registration_error);
  ctir::RuntimeTypeSpec concrete;
  concrete.key = "registry_test.NoHooks";
  CHECK_THROWS_AS(ctir::TypeRegistry::global().add_runtime_type(concrete),
                  ctir::type_registration_error);
  CHECK(ctir::TypeRegistry::global().find("registry_test.NoHooks") == nullptr);
}

TEST_CASE("a final type is recorded as final and no runtime type may derive from it") {
  ctir::register_ir_types();
  CHECK(ctir::type_info_v<ctir::SeqStmtNode>.is_final);
  CHECK_FALSE(ctir::type_info_v<ctir::StmtNode>.is_final);
  CHECK_FALSE(ctir::type_info_v<ctir::Object>.is_final);
  ctir::RuntimeTypeSpec spec;
  spec.key = "registry_test.BlockWithLabel";
  spec.parent_key = "ir.SeqStmt";
  spec.destroy = ctir::type_info_v<ctir::SeqStmtNode>.destroy;
  spec.clone = ctir::type_info_v<ctir::SeqStmtNode>.clone;
  CHECK_THROWS_WITH_AS(ctir::TypeRegistry::global().add_runtime_type(spec),
                       "ctir: cannot register type 'registry_test.BlockWithLabel': its parent "
                       "'ir.SeqStmt' is final",
                       ctir::type_registration_error);
  CHECK(ctir::TypeRegistry::global().find("registry_test.BlockWithLabel") == nullptr);
}
