// `cudamatch catalog update`: the index readers on real page shapes, the overlay round trip, and
// whole runs against tests/fixtures/index/serve.py on 127.0.0.1 (good indexes, a mirror, and
// hostile answers, each of which must leave the previous overlay byte for byte).
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "catalog/index_learn.h"
#include "catalog/index_parse.h"
#include "catalog/overlay.h"
#include "catalog/query.h"
#include "core/http.h"
#include "tests/unit/json_schema.h"
#include "tests/unit/test_util.h"

extern char** environ;

namespace cudamatch {
namespace {

using testing::RunCudamatch;
using testing::TempDir;

std::string FixtureRoot() { return testing::SourceDir() + "/tests/fixtures/index/root"; }

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// ---- readers ----

TEST(CatalogUpdateReaders, WheelNames) {
  auto w = ParseWheelName("torch-2.5.1+cu124-cp312-cp312-linux_x86_64.whl");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->package, "torch");
  EXPECT_EQ(w->version.ToString(), "2.5.1+cu124");
  EXPECT_EQ(w->python_tags, std::vector<std::string>{"cp312"});
  auto many = ParseWheelName("torch-2.9.0-cp313-cp313t-manylinux_2_28_x86_64.manylinux2014_x86_64.whl");
  ASSERT_TRUE(many);
  EXPECT_EQ(many->platform_tags.size(), 2u);
  EXPECT_EQ(PythonOfTags("cp313", many->abi)->ToString(), "3.13t");
  EXPECT_FALSE(ParseWheelName("torch-2.5.1.tar.gz"));
  EXPECT_FALSE(ParseWheelName("torch-x-y.whl"));
  EXPECT_EQ(CatalogPlatformOfTag("linux_x86_64"), "linux-x86_64");
  EXPECT_EQ(CatalogPlatformOfTag("manylinux_2_28_aarch64"), "linux-aarch64");
  EXPECT_EQ(CatalogPlatformOfTag("win_amd64"), "windows-x86_64");
  EXPECT_EQ(CatalogPlatformOfTag("macosx_11_0_arm64"), "macos-arm64");
  EXPECT_EQ(CatalogPlatformOfTag("win32"), "");
}

// The shape of download.pytorch.org's pages since PEP 658 metadata was added
// (https://github.com/pytorch/test-infra/pull/6116).
TEST(CatalogUpdateReaders, PytorchHtml) {
  std::string html =
      "<!DOCTYPE html>\n<html>\n  <body>\n    <h1>Links for torch</h1>\n"
      "    <a href=\"/whl/nightly/cu126/torch-2.6.0.dev20250102%2Bcu126-cp313-cp313-win_amd64.whl\">"
      "torch-2.6.0.dev20250102+cu126-cp313-cp313-win_amd64.whl</a><br/>\n"
      "    <a href=\"/whl/cu126/torch-2.6.0%2Bcu126-cp310-cp310-linux_aarch64.whl#sha256=ab\" "
      "data-dist-info-metadata=\"sha256=3217\" data-core-metadata=\"sha256=3217\">"
      "torch-2.6.0+cu126-cp310-cp310-linux_aarch64.whl</a><br/>\n  </body>\n</html>\n";
  auto files = ParseSimpleHtml(html, "https://download.pytorch.org/whl/torch/");
  ASSERT_TRUE(files) << files.error();
  ASSERT_EQ(files->size(), 2u);
  EXPECT_FALSE((*files)[0].has_metadata);
  EXPECT_TRUE((*files)[1].has_metadata);
  EXPECT_EQ((*files)[1].url, "https://download.pytorch.org/whl/cu126/torch-2.6.0%2Bcu126-cp310-cp310-linux_aarch64.whl");
  EXPECT_EQ((*files)[1].filename, "torch-2.6.0+cu126-cp310-cp310-linux_aarch64.whl");
  EXPECT_FALSE(ParseSimpleHtml("<html><body><a href=\"/x.whl", "https://h/p/"));
  EXPECT_FALSE(ParseSimpleHtml("\x89PNG", "https://h/p/"));
}

TEST(CatalogUpdateReaders, PypiJsonAndMetadata) {
  std::string json = ReadAll(FixtureRoot() + "/pypi/simple/torch/index.json");
  auto files = ParseSimpleJson(json, "https://pypi.org/simple/torch/");
  ASSERT_TRUE(files) << files.error();
  ASSERT_EQ(files->size(), 6u);
  EXPECT_EQ((*files)[1].upload_time.substr(0, 7), "2026-11");
  EXPECT_TRUE((*files)[1].has_metadata);
  EXPECT_EQ((*files)[1].url, "https://pypi.org/files/torch-2.16.0-cp312-cp312-manylinux_2_28_x86_64.whl");
  EXPECT_FALSE((*files)[0].has_metadata);  // "core-metadata": false
  EXPECT_EQ((*files)[0].requires_python, "");  // null
  EXPECT_FALSE(ParseSimpleJson("{\"files\": [", "https://h/"));
  EXPECT_FALSE(ParseSimpleJson("{\"files\": []}", "https://h/"));  // no meta.api-version
  WheelMetadata m = ParseWheelMetadata(ReadAll(FixtureRoot() + "/files/torchvision-0.31.0-cp312-cp312-manylinux_2_28_x86_64.whl.metadata"));
  EXPECT_EQ(m.requires_python, ">=3.10");
  ASSERT_EQ(m.requires_dist.size(), 3u);  // the body's text is not a header
  EXPECT_EQ(PinnedVersion(m.requires_dist[1], "torch")->ToString(), "2.16.0");
  EXPECT_FALSE(PinnedVersion("torch>=2.0", "torch"));
  EXPECT_FALSE(PinnedVersion("torchvision==0.31.0", "torch"));
}

TEST(CatalogUpdateReaders, UrlsAndRedirects) {
  HttpLimits limits;
  limits.redirect_hosts = {"files.pythonhosted.org"};
  EXPECT_EQ(UrlRefusal("https://pypi.org/simple/torch/", limits), "");
  EXPECT_NE(UrlRefusal("http://pypi.org/simple/torch/", limits), "");
  EXPECT_NE(UrlRefusal("http://127.0.0.1:8000/", limits), "");
  limits.allow_loopback_http = true;
  EXPECT_EQ(UrlRefusal("http://127.0.0.1:8000/", limits), "");
  EXPECT_NE(UrlRefusal("http://localhost:8000/", limits), "");
  std::string to;
  EXPECT_EQ(RedirectRefusal("https://pypi.org/simple/torch", "/simple/torch/", limits, &to), "");
  EXPECT_EQ(to, "https://pypi.org/simple/torch/");
  EXPECT_EQ(RedirectRefusal("https://pypi.org/a", "https://files.pythonhosted.org/b", limits, &to), "");
  EXPECT_NE(RedirectRefusal("https://pypi.org/a", "file:///etc/passwd", limits, &to).find("file"), std::string::npos);
  EXPECT_NE(RedirectRefusal("https://pypi.org/a", "https://example.com/b", limits, &to).find("another host"), std::string::npos);
  EXPECT_NE(RedirectRefusal("https://pypi.org/a", "http://pypi.org/b", limits, &to), "");
  EXPECT_EQ(MediaType("Text/HTML; charset=utf-8"), "text/html");
}

// ---- learning and the overlay, from the fixture files read directly ----

std::vector<IndexPage> FixturePages() {
  std::vector<IndexPage> pages;
  for (const char* p : {"torch", "torchvision", "torchaudio"}) {
    std::string url = "https://download.pytorch.org/whl/" + std::string(p) + "/";
    pages.push_back({p, url, false, *ParseSimpleHtml(ReadAll(FixtureRoot() + "/whl/" + p + "/index.html"), url)});
  }
  for (const char* p : {"torch", "torchvision", "torchaudio"}) {
    std::string url = "https://pypi.org/simple/" + std::string(p) + "/";
    pages.push_back({p, url, true, *ParseSimpleJson(ReadAll(FixtureRoot() + "/pypi/simple/" + p + "/index.json"), url)});
  }
  return pages;
}

std::map<std::string, WheelMetadata> FixtureMetadata(const std::vector<std::string>& urls) {
  std::map<std::string, WheelMetadata> out;
  for (const std::string& url : urls) {
    std::string path = url.substr(url.find(".org/") + 4);
    for (size_t at; (at = path.find("%2B")) != std::string::npos;) path.replace(at, 3, "+");
    out[url] = ParseWheelMetadata(ReadAll(FixtureRoot() + path));
    EXPECT_FALSE(out[url].requires_dist.empty()) << path;
  }
  return out;
}

TEST(CatalogUpdateLearn, NewReleaseVariantsPinsAndPypiBuild) {
  const Catalog& base = testing::TheCatalog();
  std::vector<IndexPage> pages = FixturePages();
  std::vector<std::string> wanted = MetadataWanted(pages, base);
  // One PyPI wheel per platform of 2.16.0, one wheel of each companion; nothing for 2.9.0.
  EXPECT_EQ(wanted.size(), 6u);
  IndexFacts f = LearnFromIndexes(pages, FixtureMetadata(wanted), base);
  ASSERT_EQ(f.releases.size(), 1u);  // the nightly is a pre-release, 2.9.0 is known
  EXPECT_EQ(f.releases[0].torch.ToString(), "2.16.0");
  EXPECT_EQ(f.releases[0].released, "2026-11");
  EXPECT_EQ(f.releases[0].python_min->ToString(), "3.11");
  EXPECT_EQ(f.releases[0].python_max->ToString(), "3.14");
  EXPECT_EQ(f.releases[0].torchvision->ToString(), "0.31.0");
  EXPECT_EQ(f.releases[0].torchaudio->ToString(), "2.16.0");
  std::vector<std::string> rows;
  for (const LearnedVariant& v : f.variants) {
    rows.push_back((v.torch.ToString() == "2.16.0" ? "" : v.torch.ToString() + " ") + v.platform + " " + v.variant +
                   (v.pypi_default ? " pypi" : ""));
  }
  // A variant of a release the catalog knows is learned too (2.9.0 itself is not a new release).
  EXPECT_EQ(rows, (std::vector<std::string>{"2.9.0 linux-x86_64 rocm9.9", "linux-aarch64 cpu", "linux-aarch64 cu131 pypi", "linux-x86_64 cpu",
                                            "linux-x86_64 cu131 pypi", "linux-x86_64 cu132", "macos-arm64 cpu pypi",
                                            "windows-x86_64 cpu pypi", "windows-x86_64 cu131"}));
  ASSERT_EQ(f.companions.size(), 2u);
  EXPECT_EQ(f.companions[1].package, "torchvision");
  EXPECT_EQ(f.companions[1].torch.ToString(), "2.16.0");
}

// Found by fuzz_index: an upload time that does not start with a date gave a month the overlay
// could not read back.
TEST(CatalogUpdateLearn, UploadTimesThatAreNoDatesGiveNoMonth) {
  for (const char* time : {"2026-1+-18T16:55:01Z", "2026-13-01T00:00:00Z", "x", "20261118"}) {
    IndexFile f{"torch-2.16.0+cu131-cp312-cp312-manylinux_2_28_x86_64.whl", "https://h/whl/x.whl", time, "", false};
    std::vector<IndexPage> pages = {{"torch", "https://h/whl/torch/", false, {f}}};
    IndexFacts facts = LearnFromIndexes(pages, {}, testing::TheCatalog());
    ASSERT_EQ(facts.releases.size(), 1u);
    EXPECT_EQ(facts.releases[0].released, "") << time;
    Catalog c;
    EXPECT_TRUE(ApplyOverlay(c, OverlayText(facts, "2026-12-02")).ok()) << time;
  }
}

TEST(CatalogUpdateLearn, OverlayRoundTripAddsRowsAndEmbeddedWins) {
  auto catalog = ParseCatalog(EmbeddedCatalogFiles());
  ASSERT_TRUE(catalog);
  std::vector<IndexPage> pages = FixturePages();
  IndexFacts f = LearnFromIndexes(pages, FixtureMetadata(MetadataWanted(pages, *catalog)), *catalog);
  LearnedVariant known;  // a row the embedded table has: it must not be replaced
  known.torch = *Pep440::Parse("2.9.0");
  known.platform = "linux-x86_64";
  known.variant = "cu128";
  known.sources = {"https://example.org/x"};
  f.variants.insert(f.variants.begin(), known);
  size_t releases = catalog->torch.size(), variants = catalog->torch_variants.size();
  ASSERT_TRUE(ApplyOverlay(*catalog, OverlayText(f, "2026-12-02")).ok());
  EXPECT_EQ(catalog->index_date, "2026-12-02");
  EXPECT_EQ(catalog->torch.size(), releases + 1);
  EXPECT_EQ(catalog->torch_variants.size(), variants + 9);
  EXPECT_EQ(catalog->torch.back().torch.ToString(), "2.16.0");
  const TorchRelease* r = FindTorch(*catalog, *Pep440::Parse("2.16.0"));
  ASSERT_NE(r, nullptr);
  std::string source(r->prov.sources().front());
  const SourceRef* s = FindSource(*catalog, source);
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->where.starts_with("https://")) << s->where;
  for (const TorchVariant& v : catalog->torch_variants) {
    if (v.torch.ToString() == "2.9.0" && v.platform == "linux-x86_64" && v.variant.tag == "cu128") {
      EXPECT_TRUE(v.arch_list.has_value());  // the embedded row, with its arch list
    }
  }
  Catalog bad;
  EXPECT_FALSE(ApplyOverlay(bad, "# cudamatch index overlay\ndate\t2026-12-02\n[torch_releases.tsv]\nnonsense\n").ok());
  EXPECT_FALSE(ApplyOverlay(bad, "hello").ok());
  EXPECT_TRUE(bad.index_date.empty());
}

// ---- whole runs against the local server ----

class IndexServer : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (auto http = OpenHttpClient(HttpLimits{}); !http) {
      skip_ = "libcurl.so.4 cannot be loaded: " + http.error();
      return;
    }
    dir_ = new TempDir();
    std::string port_file = dir_->path() + "/port";
    std::string script = testing::SourceDir() + "/tests/fixtures/index/serve.py";
    std::string root = FixtureRoot();
    std::vector<char*> argv = {const_cast<char*>("python3"), script.data(), root.data(), port_file.data(), nullptr};
    pid_t pid = 0;
    if (posix_spawnp(&pid, "python3", nullptr, nullptr, argv.data(), environ) != 0) {
      skip_ = "python3 cannot be started";
      return;
    }
    for (int i = 0; i < 200 && ReadAll(port_file).empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::istringstream in(ReadAll(port_file));
    in >> port_ >> pid_;
    if (port_ == 0) {
      kill(pid, SIGTERM);
      waitpid(pid, nullptr, 0);
      skip_ = "the fixture server did not start";
    }
    spawned_ = pid;
  }
  static void TearDownTestSuite() {
    if (spawned_ > 0) {
      kill(spawned_, SIGTERM);
      waitpid(spawned_, nullptr, 0);
    }
    delete dir_;
  }
  void SetUp() override {
    if (!skip_.empty()) GTEST_SKIP() << skip_;
  }

  static std::string Url(const std::string& path) { return "http://127.0.0.1:" + std::to_string(port_) + path; }
  std::vector<std::string> Env() const {
    return {"LANG=C.UTF-8", "XDG_CACHE_HOME=" + cache_.path(), "CUDAMATCH_TEST_ALLOW_HTTP_LOOPBACK=1",
            std::string(testing::kGoldenNow)};
  }
  testing::RunResult Update(const std::string& pytorch, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"catalog", "update", "--index", Url(pytorch), "--index", Url("/pypi/simple")};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunCudamatch(args, Env());
  }
  std::string OverlayPath() const { return cache_.path() + "/cudamatch/index-overlay.tsv"; }

  static inline std::string skip_;
  static inline TempDir* dir_ = nullptr;
  static inline int port_ = 0;
  static inline pid_t pid_ = 0;
  static inline pid_t spawned_ = 0;
  TempDir cache_;
};

TEST_F(IndexServer, UpdateWritesTheOverlayAndEveryAnswerUsesIt) {
  auto dry = Update("/whl", {"--dry-run"});
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.out.find("+ torch 2.16.0"), std::string::npos) << dry.out;
  EXPECT_NE(dry.out.find("dry run"), std::string::npos);
  EXPECT_TRUE(ReadAll(OverlayPath()).empty());
  auto r = Update("/whl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string overlay = ReadAll(OverlayPath());
  EXPECT_TRUE(overlay.starts_with("# cudamatch index overlay\ndate\t2026-01-01\n")) << overlay;
  EXPECT_NE(overlay.find(Url("/whl/torch/")), std::string::npos);

  auto lookup = RunCudamatch({"lookup", "torch==2.16.0", "--os", "linux", "--arch", "x86_64"}, Env());
  EXPECT_EQ(lookup.exit_code, 0) << lookup.out << lookup.err;
  EXPECT_NE(lookup.out.find("cu131"), std::string::npos) << lookup.out;
  EXPECT_NE(lookup.out.find("index data of 2026-01-01"), std::string::npos) << lookup.out;
  EXPECT_NE(lookup.out.find("Catalog data of "), std::string::npos);
  auto json = RunCudamatch({"lookup", "torch==2.16.0", "--json", "--os", "linux", "--arch", "x86_64"}, Env());
  EXPECT_NE(json.out.find("\"index_overlay_date\": \"2026-01-01\""), std::string::npos) << json.out;
  auto check = RunCudamatch({"check", "torch==2.16.0", "torchvision==0.31.0", "--os", "linux", "--arch", "x86_64"}, Env());
  EXPECT_EQ(check.out.find("does not exist"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("index data of 2026-01-01"), std::string::npos) << check.out;
  auto plan = RunCudamatch({"plan", "--torch", "2.16.0", "--no-detect", "--os", "linux", "--arch", "x86_64", "--python", "3.12",
                            "--driver", "610.10", "--cuda-max", "13.2", "--cc", "9.0"}, Env());
  EXPECT_NE(plan.out.find("2.16.0"), std::string::npos) << plan.out << plan.err;
  EXPECT_NE(plan.out.find("index data of 2026-01-01"), std::string::npos) << plan.out;
  auto torch_table = RunCudamatch({"table", "torch", "--since", "2.15", "--os", "linux", "--arch", "x86_64"}, Env());
  EXPECT_NE(torch_table.out.find("2.16.0"), std::string::npos) << torch_table.out;
  EXPECT_NE(torch_table.out.find("Index data of 2026-01-01"), std::string::npos) << torch_table.out;
  auto zh = RunCudamatch({"lookup", "torch==2.16.0", "--lang", "zh", "--os", "linux", "--arch", "x86_64"}, Env());
  EXPECT_NE(zh.out.find("索引数据截至 2026-01-01"), std::string::npos) << zh.out;
  auto table = RunCudamatch({"catalog"}, Env());
  EXPECT_NE(table.out.find("Index data of 2026-01-01"), std::string::npos);
  EXPECT_NE(table.out.find(Url("/whl/torch/")), std::string::npos);
  EXPECT_NE(table.out.find("12    " + OverlayPath()), std::string::npos) << table.out;  // rows it added

  for (const std::vector<std::string>& off : {std::vector<std::string>{"--no-overlay"}, std::vector<std::string>{}}) {
    std::vector<std::string> args = {"lookup", "torch==2.16.0", "--os", "linux", "--arch", "x86_64"};
    args.insert(args.end(), off.begin(), off.end());
    std::vector<std::string> env = Env();
    if (off.empty()) env.push_back("CUDAMATCH_OVERLAY=off");
    auto plain = RunCudamatch(args, env);
    EXPECT_EQ(plain.out.find("cu131"), std::string::npos) << plain.out;
    EXPECT_EQ(plain.out.find("index data of"), std::string::npos);
  }
}

TEST_F(IndexServer, JsonAnswersFollowTheSchema) {
  nlohmann::json schema = nlohmann::json::parse(ReadAll(testing::SourceDir() + "/docs/schema/cudamatch.schema.json"));
  auto dry = Update("/whl", {"--dry-run", "--json"});
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  nlohmann::json j = nlohmann::json::parse(dry.out);
  EXPECT_EQ(testing::Validate(schema, schema, j), std::vector<std::string>{});
  EXPECT_EQ(j["kind"], "catalog_update");
  EXPECT_TRUE(j["overlay_path"].is_null());
  EXPECT_EQ(j["new_releases"], nlohmann::json::array({"2.16.0"}));
  EXPECT_TRUE(j["meta"]["index_overlay_date"].is_null());  // nothing written, nothing used
  ASSERT_EQ(Update("/whl", {"--json"}).exit_code, 0);
  auto lookup = RunCudamatch({"lookup", "torch==2.16.0", "--json", "--os", "linux", "--arch", "x86_64"}, Env());
  nlohmann::json l = nlohmann::json::parse(lookup.out);
  EXPECT_EQ(testing::Validate(schema, schema["$defs"]["torch"], l), std::vector<std::string>{});
  EXPECT_EQ(l["meta"]["index_overlay_date"], "2026-01-01");
}

TEST_F(IndexServer, AMirrorAndAGoodRedirectAreFollowed) {
  auto mirror = Update("/mirror/whl");
  ASSERT_EQ(mirror.exit_code, 0) << mirror.err;
  EXPECT_NE(ReadAll(OverlayPath()).find(Url("/mirror/whl/torch/")), std::string::npos);
  auto redirected = Update("/hostile/redirect-same/whl");
  EXPECT_EQ(redirected.exit_code, 0) << redirected.err;
}

TEST_F(IndexServer, HostileAnswersLeaveTheOverlayAlone) {
  ASSERT_EQ(Update("/whl").exit_code, 0);
  std::string before = ReadAll(OverlayPath());
  ASSERT_FALSE(before.empty());
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"huge", "larger than"},          {"slow", "within 2 s"},
      {"truncated", "curl error 18"},    {"malformed-html", "unterminated tag"},
      {"malformed-json", "malformed JSON"}, {"gzip-bomb", "larger than"},
      {"wrong-type", "unexpected content type image/png"}, {"redirect-file", "a redirect to file://"},
      {"redirect-host", "another host (example.com)"}};
  for (const auto& [mode, why] : cases) {
    auto r = Update("/hostile/" + mode + "/whl", {"--timeout", "2"});
    EXPECT_NE(r.exit_code, 0) << mode;
    EXPECT_NE(r.err.find("catalog update failed; the index data in use is unchanged"), std::string::npos) << mode << r.err;
    EXPECT_NE(r.err.find(Url("/hostile/" + mode + "/whl/torch/")), std::string::npos) << mode << r.err;
    EXPECT_NE(r.err.find(why), std::string::npos) << mode << ": " << r.err;
    EXPECT_EQ(ReadAll(OverlayPath()), before) << mode;
  }
}

// A mirror named as mirrors.tsv names it; here a catalog whose mirrors.tsv lists the local server.
TEST_F(IndexServer, MirrorsOfTheCatalogAreNamed) {
  TempDir catalog;
  for (std::string_view name : CatalogFileNames()) {
    std::string text = ReadAll(testing::SourceDir() + "/catalog/" + std::string(name));
    if (name == "mirrors.tsv") {
      size_t header = text.find('\n') + 1;
      text.insert(header, "local\tpytorch\t" + Url("/mirror/whl") + "\tsimple\tlocal\tpep-503\tthe fixture server\n");
    }
    catalog.Write(std::string(name), text);
  }
  std::vector<std::string> args = {"catalog", "update", "--catalog", catalog.path(), "--index", "local", "--index", Url("/pypi/simple")};
  auto r = RunCudamatch(args, Env());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(ReadAll(OverlayPath()).find(Url("/mirror/whl/torch/")), std::string::npos);
  auto find_links = RunCudamatch({"catalog", "update", "--index", "sjtu-pytorch-wheels"}, Env());
  EXPECT_EQ(find_links.exit_code, 2);
  EXPECT_NE(find_links.err.find("find-links layout"), std::string::npos) << find_links.err;
  auto timeout = RunCudamatch({"catalog", "update", "--timeout", "soon"}, Env());
  EXPECT_EQ(timeout.exit_code, 2);
  EXPECT_NE(timeout.err.find("--timeout soon: a number of seconds"), std::string::npos) << timeout.err;
  auto bad = RunCudamatch({"catalog", "update", "--index", "ftp://example.com/simple"}, Env());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("neither a mirror"), std::string::npos) << bad.err;
}

TEST_F(IndexServer, PlainHttpNeedsTheTestSwitch) {
  std::vector<std::string> env = Env();
  env.erase(std::remove(env.begin(), env.end(), "CUDAMATCH_TEST_ALLOW_HTTP_LOOPBACK=1"), env.end());
  auto r = RunCudamatch({"catalog", "update", "--index", Url("/whl")}, env);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("plain http is refused"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cudamatch

namespace cudamatch {
namespace {

TEST(CatalogUpdateOverlay, AMalformedOverlayIsIgnoredWithAWarning) {
  TempDir cache;
  std::string dir = cache.Mkdir("cudamatch");
  ASSERT_EQ(chmod(dir.c_str(), 0700), 0);
  std::string file = cache.Write("cudamatch/index-overlay.tsv", "# cudamatch index overlay\ndate\t2026-12-02\n[torch_releases.tsv]\nbroken\n");
  ASSERT_EQ(chmod(file.c_str(), 0600), 0);
  auto r = RunCudamatch({"lookup", "torch==2.9.0", "--os", "linux", "--arch", "x86_64"},
                        {"LANG=C.UTF-8", "XDG_CACHE_HOME=" + cache.path()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: the index data is ignored"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("index data of"), std::string::npos);
}

}  // namespace
}  // namespace cudamatch
