// What one Claude Code settings file contributes to the hooks that hold a session: gobby's
// hook entries in it, and whether it switches every hook off. The daemon compares this view of
// a session's settings files before and after a ConfigChange (daemon/hook-settings-watch.ts).
import { parse, type ParseError } from 'jsonc-parser';

import { isGobbyHandler, isPlainObject } from './settings-edit.js';
import { validateSettings } from './settings-schema.js';

export interface HookSettingsView {
  /**
   * One entry per gobby handler: its identity (event, matcher and the handler exactly as
   * written, so a changed matcher, URL or onFailure counts as a removal) mapped to what the
   * user reads (`PreToolUse`, `PreToolUse (matcher Read)`).
   */
  readonly gobbyHandlers: ReadonlyMap<string, string>;
  /** Why this file turns every hook off in the sessions that read it; undefined when it does not. */
  readonly switchesHooksOff?: string | undefined;
}

const NOTHING: HookSettingsView = { gobbyHandlers: new Map() };

/**
 * The view of a settings file's text (null: there is no file). A file Claude Code would not
 * load (bad JSON, a wrongly typed key: design/claude-code-hooks.md §1 fact 6) contributes no
 * hooks, so gobby's entries in it count as gone. `hookUrl` is one of the daemon's hook URLs,
 * to tell whether an `allowedHttpHookUrls` list still lets gobby's hooks through.
 */
export function viewHookSettings(text: string | null, hookUrl: string): HookSettingsView {
  if (text === null) return NOTHING;
  const errors: ParseError[] = [];
  const value: unknown = parse(text.replace(/^\uFEFF/, ''), errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true });
  if (errors.length > 0 || !isPlainObject(value) || !loadsWhole(value)) return NOTHING;
  return { gobbyHandlers: gobbyHandlersIn(value['hooks']), switchesHooksOff: switchOff(value, hookUrl) };
}

/**
 * Whether Claude Code loads the file rather than dropping it: a wrongly typed known key drops
 * the whole file, but a bad hook entry drops only that entry (§1 fact 6), so the entries are
 * not checked here (a changed gobby entry counts as removed anyway: its identity differs).
 */
function loadsWhole(settings: Record<string, unknown>): boolean {
  const { hooks, ...rest } = settings;
  return (hooks === undefined || isPlainObject(hooks)) && validateSettings(rest).ok;
}

function gobbyHandlersIn(hooks: unknown): Map<string, string> {
  const found = new Map<string, string>();
  if (!isPlainObject(hooks)) return found;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isPlainObject(group) || !Array.isArray(group['hooks'])) continue;
      const matcher = typeof group['matcher'] === 'string' ? group['matcher'] : '';
      for (const handler of group['hooks']) {
        if (!isGobbyHandler(handler)) continue;
        const label = matcher === '' || matcher === '*' ? event : `${event} (matcher ${matcher})`;
        found.set(`${event}\u0000${matcher}\u0000${JSON.stringify(handler)}`, label);
      }
    }
  }
  return found;
}

function switchOff(settings: Record<string, unknown>, hookUrl: string): string | undefined {
  if (settings['disableAllHooks'] === true) return 'it sets `disableAllHooks`, which turns every hook off';
  const allowed = settings['allowedHttpHookUrls'];
  // Claude Code merges these lists across files: a list that does not let gobby's URL through
  // refuses its http hooks, whatever the other files say.
  if (Array.isArray(allowed) && !allowed.some((pattern) => typeof pattern === 'string' && matchesUrlPattern(pattern, hookUrl))) {
    return "its `allowedHttpHookUrls` does not let gobby's hook URL through";
  }
  return undefined;
}

/** Claude Code's URL patterns: `*` stands for any run of characters, everything else is literal. */
function matchesUrlPattern(pattern: string, url: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === url;
  if (!url.startsWith(parts[0]!) || !url.endsWith(parts[parts.length - 1]!)) return false;
  let at = parts[0]!.length;
  const end = url.length - parts[parts.length - 1]!.length;
  for (const middle of parts.slice(1, -1)) {
    const found = url.indexOf(middle, at);
    if (found === -1 || found + middle.length > end) return false;
    at = found + middle.length;
  }
  return at <= end;
}
