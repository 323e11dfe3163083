// cudamatch table torch|cuda|driver|gpu [--since V] [--cuda X.Y] [--cc X.Y]
#include "cli/common.h"
#include "report/table.h"

namespace cudamatch {

namespace {

struct TableOptions {
  std::string which;
  std::string since;
  std::string cuda;
  std::string cc;
};

Output RunTable(const TableOptions& opt, Context& ctx) {
  TableQuery q;
  q.which = opt.which;
  if (!opt.since.empty()) q.since = opt.since;
  if (!opt.cuda.empty()) {
    auto v = CudaVersion::Parse(opt.cuda);
    if (!v) return Failed(v.error());
    q.cuda = *v;
  }
  if (!opt.cc.empty()) {
    auto v = ComputeCapability::Parse(opt.cc);
    if (!v) return Failed(v.error());
    q.cc = *v;
  }
  q.platform = ctx.platform.Name();
  if (Status s = ValidateTableQuery(q); !s.ok()) return Failed(s.error());
  const Catalog* c = &ctx.catalog;
  return Views([=] { return TableJson(*c, q); }, [=](const TextOptions& o) { return RenderTable(*c, q, o); });
}

}  // namespace

void RegisterTable(CommandLine& cli) {
  auto opt = std::make_shared<TableOptions>();
  Command& sub = cli.Add("table", "A whole correspondence table: torch, cuda, driver or gpu",
                         [opt](Context& ctx) { return RunTable(*opt, ctx); });
  Arg& which = sub.Positional("which", &opt->which, "The table");
  which.required = true;
  for (const TableKind& k : TableKinds()) which.choices.push_back(Choice{k.name, k.help});
  sub.Option("--since", &opt->since, "VERSION", "Only rows from this version on");
  sub.Option("--cuda", &opt->cuda, "X.Y", "torch: only releases with wheels for this CUDA");
  sub.Option("--cc", &opt->cc, "X.Y", "gpu: only GPUs of this compute capability");
}

}  // namespace cudamatch
