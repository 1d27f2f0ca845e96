// ctir-opt's pipeline: the -p string parsed into a pass, and the pass names it mentions.
#include "pipeline.hpp"

#include <ctir/runtime/pass/pipeline.hpp>
#include <ctir/runtime/pass/sequential.hpp>

#include <algorithm>
#include <utility>

namespace ctir_opt {
namespace {

void collect_names(const ctir::Pass& pass, std::vector<std::string>& names) {
  const std::string name(pass.info().name);
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    names.push_back(name);
  }
  for (const ctir::Pass& child : pass.passes()) {
    collect_names(child, names);
  }
}

/// Whether `pass` is the implicit sequential of a pipeline string of several elements
/// (`A,B`), which prints as its elements alone; `sequential(A,B)` prints its wrapper.
bool is_implicit_sequential(const ctir::Pass& pass) {
  if (!pass.is_sequential()) {
    return false;
  }
  std::string elements;
  for (const ctir::Pass& child : pass.passes()) {
    elements += elements.empty() ? "" : ",";
    elements += child.str();
  }
  return pass.str() == elements;
}

} // namespace

ctir::Pass load_pipeline(std::string_view text) {
  ctir::Pass pass = ctir::parse_pipeline(text);
  if (is_implicit_sequential(pass)) {
    return pass;
  }
  return ctir::sequential({std::move(pass)});
}

std::vector<std::string> pipeline_pass_names(const ctir::Pass& pipeline) {
  std::vector<std::string> names;
  collect_names(pipeline, names);
  return names;
}

ctir::IRModule run_pipeline(const ctir::Pass& pipeline, ctir::IRModule mod,
                            const ctir::PassContext& ctx) {
  return pipeline.transform_module(std::move(mod), ctx);
}

} // namespace ctir_opt
