// The listings ctir-opt prints: passes (--list-passes) and config options (--list-configs).
#include "listing.hpp"

#include <ctir/pass/config.hpp>
#include <ctir/runtime/pass/registry.hpp>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace ctir_opt {
namespace {

void append_padded(std::string& out, const std::string& text, std::size_t width) {
  out += text;
  out.append(width > text.size() ? width - text.size() : 0, ' ');
}

} // namespace

std::string list_passes() {
  // The registry's own table: the same text wherever passes are listed.
  std::string out = ctir::PassRegistry::global().render();
  if (ctir::PassRegistry::global().names().empty()) {
    out += "(no passes are registered)\n";
  }
  return out;
}

std::string list_configs() {
  const std::vector<ctir::ConfigOptionInfo> options = ctir::list_configs();
  std::size_t key_width = 6;
  std::size_t type_width = 4;
  std::size_t default_width = 7;
  for (const ctir::ConfigOptionInfo& option : options) {
    key_width = std::max(key_width, option.key.size());
    type_width = std::max(type_width, option.type.size());
    default_width = std::max(default_width, option.default_value.size());
  }
  std::string out;
  const auto row = [&](const std::string& key, const std::string& type,
                       const std::string& default_value, const std::string& description) {
    std::string line;
    append_padded(line, key, key_width + 2);
    append_padded(line, type, type_width + 2);
    append_padded(line, default_value, default_width + 2);
    line += description;
    while (!line.empty() && line.back() == ' ') {
      line.pop_back();
    }
    out += line + '\n';
  };
  row("option", "type", "default", "description");
  for (const ctir::ConfigOptionInfo& option : options) {
    row(option.key, option.type, option.default_value, option.description);
  }
  if (options.empty()) {
    out += "(no pass config options are registered)\n";
  }
  return out;
}

} // namespace ctir_opt
