// Laws of structural equality and hashing, over every IR node type, on generated programs.
#include <ctir/ctir.hpp>
#include <ctir/runtime/structural_equal.hpp>
#include <ctir/runtime/structural_hash.hpp>
#include <ctir/traverse/structural_equal.hpp>
#include <ctir/traverse/structural_hash.hpp>

#include <doctest/doctest.h>
#include <ir_generator.hpp>

#include <cstdint>
#include <tuple>

namespace {

using namespace ctir;
using ctir::testing::IrGenerator;

using all_node_types = ctir::testing::all_ir_node_types;

constexpr int instances_per_type = 12;
constexpr int depth = 3;

template <class T>
std::uint64_t seed_for(int instance) {
  return static_cast<std::uint64_t>(instance) * 7919U + T::type_index;
}

/// The laws every pair must satisfy, whatever the pair: symmetry, equal => same hash,
/// the runtime layer agrees with the static one, and a mismatch is found exactly when
/// the values are unequal.
void check_pair_laws(const ObjectRef& a, const ObjectRef& b) {
  for (const bool map_free : {false, true}) {
    CAPTURE(map_free);
    const bool equal = structural_equal(a, b, {.map_free_vars = map_free});
    CHECK(structural_equal(b, a, {.map_free_vars = map_free}) == equal);
    CHECK(runtime::structural_equal(a, b, {.map_free_vars = map_free}) == equal);
    CHECK(find_structural_mismatch(a, b, {.map_free_vars = map_free}).has_value() == !equal);
    const std::uint64_t ha = structural_hash(a, {.map_free_vars = map_free});
    const std::uint64_t hb = structural_hash(b, {.map_free_vars = map_free});
    CHECK(runtime::structural_hash(a, {.map_free_vars = map_free}) == ha);
    if (equal) {
      CHECK(ha == hb);
    }
  }
}

} // namespace

TEST_CASE_TEMPLATE_DEFINE("structural equality is reflexive", T, reflexive_law) {
  for (int k = 0; k < instances_per_type; ++k) {
    IrGenerator gen(seed_for<T>(k));
    const ObjectRef x = gen.template make<T>(depth);
    CAPTURE(k);
    CHECK(structural_equal(x, x));
    CHECK(structural_equal(x, x, {.map_free_vars = true}));
    CHECK(runtime::structural_equal(x, x));
    CHECK_FALSE(find_structural_mismatch(x, x).has_value());
  }
}
TEST_CASE_TEMPLATE_APPLY(reflexive_law, all_node_types);

TEST_CASE_TEMPLATE_DEFINE("alpha-renamed copies are structurally equal and hash alike", T,
                          alpha_law) {
  for (int k = 0; k < instances_per_type; ++k) {
    IrGenerator gen(seed_for<T>(k));
    const ObjectRef x = gen.template make<T>(depth);
    const ObjectRef renamed = ctir::testing::alpha_rename(x);
    CAPTURE(k);
    const auto mismatch = find_structural_mismatch(x, renamed);
    CHECK_MESSAGE(!mismatch.has_value(),
                  (mismatch ? mismatch->lhs_path.str() + ": " + mismatch->reason : ""));
    CHECK(structural_equal(renamed, x));
    CHECK(runtime::structural_equal(x, renamed));
    CHECK(structural_hash(x) == structural_hash(renamed));
    CHECK(runtime::structural_hash(renamed) == structural_hash(x));
    check_pair_laws(x, renamed);
  }
}
TEST_CASE_TEMPLATE_APPLY(alpha_law, all_node_types);

TEST_CASE_TEMPLATE_DEFINE("programs from the same seed are equal once free variables are mapped", T,
                          same_seed_law) {
  for (int k = 0; k < instances_per_type; ++k) {
    IrGenerator first(seed_for<T>(k));
    IrGenerator second(seed_for<T>(k));
    const ObjectRef x = first.template make<T>(depth);
    const ObjectRef y = second.template make<T>(depth);
    CAPTURE(k);
    // Each generator has its own free variables: equal only when they are paired up.
    CHECK(structural_equal(x, y, {.map_free_vars = true}));
    CHECK(structural_hash(x, {.map_free_vars = true}) ==
          structural_hash(y, {.map_free_vars = true}));
    check_pair_laws(x, y);
  }
}
TEST_CASE_TEMPLATE_APPLY(same_seed_law, all_node_types);

TEST_CASE_TEMPLATE_DEFINE("structural equality is symmetric and equal values hash alike", T,
                          symmetric_law) {
  IrGenerator gen(seed_for<T>(1000));
  std::vector<ObjectRef> values;
  for (int k = 0; k < instances_per_type; ++k) {
    values.push_back(gen.template make<T>(depth));
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j = 0; j < values.size(); ++j) {
      CAPTURE(i);
      CAPTURE(j);
      check_pair_laws(values[i], values[j]);
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(symmetric_law, all_node_types);

TEST_CASE_TEMPLATE_DEFINE("a one-leaf change is unequal and the mismatch path names that leaf", T,
                          leaf_change_law) {
  int changed = 0;
  for (int k = 0; k < instances_per_type; ++k) {
    IrGenerator gen(seed_for<T>(k));
    const ObjectRef x = gen.template make<T>(depth);
    for (const bool map_free : {false, true}) {
      const auto change = ctir::testing::change_first_leaf(x, map_free);
      if (!change) {
        continue;
      }
      ++changed;
      const StructuralEqualOptions options{.map_free_vars = map_free};
      CAPTURE(k);
      CAPTURE(map_free);
      CAPTURE(change->path);
      CHECK_FALSE(structural_equal(x, change->changed, options));
      CHECK_FALSE(structural_equal(change->changed, x, options));
      CHECK_FALSE(runtime::structural_equal(x, change->changed, options));
      CHECK(structural_hash(x, {.map_free_vars = map_free}) !=
            structural_hash(change->changed, {.map_free_vars = map_free}));
      for (const auto& mismatch :
           {find_structural_mismatch(x, change->changed, options),
            runtime::find_structural_mismatch(x, change->changed, options)}) {
        REQUIRE(mismatch.has_value());
        CHECK(mismatch->lhs_path.str() == change->path);
        CHECK(mismatch->rhs_path.str() == change->path);
        CHECK(mismatch->lhs_path.resolve(x).same_as(mismatch->lhs_node));
        CHECK(mismatch->rhs_path.resolve(change->changed).same_as(mismatch->rhs_node));
      }
      check_pair_laws(x, change->changed);
    }
  }
  // Every node type has instances with a literal, a dtype or a name to change.
  CHECK(changed > 0);
}
TEST_CASE_TEMPLATE_APPLY(leaf_change_law, all_node_types);
