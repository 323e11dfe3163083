// Version parsers: never crash, and what parses round-trips through its canonical form.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/version.h"

using namespace cudamatch;  // NOLINT: fuzz entry point

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  if (auto v = Pep440::Parse(text)) {
    auto again = Pep440::Parse(v->ToString());
    if (!again || !(*again == *v) || again->ToString() != v->ToString()) std::abort();
  }
  if (auto s = SpecifierSet::Parse(text)) s->Matches(Pep440::Parse("2.3.1+cu121").value());
  if (auto c = CudaVersion::Parse(text)) {
    auto again = CudaVersion::Parse(c->ToString());
    if (!again || !(*again == *c)) std::abort();
  }
  if (auto v = Variant::Parse(text)) {
    if (Variant::Parse(v->tag).value().tag != v->tag) std::abort();
  }
  if (auto d = DriverVersion::Parse(text)) d->branch();
  if (auto cc = ComputeCapability::Parse(text)) {
    auto again = ComputeCapability::Parse(cc->ToString());
    if (!again || !(*again == *cc)) std::abort();
  }
  if (auto p = PyVersion::Parse(text)) p->ToString();
  return 0;
}
