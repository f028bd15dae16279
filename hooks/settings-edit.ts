// Edits gobby's hook entries in the text of a Claude Code settings file without
// re-serialising it. jsonc-parser finds where each value sits; every edit is then one splice
// that touches only gobby's entries (jsonc-parser's own `modify` re-indents the neighbouring
// line, and leaves a stray character when it removes the last element of a one-line array).
// The user's indentation, key order, line endings and final newline stay as they were, what
// gobby adds is written in the file's own indentation, and removing it gives back the bytes
// that were there before.
import { findNodeAtLocation, getNodeValue, parse, parseTree, type FormattingOptions, type JSONPath, type Node, type ParseError } from 'jsonc-parser';

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
export function isGobbyHandler(handler: unknown): boolean {
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
  let current = text;
  const removeProperty = (path: JSONPath): void => {
    current = removeMember(current, path.slice(0, -1), path[path.length - 1]!);
  };
  const removeElement = (path: JSONPath, index: number): void => {
    current = removeMember(current, path, index);
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
 * Removes a property of an object or an element of an array, with the comma and line break
 * that an append after its neighbour added: the exact inverse of `appendMember`.
 */
function removeMember(text: string, containerPath: JSONPath, key: string | number): string {
  const container = nodeAt(text, containerPath);
  const children = container?.children ?? [];
  const index = typeof key === 'number' ? key : children.findIndex((property) => property.children?.[0]?.value === key);
  const node = children[index];
  if (!container || !node) throw new Error(`gobby: nothing to remove at ${JSON.stringify([...containerPath, key])}`);
  const previous = children[index - 1];
  const next = children[index + 1];
  let range: [number, number];
  // After the previous member: `,⏎  "x": …`. Before the next: `"x": …,⏎  `. Alone: `{}` remains.
  if (previous) range = [endOf(previous), endOf(node)];
  else if (next) range = [node.offset, next.offset];
  else range = [container.offset + 1, endOf(container) - 1];
  return text.slice(0, range[0]) + text.slice(range[1]);
}

/**
 * Appends `value` (under `key` for an object) at the end of the container at `containerPath`:
 * on a line of its own in the file's indentation, or compactly in a file written on one line.
 */
function appendMember(text: string, containerPath: JSONPath, value: unknown, key?: string): string {
  const container = nodeAt(text, containerPath);
  if (!container) throw new Error(`gobby: no container at ${JSON.stringify(containerPath)}`);
  const format = detectFormatting(text);
  const unit = format === undefined ? null : format.insertSpaces ? ' '.repeat(format.tabSize ?? 2) : '\t';
  const eol = format?.eol ?? '\n';
  const last = container.children?.at(-1);
  // The indentation of the new member: its last sibling's, when that starts its own line.
  let indent: string | null = null;
  if (unit !== null) {
    if (!last) indent = indentOfLine(text, container.offset) + unit;
    else if (/^[ \t]*$/.test(text.slice(text.lastIndexOf('\n', last.offset - 1) + 1, last.offset))) indent = indentOfLine(text, last.offset);
  }
  const json = serialize(value, unit, eol, indent);
  const member = `${key === undefined ? '' : `${JSON.stringify(key)}:${indent === null ? '' : ' '}`}${json}`;
  if (last) {
    const content = indent === null ? `,${member}` : `,${eol}${indent}${member}`;
    return text.slice(0, endOf(last)) + content + text.slice(endOf(last));
  }
  const inside = indent === null ? member : `${eol}${indent}${member}${eol}${indentOfLine(text, container.offset)}`;
  return text.slice(0, container.offset + 1) + inside + text.slice(endOf(container) - 1);
}

/** `value` as JSON laid out one level below `indent` (compact when the file is on one line). */
function serialize(value: unknown, unit: string | null, eol: string, indent: string | null): string {
  return indent === null || unit === null ? JSON.stringify(value) : JSON.stringify(value, null, unit).replaceAll('\n', eol + indent);
}

/** The leading whitespace of the line that holds `offset`. */
function indentOfLine(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

function endOf(node: Node): number {
  return node.offset + node.length;
}

function nodeAt(text: string, path: JSONPath): Node | undefined {
  const root = parseTree(text);
  if (!root) return undefined;
  return path.length === 0 ? root : findNodeAtLocation(root, path);
}

/**
 * Adds gobby's groups at the end of each event's list (creating the event, or the `hooks`
 * key, where missing). Call it on text that holds no gobby handlers: see `installGobbyHooksInText`.
 */
function appendGobbyHooksToText(text: string, gobbyHooks: GobbyHooks): string {
  const hooks = parseObject(text)['hooks'];
  if (hooks === undefined) return appendMember(text, [], gobbyHooks, 'hooks');
  let current = text;
  for (const [event, groups] of Object.entries(gobbyHooks)) {
    const existing = isPlainObject(hooks) ? hooks[event] : undefined;
    if (existing === undefined) current = appendMember(current, ['hooks'], groups, event);
    else for (const group of groups) current = appendMember(current, ['hooks', event], group);
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
  // Key order aside: removing and appending moves gobby's `hooks` after keys added since (the statusLine).
  if (text.trim() !== '' && canonicalJson(parseObject(next)) === canonicalJson(parseObject(text))) return { text, events };
  return { text: next, events };
}

/** JSON with every object's keys sorted, so that two values that differ only in key order compare equal. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) =>
    isPlainObject(member) ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : member,
  );
}

/**
 * Sets a top-level key of the settings text to `value`, or removes it when `value` is
 * undefined. A new key goes at the end, as hook entries do; an existing one is edited member
 * by member, so only what differs changes (a status line that gains a chained command keeps
 * its other keys, their layout and order), and setting the old value back gives back the
 * old bytes. Same value: the same text.
 */
export function setTopLevelKeyInText(text: string, key: string, value: unknown): string {
  const present = Object.hasOwn(parseObject(text), key);
  if (value === undefined) return present ? removeMember(text, [], key) : text;
  const source = text.trim() === '' ? `{}${NEW_FILE_FORMAT.eol}` : text;
  return present ? replaceValue(source, [key], value) : appendMember(source, [], value, key);
}

/** The value of a top-level key of the settings text (undefined when absent). */
export function readTopLevelKey(text: string, key: string): unknown {
  const settings = parseObject(text);
  return Object.hasOwn(settings, key) ? settings[key] : undefined;
}

/**
 * Replaces the value at `path` with `value`: an object in place of an object member by member
 * (removed, replaced, then added at the end), anything else as one splice of its text.
 */
function replaceValue(text: string, path: JSONPath, value: unknown): string {
  const node = nodeAt(text, path);
  if (!node) throw new Error(`gobby: no value at ${JSON.stringify(path)}`);
  const old: unknown = getNodeValue(node);
  if (JSON.stringify(old) === JSON.stringify(value)) return text;
  if (node.type === 'object' && isPlainObject(old) && isPlainObject(value)) {
    let current = text;
    for (const key of Object.keys(old)) if (value[key] === undefined) current = removeMember(current, path, key);
    for (const [key, member] of Object.entries(value)) {
      if (member === undefined) continue;
      current = Object.hasOwn(old, key) ? replaceValue(current, [...path, key], member) : appendMember(current, path, member, key);
    }
    return current;
  }
  const format = detectFormatting(text);
  const unit = format === undefined ? null : format.insertSpaces ? ' '.repeat(format.tabSize ?? 2) : '\t';
  const json = serialize(value, unit, format?.eol ?? '\n', indentOfLine(text, node.offset));
  return text.slice(0, node.offset) + json + text.slice(endOf(node));
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

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
