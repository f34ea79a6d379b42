import assert from "node:assert/strict";
import fc from "fast-check";
import {
  bestTrigger,
  BUILD_VERBS,
  camelParts,
  compilerFingerprint,
  compileTrigger,
  CONCEPTS,
  holdsPhrase,
  LEAD_WORDS,
  preparePrompt,
  REVIEW_ACTIONS,
  scoreTrigger,
  STATE_WORDS,
  stem,
  STOP_WORDS,
  SYMPTOM_PHRASES,
  SYMPTOM_WORDS,
  tokenize,
  TRIGGER_COMPILER_VERSION,
  wordKey,
} from "./score.ts";
import { parseFrontmatter } from "../catalog/frontmatter.ts";

const INVESTIGATE = [
  "debug this",
  "fix this bug",
  "why is this broken",
  "root cause analysis",
  "investigate this error",
];
const REVIEW = ["review this pr", "code review", "check my diff", "pre-landing review"];
const IOS_FIX = ["fix this ios bug", "patch the iphone app", "auto-fix the ios issue"];

Deno.test("tokenize() lower-cases, drops inner apostrophes and splits on punctuation", () => {
  assert.deepEqual(tokenize("Don't FIX it, please: auto-fix!"), [
    "dont",
    "fix",
    "it",
    "please",
    "auto",
    "fix",
  ]);
  assert.deepEqual(tokenize("  "), []);
});

Deno.test("camelParts() splits camelCase words and leaves plain words alone", () => {
  assert.deepEqual(camelParts("TypeError"), ["type", "error"]);
  assert.deepEqual(camelParts("iOS"), ["i", "os"]);
  assert.deepEqual(camelParts("HTTPServer"), ["http", "server"]);
  assert.deepEqual(camelParts("plain"), []);
});

Deno.test("stem() makes failing, fails and failed one word", () => {
  assert.equal(stem("failing"), "fail");
  assert.equal(stem("fails"), "fail");
  assert.equal(stem("failed"), "fail");
  assert.equal(stem("fail"), "fail");
  assert.equal(stem("debugging"), "debug");
  assert.equal(stem("crashes"), "crash");
  assert.equal(stem("changes"), stem("change"));
  assert.equal(stem("status"), "status");
  assert.equal(stem("bug"), "bug");
});

Deno.test("wordKey() maps concept words to their concept (fails ≈ bug)", () => {
  assert.equal(wordKey("fails"), "bug");
  assert.equal(wordKey("broken"), "bug");
  assert.equal(wordKey("crashing"), "bug");
  assert.equal(wordKey("Bugs".toLowerCase()), "bug");
  assert.equal(wordKey("diff"), "pr");
  assert.equal(wordKey("website"), "site");
  assert.equal(wordKey("refactor"), stem("refactor"));
  for (const [key, words] of Object.entries(CONCEPTS)) {
    for (const w of words) assert.equal(wordKey(w), key, `${w} belongs to ${key}`);
  }
});

Deno.test("scoreTrigger() scores 1 on the whole phrase, counting all content words", () => {
  const s = scoreTrigger("fix this bug", "please fix this bug now");
  assert.equal(s.score, 1);
  assert.equal(s.whole, true);
  assert.equal(s.matched, 2);
});

Deno.test("scoreTrigger() scores the share of content words otherwise", () => {
  assert.equal(scoreTrigger("fix this bug", "fix it").score, 0.5);
  assert.equal(scoreTrigger("fix this ios bug", "fix it").score, 1 / 3);
  assert.equal(scoreTrigger("root cause analysis", "what is the root cause").score, 2 / 3);
  assert.equal(scoreTrigger("fix this bug", "add a flag").score, 0);
});

Deno.test("scoreTrigger() matches fails to bug through the concept table (seed example)", () => {
  const s = scoreTrigger("fix this bug", "this test fails, fix it");
  assert.equal(s.score, 1);
  assert.equal(s.matched, 2);
  assert.equal(s.whole, false);
  const ios = scoreTrigger("fix this ios bug", "this test fails, fix it");
  assert.equal(ios.score.toFixed(2), "0.67");
  assert.equal(ios.matched, 2);
});

Deno.test("scoreTrigger() counts a one-content-word trigger only on its whole phrase when short", () => {
  // "ship" has four letters: only "ship it" counts.
  assert.equal(scoreTrigger("ship it", "ship the release").score, 0);
  assert.equal(scoreTrigger("ship it", "ok, ship it now").score, 1);
  // "debug" has five letters: its share counts, with stemming.
  assert.equal(scoreTrigger("debug this", "debugging the parser").score, 1);
});

Deno.test("scoreTrigger() never counts a lone question word on its share", () => {
  // "where was i": "was" and "i" are common words, "where" is a question word.
  assert.equal(compileTrigger("where was i").partial, false);
  assert.equal(scoreTrigger("where was i", "where is the config file").score, 0);
  assert.equal(scoreTrigger("where was i", "so where was i?").score, 1);
  // Question words are still content words of longer triggers.
  assert.equal(scoreTrigger("why is this broken", "why does it crash").score, 1);
});

Deno.test("scoreTrigger() counts a trigger of only common words on its whole phrase", () => {
  const t = compileTrigger("do it");
  assert.equal(t.keys.length, 0);
  assert.equal(scoreTrigger(t, "just do it").score, 1);
  assert.equal(scoreTrigger(t, "do the thing").score, 0);
});

Deno.test("preparePrompt() reads camelCase parts, phrases and site addresses", () => {
  assert.ok(preparePrompt("getting a TypeError here").keys.has("bug"));
  assert.ok(preparePrompt("crash on iOS 17").keys.has("ios"));
  assert.ok(preparePrompt("please review my pull request").keys.has("pr"));
  const wrong = preparePrompt("what's wrong with it").keys;
  assert.ok(wrong.has("why") && wrong.has("bug"));
  assert.ok(preparePrompt("open http://localhost:5173 and look").keys.has("site"));
  assert.ok(preparePrompt("check staging.example.com").keys.has("site"));
  assert.ok(!preparePrompt("edit config.yaml").keys.has("site"));
  const qa = preparePrompt("qa the signup page").keys;
  assert.ok(qa.has("qa") && qa.has("test"));
});

Deno.test("bestTrigger() picks the highest score, then the most matched words", () => {
  const best = bestTrigger(INVESTIGATE, "this test fails, fix it");
  assert.equal(best?.trigger, "fix this bug");
  assert.equal(bestTrigger(IOS_FIX, "this test fails, fix it")?.trigger, "fix this ios bug");
  assert.equal(bestTrigger([], "anything"), undefined);
});

Deno.test("STOP_WORDS holds no question word", () => {
  for (const q of ["what", "why", "how", "where", "when", "which", "who"]) {
    assert.ok(!STOP_WORDS.has(q), q);
  }
});

Deno.test("scoreTrigger() is total, bounded and deterministic (property)", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 200 }), (t, p) => {
      const a = scoreTrigger(t, p);
      const b = scoreTrigger(t, p);
      assert.deepEqual(a, b);
      assert.ok(a.score >= 0 && a.score <= 1);
      assert.ok(a.matched >= 0 && a.matched <= a.total);
    }),
    { numRuns: 300 },
  );
});

Deno.test("scoreTrigger() scores 1 whenever the request holds the trigger verbatim (property)", () => {
  const word = fc.stringMatching(/^[a-z]{1,8}$/).filter((w) =>
    !["and", "but", "so", "then"].includes(w)
  );
  fc.assert(
    fc.property(
      fc.array(word, { minLength: 1, maxLength: 4 }),
      fc.string({ maxLength: 40 }),
      fc.string({ maxLength: 40 }),
      (words, before, after) => {
        // The request is "fix ..."; what comes before and after is a statement of plain words.
        const trigger = ["fix", ...words].join(" ");
        const prompt = `${before.replace(/[^a-z ]/g, "")}. please ${trigger}. ${
          after.replace(/[^a-z ]/g, "")
        }`;
        assert.equal(scoreTrigger(trigger, prompt).score, 1, prompt);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("tokenize() yields only non-empty lower-case words (property)", () => {
  fc.assert(
    fc.property(fc.fullUnicodeString({ maxLength: 100 }), (s) => {
      for (const w of tokenize(s)) {
        assert.ok(w.length > 0);
        assert.equal(w, w.toLowerCase());
        assert.ok(!/\s/.test(w));
      }
    }),
    { numRuns: 300 },
  );
});

/** camelParts() as written for any script, to check its ASCII shortcut against. */
function camelPartsUnicode(word: string): string[] {
  const split = word
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2");
  if (split === word) return [];
  return split.toLowerCase().split(" ");
}

Deno.test("camelParts() gives on ASCII words what the Unicode rule gives", () => {
  for (const w of ["TypeError", "iOS", "HTTPServer", "v8Engine", "ABC", "aB1cD", "x", ""]) {
    assert.deepEqual(camelParts(w), camelPartsUnicode(w), w);
  }
  fc.assert(
    fc.property(fc.stringMatching(/^[A-Za-z0-9]{0,12}$/), (w) => {
      assert.deepEqual(camelParts(w), camelPartsUnicode(w));
    }),
  );
  assert.deepEqual(camelParts("ÉcoleNormale"), ["école", "normale"]);
});

Deno.test("compilerFingerprint() is one stable hex value per scorer", () => {
  const f = compilerFingerprint();
  assert.match(f, /^[0-9a-f]+-[0-9a-f]+$/);
  assert.equal(compilerFingerprint(), f);
});

/** What compileTrigger() makes for every trigger of the fixture skills, pinned per version. */
const PINNED_COMPILER_OUTPUT: Readonly<Record<number, string>> = {
  2: "feb679d1",
  3: "feb679d1",
  4: "feb679d1",
};

Deno.test("compileTrigger() output is pinned: a change to it needs TRIGGER_COMPILER_VERSION bumped", async () => {
  const dir = new URL("../../fixtures/routing/skills/", import.meta.url);
  const triggers: string[] = [];
  for (const e of [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : 1)) {
    const text = Deno.readTextFileSync(new URL(`${e.name}/SKILL.md`, dir));
    const fm = await parseFrontmatter(text);
    const t = (fm.data as { triggers?: unknown }).triggers;
    for (const x of Array.isArray(t) ? t : [t]) if (typeof x === "string") triggers.push(x);
  }
  assert.ok(triggers.length > 50, `${triggers.length} triggers`);
  const text = JSON.stringify(triggers.map((t) => compileTrigger(t)));
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  const hash = (h >>> 0).toString(16);
  assert.equal(
    hash,
    PINNED_COMPILER_OUTPUT[TRIGGER_COMPILER_VERSION],
    "compileTrigger() makes something else now: bump TRIGGER_COMPILER_VERSION in " +
      "lib/routing/score.ts and pin the new hash here under the new version",
  );
});

Deno.test("compileTrigger() keeps a phrase that stands for a question word whole-phrase only", () => {
  // Found in review: "what's going on" (→ why) let any prompt with "why" score 1.00.
  assert.equal(compileTrigger("what's going on").partial, false);
  assert.equal(compileTrigger("how come").partial, false);
  assert.equal(
    scoreTrigger("what's going on", preparePrompt("why did you pick a Map here")).score,
    0,
  );
  assert.equal(
    scoreTrigger("what's going on", preparePrompt("what's going on with the build")).score,
    1,
  );
});

/** Whether a prompt reads as a request to fix something (the `fix` key), and its `bug` key. */
function fixIntent(prompt: string): boolean {
  const keys = preparePrompt(prompt).keys;
  return keys.has("fix") && keys.has("bug");
}

Deno.test("preparePrompt() reads a symptom word as a request to fix (SYMPTOM_WORDS)", () => {
  for (
    const p of [
      "go test ./... panics with nil pointer dereference in handler_test.go",
      "npm run build throws an error about a missing module",
      "the app freezes on startup on android 14",
      "test_refund is flaky, it fails maybe 1 in 5 runs",
      "the worker gets OOM killed after an hour",
      "this regression showed up after merging #482",
      "the migration deadlocks on the users table",
      "the server crashes on large uploads",
    ]
  ) {
    assert.ok(fixIntent(p), p);
    assert.equal(scoreTrigger("fix this bug", p).score, 1, p);
  }
  for (const w of SYMPTOM_WORDS) assert.ok(fixIntent(`the job ${w} at night`), w);
});

Deno.test("preparePrompt() compares symptom words as written: freeze edits is a command", () => {
  assert.ok(!fixIntent("freeze edits to the src directory"));
  assert.ok(!preparePrompt("hang the picture").keys.has("fix"));
});

Deno.test("preparePrompt() reads a symptom phrase as a request to fix (SYMPTOM_PHRASES)", () => {
  assert.ok(fixIntent("login stopped working after yesterday's deploy"));
  assert.ok(fixIntent("something is broken with the websocket reconnect logic"));
  assert.ok(fixIntent("the export isn't working anymore"));
  assert.ok(fixIntent("cargo build fails with a linker error"));
  for (const p of SYMPTOM_PHRASES) assert.ok(fixIntent(`since monday it ${p} sometimes`), p);
});

Deno.test("preparePrompt() reads a pasted error as a request to fix", () => {
  assert.ok(fixIntent("getting TypeError: Cannot read properties of undefined"));
  assert.ok(fixIntent("seeing a NullPointerException in the scheduler"));
  assert.ok(fixIntent("error: connection refused when the container starts"));
  assert.ok(fixIntent("Exception: bad handshake on every reconnect"));
});

Deno.test("preparePrompt() does not read weak failure words as a request to fix", () => {
  for (
    const p of [
      "translate the error messages into spanish",
      "the form should list every error below the field",
      "go through every page and check for broken links",
      "poke around and see what breaks",
      "the retry count for failed jobs is 3",
      "explain the test fixtures",
    ]
  ) {
    assert.ok(!preparePrompt(p).keys.has("fix"), p);
  }
});

Deno.test("preparePrompt() reads no intent into a prompt that opens with a build verb", () => {
  for (
    const p of [
      "write up a ticket for the flaky checkout test",
      "set up sentry so crashes get reported",
      "can you add a timeout so the request never hangs",
      "please document what happens when the parser throws",
      "I need to add a crash reporter",
      "go ahead and write a panic handler",
    ]
  ) {
    assert.ok(!preparePrompt(p).keys.has("fix"), p);
  }
  assert.ok(!preparePrompt("add a button to look at the PR").keys.has("review"));
  // The same symptom without the build verb reads as a report.
  assert.ok(fixIntent("the checkout test is flaky"));
  assert.ok(fixIntent("I need the startup crashes gone"));
  for (const v of BUILD_VERBS) {
    assert.ok(!preparePrompt(`${v} it so it never crashes`).keys.has("fix"), v);
  }
  for (const w of LEAD_WORDS) {
    assert.ok(!preparePrompt(`${w} add a crash log`).keys.has("fix"), w);
  }
});

Deno.test("preparePrompt() reads a look at a change as a review (REVIEW_ACTIONS)", () => {
  const pr = preparePrompt("take a look at PR #231 and leave comments").keys;
  assert.ok(pr.has("review") && pr.has("pr"));
  assert.equal(
    scoreTrigger("review this pr", "look at my PR and tell me what you'd change").score,
    1,
  );
  assert.equal(
    scoreTrigger("review this pr", "go through the staged changes and point out problems").score,
    1,
  );
  for (const a of REVIEW_ACTIONS) {
    // "ok to merge" opens with lead words: it is asked about, never ordered.
    const p = /^(?:ok|okay) /.test(a) ? `is the diff ${a}?` : `${a} the diff`;
    assert.ok(preparePrompt(p).keys.has("review"), a);
  }
  // Without a change named, the same words ask for no review.
  assert.ok(!preparePrompt("take a look at the logs and tell me what happened").keys.has("review"));
  assert.ok(!preparePrompt("go through the config and list the options").keys.has("review"));
});

Deno.test("preparePrompt() reads exploratory testing as qa and a browser as a site", () => {
  const explore = preparePrompt("exploratory testing of the admin panel please").keys;
  assert.ok(explore.has("qa") && explore.has("test"));
  assert.equal(scoreTrigger("qa test this", "exploratory testing of the admin panel").score, 1);
  for (
    const p of [
      "poke around the app in the browser",
      "test the search page in chrome",
      "open it in firefox",
      "check it in safari",
      "try it in a browser",
    ]
  ) {
    assert.ok(preparePrompt(p).keys.has("site"), p);
  }
  assert.equal(scoreTrigger("test the site", "test the new search page in chrome").score, 1);
  assert.ok(!preparePrompt("add a browser field to the user agent table").keys.has("site"));
});

Deno.test("scoreTrigger() counts only whole phrases for a build request", () => {
  // Share matches of words used in passing: no route.
  for (
    const [trigger, p] of [
      ["debug this", "add a debug flag that prints the sql queries"],
      ["qa test this", "move the QA scripts into tools/qa"],
      ["check my diff", "show the failing checks count on the PR badge"],
      ["fix this bug", "rename the fixBug helper"],
    ]
  ) {
    assert.ok(preparePrompt(p).build, p);
    assert.equal(scoreTrigger(trigger, p).score, 0, p);
  }
  // A whole phrase still counts.
  assert.equal(scoreTrigger("write docs for this", "write docs for this module").score, 1);
  assert.equal(scoreTrigger("create a pr", "create a PR for these changes").score, 1);
  // Without the build verb the share counts as before.
  assert.equal(scoreTrigger("debug this", "the debug output is empty").score, 1);
});

Deno.test("preparePrompt() reads a build request past lead words only, as an order only", () => {
  assert.ok(preparePrompt("can you please add a flag").build);
  assert.ok(preparePrompt("I'd like you to write a script").build);
  assert.ok(preparePrompt("we need to set up CI").build);
  assert.ok(preparePrompt("add error handling to the upload").build);
  // A question or a statement is no order, even with a build verb in it.
  assert.ok(!preparePrompt("does this change look ok to you").build);
  // A how-to question asks for instructions ("define"), not for the build its verb names.
  assert.equal(preparePrompt("how do I add a flag").verb, "define");
  // A build verb followed by a state word is a noun stating something.
  for (const w of STATE_WORDS) assert.ok(!preparePrompt(`build ${w} on main`).build, w);
  assert.ok(fixIntent("install fails with EACCES on the CI runner"));
  assert.ok(!preparePrompt("make sure the pricing page works").build);
});

Deno.test("scoreTrigger(): a whole trigger phrase that opens any order counts, whatever the main verb", () => {
  // The first order explains; the second asks for the trigger's work in its words.
  assert.equal(
    scoreTrigger("fix this bug", "explain the parser. then please fix this bug").score,
    1,
  );
  assert.equal(scoreTrigger("fix a", "define. please fix a. ").score, 1);
  // Inside a build order, not opening one: still no route.
  assert.equal(scoreTrigger("fix this bug", "add a fix this bug button to the form").score, 0);
  assert.equal(scoreTrigger("code review", "summarize the code review comments").score, 0);
});

Deno.test("scoreTrigger(): a pre-merge pass is a pre-landing review (review: 'about to merge or land')", () => {
  assert.ok(
    scoreTrigger("pre-landing review", "pls do a pre-merge pass on the current branch").score >=
      0.66,
  );
  assert.ok(
    scoreTrigger("pre-landing review", "pre-merge sanity pass on feature/billing-v2 please")
      .score >= 0.66,
  );
  assert.equal(
    scoreTrigger("pre-landing review", "set up a pre-merge CI job that runs lint").score,
    0,
  );
});

Deno.test("the common words for why, broken, error, fix, review and test in five languages", () => {
  const keys = (text: string) => preparePrompt(text).keys;
  // German, French, Spanish, Portuguese, Italian.
  for (
    const [text, want] of [
      ["warum stürzt die app ab? bitte den fehler beheben", ["why", "bug", "fix"]],
      ["pourquoi le login ne marche pas ? corrige le bug", ["why", "bug", "fix"]],
      ["por qué falla el test? revisa el código", ["why", "bug", "test", "review"]],
      ["não funciona, corrija o erro", ["bug", "fix"]],
      ["perché non funziona? rivedi la mia pull request", ["why", "bug", "review", "pr"]],
    ] as const
  ) {
    for (const k of want) assert.ok(keys(text).has(k), `${text}: ${k}`);
  }
  // "revise" is English for edit: no review.
  assert.ok(!keys("revise the README intro").has("review"));
  assert.equal(scoreTrigger("why is this broken", "warum ist das kaputt?").score, 1);
});

Deno.test("preparePrompt(): a later build or explain verb does not cancel a fix or review already asked for", () => {
  const cases: [string, readonly string[], number][] = [
    ["can you do a code review of this branch and explain anything that looks off", REVIEW, 1],
    ["look over the changes on my branch before I land them, then list what to split", REVIEW, 1],
    [
      "our cron job stopped firing on sunday. compare the crontab and tell me why it broke",
      INVESTIGATE,
      1,
    ],
    [
      "getting ECONNRESET every few minutes, can you catch where it comes from and log it",
      INVESTIGATE,
      1,
    ],
    // A statement without a later cause asked for, and a mention in a statement, stay build requests.
    ["the export crashes on big files. write a regression test for it", INVESTIGATE, 0],
    ["our code review tool is gerrit. write a commit-msg hook that adds the jira id", REVIEW, 0],
    ["i have an interview about debugging practices, give me a list of questions", INVESTIGATE, 0],
  ];
  for (const [prompt, triggers, want] of cases) {
    const best = bestTrigger(triggers, prompt);
    assert.equal((best?.score ?? 0) >= 0.66 ? 1 : 0, want, prompt);
  }
});

Deno.test("scoreTrigger(): a share that leaves out the word naming the trigger's thing is held", () => {
  // The seed's candidate keeps its score: shown, and route.ts never routes a held share.
  const ios = scoreTrigger("fix this ios bug", "this test fails, fix it");
  assert.equal(ios.score.toFixed(2), "0.67");
  assert.equal(ios.held, true);
  assert.equal(scoreTrigger("find bugs on site", "find the bugs label in our settings").held, true);
  assert.equal(
    scoreTrigger("root cause analysis", "a cost analysis of the root account").held,
    true,
  );
  // A verb or a word that names no thing of its own may be left out.
  assert.equal(scoreTrigger("find bugs on site", "there are bugs on the site").held, undefined);
  assert.equal(scoreTrigger("root cause analysis", "find the root cause").held, undefined);
  // "pre-merge" is "pre-landing".
  const pre = scoreTrigger("pre-landing review", "pre-merge review of the auth changes please");
  assert.equal(pre.score, 1);
});

Deno.test("preparePrompt(): a local address in an aside names the product under test", () => {
  assert.ok(
    preparePrompt("find bugs on the web build (localhost:8000), menus first").keys.has("site"),
  );
  assert.ok(!preparePrompt("find bugs in the parser (see the tests)").keys.has("site"));
  assert.ok(preparePrompt("the dev server is up, test it").keys.has("site"));
});

Deno.test("tokenize(): a prefix that binds its hyphenated word makes one word; pre- and re- do not", () => {
  assert.deepEqual(tokenize("a non-regression suite"), ["a", "nonregression", "suite"]);
  assert.deepEqual(tokenize("the self-review list"), ["the", "selfreview", "list"]);
  assert.deepEqual(tokenize("pre-merge re-test multi-step"), [
    "pre",
    "merge",
    "re",
    "test",
    "multi",
    "step",
  ]);
  assert.ok(!preparePrompt("we need a non-regression suite for the parser").keys.has("bug"));
});

Deno.test("scoreTrigger(): under * the words put in for paths and URLs match no trigger", () => {
  const path = preparePrompt("the list in src/issues/list.ts is unsorted, check the issue");
  assert.ok(path.standIn.has(wordKey("file")));
  assert.equal(scoreTrigger("file an issue", path, { foreign: true }).score, 0);
  // An own trigger still reads them, and a word said as well is no stand-in.
  assert.equal(scoreTrigger("file an issue", path).score, 1);
  const site = preparePrompt("test the site at https://staging.acme.dev");
  assert.ok(!site.standIn.has("site"));
  assert.equal(scoreTrigger("test the site", site, { foreign: true }).score, 1);
  const url = preparePrompt("what changed at https://acme.dev/pricing? test it");
  assert.equal(scoreTrigger("test the site", url, { foreign: true }).score, 0);
  // A pull request's URL is a pull request.
  const pr = preparePrompt("https://github.com/acme/api/pull/412 land it");
  assert.equal(scoreTrigger("land the pr", pr, { foreign: true }).score, 1);
});

Deno.test("holdsPhrase(): a phrase broken by one extra word, or two common ones, still holds", () => {
  assert.ok(holdsPhrase(" open it in a real browser ", " in a browser ", 3));
  assert.ok(preparePrompt("open the page in a real browser and click around").keys.has("site"));
  assert.ok(holdsPhrase(" ok ship all of it now ", " ship it "));
  assert.ok(holdsPhrase(" make me a diagram of the flow ", " make a diagram "));
  // Two extra words that both say something, or a line between, break it.
  assert.ok(!holdsPhrase(" in a real chromium browser ", " in a browser ", 3));
  assert.ok(!holdsPhrase(" ship all\nof it ", " ship it "));
  // Two-word phrases of the concept table match only as written: "doesnt need work" is no bug.
  assert.ok(!preparePrompt("the parser doesnt need work").keys.has("bug"));
  // An order must open with the phrase.
  assert.ok(holdsPhrase(" fix this annoying bug now ", " fix this bug ", 2, true));
  assert.ok(!holdsPhrase(" then fix this bug ", " fix this bug ", 2, true));
});

Deno.test("the common words for why, broken, error, fix, review and test in Russian, Chinese, Japanese, Korean", () => {
  const keys = (text: string) => preparePrompt(text).keys;
  for (
    const [text, want] of [
      ["почему падает сборка? исправь ошибку", ["why", "bug", "fix"]],
      ["проверь мой PR", ["check", "pr"]],
      ["为什么登录一直报错？", ["why", "bug"]],
      ["帮我审查一下这个PR", ["review", "pr"]],
      ["なぜこのテストが失敗するの？", ["why", "test", "bug"]],
      ["왜 로그인이 안 되는지 확인해줘, 에러가 나", ["why", "bug"]],
    ] as const
  ) {
    for (const k of want) assert.ok(keys(text).has(k), `${text}: ${k}`);
  }
  // Writing a test asks for no skill in any language.
  assert.equal(scoreTrigger("why is this broken", "写一个单元测试给这个函数").score, 0);
  assert.equal(scoreTrigger("review this pr", "这个PR很好").score, 0.5);
});

Deno.test("a trigger written as a question counts only as its whole phrase", () => {
  const t = compileTrigger("are there others like this?");
  assert.equal(t.partial, false);
  // Two common words of it, in another sense, are no share of it.
  const p = "the landing page looks like every other bootstrap template, redesign it";
  assert.equal(scoreTrigger(t, preparePrompt(p)).score, 0);
  assert.equal(
    scoreTrigger(t, preparePrompt("found one sqli. are there others like this?")).score,
    1,
  );
  // The same words as a statement still share.
  assert.ok(scoreTrigger("others like this", preparePrompt(p)).score > 0);
});

Deno.test("in a build request, a pack trigger of two or more words counts where an order holds it", () => {
  const p = preparePrompt("draft an incident report for the team newsletter about the outage");
  assert.equal(p.build, true);
  // A pack skill's reviewed trigger names a thing the skill makes.
  assert.equal(scoreTrigger("incident report", p, { asked: true }).score, 1);
  // Not a skill's own triggers (the order does not open with the phrase) ...
  assert.equal(scoreTrigger("incident report", p).score, 0);
  // ... nor a one-word pack trigger ("add .docx and .xlsx to the gitignore" makes no document).
  const ignore = preparePrompt("add docx and xlsx files to the gitignore");
  assert.equal(scoreTrigger("docx", ignore, { asked: true }).score, 0);
  // Nor a phrase outside the orders.
  const told = preparePrompt("the incident report template is in docs. add a link to it in README");
  assert.equal(scoreTrigger("incident report", told, { asked: true }).score, 0);
});

Deno.test("postgres is postgresql, handover is handoff", () => {
  assert.equal(wordKey("postgres"), wordKey("postgresql"));
  assert.equal(wordKey("handover"), wordKey("handoff"));
});

Deno.test("a share may leave out a trigger's quantifier: a number says it", () => {
  const p = preparePrompt(
    "4 test files fail after the upgrade and they look unrelated. can you look into them in parallel",
  );
  const s = scoreTrigger("multiple unrelated failures", p, { asked: true });
  assert.equal(s.held, undefined);
  assert.ok(s.score >= 0.66, `${s.score}`);
});

Deno.test("round 12's synonyms: at the same time, work through, saying it is done, talking it through", () => {
  const asked = { asked: true };
  // "at the same time" is in parallel; "work through" a plan executes it.
  assert.equal(
    scoreTrigger("work concurrently", "3 suites fail, work on them at the same time", asked).score,
    1,
  );
  assert.equal(
    scoreTrigger("execute the plan", "the plan is in plan.md. work through it in order", asked)
      .score,
    1,
  );
  // To say or tell that work is done is to claim it; talking an idea through brainstorms it.
  assert.equal(
    scoreTrigger("claim it is done", "dont tell me its done until the suite passes", asked).score,
    1,
  );
  assert.equal(
    scoreTrigger(
      "brainstorm before writing code",
      "not sure what it should do yet. can we talk it through before any code gets written",
      asked,
    ).score >= 0.66,
    true,
  );
  assert.equal(
    scoreTrigger("work concurrently", "work on them one by one", asked).score < 0.66,
    true,
  );
});

Deno.test("a question a guide answers counts a pack trigger it names whole; 'show me' asks for an answer", () => {
  const p = "how do i turn on prompt caching for a long system prompt in the python sdk?";
  assert.equal(scoreTrigger("prompt caching", p, { asked: true }).score, 1);
  // Not a skill of no pack, whose trigger counts only as the question's own work.
  assert.equal(scoreTrigger("prompt caching", p).score, 0);
  assert.equal(preparePrompt("show me the output").build, false);
  assert.equal(preparePrompt("show a spinner while it loads").build, true);
});

Deno.test("an order with a verb no table knows, or the condition an order is given on, is asked for", () => {
  const p = preparePrompt(
    "plan.md has 6 tasks. implement them here, hand each task to a fresh subagent and check its work",
  );
  assert.ok(p.asked.has("subagent"));
  const v = preparePrompt(
    "before you tell me its done, actually run the tests and show me the output",
  );
  assert.ok(v.asked.has("claim"));
  // A past form reports; it orders nothing.
  assert.ok(!preparePrompt("found an SSRF in the avatar fetcher. fix the tests").asked.has("ssrf"));
});

Deno.test("a share that leaves out a quantifier (multiple, per) loses nothing for it", () => {
  const p = "hand each task to its own subagent and check its work";
  assert.equal(scoreTrigger("subagent per task", p, { asked: true }).score, 1);
  // Any other word left out still costs its share.
  assert.equal(scoreTrigger("subagent review task", p, { asked: true }).score < 1, true);
});

Deno.test("a pack trigger takes no malfunction from a question why that only describes behaviour", () => {
  const why = "why is this broken";
  const plain = "why does my useEffect run twice in dev?";
  // A pack skill's reviewed trigger: "twice" infers no bug in a question why.
  assert.equal(scoreTrigger(why, plain, { asked: true }).score, 0.5);
  // A symptom word or a pasted error still does.
  assert.equal(
    scoreTrigger(why, "why does the worker crash on startup?", { asked: true }).score,
    1,
  );
  assert.equal(
    scoreTrigger(why, 'why does `npm ci` fail with "npm ERR! can only install packages"?', {
      asked: true,
    }).score,
    1,
  );
  // A skill's own triggers (gstack's investigate) read the question as before.
  assert.equal(scoreTrigger(why, plain).score, 1);
});

Deno.test("a share of a pack trigger that leaves out its last word is held, verb or not", () => {
  const status = "whats the http status code for too many requests";
  assert.equal(scoreTrigger("request a code review", status, { asked: true }).held, true);
  // A skill's own triggers: a verb left out holds nothing ("pre-landing review" by "ready to land").
  assert.equal(scoreTrigger("request a code review", status).held, undefined);
  // A word other than the last, and a loose last word, are left out as before.
  const merge = scoreTrigger("review my work before merging", "review this before merging please", {
    asked: true,
  });
  assert.equal(merge.held, undefined);
  assert.equal(merge.score, 0.75);
  const cause = scoreTrigger("root cause analysis", "find the root cause of the outage", {
    asked: true,
  });
  assert.equal(cause.held, undefined);
});
