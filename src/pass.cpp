// ctir::compiled: the pass infrastructure (contexts, configuration, instruments' erasure, errors).
#include <ctir/pass/config-inl.hpp>
#include <ctir/pass/context-inl.hpp>
#include <ctir/pass/detail/hooks-inl.hpp>
#include <ctir/pass/error-inl.hpp>
#include <ctir/pass/info-inl.hpp>
#include <ctir/pass/instrument-inl.hpp>
#include <ctir/pass/options-inl.hpp>
#include <ctir/pass/requirements-inl.hpp>
