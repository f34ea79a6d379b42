/**
 * What every format's run builder shares: the run's parts as they are collected (loads,
 * messages, tool calls by id, task notices), the sequence they share, the read's counters, the
 * first selected load, and the run they make once every line is fed. A format's builder
 * (`RunBuilder` for Claude Code, `CopilotRunBuilder` for Copilot CLI) extends it with its records.
 *
 * @module
 */

import type {
  ReadStats,
  SkillLoad,
  SkillSelector,
  TaskNotification,
  ToolCall,
  TranscriptMessage,
  TranscriptRun,
} from "./model.ts";
import { emptyStats } from "./record.ts";

/** The parts of one run, collected from its lines fed one at a time in file order. */
export abstract class RunCollector {
  /** The read's counters (the reader fills in offsets and bytes). */
  readonly stats: ReadStats;
  /** User and assistant messages, in order. */
  readonly messages: TranscriptMessage[] = [];
  /** Tool calls, in order. */
  readonly toolCalls: ToolCall[] = [];
  /** Background-agent completion notices, in order. */
  readonly notifications: TaskNotification[] = [];
  /** Every load fed, in order. */
  readonly loads: SkillLoad[] = [];
  /** The first selected load: the run's start. */
  first: SkillLoad | undefined;
  /** The session's project directory, when the format's records give it. */
  cwd: string | undefined;
  /** The last sequence number given (loads, messages, calls, results and notices share it). */
  protected seq = 0;
  /** The tool calls by id, for their results. */
  protected readonly calls: Map<string, ToolCall> = new Map();

  /**
   * Creates a builder.
   *
   * @param selector Which loads start the run.
   * @param skillsDirs Installed skills directories (see `ReadRunOptions.skillsDirs`).
   * @param fileSize The size of the file (for the counters).
   */
  constructor(
    protected readonly selector: SkillSelector,
    protected readonly skillsDirs: readonly string[] | undefined,
    fileSize: number,
  ) {
    this.stats = emptyStats(fileSize);
  }

  /**
   * Feeds one line. With `stopAtNextRun`, a line that starts another run of the selected skill
   * ends this one (it is not consumed).
   *
   * @param line The line (without its newline).
   * @param offset The line's byte offset in the file.
   * @param stopAtNextRun Whether a new run of the selected skill ends this one.
   * @returns `stop` when the line starts the next run, else `ok`.
   */
  abstract feed(line: string, offset: number, stopAtNextRun: boolean): "ok" | "stop";

  /**
   * The run, once every line is fed.
   *
   * @returns The run, or undefined when no selected load was fed.
   */
  finish(): TranscriptRun | undefined {
    if (!this.first) return undefined;
    const run: TranscriptRun = {
      load: this.first,
      loads: this.loads,
      messages: this.messages,
      toolCalls: this.toolCalls,
      notifications: this.notifications,
      stats: this.stats,
    };
    if (this.cwd !== undefined) run.cwd = this.cwd;
    return run;
  }
}
