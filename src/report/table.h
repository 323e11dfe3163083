// `cudamatch table torch|cuda|driver|gpu`: whole correspondence tables, filtered.
#pragma once

#include <optional>
#include <string>

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

// Checks the table name and filters; the error names what is wrong.
Status ValidateTableQuery(const TableQuery& q);
std::string RenderTable(const Catalog& c, const TableQuery& q, const TextOptions& o);
Json TableJson(const Catalog& c, const TableQuery& q);

}  // namespace cudamatch
