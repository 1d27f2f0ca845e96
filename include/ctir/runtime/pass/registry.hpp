// The pass registry: pass names to factories, for pipelines named at run time.
#pragma once

#include <ctir/core/detail/names.hpp>
#include <ctir/pass/error.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/instrument.hpp>
#include <ctir/pass/options.hpp>
#include <ctir/pass/run.hpp>
#include <ctir/runtime/pass/erased.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace ctir {

/// Makes a pass from the options given in a pipeline string (`{max_extent=4}`).
using PassFactory = std::function<Pass(const PassOptionValues& options)>;

/// A registered pass as a listing shows it (`ctir-opt --list-passes`).
struct PassListing {
  std::string name;
  int opt_level = 0;
  std::string description = {};
  std::vector<std::string> required = {};
  std::vector<PassOptionInfo> options = {};
};

/// The process-wide table of passes by name.
///
/// Static pass types register with `CTIR_REGISTER_PASS(Type)` at namespace scope (in a
/// header or a source file: identical registrations merge); anything else registers at
/// run time with `add`. Thread-safe.
class PassRegistry {
public:
  /// An empty registry (tools and tests may keep their own; most code uses global()).
  PassRegistry() = default;
  PassRegistry(const PassRegistry&) = delete;
  PassRegistry& operator=(const PassRegistry&) = delete;

  static PassRegistry& global() {
    static PassRegistry* registry = new PassRegistry(); // used during exit too
    return *registry;
  }

  /// Registers static pass type P under P's name: default-constructed, options set from
  /// text (see pass_option). Throws PipelineError if the name is taken by another pass.
  template <pass P>
  void add() {
    if (std::string message = insert(entry_for<P>()); !message.empty()) {
      throw PipelineError(message);
    }
  }
  /// Registers a pass made by `factory`; `listing` describes it. Throws PipelineError if the
  /// name is taken.
  void add(PassListing listing, PassFactory factory) {
    Entry entry;
    entry.listing = std::move(listing);
    entry.factory = std::move(factory);
    if (std::string message = insert(std::move(entry)); !message.empty()) {
      throw PipelineError(message);
    }
  }
  /// Registers a pass that takes no options: each use gets `prototype` (shared).
  void add(Pass prototype) {
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
  /// Removes a registration (a plug-in being unloaded); false if there was none.
  bool remove(std::string_view name) {
    std::unique_lock lock(mutex_);
    auto it = entries_.find(name);
    if (it == entries_.end()) {
      return false;
    }
    entries_.erase(it);
    return true;
  }

  bool contains(std::string_view name) const {
    std::shared_lock lock(mutex_);
    return entries_.find(name) != entries_.end();
  }

  /// A new pass `name` with `options`; throws PipelineError for an unknown name (with the
  /// nearest registered names), a bad option, or a name registered twice differently.
  Pass create(std::string_view name, const PassOptionValues& options = {}) const {
    std::shared_ptr<const Entry> entry = find(name);
    if (!entry) {
      throw PipelineError(unknown_message(name));
    }
    if (!entry->conflict.empty()) {
      throw PipelineError(entry->conflict);
    }
    return entry->factory(options);
  }

  /// "unknown pass 'X'; did you mean 'Y'?" with the registered names.
  std::string unknown_message(std::string_view name) const {
    const std::vector<std::string> known = names();
    std::string message = "ctir: unknown pass '" + std::string(name) + "'" +
                          detail::did_you_mean(detail::nearest_names(name, known));
    if (known.empty()) {
      message += " (no passes are registered; ctir::passes::register_standard_passes() "
                 "registers the standard ones)";
    }
    return message;
  }

  /// The registered names, sorted.
  std::vector<std::string> names() const {
    std::shared_lock lock(mutex_);
    std::vector<std::string> result;
    for (const auto& [name, entry] : entries_) {
      result.push_back(name);
    }
    return result;
  }
  /// Every registered pass, sorted by name.
  std::vector<PassListing> list() const {
    std::shared_lock lock(mutex_);
    std::vector<PassListing> result;
    for (const auto& [name, entry] : entries_) {
      result.push_back(entry->listing);
    }
    return result;
  }
  /// The listing as a table: name, opt_level, description, then each option indented.
  std::string render() const {
    const std::vector<PassListing> passes = list();
    std::size_t width = 4;
    for (const PassListing& listing : passes) {
      width = std::max(width, listing.name.size());
    }
    std::string out = pad("pass", width) + "  opt  description\n";
    for (const PassListing& listing : passes) {
      char level[16];
      std::snprintf(level, sizeof(level), "%3d", listing.opt_level);
      out += pad(listing.name, width) + "  " + level + "  " + listing.description;
      if (!listing.required.empty()) {
        out += listing.description.empty() ? "(requires " : " (requires ";
        for (std::size_t i = 0; i < listing.required.size(); ++i) {
          out += (i > 0 ? ", " : "") + listing.required[i];
        }
        out += ')';
      }
      out += '\n';
      for (const PassOptionInfo& option : listing.options) {
        out += pad("", width) + "       " + option.name + ": " + option.type + " = " +
               option.default_value;
        if (!option.description.empty()) {
          out += "  " + option.description;
        }
        out += '\n';
      }
    }
    return out;
  }

private:
  struct Entry {
    PassListing listing;
    PassFactory factory;
    /// The registered static type (for merging identical static registrations).
    const void* tag = nullptr;
    /// Set when a static registration clashed with another pass of the same name.
    std::string conflict;
  };

  template <class P>
  static Entry entry_for() {
    static_assert(std::is_default_constructible_v<P>,
                  "CTIR_REGISTER_PASS / PassRegistry::add<P>: the pass type must be default "
                  "constructible (options are set after construction)");
    const P prototype{};
    const PassInfo& info = prototype.info();
    Entry entry;
    entry.listing.name = std::string(info.name);
    entry.listing.opt_level = info.opt_level;
    entry.listing.description = std::string(info.description);
    for (std::string_view name : info.required) {
      entry.listing.required.emplace_back(name);
    }
    entry.listing.options = pass_option_infos<P>();
    entry.tag = &detail::type_tag<P>;
    entry.factory = [](const PassOptionValues& options) {
      P made{};
      const std::string name(made.info().name);
      PassOptionValues canonical;
      for (const PassOptionValue& option : options) {
        set_pass_option(made, name, option.name, option.value);
        canonical.push_back({option.name, pass_option_text(made, option.name)});
      }
      return Pass::with_options(std::move(made), std::move(canonical));
    };
    return entry;
  }

  std::shared_ptr<const Entry> find(std::string_view name) const {
    std::shared_lock lock(mutex_);
    auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : it->second;
  }

  /// Inserts `entry`; the message of a clash, or empty. The same static type registered
  /// again is accepted.
  std::string insert(Entry entry) {
    if (entry.listing.name.empty()) {
      return "ctir: cannot register a pass without a name";
    }
    if (entry.listing.name == "sequential") {
      return "ctir: 'sequential' is reserved for sequentials in pipeline strings";
    }
    std::unique_lock lock(mutex_);
    auto it = entries_.find(entry.listing.name);
    if (it == entries_.end()) {
      std::string name = entry.listing.name;
      entries_.emplace(std::move(name), std::make_shared<const Entry>(std::move(entry)));
      return {};
    }
    if (entry.tag != nullptr && it->second->tag == entry.tag) {
      return {};
    }
    return "ctir: two different passes are registered as '" + entry.listing.name + "'";
  }

  /// As insert, for static initialisation: a clash is recorded on the entry.
  void insert_static(Entry entry) noexcept {
    try {
      const std::string name = entry.listing.name;
      if (std::string message = insert(std::move(entry)); !message.empty()) {
        std::unique_lock lock(mutex_);
        auto it = entries_.find(name);
        if (it != entries_.end()) {
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

  static std::string pad(std::string text, std::size_t width) {
    text.append(text.size() < width ? width - text.size() : 0, ' ');
    return text;
  }

  mutable std::shared_mutex mutex_;
  std::map<std::string, std::shared_ptr<const Entry>, std::less<>> entries_;

  template <class P>
  friend bool register_static_pass() noexcept;
};

/// Registers static pass type P in the global registry (see CTIR_REGISTER_PASS).
template <pass P>
void register_pass() {
  PassRegistry::global().add<P>();
}

/// For CTIR_REGISTER_PASS: registers P during static initialisation without throwing.
template <class P>
bool register_static_pass() noexcept {
  static_assert(pass<P>, "CTIR_REGISTER_PASS: the type must be a pass (a type with info() "
                         "and transform_module, transform_function or operator()(IRModule, "
                         "const PassContext&))");
  try {
    PassRegistry::global().insert_static(PassRegistry::entry_for<P>());
  } catch (...) {
    return false;
  }
  return true;
}

} // namespace ctir

/// Registers a static pass type in the global PassRegistry, at namespace scope:
///
///     CTIR_REGISTER_PASS(FoldConstant);
#define CTIR_REGISTER_PASS(Type)                                                                   \
  [[maybe_unused]] static const bool CTIR_DETAIL_PASS_CAT(ctir_registered_pass_, __COUNTER__) =    \
      ::ctir::register_static_pass<Type>()
