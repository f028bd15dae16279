// The audit log's record of what the engine did besides deciding: phase changes, approval
// asked, approval declined, a stop gate that let a turn end unfinished. Durable: the row
// is written exactly once, crash or not.
import type { Effect } from '../../workflows/index.js';
import type { AuditEntry } from '../store/audit-repository.js';
import type { Store } from '../store/store.js';
import type { EffectEnvelope, EffectHandler } from './effect-runner.js';

export function createAuditHandler(store: Store): EffectHandler {
  return {
    name: 'audit',
    durable: true,
    accepts: () => true,
    run(envelope) {
      store.audit.append(auditEntryFor(envelope));
    },
  };
}

function auditEntryFor({ effect, sessionId, workflow, at, actor }: EffectEnvelope): AuditEntry {
  return {
    at,
    sessionId: sessionId ?? '',
    // A tamper attempt's row sits beside the tool call's own deny row, under a name
    // `gobby workflow audit --tamper` finds; `none` keeps the deny from counting twice.
    event: effect.type === 'tamper_attempt' ? `tamper:${effect.kind}` : effect.type,
    toolName: effect.type === 'tamper_attempt' ? effect.tool : null,
    decision: 'none',
    workflow,
    phase: effect.type === 'phase_changed' ? effect.to : effect.type === 'tamper_attempt' ? null : effect.phase,
    because: describeEffect(effect),
    actor,
    detail: effect,
  };
}

function describeEffect(effect: Effect): string {
  switch (effect.type) {
    case 'phase_changed':
      return `${effect.from ?? '(start)'} → ${effect.to}: ${effect.cause}`;
    case 'approval_requested':
      return `waiting for the user's approval: ${effect.prompt}`;
    case 'approval_declined':
      return 'the user declined approval';
    case 'tamper_attempt':
      return `attempt on gobby's own ground refused (${effect.because})`;
    case 'stop_released':
      return `stop gate let the turn end (${effect.reason}, after ${effect.blocks} block${effect.blocks === 1 ? '' : 's'}), still missing: ${effect.unmet.join('; ')}`;
    case 'enforcement_resumed':
      return `enforcement back on: \`disable --for\` ran out at ${new Date(effect.until).toISOString()} (disabled because: ${effect.reason})`;
  }
}
