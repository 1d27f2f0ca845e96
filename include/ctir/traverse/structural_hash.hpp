// structural_hash: a deterministic 64-bit hash of IR consistent with structural_equal.
#pragma once

#include <ctir/core/inline.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/hooks/hooks.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/hooks/value_traits.hpp>
#include <ctir/traverse/detail/equal_support.hpp>
#include <ctir/traverse/detail/field_plan.hpp>
#include <ctir/traverse/detail/structural_types.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

namespace ctir {

namespace detail::structural {

/// A position waiting to be hashed.
struct HashEntry {
  const Object* node;
  std::uint16_t flags; ///< entry_flags
};

/// A shared node whose subtree is being hashed, to memoize the subtree's hash.
struct HashFrame {
  const Object* node;
  std::uint64_t acc;    ///< the running hash before the node
  std::uint64_t length; ///< the number of tokens before the node
  std::size_t records;  ///< variables recorded before the node
  std::uint64_t graphs; ///< graph-level nodes met before the node
  std::size_t base;     ///< the work-stack size below the node's children
};

/// What a memoized subtree contributes: acc -> acc * power + hash, and its token count.
struct SubtreeHash {
  std::uint64_t hash = 0;
  std::uint64_t power = 1;
  std::uint64_t length = 0;
};

// Polynomial hashing modulo the Mersenne prime 2^61 - 1: the hash of a token sequence is
// sum(t_i * B^(n-1-i)), so the hash of a concatenation composes from the parts
// (H(xy) = H(x) * B^|y| + H(y)), which is what lets a memoized subtree be skipped
// without changing the result. A prime modulus (unlike 2^64) has no structured
// collisions such as the Thue-Morse sequences.
inline constexpr std::uint64_t hash_prime = (std::uint64_t{1} << 61U) - 1;
inline constexpr std::uint64_t hash_base = 0x0A3B6D8F1C2E4A57ULL % hash_prime;
inline constexpr std::uint64_t null_token = 0x9AE16A3B2F90404FULL;
inline constexpr std::uint64_t node_seed = 0xC3A5C85C97CB3127ULL;
inline constexpr std::uint64_t bound_var_seed = 0xB492B66FBE98F273ULL;
inline constexpr std::uint64_t free_var_seed = 0x9AE16A3B2F90404EULL;
inline constexpr std::uint64_t graph_reference_seed = 0x5851F42D4C957F2DULL;

inline std::uint64_t reduce61(std::uint64_t x) noexcept {
  x = (x & hash_prime) + (x >> 61U);
  return x >= hash_prime ? x - hash_prime : x;
}

#if defined(__SIZEOF_INT128__)
__extension__ using hash_uint128 = unsigned __int128;

/// a * b mod 2^61 - 1, for a, b < 2^61.
inline std::uint64_t mul61(std::uint64_t a, std::uint64_t b) noexcept {
  const hash_uint128 z = static_cast<hash_uint128>(a) * b;
  return reduce61((static_cast<std::uint64_t>(z) & hash_prime) +
                  static_cast<std::uint64_t>(z >> 61U));
}
#else
/// a * b mod 2^61 - 1, for a, b < 2^61, from 32-bit halves (no 128-bit integers).
inline std::uint64_t mul61(std::uint64_t a, std::uint64_t b) noexcept {
  const std::uint64_t a_hi = a >> 32U;
  const std::uint64_t a_lo = a & 0xFFFFFFFFU;
  const std::uint64_t b_hi = b >> 32U;
  const std::uint64_t b_lo = b & 0xFFFFFFFFU;
  // a*b = hh 2^64 + (hl + lh) 2^32 + ll; 2^64 = 8 and 2^61 = 1 modulo the prime.
  const std::uint64_t mid = a_hi * b_lo + a_lo * b_hi; // < 2^62
  const std::uint64_t low = a_lo * b_lo;
  std::uint64_t r = (a_hi * b_hi) << 3U;            // < 2^61 (hh < 2^58)
  r += (mid >> 29U) + ((mid & 0x1FFFFFFFU) << 32U); // mid 2^32 = (mid>>29) 2^61 + ...
  r = reduce61(r);
  return reduce61(r + reduce61(low));
}
#endif
inline std::uint64_t add61(std::uint64_t a, std::uint64_t b) noexcept {
  const std::uint64_t s = a + b;
  return s >= hash_prime ? s - hash_prime : s;
}

#if defined(__SIZEOF_INT128__)
/// acc * B + token modulo the prime, for an acc below 2^62 + 16, partly reduced: the result is
/// congruent and again below 2^62 + 16 (reduce61 makes it canonical). Folding a token, once per
/// node, then costs one multiplication and a few shifts and masks, without the comparisons of
/// a full reduction.
inline std::uint64_t fold61(std::uint64_t acc, std::uint64_t token) noexcept {
  const hash_uint128 z = static_cast<hash_uint128>(acc) * hash_base; // < 2^123 + 2^65
  std::uint64_t r =
      (static_cast<std::uint64_t>(z) & hash_prime) + static_cast<std::uint64_t>(z >> 61U); // < 2^63
  r = (r & hash_prime) + (r >> 61U);                // < 2^61 + 4
  return r + (token & hash_prime) + (token >> 61U); // < 2^62 + 12
}
#else
inline std::uint64_t fold61(std::uint64_t acc, std::uint64_t token) noexcept {
  return add61(mul61(acc, hash_base), reduce61(token));
}
#endif
inline std::uint64_t pow61(std::uint64_t base, std::uint64_t exponent) noexcept {
  std::uint64_t result = 1;
  while (exponent != 0) {
    if ((exponent & 1U) != 0) {
      result = mul61(result, base);
    }
    base = mul61(base, base);
    exponent >>= 1U;
  }
  return result;
}

/// How deep hashing recurses on the native stack before it hands the rest of a subtree
/// to the explicit stack.
inline constexpr unsigned hash_recursion_budget = 160;

/// The structural hash driven by the runtime field tables, over an explicit stack: the
/// whole of the runtime layer, and the continuation of the static fast path below its
/// recursion budget or into a node type it does not know. It does not depend on the
/// static universe, so it is instantiated once per program.
///
/// The hash is a polynomial over the tokens of the values in comparison order (the
/// order structural_equal visits them in): one token per node (its type index, plain
/// values and array lengths), one per null, one per variable encounter. A variable's
/// token is fixed at its first encounter, exactly when structural_equal binds it: bound
/// variables (and free ones under map_free_vars) get the index of that encounter, other
/// free variables their type and name hint (equal free variables are the same object);
/// its own fields (the type) are hashed at that first encounter only. No pointer value
/// enters a hash, so it is the same in every run.
///
/// Graph-level dataflow nodes with children are a DAG, as structural_equal compares them
/// (tensor-level functions, which equality also pairs one to one, hash as trees):
/// each one met for the first time gets the next ordinal, and meeting it again hashes as a
/// reference to that ordinal (one token), so a DAG and its expanded tree hash apart, and
/// equal DAGs, whose nodes pair up in the same order, hash alike.
///
/// Other shared nodes are memoized by identity (only nodes referenced more than once can be
/// met again), so a DAG hashes in time linear in its distinct nodes. The binding context
/// is handled by construction: a visit of a subtree that records no new variable sees
/// only tokens already fixed, so its contribution is the same wherever the subtree
/// occurs again; a visit that records one (the first, when the subtree holds a first
/// encounter) is not memoized, and the next visit, which records nothing, is.
class HashCore {
public:
  explicit HashCore(bool map_free_vars) noexcept : map_free_vars_(map_free_vars) {}
  HashCore(const HashCore&) = delete;
  HashCore& operator=(const HashCore&) = delete;

  /// The final hash of a whole value hashed into `acc`.
  std::uint64_t finish(std::uint64_t acc) const noexcept {
    return mix64(reduce61(acc) ^ mix64(length_));
  }

  /// Hashes a subtree to the end and returns the running hash after it.
  std::uint64_t run_iterative(const Object* node, std::uint16_t flags, std::uint64_t acc);

protected:
  // The running hash is congruent to the polynomial modulo the prime, but only partly reduced
  // between tokens (see fold61): it is made canonical where it is read (finish, skip, and the
  // two ends of a memoized subtree), so the hash does not depend on the representative.
  CTIR_DETAIL_ALWAYS_INLINE std::uint64_t fold(std::uint64_t acc, std::uint64_t token) noexcept {
    ++length_;
    return fold61(acc, token);
  }

  std::uint64_t skip(std::uint64_t acc, const SubtreeHash& subtree) noexcept {
    length_ += subtree.length;
    return add61(mul61(reduce61(acc), subtree.power), subtree.hash);
  }

  /// Where a shared subtree starts, to memoize what it contributes.
  HashFrame open_shared(const Object* node, std::uint64_t acc) const noexcept {
    return HashFrame{node, reduce61(acc), length_, tokens_.size(), graphs_met_, 0};
  }

  void complete(const HashFrame& frame, std::uint64_t acc) {
    if (frame.records != tokens_.size() || frame.graphs != graphs_met_) {
      return; // the subtree recorded variables or graph nodes: its next visit will differ
    }
    SubtreeHash subtree;
    subtree.length = length_ - frame.length;
    subtree.power = pow61(hash_base, subtree.length);
    subtree.hash = add61(reduce61(acc), hash_prime - mul61(frame.acc, subtree.power));
    memo_.insert_new(frame.node, subtree);
  }

  const SubtreeHash* memoized(const Object* node) noexcept { return memo_.find(node); }

  /// For a graph-level node with children: true, with the token of a reference to it, if
  /// the hash met it before; else false, and the node takes the next ordinal.
  bool graph_node_met_before(const Object* node, std::uint64_t& token) {
    if (node->use_count() > 1) {
      if (const std::uint64_t* ordinal = graphs_.find(node)) {
        token = hash_combine(graph_reference_seed, *ordinal);
        return true;
      }
      graphs_.insert_new(node, graphs_met_);
    }
    ++graphs_met_;
    return false;
  }

  // The token of a variable; true on its first encounter (its fields are hashed next),
  // false on every later one.
  CTIR_DETAIL_ALWAYS_INLINE bool first_encounter(const Object* var, std::uint32_t type_index,
                                                 std::uint16_t flags, std::uint64_t& token) {
    if (const std::uint64_t* known = tokens_.find(var)) [[likely]] {
      token = *known;
      return false;
    }
    token = record(var, type_index, flags);
    return true;
  }

  /// The token of a variable met before, or nullptr at its first encounter.
  CTIR_DETAIL_ALWAYS_INLINE const std::uint64_t* known_token(const Object* var) noexcept {
    return tokens_.find(var);
  }

  /// Fixes the token of a variable at its first encounter.
  std::uint64_t record(const Object* var, std::uint32_t type_index, std::uint16_t flags) {
    std::uint64_t token;
    if (is_definition(flags) || map_free_vars_) {
      token = hash_combine(hash_combine(bound_var_seed, type_index), tokens_.size());
    } else {
      const TypeInfo& info = var->type_info();
      const std::string_view name =
          info.variable_name != nullptr ? info.variable_name(*var) : std::string_view();
      token = hash_combine(hash_combine(free_var_seed, type_index), hash_bytes(name));
    }
    tokens_.insert_new(var, token);
    return token;
  }

private:
  CTIR_DETAIL_ALWAYS_INLINE void push(const HashEntry& entry);

  void step(const HashEntry& e);

  bool map_free_vars_;
  FieldPlanCache plans_{PlanPurpose::hash};
  std::uint64_t acc_ = 0;
  std::uint64_t length_ = 0;
  bool has_pending_ = false;
  HashEntry pending_{};
  WorkStack<HashEntry> work_;
  WorkStack<HashFrame, 8> frames_;
  FlatMap<const Object*, std::uint64_t> tokens_;
  FlatMap<const Object*, SubtreeHash, SlotOrder::by_address> memo_;
  /// Shared graph-level nodes met so far, with their ordinals.
  FlatMap<const Object*, std::uint64_t, SlotOrder::by_address> graphs_;
  std::uint64_t graphs_met_ = 0;
};

/// The static layer's fast path: the same hash, recursing through the compile-time hooks
/// of the node types in Universe with the running hash in registers. A frameless `hash`
/// (null check) tail-calls, through a table indexed by the perfect hash of the type
/// (slot_entries), one small function per node type.
/// Past `hash_recursion_budget` levels, or at a node type outside Universe, the subtree
/// goes to the iterative core, in the same order.
template <class Universe>
class HashEngine : public HashCore {
public:
  using HashCore::HashCore;

  std::uint64_t run(const Object* root) { return finish(hash(root, 0, 0)); }

private:
  struct OnStatic {
    HashEngine& engine;
    unsigned position;
    std::uint64_t acc;
    template <class T>
    CTIR_DETAIL_ALWAYS_INLINE std::uint64_t operator()(const T& node) const {
      return entry<T>(engine, &node, position, acc);
    }
  };
  struct OnRuntime {
    HashEngine& engine;
    unsigned position;
    std::uint64_t acc;
    CTIR_DETAIL_ALWAYS_INLINE std::uint64_t operator()(const Object& node) const {
      return fallback(engine, &node, position, acc);
    }
  };

  static std::uint16_t flags_of(unsigned position) noexcept {
    return static_cast<std::uint16_t>(position & position_flags_mask);
  }

  // Returns the running hash after `node`; `position` holds the entry flags and depth.
  std::uint64_t hash(const Object* node, unsigned position, std::uint64_t acc) {
    if (node == nullptr) [[unlikely]] {
      return fold(acc, null_token);
    }
    if (position_depth(position) >= hash_recursion_budget) [[unlikely]] {
      return run_iterative(node, flags_of(position), acc);
    }
    using Slots = slot_table<Universe>;
    if constexpr (Slots::hash.found) {
      return slot_entries<HashEngine, Universe>[slot_of(node->dynamic_type_index(), Slots::hash)](
          *this, node, position, acc);
    } else {
      OnStatic on_static{*this, position, acc};
      OnRuntime on_runtime{*this, position, acc};
      return dispatch_in(Universe{}, *node, on_static, on_runtime);
    }
  }

public:
  // The entries of the dispatch table (see slot_entries), public for it; a hash starts at
  // run(). The node has type T at entry<T> unless another type shares its slot.
  template <class T>
  CTIR_DETAIL_NOIPA static std::uint64_t entry(HashEngine& self, const Object* object,
                                               unsigned position, std::uint64_t acc) {
    if (object->dynamic_type_index() != T::type_index) [[unlikely]] {
      return fallback(self, object, position, acc);
    }
    const T& node = static_cast<const T&>(*object);
    if constexpr (is_variable_node_v<T>) {
      // A variable met again (every use after its definition) is one lookup; only a first
      // encounter calls out, to fix its token and hash its fields.
      if (const std::uint64_t* token = self.known_token(object)) [[likely]] {
        return self.fold(acc, *token);
      }
      return self.template hash_new_var<T>(node, position, acc);
    } else {
      if constexpr (is_dataflow_type_v<T> && has_node_fields_v<T>) {
        if (has_children_static(node)) {
          std::uint64_t reference;
          if (self.graph_node_met_before(&node, reference)) {
            return self.fold(acc, reference);
          }
          acc = self.fold(acc, value_token<T>(node, hash_combine(node_seed, T::type_index)));
          return self.template hash_children<T>(node, position, acc);
        }
      }
      if constexpr (has_node_fields_v<T>) {
        if (node.use_count() > 1) [[unlikely]] {
          return self.template hash_shared<T>(node, position, acc);
        }
      }
      acc = self.fold(acc, value_token<T>(node, hash_combine(node_seed, T::type_index)));
      return self.template hash_children<T>(node, position, acc);
    }
  }

  /// A node type outside Universe, through the runtime field tables.
  [[gnu::noinline]] static std::uint64_t fallback(HashEngine& self, const Object* node,
                                                  unsigned position, std::uint64_t acc) {
    return self.run_iterative(node, flags_of(position), acc);
  }

private:
  template <class T>
  [[gnu::noinline]] std::uint64_t hash_new_var(const T& node, unsigned position,
                                               std::uint64_t acc) {
    const std::uint64_t token = record(&node, T::type_index, flags_of(position));
    acc = fold(acc, value_token<T>(node, token));
    return hash_children<T>(node, position, acc);
  }

  // A node referenced more than once: reuse its memoized contribution, or hash it and
  // memoize the contribution when it proves context-free.
  template <class T>
  [[gnu::noinline]] std::uint64_t hash_shared(const T& node, unsigned position, std::uint64_t acc) {
    if (const SubtreeHash* known = memoized(&node)) {
      return skip(acc, *known);
    }
    const HashFrame frame = open_shared(&node, acc);
    acc = fold(acc, value_token<T>(node, hash_combine(node_seed, T::type_index)));
    acc = hash_children<T>(node, position, acc);
    complete(frame, acc);
    return acc;
  }

  template <class T>
  CTIR_DETAIL_ALWAYS_INLINE std::uint64_t hash_children(const T& node, unsigned position,
                                                        std::uint64_t acc) {
    if constexpr (has_node_fields_v<T>) {
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        ((acc = hash_field<T, I>(node, position, acc)), ...);
      }
      (std::make_index_sequence<field_count_v<T>>{});
    }
    (void)node;
    (void)position;
    return acc;
  }

  template <class T, std::size_t J>
  CTIR_DETAIL_ALWAYS_INLINE std::uint64_t hash_field(const T& node, unsigned position,
                                                     std::uint64_t acc) {
    using F = std::remove_cvref_t<decltype(field_at_v<T, J>)>;
    if constexpr (F::ignored || F::kind == FieldKind::value) {
      return acc;
    } else {
      const unsigned child = child_position(position, F::def_kind);
      if constexpr (F::kind == FieldKind::node) {
        return hash(F::get(node).get(), child, acc);
      } else {
        for (const auto& element : F::get(node)) {
          acc = hash(element.get(), child, acc);
        }
        return acc;
      }
    }
  }

  /// The token of a node: `seed` (its type, or a variable's token) with its plain values and
  /// array lengths in field order, as HashCore::step computes it from a field plan.
  template <class T>
  CTIR_DETAIL_ALWAYS_INLINE static std::uint64_t value_token(const T& node, std::uint64_t seed) {
    for_each_field<T>([&](const auto& field) {
      using F = std::remove_cvref_t<decltype(field)>;
      if constexpr (F::ignored) {
        return;
      } else if constexpr (F::kind == FieldKind::value) {
        seed = hash_combine(seed, value_traits<typename F::value_type>::hash(F::get(node)));
      } else if constexpr (F::kind == FieldKind::node_array) {
        seed = hash_combine(seed, F::get(node).size());
      }
    });
    return seed;
  }
};

/// Hashes with the compile-time hooks of the types in Universe (an empty list: every
/// node through its runtime field table).
template <class Universe>
std::uint64_t hash_object(const Object* root, const StructuralHashOptions& options) {
  if constexpr (Universe::size == 0) {
    HashCore engine(options.map_free_vars);
    return engine.finish(engine.run_iterative(root, 0, 0));
  } else {
    HashEngine<Universe> engine(options.map_free_vars);
    return engine.run(root);
  }
}

} // namespace detail::structural

/// Hashes a value by structure; see `ctir::structural_hash`.
struct structural_hash_fn {
  /// A 64-bit hash consistent with structural_equal under the same map_free_vars:
  /// structurally equal values hash alike. Deterministic across runs and builds (no
  /// address enters it). Graph-level sharing is part of the value, as for equality (a
  /// DAG of calls hashes apart from its expanded tree); tensor-level sharing is not. A
  /// shared DAG hashes in time linear in its distinct nodes. Any depth works: bounded
  /// recursion, then a heap stack.
  template <structural_value A>
  std::uint64_t operator()(const A& value, StructuralHashOptions options = {}) const {
    return detail::structural::hash_object<
        detail::structural::static_universe_t<detail::structural::root_node_t<A>>>(
        detail::structural::root_object(value), options);
  }

  template <class A>
  std::uint64_t operator()(const A&, StructuralHashOptions = {}) const
      requires(!structural_value<A>) {
    // An error here means the argument is neither a ctir::Ref<Node> nor a value with
    // node() (such as IRModule); pass the node handle itself.
    static_assert(detail::structural::dependent_false<A>::value,
                  "ctir::structural_hash(x): x must be a ctir::Ref<Node> handle or a value that "
                  "exposes its node through node(), like IRModule");
    return 0;
  }
};

/// Hashes a value by structure: `structural_hash(f, {.map_free_vars = true})`.
inline constexpr structural_hash_fn structural_hash{};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/traverse/structural_hash-inl.hpp>
#endif
