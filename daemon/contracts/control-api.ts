// The control API as a table: each endpoint's method, path and answer schema. The routes
// (daemon/http/control-routes.ts) are registered from it and must return what the schema
// describes (checked at compile time); the CLI (daemon/cli/daemon-client.ts) calls through
// it and parses every answer with the schema. The MCP server and a dashboard use the same.
import type { z } from 'zod';
import { GOBBY_VERSION_HEADER as VERSION_HEADER, IDENTITY_PATH } from '../../hooks/daemon-locator.js';
import { daemonAnswer, healthAnswer, identityAnswer, shutdownAnswer } from './daemon-answers.js';
import { auditAnswer, enforcementAnswer, phaseAnswer, resetAnswer, statusAnswer } from './session-answers.js';
import { statusLineAnswer } from './statusline-answer.js';
import { clearWorkflowAnswer, setWorkflowAnswer, workflowAnswer, workflowListAnswer } from './workflow-answers.js';

/**
 * Every daemon answer carries this header with the daemon's version, so a client can tell
 * gobby's answers from another program's that happens to hold the port.
 */
export const GOBBY_VERSION_HEADER = VERSION_HEADER;

export interface ControlEndpoint {
  readonly method: 'GET' | 'POST' | 'PUT';
  /** A fastify route path; `:name` segments are filled in by the client. */
  readonly path: string;
  readonly answer: z.ZodType;
}

export const CONTROL_API = {
  health: { method: 'GET', path: '/api/health', answer: healthAnswer },
  identity: { method: 'GET', path: IDENTITY_PATH, answer: identityAnswer },
  daemon: { method: 'GET', path: '/api/daemon', answer: daemonAnswer },
  shutdown: { method: 'POST', path: '/api/shutdown', answer: shutdownAnswer },
  status: { method: 'GET', path: '/api/status', answer: statusAnswer },
  statusLine: { method: 'GET', path: '/api/statusline', answer: statusLineAnswer },
  audit: { method: 'GET', path: '/api/audit', answer: auditAnswer },
  listWorkflows: { method: 'GET', path: '/api/workflows', answer: workflowListAnswer },
  showWorkflow: { method: 'GET', path: '/api/workflows/:name', answer: workflowAnswer },
  setWorkflow: { method: 'PUT', path: '/api/projects/workflow', answer: setWorkflowAnswer },
  clearWorkflow: { method: 'POST', path: '/api/projects/workflow/clear', answer: clearWorkflowAnswer },
  changePhase: { method: 'POST', path: '/api/sessions/phase', answer: phaseAnswer },
  reset: { method: 'POST', path: '/api/sessions/reset', answer: resetAnswer },
  disable: { method: 'POST', path: '/api/sessions/disable', answer: enforcementAnswer },
  enable: { method: 'POST', path: '/api/sessions/enable', answer: enforcementAnswer },
} as const satisfies Record<string, ControlEndpoint>;

export type ControlEndpointName = keyof typeof CONTROL_API;

/** What an endpoint answers with on success, e.g. `AnswerOf<typeof CONTROL_API.status>`. */
export type AnswerOf<Endpoint extends ControlEndpoint> = z.infer<Endpoint['answer']>;
