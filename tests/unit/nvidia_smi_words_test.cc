// nvidia-smi spells its header two ways: "Driver Version / CUDA Version" before driver branch
// R610, "KMD Version / CUDA UMD Version" from R610 on (explain.nvidia-smi.sources). The doctor's
// driver-CUDA row and `explain nvidia-smi` name the spelling the user's nvidia-smi prints.
#include <gtest/gtest.h>

#include "report/doctor.h"
#include "report/explain.h"
#include "report/i18n.h"

namespace cudamatch {
namespace {

Snapshot WithDriver(const std::string& version, const std::string& cuda) {
  Snapshot s;
  s.driver.kernel_module_loaded = true;
  s.driver.kernel_version = DriverVersion::Parse(version).value();
  s.driver.userspace_version = s.driver.kernel_version;
  s.driver.cuda = CudaVersion::Parse(cuda).value();
  return s;
}

// The driver-CUDA row of the report, with the lines it wraps onto joined by single spaces.
std::string RowOfDriverCuda(const std::string& report) {
  size_t at = report.find("Driver's CUDA");
  if (at == std::string::npos) return "";
  size_t end = report.find('\n', at);
  std::string row = report.substr(at, end - at);
  while (end != std::string::npos && report.compare(end + 1, 4, "    ") == 0) {
    size_t next = report.find('\n', end + 1);
    std::string line = report.substr(end + 1, next - end - 1);
    row += " " + line.substr(line.find_first_not_of(' '));
    end = next;
  }
  return row;
}

TEST(NvidiaSmiWords, DoctorNamesTheHeaderOfTheDriversGeneration) {
  TextOptions o{Lang::kEn, Style{}, false};
  std::string old_row = RowOfDriverCuda(RenderDoctor(WithDriver("550.54.14", "12.4"), {}, o));
  EXPECT_NE(old_row.find("\"CUDA Version\""), std::string::npos) << old_row;
  EXPECT_EQ(old_row.find("UMD"), std::string::npos) << old_row;
  std::string new_row = RowOfDriverCuda(RenderDoctor(WithDriver("610.43.02", "13.3"), {}, o));
  EXPECT_NE(new_row.find("\"CUDA UMD Version\""), std::string::npos) << new_row;
  EXPECT_NE(new_row.find("13.3"), std::string::npos) << new_row;
  o.lang = Lang::kZh;
  std::string zh = RenderDoctor(WithDriver("610.43.02", "13.3"), {}, o);
  EXPECT_NE(zh.find("nvidia-smi 中的 \"CUDA UMD Version\""), std::string::npos) << zh;
}

TEST(NvidiaSmiWords, ExplainDescribesBothHeadersWithItsSource) {
  for (Lang lang : {Lang::kEn, Lang::kZh}) {
    std::string text = RenderExplain("nvidia-smi", TextOptions{lang, Style{}, false});
    for (const char* words : {"CUDA Version: 12.4", "Driver Version: 550.54.14", "KMD Version: 610.43.02", "CUDA UMD Version: 13.3",
                              "R610", "https://github.com/sgl-project/sglang/issues/27487"}) {
      EXPECT_NE(text.find(words), std::string::npos) << words << "\n" << text;
    }
  }
  EXPECT_EQ(DriverCudaMeaningId(DriverVersion::Parse("595.45.04").value()), "doctor.cuda.driver_meaning");
  EXPECT_EQ(DriverCudaMeaningId(DriverVersion::Parse("610.43.02").value()), "doctor.cuda.driver_meaning_umd");
  EXPECT_EQ(DriverCudaMeaningId(std::nullopt), "doctor.cuda.driver_meaning");
}

}  // namespace
}  // namespace cudamatch
