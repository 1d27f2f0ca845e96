// Structural utilities, the add_one tour in C++: walk, map, equality and hashing,
// definitions and uses, visit and mutate, each on add_one. docs/traversal.md explains it.
#include <ctir/ctir.hpp>
#include <ctir/text/printer.hpp>

#include <iostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

using namespace ctir;

namespace {

/// `for i in range(n): B[i] = A[i] + value`, with fresh variables at every call.
PrimFunc make_add(float value) {
  Var n = Var::make("n", DataType::int32());
  Var A = Var::make("A", TensorType::make({n}, DataType::float32()));
  Var B = Var::make("B", TensorType::make({n}, DataType::float32()));
  Var i = Var::make("i", DataType::int32());
  return PrimFunc::make("add_one", {A, B},
                        For::make(i, 0, n, TensorStore::make(B, {i}, load(A, {i}) + value)));
}

/// A list of names as Python prints it: ['a', 'b'].
std::string list_text(const std::vector<std::string>& items) {
  std::string text = "[";
  for (std::size_t k = 0; k < items.size(); ++k) {
    text += (k == 0 ? "'" : ", '") + items[k] + "'";
  }
  return text + "]";
}

/// A node's type key without its namespace: "ir.For" -> "For".
std::string short_key(const Object& node) {
  const std::string_view key = node.dynamic_type_key();
  return std::string(key.substr(key.rfind('.') + 1));
}

} // namespace

int main() {
  const PrimFunc add_one = make_add(1.0f);
  const Var n = downcast<Var>(add_one->params[0]->ty.as<TensorTypeNode>()->shape[0]);

  // [tree.begin]
  std::cout << "== format_tree\n" << format_tree(add_one);
  // [tree.end]

  // [walk.begin]: the tensors add_one writes
  std::vector<std::string> written;
  walk(add_one, [&](const TensorStore& store) { written.push_back(store->dest->name); });
  std::cout << "== walk\n";
  std::cout << list_text(written) << '\n';
  // [walk.end]

  // [order.begin]: every statement, both orders
  std::cout << "== order\n";
  for (WalkOrder order : {WalkOrder::pre, WalkOrder::post}) {
    std::vector<std::string> seen;
    walk(add_one, on<StmtNode>([&](const Stmt& s) { seen.push_back(short_key(*s)); }), order);
    std::cout << (order == WalkOrder::pre ? "pre " : "post ");
    std::cout << list_text(seen) << '\n';
  }
  // [order.end]

  // [skip.begin]: do not enter loops
  std::vector<std::string> outside;
  walk(add_one, on<StmtNode>([&](const Stmt& s) -> WalkResult<> {
         outside.push_back(short_key(*s));
         return s.is<ForNode>() ? skip : advance;
       }),
       pre_order);
  std::cout << "== skip\n";
  std::cout << list_text(outside) << '\n';
  // [skip.end]

  // [stop.begin]: the first write
  std::optional<Var> found =
      walk(add_one, [&](const TensorStore& store) { return interrupt(store->dest); });
  std::cout << "== stop\n" << (found ? (*found)->name : std::string("none")) << '\n';
  // [stop.end]

  // [map.begin]: specialize n to 128
  PrimFunc add_128 = map(add_one, [&](const Var& v) -> PrimExpr {
    return v.same_as(n) ? PrimExpr(IntImm::make(128)) : PrimExpr(v);
  });
  std::cout << "== map\n" << print(add_128);
  // [map.end]

  // [equal.begin]: two builds of the same function
  const PrimFunc first = make_add(1.0f);
  const PrimFunc second = make_add(1.0f);
  std::cout << "== equality\n"
            << std::boolalpha << first.same_as(second) << '\n'
            << structural_equal(first, second) << '\n'
            << (structural_hash(first) == structural_hash(second)) << '\n';
  // [equal.end]

  // [free_vars.begin]: x + 1 and y + 1
  Var x = Var::make("x", DataType::int32());
  Var y = Var::make("y", DataType::int32());
  std::cout << structural_equal(x + 1, y + 1) << '\n'
            << structural_equal(x + 1, y + 1, {.map_free_vars = true}) << '\n';
  // [free_vars.end]

  // [assert.begin]: where first and its + 2 variant differ
  try {
    assert_structural_equal(first, make_add(2.0f));
  } catch (const StructuralEqualError& error) {
    std::cout << "== assert_structural_equal\n" << error.what() << '\n';
  }
  // [assert.end]

  // [dedup.begin]: deduplicate by structure
  std::unordered_set<StructuralKey<PrimFunc>> unique;
  for (const PrimFunc& f : {make_add(1.0f), make_add(1.0f), make_add(2.0f)}) {
    unique.emplace(f);
  }
  std::cout << "== dedup\n" << unique.size() << '\n';
  // [dedup.end]

  // [def_sites.begin]: every definition site
  std::cout << "== definition sites\n";
  walk(add_one, with_def_region_kind([&](const Var& var, DefRegionKind kind) {
         if (kind != DefRegionKind::none) {
           std::cout << var->name << ' ' << to_string(kind) << '\n';
         }
       }),
       pre_order);
  // [def_sites.end]

  // [rename.begin]: a new variable at each definition, the same one at every use
  std::unordered_map<const Object*, Var> new_vars;
  PrimFunc renamed =
      map(add_one, with_def_region_kind([&](const Var& var, DefRegionKind kind) -> Var {
            if (kind != DefRegionKind::none && !new_vars.contains(var.get())) {
              new_vars[var.get()] = Var::make(var->name + "1", var->ty);
            }
            auto it = new_vars.find(var.get());
            return it == new_vars.end() ? var : it->second;
          }),
          pre_order);
  std::cout << "== rename\n" << print(renamed);
  // [rename.end]

  // [visit.begin]: the loops around each write
  std::vector<std::string> loops;
  std::vector<std::pair<std::string, std::vector<std::string>>> writes;
  visit(add_one, on<For>([&](auto& visitor, const For& loop) {
          loops.push_back(loop->var->name);
          WalkResult<> result = visitor.default_visit(loop);
          loops.pop_back();
          return result;
        }),
        on<TensorStore>([&](auto&, const TensorStore& store) {
          writes.emplace_back(store->dest->name, loops);
        }));
  std::cout << "== visit\n[";
  for (const auto& [tensor, around] : writes) {
    std::cout << "('" << tensor << "', " << list_text(around) << ")";
  }
  std::cout << "]\n";
  // [visit.end]

  // [mutate.begin]: reverse the loop, i -> n - 1 - i at its uses
  std::unordered_map<const Object*, PrimExpr> reversed_index;
  PrimFunc reversed =
      mutate(add_one, on<For>([&](auto& mutator, const For& loop) -> Stmt {
               reversed_index[loop->var.get()] = loop->end - 1 - loop->var;
               return mutator.default_mutate(loop);
             }),
             on<Var>([&](auto& mutator, const Var& v) -> PrimExpr {
               auto it = reversed_index.find(v.get());
               if (mutator.def_region_kind() != DefRegionKind::none || it == reversed_index.end()) {
                 return v;
               }
               return it->second;
             }));
  std::cout << "== mutate\n" << print(reversed);
  // [mutate.end]
  return 0;
}
