// The pass registry: pass names to factories, for pipelines named at run time.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/pass/config.hpp>
#include <ctir/pass/error.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/instrument.hpp>
#include <ctir/pass/options.hpp>
#include <ctir/pass/run.hpp>
#include <ctir/runtime/pass/erased.hpp>

#include <functional>
#include <memory>
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
/// Static pass types register with `add<P>()` (`register_pass<P>()` for the global registry;
/// `ctir::passes::register_standard_passes()` registers the standard passes), or with
/// `CTIR_REGISTER_PASS(Type)` at namespace scope in a program's source file (identical
/// registrations merge); anything else registers at run time with `add`. Thread-safe.
class PassRegistry {
public:
  /// An empty registry (tools and tests may keep their own; most code uses global()).
  PassRegistry();
  PassRegistry(const PassRegistry&) = delete;
  PassRegistry& operator=(const PassRegistry&) = delete;
  ~PassRegistry();

  static PassRegistry& global();

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
  void add(PassListing listing, PassFactory factory);
  /// Registers a pass that takes no options: each use gets `prototype` (shared).
  void add(Pass prototype);
  /// Removes a registration (a plug-in being unloaded); false if there was none.
  bool remove(std::string_view name);

  bool contains(std::string_view name) const;

  /// A new pass `name` with `options`; throws PipelineError for an unknown name (with the
  /// nearest registered names), a bad option, or a name registered twice differently.
  Pass create(std::string_view name, const PassOptionValues& options = {}) const;

  /// "unknown pass 'X'; did you mean 'Y'?" with the registered names.
  std::string unknown_message(std::string_view name) const;

  /// The registered names, sorted.
  std::vector<std::string> names() const;
  /// Every registered pass, sorted by name.
  std::vector<PassListing> list() const;
  /// The listing as a table: name, opt_level, description, then each option indented.
  std::string render() const;

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

  struct State;

  std::shared_ptr<const Entry> find(std::string_view name) const;

  /// Inserts `entry`; the message of a clash, or empty. The same static type registered
  /// again is accepted.
  std::string insert(Entry entry);

  /// As insert, for static initialisation: a clash is recorded on the entry.
  void insert_static(Entry entry) noexcept;

  std::unique_ptr<State> state_;

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

/// Registers a static pass type in the global PassRegistry during static initialisation, at
/// namespace scope in a program's source file (not in a header: every file including it would
/// run code before main; `register_pass<Type>()` registers explicitly):
///
///     CTIR_REGISTER_PASS(FoldConstant);
#define CTIR_REGISTER_PASS(Type)                                                                   \
  [[maybe_unused]] static const bool CTIR_DETAIL_PASS_CAT(ctir_registered_pass_, __COUNTER__) =    \
      ::ctir::register_static_pass<Type>()

#ifdef CTIR_HEADER_ONLY
#include <ctir/runtime/pass/registry-inl.hpp>
#endif
