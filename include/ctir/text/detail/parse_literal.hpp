// Decoding the literals of the text format: numbers with dtype suffixes, and strings.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/dtype.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace ctir::detail {

/// A decoded numeric literal.
struct NumberValue {
  DataType dtype = DataType::int32();
  std::int64_t int_value = 0; ///< for integer dtypes
  double float_value = 0;     ///< for float dtypes: the value rounded to the dtype
};

/// The dtype a literal suffix names: `` int32 (or `default_int`), `i8` `i16` `i32` `i64`,
/// `u8`, `f` (float32), `f16`, `f64`.
std::optional<DataType> literal_suffix_dtype(std::string_view suffix, DataType default_int);

/// The float words: `inff`, `nanf`, `inff16`, `nanf64`, ... (the printer's spelling of
/// infinities and NaNs); sets `value` (positive) and `dtype` if `word` is one.
bool float_word(std::string_view word, double& value, DataType& dtype);

/// Decodes the text of a number token (`3`, `2.5f`, `1e-07f`, `255u8`), negated if
/// `negative`. A number without a suffix is a `default_int`; a float needs a suffix.
/// Returns an error message, or nothing on success.
std::optional<std::string> decode_number(std::string_view text, bool negative, DataType default_int,
                                         NumberValue& out);

/// Decodes the text of a string token (with its quotes): `\"` `\\` `\n` `\t` `\r` and
/// `\xHH`. Returns an error message and the offset of the bad escape within `token`, or
/// nothing on success.
std::optional<std::pair<std::string, std::size_t>> decode_string(std::string_view token,
                                                                 std::string& out);

} // namespace ctir::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/text/detail/parse_literal-inl.hpp>
#endif
