import assert from "node:assert/strict";
import {
  asksAdvice,
  asksExpected,
  asksFact,
  asksHowTo,
  asksMeaning,
  wordedAsQuestion,
} from "./asks.ts";
import { readRequest } from "./request.ts";
import { preparePrompt, scoreTrigger } from "./score.ts";

/** A question's words, lower case, with every character but a letter or a space dropped. */
const ask = (t: string) => t.toLowerCase().replace(/[^a-z ]/g, "").split(" ").filter(Boolean);

Deno.test("a question about what something means asks for an answer: no trigger word counts", () => {
  for (
    const q of [
      "what does QA stand for in our jira workflow vs UAT?",
      "what does this error mean in general",
      "what's the difference between a code review and a design review?",
      "how does the review bot work",
      "what's the meaning of flaky in our test reports?",
      "in one sentence, what is a pre-landing review?",
      "whats an ADR",
      "what is QA in software, is it the same thing as testing?",
      "whats the diff between a code review and a design review at most companies?",
      "what do people usually check in a code review?",
      "what does a code review checklist typically contain",
    ]
  ) {
    assert.ok(q.split(", ").some((clause) => asksMeaning(ask(clause))), q);
    assert.equal(readRequest(q).verb, "define", q);
    assert.equal(readRequest(q).infer, false, q);
  }
  assert.equal(
    scoreTrigger("qa test this", "what does QA stand for in our jira workflow vs UAT?").score,
    0,
  );
  for (
    const q of [
      "what is wrong with the login page",
      "why does the review bot fail",
      "how do I fix this bug",
      "what changed in this PR?",
      "whats in the diff for the billing module",
      "what is causing the timeout on checkout",
      "whats the error in the build log",
      "whats leaking",
      "what usually causes this crash",
      "what do we typically see in our logs before the worker dies",
      "what is failing on main",
      // What to do next: a choice, not a name.
      "whats next",
    ]
  ) {
    assert.ok(!asksMeaning(ask(q)), q);
    assert.notEqual(readRequest(q).verb, "define", q);
  }
});

Deno.test("putting things in order is a build request: a trigger in its statement does not count", () => {
  const p =
    "our code review guidelines are scattered across wiki pages, consolidate them into CONTRIBUTING.md";
  assert.equal(readRequest(p).verb, "consolidate");
  assert.equal(scoreTrigger("code review", p).score, 0);
});

Deno.test("filing a ticket is a build request, whatever the ticket is about", () => {
  for (
    const p of [
      "open a github issue for the flaky test in auth_test.ts so we dont forget about it",
      "file a ticket about the login crash",
      "can you log a jira for the broken export",
    ]
  ) {
    assert.equal(readRequest(p).verb, "create", p);
    assert.equal(scoreTrigger("fix this bug", p).score, 0, p);
  }
  // "open" before anything else is not a ticket: the hands-on opener stays.
  assert.notEqual(readRequest("open the app in a browser and click through signup").verb, "create");
});

Deno.test("a question about how to do something asks for instructions: no trigger word counts", () => {
  for (
    const q of [
      "how do I make claude code stop asking me for permission every time it runs npm test?",
      "how can we run only the failing tests in pytest?",
      "how to mock fetch in vitest?",
      "how should I test a react hook that uses timers?",
      "is there a way to make the QA suite skip the flaky crash tests?",
      "whats the best way to review a huge PR?",
      "any way to stop jest from hanging after the run?",
      "pip install fails, how am i supposed to set up a venv for this project",
    ]
  ) {
    assert.ok(q.split(", ").some((clause) => asksHowTo(ask(clause))), q);
    assert.equal(readRequest(q).verb, "define", q);
    assert.equal(preparePrompt(q).inferred.size, 0, q);
  }
  assert.equal(scoreTrigger("review this pr", "whats the best way to review a huge PR?").score, 0);
  for (
    const q of [
      "how do I fix this crash on startup",
      "how can we debug the memory leak in the worker",
      "how do I get this test to pass again, it broke after the upgrade",
      "how does the cache work",
      "how come the build is slow",
      "how is this not a bug",
      "why is there no way to log in",
    ]
  ) {
    assert.ok(!asksHowTo(ask(q)), q);
  }
  // Asking how to fix something is still a request to fix it.
  assert.equal(scoreTrigger("fix this bug", "how do I fix this bug").score, 1);
});

Deno.test("asksFact: a yes/no question whether something holds a file", () => {
  for (const q of ["does this repo have a LICENSE file", "do we have a config file for semgrep"]) {
    assert.ok(asksFact(ask(q)), q);
  }
  for (
    const q of [
      "does this work",
      "does the diff have any bugs",
      "is there a license file",
      "can you have a look at the file",
    ]
  ) assert.ok(!asksFact(ask(q)), q);
});

Deno.test("asksExpected() reads the choice offered first too; asksFact() what a thing holds", () => {
  const ws = (t: string) => t.split(" ");
  assert.equal(asksExpected(ws("is that expected or is my toolchain dropping debug info")), true);
  assert.equal(asksExpected(ws("is it broken or is that normal")), true);
  assert.equal(asksExpected(ws("is it the cache or the network")), false);
  assert.equal(asksFact(ws("does our design doc template have a non goals section"), true), true);
  // A fault a thing may hold asks for a review; without a question mark, no fact either.
  assert.equal(asksFact(ws("does this function have a race"), true), false);
  assert.equal(asksFact(ws("does our design doc template have a non goals section")), false);
});

Deno.test("asksFact: what the code's thing is, not the best way or the difference", () => {
  const ws = (t: string) => t.split(" ");
  assert.equal(asksFact(ws("what is the plan column in subscriptions")), true);
  assert.equal(asksFact(ws("what is the best way to structure the loader")), false);
  assert.equal(asksFact(ws("what is the difference between a team and an org")), false);
});

Deno.test("asksHowTo: what we need to do is a question of steps", () => {
  const ws = (t: string) => t.split(" ");
  assert.equal(asksHowTo(ws("what do we need to sort out before we open source it")), true);
  assert.equal(asksHowTo(ws("what do we need to fix")), false);
  assert.equal(asksHowTo(ws("what do you think of this")), false);
});

Deno.test("wordedAsQuestion() and asksAdvice(): a question's wording, and advice or a verdict asked", () => {
  const cases: [(ws: string[]) => boolean, boolean, string][] = [
    [wordedAsQuestion, true, "what's the max size of a single cache entry in github actions"],
    [wordedAsQuestion, true, "does the github actions free tier include macos runners"],
    [wordedAsQuestion, true, "do i have to clean them up myself"],
    [wordedAsQuestion, true, "could you name it after the report title instead"],
    [wordedAsQuestion, true, "how long does the artifact stay downloadable"],
    [wordedAsQuestion, false, "do a STRIDE threat model of the upload service"],
    [wordedAsQuestion, false, "make a poster"],
    [wordedAsQuestion, false, "the build is slow"],
    [asksAdvice, true, "what rank should i use"],
    [asksAdvice, true, "how should this be structured in gdscript"],
    [asksAdvice, true, "is this actually exploitable or a false alarm"],
    [asksAdvice, false, "is that a reasonable estimate"],
    [asksAdvice, false, "what does the migrate script run"],
  ];
  for (const [f, want, q] of cases) assert.equal(f(ask(q)), want, q);
});

Deno.test("asksFact(): whether a file exists is a fact, whatever it is about", () => {
  assert.equal(
    asksFact(
      ask("is there a file or anything in this repo that says how to report a vulnerability"),
      true,
    ),
    true,
  );
  assert.equal(asksFact(ask("is there a LICENSE file"), true), true);
  // Without a question mark it may be an aside before an order.
  assert.equal(asksFact(ask("is there a LICENSE file")), false);
  assert.equal(asksFact(ask("is there a race in this function"), true), false);
});

Deno.test("asksFact(): a question ending in 'again' asks for a fact the user once knew", () => {
  assert.equal(asksFact(ask("whats the error budget for the checkout SLO again")), true);
  assert.equal(asksFact(ask("why does it fail again")), false);
  assert.equal(asksFact(ask("how do i run it again")), false);
});
