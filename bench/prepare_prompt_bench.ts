/**
 * Micro-benchmark of the routing hot path: {@link preparePrompt} (reading the request) and
 * scoring gstack-like triggers. Run with `deno bench --allow-read bench/prepare_prompt_bench.ts`.
 *
 * @module
 */

import { bestTrigger, compileTrigger, preparePrompt } from "../lib/routing/score.ts";

const PROMPTS = [
  "this test fails, fix it",
  "the checkout page shows a blank screen on safari after login, can you track down why",
  "Claude, please rename the `util` package to `common` and fix the imports",
  "go test ./pkg/queue -run TestRetry -count=20 fails about 1 in 5 times, looks like a race. help me find it",
  "Something is off with the caching layer – users see other users' carts sometimes. Started after PR #882 was merged. Can you track down the cause",
  "click through the staging app and find bugs, then fix them",
  "TypeError: Cannot read properties of undefined (reading 'id')\n    at render (src/app.tsx:14:7)\nthis happens on every reload",
  "add pagination to the /orders endpoint, 50 per page",
];
const TRIGGERS = [
  "debug this",
  "fix this bug",
  "why is this broken",
  "root cause analysis",
  "investigate this error",
  "review this pr",
  "code review",
  "check my diff",
  "pre-landing review",
  "qa test this",
  "find bugs on site",
  "test the site",
].map(compileTrigger);

Deno.bench("preparePrompt, 8 prompts", () => {
  for (const p of PROMPTS) preparePrompt(p);
});

Deno.bench("preparePrompt and 12 triggers, 8 prompts", () => {
  for (const p of PROMPTS) bestTrigger(TRIGGERS, preparePrompt(p));
});
