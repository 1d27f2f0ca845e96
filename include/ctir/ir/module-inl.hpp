// Definitions of <ctir/ir/module.hpp>.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/ir/module.hpp>

namespace ctir {

CTIR_INLINE IRModule::IRModule() : node_(make_object<IRModuleNode>()) {}

CTIR_INLINE IRModule::IRModule(Ref<IRModuleNode> node) : node_(std::move(node)) {
  if (!node_.defined()) {
    node_ = make_object<IRModuleNode>();
  } else if (node_->index.size() != node_->globals.size()) {
    // A node built field by field (by a map, say) has no name index yet.
    rebuild_index(mutable_node());
  }
}

CTIR_INLINE IRModule::IRModule(std::initializer_list<BaseFunc> functions) : IRModule() {
  for (const BaseFunc& function : functions) {
    add(function.defined() ? function->name : std::string(), function);
  }
}

CTIR_INLINE GlobalVar IRModule::add(std::string_view name, BaseFunc function) {
  GlobalVar global = Ref<GlobalVarNode>::make(std::string(name));
  add(global, std::move(function));
  return global;
}

CTIR_INLINE void IRModule::add(const GlobalVar& global, BaseFunc function) {
  if (!global.defined()) {
    throw Error("ctir: IRModule::add needs a GlobalVar, not null");
  }
  check_function(global->name, function);
  if (contains(global->name)) {
    throw Error("ctir: IRModule already has a function named '@" + global->name + "'");
  }
  IRModuleNode& node = mutable_node();
  node.index.emplace(global->name, node.globals.size());
  node.globals.push_back(global);
  node.functions.push_back(std::move(function));
}

CTIR_INLINE void IRModule::update(std::string_view name, BaseFunc function) {
  check_function(name, function);
  auto position = position_of(name);
  if (!position) {
    add(name, std::move(function));
    return;
  }
  if (node_->functions[*position].same_as(function)) {
    return;
  }
  mutable_node().functions[*position] = std::move(function);
}

CTIR_INLINE void IRModule::update(const IRModule& other) {
  for (std::size_t i = 0; i < other.size(); ++i) {
    update(other.node_->globals[i]->name, other.node_->functions[i]);
  }
}

CTIR_INLINE void IRModule::remove(std::string_view name) {
  auto position = position_of(name);
  if (!position) {
    throw Error("ctir: IRModule has no function named '@" + std::string(name) + "'");
  }
  IRModuleNode& node = mutable_node();
  node.globals.erase(node.globals.begin() + static_cast<std::ptrdiff_t>(*position));
  node.functions.erase(node.functions.begin() + static_cast<std::ptrdiff_t>(*position));
  rebuild_index(node);
}

CTIR_INLINE BaseFunc IRModule::find(std::string_view name) const {
  auto position = position_of(name);
  return position ? node_->functions[*position] : BaseFunc();
}

CTIR_INLINE BaseFunc IRModule::lookup(std::string_view name) const {
  if (BaseFunc function = find(name)) {
    return function;
  }
  std::string known;
  for (const GlobalVar& global : node_->globals) {
    known += known.empty() ? "@" : ", @";
    known += global->name;
  }
  throw Error("ctir: IRModule has no function named '@" + std::string(name) + "'" +
              (known.empty() ? std::string(" (the module is empty)") : " (it has " + known + ")"));
}

CTIR_INLINE GlobalVar IRModule::global_var(std::string_view name) const {
  auto position = position_of(name);
  return position ? node_->globals[*position] : GlobalVar();
}

CTIR_INLINE void IRModule::throw_bad_position(std::size_t i) const {
  throw Error("ctir: IRModule has " + std::to_string(size()) +
              " functions; there is no function at position " + std::to_string(i));
}

CTIR_INLINE void IRModule::check_function(std::string_view name, const BaseFunc& function) {
  if (!function.defined()) {
    throw Error("ctir: cannot put a null function into an IRModule (as '@" + std::string(name) +
                "')");
  }
  if (name.empty()) {
    throw Error("ctir: a function in an IRModule needs a name");
  }
}

CTIR_INLINE std::optional<std::size_t> IRModule::position_of(std::string_view name) const {
  auto it = node_->index.find(std::string(name));
  if (it == node_->index.end()) {
    return std::nullopt;
  }
  return it->second;
}

CTIR_INLINE void IRModule::rebuild_index(IRModuleNode& node) {
  node.index.clear();
  for (std::size_t i = 0; i < node.globals.size(); ++i) {
    node.index.emplace(node.globals[i]->name, i);
  }
}

CTIR_INLINE IRModuleNode& IRModule::mutable_node() {
  if (node_->use_count() != 1) {
    Owned<IRModuleNode> copy = clone_object(*node_);
    node_ = std::move(copy);
  }
  // Sole owner: writing through it cannot be observed by anyone else.
  return const_cast<IRModuleNode&>(*node_);
}

} // namespace ctir
