// What a session's Claude Code settings files hold of gobby's hooks, remembered per session,
// so that a ConfigChange can be judged by what it takes away. Claude Code applies a settings
// change to the running session unless a ConfigChange hook blocks it (design/claude-code-
// hooks.md §9); the file itself has already changed when the event arrives, so the "before"
// is what this module read earlier: on the session's first event since the daemon started,
// and after each change it let through.
import { join } from 'node:path';
import { viewHookSettings, type HookSettingsView } from '../hooks/hook-settings-view.js';
import { readRegularFile } from './read-regular-file.js';
import type { HookSettingsChange } from '../workflows/index.js';

/** Where managed (policy) settings live on Linux and macOS: a team may install gobby's hooks there. */
export const MANAGED_SETTINGS_FILES = ['/etc/claude-code/managed-settings.json', '/Library/Application Support/ClaudeCode/managed-settings.json'];

/** A settings file larger than this is not read (Claude Code's own are a few KB); it counts as holding no hooks. */
const MAX_SETTINGS_BYTES = 1024 * 1024;
/** Sessions remembered at most; the oldest is forgotten first (a session that never sent SessionEnd). */
const MAX_SESSIONS = 512;

export interface HookSettingsWatchOptions {
  /** The user's home, for `~/.claude/settings.json`. */
  readonly userHome: string;
  /** One of the daemon's hook URLs, to judge an `allowedHttpHookUrls` list; read when needed (the port is known once the daemon listens). */
  readonly hookUrl: () => string;
  readonly managedFiles?: readonly string[];
  /** Every event gobby installs a hook for (hooks/install.ts). */
  readonly expectedEvents: readonly string[];
}

export interface JudgedSettingsChange {
  readonly change: HookSettingsChange;
  /** Makes the settings as they are now this session's "before": call it when the change was let through. */
  accept(): void;
}

export function createHookSettingsWatch(options: HookSettingsWatchOptions) {
  const managedFiles = options.managedFiles ?? MANAGED_SETTINGS_FILES;
  /** Per session: gobby's handlers across its settings files (identity → label). */
  const before = new Map<string, ReadonlyMap<string, string>>();

  /** The files Claude Code reads for a session started in `cwd` (the project root too, when it differs). */
  function filesOf(cwd: string, projectRoot: string, changed?: string): string[] {
    const files = new Set([join(options.userHome, '.claude', 'settings.json'), ...managedFiles]);
    for (const dir of new Set([cwd, projectRoot])) {
      files.add(join(dir, '.claude', 'settings.json'));
      files.add(join(dir, '.claude', 'settings.local.json'));
    }
    if (changed !== undefined) files.add(changed);
    return [...files];
  }

  function view(file: string): HookSettingsView {
    return viewHookSettings(readSmallFile(file), options.hookUrl());
  }

  function handlersIn(views: readonly HookSettingsView[]): Map<string, string> {
    const all = new Map<string, string>();
    for (const one of views) for (const [identity, label] of one.gobbyHandlers) all.set(identity, label);
    return all;
  }

  function remember(sessionId: string, handlers: ReadonlyMap<string, string>): void {
    before.delete(sessionId);
    before.set(sessionId, handlers);
    if (before.size > MAX_SESSIONS) before.delete(before.keys().next().value!);
  }

  return {
    /** Reads the session's settings files once per session (per daemon life); later calls cost a map lookup. */
    observe(sessionId: string, cwd: string, projectRoot: string): void {
      if (before.has(sessionId)) return;
      remember(sessionId, handlersIn(filesOf(cwd, projectRoot).map(view)));
    },

    /**
     * The change to `file` judged against what the session held before. Without a "before" (the
     * daemon restarted and this is the session's first event) only a switch that turns every hook
     * off is judged: which of gobby's entries the file held is not known.
     */
    judge(sessionId: string, cwd: string, projectRoot: string, file: string): JudgedSettingsChange {
      const changed = view(file);
      const now = handlersIn(filesOf(cwd, projectRoot, file).map((path) => (path === file ? changed : view(path))));
      const held = before.get(sessionId);
      const removed = held ? [...new Set([...held].filter(([identity]) => !now.has(identity)).map(([, label]) => label))] : [];
      return {
        change: { file, removed, switchesHooksOff: changed.switchesHooksOff },
        accept: () => remember(sessionId, now),
      };
    },

    /**
     * gobby's events that the session's settings files have no hook for, when they hold some of
     * gobby's hooks (an install made by an older gobby); empty otherwise.
     */
    missingEvents(sessionId: string): string[] {
      const held = before.get(sessionId);
      if (!held || held.size === 0) return [];
      const installed = new Set([...held.keys()].map((identity) => identity.slice(0, identity.indexOf('\u0000'))));
      return options.expectedEvents.filter((event) => !installed.has(event));
    },

    forget(sessionId: string): void {
      before.delete(sessionId);
    },
  };
}

export type HookSettingsWatch = ReturnType<typeof createHookSettingsWatch>;

/** The file's text; null when it is missing, unreadable, not a regular file, or too large to be a settings file. */
function readSmallFile(path: string): string | null {
  const read = readRegularFile(path, MAX_SETTINGS_BYTES);
  return read.ok ? read.text : null;
}
