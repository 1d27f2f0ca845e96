// IRModule: graph-level and tensor-level functions together, by global name, in order.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/ir/expr_base.hpp>
#include <ctir/ir/var.hpp>

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctir {

/// The node behind an IRModule: parallel arrays of global names and functions.
struct IRModuleNode final : Object {
  CTIR_NODE(IRModuleNode, Object, "ir.IRModule");
  std::vector<GlobalVar> globals;
  std::vector<BaseFunc> functions;
  /// name -> position; derived from `globals`, so no utility looks at it.
  std::unordered_map<std::string, std::size_t> index;
  CTIR_FIELDS(CTIR_FIELD(globals), CTIR_FIELD(functions), CTIR_FIELD(index).ignore());
};

/// An ordered map from GlobalVar to function (graph-level Function or tensor-level
/// PrimFunc) with value semantics: copies are cheap and share the node until one of
/// them is modified (copy on write), so a pass that changes nothing returns the very
/// same module object.
class IRModule {
public:
  /// An empty module.
  IRModule();
  /// Wraps an existing module node.
  explicit IRModule(Ref<IRModuleNode> node);
  /// A module with the given functions, named by their name hints.
  IRModule(std::initializer_list<BaseFunc> functions);

  /// Adds `function` under a new global `name`; throws if the name is taken.
  GlobalVar add(std::string_view name, BaseFunc function);
  /// Adds `function` under `global`; throws if its name is taken.
  void add(const GlobalVar& global, BaseFunc function);
  /// Replaces the function named `name`, or adds it if there is none.
  void update(std::string_view name, BaseFunc function);
  /// Adds or replaces every function of `other`.
  void update(const IRModule& other);
  /// Removes the function named `name`; throws if there is none.
  void remove(std::string_view name);

  bool contains(std::string_view name) const { return position_of(name).has_value(); }
  /// The function named `name`, or null.
  BaseFunc find(std::string_view name) const;
  /// The function named `name`; throws, listing the names there are, if it is missing.
  BaseFunc lookup(std::string_view name) const;
  /// The GlobalVar named `name`, or null.
  GlobalVar global_var(std::string_view name) const;
  /// Functions of a given kind (FunctionNode, PrimFuncNode), in module order, with their names.
  template <class FuncNode>
  std::vector<std::pair<GlobalVar, Ref<FuncNode>>> functions_of() const {
    std::vector<std::pair<GlobalVar, Ref<FuncNode>>> result;
    for (std::size_t i = 0; i < size(); ++i) {
      if (const auto* f = node_->functions[i].template as<FuncNode>()) {
        result.emplace_back(node_->globals[i], ref_of(f));
      }
    }
    return result;
  }

  std::size_t size() const noexcept { return node_->globals.size(); }
  bool empty() const noexcept { return size() == 0; }
  const GlobalVar& global_at(std::size_t i) const {
    check_position(i);
    return node_->globals[i];
  }
  const BaseFunc& function_at(std::size_t i) const {
    check_position(i);
    return node_->functions[i];
  }

  /// Iterates (GlobalVar, function) pairs in order.
  class iterator {
  public:
    using value_type = std::pair<const GlobalVar&, const BaseFunc&>;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::input_iterator_tag;
    iterator() = default;
    iterator(const IRModuleNode* node, std::size_t i) : node_(node), i_(i) {}
    value_type operator*() const { return {node_->globals[i_], node_->functions[i_]}; }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    iterator operator++(int) {
      iterator before = *this;
      ++i_;
      return before;
    }
    bool operator==(const iterator& other) const { return i_ == other.i_; }

  private:
    const IRModuleNode* node_ = nullptr;
    std::size_t i_ = 0;
  };
  iterator begin() const { return {node_.get(), 0}; }
  iterator end() const { return {node_.get(), size()}; }

  /// The module node (for structural utilities and identity checks).
  const Ref<IRModuleNode>& node() const noexcept { return node_; }
  const IRModuleNode* operator->() const noexcept { return node_.get(); }
  /// Whether both share the same module node.
  bool same_as(const IRModule& other) const noexcept { return node_.same_as(other.node_); }

private:
  void check_position(std::size_t i) const {
    if (i >= size()) {
      throw_bad_position(i);
    }
  }
  [[noreturn]] void throw_bad_position(std::size_t i) const;
  static void check_function(std::string_view name, const BaseFunc& function);
  std::optional<std::size_t> position_of(std::string_view name) const;
  static void rebuild_index(IRModuleNode& node);
  /// The node, unshared first if another IRModule (or Ref) holds it too.
  IRModuleNode& mutable_node();

  Ref<IRModuleNode> node_;
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/module-inl.hpp>
#endif
