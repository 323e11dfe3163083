// The command table's parser: what goes where, and what is refused with which words.
#include "cli/args.h"

#include <gtest/gtest.h>

namespace cudamatch::testing {
namespace {

struct Line {
  bool json = false;
  bool verbose = false;
  std::string lang;
  std::string root;
  bool root_given = false;
  std::vector<std::string> gpus;
  bool no_detect = false;
  std::vector<std::string> entities;
  std::string topic;
  CommandLine cli{"cudamatch", "cudamatch: test"};

  Line() {
    cli.global().Flag("--json", &json, "JSON");
    cli.global().Flag("-v,--verbose", &verbose, "Evidence");
    cli.global().Option("--lang", &lang, "LANG", "Language")
        .OneOf({{"en", "English"}, {"zh", "Simplified Chinese"}},
               [](std::string_view t) -> std::optional<std::string> {
                 if (t.substr(0, 3) == "zh_") return "zh";
                 return std::nullopt;
               });
    Command& doctor = cli.Add("doctor", "Inspect", nullptr);
    doctor.Option("--root", &root, "DIR", "Image").on_value = [this](const std::string&) { root_given = true; };
    Command& plan = cli.Add("plan", "Plan", nullptr);
    plan.Repeated("--gpu", &gpus, "NAME", "GPU");
    plan.Flag("--no-detect", &no_detect, "Flags only");
    Command& lookup = cli.Add("lookup", "Look up", nullptr);
    lookup.Positionals("entity", &entities, "torch==2.3.1").required = true;
    Command& explain = cli.Add("explain", "Explain", nullptr);
    explain.Positional("topic", &topic, "A topic").OneOf({{"layers", ""}, {"minor-compat", ""}, {"cudnn", ""}});
    cli.global().Option("--generate", &lang, "KIND", "hidden").hidden = true;
  }
  Result<ParsedLine> Parse(const std::vector<std::string>& words) { return ParseCommandLine(cli, words); }
  std::string Error(const std::vector<std::string>& words) {
    auto r = Parse(words);
    EXPECT_FALSE(r.ok());
    return r.ok() ? "" : r.error();
  }
};

TEST(Args, GlobalOptionsComeBeforeOrAfterTheCommand) {
  Line l;
  auto r = l.Parse({"--lang", "zh", "plan", "--json", "--gpu=RTX 4090", "--gpu", "A100", "-v", "--no-detect"});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->ask, ParsedLine::Ask::kRun);
  EXPECT_EQ(r->command->name(), "plan");
  EXPECT_EQ(l.lang, "zh");
  EXPECT_TRUE(l.json);
  EXPECT_TRUE(l.verbose);
  EXPECT_TRUE(l.no_detect);
  EXPECT_EQ(l.gpus, (std::vector<std::string>{"RTX 4090", "A100"}));
}

TEST(Args, NoCommandMeansDoctorWithItsOptions) {
  Line l;
  auto r = l.Parse({"--root", "/mnt/img", "--json"});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->command->name(), "doctor");
  EXPECT_EQ(l.root, "/mnt/img");
  EXPECT_TRUE(l.root_given);
  EXPECT_TRUE(l.json);
}

TEST(Args, PositionalsFillInOrderAndDashDashEndsOptions) {
  Line l;
  auto r = l.Parse({"lookup", "gpu", "--json", "--", "-RTX"});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(l.entities, (std::vector<std::string>{"gpu", "-RTX"}));
  EXPECT_TRUE(l.json);
  Line e;
  EXPECT_EQ(e.Error({"explain", "layers", "b"}), "unexpected argument 'b' for explain");
}

TEST(Args, RefusalsNameTheWordAndTheNearMiss) {
  Line l;
  EXPECT_EQ(l.Error({"lokup", "torch==2.0.0"}), "unknown command 'lokup' (did you mean 'lookup'?)");
  EXPECT_EQ(Line().Error({"doctr"}), "unknown command 'doctr' (did you mean 'doctor'?)");
  EXPECT_EQ(Line().Error({"plan", "--no-detct"}), "unknown option '--no-detct' for plan (did you mean '--no-detect'?)");
  EXPECT_EQ(Line().Error({"doctor", "--no-detect"}), "unknown option '--no-detect' for doctor");
  EXPECT_EQ(Line().Error({"plan", "--gpu"}), "--gpu needs a value (NAME)");
  EXPECT_EQ(Line().Error({"doctor", "--root", "--json"}), "--root needs a value (DIR)");
  EXPECT_EQ(Line().Error({"doctor", "--root", "a", "--root", "b"}), "--root is given more than once");
  EXPECT_EQ(Line().Error({"--json=yes"}), "--json takes no value");
  // The help said is the message table's for lookup's ENTITY (help.arg.lookup.entity).
  EXPECT_EQ(Line().Error({"lookup"}), "lookup needs entity: torch==2.3.1, torchvision==0.18.1, cuda==12.4, driver==550.54.14, gpu \"RTX 3090\"");
  EXPECT_EQ(Line().Error({"--generat", "man"}), "unknown option '--generat'") << "hidden options are not suggested";
}

TEST(Args, AllowedValuesAreAcceptedOtherSpellingsStoredAsTheirName) {
  Line l;
  ASSERT_TRUE(l.Parse({"--lang", "zh", "explain", "cudnn"}).ok());
  EXPECT_EQ(l.lang, "zh");
  EXPECT_EQ(l.topic, "cudnn");
  Line s;
  ASSERT_TRUE(s.Parse({"--lang=zh_CN", "explain"}).ok());
  EXPECT_EQ(s.lang, "zh");
  Line e;
  ASSERT_TRUE(e.Parse({"explain", ""}).ok()) << "an empty value is the default";
  EXPECT_EQ(e.topic, "");
}

TEST(Args, UnknownValueIsRefusedNamingTheNearMissAndTheAllowedValues) {
  EXPECT_EQ(Line().Error({"--lang", "zhh"}), "unknown value 'zhh' for --lang (did you mean 'zh'?); allowed: en, zh");
  EXPECT_EQ(Line().Error({"--lang", "french"}), "unknown value 'french' for --lang; allowed: en, zh");
  // The former explain-topic check, now the parser's through the same DidYouMean.
  EXPECT_EQ(Line().Error({"explain", "minor-compt"}),
            "unknown value 'minor-compt' for TOPIC (did you mean 'minor-compat'?); allowed: layers, minor-compat, cudnn");
  EXPECT_EQ(Line().Error({"explain", "lay"}),
            "unknown value 'lay' for TOPIC (did you mean 'layers'?); allowed: layers, minor-compat, cudnn")
      << "a word that begins an allowed value is a near miss too";
}

TEST(Args, OneDidYouMeanForCommandsOptionsAndValues) {
  std::vector<std::string> commands = {"doctor", "lookup", "explain"};
  EXPECT_EQ(DidYouMean("lokup", commands), "lookup");
  EXPECT_EQ(DidYouMean("expl", commands), "explain");
  EXPECT_EQ(DidYouMean("zzzzzz", commands), std::nullopt);
  EXPECT_EQ(DidYouMean("", commands), std::nullopt);
  EXPECT_EQ(DidYouMean("--no-detct", {"--root", "--no-detect"}), "--no-detect") << "the nearest, not the first";
  EXPECT_EQ(DidYouMeanHint("lokup", commands), " (did you mean 'lookup'?)");
}

TEST(Args, HelpListsAllowedValues) {
  Line l;
  std::string top = HelpText(l.cli, nullptr);
  EXPECT_NE(top.find("en  English"), std::string::npos) << top;
  EXPECT_NE(top.find("zh  Simplified Chinese"), std::string::npos) << top;
  std::string explain = HelpText(l.cli, l.cli.Find("explain"));
  // help.arg.explain.topic in the message table speaks for the declared "A topic".
  EXPECT_NE(explain.find("A topic; without one, the list [values: layers, minor-compat, cudnn]"), std::string::npos) << explain;
}

TEST(Args, ValuesMayLookLikeUnknownOptions) {
  Line l;
  auto r = l.Parse({"doctor", "--root", "-weird-dir"});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(l.root, "-weird-dir");
}

TEST(Args, HelpAndVersionWinWherever) {
  Line l;
  auto help = l.Parse({"plan", "--bogus", "--help"});
  EXPECT_FALSE(help.ok()) << "words before --help are still read";
  Line p;
  auto plan_help = p.Parse({"plan", "-h"});
  ASSERT_TRUE(plan_help.ok());
  EXPECT_EQ(plan_help->ask, ParsedLine::Ask::kHelp);
  EXPECT_EQ(plan_help->command->name(), "plan");
  Line t;
  auto top = t.Parse({"--help"});
  ASSERT_TRUE(top.ok());
  EXPECT_EQ(top->command, nullptr);
  Line v;
  auto version = v.Parse({"--version"});
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(version->ask, ParsedLine::Ask::kVersion);
}

TEST(Args, HelpListsCommandsOptionsAndGlobalsButNotHiddenOnes) {
  Line l;
  std::string top = HelpText(l.cli, nullptr);
  for (const char* word : {"doctor", "plan", "lookup", "explain", "--json", "-v, --verbose", "--lang LANG", "--version"}) {
    EXPECT_NE(top.find(word), std::string::npos) << word << "\n" << top;
  }
  EXPECT_EQ(top.find("--generate"), std::string::npos);
  std::string plan = HelpText(l.cli, l.cli.Find("plan"));
  EXPECT_NE(plan.find("Usage: cudamatch plan [OPTIONS]\n"), std::string::npos) << plan;
  EXPECT_NE(plan.find("--gpu NAME"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Global options:"), std::string::npos) << plan;
  std::string lookup = HelpText(l.cli, l.cli.Find("lookup"));
  EXPECT_NE(lookup.find("Usage: cudamatch lookup [OPTIONS] ENTITY...\n"), std::string::npos) << lookup;
}

}  // namespace
}  // namespace cudamatch::testing
