// The static pass layer: PassInfo, PassContext, instruments, module/function/sequential passes.
#pragma once

#include <ctir/pass/config.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/error.hpp>
#include <ctir/pass/function_pass.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/instrument.hpp>
#include <ctir/pass/module_pass.hpp>
#include <ctir/pass/options.hpp>
#include <ctir/pass/requirements.hpp>
#include <ctir/pass/run.hpp>
#include <ctir/pass/sequential.hpp>
