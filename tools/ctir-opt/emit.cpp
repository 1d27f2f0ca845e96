// ctir-opt's --emit: a table from each value to the function that writes the module.
#include "emit.hpp"

#include "emit_c.hpp"

#include <ctir/text/dot.hpp>
#include <ctir/text/printer.hpp>
#include <ctir/traverse/format_tree.hpp>

#include <array>
#include <stdexcept>

namespace ctir_opt {
namespace {

// One line per value of --emit.
constexpr std::array emitters = {
    Emitter{"text", "the ctir text format (the default)",
            [](const ctir::IRModule& mod) { return ctir::print(mod); }},
    Emitter{"tree", "the tree of nodes and fields",
            [](const ctir::IRModule& mod) { return ctir::format_tree(*mod.node()); }},
    Emitter{"dot", "the graph-level functions' dataflow as a Graphviz digraph",
            [](const ctir::IRModule& mod) { return ctir::print_dot(mod); }},
    Emitter{"c", "the C of the tensor-level functions (what --backend compiled compiles)",
            [](const ctir::IRModule& mod) { return emit_c_text(mod); }},
};

} // namespace

const Emitter* find_emitter(std::string_view name) {
  for (const Emitter& emitter : emitters) {
    if (emitter.name == name) {
      return &emitter;
    }
  }
  return nullptr;
}

std::string emitter_names() {
  std::string names;
  for (std::size_t i = 0; i < emitters.size(); ++i) {
    names += i == 0 ? "" : (i + 1 == emitters.size() ? " or " : ", ");
    names += "'" + std::string(emitters[i].name) + "'";
  }
  return names;
}

std::string emit_module(const ctir::IRModule& mod, std::string_view name) {
  const Emitter* emitter = find_emitter(name);
  if (emitter == nullptr) {
    throw std::logic_error("ctir-opt: no emitter named " + std::string(name));
  }
  return emitter->emit(mod);
}

} // namespace ctir_opt
