// One of two translation units that include all of ctir in header-only mode and link into
// one program: a definition that is not inline would be defined twice.
#include "program.hpp"

#include <ctir/all.hpp>

#include <iostream>
#include <string>

int main() {
  using namespace ctir;
  passes::register_standard_passes();
  const IRModule mod = header_only_program::make_module();
  const Pass pipeline = parse_pipeline("InferType,FoldConstant,DefaultPipeline");
  const IRModule optimized = pipeline(mod);
  const std::string text = header_only_program::print_module(optimized);
  std::cout << text;
  const bool same_text = print(parse_module(text)) == text;
  return same_text && text.find("%B[%i] = %A[%i] * 2f;") != std::string::npos ? 0 : 1;
}
