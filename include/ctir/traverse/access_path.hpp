// AccessPath: the fields and array indices that lead from a root to a node.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ctir {

/// The position of a node (or of a plain value field) inside a root, as the fields and
/// array elements one follows from the root to reach it.
///
/// Printed as `<root>` followed by `.field` for every field and `[i]` for every array
/// element: `<root>.body.seq[0].body.seq[0].value.b.value`. Structural equality reports
/// the first mismatch with one of these per side.
class AccessPath {
public:
  /// One step of a path: into a field by name, or into an array element by index.
  struct Step {
    enum class Kind : std::uint8_t { field, index };
    Kind kind = Kind::field;
    std::string name;      ///< the field name, for Kind::field
    std::size_t index = 0; ///< the element index, for Kind::index

    friend bool operator==(const Step&, const Step&) = default;
  };

  /// The root itself (`<root>`).
  AccessPath() = default;

  /// This path followed by field `name`.
  AccessPath field(std::string_view name) const;
  /// This path followed by array element `i`.
  AccessPath index(std::size_t i) const;
  void push_field(std::string_view name);
  void push_index(std::size_t i);

  std::span<const Step> steps() const noexcept { return steps_; }
  std::size_t size() const noexcept { return steps_.size(); }
  bool is_root() const noexcept { return steps_.empty(); }

  /// `<root>.body.seq[0]`.
  std::string str() const;

  /// Follows the path from `root` through the runtime field tables. Returns the node the
  /// path names; when its last step names a plain value field (`.value`), the node that
  /// holds that field. Returns null when the path does not exist in `root` (a missing
  /// field, an index out of range, a null on the way).
  ObjectRef resolve(const ObjectRef& root) const;

  friend bool operator==(const AccessPath&, const AccessPath&) = default;

private:
  std::vector<Step> steps_;
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/traverse/access_path-inl.hpp>
#endif
