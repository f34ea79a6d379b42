/**
 * skillgate: Claude Code and Copilot CLI hooks that make a model use skills and agents as their
 * authors meant.
 *
 * @module
 */
export {};
