// Edits gobby's hook entries in the text of a Claude Code settings file without
// re-serialising it: jsonc-parser's `modify` returns edits for just the changed part, so the
// user's indentation, key order, line endings and final newline stay as they were, and
// removing what an install added gives back the bytes that were there before.
import { applyEdits, findNodeAtLocation, modify, parse, parseTree, type FormattingOptions, type JSONPath, type ParseError } from 'jsonc-parser';

import type { MatcherGroup } from './settings-schema.js';

/** gobby's hook entries, keyed by Claude Code event name. */
export type GobbyHooks = Record<string, MatcherGroup[]>;
type JsonObject = Record<string, unknown>;

/** Header on every gobby http handler; it is how uninstall recognises ours. */
export const GOBBY_HOOK_HEADER = 'X-Gobby-Hook';
/** Trailing shell comment on every gobby command handler, for the same reason. */
export const GOBBY_COMMAND_MARKER = ' # gobby-hook';

/** A file gobby creates: two-space indentation and a final newline, as `JSON.stringify(…, null, 2)` writes. */
const NEW_FILE_FORMAT: FormattingOptions = { insertSpaces: true, tabSize: 2, eol: '\n' };

/**
 * The indentation and line ending a file already uses, so that what gobby adds looks like
 * the rest; undefined for a file written on one line, where gobby's entries go in compact
 * too (formatting them would re-indent the user's whole line).
 */
export function detectFormatting(text: string): FormattingOptions | undefined {
  const content = text.trim();
  if (!content.includes('\n') && content !== '{}' && content !== '') return undefined;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  // The first indented line holds a top-level key: its indentation is one level.
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  if (indent === undefined) return { ...NEW_FILE_FORMAT, eol };
  if (indent.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent.length, eol };
}

/** True for a handler gobby wrote: an http handler with our header or a command with our marker. */
function isGobbyHandler(handler: unknown): boolean {
  if (!isPlainObject(handler)) return false;
  if (handler['type'] === 'http') {
    const headers = handler['headers'];
    return isPlainObject(headers) && Object.keys(headers).some((k) => k.toLowerCase() === GOBBY_HOOK_HEADER.toLowerCase());
  }
  if (handler['type'] === 'command') {
    const command = handler['command'];
    return typeof command === 'string' && command.trimEnd().endsWith(GOBBY_COMMAND_MARKER);
  }
  return false;
}

export interface TextEditResult {
  readonly text: string;
  /** Events whose entries were added (install) or removed (uninstall). */
  readonly events: string[];
}

/**
 * Removes exactly gobby's handlers from settings text, then the groups, events and `hooks`
 * key that this left empty. A group the user shares with a gobby handler keeps the user's
 * handlers; an event list the user left empty is theirs to keep.
 */
export function removeGobbyHooksFromText(text: string): TextEditResult {
  const format = detectFormatting(text);
  let current = text;
  const removeProperty = (path: JSONPath): void => {
    current = applyEdits(current, modify(current, path, undefined, format ? { formattingOptions: format } : {}));
  };
  const removeElement = (path: JSONPath, index: number): void => {
    current = removeArrayElement(current, path, index);
  };
  const hooks = parseObject(current)['hooks'];
  if (!isPlainObject(hooks)) return { text, events: [] };
  const events: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const ours = groups.map((group) => {
      const handlers: unknown = isPlainObject(group) ? group['hooks'] : undefined;
      return Array.isArray(handlers) ? handlers.map(isGobbyHandler) : [];
    });
    if (!ours.some((flags) => flags.includes(true))) continue;
    events.push(event);
    const emptied = (flags: boolean[]) => flags.length > 0 && flags.every(Boolean);
    if (ours.every(emptied)) {
      removeProperty(['hooks', event]);
      continue;
    }
    // Back to front, so the indexes still to visit do not move.
    for (let g = groups.length - 1; g >= 0; g--) {
      const flags = ours[g] ?? [];
      if (emptied(flags)) removeElement(['hooks', event], g);
      else for (let h = flags.length - 1; h >= 0; h--) if (flags[h]) removeElement(['hooks', event, g, 'hooks'], h);
    }
  }
  if (events.length === 0) return { text, events };
  const after = parseObject(current)['hooks'];
  if (isPlainObject(after) && Object.keys(after).length === 0) removeProperty(['hooks']);
  return { text: current, events };
}

/**
 * Removes one element of a non-empty array, with the comma and space that an insertion after
 * it added: the exact inverse of appending. (jsonc-parser 3.3.1 leaves a stray character
 * behind when it removes the last element of an array written on one line.)
 */
function removeArrayElement(text: string, arrayPath: JSONPath, index: number): string {
  const array = findNodeAtLocation(parseTree(text) ?? { type: 'null', offset: 0, length: 0 }, arrayPath);
  const children = array?.children ?? [];
  const node = children[index];
  if (!array || array.type !== 'array' || !node || children.length < 2) throw new Error(`gobby: cannot remove ${JSON.stringify([...arrayPath, index])}`);
  const previous = children[index - 1];
  const next = children[index + 1];
  // The last element goes with the comma before it; any other with the comma after it.
  const [start, end] = next === undefined && previous ? [previous.offset + previous.length, node.offset + node.length] : [node.offset, next!.offset];
  return text.slice(0, start) + text.slice(end);
}

/**
 * Adds gobby's groups at the end of each event's list (creating the event, or the `hooks`
 * key, where missing). Call it on text that holds no gobby handlers: see `installGobbyHooksInText`.
 */
function appendGobbyHooksToText(text: string, gobbyHooks: GobbyHooks): string {
  const format = detectFormatting(text);
  let current = text;
  const edit = (path: JSONPath, value: unknown, isArrayInsertion = false): void => {
    current = applyEdits(current, modify(current, path, value, format ? { formattingOptions: format, isArrayInsertion } : { isArrayInsertion }));
  };
  const hooks = parseObject(current)['hooks'];
  if (hooks === undefined) {
    edit(['hooks'], gobbyHooks);
    return current;
  }
  for (const [event, groups] of Object.entries(gobbyHooks)) {
    const existing = isPlainObject(hooks) ? hooks[event] : undefined;
    if (existing === undefined) {
      edit(['hooks', event], groups);
      continue;
    }
    const length = Array.isArray(existing) ? existing.length : 0;
    groups.forEach((group, i) => edit(['hooks', event, length + i], group, true));
  }
  return current;
}

/**
 * Puts exactly `gobbyHooks` in the settings text: an earlier install's entries (another
 * port, another mode) are replaced, not duplicated. When the result holds the same settings
 * as `text`, `text` comes back unchanged, so installing twice changes nothing.
 */
export function installGobbyHooksInText(text: string, gobbyHooks: GobbyHooks): TextEditResult {
  const events = Object.keys(gobbyHooks);
  const source = text.trim() === '' ? `{}${NEW_FILE_FORMAT.eol}` : text;
  const next = appendGobbyHooksToText(removeGobbyHooksFromText(source).text, gobbyHooks);
  if (text.trim() !== '' && JSON.stringify(parseObject(next)) === JSON.stringify(parseObject(text))) return { text, events };
  return { text: next, events };
}

/** The JSON syntax errors in `text`, comments and trailing commas included (Claude Code rejects both). */
export function findJsonSyntaxErrors(text: string): ParseError[] {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true });
  return errors;
}

/** The text parsed as an object; callers check the text first (`findJsonSyntaxErrors`). */
function parseObject(text: string): JsonObject {
  const value: unknown = parse(text, [], { allowEmptyContent: true });
  return isPlainObject(value) ? value : {};
}

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
