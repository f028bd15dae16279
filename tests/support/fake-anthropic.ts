/**
 * A scripted stand-in for the Anthropic Messages API, so the real Claude Code CLI can be
 * driven offline (loopback only) by end-to-end tests.
 *
 * - `POST /v1/messages[?beta=true]`: answered with SSE when `stream` is true (the CLI always
 *   streams), otherwise with a plain JSON message.
 * - "Main-loop" requests are the ones that carry a non-empty `tools` array. They consume the
 *   script in order. Everything else (side requests such as title generation) gets a short
 *   text reply and leaves the script alone. Observed with v2.1.330 `-p`: every request is
 *   a streaming main-loop request; no count_tokens, title or startup calls were made.
 * - Subagents (the Agent tool) also send requests with tools, so they consume the script
 *   too, in the order the CLI makes them. They are flagged `isSubagent` (their system prompt
 *   carries `cc_is_subagent=true`), so a function turn can branch on it.
 * - `POST /v1/messages/count_tokens`: a rough token estimate.
 * - Anything else is recorded (so a test can see it) and answered 404 with an Anthropic-style
 *   error body.
 *
 * Every request is recorded with its parsed JSON body; the helpers at the bottom
 * (`toolResultsIn`, `allText`, ...) read what the model was sent, which is how tests prove
 * that a hook's block or injected context reached the model.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// ---------------------------------------------------------------------------------------
// Messages API shapes (only what the harness reads or writes)
// ---------------------------------------------------------------------------------------

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  is_error?: boolean;
  content?: string | ContentBlock[];
}

/** Any other block type (image, thinking, document...) is carried through untouched. */
export interface OtherBlock {
  type: string;
  [key: string]: unknown;
}

export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock | OtherBlock;

export interface ApiMessage {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

export interface ApiTool {
  name: string;
  description?: string;
  input_schema?: unknown;
  [key: string]: unknown;
}

export interface MessagesRequestBody {
  model?: string;
  max_tokens?: number;
  stream?: boolean;
  system?: string | ContentBlock[];
  messages?: ApiMessage[];
  tools?: ApiTool[];
  [key: string]: unknown;
}

// ---------------------------------------------------------------------------------------
// Script and recording types
// ---------------------------------------------------------------------------------------

export interface ScriptedToolUse {
  name: string;
  input: Record<string, unknown>;
  /** Defaults to a generated `toolu_fake_<n>` id (unique per server). */
  id?: string;
}

/**
 * One model reply. `toolUses` makes a `stop_reason: "tool_use"` reply (optionally preceded
 * by `text`); `text` alone makes an `end_turn` reply.
 */
export type ScriptedReply =
  | { toolUses: ScriptedToolUse[]; text?: string }
  | { text: string; toolUses?: undefined };

/** A turn can be computed from the request it answers (e.g. branch on a tool_result). */
export type ScriptedTurn =
  | ScriptedReply
  | ((req: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>);

export type RequestKind = 'messages' | 'count_tokens' | 'other';

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/messages`. */
  path: string;
  /** Raw query string without `?` (the CLI sends `beta=true`). */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  kind: RequestKind;
  /** Parsed JSON body, or `undefined` when the body was empty or not JSON. */
  body: MessagesRequestBody | undefined;
  /** True for `/v1/messages` requests that carry tools (these consume the script). */
  isMain: boolean;
  /** True when the request comes from a subagent (Agent tool), not the top-level loop. */
  isSubagent: boolean;
  /** Index into the script this request consumed; `undefined` for side/other requests. */
  scriptIndex?: number;
  /** What the server answered for `/v1/messages` requests. */
  reply?: { content: ContentBlock[]; stopReason: 'tool_use' | 'end_turn' };
}

export interface FakeAnthropic {
  /** Base URL to put in ANTHROPIC_BASE_URL, e.g. `http://127.0.0.1:43123`. */
  url: string;
  /** Every request, in arrival order (live array). */
  requests: RecordedRequest[];
  /** Only the main-loop requests, in arrival order. */
  mainRequests(): RecordedRequest[];
  /** Requests to paths the fake does not implement (should stay empty). */
  unknownRequests(): RecordedRequest[];
  close(): Promise<void>;
}

export interface FakeAnthropicOptions {
  /** Text of the reply once the script is exhausted. Default "done". */
  exhaustedText?: string;
  /** Text of side-request replies (title generation etc.). Default "Fake side reply". */
  sideText?: string;
}

// ---------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------

export async function startFakeAnthropic(
  script: ScriptedTurn[],
  options: FakeAnthropicOptions = {},
): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  let nextScriptIndex = 0;
  let idCounter = 0;
  const newId = (prefix: string): string => `${prefix}_fake_${String(++idCounter).padStart(4, '0')}`;

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      // A bug in a scripted function must surface, not hang the CLI: answer 500 and
      // record the message so the failing test can show it.
      const message = err instanceof Error ? err.message : String(err);
      if (!res.headersSent) sendJson(res, 500, apiError('api_error', `fake-anthropic: ${message}`));
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [path = '/', query = ''] = (req.url ?? '/').split('?', 2);
    const raw = await readBody(req);
    const body = parseJson(raw);
    const kind: RequestKind =
      path === '/v1/messages' ? 'messages' : path === '/v1/messages/count_tokens' ? 'count_tokens' : 'other';
    const isMain =
      kind === 'messages' && req.method === 'POST' && Array.isArray(body?.tools) && body.tools.length > 0;
    const isSubagent = kind === 'messages' && flattenText(body?.system).some((t) => t.includes('cc_is_subagent=true'));
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      query,
      headers: req.headers,
      kind,
      body,
      isMain,
      isSubagent,
    };
    requests.push(record);

    if (kind === 'count_tokens' && req.method === 'POST') {
      // The CLI only uses this for context accounting; a rough 4-chars-per-token estimate
      // is plenty.
      sendJson(res, 200, { input_tokens: Math.max(1, Math.ceil(raw.length / 4)) });
      return;
    }
    if (kind !== 'messages' || req.method !== 'POST' || body === undefined) {
      sendJson(res, 404, apiError('not_found_error', `fake-anthropic: no route for ${req.method} ${req.url}`));
      return;
    }

    let reply: ScriptedReply;
    if (isMain) {
      const index = nextScriptIndex++;
      record.scriptIndex = index;
      const turn = script[index];
      reply =
        turn === undefined
          ? { text: options.exhaustedText ?? 'done' }
          : typeof turn === 'function'
            ? await turn(record)
            : turn;
    } else {
      reply = { text: options.sideText ?? 'Fake side reply' };
    }

    const content: ContentBlock[] = [];
    if (reply.text !== undefined && reply.text !== '') content.push({ type: 'text', text: reply.text });
    for (const use of reply.toolUses ?? []) {
      content.push({ type: 'tool_use', id: use.id ?? newId('toolu'), name: use.name, input: use.input });
    }
    // An empty end_turn reply confuses the CLI; always say something.
    if (content.length === 0) content.push({ type: 'text', text: options.exhaustedText ?? 'done' });
    const stopReason = content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
    record.reply = { content, stopReason };

    const message = {
      id: newId('msg'),
      type: 'message',
      role: 'assistant',
      model: body.model ?? 'claude-sonnet-4-5',
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: usage(raw.length, content),
    };
    if (body.stream === true) sendSse(res, message);
    else sendJson(res, 200, message);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mainRequests: () => requests.filter((r) => r.isMain),
    unknownRequests: () => requests.filter((r) => r.kind === 'other'),
    close: () =>
      new Promise<void>((resolve, reject) => {
        // The CLI uses keep-alive; without this, close() waits for idle sockets to time out.
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

// ---------------------------------------------------------------------------------------
// Wire format
// ---------------------------------------------------------------------------------------

interface FullMessage {
  id: string;
  model: string;
  content: ContentBlock[];
  stop_reason: string;
  usage: { input_tokens: number; output_tokens: number };
}

/** Streams a complete message the way the real API does (one delta per block is enough). */
function sendSse(res: ServerResponse, message: FullMessage): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'request-id': `req_${message.id}`,
  });
  const event = (type: string, data: Record<string, unknown>): void => {
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };

  event('message_start', {
    message: {
      ...message,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: message.usage.input_tokens, output_tokens: 1 },
    },
  });
  message.content.forEach((block, index) => {
    if (block.type === 'tool_use') {
      const use = block as ToolUseBlock;
      event('content_block_start', { index, content_block: { type: 'tool_use', id: use.id, name: use.name, input: {} } });
      event('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(use.input ?? {}) },
      });
    } else {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { index, delta: { type: 'text_delta', text: (block as TextBlock).text } });
    }
    event('content_block_stop', { index });
  });
  event('message_delta', {
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: message.usage.output_tokens },
  });
  event('message_stop', {});
  res.end();
}

function sendJson(res: ServerResponse, status: number, payload: unknown): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function apiError(type: string, message: string): Record<string, unknown> {
  return { type: 'error', error: { type, message } };
}

function usage(requestChars: number, content: ContentBlock[]): FullMessage['usage'] {
  return {
    input_tokens: Math.max(1, Math.ceil(requestChars / 4)),
    output_tokens: Math.max(1, Math.ceil(JSON.stringify(content).length / 4)),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(raw: string): MessagesRequestBody | undefined {
  if (raw.trim() === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null ? (parsed as MessagesRequestBody) : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------
// Reading what the model was sent
// ---------------------------------------------------------------------------------------

export interface ToolResultSummary {
  tool_use_id: string;
  is_error: boolean;
  /** Every text inside the tool_result content (system-reminders included), joined by "\n". */
  text: string;
}

/** The tool_result blocks of the last user message of a request. */
export function toolResultsIn(req: RecordedRequest): ToolResultSummary[] {
  const last = lastUserMessage(req);
  if (last === undefined || typeof last.content === 'string') return [];
  return last.content
    .filter((b): b is ToolResultBlock => b.type === 'tool_result')
    .map((b) => ({ tool_use_id: b.tool_use_id, is_error: b.is_error === true, text: flattenText(b.content).join('\n') }));
}

/** The last `role: "user"` message of a request, if any. */
function lastUserMessage(req: RecordedRequest): ApiMessage | undefined {
  return [...(req.body?.messages ?? [])].reverse().find((m) => m.role === 'user');
}

/**
 * Every text the model saw in `messages`: string contents, text blocks (including the
 * `<system-reminder>` blocks Claude Code inserts into user messages) and tool_result
 * contents, flattened and joined by "\n". A resumed session's request carries its whole
 * history: to check what the newest prompt brought, use `newestTurnText`.
 */
export function allText(req: RecordedRequest): string {
  return (req.body?.messages ?? []).flatMap((m) => flattenText(m.content)).join('\n');
}

/**
 * The text of the messages after the model last spoke: the newest prompt with the context
 * the hooks attached to it (or the newest tool results), never what earlier turns carried.
 */
export function newestTurnText(req: RecordedRequest): string {
  const messages = req.body?.messages ?? [];
  const lastAssistant = messages.map((m) => m.role).lastIndexOf('assistant');
  return messages.slice(lastAssistant + 1).flatMap((m) => flattenText(m.content)).join('\n');
}

function flattenText(content: string | ContentBlock[] | undefined): string[] {
  if (content === undefined) return [];
  if (typeof content === 'string') return [content];
  return content.flatMap((block): string[] => {
    if (block.type === 'text') return [(block as TextBlock).text];
    if (block.type === 'tool_result') return flattenText((block as ToolResultBlock).content);
    return [];
  });
}
