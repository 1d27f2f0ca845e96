// What a runtime map callback taking `const runtime::Mapped&` receives: a node whose
// children are mapped, before anything is built.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/core/type_info.hpp>

#include <cstddef>
#include <string_view>

namespace ctir::runtime {

/// The runtime layer's `ctir::Mapped<Node>`: a post-order map callback that takes
/// `const runtime::Mapped&` sees the original node and its already mapped children, so a
/// rule that drops its node reads them and allocates nothing for it:
///
///     cbs.on("ir.Add", [](const runtime::Mapped& add) -> MapResult<Object> {
///       if (is_zero(add.get("b"))) return add.get("a");  // x + 0 -> x
///       return unchanged;                                 // keep the (rebuilt) Add
///     });
///
/// `get(field)` is a node field's mapped value (null for a null field), `get(field, i)` an
/// element of a node-array field's, `original()` the node before mapping, `changed()` whether
/// a child changed, and `node()` builds the node with the mapped children (once; only if a
/// child changed). Returning `ctir::unchanged` keeps the node with its mapped children. The
/// view lives for the callback's call only. Pre-order maps do not take such callbacks (the
/// children are mapped after the callback there).
class Mapped {
public:
  Mapped(const Mapped&) = delete;
  Mapped& operator=(const Mapped&) = delete;

  /// The node as it was before its children were mapped.
  const ObjectRef& original() const noexcept { return original_; }
  /// Whether some child was mapped to a different node.
  bool changed() const noexcept { return changed_; }
  /// The mapped value of the node field `field`; throws a ctir::Error naming the type's
  /// fields if it has no node field of that name.
  ObjectRef get(std::string_view field) const;
  /// The mapped value of element `index` of the node-array field `field`; throws a
  /// ctir::Error if there is no such field or element.
  ObjectRef get(std::string_view field, std::size_t index) const;
  /// The number of elements of the node-array field `field`.
  std::size_t size(std::string_view field) const;
  /// The node with its mapped children: the original when nothing changed, else built now
  /// (once).
  virtual const ObjectRef& node() const = 0;

protected:
  /// `settled`: the node whose fields hold the mapped children (the original when none
  /// changed, the built node), or null while the changes are kept apart (see child()).
  Mapped(const ObjectRef& original, bool changed, const Object* settled) noexcept
      : original_(original), settled_(settled), changed_(changed) {}
  ~Mapped() = default;

  /// The mapped value of `field` (element `index` of an array field) of original() while
  /// there is no settled node; the field is one of the original's node or node-array fields.
  virtual ObjectRef child(const FieldInfo& field, std::size_t index) const = 0;
  /// The node is built: its fields hold the mapped children from now on.
  void settle(const Object& built) const noexcept { settled_ = &built; }

private:
  /// original()'s field named `name` of kind `kind`, or a ctir::Error naming the fields.
  const FieldInfo& field_named(std::string_view name, FieldKind kind) const;
  [[noreturn]] void no_such_field(std::string_view name, FieldKind kind) const;

  const ObjectRef& original_;
  mutable const Object* settled_;
  bool changed_;
};

} // namespace ctir::runtime

namespace ctir::detail::traverse {

/// The Mapped view of a node whose children were mapped into `built` already (a copy of
/// the original, or the original itself when no child changed): the explicit-stack path's,
/// and a variable's at a use.
class built_mapped final : public runtime::Mapped {
public:
  built_mapped(const ObjectRef& original, const ObjectRef& built) noexcept
      : Mapped(original, built.get() != original.get(), built.get()), built_(built) {}

  const ObjectRef& node() const override { return built_; }

private:
  ObjectRef child(const FieldInfo&, std::size_t) const override {
    return ObjectRef(); // not reached: the built node is settled
  }

  const ObjectRef& built_;
};

} // namespace ctir::detail::traverse

#ifdef CTIR_HEADER_ONLY
#include <ctir/runtime/mapped-inl.hpp>
#endif
