// $GOBBY_HOME/config.json: optional. Environment variables win over it.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { configuredPortProblem, resolveConfiguredPort } from '../hooks/daemon-file.js';

const configFileSchema = z.looseObject({
  port: z.number().int().min(1).max(65535).optional(),
  log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  body_limit_mb: z.number().positive().max(512).optional(),
});

export interface DaemonConfig {
  readonly port: number;
  readonly logLevel: string;
  readonly bodyLimitBytes: number;
}

export function loadDaemonConfig(home: string, configPath: string, env: Record<string, string | undefined>): DaemonConfig {
  let file: z.infer<typeof configFileSchema> = {};
  let text: string | undefined;
  try {
    text = readFileSync(configPath, 'utf8');
  } catch {
    // no config file: defaults
  }
  if (text !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new Error(`${configPath} is not valid JSON: ${(error as Error).message}`);
    }
    const parsed = configFileSchema.safeParse(json);
    if (!parsed.success) {
      throw new Error(`${configPath}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    }
    file = parsed.data;
  }
  const portProblem = configuredPortProblem(env, home);
  if (portProblem) throw new Error(portProblem);
  return {
    port: resolveConfiguredPort(env, home),
    logLevel: env.GOBBY_LOG_LEVEL ?? file.log_level ?? 'info',
    bodyLimitBytes: Math.round((file.body_limit_mb ?? 32) * 1024 * 1024),
  };
}
