// `cudamatch table torch|cuda|driver|gpu`: whole correspondence tables, filtered.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "report/json.h"
#include "report/text.h"

namespace cudamatch {

struct TableQuery {
  std::string which;                    // "torch", "cuda", "driver", "gpu"
  std::optional<std::string> since;     // lowest version shown (torch, CUDA or driver branch)
  std::optional<CudaVersion> cuda;      // torch releases with wheels for this CUDA
  std::optional<ComputeCapability> cc;  // GPUs of this compute capability
  std::string platform = "linux-x86_64";
};

// The tables, in the order they are listed (`table`'s allowed values).
struct TableKind {
  std::string_view name;
  std::string_view help;
};
const std::vector<TableKind>& TableKinds();

// Checks the table name and filters; the error names what is wrong.
Status ValidateTableQuery(const TableQuery& q);
std::string RenderTable(const Catalog& c, const TableQuery& q, const TextOptions& o);
Json TableJson(const Catalog& c, const TableQuery& q);

}  // namespace cudamatch
