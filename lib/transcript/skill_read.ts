/**
 * A skill loaded by a shell read: on a host with no skill tool (Codex CLI), the model loads a
 * skill by reading `<skills root>/<name>/SKILL.md` with a shell command (`cat …/SKILL.md`), also
 * for a name that has no such file. {@link skillReadTarget} finds the name such a command reads,
 * so that the redirect can deny a read of an agent's name.
 *
 * @module
 */

/** The programs whose use on a SKILL.md is a read (a load of the skill). */
const READERS: ReadonlySet<string> = new Set([
  "cat",
  "head",
  "tail",
  "sed",
  "less",
  "more",
  "nl",
  "bat",
  "batcat",
  "awk",
  "view",
]);

/** A `<skills root>/<name>/SKILL.md` path in a command: the root folder ends in `skills`. */
const SKILL_MD_RE =
  /(?:^|[\s'"])((?:[^\s'";|&<>]*\/)?skills\/([A-Za-z0-9][A-Za-z0-9._:-]{0,255})\/SKILL\.md)(?=$|[\s'";|&)])/g;

/**
 * The skill name a shell command reads, when the command is a plain read (its program is `cat`,
 * `head`, `sed` and the like, after any `cd …&&`) of `<skills root>/<name>/SKILL.md`, writing
 * nothing (no `>`). One name only: a command that reads several skills gives none.
 *
 * @param command The shell command, as the host's PreToolUse payload gives it.
 * @returns The name, or `undefined` when the command is no read of one skill's SKILL.md.
 */
export function skillReadTarget(command: unknown): string | undefined {
  if (typeof command !== "string" || command.length > 4096) return undefined;
  if (!command.includes("SKILL.md") || command.includes(">")) return undefined;
  // Each simple command of a list must be a `cd` or a read.
  for (const part of command.split(/&&|\|\||;|\|/)) {
    const first = part.trim().split(/\s+/)[0] ?? "";
    const program = first.replace(/^.*\//, "");
    if (part.trim() === "" || program === "cd") continue;
    if (!READERS.has(program)) return undefined;
  }
  const names = new Set<string>();
  for (const m of command.matchAll(SKILL_MD_RE)) names.add(m[2]);
  return names.size === 1 ? [...names][0] : undefined;
}
