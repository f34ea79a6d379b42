import assert from "node:assert/strict";
import { buildUsage, type RunFacts, type SessionFacts, skillKey, summarize } from "./usage.ts";

const T = Date.parse("2026-12-01T10:00:00.000Z");
const S = 1000;

Deno.test("skillKey drops a plugin prefix, a leading / or $, and case", () => {
  assert.equal(skillKey("gstack:Investigate"), "investigate");
  assert.equal(skillKey("/review"), "review");
  assert.equal(skillKey("$qa"), "qa");
});

Deno.test("usage: a model load after the route is followed, in the routed prompt's turn", () => {
  const sessions: SessionFacts[] = [{
    session: "a",
    host: "claude",
    routes: [{ skill: "investigate", time: T + 100 }],
    activity: {
      prompts: [T, T + 60 * S],
      loads: [{ name: "investigate", via: "skill_tool", turn: 0, time: T + 5 * S }],
    },
  }];
  const [row] = buildUsage(sessions, []);
  assert.equal(row.skill, "investigate");
  assert.equal(row.routed, 1);
  assert.equal(row.followed, 1);
  assert.deepEqual(row.followed_turns, { "0": 1 });
  assert.deepEqual(row.loaded_by, { user: 0, model: 1, after_route: 1 });
  assert.equal(row.hosts.claude.followed, 1);
});

Deno.test("usage: a load two turns after the route took 2 turns; one before it is not followed", () => {
  const later: SessionFacts = {
    session: "a",
    host: "claude",
    routes: [{ skill: "qa", time: T }],
    activity: {
      prompts: [T - 50, T + 60 * S, T + 120 * S],
      loads: [{ name: "qa", via: "skill_tool", turn: 2, time: T + 121 * S }],
    },
  };
  assert.deepEqual(buildUsage([later], [])[0].followed_turns, { "2": 1 });
  const before: SessionFacts = {
    session: "b",
    host: "claude",
    routes: [{ skill: "qa", time: T + 200 * S }],
    activity: { prompts: [T], loads: [{ name: "qa", via: "skill_tool", turn: 0, time: T + S }] },
  };
  const [row] = buildUsage([before], []);
  assert.equal(row.followed, 0);
  assert.equal(row.loaded, 1);
});

Deno.test("usage: the user's /name after a route is a load by the user, not a followed route", () => {
  const [row] = buildUsage([{
    session: "a",
    host: "copilot",
    routes: [{ skill: "review", time: T }],
    activity: { prompts: [T], loads: [{ name: "review", via: "command", turn: 0, time: T + S }] },
  }], []);
  assert.equal(row.followed, 0);
  assert.deepEqual(row.loaded_by, { user: 1, model: 0, after_route: 0 });
});

Deno.test("usage: without times, the load's turn against the routed prompt's decides; turns unknown without prompt times", () => {
  const untimed: SessionFacts = {
    session: "a",
    host: "claude",
    routes: [{ skill: "qa", time: T }],
    activity: {
      prompts: [T - 10, T + 60 * S],
      loads: [{ name: "qa", via: "read", turn: 1 }],
    },
  };
  assert.deepEqual(buildUsage([untimed], [])[0].followed_turns, { "1": 1 });
  const noTimes: SessionFacts = {
    session: "b",
    host: "claude",
    routes: [{ skill: "qa", time: T }],
    activity: { prompts: [undefined], loads: [{ name: "qa", via: "read", turn: 0 }] },
  };
  assert.equal(buildUsage([noTimes], [])[0].followed, 0, "no order known: not counted");
});

Deno.test("usage: contract runs by outcome per host, a fixed run as met_after_block, missed items most first", () => {
  const sessions: SessionFacts[] = [
    { session: "a", host: "claude", routes: [] },
    { session: "b", host: "codex", routes: [] },
  ];
  const runs: RunFacts[] = [
    { session: "a", skill: "investigate", outcome: "met", miss: false, items: [] },
    { session: "a", skill: "investigate", outcome: "fixed_after_block", miss: false, items: [] },
    { session: "b", skill: "investigate", outcome: "miss", miss: true, items: ["report", "rerun"] },
    { session: "b", skill: "investigate", outcome: "miss", miss: true, items: ["rerun"] },
    { session: "b", skill: "investigate", outcome: "met_waived", miss: true, items: ["rerun"] },
    { session: "c", skill: "investigate", outcome: "deferred", miss: false, items: [] },
  ];
  const [row] = buildUsage(sessions, runs);
  assert.equal(row.runs, 6);
  assert.deepEqual(
    [row.met, row.met_after_block, row.met_waived, row.miss, row.deferred, row.blocked],
    [1, 1, 1, 2, 1, 0],
  );
  assert.deepEqual(row.missed_items, [{ item: "rerun", count: 3 }, { item: "report", count: 1 }]);
  assert.equal(row.hosts.claude.met, 1);
  assert.equal(row.hosts.codex.miss, 2);
  assert.equal(row.hosts.unknown.deferred, 1);
});

Deno.test("usage: rows sorted by loads, then routes; the summary counts followed per routed session", () => {
  const sessions: SessionFacts[] = [
    {
      session: "a",
      host: "claude",
      routes: [{ skill: "qa", time: T }, { skill: "qa", time: T + S }],
      activity: {
        prompts: [T, T + S],
        loads: [
          { name: "review", via: "skill_tool", turn: 0, time: T - S },
          { name: "plugin:review", via: "read", turn: 1, time: T + 2 * S },
        ],
      },
    },
    {
      session: "b",
      host: "claude",
      routes: [],
      activity: { prompts: [T], loads: [{ name: "review", via: "command", turn: 0 }] },
    },
  ];
  const rows = buildUsage(sessions, []);
  assert.deepEqual(rows.map((r) => [r.skill, r.loaded, r.routed]), [["review", 2, 0], [
    "qa",
    0,
    2,
  ]]);
  const s = summarize(rows, sessions);
  assert.deepEqual(s, { routed: 2, followed: 0, routed_sessions: 1, loaded: 2, met: 0, runs: 0 });
});
