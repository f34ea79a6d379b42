import assert from "node:assert/strict";
import { cutEvidence } from "./evidence.ts";

Deno.test("cutEvidence() ends a URL before the punctuation that follows it", () => {
  const { text, evidence } = cutEvidence(
    "the flow is on http://localhost:3000, click through it. see https://x.dev/a/b.",
  );
  assert.match(text, /website , click through it\./);
  assert.match(text, /website \.$/);
  assert.deepEqual(evidence, ["http://localhost:3000", "https://x.dev/a/b"]);
  assert.match(cutEvidence("review https://github.com/a/b/pull/12, please").text, /pull request ,/);
});

Deno.test("cutEvidence() cuts an aside in parentheses, not a call's parentheses", () => {
  const aside = cutEvidence(
    "click around the docs site (npm run dev, port 3000), fix broken links",
  );
  assert.ok(!/port/.test(aside.text), aside.text);
  assert.deepEqual(aside.evidence, ["(npm run dev, port 3000)"]);
  // A Go trace line or a call keeps its words.
  assert.match(cutEvidence("main.(*Server).handle(...)").text, /handle/);
  assert.match(cutEvidence("why does parse() return null").text, /parse\(\)/);
});

Deno.test("cutEvidence() drops one or two quoted plain words as a mention, keeps other quotes", () => {
  const { text, evidence } = cutEvidence('label it "bug" or "needs triage", then "TypeError: x"');
  assert.ok(!/bug|triage|TypeError/.test(text), text);
  assert.deepEqual(evidence, ['"TypeError: x"']);
  assert.deepEqual(cutEvidence('logs are full of "ECONNRESET"').evidence, ['"ECONNRESET"']);
});

Deno.test("cutEvidence() reads review comments, other reviews and QA places as what they name", () => {
  assert.equal(cutEvidence("address the review comments").text, "address the comments");
  assert.equal(
    cutEvidence("do a design review of the page").text,
    "do a design assess of the page",
  );
  assert.equal(cutEvidence("review my plan for billing").text, "assess my plan for billing");
  assert.equal(cutEvidence("set up a QA environment").text, "set up a environment");
  // A review of code and a QA request stay as they are.
  assert.equal(cutEvidence("review my PR").text, "review my PR");
  assert.equal(cutEvidence("review the changes").text, "review the changes");
  assert.equal(
    cutEvidence("review the docs changes in my PR").text,
    "review the docs changes in my PR",
  );
  assert.equal(cutEvidence("a security review of my PR").text, "a security review of my PR");
  assert.equal(cutEvidence("qa the signup page").text, "qa the signup page");
});

Deno.test("cutEvidence() cuts an inline SQL statement written in capitals, not prose", () => {
  const sql = "this takes 14s on prod: SELECT u.email, count(*) FROM events e JOIN users u " +
    "ON u.id = e.user_id WHERE e.created_at > now() GROUP BY 1 ORDER BY 2";
  const { text, evidence } = cutEvidence(`${sql}\nwhat index do i need`);
  assert.equal(text, "this takes 14s on prod:  code \nwhat index do i need");
  assert.equal(evidence.length, 1);
  assert.match(evidence[0], /^SELECT u\.email.*ORDER BY 2$/);
  const prose = "select the rows from the orders table where the status is void";
  assert.equal(cutEvidence(prose).text, prose);
});

Deno.test("cutEvidence() reads a snake_case name as code", () => {
  const { text, standIns } = cutEvidence("how do i fuzz parse_record and _physics_process");
  assert.equal(text, "how do i fuzz  code  and  code ");
  assert.deepEqual(standIns, ["code", "code"]);
  assert.equal(cutEvidence("a self-hosted well_known thing").text, "a self-hosted  code  thing");
});

Deno.test("cutEvidence() cuts a quotation in single quotes, not an apostrophe or a quoted word", () => {
  const { text } = cutEvidence(
    "got this on my PR: 'extract the parser into its own module', 'use a Map here'. thoughts?",
  );
  assert.ok(!text.includes("parser") && !text.includes("Map"), text);
  assert.ok(text.includes("got this on my PR"), text);
  for (const kept of ["don't touch the user's config, it's fine", "rename it to 'foo' please"]) {
    assert.equal(cutEvidence(kept).text, kept);
  }
  // A path ends before a sentence's full stop.
  assert.match(cutEvidence("icons are in ~/Downloads/icons-v2. Copy them").text, /file \. Copy/);
});

Deno.test("cutEvidence() reads debug as a log level where a log level is named", () => {
  assert.equal(
    cutEvidence("LOG_LEVEL=debug in .env.development only pls").text.includes("debug"),
    false,
  );
  assert.equal(
    cutEvidence("someone left the log level on DEBUG in values-prod.yaml, put it back to INFO")
      .text.includes("DEBUG"),
    false,
  );
  assert.equal(
    cutEvidence("das Log-Level von debug auf info stellen").text.includes("debug"),
    false,
  );
  assert.equal(cutEvidence("set the logger to debug level").text.includes("debug"), false);
  assert.equal(
    cutEvidence("DEBUG=true is still set in prod, turn it off").text.includes("DEBUG"),
    false,
  );
  // Debugging asked for stays.
  assert.equal(
    cutEvidence("debug this, the worker dies on start").text,
    "debug this, the worker dies on start",
  );
  assert.equal(
    cutEvidence("debug why the checkout test fails. the log level does not matter").text.startsWith(
      "debug why",
    ),
    true,
  );
});
