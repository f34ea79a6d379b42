import assert from "node:assert/strict";
import { formatUsage, summaryLine, usageHtml } from "./format.ts";
import type { UsageReport } from "./report.ts";
import { emptyCounts, type SkillRow } from "./usage.ts";

function row(skill: string, counts: Partial<SkillRow>): SkillRow {
  return { skill, ...emptyCounts(), followed_turns: {}, missed_items: [], hosts: {}, ...counts };
}

const REPORT: UsageReport = {
  sessions: 40,
  transcripts: 39,
  summary: { routed: 40, followed: 31, routed_sessions: 40, loaded: 50, met: 22, runs: 27 },
  skills: [
    row("investigate", {
      routed: 30,
      followed: 25,
      loaded: 40,
      met: 20,
      miss: 4,
      runs: 25,
      hosts: { claude: emptyCounts() },
      missed_items: [{ item: "debug-report", count: 3 }],
      followed_turns: { "0": 24, "1": 1 },
    }),
    row("<img src=x>", { routed: 10, followed: 6, loaded: 10, met: 2, runs: 2 }),
  ],
  unused: [{ skill: "retro", hosts: ["claude"] }],
  unread: [{ session: "s1", cause: "Transcript not found under a host's transcripts folder" }],
};

Deno.test("summaryLine: routed, followed with its share, contracts met of runs", () => {
  assert.equal(
    summaryLine(REPORT),
    "routed 40, followed 31 (78%), loaded 50, contracts met 22 of 27",
  );
});

Deno.test("formatUsage: one row per skill with bars, missed items, unused and unread", () => {
  const text = formatUsage(REPORT);
  const lines = text.split("\n");
  const inv = lines.filter((l) => l.startsWith("investigate "));
  assert.equal(inv.length, 1);
  assert.match(
    inv[0],
    /^investigate\s+30 █{8}\s+25 █{8}\s+40 █{8}\s+20 █{8}\s+4 █{8}\s+0\s+claude$/,
  );
  assert.ok(lines.some((l) => /^imgsrcx\s+10 █{3}\s/.test(l)), "names sanitised; bars scaled");
  assert.match(text, /^ {2}investigate: debug-report 3$/m);
  assert.match(text, /^ {2}investigate: 0: 24, 1: 1$/m);
  assert.match(text, /^Unused \(installed, never loaded or routed\): 1\n {2}retro$/m);
  assert.match(text, /^ {2}s1: Transcript not found/m);
});

Deno.test("usageHtml: one self-contained page, the table and the chart, every name escaped", () => {
  const html = usageHtml(REPORT);
  assert.match(html, /^<!DOCTYPE html>/);
  assert.match(html, /<table id="skills">/);
  assert.match(html, /<th scope="row">investigate<\/th><td>30<\/td><td>25<\/td><td>40<\/td>/);
  assert.match(html, /<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" role="img"/);
  assert.doesNotMatch(html, /<img|<script|<link|\ssrc=/i);
  assert.match(html, /default-src 'none'/);
});

Deno.test("formatUsage: an empty window says so", () => {
  const empty: UsageReport = {
    ...REPORT,
    skills: [],
    unused: [],
    unread: [],
    since: "2026-12-01T00:00:00.000Z",
  };
  assert.match(formatUsage(empty), /since 2026-12-01T00:00:00\.000Z[\s\S]*No skill was routed/);
});
