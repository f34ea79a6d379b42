import assert from "node:assert/strict";
import { readRequest, reportsBehaviour } from "./request.ts";
import { preparePrompt, scoreTrigger } from "./score.ts";

Deno.test("readRequest() cuts pasted logs, stack traces, URLs, paths and quotes out of the prose", () => {
  const v = readRequest(
    "getting this when i hit save, no clue\nTypeError: Cannot read properties of undefined\n" +
      "    at ProfileForm.handleSubmit (src/components/ProfileForm.tsx:88:31)\n" +
      'see https://ci.example.com/debug/42 and .claude/settings.json, it says "fix this bug"',
  );
  assert.ok(!/TypeError|handleSubmit|debug|claude|fix this bug/.test(v.prose), v.prose);
  assert.match(v.prose, /website/);
  assert.match(v.prose, /\bfile\b/);
  assert.match(v.evidence, /TypeError: Cannot read/);
  assert.match(readRequest("review https://github.com/a/b/pull/12 please").prose, /pull request/);
});

Deno.test("readRequest() finds the request clause and its main verb", () => {
  assert.equal(readRequest("this test fails, fix it").verb, "fix");
  assert.equal(readRequest("this test fails, fix it").request.trim(), "fix it");
  const explain = readRequest("look at the diff in PR #77 and explain what the cache does");
  assert.equal(explain.verb, "explain");
  assert.equal(explain.infer, false);
  const build = readRequest("The importer drops rows. Can you add a warning when it does?");
  assert.equal(build.verb, "add");
  assert.equal(build.build, true);
  // A bare report has no request clause: the whole prose is the request.
  const report = readRequest("the app crashes when I rotate the phone");
  assert.equal(report.verb, undefined);
  assert.equal(report.request, report.prose);
  assert.equal(report.infer, true);
  // Neutral verbs let the next request clause decide.
  assert.equal(readRequest("go through the diff and tell me what you think").verb, undefined);
  // A context clause is evidence.
  const ctx = readRequest("If you need more context, look at the PR description. Add a test.");
  assert.ok(!/description/.test(ctx.prose), ctx.prose);
  assert.equal(ctx.verb, "add");
});

Deno.test("reportsBehaviour() reads a symptom told without a symptom word, not the speaker's state", () => {
  for (const p of ["the email never arrives", "the modal won't close", "memory keeps growing"]) {
    assert.ok(reportsBehaviour(p.replace("'", "").split(" ")), p);
  }
  for (const p of ["i dont know how this works", "we dont have tests", "it doesnt support arm"]) {
    assert.ok(!reportsBehaviour(p.split(" ")), p);
  }
});

Deno.test("scoreTrigger(): words of pasted evidence never count as trigger words", () => {
  const p = "explain this stack trace to me\nError: fix this bug\n    at main (a.js:1:1)";
  assert.equal(scoreTrigger("fix this bug", p).score, 0);
  // A pasted error still reports a malfunction when the request asks for work.
  const fix = preparePrompt(
    "can you look into it?\nTypeError: x is undefined\n    at f (a.js:1:1)",
  );
  assert.ok(fix.keys.has("bug") && fix.keys.has("fix"));
});

Deno.test("preparePrompt(): lint, type and compile complaints are no bug report unless something broke", () => {
  for (
    const p of [
      "fix the lint errors in src/components",
      "there are 14 type errors after the upgrade, fix them",
      "tsc fails with error TS2322 in the store",
    ]
  ) {
    const x = preparePrompt(p);
    assert.ok(x.lint, p);
    assert.ok(!x.keys.has("bug"), p);
  }
  const broke = preparePrompt("since the eslint upgrade the dev server crashes on start");
  assert.equal(broke.lint, false);
  assert.ok(broke.keys.has("bug") && broke.keys.has("fix"));
});

Deno.test("scoreTrigger(): a share counts only when one matched word is in the request", () => {
  // "review" and "PR" are in a statement; the request only asks to fix lint errors.
  const p = "The PR review bot left comments on #12. Can you fix the lint errors it found?";
  assert.equal(scoreTrigger("review this pr", p).score, 0);
  assert.equal(scoreTrigger("fix this bug", p).score, 0.5);
});

Deno.test("scoreTrigger(): in a build request only a whole phrase holding the main verb counts", () => {
  assert.equal(scoreTrigger("debug this", "add a README section on how to debug this").score, 0);
  assert.equal(scoreTrigger("write docs", "write docs for this module").score, 1);
});

Deno.test("scoreTrigger(): a request for an answer counts only a whole phrase holding its verb", () => {
  const p = "can you summarize the review comments on my PR so I know what to change";
  assert.equal(readRequest(p).verb, "summarize");
  assert.equal(scoreTrigger("review this pr", p).score, 0);
  assert.equal(scoreTrigger("summarize this pr", "summarize this pr for me").score, 1);
});

Deno.test("preparePrompt(): error classes with an upper-case prefix and error codes are pasted errors", () => {
  for (
    const p of [
      "DOMException: The play() request was interrupted\nthis shows up when a track is skipped",
      "getting IOError on every upload",
      'the dev server says "EADDRINUSE: address already in use :::3000"',
    ]
  ) {
    const x = preparePrompt(p);
    assert.ok(x.inferred.has("bug") && x.inferred.has("fix"), p);
  }
});

Deno.test("readRequest() is total and bounded on any text (property)", async () => {
  const fc = (await import("fast-check")).default;
  fc.assert(
    fc.property(fc.string({ maxLength: 400 }), (text: string) => {
      const v = readRequest(text);
      // A replacement word is at most twice as long as what it replaces.
      assert.ok(v.prose.length <= 2 * text.length + 16);
      assert.equal(typeof v.infer, "boolean");
    }),
    { numRuns: 300 },
  );
});

Deno.test("readRequest() reads a symptom told in plain words in a statement or a question", () => {
  for (
    const p of [
      "emails go out twice to some customers",
      "the app got really slow after the merge",
      "the PDF export comes out blank for long invoices",
      "the dashboard takes 12 seconds to load",
      "docker compose up exits immediately with code 137",
      "the banner overlaps the menu on safari only",
      "sessions expire after 5 minutes instead of 24 hours",
      "why does the hook fire twice on mount?",
    ]
  ) assert.ok(readRequest(p).reports, p);
  for (
    const p of [
      "I'm stuck on how to structure the config loader",
      "the tests run twice as fast on bun, should we switch?",
      "stale-while-revalidate: how does it work in next.js?",
      "the dashboard is slow to build, can we vendor the npm packages?",
      "empty the cache before the deploy",
      // An order is no plain report: it asks for something else.
      "make the slow tests run nightly",
      // A decimal number is no blank result ("is 0").
      "why is 0.1 + 0.2 !== 0.3 in js",
    ]
  ) assert.ok(!readRequest(p).reports, p);
});

Deno.test("readRequest() reads a request to find a cause, not a question about a decision", () => {
  assert.ok(readRequest("can you figure out why the export has duplicate rows").cause);
  assert.ok(readRequest("track down where these 401s come from").cause);
  assert.ok(readRequest("look into what's causing the memory growth").cause);
  assert.ok(!readRequest("find out why we chose postgres and summarize it").cause);
  assert.ok(!readRequest("explain why we debounce the input").cause);
  assert.ok(!readRequest("find the config file for the linter").cause);
});

Deno.test("readRequest() reads a hands-on test of a product as QA, not a test of code", () => {
  for (
    const p of [
      "click through the staging app and find bugs, then fix them",
      "run through onboarding on the staging site and report problems",
      "check that the dashboard works at mobile widths",
      "play around with the new settings page",
    ]
  ) assert.ok(readRequest(p).handsOn, p);
  for (
    const p of [
      "test the parser with empty input",
      "run through the unit tests and list the slow ones",
      "check that the config has a port",
      "add an e2e test for the login page",
    ]
  ) assert.ok(!readRequest(p).handsOn, p);
  // A verb that is a noun before no object: "push notifications" is no order to push.
  assert.equal(readRequest("push notifications arrive twice").verb, undefined);
  assert.equal(readRequest("push the branch and open a PR").build, true);
});

Deno.test("readRequest(): an order with a verb no table knows turns the plain-symptom rule off", () => {
  for (
    const p of [
      "the homepage hero image is blank right now, put the new illustration there",
      "our dashboard loads 3x more data than needed, paginate the widgets query",
      "the docs site is out of date, regenerate it from the openapi spec",
    ]
  ) assert.ok(!readRequest(p).reports, p);
  // Prepositions, quantifiers and adverbs before an object are no order.
  for (
    const p of [
      "half our users get logged out every time they switch tabs",
      "after the deploy the checkout page shows 0 items",
      "since the migration the export comes out blank",
    ]
  ) assert.ok(readRequest(p).reports, p);
  // A question asks what should happen; a statement says it does not.
  assert.ok(!readRequest("is the receipt supposed to include the tax?").reports);
  assert.ok(readRequest("the receipt is supposed to include the tax but it doesnt").reports);
  // "only in" a place where it misbehaves, not a rule of the product.
  assert.ok(readRequest("the video stutters only on android phones").reports);
  assert.ok(!readRequest("users only in the EU need the cookie banner").reports);
});

Deno.test("readRequest(): a hands-on opener followed by other work is that work", () => {
  const v = readRequest("click through the figma prototype and write user stories for each screen");
  assert.equal(v.verb, "write");
  assert.equal(v.build, true);
  // Writing down what the test found is still the test.
  const qa = readRequest("dogfood the new checkout on the preview url and write down the issues");
  assert.equal(qa.handsOn, true);
  assert.equal(qa.build, false);
});

Deno.test("readRequest(): one or two quoted words are a mention, not evidence of a malfunction", () => {
  const p =
    'We use "bug", "regression" and "incident" labels in Jira inconsistently. Propose definitions';
  const view = readRequest(p);
  assert.ok(!view.prose.includes("regression"));
  assert.ok(!view.evidence.includes("regression"));
  assert.equal(preparePrompt(p).inferred.size, 0);
  // An error code or a longer quote is still pasted evidence.
  for (
    const q of [
      'prod logs are full of "ECONNRESET" since the move',
      'the app says "the service crashed unexpectedly" on launch',
    ]
  ) {
    assert.ok(preparePrompt(q).inferred.has("bug"), q);
  }
});

Deno.test("readRequest(): review comments are what a review said, not a review asked for", () => {
  const p =
    "review comments on my PR: 'extract this into a helper' and 'add a docstring'. please address them";
  assert.equal(scoreTrigger("review this pr", p).score, 0);
  assert.ok(!preparePrompt(p).keys.has("review"));
  // The verb still asks for a review.
  assert.equal(scoreTrigger("review this pr", "review my PR before I merge it").score, 1);
  assert.equal(scoreTrigger("review this pr", "review the comments I left in the PR").score, 1);
});

Deno.test("preparePrompt(): a pasted FATAL: or panic: line is a pasted error", () => {
  for (
    const q of [
      "FATAL: remaining connection slots are reserved, every afternoon in prod",
      "the worker dies with panic: assignment to entry in nil map",
    ]
  ) {
    assert.ok(preparePrompt(q).inferred.has("bug"), q);
  }
});

Deno.test("readRequest(): a team or tool reporting something is a subject, not an order", () => {
  for (const w of ["reported", "reports", "says", "said", "found", "noticed", "flagged"]) {
    assert.notEqual(readRequest(`QA ${w} the export drops rows`).verb, "qa", w);
  }
  const p = "QA reported that the CSV export drops the last row. can you find out why";
  assert.notEqual(readRequest(p).verb, "qa");
  assert.equal(readRequest(p).cause, true);
  assert.ok(!preparePrompt(p).requestKeys.has("qa"));
});

Deno.test("reportsBehaviour() reads something that stopped happening, not the speaker's choice", () => {
  assert.ok(reportsBehaviour("stripe webhooks stopped arriving on friday".split(" ")));
  assert.ok(reportsBehaviour("the sync has stopped running".split(" ")));
  assert.ok(!reportsBehaviour("we stopped using redux last year".split(" ")));
});

Deno.test("readRequest(): a numbered list of tasks is a build request only when every task is one", () => {
  const builds = readRequest("1) add the --since flag 2) update the docs 3) add a test for it");
  assert.equal(builds.verb, "add");
  assert.equal(builds.build, true);
  assert.equal(builds.orders.length, 3);
  const mixed = readRequest(
    "1) bump the version 2) figure out why the arm64 build segfaults on startup 3) update the changelog",
  );
  assert.equal(mixed.build, false);
  assert.equal(mixed.cause, true);
  assert.ok(preparePrompt(mixed.prose).inferred.has("debug"));
});

Deno.test("readRequest(): hands-on checks asked in other words are QA", () => {
  for (
    const p of [
      "make sure the new pricing page works on mobile and desktop",
      "quality check the checkout at http://127.0.0.1:8000/checkout: try weird inputs",
      "the signup flow is ready on http://localhost:3000, click through it and fix anything broken",
      "take the browser and try to break the invite modal, fix what you break",
      "browse the whole app and fix the broken bits",
      "does this work? i just finished the cart page, the app is running on :5173",
    ]
  ) {
    assert.ok(readRequest(p).handsOn, p);
  }
  for (
    const p of [
      "make sure the tests pass before you push",
      "does this function work with negative numbers?",
      "check that the README links work",
    ]
  ) {
    assert.ok(!readRequest(p).handsOn, p);
  }
});

Deno.test("readRequest(): asking to be given a list or ideas asks for an answer", () => {
  const p = "i have an interview about debugging practices, give me a list of good questions";
  assert.equal(readRequest(p).verb, "list");
  assert.equal(scoreTrigger("debug this", p).score, 0);
  assert.notEqual(readRequest("give me a hand with the failing test").verb, "list");
});

Deno.test("the words this stop added to the tables each do their part (one prompt each)", () => {
  // PHRASES: qa's own "ready for testing" and "test and fix"; general synonyms of trying out.
  for (
    const p of [
      "the invite modal is ready for testing",
      "test and fix the billing page",
      "kick the tires on the admin panel",
      "take the new wizard for a spin",
      "the cart is ready to test",
    ]
  ) {
    assert.equal(scoreTrigger("qa test this", p).score, 1, p);
  }
  // PHRASES: a question about what broke or what is happening asks why.
  for (
    const p of [
      "images 404 on prod now, what broke?",
      "what is happening with the sync job",
      "whats happening with the sync job",
      "what is going on with the sync job",
    ]
  ) {
    assert.ok(preparePrompt(p).keys.has("why"), p);
  }
  assert.ok(preparePrompt("images 404 on prod now, what broke?").keys.has("bug"));
  // REVIEW_ACTIONS: about to merge or land, a judgement asked for.
  for (
    const p of [
      "is my diff safe to land?",
      "about to merge these changes, anything off",
      "good to merge this branch?",
      "im about to hit merge on this branch",
      "about to land this branch, anything in the diff that will bite us",
      "here's my diff, what did i miss",
      "audit the changes in this pull request",
    ]
  ) {
    assert.ok(preparePrompt(p).inferred.has("review"), p);
  }
  // PLAIN_SYMPTOM_WORDS: things that vanish or disappear.
  for (
    const p of ["one person's edits just vanish", "the sidebar links disappear after a reload"]
  ) {
    assert.ok(readRequest(p).reports, p);
  }
  // HANDS_ON_OPENERS and UI_WORDS.
  for (
    const p of [
      "click every button on the settings page and fix what breaks",
      "try to break the invite modal",
      "walk through the signup wizard and fix what is off",
      "go through the menus and fix anything off",
      "hunt for problems on the marketing site and fix them",
      "use the app like a customer would and fix any bugs",
      "check it works on staging, fix small stuff yourself",
      "take it for a spin on the preview and fix what breaks",
      "click all the buttons and fix what breaks",
      "use the site like a new user and fix what breaks",
      "the admin panel is up, use it like an admin would and fix what breaks",
      "check everything works on the preview",
      "look for problems on the pricing page",
      "check for problems on the pricing page",
    ]
  ) {
    assert.ok(readRequest(p).handsOn, p);
  }
});

Deno.test("readRequest(): a `word:` label of a pasted line and its value are no order", () => {
  const log = readRequest("why does the worker keep restarting? log:\nWARN note: retrying job 881");
  assert.equal(log.verb, undefined);
  assert.equal(log.build, false);
  const ci = readRequest(
    "error from CI:\nstep: build\nmessage: Cannot find module\nwhy is this broken?",
  );
  assert.equal(ci.build, false);
  // On the prompt's first line a clause before a colon is still read: "fix this: the totals".
  assert.equal(readRequest("add a flag: --dry-run").verb, "add");
});

Deno.test("readRequest(): a later build or explain verb keeps what came before it as its lead", () => {
  const cron = readRequest(
    "our cron job stopped firing on sunday. compare the crontab with last week's and tell me why it broke",
  );
  assert.equal(cron.verb, "compare");
  assert.deepEqual(cron.lead, { asked: "", told: "our cron job stopped firing on sunday" });
  // Without a later order asking for a cause, statements are no lead.
  const test = readRequest("the export crashes on big files. write a regression test for it");
  assert.deepEqual(test.lead, { asked: "", told: "" });
  assert.equal(readRequest("write a regression test for the export").lead, undefined);
});

Deno.test("readRequest(): a report whose change is stated, or a question whether it is normal, infers nothing", () => {
  const swap = readRequest("the wrong logo is in the email header, swap logo-old.svg for logo.svg");
  assert.equal(swap.verb, "swap");
  assert.equal(swap.infer, false);
  const point = readRequest("the link to the old wiki is broken, point it at https://x.dev/wiki");
  assert.equal(point.verb, "point");
  assert.equal(point.infer, false);
  // "point me to" asks where, not for a change.
  assert.notEqual(readRequest("point me to where the wiki link is set").verb, "point");
  const normal = readRequest("is the debug info broken or is that normal with -O2 on?");
  assert.equal(normal.verb, "define");
  assert.equal(normal.infer, false);
  // Without the offer of normal behaviour the question may still report a fault.
  assert.notEqual(readRequest("is the debug info broken?").verb, "define");
});

Deno.test("readRequest(): a question for a number asks for an answer", () => {
  const v = readRequest("how many lines of typescript are in src/ not counting tests? quick count");
  assert.equal(v.verb, "define");
  assert.equal(v.infer, false);
});

Deno.test("statesEdit() finds an edit whose result the request states", async () => {
  const { statesEdit } = await import("./verbs.ts");
  for (
    const t of [
      "change the date format to YYYY-MM-DD in the export",
      "in the k8s yaml bump replicas from 2 to 3",
      "move the image assets from public/img to public/images and fix the imports",
      // A quoted result is cut out of the prose: the line ends at "to".
      "change the text to",
      "set the timeout to 30s",
      "the download button should say instead",
      "the heading should read",
      // What goes and from where; the very flag or key to add.
      "remove the xlsx option from the dropdown in file",
      "drop the legacy column from the users table",
      "add --max-warnings 0 to the lint script",
      "add secure: true to the cookie options",
      "copy them into file and overwrite the old ones",
      "pin the terraform aws provider to ~> 5.40 in file",
      "remove the commented-out blocks in file",
      "add a line to file saying we squash-merge pull requests",
      "upgrade eslint-plugin-react from 7.33.1 to 7.33.2",
      // A value's old and new form, though the new one is a verb.
      "lower the log line from info to debug",
      // Asked for, not planned.
      "could you change to in file",
    ]
  ) assert.equal(statesEdit(t), true, t);
  for (
    const t of [
      "update the parser to handle tabs",
      "set up a canary release with istio, 10% of traffic to v2",
      "apply a pre-set theme to the landing page",
      "migrate this project from pip to uv",
      "record our decision\nto keep grpc",
      "i should read the docs first",
      // A removal without its place, an addition of a thing to build.
      "remove the dead code",
      "add a slugify helper to file",
      "we can remove it from the list later",
      "set me up an isolated copy of the repo to work in",
      // A noun after its determiner.
      "need to send the weekly update to leadership",
    ]
  ) assert.equal(statesEdit(t), false, t);
});

Deno.test("readRequest() marks a question a guide answers, not a question of fact", () => {
  const how = readRequest(
    "have a raw memory dump. how do i find the injected process with volatility",
  );
  assert.equal(how.verb, "define");
  assert.equal(how.guide, true);
  assert.equal(readRequest("is the debug info broken or is that normal with -O2?").guide, true);
  assert.equal(readRequest("what does DW_AT_type mean?").guide, true);
  assert.equal(readRequest("whats a cleaner way to structure it").guide, true);
  assert.equal(readRequest("how many lines of typescript are in src?").guide, false);
  assert.equal(readRequest("does this repo have a LICENSE file?").guide, false);
  // An order to explain is no question.
  assert.equal(readRequest("explain the parser").guide, false);
});

Deno.test("a yes/no question how a tool behaves is one of fact; an order opening with do is not", async () => {
  const fact = readRequest("does cargo build --release strip debug symbols by default?");
  assert.equal(fact.verb, "define");
  assert.equal(fact.guide, false);
  // About the user's own code: no fact, and no answer verb.
  assert.notEqual(readRequest("does this comparison leak timing?").verb, "define");
  assert.notEqual(readRequest("do the tasks in plan.md here, one subagent each").verb, "define");
  // "does it work?" asks for a hands-on test.
  assert.notEqual(readRequest("does the signup page actually work?").verb, "define");
  // What a tool does in general, or the name of a flag: facts too; advice and the user's own
  // work are not.
  for (
    const q of [
      "what timezone does `date` use on a github actions runner?",
      "whats the flag to make deno test stop at the first failure",
      "which option for pytest shows local variables?",
      "who owns the grafana dashboards, are they in terraform? grep the repo",
      "what does the --no-verify flag on git commit do? someone keeps using it",
      "is the PDF in docs/assets the latest version of the diagram, or is the png newer?",
      // A flag named by itself, a place, a state.
      "what does --no-ff do on git merge",
      "where in this repo is the rate limit for the public API configured?",
      "what license is this repo under",
      "what is the plan column in subscriptions, our own enum or the stripe price id?",
      "when is the next release planned, check the milestone",
      "is the grafana dashboard json kept in this repo or does someone manage it somewhere else?",
      // The question mark ends the sentence, not the clause.
      "does kubectl rollout restart cause downtime if the deployment has 3 replicas and a probe?",
    ]
  ) {
    assert.equal(readRequest(q).verb, "define", q);
    assert.equal(readRequest(q).guide, false, q);
  }
  for (
    const q of [
      "got the culture index results. who looks burnt out?",
      "is the same mistake anywhere else in the codebase?",
      "is the new pricing page on localhost:8080 working? click around and fix anything off",
      "do a security-focused review of the diff in PR #88, what's the blast radius?",
      // A cause, not a place; a judgement about the user's work, not a state.
      "where does this 502 come from?",
      "emails never arrive. where are they disappearing?",
    ]
  ) assert.notEqual(readRequest(q).verb, "define", q);
  const { asksFact } = await import("./asks.ts");
  assert.equal(asksFact("what rank do i use for qlora".split(" "), true), false);
  assert.equal(asksFact("what tests does this module need".split(" "), true), false);
});

Deno.test("statesCorrection() reads a value's right and wrong form, in a report too", async () => {
  const { statesCorrection } = await import("./verbs.ts");
  assert.equal(statesCorrection("Chart.yaml version should be 1.4.2 not 1.4.1"), true);
  assert.equal(
    statesCorrection("off by one: offset should be (page - 1) * size, not page * size"),
    true,
  );
  assert.equal(statesCorrection("the company name is now Acme GmbH, not Acme Inc."), true);
  assert.equal(statesCorrection("the loop goes to < len - 1. should be < len. fix it"), true);
  assert.equal(statesCorrection("use formatInTimeZone there instead of format"), true);
  assert.equal(statesCorrection("set TZ=UTC in the test script in package.json"), true);
  assert.equal(statesCorrection("the banner still shows. clear code in file"), true);
  assert.equal(statesCorrection("take her off that week and put Marco there instead."), true);
  assert.equal(statesCorrection("expose the db on host port 5433 instead of 5432"), true);
  assert.equal(statesCorrection("we use bats instead of a homegrown runner, add tests"), false);
  assert.equal(statesCorrection("the total should be correct"), false);
  assert.equal(statesCorrection("it should be fast but it is not"), false);
  const v = readRequest(
    "paginate() has an off by one, the loop should be `i < total` not `i <= total`. fix it",
  );
  assert.equal(v.statedEdit, true);
});

Deno.test("statesEdit() skips a plan or a purpose: a subject, a modal or 'to' before the verb", async () => {
  const { statesEdit } = await import("./verbs.ts");
  assert.equal(statesEdit("with a seed i can change to get a new one"), false);
  assert.equal(statesEdit("a design doc proposing we move the jobs to a queue"), false);
  assert.equal(statesEdit("record our decision to move to grpc"), false);
  assert.equal(statesEdit("move the jobs to a queue"), true);
});

Deno.test("readRequest().question: a sentence worded as a question and no order; not advice", () => {
  for (
    const p of [
      "what's A4 in points? need it for the pdf page size constant",
      "Heads up. Could you name it after the report title instead?",
      "is it normal that pods stick around afterwards? do i have to clean them up myself",
    ]
  ) assert.equal(readRequest(p).question, true, p);
  for (
    const p of [
      "do a STRIDE threat model of our auth service",
      "spec is below. break it into small steps with which files change and what test covers each",
      "make a poster for the meetup, what colours do you think?",
      "qlora on llama 3 8b, what rank should i use?",
      "semgrep flags a sql injection here. is this actually exploitable or a false alarm",
    ]
  ) assert.equal(readRequest(p).question, false, p);
});

Deno.test("stated edits: values apart, a slip, a known cause, a swap, a move, a mark, a skip", async () => {
  const { statesCorrection, statesEdit } = await import("./verbs.ts");
  const corrections: [string, boolean][] = [
    ["the Team plan should show $12 per user per month instead of $10", true],
    ["expose postgres on 5433 on the host instead of 5432", true],
    ["my bad, I wrote rows instead of row inside the loop", true],
    ["the download should be named export-YYYY-MM-DD.csv instead of export.csv", true],
    ["TypeError at ProductList. I know why, items isn't loaded yet", true],
    ["we already know what's wrong: the cert expired", true],
    ["we moved to bats instead of a homegrown runner", false],
    ["I don't know why it fails, find out", false],
  ];
  for (const [t, want] of corrections) assert.equal(statesCorrection(t), want, t);
  const edits: [string, boolean][] = [
    ["swap those two columns in file", true],
    ["swap the first and last name fields", true],
    ["put the email column before the name column in the csv", true],
    ["mark it skipped for now with a TODO", true],
    ["mark code as deprecated", true],
    ["skip code for now with a TODO pointing at issue 412", true],
    // A thing added, a time, an open swap, a search, a skip that is no edit: no result given.
    ["put a table of contents after the title page", false],
    ["put the tests in before you refactor", false],
    ["swap the ORM for something faster", false],
    ["mark the spots where we leak memory", false],
    ["skip the flaky ones and find out why the rest fail", false],
  ];
  for (const [t, want] of edits) assert.equal(statesEdit(t), want, t);
});
