// Phase changes in the daemon log, so someone reading the log sees the workflow move
// without opening the database. Transient: losing a log line in a crash costs nothing.
import type { EffectHandler } from './effect-runner.js';

export interface EffectLog {
  info(fields: Record<string, unknown>, message: string): void;
}

export function createLogHandler(log: EffectLog): EffectHandler {
  return {
    name: 'log',
    durable: false,
    accepts: (effect) => effect.type === 'phase_changed',
    run({ effect, sessionId, workflow, actor }) {
      if (effect.type !== 'phase_changed') return;
      log.info({ session: sessionId, workflow, from: effect.from, to: effect.to, cause: effect.cause, actor }, 'phase changed');
    },
  };
}
