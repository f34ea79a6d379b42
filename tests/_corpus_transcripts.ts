/**
 * The real Claude Code transcripts of `../shared/corpus/transcripts`, for the opt-in corpus tests.
 *
 * @module
 */
import { join } from "node:path";

/** The corpus's transcripts folder. */
export const CORPUS_TRANSCRIPTS: string =
  new URL("../../shared/corpus/transcripts", import.meta.url).pathname;

/**
 * Whether the corpus folder is there.
 *
 * @returns `true` when it is a folder.
 */
export function corpusPresent(): boolean {
  try {
    return Deno.statSync(CORPUS_TRANSCRIPTS).isDirectory;
  } catch {
    return false;
  }
}

/**
 * Every `.jsonl` file under a folder, sorted.
 *
 * @param dir The folder.
 * @returns The files.
 */
export function jsonlFiles(dir: string = CORPUS_TRANSCRIPTS): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) out.push(...jsonlFiles(p));
    else if (e.isFile && e.name.endsWith(".jsonl")) out.push(p);
  }
  return out.sort();
}
