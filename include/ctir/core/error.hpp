// The error type of ctir: a message, and where in the IR or the source it points.
#pragma once

#include <stdexcept>
#include <string>

namespace ctir {

/// Every error ctir reports derives from this.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace ctir
