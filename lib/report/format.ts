/**
 * The forms of `skillgate report`: text (one row per skill with small inline bars, and a one-line
 * summary) and one self-contained HTML page (the same table and an inline SVG chart; no script, no
 * network, no external asset). Every name printed is sanitised first.
 *
 * @module
 */

import { sanitizeLine, sanitizeName } from "../base/sanitize.ts";
import type { UsageReport } from "./report.ts";
import type { SkillRow } from "./usage.ts";

/** The columns with bars, in order. */
const BAR_COLUMNS = ["routed", "followed", "loaded", "met", "miss"] as const;

/** A row's `met` column: met at the first stop or after a block. */
function metOf(r: SkillRow): number {
  return r.met + r.met_after_block;
}

function valueOf(r: SkillRow, col: typeof BAR_COLUMNS[number]): number {
  return col === "met" ? metOf(r) : r[col];
}

/** Runs neither met nor missed: waived, deferred, still blocked. */
function otherOf(r: SkillRow): number {
  return r.met_waived + r.deferred + r.blocked;
}

function pct(n: number, of: number): string {
  return of === 0 ? "-" : `${Math.round((n / of) * 100)}%`;
}

/**
 * The one-line summary: `routed 40, followed 31 (78%), contracts met 22 of 27`.
 *
 * @param report The report.
 * @returns The line.
 */
export function summaryLine(report: UsageReport): string {
  const s = report.summary;
  return `routed ${s.routed}, followed ${s.followed} (${pct(s.followed, s.routed_sessions)}), ` +
    `loaded ${s.loaded}, contracts met ${s.met} of ${s.runs}`;
}

/** A bar of at most `width` blocks for `n` of `max` (one block at least for any `n` > 0). */
function bar(n: number, max: number, width = 8): string {
  if (n <= 0 || max <= 0) return "";
  return "█".repeat(Math.max(1, Math.round((n / max) * width)));
}

function windowText(report: UsageReport): string {
  return report.since ? `since ${report.since}` : "all time";
}

/**
 * The report as text.
 *
 * @param report The report.
 * @returns The lines.
 */
export function formatUsage(report: UsageReport): string {
  const lines = [
    `skillgate report, ${windowText(report)}${report.host ? `, host ${report.host}` : ""}: ` +
    `${report.sessions} session(s), ${report.transcripts} transcript(s) read`,
    summaryLine(report),
  ];
  const rows = report.skills;
  if (rows.length > 0) {
    const names = rows.map((r) => sanitizeName(r.skill));
    const w = Math.max(5, ...names.map((n) => n.length));
    const max = Object.fromEntries(
      BAR_COLUMNS.map((c) => [c, Math.max(0, ...rows.map((r) => valueOf(r, c)))]),
    );
    const cell = (c: string) => c.padEnd(13);
    lines.push("", `${"skill".padEnd(w)}  ${BAR_COLUMNS.map(cell).join("")}other  hosts`);
    rows.forEach((r, i) => {
      const cells = BAR_COLUMNS.map((c) => {
        const v = valueOf(r, c);
        return cell(`${String(v).padStart(4)} ${bar(v, max[c])}`);
      });
      const hosts = Object.keys(r.hosts).map((h) => sanitizeName(h)).join(",");
      lines.push(
        `${names[i].padEnd(w)}  ${cells.join("")}${String(otherOf(r)).padStart(5)}  ${hosts}`,
      );
    });
    const missed = rows.filter((r) => r.missed_items.length > 0);
    if (missed.length > 0) {
      lines.push("", "Items missed most:");
      for (const r of missed) {
        const items = r.missed_items.slice(0, 5).map((m) => `${sanitizeName(m.item)} ${m.count}`);
        lines.push(`  ${sanitizeName(r.skill)}: ${items.join(", ")}`);
      }
    }
    const turns = rows.filter((r) => r.followed > 0);
    if (turns.length > 0) {
      lines.push("", "Followed after (turns: sessions):");
      for (const r of turns) {
        const t = Object.entries(r.followed_turns).map(([k, n]) => `${k}: ${n}`).join(", ");
        lines.push(`  ${sanitizeName(r.skill)}: ${t}`);
      }
    }
  } else {
    lines.push("", "No skill was routed, loaded or checked in this window.");
  }
  if (report.unused.length > 0) {
    lines.push(
      "",
      `Unused (installed, never loaded or routed): ${report.unused.length}`,
      ...wrap(report.unused.map((u) => sanitizeName(u.skill))),
    );
  }
  if (report.unread.length > 0) {
    lines.push("", `Could not read (${report.unread.length}):`);
    for (const u of report.unread.slice(0, 20)) {
      const what = [u.session, u.path].filter((x) => x !== undefined).join(" ");
      lines.push(`  ${sanitizeLine(what, 300)}: ${sanitizeLine(u.cause, 200)}`);
    }
    if (report.unread.length > 20) lines.push(`  … and ${report.unread.length - 20} more`);
  }
  return lines.join("\n");
}

/** Names joined into lines of at most 100 characters, indented. */
function wrap(names: readonly string[]): string[] {
  const out: string[] = [];
  let line = " ";
  for (const n of names) {
    if (line.length + n.length + 1 > 100 && line.trim() !== "") {
      out.push(line);
      line = " ";
    }
    line += ` ${n}`;
  }
  if (line.trim() !== "") out.push(line);
  return out;
}

/** Text made safe inside HTML. */
function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const COLORS: Readonly<Record<typeof BAR_COLUMNS[number], string>> = {
  routed: "#6c8ebf",
  followed: "#82b366",
  loaded: "#d6b656",
  met: "#2e7d32",
  miss: "#b85450",
};

/** The inline SVG chart: per skill, one thin bar per column (the 20 most used skills). */
function chart(rows: readonly SkillRow[]): string {
  const shown = rows.slice(0, 20);
  const max = Math.max(1, ...shown.flatMap((r) => BAR_COLUMNS.map((c) => valueOf(r, c))));
  const labelW = 180;
  const barW = 420;
  const rowH = BAR_COLUMNS.length * 7 + 10;
  const legendH = 24;
  const h = legendH + shown.length * rowH;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Skill funnel" ` +
    `width="${labelW + barW + 60}" height="${h}" font-family="sans-serif" font-size="12">`,
  ];
  BAR_COLUMNS.forEach((c, i) => {
    parts.push(
      `<rect x="${labelW + i * 85}" y="4" width="10" height="10" fill="${COLORS[c]}"/>` +
        `<text x="${labelW + i * 85 + 14}" y="13">${c}</text>`,
    );
  });
  shown.forEach((r, k) => {
    const y = legendH + k * rowH;
    parts.push(`<text x="0" y="${y + rowH / 2}">${esc(sanitizeName(r.skill))}</text>`);
    BAR_COLUMNS.forEach((c, i) => {
      const v = valueOf(r, c);
      const w = Math.round((v / max) * barW);
      parts.push(
        `<rect x="${labelW}" y="${y + i * 7}" width="${w}" height="6" fill="${COLORS[c]}">` +
          `<title>${c} ${v}</title></rect>`,
      );
      if (v > 0) {
        parts.push(`<text x="${labelW + w + 4}" y="${y + i * 7 + 6}" font-size="8">${v}</text>`);
      }
    });
  });
  parts.push("</svg>");
  return parts.join("\n");
}

/**
 * The report as one self-contained HTML page: the summary, the chart (inline SVG) and the table.
 *
 * @param report The report.
 * @returns The page.
 */
export function usageHtml(report: UsageReport): string {
  const head = ["skill", ...BAR_COLUMNS, "of which after a block", "waived", "deferred", "hosts"];
  const body = report.skills.map((r) =>
    `<tr><th scope="row">${esc(sanitizeName(r.skill))}</th>` +
    BAR_COLUMNS.map((c) => `<td>${valueOf(r, c)}</td>`).join("") +
    `<td>${r.met_after_block}</td><td>${r.met_waived}</td><td>${r.deferred}</td>` +
    `<td>${esc(Object.keys(r.hosts).map((h) => sanitizeName(h)).join(", "))}</td></tr>`
  );
  const unused = report.unused.map((u) => esc(sanitizeName(u.skill))).join(", ");
  return [
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8">',
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
    "<title>skillgate report</title>",
    "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}" +
    "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}th[scope=row]{text-align:left}" +
    "</style></head><body>",
    `<h1>skillgate report</h1><p>${esc(windowText(report))}: ${report.sessions} session(s), ` +
    `${report.transcripts} transcript(s) read</p>`,
    `<p id="summary">${esc(summaryLine(report))}</p>`,
    chart(report.skills),
    `<table id="skills"><thead><tr>${head.map((h) => `<th>${h}</th>`).join("")}</tr></thead>`,
    `<tbody>${body.join("\n")}</tbody></table>`,
    unused ? `<p>Unused (installed, never loaded or routed): ${unused}</p>` : "",
    report.unread.length > 0 ? `<p>Could not read: ${report.unread.length}</p>` : "",
    "</body></html>",
    "",
  ].join("\n");
}
