// Passes, pass contexts and the registry, with passes written in Python.
#include "common.hpp"

#include <ctir/pass/config.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/passes/register.hpp>
#include <ctir/runtime/pass.hpp>

#include <pybind11/stl.h>

#include <climits>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctir::python {
namespace {

/// A Python object that C++ copies may share and destroy on any thread (the last owner
/// takes the GIL to release it).
using PyRef = std::shared_ptr<const py::object>;

PyRef hold(py::object object) {
  return PyRef(new py::object(std::move(object)), [](const py::object* held) {
    py::gil_scoped_acquire gil;
    delete held;
  });
}

py::object context_object(const PassContext& ctx) {
  // A context made in Python comes back as its Python object.
  return py::cast(const_cast<PassContext*>(&ctx), py::return_value_policy::reference);
}

PassInfo make_info(const std::string& name, int opt_level,
                   const std::vector<std::string>& required) {
  PassInfo info;
  info.name = name;
  info.opt_level = opt_level;
  for (const std::string& r : required) {
    info.required.push_back(r);
  }
  return detail::stable_info(info);
}

/// A module pass whose rewrite is a Python callable `(mod, ctx) -> IRModule`.
struct PyModulePass {
  PassInfo info_;
  PyRef fn;
  const PassInfo& info() const noexcept { return info_; }
  IRModule transform_module(IRModule mod, const PassContext& ctx) const {
    py::gil_scoped_acquire gil;
    return call_python([&] {
      py::object result = (*fn)(std::move(mod), context_object(ctx));
      if (!py::isinstance<IRModule>(result)) {
        throw py::type_error("module pass '" + std::string(info_.name) +
                             "' must return an IRModule, not " +
                             std::string(py::str(py::type::handle_of(result).attr("__name__"))));
      }
      return result.cast<IRModule>();
    });
  }
};

template <class FuncNode>
Ref<FuncNode> call_function_pass(const PassInfo& info, const PyRef& fn, Ref<FuncNode> f,
                                 const IRModule& mod, const PassContext& ctx, bool may_delete) {
  py::gil_scoped_acquire gil;
  return call_python([&] {
    py::object result = (*fn)(wrap_node(ObjectRef(std::move(f))), mod, context_object(ctx));
    const ObjectRef node = unwrap_node(result);
    if (!node.defined() && may_delete) {
      return Ref<FuncNode>();
    }
    if (!node.defined() || !node.is<FuncNode>()) {
      throw py::type_error("function pass '" + std::string(info.name) + "' must return an " +
                           std::string(FuncNode::type_key) + ", not " +
                           (node.defined() ? std::string(node->dynamic_type_key()) : "None"));
    }
    return Ref<FuncNode>::borrow(node.template as<FuncNode>());
  });
}

/// A pass over each graph-level function: a Python callable `(func, mod, ctx) -> Function`.
struct PyFunctionPass {
  PassInfo info_;
  PyRef fn;
  const PassInfo& info() const noexcept { return info_; }
  Function transform_function(Function f, const IRModule& mod, const PassContext& ctx) const {
    return call_function_pass<FunctionNode>(info_, fn, std::move(f), mod, ctx, false);
  }
};

/// A pass over each tensor-level function; returning None deletes the function.
struct PyPrimFuncPass {
  PassInfo info_;
  PyRef fn;
  const PassInfo& info() const noexcept { return info_; }
  PrimFunc transform_function(PrimFunc f, const IRModule& mod, const PassContext& ctx) const {
    return call_function_pass<PrimFuncNode>(info_, fn, std::move(f), mod, ctx, true);
  }
};

Pass make_python_pass(const std::string& kind, py::object fn, const std::string& name,
                      int opt_level, const std::vector<std::string>& required) {
  if (!PyCallable_Check(fn.ptr())) {
    throw py::type_error("a pass needs a callable");
  }
  PassInfo info = make_info(name, opt_level, required);
  if (kind == "module") {
    return Pass(PyModulePass{info, hold(std::move(fn))});
  }
  if (kind == "function") {
    return Pass(PyFunctionPass{info, hold(std::move(fn))});
  }
  if (kind == "prim_func") {
    return Pass(PyPrimFuncPass{info, hold(std::move(fn))});
  }
  throw py::value_error("unknown pass kind '" + kind + "'");
}

/// A Python int, float, bool or str as a config value.
ConfigValue config_value(py::handle value) {
  if (py::isinstance<py::bool_>(value)) {
    return ConfigValue(value.cast<bool>());
  }
  if (py::isinstance<py::int_>(value)) {
    const auto integer = value.cast<std::int64_t>();
    if (integer >= INT_MIN && integer <= INT_MAX) {
      return ConfigValue(static_cast<int>(integer));
    }
    return ConfigValue(integer);
  }
  if (py::isinstance<py::float_>(value)) {
    return ConfigValue(value.cast<double>());
  }
  if (py::isinstance<py::str>(value)) {
    return ConfigValue(value.cast<std::string>());
  }
  throw py::type_error("a config value is a bool, int, float or str");
}

py::object config_to_python(const ConfigValue& value) {
  if (value.holds<bool>()) {
    return py::bool_(value.get<bool>());
  }
  if (value.holds<int>()) {
    return py::int_(value.get<int>());
  }
  if (value.holds<std::int64_t>()) {
    return py::int_(value.get<std::int64_t>());
  }
  if (value.holds<double>()) {
    return py::float_(value.get<double>());
  }
  if (value.holds<std::string>()) {
    return py::str(value.get<std::string>());
  }
  return py::none();
}

/// Runs a pass on a module with the GIL released (Python passes and instruments take it).
IRModule run(const Pass& pass, IRModule mod, PassContext* ctx) {
  py::gil_scoped_release release;
  return ctx != nullptr ? pass(std::move(mod), *ctx) : pass(std::move(mod));
}

/// The scopes of the contexts entered by `with` and not yet left (guarded by the GIL).
std::unordered_map<const PassContext*, std::unique_ptr<PassContextScope>>& open_scopes() {
  static auto* scopes =
      new std::unordered_map<const PassContext*, std::unique_ptr<PassContextScope>>();
  return *scopes;
}

/// The scope `with` opened for `ctx`, taken out of the table (null if there is none).
std::unique_ptr<PassContextScope> take_scope(const PassContext* ctx) {
  auto& scopes = open_scopes();
  const auto found = scopes.find(ctx);
  if (found == scopes.end()) {
    return nullptr;
  }
  std::unique_ptr<PassContextScope> scope = std::move(found->second);
  scopes.erase(found);
  return scope;
}

/// Deletes a context made in Python, leaving it first if a `with` entered it and never
/// left it (the object was dropped by `__enter__` alone, or in a generator never resumed).
struct ContextDeleter {
  void operator()(PassContext* ctx) const noexcept {
    try {
      take_scope(ctx).reset();
    } catch (...) {
      // An exit_pass_ctx error with nobody left to report it to.
    }
    delete ctx;
  }
};
using ContextHolder = std::unique_ptr<PassContext, ContextDeleter>;

} // namespace

Instrument to_instrument(py::handle value);
py::object instrument_object(const Instrument& instrument);

void bind_passes(py::module_& m) {
  passes::register_standard_passes();

  py::class_<PassInfo>(m, "PassInfo", "What the pass infrastructure knows about a pass.")
      .def(py::init(&make_info), py::arg("name"), py::arg("opt_level") = 0,
           py::arg("required") = std::vector<std::string>())
      .def_property_readonly("name", [](const PassInfo& i) { return std::string(i.name); })
      .def_readonly("opt_level", &PassInfo::opt_level)
      .def_property_readonly("required",
                             [](const PassInfo& i) {
                               std::vector<std::string> names(i.required.begin(), i.required.end());
                               return names;
                             })
      .def("__repr__", [](const PassInfo& i) {
        std::string text = "PassInfo(name='" + std::string(i.name) +
                           "', opt_level=" + std::to_string(i.opt_level) + ", required=[";
        for (std::size_t k = 0; k < i.required.size(); ++k) {
          text += (k == 0 ? "'" : ", '") + std::string(i.required[k]) + "'";
        }
        return text + "])";
      });

  py::class_<Pass>(m, "Pass", "A pass of any kind; `p(mod)` runs it with the current context.")
      .def(py::init<const Pass&>(), py::arg("other"))
      .def_property_readonly("info", &Pass::info)
      .def(
          "__call__", [](const Pass& p, const IRModule& mod) { return run(p, mod, nullptr); },
          py::arg("mod"))
      .def(
          "__call__",
          [](const Pass& p, const IRModule& mod, PassContext& ctx) { return run(p, mod, &ctx); },
          py::arg("mod"), py::arg("ctx"))
      .def_property_readonly("passes", &Pass::passes,
                             "The passes of a sequential (empty for other passes).")
      .def("same_as", &Pass::same_as)
      .def("__str__", &Pass::str)
      .def("__repr__", [](const Pass& p) { return "<ctir.Pass " + p.str() + ">"; });

  m.def("_make_pass", &make_python_pass, py::arg("kind"), py::arg("fn"), py::arg("name"),
        py::arg("opt_level"), py::arg("required"));
  m.def(
      "_make_sequential",
      [](const std::vector<Pass>& passes, int opt_level, const std::string& name,
         const std::vector<std::string>& required) {
        return sequential(passes, make_info(name, opt_level, required));
      },
      py::arg("passes"), py::arg("opt_level"), py::arg("name"), py::arg("required"));
  m.def(
      "get_pass",
      [](const std::string& name, const py::kwargs& options) {
        PassOptionValues values;
        for (const auto& [key, value] : options) {
          std::string text = py::isinstance<py::bool_>(value)
                                 ? std::string(value.cast<bool>() ? "true" : "false")
                                 : py::str(value).cast<std::string>();
          values.push_back({key.cast<std::string>(), std::move(text)});
        }
        return PassRegistry::global().create(name, values);
      },
      py::arg("name"), "A new registered pass, its options given as keywords.");
  m.def("list_passes", [] { return PassRegistry::global().names(); });
  m.def(
      "parse_pipeline", [](const std::string& text) { return parse_pipeline(text); },
      py::arg("text"));
  m.def(
      "register_pass", [](const Pass& pass) { PassRegistry::global().add(pass); }, py::arg("pass"),
      "Registers a pass under its name, so that pipelines and get_pass find it.");
  m.def(
      "unregister_pass",
      [](const std::string& name) { return PassRegistry::global().remove(name); }, py::arg("name"));
  m.def("list_configs", [] {
    py::dict configs;
    for (const ConfigOptionInfo& option : list_configs()) {
      py::dict entry;
      entry["type"] = option.type;
      entry["default"] = option.default_value;
      entry["description"] = option.description;
      configs[py::str(option.key)] = entry;
    }
    return configs;
  });

  py::class_<PassContext, ContextHolder>(m, "PassContext", py::dynamic_attr(),
                                         "The settings and instruments passes run under.")
      .def(py::init([](int opt_level, const std::vector<std::string>& required_pass,
                       const std::vector<std::string>& disabled_pass, const py::object& instruments,
                       const py::object& config) {
             PassContextOptions options;
             options.opt_level = opt_level;
             options.required = required_pass;
             options.disabled = disabled_pass;
             if (!instruments.is_none()) {
               for (py::handle instrument : instruments) {
                 options.instruments.push_back(to_instrument(instrument));
               }
             }
             if (!config.is_none()) {
               for (const auto& [key, value] : config.cast<py::dict>()) {
                 options.config.push_back({key.cast<std::string>(), config_value(value)});
               }
             }
             return ContextHolder(new PassContext(std::move(options)));
           }),
           py::arg("opt_level") = 2, py::arg("required_pass") = std::vector<std::string>(),
           py::arg("disabled_pass") = std::vector<std::string>(),
           py::arg("instruments") = py::none(), py::arg("config") = py::none())
      .def_property_readonly("opt_level", &PassContext::opt_level)
      .def_property_readonly("required_pass", &PassContext::required)
      .def_property_readonly("disabled_pass", &PassContext::disabled)
      .def_property_readonly("instruments",
                             [](const PassContext& ctx) {
                               py::list result;
                               for (const Instrument& i : ctx.instruments()) {
                                 result.append(instrument_object(i));
                               }
                               return result;
                             })
      .def_property_readonly("config",
                             [](const PassContext& ctx) {
                               py::dict result;
                               for (const ConfigSetting& s : ctx.config_settings()) {
                                 result[py::str(s.key)] = config_to_python(s.value);
                               }
                               return result;
                             })
      .def("get_config",
           [](const PassContext& ctx, const std::string& key) {
             if (const ConfigValue* value = ctx.find_config(key)) {
               return config_to_python(*value);
             }
             return config_to_python(PassConfigRegistry::global().lookup(key)->default_value);
           })
      .def(
          "override_instruments",
          [](PassContext& ctx, const py::object& instruments) {
            std::vector<Instrument> list;
            if (!instruments.is_none()) {
              for (py::handle instrument : instruments) {
                list.push_back(to_instrument(instrument));
              }
            }
            ctx.override_instruments(std::move(list));
          },
          py::arg("instruments"))
      .def("pass_enabled",
           [](const PassContext& ctx, const PassInfo& info) { return ctx.pass_enabled(info); })
      .def_property_readonly("entered", &PassContext::entered)
      .def_static(
          "current", [] { return &PassContext::current(); }, py::return_value_policy::reference,
          "The innermost entered context of this thread, or the thread's default context.")
      .def("__enter__",
           [](py::object self) {
             PassContext& ctx = self.cast<PassContext&>();
             auto scope = std::unique_ptr<PassContextScope>(new PassContextScope(ctx.enter()));
             open_scopes()[&ctx] = std::move(scope);
             return self;
           })
      .def("__exit__",
           [](PassContext& ctx, const py::object& type, const py::object&, const py::object&) {
             const std::unique_ptr<PassContextScope> scope = take_scope(&ctx);
             if (scope == nullptr) {
               return false;
             }
             if (type.is_none()) {
               scope->exit(); // an exit_pass_ctx error propagates
             } else {
               try {
                 scope->exit();
               } catch (const Error&) {
                 // The with block's own exception is the one to report.
               } catch (const py::error_already_set&) {
               }
             }
             return false;
           });
}

} // namespace ctir::python
