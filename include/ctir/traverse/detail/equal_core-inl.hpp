// Definitions of <ctir/traverse/detail/equal_core.hpp>.
#pragma once

#include <ctir/traverse/detail/equal_core.hpp>

#include <ctir/core/type_info.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace ctir::detail::structural {

CTIR_INLINE std::string variable_label(const Object* var) {
  const TypeInfo& info = var->type_info();
  std::string name = info.variable_name != nullptr ? std::string(info.variable_name(*var)) : "";
  return "'" + (name.empty() ? std::string("<unnamed>") : name) + "'";
}

// Never inlined into the static fast path, which calls it rarely. The attribute is here, not on
// the declaration: g++ warns about an inline definition after a noinline declaration.
template <bool Track>
[[gnu::noinline]] CTIR_INLINE bool EqualCore<Track>::run_iterative(const Object* a, const Object* b,
                                                                   std::uint16_t flags) {
  plans_.prepare();
  push(EqualEntry{a, b, no_index, no_field, flags});
  while (true) {
    EqualEntry entry;
    if (has_pending_) {
      entry = pending_;
      has_pending_ = false;
    } else {
      if constexpr (Track) {
        while (!frames_.empty() && frames_.back().base == work_.size()) {
          frames_.pop();
        }
      }
      if (work_.empty()) {
        return true;
      }
      entry = work_.pop();
    }
    if (!step(entry)) {
      return false;
    }
  }
}

template <bool Track>
CTIR_INLINE void EqualCore<Track>::push(const EqualEntry& entry) {
  if (has_pending_) {
    work_.push(pending_);
  }
  pending_ = entry;
  has_pending_ = true;
}

template <bool Track>
CTIR_INLINE bool EqualCore<Track>::step(const EqualEntry& e) {
  if constexpr (Track) {
    if ((e.flags & entry_flags::length_mismatch) != 0) {
      return fail_length(e);
    }
  }
  if (e.a == nullptr || e.b == nullptr) [[unlikely]] {
    return e.a == e.b || fail_null(e);
  }
  if (e.a->dynamic_type_index() != e.b->dynamic_type_index()) [[unlikely]] {
    return fail_type(e);
  }
  const Object& a = *e.a;
  const Object& b = *e.b;
  const TypeInfo& info = a.type_info();
  if (info.is_variable) {
    const Step s = bind_vars(&a, &b, e.flags, &e);
    if (s != Step::descend) {
      return s == Step::done;
    }
  } else if (a.use_count() > 1 || b.use_count() > 1) {
    const bool graph = is_graph_type(info) && (has_children_runtime(a) || has_children_runtime(b));
    const Step s = check_shared(&a, &b, graph, &e);
    if (s != Step::descend) {
      return s == Step::done;
    }
  }
  const FieldPlan plan = plans_.of(info);
  const FieldInfo* const fields = info.fields.data();
  for (std::size_t n = 0; n < plan.leading; ++n) {
    const std::size_t i = plan.positions[n];
    const FieldInfo& field = fields[i];
    if (!field.equal(a, b, field)) {
      return fail_value(e, i);
    }
  }
  if constexpr (Track) {
    // The node's children go above the current size; the frame closes when the stack
    // is back to it (checked only before popping, when no child waits in the cache).
    frames_.push(EqualFrame{e.a, e.b, work_.size(), e.index, e.field});
  }
  const std::size_t end = plan.leading + plan.children;
  for (std::size_t n = plan.leading; n < end; ++n) {
    const std::size_t i = plan.positions[n];
    const FieldInfo& field = fields[i];
    const std::uint16_t flags = child_flags(e.flags, field.def_kind);
    const auto field_index = static_cast<std::uint16_t>(i);
    if (field.kind == FieldKind::node) {
      push(EqualEntry{field.get(a, field), field.get(b, field), no_index, field_index, flags});
      continue;
    }
    const std::size_t na = field.size(a, field);
    const std::size_t nb = field.size(b, field);
    if (na != nb) {
      if constexpr (!Track) {
        return false;
      } else {
        // The common elements first (a difference among them is reported first), then
        // the length, through an entry reached after them.
        push(EqualEntry{e.a, e.b, static_cast<std::uint32_t>(na < nb ? na : nb), field_index,
                        static_cast<std::uint16_t>(flags | entry_flags::length_mismatch)});
      }
    }
    for (std::size_t k = na < nb ? na : nb; k-- > 0;) {
      push(EqualEntry{field.at(a, field, k), field.at(b, field, k), static_cast<std::uint32_t>(k),
                      field_index, flags});
    }
  }
  return true;
}

template <bool Track>
CTIR_INLINE void EqualCore<Track>::append_step(AccessPath& path, const Object* parent,
                                               std::uint16_t field, std::uint32_t index) {
  if (field == no_field || parent == nullptr) {
    return;
  }
  path.push_field(parent->type_info().fields[field].name);
  if (index != no_index) {
    path.push_index(index);
  }
}

template <bool Track>
CTIR_INLINE AccessPath EqualCore<Track>::path_to(std::uint16_t field, std::uint32_t index) const {
  AccessPath path;
  const Object* parent = nullptr;
  for (const EqualFrame& frame : frames_) {
    append_step(path, parent, frame.field, frame.index);
    parent = frame.a;
  }
  append_step(path, parent, field, index);
  return path;
}

template <bool Track>
CTIR_INLINE bool EqualCore<Track>::report(const EqualEntry& e, const Object* lhs_node,
                                          const Object* rhs_node, std::string reason,
                                          const FieldInfo* value_field) {
  AccessPath path = path_to(e.field, e.index);
  if (value_field != nullptr) {
    path.push_field(value_field->name);
  }
  mismatch_.lhs_path = path;
  mismatch_.rhs_path = std::move(path);
  mismatch_.lhs_node = ObjectRef::borrow(lhs_node);
  mismatch_.rhs_node = ObjectRef::borrow(rhs_node);
  mismatch_.reason = std::move(reason);
  return false;
}

template <bool Track>
CTIR_INLINE bool EqualCore<Track>::fail_null(const EqualEntry& e) {
  if constexpr (Track) {
    const std::string lhs = e.a == nullptr ? "null" : "a " + std::string(e.a->dynamic_type_key());
    const std::string rhs = e.b == nullptr ? "null" : "a " + std::string(e.b->dynamic_type_key());
    return report(e, e.a != nullptr ? e.a : parent_a(), e.b != nullptr ? e.b : parent_b(),
                  "lhs is " + lhs + ", rhs is " + rhs);
  }
  return false;
}

template <bool Track>
CTIR_INLINE bool EqualCore<Track>::fail_type(const EqualEntry& e) {
  if constexpr (Track) {
    return report(e, e.a, e.b,
                  "lhs is a " + std::string(e.a->dynamic_type_key()) + ", rhs is a " +
                      std::string(e.b->dynamic_type_key()));
  }
  return false;
}

template <bool Track>
CTIR_INLINE bool EqualCore<Track>::fail_value(const EqualEntry& e, std::size_t field_index) {
  if constexpr (Track) {
    const FieldInfo& field = e.a->type_info().fields[field_index];
    std::string lhs;
    std::string rhs;
    if (field.print != nullptr) {
      field.print(*e.a, field, lhs);
      field.print(*e.b, field, rhs);
    }
    return report(e, e.a, e.b,
                  "field '" + std::string(field.name) + "' differs: " + lhs + " vs " + rhs, &field);
  }
  (void)e;
  (void)field_index;
  return false;
}

template <bool Track>
CTIR_INLINE bool EqualCore<Track>::fail_length(const EqualEntry& e) {
  // e.a / e.b are the owners; the frame on top is theirs.
  const FieldInfo& field = e.a->type_info().fields[e.field];
  const std::size_t na = field.size(*e.a, field);
  const std::size_t nb = field.size(*e.b, field);
  const Object* lhs = na > e.index ? field.at(*e.a, field, e.index) : e.a;
  const Object* rhs = nb > e.index ? field.at(*e.b, field, e.index) : e.b;
  return report(e, lhs != nullptr ? lhs : e.a, rhs != nullptr ? rhs : e.b,
                "array '" + std::string(field.name) + "' has " + std::to_string(na) +
                    (na == 1 ? " element" : " elements") + " on the lhs and " + std::to_string(nb) +
                    " on the rhs");
}

#ifndef CTIR_HEADER_ONLY
template class EqualCore<false>;
template class EqualCore<true>;
#endif

} // namespace ctir::detail::structural
