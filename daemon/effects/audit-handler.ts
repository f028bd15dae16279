// The audit log's record of what the engine did besides deciding: phase changes, approval
// asked, approval declined. Durable: the row is written exactly once, crash or not.
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
    event: effect.type,
    decision: 'none',
    workflow,
    phase: effect.type === 'phase_changed' ? effect.to : effect.phase,
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
    case 'enforcement_resumed':
      return `enforcement back on: \`disable --for\` ran out at ${new Date(effect.until).toISOString()} (disabled because: ${effect.reason})`;
  }
}
