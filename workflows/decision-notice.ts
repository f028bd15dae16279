// Several parts of gobby may have something to tell the user about one event (a phase
// change, a broken workflow file); Claude Code shows one systemMessage per hook answer, so
// the notices are joined, one per line. Pure.
import type { Decision } from './evaluate.js';
import { joinNotices } from './notices.js';

/** `decision` with `notice` added after any notice it has; no decision becomes an allow that carries it. */
export function addNotice(decision: Decision | null, notice: string, because: string): Decision {
  if (!decision) return { kind: 'allow', because, notice };
  return { ...decision, notice: joinNotices(decision.notice, notice) };
}
