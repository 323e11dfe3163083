// cudamatch catalog update [--dry-run] [--index URL|MIRROR]...: reads the PyTorch wheel indexes
// and PyPI for torch, torchvision and torchaudio, and writes what they say that the catalog does
// not know into the index overlay (catalog/overlay.h) in the user's cache directory. The only
// command that uses the network.
#include "cli/catalog_update.h"

#include <map>

#include "catalog/index_learn.h"
#include "catalog/overlay.h"
#include "catalog/query.h"
#include "core/cache_store.h"
#include "core/http.h"
#include "core/text.h"
#include "report/json.h"

namespace cudamatch {

namespace {

constexpr const char* kPackages[] = {"torch", "torchvision", "torchaudio"};
constexpr const char* kAccept = "application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.1";
constexpr const char* kDefaultPytorch = "https://download.pytorch.org/whl";
constexpr const char* kDefaultPypi = "https://pypi.org/simple";

struct IndexBase {
  std::string url;  // without a trailing '/'
  bool pypi = false;
};

std::string NoSlash(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

Result<std::vector<IndexBase>> Indexes(const std::vector<std::string>& given, const Catalog& c, Lang lang) {
  std::vector<IndexBase> out;
  if (given.empty()) return std::vector<IndexBase>{{kDefaultPytorch, false}, {kDefaultPypi, true}};
  for (const std::string& g : given) {
    if (const Mirror* m = FindMirror(c, g)) {
      if (m->layout != "simple") return Err(Tr(lang, "update.mirror_layout", {{"mirror", m->name}, {"layout", m->layout}}));
      out.push_back(IndexBase{NoSlash(m->url), m->kind == "pypi"});
      continue;
    }
    if (!ParseUrl(g)) return Err(Tr(lang, "update.bad_index", {{"index", g}}));
    std::string url = NoSlash(g);
    out.push_back(IndexBase{url, url.ends_with("/simple")});
  }
  return out;
}

HttpLimits Limits(const UpdateOptions& opt, const Context& ctx, const Catalog& c) {
  HttpLimits limits;
  if (auto t = ParseUint(opt.timeout); t && *t > 0 && *t <= 3600) limits.total_timeout_s = static_cast<long>(*t);
  limits.connect_timeout_s = std::min(limits.connect_timeout_s, limits.total_timeout_s);
  // Tests only: plain http to a server of their own on 127.0.0.1.
  limits.allow_loopback_http = ctx.Env("CUDAMATCH_TEST_ALLOW_HTTP_LOOPBACK") == "1";
  for (const Mirror& m : c.mirrors) {
    if (auto u = ParseUrl(m.url)) limits.redirect_hosts.push_back(u->host);
  }
  limits.redirect_hosts.push_back("files.pythonhosted.org");
  return limits;
}

// download.pytorch.org has served its pages as binary/octet-stream (S3's default): such a body
// counts as HTML only when it starts as HTML.
bool IsHtml(const std::string& type, const std::string& body) {
  if (type == "text/html" || type == "application/vnd.pypi.simple.v1+html") return true;
  if (type != "binary/octet-stream" && type != "application/octet-stream") return false;
  std::string head = ToLower(std::string_view(body).substr(0, 64));
  return head.starts_with("<!doctype html") || head.starts_with("<html");
}

Result<IndexPage> FetchPage(HttpClient& http, const IndexBase& base, const std::string& package) {
  std::string url = base.url + "/" + package + "/";
  auto r = http.Get(url, kAccept);
  if (!r) return Error{r.err()};
  std::string type = MediaType(r->content_type);
  Result<std::vector<IndexFile>> files = Err("");
  if (type == "application/vnd.pypi.simple.v1+json") files = ParseSimpleJson(r->body, r->url);
  else if (IsHtml(type, r->body)) files = ParseSimpleHtml(r->body, r->url);
  else return Err(url + ": unexpected content type " + (type.empty() ? "(none)" : type) + " for an index page");
  if (!files) return Err(url + ": " + files.error());
  if (files->empty()) return Err(url + ": the page lists no files");
  return IndexPage{package, url, base.pypi, std::move(*files)};
}

Result<WheelMetadata> FetchMetadata(HttpClient& http, const std::string& url) {
  auto r = http.Get(url, "*/*");
  if (!r) return Error{r.err()};
  std::string type = MediaType(r->content_type);
  if (type == "text/html" || type.ends_with("json")) return Err(url + ": unexpected content type " + type + " for a metadata file");
  if (!r->body.starts_with("Metadata-Version:")) return Err(url + ": not a core metadata file (no Metadata-Version)");
  return ParseWheelMetadata(r->body);
}

struct Learned {
  IndexFacts facts;
  std::vector<std::string> sources;
};

Result<Learned> Learn(HttpClient& http, const std::vector<IndexBase>& bases, const Catalog& base_catalog) {
  std::vector<IndexPage> pages;
  Learned out;
  for (const IndexBase& b : bases) {
    for (const char* package : kPackages) {
      auto page = FetchPage(http, b, package);
      if (!page) return Error{page.err()};
      out.sources.push_back(page->url);
      pages.push_back(std::move(*page));
    }
  }
  std::map<std::string, WheelMetadata> metadata;
  for (const std::string& url : MetadataWanted(pages, base_catalog)) {
    auto m = FetchMetadata(http, url);
    if (!m) return Error{m.err()};
    out.sources.push_back(url);
    metadata.emplace(url, std::move(*m));
  }
  out.facts = LearnFromIndexes(pages, metadata, base_catalog);
  return out;
}

std::string Date(const Context& ctx) { return ctx.run_time.substr(0, 10); }

Json UpdateJson(const Learned& l, const std::string& date, const std::string& written, bool dry_run) {
  Json j = JsonHeader("catalog_update");
  j["dry_run"] = dry_run;
  j["index_date"] = date;
  j["overlay_path"] = OptText(written);
  Json releases = Json::array();
  for (const LearnedRelease& r : l.facts.releases) releases.push_back(r.torch.ToString());
  j["new_releases"] = releases;
  Json variants = Json::array();
  for (const LearnedVariant& v : l.facts.variants) {
    variants.push_back(Json{{"torch", v.torch.ToString()}, {"platform", v.platform}, {"variant", v.variant},
                            {"pypi_default", v.pypi_default}});
  }
  j["new_variants"] = variants;
  Json companions = Json::array();
  for (const LearnedCompanion& m : l.facts.companions) {
    companions.push_back(Json{{"package", m.package}, {"version", m.version.ToString()}, {"torch", m.torch.ToString()}});
  }
  j["new_companions"] = companions;
  j["sources"] = StringList(l.sources);
  return j;
}

std::string UpdateText(const Learned& l, const std::string& date, const std::string& written, bool dry_run,
                       const TextOptions& o) {
  Lang L = o.lang;
  const IndexFacts& f = l.facts;
  std::string out = o.style.Bold(Tr(L, dry_run ? "update.title_dry_run" : "update.title", {{"date", date}})) + "\n";
  out += "  " + Tr(L, "update.counts", {{"releases", std::to_string(f.releases.size())},
                                        {"variants", std::to_string(f.variants.size())},
                                        {"companions", std::to_string(f.companions.size())}}) + "\n";
  for (const LearnedRelease& r : f.releases) {
    std::string variants;
    for (const LearnedVariant& v : f.variants) {
      if (v.torch == r.torch) variants += (variants.empty() ? "" : ", ") + v.platform + " " + v.variant + (v.pypi_default ? " (PyPI)" : "");
    }
    out += "  + torch " + r.torch.ToString() + (variants.empty() ? "" : ": " + variants) + "\n";
  }
  for (const LearnedVariant& v : f.variants) {
    bool of_new = std::any_of(f.releases.begin(), f.releases.end(), [&](const LearnedRelease& r) { return r.torch == v.torch; });
    if (!of_new) out += "  + torch " + v.torch.ToString() + " " + v.platform + " " + v.variant + "\n";
  }
  for (const LearnedCompanion& m : f.companions) {
    out += "  + " + m.package + " " + m.version.ToString() + " -> torch " + m.torch.ToString() + "\n";
  }
  out += o.style.Dim(Tr(L, "update.sources", {{"count", std::to_string(l.sources.size())}})) + "\n";
  if (!written.empty()) out += Tr(L, "update.written", {{"path", written}}) + "\n";
  return out;
}

}  // namespace

std::string OverlayDir(const Context& ctx) {
  return DefaultCacheDir(ctx.Env("XDG_CACHE_HOME"), ctx.Env("HOME"), ctx.Env("LOCALAPPDATA"));
}

Output RunCatalogUpdate(const UpdateOptions& opt, Context& ctx) {
  Lang L = ctx.lang;
  auto base_catalog = LoadCatalog(ctx.flags.catalog_dir, L);
  if (!base_catalog) return Failed(base_catalog.error());
  if (auto t = ParseUint(opt.timeout); !opt.timeout.empty() && (!t || *t == 0 || *t > 3600)) {
    return Failed(Tr(L, "update.bad_timeout", {{"value", opt.timeout}}));
  }
  auto bases = Indexes(opt.indexes, *base_catalog, L);
  if (!bases) return Failed(bases.error());
  std::unique_ptr<CacheStore> store;
  std::string dir = OverlayDir(ctx);
  if (!opt.dry_run) {
    store = dir.empty() ? nullptr : OpenCacheStore(dir);
    if (!store) return Failed(Tr(L, "update.no_cache_dir", {{"dir", dir.empty() ? "?" : dir}}));
  }
  auto http = OpenHttpClient(Limits(opt, ctx, *base_catalog));
  if (!http) return Failed(Tr(L, "update.no_http", {{"why", http.error()}}));
  auto learned = Learn(**http, *bases, *base_catalog);
  if (!learned) return Failed(Tr(L, "update.failed", {{"why", learned.error()}}));
  std::string date = Date(ctx);
  std::string text = OverlayText(learned->facts, date);
  Catalog check;
  if (Status s = ApplyOverlay(check, text); !s.ok()) return Failed(Tr(L, "update.failed", {{"why", s.error()}}));
  std::string written;
  if (!opt.dry_run) {
    if (!store->Put(std::string(kOverlayFile), text)) {
      return Failed(Tr(L, "update.write_failed", {{"path", dir + "/" + std::string(kOverlayFile)}}));
    }
    written = dir + "/" + std::string(kOverlayFile);
  }
  auto shared = std::make_shared<Learned>(std::move(*learned));
  bool dry = opt.dry_run;
  return Views([shared, date, written, dry] { return UpdateJson(*shared, date, written, dry); },
               [shared, date, written, dry](const TextOptions& o) { return UpdateText(*shared, date, written, dry, o); });
}

}  // namespace cudamatch
