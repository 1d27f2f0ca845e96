// Definitions of <ctir/runtime/detail/reach_table.hpp>.
#pragma once

#include <ctir/runtime/detail/reach_table.hpp>

#include <ctir/core/type_registry.hpp>
#include <ctir/runtime/callbacks.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace ctir::detail::traverse {

CTIR_INLINE std::shared_ptr<const reach_table>
reach_table::compute(const runtime::Callbacks& callbacks) {
  TypeRegistry& registry = TypeRegistry::global();
  auto table = std::make_shared<reach_table>();
  // Read before the types: a type registered in between makes the table look older than
  // it is, and only costs a recomputation.
  table->generation_ = registry.size();
  std::vector<const TypeInfo*> types = registry.all();
  std::sort(types.begin(), types.end(),
            [](const TypeInfo* a, const TypeInfo* b) { return a->index < b->index; });
  const std::size_t count = types.size();
  constexpr std::size_t unknown = static_cast<std::size_t>(-1);
  const auto position = [&](std::uint32_t index) {
    const auto it =
        std::lower_bound(types.begin(), types.end(), index,
                         [](const TypeInfo* t, std::uint32_t i) { return t->index < i; });
    return it != types.end() && (*it)->index == index ? static_cast<std::size_t>(it - types.begin())
                                                      : unknown;
  };

  // reaches[i]: a node of type i is matched or may hold a match. under[i]: some registered
  // type derived from type i (itself included) reaches.
  std::vector<char> reaches(count, 0);
  std::vector<char> under(count, 0);
  const auto mark = [&](std::size_t i) {
    reaches[i] = 1;
    const TypeInfo& type = *types[i];
    for (std::uint32_t d = 0; d <= type.depth; ++d) {
      if (const std::size_t a = position(type.ancestors[d]); a != unknown) {
        under[a] = 1;
      }
    }
  };
  const auto leads = [&](const FieldInfo& field) {
    // A field of a type the registry does not know may hold anything.
    const std::size_t element = position(field.element_type_index);
    return element == unknown || under[element] != 0;
  };
  const auto is_child = [](const FieldInfo& field) {
    return !field.ignored() && field.kind != FieldKind::value;
  };
  // A type made opaque (not_into) is neither matched nor entered: it leads nowhere.
  std::vector<char> opaque(count, 0);
  for (std::size_t i = 0; i < count; ++i) {
    const TypeInfo& type = *types[i];
    opaque[i] = !callbacks.opaque_types().empty() && callbacks.is_opaque(type) ? 1 : 0;
    if (callbacks.match_type(type) != nullptr) {
      mark(i);
    }
  }
  // Propagate along the fields until nothing changes; cycles are fine.
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 0; i < count; ++i) {
      if (reaches[i] != 0 || opaque[i] != 0) {
        continue;
      }
      for (const FieldInfo& field : types[i]->fields) {
        if (is_child(field) && leads(field)) {
          mark(i);
          changed = true;
          break;
        }
      }
    }
  }

  table->types_.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const TypeInfo& type = *types[i];
    reach_type& entry = table->types_[i];
    entry.index = type.index;
    entry.reaches = reaches[i] != 0;
    entry.all_fields = true;
    for (std::size_t f = 0; f < type.fields.size(); ++f) {
      const FieldInfo& field = type.fields[f];
      if (!is_child(field)) {
        continue;
      }
      if (opaque[i] == 0 && leads(field)) {
        entry.fields.push_back(static_cast<std::uint32_t>(f));
      } else {
        entry.all_fields = false;
      }
    }
  }
  return table;
}

CTIR_INLINE const reach_type* reach_table::find(std::uint32_t index) const noexcept {
  const auto it =
      std::lower_bound(types_.begin(), types_.end(), index,
                       [](const reach_type& t, std::uint32_t i) { return t.index < i; });
  return it != types_.end() && it->index == index ? &*it : nullptr;
}

struct reach_cache::state {
  std::mutex mutex;
  std::shared_ptr<const reach_table> table;
};

CTIR_INLINE reach_cache::reach_cache() : state_(std::make_unique<state>()) {}
CTIR_INLINE reach_cache::reach_cache(const reach_cache&) : state_(std::make_unique<state>()) {}
CTIR_INLINE reach_cache::reach_cache(reach_cache&& other) noexcept
    : state_(std::move(other.state_)) {}
CTIR_INLINE reach_cache& reach_cache::operator=(const reach_cache& other) {
  if (this != &other) {
    reset();
  }
  return *this;
}
CTIR_INLINE reach_cache& reach_cache::operator=(reach_cache&& other) noexcept {
  state_ = std::move(other.state_);
  return *this;
}
CTIR_INLINE reach_cache::~reach_cache() = default;

CTIR_INLINE std::shared_ptr<const reach_table>
reach_cache::get(const runtime::Callbacks& callbacks) const {
  if (state_ == nullptr) {
    // A moved-from Callbacks: nothing to keep the table in.
    return reach_table::compute(callbacks);
  }
  std::lock_guard lock(state_->mutex);
  if (state_->table == nullptr || state_->table->generation() != TypeRegistry::global().size()) {
    state_->table = reach_table::compute(callbacks);
  }
  return state_->table;
}

CTIR_INLINE void reach_cache::reset() noexcept {
  if (state_ == nullptr) {
    state_ = std::unique_ptr<state>(new (std::nothrow) state);
    return;
  }
  std::lock_guard lock(state_->mutex);
  state_->table.reset();
}

} // namespace ctir::detail::traverse
