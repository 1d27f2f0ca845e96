// Definitions of <ctir/runtime/pass/registry.hpp>.
#pragma once

#include <ctir/runtime/pass/registry.hpp>

#include <ctir/core/detail/names.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir {

namespace detail {
CTIR_INLINE std::string pad_registry_column(std::string text, std::size_t width) {
  text.append(text.size() < width ? width - text.size() : 0, ' ');
  return text;
}
} // namespace detail

struct PassRegistry::State {
  mutable std::shared_mutex mutex;
  std::map<std::string, std::shared_ptr<const Entry>, std::less<>> entries;
};

CTIR_INLINE PassRegistry::PassRegistry() : state_(std::make_unique<State>()) {}

CTIR_INLINE PassRegistry::~PassRegistry() = default;

CTIR_INLINE PassRegistry& PassRegistry::global() {
  static PassRegistry* registry = new PassRegistry(); // used during exit too
  return *registry;
}

CTIR_INLINE void PassRegistry::add(PassListing listing, PassFactory factory) {
  Entry entry;
  entry.listing = std::move(listing);
  entry.factory = std::move(factory);
  if (std::string message = insert(std::move(entry)); !message.empty()) {
    throw PipelineError(message);
  }
}

CTIR_INLINE void PassRegistry::add(Pass prototype) {
  const PassInfo& info = prototype.info();
  PassListing listing{
      std::string(info.name), info.opt_level, std::string(info.description), {}, {}};
  for (std::string_view name : info.required) {
    listing.required.emplace_back(name);
  }
  add(std::move(listing), [prototype = std::move(prototype)](const PassOptionValues& options) {
    if (!options.empty()) {
      throw PipelineError("ctir: pass '" + std::string(prototype.info().name) +
                          "' takes no options (got '" + options.front().name + "')");
    }
    return prototype;
  });
}

CTIR_INLINE bool PassRegistry::remove(std::string_view name) {
  std::unique_lock lock(state_->mutex);
  auto it = state_->entries.find(name);
  if (it == state_->entries.end()) {
    return false;
  }
  state_->entries.erase(it);
  return true;
}

CTIR_INLINE bool PassRegistry::contains(std::string_view name) const {
  std::shared_lock lock(state_->mutex);
  return state_->entries.find(name) != state_->entries.end();
}

CTIR_INLINE Pass PassRegistry::create(std::string_view name,
                                      const PassOptionValues& options) const {
  std::shared_ptr<const Entry> entry = find(name);
  if (!entry) {
    throw PipelineError(unknown_message(name));
  }
  if (!entry->conflict.empty()) {
    throw PipelineError(entry->conflict);
  }
  return entry->factory(options);
}

CTIR_INLINE std::string PassRegistry::unknown_message(std::string_view name) const {
  const std::vector<std::string> known = names();
  std::string message = "ctir: unknown pass '" + std::string(name) + "'" +
                        detail::did_you_mean(detail::nearest_names(name, known));
  if (known.empty()) {
    message += " (no passes are registered; ctir::passes::register_standard_passes() "
               "registers the standard ones)";
  }
  return message;
}

CTIR_INLINE std::vector<std::string> PassRegistry::names() const {
  std::shared_lock lock(state_->mutex);
  std::vector<std::string> result;
  for (const auto& [name, entry] : state_->entries) {
    result.push_back(name);
  }
  return result;
}

CTIR_INLINE std::vector<PassListing> PassRegistry::list() const {
  std::shared_lock lock(state_->mutex);
  std::vector<PassListing> result;
  for (const auto& [name, entry] : state_->entries) {
    result.push_back(entry->listing);
  }
  return result;
}

CTIR_INLINE std::string PassRegistry::render() const {
  using detail::pad_registry_column;
  const std::vector<PassListing> passes = list();
  std::size_t width = 4;
  for (const PassListing& listing : passes) {
    width = std::max(width, listing.name.size());
  }
  std::string out = pad_registry_column("pass", width) + "  opt  description\n";
  for (const PassListing& listing : passes) {
    char level[16];
    std::snprintf(level, sizeof(level), "%3d", listing.opt_level);
    out += pad_registry_column(listing.name, width) + "  " + level + "  " + listing.description;
    if (!listing.required.empty()) {
      out += listing.description.empty() ? "(requires " : " (requires ";
      for (std::size_t i = 0; i < listing.required.size(); ++i) {
        out += (i > 0 ? ", " : "") + listing.required[i];
      }
      out += ')';
    }
    out += '\n';
    for (const PassOptionInfo& option : listing.options) {
      out += pad_registry_column("", width) + "       " + option.name + ": " + option.type + " = " +
             option.default_value;
      if (!option.description.empty()) {
        out += "  " + option.description;
      }
      out += '\n';
    }
  }
  return out;
}

CTIR_INLINE std::shared_ptr<const PassRegistry::Entry>
PassRegistry::find(std::string_view name) const {
  std::shared_lock lock(state_->mutex);
  auto it = state_->entries.find(name);
  return it == state_->entries.end() ? nullptr : it->second;
}

CTIR_INLINE std::string PassRegistry::insert(Entry entry) {
  if (entry.listing.name.empty()) {
    return "ctir: cannot register a pass without a name";
  }
  if (entry.listing.name == "sequential") {
    return "ctir: 'sequential' is reserved for sequentials in pipeline strings";
  }
  std::unique_lock lock(state_->mutex);
  auto it = state_->entries.find(entry.listing.name);
  if (it == state_->entries.end()) {
    std::string name = entry.listing.name;
    state_->entries.emplace(std::move(name), std::make_shared<const Entry>(std::move(entry)));
    return {};
  }
  if (entry.tag != nullptr && it->second->tag == entry.tag) {
    return {};
  }
  return "ctir: two different passes are registered as '" + entry.listing.name + "'";
}

CTIR_INLINE void PassRegistry::insert_static(Entry entry) noexcept {
  try {
    const std::string name = entry.listing.name;
    if (std::string message = insert(std::move(entry)); !message.empty()) {
      std::unique_lock lock(state_->mutex);
      auto it = state_->entries.find(name);
      if (it != state_->entries.end()) {
        auto marked = std::make_shared<Entry>(*it->second);
        marked->conflict = std::move(message);
        it->second = std::move(marked);
      }
    }
  } catch (...) {
    // Out of memory during static initialisation: the pass stays unregistered.
    static_cast<void>(0);
  }
}

} // namespace ctir
