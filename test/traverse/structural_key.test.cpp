// Tests of StructuralKey and the StructuralHash / StructuralEqual function objects.
#include <ctir/ctir.hpp>
#include <ctir/traverse/structural_key.hpp>

#include <doctest/doctest.h>
#include <ir_generator.hpp>

#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

using namespace ctir;
using ctir::testing::make_add;

static_assert(std::is_same_v<StructuralKey<PrimFunc>::node_type, PrimFuncNode> &&
                  std::is_same_v<StructuralKey<PrimFuncNode>::node_type, PrimFuncNode>,
              "a key takes its node type directly or through the Ref type");

TEST_CASE("structural keys deduplicate equal programs: two add_one(1) and one add_one(2) give 2") {
  std::unordered_set<StructuralKey<PrimFuncNode>> unique;
  for (const PrimFunc& f : {make_add(1), make_add(1), make_add(2)}) {
    unique.emplace(f);
  }
  CHECK(unique.size() == 2);
  CHECK(unique.count(make_add(2)) == 1);
  CHECK(unique.count(make_add(3)) == 0);
}

TEST_CASE("a structural key caches the structural hash of its value") {
  const PrimFunc f = make_add(1);
  const StructuralKey key(f); // deduced: StructuralKey<PrimFuncNode>
  CHECK(key.hash() == structural_hash(f));
  CHECK(std::hash<StructuralKey<PrimFuncNode>>{}(key) == static_cast<std::size_t>(key.hash()));
  CHECK(key.get().same_as(f));
  CHECK((*key).same_as(f));
  CHECK(key->params.size() == 2);
}

TEST_CASE("structural keys compare by structure, not identity") {
  const StructuralKey<PrimFunc> a = make_add(1);
  const StructuralKey<PrimFunc> b = make_add(1);
  const StructuralKey<PrimFunc> c = make_add(2);
  CHECK(a == b);
  CHECK_FALSE(a == c);
  CHECK_FALSE(a.get().same_as(b.get()));
}

TEST_CASE("structural keys index maps: counting equal programs") {
  std::unordered_map<StructuralKey<PrimFunc>, int> count;
  for (float c : {1.0f, 2.0f, 1.0f, 1.0f, 2.0f, 3.0f}) {
    ++count[make_add(c)];
  }
  CHECK(count.size() == 3);
  CHECK(count[make_add(1)] == 3);
  CHECK(count[make_add(2)] == 2);
  CHECK(count[make_add(3)] == 1);
}

TEST_CASE("StructuralHash and StructuralEqual make standard containers compare by structure") {
  std::unordered_set<PrimFunc, StructuralHash, StructuralEqual> unique;
  unique.insert(make_add(1));
  unique.insert(make_add(1));
  unique.insert(make_add(2));
  CHECK(unique.size() == 2);
  CHECK(StructuralEqual{}(make_add(1), make_add(1)));
  CHECK(StructuralHash{}(make_add(1)) == StructuralHash{}(make_add(1)));
}

TEST_CASE("the function objects take map_free_vars") {
  const Var x = Var::make("x", DataType::int32());
  const Var y = Var::make("y", DataType::int32());
  CHECK_FALSE(StructuralEqual{}(x + 1, y + 1));
  const StructuralEqual mapped{.map_free_vars = true};
  CHECK(mapped(x + 1, y + 1));
  const StructuralHash mapped_hash{.map_free_vars = true};
  CHECK(mapped_hash(x + 1) == mapped_hash(y + 1));
  std::unordered_set<PrimExpr, StructuralHash, StructuralEqual> unique(8, mapped_hash, mapped);
  unique.insert(x + 1);
  unique.insert(y + 1);
  CHECK(unique.size() == 1);
}
