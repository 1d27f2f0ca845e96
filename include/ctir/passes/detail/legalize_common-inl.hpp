// Definitions of <ctir/passes/detail/legalize_common.hpp>.
#pragma once

#include <ctir/passes/detail/legalize_common.hpp>

#include <optional>

namespace ctir::passes::detail {

CTIR_INLINE void append(std::vector<Stmt>& body, const Stmt& stmt) {
  if (const auto* block = stmt.as<SeqStmtNode>()) {
    body.insert(body.end(), block->seq.begin(), block->seq.end());
  } else {
    body.push_back(stmt);
  }
}

CTIR_INLINE std::vector<PrimExpr> broadcast_indices(const LegalizeCall& call,
                                                    const std::vector<std::int64_t>& in,
                                                    const std::vector<std::int64_t>& out,
                                                    const std::vector<PrimExpr>& indices) {
  std::vector<PrimExpr> result;
  const std::size_t skip = out.size() - in.size();
  for (std::size_t d = 0; d < in.size(); ++d) {
    result.push_back(in[d] == out[d + skip] ? indices[d + skip] : call.index(0));
  }
  return result;
}

CTIR_INLINE std::vector<std::size_t> axes_attr(const LegalizeCall& call, std::string_view key,
                                               std::size_t rank) {
  std::vector<std::size_t> axes;
  for (std::int64_t axis :
       call.attrs.get<std::vector<std::int64_t>>(key).value_or(std::vector<std::int64_t>{})) {
    axes.push_back(
        static_cast<std::size_t>(axis < 0 ? axis + static_cast<std::int64_t>(rank) : axis));
  }
  return axes;
}

} // namespace ctir::passes::detail
