// The "answer" object of `lookup gpu` and `lookup driver` JSON (docs/json.md): what the text
// prints first, as data.
#include "report/i18n.h"
#include "report/json.h"

namespace cudamatch {

namespace {

void TargetJson(const LookupTarget& t, Json& j) {
  j["platform"] = t.platform.Name();
  j["platform_from"] = t.platform_from_machine ? "machine" : "flags";
  j["platform_from_gpu"] = t.platform_from_gpu.empty() ? Json(nullptr) : Json(t.platform_from_gpu);
  j["python"] = OptString(t.python);
  j["driver_checked"] = t.driver_checked;
  j["driver"] = t.driver ? Json(t.driver->text) : Json(nullptr);
  j["driver_cuda"] = t.driver_cuda ? Json(t.driver_cuda->MajorMinor()) : Json(nullptr);
  j["driver_from"] = !t.driver ? Json(nullptr) : Json(t.driver_from_machine ? "machine" : "flag");
}

Json PickJson(const TorchPick& p) {
  if (p.release == nullptr || p.variant == nullptr) return nullptr;
  Json j;
  j["torch"] = p.release->torch.ToString();
  j["variant"] = p.variant->variant.tag;
  j["index_url"] = p.index_url.empty() ? Json(nullptr) : Json(p.index_url);
  j["pip"] = p.pip;
  j["driver_fit"] = DriverFitName(p.driver_fit);
  j["kernel"] = p.kernel ? Json(KernelFitName(*p.kernel)) : Json(nullptr);
  j["min_driver"] = OptString(p.min_driver);
  return j;
}

Json ReasonsJson(const std::vector<Reason>& reasons) {
  Json out = Json::array();
  for (const Reason& r : reasons) out.push_back(Json{{"id", r.id}, {"message", TrArgs(Lang::kEn, r.id, r.args)}});
  return out;
}

Json SpanJson(const GpuCodeSpan& s) {
  if (s.first == nullptr) return nullptr;
  Json j;
  j["first"] = Json{{"torch", s.first->torch.ToString()}, {"variants", StringList(s.first_variants)}};
  j["last"] = Json{{"torch", s.last->torch.ToString()}, {"variants", StringList(s.last_variants)},
                   {"variants_without_code", StringList(s.last_without)}};
  j["releases"] = s.releases;
  j["ended"] = s.ended();
  j["older_releases_without_code"] = s.starts_later();
  return j;
}

}  // namespace

Json GpuVerdictJson(const GpuVerdict& v) {
  Json j = Json::object();
  TargetJson(v.target, j);
  j["newest"] = PickJson(v.newest);
  j["why_none"] = ReasonsJson(v.why_none);
  j["other_driver"] = PickJson(v.newer_driver);
  j["pypi_default_without_code"] = v.pypi_default ? Json(v.pypi_default->variant.tag) : Json(nullptr);
  j["code_span"] = SpanJson(v.span);
  j["next"] = ReasonsJson(v.next);
  return j;
}

Json DriverVerdictJson(const DriverVerdict& v) {
  Json j = Json::object();
  TargetJson(v.target, j);
  j["newest"] = PickJson(v.newest);
  j["newest_full"] = PickJson(v.newest_full);
  Json runs = Json::array();
  for (const FitRun& r : v.runs) {
    runs.push_back(Json{{"first", r.first}, {"last", r.last}, {"count", r.count}, {"runs", DriverFitName(r.fit)}});
  }
  j["runs"] = runs;
  return j;
}

}  // namespace cudamatch
